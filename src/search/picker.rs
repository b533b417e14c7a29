//! Hands out moves best-scored first, one at a time, without allocating: most nodes are cut off
//! after a few moves, so sorting the whole list would be wasted work.

use crate::core::moves::MAX_MOVES;
use crate::core::{Move, MoveList};

/// A move list, borrowed and reordered in place, with a score per move.
pub struct Picker<'a> {
    moves: &'a mut MoveList,
    scores: [i32; MAX_MOVES],
    next: usize,
}

impl<'a> Picker<'a> {
    /// Scores every move of `moves` with `score`.
    pub fn new(moves: &'a mut MoveList, score: impl Fn(Move) -> i32) -> Picker<'a> {
        let mut scores = [0; MAX_MOVES];
        for (i, &m) in moves.iter().enumerate() {
            scores[i] = score(m);
        }
        Picker {
            moves,
            scores,
            next: 0,
        }
    }

    /// The best-scored move not yet handed out.
    pub fn next(&mut self) -> Option<Move> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..n {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.next += 1;
        Some(self.moves.as_slice()[self.next - 1])
    }
}
