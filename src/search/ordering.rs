//! Move ordering: the score each move is tried by (the table's move, captures that do not lose
//! material by victim, attacker and capture history, killers, the counter-move, history and
//! continuation history, then captures that lose material by static exchange), and the tables
//! that learn from the moves that refute.

use super::picker::{Picker, Scores};
use super::worker::{LinePly, Worker};
use crate::board::Position;
use crate::core::{Bitboard, Color, Move, MoveKind, MoveList, Square, MAX_KINDS, NUM_SQUARES};
use crate::variants::Variant;
use std::cell::OnceCell;

/// Ordering scores: the table's move, then captures, then killers, then history.
const ORDER_TT: i32 = 2_000_000;
const ORDER_CAPTURE: i32 = 1_000_000;
const ORDER_KILLER: [i32; 2] = [900_000, 800_000];
/// The counter-move to the move before comes after the killers, before the histories.
const ORDER_COUNTER: i32 = 700_000;
/// A quiet move of a piece that takes it off a square an enemy pawn-like piece captures on, to
/// one it does not, gains this much order (half the history's range): a piece a pawn attacks is
/// usually lost unless it moves, and one that steps into such an attack usually is. The
/// reverse loses as much.
const ORDER_PAWN_THREAT: i32 = 8_192;
/// Whether quiet moves are ordered by the enemy pawns' threats ([`ORDER_PAWN_THREAT`]): off
/// until a non-regression SPRT passes (docs/performance.md, "Tried changes (issue 26)").
const PAWN_THREAT_ORDER: bool = false;
/// History scores stay within this bound (far below the killers' order): each update moves a
/// score towards it by a share that shrinks as the score nears it ("gravity"), so that old
/// lessons fade and no score saturates.
const HISTORY_MAX: i32 = 16_384;
/// History bonus of a cutoff at `depth`: grows with depth, up to a cap.
const HISTORY_BONUS_PER_DEPTH: i32 = 170;
const HISTORY_BONUS_BASE: i32 = -100;
const HISTORY_BONUS_MAX: i32 = 1_700;
/// A capture's history is divided by this before it joins the capture's order, where a
/// centipawn of gain counts 10: the history's whole range (+-16,384) is then about +-1.6 pawns of
/// victim.
const CAPTURE_HISTORY_DIVISOR: i32 = 10;
/// Captures that lose material by static exchange come after every quiet move: their score
/// falls by this much.
const ORDER_BAD_CAPTURE_DROP: i32 = 2 * ORDER_CAPTURE;

/// Whether a picker's score is that of a capture not found to lose material (the table's move
/// aside): with static exchange on, one whose exchange has been counted.
pub(super) fn is_good_capture_score(score: i32) -> bool {
    (ORDER_KILLER[0] < score) && (score < ORDER_TT)
}

