//! Nodes where a third party plays (`Color::Neutral` to move). Its policy decides how the search
//! treats them: a seeded choice is followed, plies that come from outside are averaged over, and
//! under the engine policy the node is searched as one of the player it helps.

use super::alphabeta::{Node, NodeKind};
use super::worker::Worker;
use super::INFINITY;
use crate::board::Position;
use crate::core::MoveList;
use crate::third_party::Policy;

/// Plies less than usual for each option of a third party whose plies come from outside, whose
/// node averages over all of them with full windows.
const EXPECTATION_REDUCTION: i32 = 1;

impl Worker<'_> {
    /// The score of a third party's node by its policy: the seeded choice it will make, or the
    /// average over its options; none under the engine policy, which searches it as a node of
    /// the player it helps (`pov`).
    pub(super) fn third_party_node(
        &mut self,
        pos: &Position,
        moves: &MoveList,
        node: Node,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        match self.shared.limits.third_party.policy {
            Policy::Random => {
                Some(self.follow_choice(pos, moves, node.depth, node.ply, alpha, beta, node.kind))
            }
            Policy::External => Some(self.expected(pos, moves, node.depth, node.ply)),
            Policy::Engine => None,
        }
    }

    /// The score of a third party's node whose ply is known (the random policy's seeded choice):
    /// that ply alone, searched to the same depth since it is forced.
    #[allow(clippy::too_many_arguments)]
    fn follow_choice(
        &mut self,
        pos: &Position,
        moves: &MoveList,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        kind: NodeKind,
    ) -> i32 {
        let variant = self.shared.variant;
        let seed = self.shared.limits.third_party.seed;
        let Some(m) = self.chooser.choose(variant, pos, moves, seed) else {
            return self.static_eval(pos);
        };
        let child = variant.play(pos, m);
        let check = variant.in_check(&child);
        self.note_played(pos, m, ply);
        self.path.push(pos.hash());
        let score = self.child(pos, &child, depth, ply, alpha, beta, kind, check);
        self.path.pop();
        self.update_pv(ply, m);
        score
    }

    /// The expected score of a third party's node whose plies come from outside: the mean over
    /// its options, each searched with a full window a little shallower.
    fn expected(&mut self, pos: &Position, moves: &MoveList, depth: i32, ply: usize) -> i32 {
        let variant = self.shared.variant;
        let child_depth = (depth - 1 - EXPECTATION_REDUCTION).max(0);
        let mut sum: i64 = 0;
        for &m in moves.iter() {
            let child = variant.play(pos, m);
            let check = variant.in_check(&child);
            self.note_played(pos, m, ply);
            self.path.push(pos.hash());
            let s = self.child(
                pos,
                &child,
                child_depth,
                ply,
                -INFINITY,
                INFINITY,
                NodeKind::All,
                check,
            );
            self.path.pop();
            if self.aborted {
                return 0;
            }
            sum += i64::from(s);
        }
        self.pv[ply].clear();
        (sum / moves.len().max(1) as i64) as i32
    }
}
