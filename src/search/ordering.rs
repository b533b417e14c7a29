//! Move ordering: the score each move is tried by (the table's move, captures that do not lose
//! material, killers, history, then captures that lose material by static exchange), and the
//! killers and history that learn from the moves that refute.

use super::picker::Picker;
use super::worker::Worker;
use crate::board::Position;
use crate::core::{Move, MoveKind, MoveList, NUM_SQUARES};

/// Ordering scores: the table's move, then captures, then killers, then history.
const ORDER_TT: i32 = 2_000_000;
const ORDER_CAPTURE: i32 = 1_000_000;
const ORDER_KILLER: [i32; 2] = [900_000, 800_000];
/// History scores stay within this bound, below the killers' order.
const HISTORY_MAX: i32 = ORDER_KILLER[1] - 1;
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
    /// least valuable attacker, killers, then history. Where the game allows static exchange
    /// evaluation, `see_demotion` moves the captures that lose material after every quiet move
    /// as they come up.
    pub(super) fn picker<'m>(
        &self,
        pos: &Position,
        moves: &'m mut MoveList,
        ply: usize,
        tt_move: Move,
    ) -> Picker<'m> {
        let variant = self.shared.variant;
        Picker::new(moves, |m| {
            if m == tt_move {
                ORDER_TT
            } else if variant.rulings().is_noisy(pos, m) {
                // Most valuable victim and promoted piece first, then least valuable mover.
                let mover = self.value_on(pos, m.from());
                let promoted = if m.kind() == MoveKind::Promotion {
                    mover
                } else {
                    0
                };
                let gain = variant
                    .rulings()
                    .material_gain(pos, m, &|k| self.eval.value(k))
                    + promoted;
                ORDER_CAPTURE + 10 * gain - mover / 10
            } else if self.tables.killers[ply][0] == m {
                ORDER_KILLER[0]
            } else if self.tables.killers[ply][1] == m {
                ORDER_KILLER[1]
            } else {
                self.tables.history[m.from().index() * NUM_SQUARES + m.to().index()]
            }
        })
    }

    /// The lower score of a capture scored `score` that loses material by static exchange, for
    /// `Picker::next_demoting`; none for other moves, or where the game has no static exchange.
    pub(super) fn see_demotion(&self, pos: &Position, m: Move, score: i32) -> Option<i32> {
        (self.see_on && is_good_capture_score(score) && self.see_below(pos, m, 0))
            .then_some(score - ORDER_BAD_CAPTURE_DROP)
    }

    /// A quiet move `m` refuted the node at `ply` and `depth`: it becomes the first killer of the
    /// ply, and its history rises while that of the quiet moves tried before it falls.
    pub(super) fn reward_quiet_cutoff(
        &mut self,
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
        let bonus = depth * depth;
        self.update_history(m, bonus);
        for &q in quiets_tried.iter() {
            self.update_history(q, -bonus);
        }
    }

    /// Moves a history score towards `bonus`'s sign, keeping it below the killers' order.
    fn update_history(&mut self, m: Move, bonus: i32) {
        let h = &mut self.tables.history[m.from().index() * NUM_SQUARES + m.to().index()];
        *h = (*h + bonus).clamp(-HISTORY_MAX, HISTORY_MAX);
    }
}