impl Worker<'_> {
    /// Moves in the order to try them: the table's move, captures by most valuable victim and
    /// least valuable attacker (shifted by their history), killers, then history. Where the
    /// game allows static exchange evaluation, `see_demotion` moves the captures that lose
    /// material after every quiet move as they come up.
    pub(super) fn picker<'m>(
        &self,
        pos: &Position,
        moves: &'m mut MoveList,
        scores: &'m mut Scores,
        ply: usize,
        tt_move: Move,
    ) -> Picker<'m> {
        Picker::new(moves, scores, self.order_score(pos, ply, tt_move))
    }

    /// `Worker::picker` that hands out the table's move before the other moves are scored:
    /// `Worker::score_rest` scores them when the node goes on past it, by the history its
    /// search has taught.
    pub(super) fn picker_table_first<'m>(
        &self,
        moves: &'m mut MoveList,
        scores: &'m mut Scores,
        tt_move: Move,
    ) -> Picker<'m> {
        Picker::with_first(moves, scores, tt_move, ORDER_TT)
    }

    /// Scores the moves of `picker` not handed out yet, if they wait for it (see
    /// `Worker::picker_table_first`).
    pub(super) fn score_rest(&self, pos: &Position, picker: &mut Picker, ply: usize) {
        if picker.needs_scores() {
            picker.score_rest(self.order_score(pos, ply, Move::NULL));
        }
    }

    /// The order score of a move at the node `pos` at `ply` (see `Worker::picker`).
    fn order_score<'s>(
        &'s self,
        pos: &'s Position,
        ply: usize,
        tt_move: Move,
    ) -> impl Fn(Move) -> i32 + 's {
        let variant = self.shared.variant;
        let before = self.keys_before(ply);
        let counter = before[0].map_or(Move::NULL, |k| {
            self.tables.counter[counter_index(pos.turn(), k, self.keys)]
        });
        let rows = self.continuation_rows(before);
        let rulings = variant.rulings();
        let killers = self.tables.killers[ply];
        // Worked out at the first quiet move scored.
        let pawn_threats = OnceCell::new();
        move |m| {
            if m == tt_move {
                ORDER_TT
            } else if rulings.is_noisy(pos, m) {
                // Most valuable victim and promoted piece first, then least valuable mover.
                let mover = self.value_on(pos, m.from());
                let promoted = if m.kind() == MoveKind::Promotion {
                    mover
                } else {
                    0
                };
                let gain = rulings.material_gain(pos, m, &|k| self.eval.value(k)) + promoted;
                ORDER_CAPTURE + 10 * gain - mover / 10 + self.capture_score(pos, m)
            } else if killers[0] == m {
                ORDER_KILLER[0]
            } else if killers[1] == m {
                ORDER_KILLER[1]
            } else if m == counter {
                ORDER_COUNTER
            } else if PAWN_THREAT_ORDER {
                let threats = pawn_threats.get_or_init(|| self.pawn_threats(pos));
                self.quiet_score(pos, m, &rows) + self.pawn_threat_score(pos, m, *threats)
            } else {
                self.quiet_score(pos, m, &rows)
            }
        }
    }

    /// The squares the pawn-like pieces of the side not to move capture on by leaps (none on a
    /// third party's turn).
    pub(super) fn pawn_threats(&self, pos: &Position) -> Bitboard {
        let them = pos.turn().opponent();
        if them == Color::Neutral {
            return Bitboard::EMPTY;
        }
        self.eval.pawn_leaps(self.shared.variant.rules(), pos, them)
    }

    /// The order a quiet move gains by leaving the enemy pawns' `threats` ([`ORDER_PAWN_THREAT`]),
    /// or loses by stepping into them: only a plain move of a piece neither pawn-like nor royal.
    pub(super) fn pawn_threat_score(&self, pos: &Position, m: Move, threats: Bitboard) -> i32 {
        if threats.is_empty() || m.kind() != MoveKind::Normal {
            return 0;
        }
        let rules = self.shared.variant.rules();
        let kind = pos.piece_at(m.from()).kind();
        if rules.pawns.contains(kind) || rules.royal.contains(kind) {
            return 0;
        }
        match (threats.contains(m.from()), threats.contains(m.to())) {
            (true, false) => ORDER_PAWN_THREAT,
            (false, true) => -ORDER_PAWN_THREAT,
            _ => 0,
        }
    }

    /// The keys of the two moves before a node at `ply`, the last first, passing over a third
    /// party's passes (none before the root, or for a null move).
    pub(super) fn keys_before(&self, ply: usize) -> [Option<u32>; 2] {
        let mut keys = [None; 2];
        let mut line = self.played[..ply]
            .iter()
            .rev()
            .filter(|&&p| p != LinePly::Passed);
        for key in keys.iter_mut() {
            match line.next() {
                Some(&LinePly::Keyed(k)) => *key = Some(k),
                Some(_) => {}
                None => break,
            }
        }
        keys
    }

    /// The continuation history rows after each of the moves `before` a node (by their keys,
    /// `Worker::keys_before`): empty where there is no such move.
    pub(super) fn continuation_rows(&self, before: [Option<u32>; 2]) -> [&[i16]; 2] {
        before.map(|prev| {
            prev.map_or(&[][..], |p| {
                let start = p as usize * self.keys;
                &self.tables.continuation[start..start + self.keys]
            })
        })
    }

    /// A quiet move's order: its history plus its continuation history in each of `rows`
    /// (`Worker::continuation_rows`).
    pub(super) fn quiet_score(&self, pos: &Position, m: Move, rows: &[&[i16]; 2]) -> i32 {
        let mut score = self.tables.history[history_index(pos.turn(), m)];
        if let Some(key) = self.stat_key(pos, m) {
            for row in rows {
                if let Some(&h) = row.get(key as usize) {
                    score += i32::from(h);
                }
            }
        }
        score
    }

    /// A capture's order from its history, where the game uses it.
    fn capture_score(&self, pos: &Position, m: Move) -> i32 {
        if !self.capture_history_on {
            return 0;
        }
        self.capture_index(pos, m).map_or(0, |i| {
            i32::from(self.tables.captures[i]) / CAPTURE_HISTORY_DIVISOR
        })
    }

    /// The capture history entry of the noisy move `m`: the mover's key and the kind on the
    /// target square (or none: an en-passant capture, a promotion, a shot at a distance).
    fn capture_index(&self, pos: &Position, m: Move) -> Option<usize> {
        let key = self.stat_key(pos, m)? as usize;
        let victim = pos.piece_at(m.to());
        let taken = if victim.is_some() && m.kind() != MoveKind::Drop {
            victim.kind().index()
        } else {
            MAX_KINDS
        };
        Some(key * CAPTURE_VICTIMS + taken)
    }

    /// The key of `m` in the counter-move and continuation tables: the kind it moves (or
    /// drops) and its target square; none for a pass.
    pub(super) fn stat_key(&self, pos: &Position, m: Move) -> Option<u32> {
        let kind = match m.kind() {
            MoveKind::Pass => return None,
            MoveKind::Drop => m.piece()?,
            _ => {
                let p = pos.piece_at(m.from());
                if p.is_none() {
                    return None;
                }
                p.kind()
            }
        };
        Some((kind.index() * self.board_squares + usize::from(self.dense[m.to().index()])) as u32)
    }

    /// The lower score of a capture scored `score` that loses material by static exchange, for
    /// `Picker::next_demoting`; none for other moves, or where the game has no static exchange.
    pub(super) fn see_demotion(&self, pos: &Position, m: Move, score: i32) -> Option<i32> {
        (self.see_on && is_good_capture_score(score) && self.see_below(pos, m, 0))
            .then_some(score - ORDER_BAD_CAPTURE_DROP)
    }

    /// A quiet move `m` refuted the node `pos` at `ply` and `depth`: it becomes the first killer
    /// of the ply and the counter-move to the move before, and its history and continuation
    /// history rise while those of the quiet moves tried before it fall by as much.
    pub(super) fn reward_quiet_cutoff(
        &mut self,
        pos: &Position,
        m: Move,
        ply: usize,
        depth: i32,
        quiets_tried: &MoveList,
    ) {
        let k = &mut self.tables.killers[ply];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
        let before = self.keys_before(ply);
        if let Some(prev) = before[0] {
            self.tables.counter[counter_index(pos.turn(), prev, self.keys)] = m;
        }
        let bonus = history_bonus(depth);
        self.update_quiet(pos, m, before, bonus);
        for &q in quiets_tried.iter() {
            self.update_quiet(pos, q, before, -bonus);
        }
    }

    /// A node at `depth` was refuted by the capture `best` (none when a quiet move refuted it):
    /// its capture history rises, and that of the captures `tried` before it falls by as much.
    pub(super) fn reward_captures(
        &mut self,
        pos: &Position,
        best: Option<Move>,
        depth: i32,
        tried: &TriedCaptures,
    ) {
        if !self.capture_history_on {
            return;
        }
        let bonus = history_bonus(depth);
        for (m, b) in best
            .map(|m| (m, bonus))
            .into_iter()
            .chain(tried.moves().iter().map(|&m| (m, -bonus)))
        {
            if let Some(i) = self.capture_index(pos, m) {
                let h = &mut self.tables.captures[i];
                let mut v = i32::from(*h);
                update_stat(&mut v, b);
                *h = v as i16;
            }
        }
    }

    /// Moves the history of the quiet move `m` in `pos`, and its continuation history after
    /// the moves `before` it, by `bonus`.
    fn update_quiet(&mut self, pos: &Position, m: Move, before: [Option<u32>; 2], bonus: i32) {
        update_stat(
            &mut self.tables.history[history_index(pos.turn(), m)],
            bonus,
        );
        let Some(key) = self.stat_key(pos, m) else {
            return;
        };
        for prev in before.into_iter().flatten() {
            let h = &mut self.tables.continuation[prev as usize * self.keys + key as usize];
            let mut v = i32::from(*h);
            update_stat(&mut v, bonus);
            *h = v as i16;
        }
    }
}

