//! `menagerie perft`: the leaf nodes of the legal move tree, with a progress bar on a terminal.

use crate::board::Position;
use crate::notation::{move_text, Dialect};
use crate::variants::{self, Variant};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

/// Deepest perft the CLI accepts.
pub const MAX_PERFT_DEPTH: u32 = 20;

/// Counts the leaves `depth` plies below `fen` (the start position when `None`) of `variant`,
/// with the count below each root move when `divide`, the root moves split over `threads`.
pub fn perft(
    variant: &str,
    fen: Option<&str>,
    depth: u32,
    divide: bool,
    threads: usize,
) -> Result<(), String> {
    let v = variants::by_name(variant).map_err(|e| e.to_string())?;
    if depth > MAX_PERFT_DEPTH {
        return Err(format!(
            "depth {depth} is too deep (at most {MAX_PERFT_DEPTH})"
        ));
    }
    if threads == 0 || threads > 256 {
        return Err(format!("threads must be between 1 and 256, not {threads}"));
    }
    let pos = match fen {
        Some(f) => v.parse_fen(f).map_err(|e| e.to_string())?,
        None => v.start_position(),
    };
    if depth == 0 {
        println!("Nodes searched: 1");
        return Ok(());
    }
    let bar = std::io::stderr()
        .is_terminal()
        .then(|| progress_bar(v, &pos));
    let progress = |n: usize| {
        if let Some(b) = &bar {
            b.set_position(n as u64);
        }
    };
    let never = std::sync::atomic::AtomicBool::new(false);
    let counts = crate::perft::divide(v, &pos, depth, threads, &progress, &never)
        .expect("a perft nobody stops runs to the end");
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if divide {
        for (m, n) in &counts {
            println!("{}: {n}", move_text(v, Dialect::Uci, *m));
        }
        println!();
    }
    println!(
        "Nodes searched: {}",
        counts.iter().map(|(_, n)| n).sum::<u64>()
    );
    Ok(())
}

/// A bar that counts the root moves done.
fn progress_bar(v: &dyn Variant, pos: &Position) -> ProgressBar {
    let mut moves = crate::core::MoveList::new();
    v.legal_moves(pos, &mut moves);
    let bar = ProgressBar::new(moves.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("perft {bar:40} {pos}/{len} root moves, {elapsed}")
            .expect("valid template"),
    );
    bar
}
