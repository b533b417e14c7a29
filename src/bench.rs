//! `menagerie bench`: a fixed set of positions per variant searched to a fixed depth. With one
//! thread the node total is deterministic, the behaviour checksum of the search (`Bench: N` in
//! commit messages).

use crate::search::{self, Control, Limits};
use crate::variants::Variant;
use std::time::{Duration, Instant};

/// Depth searched when none is given.
pub const DEFAULT_DEPTH: u32 = 5;

/// The bench positions of a variant: its own list, or its start position.
pub fn positions(variant: &dyn Variant) -> Vec<String> {
    let own = variant.bench_positions();
    if own.is_empty() {
        vec![variant.rules().spec.start_fen.to_string()]
    } else {
        own.iter().map(|s| s.to_string()).collect()
    }
}

/// Result of a bench run.
pub struct BenchResult {
    /// Total nodes.
    pub nodes: u64,
    /// Wall time.
    pub time: Duration,
}

/// Searches every bench position of `variant` to `depth`.
pub fn run(
    variant: &dyn Variant,
    depth: u32,
    mut on_position: impl FnMut(usize, &str, u64),
) -> BenchResult {
    let start = Instant::now();
    let mut nodes = 0;
    for (i, fen) in positions(variant).iter().enumerate() {
        let pos = variant.parse_fen(fen).expect("bench positions are valid");
        let limits = Limits {
            depth: Some(depth),
            ..Default::default()
        };
        let control = Control::new(false);
        let r = search::search(variant, &pos, &[], &limits, &control, &mut |_| {});
        nodes += r.nodes;
        on_position(i, fen, r.nodes);
    }
    BenchResult {
        nodes,
        time: start.elapsed(),
    }
}
