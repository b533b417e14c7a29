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
    count(variant, pos, depth, &mut Plies::new(depth))
}

/// What a count reuses from node to node: a move list and a child position for each depth of
/// 2 or more (shallower nodes are counted, not listed), and the last ply's scratch list. A new
/// list is 2 KB to clear and a new position 1 KB to copy, where a reused child position is
/// written over with the kinds the game has only.
struct Plies {
    /// The node at depth `d` uses `plies[d - 2]`.
    plies: Vec<Ply>,
    scratch: MoveList,
}

/// One depth's move list and child position.
struct Ply {
    moves: MoveList,
    child: Option<Position>,
}

impl Plies {
    /// Enough for a count of `depth`.
    fn new(depth: u32) -> Plies {
        Plies {
            plies: (2..=depth)
                .map(|_| Ply {
                    moves: MoveList::new(),
                    child: None,
                })
                .collect(),
            scratch: MoveList::new(),
        }
    }
}

/// `perft` with the lists and positions of `plies`, which must reach `depth`.
fn count(variant: &dyn Variant, pos: &Position, depth: u32, plies: &mut Plies) -> u64 {
    count_in(variant, pos, depth, &mut plies.plies, &mut plies.scratch)
}

/// `count` over `plies`: the node at `depth` uses `plies[depth - 2]`, its subtree those before.
fn count_in(
    variant: &dyn Variant,
    pos: &Position,
    depth: u32,
    plies: &mut [Ply],
    scratch: &mut MoveList,
) -> u64 {
    match depth {
        0 => return 1,
        1 => return variant.legal_count_with(pos, scratch) as u64,
        _ => {}
    }
    let (below, here) = plies.split_at_mut(depth as usize - 2);
    let Ply { moves, child } = &mut here[0];
    moves.clear();
    variant.legal_moves(pos, moves);
    let mut total = 0;
    for &m in moves.iter() {
        let child = variant.play_in(pos, m, child);
        total += count_in(variant, child, depth - 1, below, scratch);
    }
    total
}

/// Subtrees at least this deep look at the stop flag before they are counted; shallower ones
/// run the plain count, so stopping costs nothing where the nodes are.
const STOP_CHECK_DEPTH: u32 = 3;

/// Leaf count at `depth`, or None once `stop` is set.
fn stoppable(
    variant: &dyn Variant,
    pos: &Position,
    depth: u32,
    stop: &AtomicBool,
    plies: &mut Plies,
) -> Option<u64> {
    if depth < STOP_CHECK_DEPTH {
        return Some(count(variant, pos, depth, plies));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut moves = MoveList::new();
    variant.legal_moves(pos, &mut moves);
    let mut total = 0;
    for &m in moves.iter() {
        total += stoppable(variant, &variant.play(pos, m), depth - 1, stop, plies)?;
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
            stoppable(
                variant,
                &variant.play(pos, m),
                depth - 1,
                stop,
                &mut Plies::new(depth - 1),
            )
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
