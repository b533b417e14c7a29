//! Hands out moves best-scored first, one at a time, without allocating: most nodes are cut off
//! after a few moves, so sorting the whole list would be wasted work.

use crate::core::moves::MAX_MOVES;
use crate::core::{Move, MoveList};

/// A move list, borrowed and reordered in place, with a score per move.
pub struct Picker<'a> {
    moves: &'a mut MoveList,
    scores: [i32; MAX_MOVES],
    /// Scores of the moves past `MAX_MOVES`, in the rare list that spilled to the heap (an
    /// Afterlife turn with every free step and Destiny).
    spilled: Vec<i32>,
    next: usize,
}

impl<'a> Picker<'a> {
    /// Scores every move of `moves` with `score`.
    pub fn new(moves: &'a mut MoveList, score: impl Fn(Move) -> i32) -> Picker<'a> {
        let mut scores = [0; MAX_MOVES];
        let mut spilled = Vec::new();
        for (i, &m) in moves.iter().enumerate() {
            if i < MAX_MOVES {
                scores[i] = score(m);
            } else {
                spilled.push(score(m));
            }
        }
        Picker {
            moves,
            scores,
            spilled,
            next: 0,
        }
    }

    fn score(&self, i: usize) -> i32 {
        if i < MAX_MOVES {
            self.scores[i]
        } else {
            self.spilled[i - MAX_MOVES]
        }
    }

    fn swap_scores(&mut self, a: usize, b: usize) {
        let (sa, sb) = (self.score(a), self.score(b));
        for (i, s) in [(a, sb), (b, sa)] {
            if i < MAX_MOVES {
                self.scores[i] = s;
            } else {
                self.spilled[i - MAX_MOVES] = s;
            }
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
            if self.score(i) > self.score(best) {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.swap_scores(self.next, best);
        self.next += 1;
        Some(self.moves.as_slice()[self.next - 1])
    }
}
