//! Perft: counts the leaf nodes of the legal move tree, the standard check of a move generator.
//! Leaves are counted in bulk (at depth 1 the legal moves are counted, not made). With several
//! threads the root moves are split over a rayon pool. A count by root move can be stopped, so
//! that a protocol's `go perft` stops like a search.

use crate::board::Position;
use crate::core::{Move, MoveList};
use crate::variants::Variant;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

pub mod suite;

/// Leaf count at `depth`.
pub fn perft(variant: &dyn Variant, pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => return 1,
        1 => return variant.legal_count(pos) as u64,
        _ => {}
    }
    let mut moves = MoveList::new();
    variant.legal_moves(pos, &mut moves);
    if depth == 2 {
        // The last ply's counts share one scratch list, and each node's moves one child position.
        let mut scratch = MoveList::new();
        let mut child = None;
        return moves
            .iter()
            .map(|&m| {
                let child = variant.play_in(pos, m, &mut child);
                variant.legal_count_with(child, &mut scratch) as u64
            })
            .sum();
    }
    let mut child = None;
    moves
        .iter()
        .map(|&m| perft(variant, variant.play_in(pos, m, &mut child), depth - 1))
        .sum()
}

/// Subtrees at least this deep look at the stop flag before they are counted; shallower ones
/// run the plain `perft`, so stopping costs nothing where the nodes are.
const STOP_CHECK_DEPTH: u32 = 3;

/// Leaf count at `depth`, or None once `stop` is set.
fn stoppable(variant: &dyn Variant, pos: &Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth < STOP_CHECK_DEPTH {
        return Some(perft(variant, pos, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut moves = MoveList::new();
    variant.legal_moves(pos, &mut moves);
    let mut total = 0;
    for &m in moves.iter() {
        total += stoppable(variant, &variant.play(pos, m), depth - 1, stop)?;
    }
    Some(total)
}

/// Leaf counts per root move, in generation order, or None if `stop` was set before the end.
/// `threads` > 1 splits the root moves over a rayon pool of that size; `progress` is called after
/// each root move with the moves done so far.
pub fn divide(
    variant: &dyn Variant,
    pos: &Position,
    depth: u32,
    threads: usize,
    progress: &(dyn Fn(usize) + Sync),
    stop: &AtomicBool,
) -> Option<Vec<(Move, u64)>> {
    let done = AtomicUsize::new(0);
    let each = |_: Move, _: u64| progress(done.fetch_add(1, Ordering::Relaxed) + 1);
    divide_each(variant, pos, depth, threads, &each, stop)
}

/// As `divide`, but `on_move` gets each root move's count as soon as it is known: in generation
/// order with one thread, in the order they finish with several (calls may come from any of the
/// pool's threads, one at a time per move). The result is still in generation order.
pub fn divide_each(
    variant: &dyn Variant,
    pos: &Position,
    depth: u32,
    threads: usize,
    on_move: &(dyn Fn(Move, u64) + Sync),
    stop: &AtomicBool,
) -> Option<Vec<(Move, u64)>> {
    let mut moves = MoveList::new();
    variant.legal_moves(pos, &mut moves);
    let count = |m: Move| {
        let n = if depth <= 1 {
            Some(1)
        } else {
            stoppable(variant, &variant.play(pos, m), depth - 1, stop)
        }?;
        on_move(m, n);
        Some((m, n))
    };
    if threads <= 1 {
        return moves.iter().map(|&m| count(m)).collect();
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool can be built");
    pool.install(|| moves.as_slice().par_iter().map(|&m| count(m)).collect())
}
