//! Hands out moves best-scored first, one at a time, without allocating: most nodes are cut off
//! after a few moves, so sorting the whole list would be wasted work. A picker may hand out one
//! move (the table's) before the others are scored: a node cut by it scores none of them.

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
    /// Whether the moves after the first (or every move, without a first) wait for
    /// `Picker::score_rest`.
    unscored: bool,
    /// Whether the move at the start of the list is handed out before the rest are scored.
    first: bool,
}

impl<'a> Picker<'a> {
    /// Scores every move of `moves` with `score`, into `scores`.
    pub fn new(
        moves: &'a mut MoveList,
        scores: &'a mut Scores,
        score: impl Fn(Move) -> i32,
    ) -> Picker<'a> {
        let mut picker = Picker::unscored(moves, scores);
        picker.score_rest(score);
        picker
    }

    /// A picker that hands out `first` (scored `first_score`) before the other moves are
    /// scored, if `first` is among `moves`; `Picker::score_rest` must score them before the
    /// next move is asked for (`Picker::needs_scores`). `first` must outscore every other move,
    /// so that the order is `Picker::new`'s but for the scores of the rest being worked out
    /// later.
    pub fn with_first(
        moves: &'a mut MoveList,
        scores: &'a mut Scores,
        first: Move,
        first_score: i32,
    ) -> Picker<'a> {
        let at = moves.iter().position(|&m| m == first);
        let mut picker = Picker::unscored(moves, scores);
        if let Some(at) = at {
            picker.moves.swap(0, at);
            picker.scores_mut()[0] = first_score;
            picker.first = true;
        }
        picker
    }

    /// A picker whose moves all wait for `Picker::score_rest`, its room for scores sized.
    fn unscored(moves: &'a mut MoveList, scores: &'a mut Scores) -> Picker<'a> {
        scores.spilled.clear();
        if moves.len() > MAX_MOVES {
            scores.spilled.resize(moves.len(), 0);
        }
        Picker {
            moves,
            scores,
            next: 0,
            unscored: true,
            first: false,
        }
    }

    /// Whether the moves not handed out yet must be scored (`Picker::score_rest`) before the
    /// next is asked for.
    pub fn needs_scores(&self) -> bool {
        self.unscored && self.next >= usize::from(self.first) && self.next < self.moves.len()
    }

    /// Scores with `score` every move not handed out yet. A picker made `with_first` whose first
    /// move is handed out scores the rest by what is known once that move has been searched.
    pub fn score_rest(&mut self, score: impl Fn(Move) -> i32) {
        let (next, n) = (self.next, self.moves.len());
        let moves = &self.moves.as_slice()[next..n];
        let scores = if self.scores.spilled.is_empty() {
            &mut self.scores.fixed[next..n]
        } else {
            &mut self.scores.spilled[next..n]
        };
        for (s, &m) in scores.iter_mut().zip(moves) {
            *s = score(m);
        }
        self.unscored = false;
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
        if self.unscored {
            // The first move, handed out before the rest are scored (and never demoted: it
            // outscores them all). Asked for unscored moves, a picker hands them out in turn.
            debug_assert!(
                self.first && next == 0,
                "moves asked for before they were scored"
            );
            self.next += 1;
            return Some(self.moves.as_slice()[next]);
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

    /// `len` distinct moves, numbered by their place in the list.
    fn numbered(len: usize) -> MoveList {
        let mut list = MoveList::new();
        for i in 0..len {
            let (a, b) = (i % 120, (i / 120) % 120);
            list.push(Move::normal(
                Square::from_index(a as u8),
                Square::from_index(b as u8),
            ));
        }
        list
    }

    /// A score that permutes the moves' numbers.
    fn score(m: Move) -> i32 {
        ((m.from().index() * 37 + m.to().index() * 11) % 101) as i32
    }

    /// Moves numbered by their index, scored by a permutation of it, both below and past
    /// `MAX_MOVES`: the picker hands them out best first, with the same room for scores reused
    /// from list to list (a short list after a spilled one included).
    #[test]
    fn hands_out_best_first_in_short_and_spilled_lists() {
        let mut scores = Scores::default();
        for len in [5, MAX_MOVES, MAX_MOVES + 40, 7, MAX_MOVES + 3, 4] {
            let mut list = numbered(len);
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

    /// A picker made `with_first` hands out the first move, then (once the rest are scored)
    /// the same moves in the same order as `Picker::new` with a score that puts the first
    /// move on top; a first move that is not in the list changes nothing.
    #[test]
    fn a_first_move_handed_out_before_scoring_keeps_the_order() {
        let mut scores = Scores::default();
        for (len, first_at) in [
            (5, Some(3)),
            (MAX_MOVES + 40, Some(MAX_MOVES + 7)),
            (9, None),
        ] {
            let mut list = numbered(len);
            let first = first_at.map_or(Move::NULL, |i| list.as_slice()[i]);
            let top = |m: Move| if m == first { 1_000 } else { score(m) };
            let mut copy = list.clone();
            let mut copy_scores = Scores::default();
            let mut reference = Picker::new(&mut copy, &mut copy_scores, top);
            let expected: Vec<Move> = std::iter::from_fn(|| reference.next()).collect();
            let mut picker = Picker::with_first(&mut list, &mut scores, first, 1_000);
            let mut got = Vec::new();
            loop {
                if picker.needs_scores() {
                    picker.score_rest(score);
                }
                match picker.next() {
                    Some(m) => got.push(m),
                    None => break,
                }
            }
            assert_eq!(got, expected, "length {len}");
        }
    }
}
