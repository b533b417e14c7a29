//! Hands out moves best-scored first, one at a time, without allocating: most nodes are cut off
//! after a few moves, so sorting the whole list would be wasted work.

use crate::core::moves::MAX_MOVES;
use crate::core::{Move, MoveList};

/// Room for a picker's scores, one per move: kept from node to node (see `NodeLists`), since
/// building a fresh array of `MAX_MOVES` at every node costs more than most nodes search.
pub struct Scores {
    fixed: [i32; MAX_MOVES],
    /// Every move's score instead of `fixed`, in the rare list that spilled past `MAX_MOVES` to
    /// the heap (an Afterlife turn with every free step and Destiny); empty otherwise.
    spilled: Vec<i32>,
}

impl Default for Scores {
    fn default() -> Self {
        Scores {
            fixed: [0; MAX_MOVES],
            spilled: Vec::new(),
        }
    }
}

/// A move list, borrowed and reordered in place, with a score per move.
pub struct Picker<'a> {
    moves: &'a mut MoveList,
    scores: &'a mut Scores,
    next: usize,
}

impl<'a> Picker<'a> {
    /// Scores every move of `moves` with `score`, into `scores`.
    pub fn new(
        moves: &'a mut MoveList,
        scores: &'a mut Scores,
        score: impl Fn(Move) -> i32,
    ) -> Picker<'a> {
        scores.spilled.clear();
        if moves.len() <= MAX_MOVES {
            for (s, &m) in scores.fixed.iter_mut().zip(moves.iter()) {
                *s = score(m);
            }
        } else {
            scores.spilled.extend(moves.iter().map(|&m| score(m)));
        }
        Picker {
            moves,
            scores,
            next: 0,
        }
    }

    /// The scores, one per move.
    fn scores_mut(&mut self) -> &mut [i32] {
        if self.scores.spilled.is_empty() {
            &mut self.scores.fixed[..]
        } else {
            &mut self.scores.spilled[..]
        }
    }

    /// The best-scored move not yet handed out.
    pub fn next(&mut self) -> Option<Move> {
        self.next_demoting(|_, _| None)
    }

    /// The best-scored move not yet handed out, after a second look: a move for which
    /// `demote(move, score)` gives a lower score takes that score and the choice is made again.
    /// Work that only some moves need (a static exchange) is thus done only for the moves that
    /// come up before the node ends.
    pub fn next_demoting(&mut self, demote: impl Fn(Move, i32) -> Option<i32>) -> Option<Move> {
        let (n, next) = (self.moves.len(), self.next);
        if next >= n {
            return None;
        }
        loop {
            // The first of the best-scored: the maximum, then where it first stands (two passes
            // that vector instructions speed up, against one whose every step waits for the last).
            let rest = &self.scores_mut()[next..n];
            let top = rest.iter().copied().max().unwrap_or(i32::MIN);
            let best = next + rest.iter().position(|&s| s == top).unwrap_or(0);
            let m = self.moves.as_slice()[best];
            let scores = self.scores_mut();
            if let Some(lower) = demote(m, scores[best]).filter(|&s| s < scores[best]) {
                scores[best] = lower;
                continue;
            }
            scores.swap(next, best);
            self.moves.swap(next, best);
            self.next += 1;
            return Some(m);
        }
    }

    /// The score of the move handed out last.
    pub fn last_score(&self) -> i32 {
        let i = self.next.saturating_sub(1);
        if self.scores.spilled.is_empty() {
            self.scores.fixed[i]
        } else {
            self.scores.spilled[i]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Square;

    /// Moves numbered by their index, scored by a permutation of it, both below and past
    /// `MAX_MOVES`: the picker hands them out best first, with the same room for scores reused
    /// from list to list (a short list after a spilled one included).
    #[test]
    fn hands_out_best_first_in_short_and_spilled_lists() {
        let mut scores = Scores::default();
        for len in [5, MAX_MOVES, MAX_MOVES + 40, 7, MAX_MOVES + 3, 4] {
            let mut list = MoveList::new();
            for i in 0..len {
                let (a, b) = (i % 120, (i / 120) % 120);
                list.push(Move::normal(
                    Square::from_index(a as u8),
                    Square::from_index(b as u8),
                ));
            }
            let score = |m: Move| ((m.from().index() * 37 + m.to().index() * 11) % 101) as i32;
            let mut picker = Picker::new(&mut list, &mut scores, score);
            let mut last = i32::MAX;
            let mut count = 0;
            while let Some(m) = picker.next() {
                assert!(score(m) <= last, "length {len}");
                last = score(m);
                count += 1;
            }
            assert_eq!(count, len);
        }
    }
}
