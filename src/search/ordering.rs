//! Move ordering: the score each move is tried by (the table's move, captures, killers, then
//! history), and the killers and history that learn from the moves that refute.

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

impl Worker<'_> {
    /// Moves in the order to try them: the table's move, captures by most valuable victim and
    /// least valuable attacker, killers, then history.
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
            } else if self.killers[ply][0] == m {
                ORDER_KILLER[0]
            } else if self.killers[ply][1] == m {
                ORDER_KILLER[1]
            } else {
                self.history[m.from().index() * NUM_SQUARES + m.to().index()]
            }
        })
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
        let k = &mut self.killers[ply];
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
        let h = &mut self.history[m.from().index() * NUM_SQUARES + m.to().index()];
        *h = (*h + bonus).clamp(-HISTORY_MAX, HISTORY_MAX);
    }
}
