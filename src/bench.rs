//! `menagerie bench`: a fixed set of positions per variant searched to a fixed depth. With one
//! thread the node total is deterministic, the behaviour checksum of the search (`Bench: N` in
//! commit messages).

use crate::search::{self, Control, Limits, SearchInput, SearchTables, TranspositionTable};
use crate::variants::{Bench, Variant};
use std::time::{Duration, Instant};

/// Depth searched when none is given and the variant names none of its own.
pub const DEFAULT_DEPTH: u32 = Bench::DEFAULT_DEPTH;
/// Transposition table of the bench, in MiB (cleared before each position, with the move-ordering
/// tables: each position is a new game, so the total does not depend on the order).
pub const HASH_MB: usize = 16;

/// The bench positions of a variant: its own list, or its start position.
pub fn positions(variant: &dyn Variant) -> Vec<String> {
    let own = variant.bench().positions;
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

/// Searches every bench position of `variant` to `depth` with `threads` threads; `on_position`
/// gets each position's index, FEN, nodes and time.
pub fn run(
    variant: &dyn Variant,
    depth: u32,
    threads: usize,
    mut on_position: impl FnMut(usize, &str, u64, Duration),
) -> BenchResult {
    let pool = (threads > 1).then(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads - 1)
            .stack_size(search::THREAD_STACK_BYTES)
            .build()
            .expect("the bench thread pool starts")
    });
    let mut tt = TranspositionTable::new(HASH_MB);
    let mut tables = SearchTables::new();
    let start = Instant::now();
    let mut nodes = 0;
    for (i, fen) in positions(variant).iter().enumerate() {
        let pos = variant.parse_fen(fen).expect("bench positions are valid");
        let limits = Limits {
            depth: Some(depth),
            ..Default::default()
        };
        let control = Control::new(false);
        tt.clear();
        tables.clear();
        let t = Instant::now();
        let input =
            SearchInput::new(variant, &pos, &limits, &control, &tt).with_pool(pool.as_ref());
        let r = search::search_in_game(input, &mut tables, &mut |_| {});
        nodes += r.nodes;
        on_position(i, fen, r.nodes, t.elapsed());
    }
    BenchResult {
        nodes,
        time: start.elapsed(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants;

    /// Most nodes a two-thread bench search of one position may take: many times what any
    /// position needs (the largest, Chaos's second, about half a million), far below a search
    /// that does not end.
    const NODE_CAP: u64 = 5_000_000;

    /// The one-thread bench is the same on every run, and each position counts what a search
    /// of it alone counts: nothing one position's search learns reaches the next.
    #[test]
    fn the_one_thread_bench_is_the_sum_of_searches_alone() {
        let v = variants::by_name("chess").unwrap();
        let depth = 5;
        let mut each = Vec::new();
        let total = run(v, depth, 1, |_, _, n, _| each.push(n)).nodes;
        assert_eq!(run(v, depth, 1, |_, _, _, _| {}).nodes, total);
        assert!(each.len() > 1);
        for (fen, nodes) in positions(v).iter().zip(&each) {
            let limits = Limits {
                depth: Some(depth),
                ..Default::default()
            };
            let (pos, control) = (v.parse_fen(fen).unwrap(), Control::new(false));
            let tt = TranspositionTable::new(HASH_MB);
            let r = search::search(
                SearchInput::new(v, &pos, &limits, &control, &tt),
                &mut |_| {},
            );
            assert_eq!(r.nodes, *nodes, "{fen}");
        }
    }

    /// Every game's bench searched with two threads, `MENAGERIE_BENCH_RUNS` times (2 unless
    /// set): each search reaches the bench depth. Two threads search differently on each run,
    /// so a line that need not end shows up in some runs only; a long run sets the variable.
    #[test]
    fn the_two_thread_bench_of_every_game_ends() {
        let runs: usize = std::env::var("MENAGERIE_BENCH_RUNS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(2);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .stack_size(search::THREAD_STACK_BYTES)
            .build()
            .unwrap();
        let mut tt = TranspositionTable::new(HASH_MB);
        for run in 0..runs {
            for v in variants::all() {
                let depth = v.bench().depth;
                for fen in positions(*v) {
                    let pos = v.parse_fen(&fen).unwrap();
                    let limits = Limits {
                        depth: Some(depth),
                        nodes: Some(NODE_CAP),
                        ..Default::default()
                    };
                    tt.clear();
                    let control = Control::new(false);
                    let input =
                        SearchInput::new(*v, &pos, &limits, &control, &tt).with_pool(Some(&pool));
                    let r = search::search(input, &mut |_| {});
                    // A third party's seeded ply is played without a search (depth 0).
                    assert!(
                        r.depth == depth || (r.nodes == 0 && r.best.is_some()),
                        "{} run {run}: depth {} of {depth} after {} nodes from {fen}",
                        v.name(),
                        r.depth,
                        r.nodes
                    );
                }
            }
        }
    }
}
