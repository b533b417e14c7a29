//! Perft: counts the leaf nodes of the legal move tree, the standard check of a move generator.
//! Leaves are counted in bulk (at depth 1 the legal moves are counted, not made). With several
//! threads the root moves are split over a rayon pool.

use crate::board::Position;
use crate::core::{Move, MoveList};
use crate::variants::Variant;
use rayon::prelude::*;

/// Leaf count at `depth`.
pub fn perft(variant: &dyn Variant, pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    variant.legal_moves(pos, &mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| perft(variant, &variant.play(pos, m), depth - 1))
        .sum()
}

/// Leaf counts per root move, in generation order. `threads` > 1 splits the root moves over a
/// rayon pool of that size; `progress` is called after each root move with the moves done so far.
pub fn divide(
    variant: &dyn Variant,
    pos: &Position,
    depth: u32,
    threads: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<(Move, u64)> {
    let mut moves = MoveList::new();
    variant.legal_moves(pos, &mut moves);
    let count = |m: Move| {
        if depth <= 1 {
            1
        } else {
            perft(variant, &variant.play(pos, m), depth - 1)
        }
    };
    let done = std::sync::atomic::AtomicUsize::new(0);
    let tick = || progress(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
    if threads <= 1 {
        return moves
            .iter()
            .map(|&m| {
                let n = count(m);
                tick();
                (m, n)
            })
            .collect();
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool can be built");
    pool.install(|| {
        moves
            .as_slice()
            .par_iter()
            .map(|&m| {
                let n = count(m);
                tick();
                (m, n)
            })
            .collect()
    })
}