/// Victims a capture's history tells apart: every kind, and none (a capture that takes nothing
/// on its target square).
pub(super) const CAPTURE_VICTIMS: usize = MAX_KINDS + 1;

/// The captures a node tried before the move that refuted it, up to a bound (later ones are not
/// punished): a small list, since every node makes one.
pub(super) struct TriedCaptures {
    moves: [Move; TriedCaptures::CAPACITY],
    len: usize,
}

impl TriedCaptures {
    const CAPACITY: usize = 32;

    pub(super) fn new() -> TriedCaptures {
        TriedCaptures {
            moves: [Move::NULL; TriedCaptures::CAPACITY],
            len: 0,
        }
    }

    pub(super) fn push(&mut self, m: Move) {
        if self.len < Self::CAPACITY {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    fn moves(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

/// Entries of the history table: one per side to move (a third party that the engine plays has
/// its own) and origin and target square.
pub(super) const HISTORY_SIZE: usize = Color::ALL.len() * NUM_SQUARES * NUM_SQUARES;

/// The history entry of `side`'s move `m`.
fn history_index(side: Color, m: Move) -> usize {
    (side.index() * NUM_SQUARES + m.from().index()) * NUM_SQUARES + m.to().index()
}

/// Move keys of a game (`Worker::stat_key`): one per piece kind and square of its board.
pub(super) fn stat_keys(variant: &dyn Variant) -> usize {
    variant.rules().kinds.len() * board_squares(variant)
}

/// Squares of a game's board, numbered densely (`dense_index`).
pub(super) fn board_squares(variant: &dyn Variant) -> usize {
    let g = &variant.rules().spec.geometry;
    usize::from(g.files()) * usize::from(g.ranks())
}

/// A square numbered densely on a board `files` wide.
pub(super) fn dense_index(sq: Square, files: u8) -> usize {
    usize::from(sq.rank()) * usize::from(files) + usize::from(sq.file())
}

/// `dense_index` of every square of the index space, on a board `files` wide. Only the board's
/// squares, where moves land, have numbers that mean anything.
pub(super) fn dense_indices(files: u8) -> [u16; NUM_SQUARES] {
    std::array::from_fn(|i| dense_index(Square::from_index(i as u8), files) as u16)
}

/// The counter-move entry of `side` after the move with key `prev`, in a game with `keys` keys.
fn counter_index(side: Color, prev: u32, keys: usize) -> usize {
    side.index() * keys + prev as usize
}

/// The bonus (or, negated, the malus) of a cutoff at `depth`.
fn history_bonus(depth: i32) -> i32 {
    (HISTORY_BONUS_PER_DEPTH * depth + HISTORY_BONUS_BASE).clamp(0, HISTORY_BONUS_MAX)
}

/// Moves a statistic by `bonus` with gravity: `bonus - h * |bonus| / HISTORY_MAX`, so that it
/// stays within `HISTORY_MAX` and the more it has learnt one way, the less it moves further.
fn update_stat(h: &mut i32, bonus: i32) {
    *h += bonus - *h * bonus.abs() / HISTORY_MAX;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Square;

    /// A deep cutoff: the largest bonus.
    const MAX_DEPTH_FOR_TEST: i32 = 20;

    /// Gravity: however many cutoffs reward or punish a move, its score stays within
    /// `HISTORY_MAX`, below the killers' order, and a score near the bound moves less than one
    /// near zero.
    #[test]
    fn history_scores_stay_bounded_under_gravity() {
        let mut h = 0;
        for _ in 0..10_000 {
            update_stat(&mut h, history_bonus(MAX_DEPTH_FOR_TEST));
            assert!((0..=HISTORY_MAX).contains(&h), "{h}");
        }
        assert!(h > HISTORY_MAX * 9 / 10, "{h}");
        // Without gravity (a plain sum) the score would have passed the bound long ago.
        assert!(10_000 * history_bonus(MAX_DEPTH_FOR_TEST) > HISTORY_MAX);
        let near_bound = h;
        update_stat(&mut h, history_bonus(3));
        let mut low = 0;
        update_stat(&mut low, history_bonus(3));
        assert!(h - near_bound < low, "{} {low}", h - near_bound);
        for _ in 0..10_000 {
            update_stat(&mut h, -history_bonus(MAX_DEPTH_FOR_TEST));
            assert!((-HISTORY_MAX..=HISTORY_MAX).contains(&h), "{h}");
        }
        assert!(h < -HISTORY_MAX * 9 / 10);
        assert!(HISTORY_MAX < ORDER_KILLER[1]);
        // A shallow cutoff teaches nothing, a deep one at most the cap.
        assert_eq!(history_bonus(0), 0);
        assert_eq!(history_bonus(100), HISTORY_BONUS_MAX);
    }

    /// Each side to move has its own entries, within the table, for every pair of squares.
    #[test]
    fn each_side_has_its_own_history_entries() {
        let last = Square::from_index((NUM_SQUARES - 1) as u8);
        let first = Square::from_index(0);
        let m = Move::normal(last, first);
        let mut seen = std::collections::HashSet::new();
        for side in Color::ALL {
            let i = history_index(side, m);
            assert!(i < HISTORY_SIZE);
            assert!(seen.insert(i), "{side:?} shares an entry");
            assert!(history_index(side, Move::normal(first, last)) != i);
        }
    }
}
