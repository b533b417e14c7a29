//! The rules that skip or shorten work in a node, with their tunables: reverse futility, the null
//! move and internal iterative reduction before the moves; late-move pruning, futility, static
//! exchange pruning and late-move reductions per move. Each is a guess that a part of the tree
//! cannot matter, so each applies only away from PV lines or where the guess is cheap to
//! correct. The check extension, which lengthens a line instead, sits beside them.

use super::alphabeta::{Node, NodeKind};
use super::tt::{Bound, TtEntry};
use super::worker::{LinePly, Worker};
use super::{from_tt, MATE_BOUND};
use crate::board::Position;
use crate::core::{Color, Move, MoveKind, MoveList};
use crate::movegen::CheckScreen;

/// Check extensions stop at this many times the iteration's depth in plies: where both sides
/// can stand in check at once (the Existentialist's protected King+Archer may stay attacked),
/// every move may give check and extend.
const EXTENSION_PLY_FACTOR: usize = 2;
/// Least depth for null-move pruning.
const NULL_MOVE_DEPTH: i32 = 3;
/// Null-move reduction: a base and one more ply per this many plies of depth.
const NULL_MOVE_BASE: i32 = 2;
const NULL_MOVE_DEPTH_DIVISOR: i32 = 4;
/// Least depth at which a null move's cut is verified by a search without null moves: in
/// zugzwang (mates like 1.Ra6! in `kbK5/pp6/1P6/8/8/8/8/R7 w`, where every move loses and a pass
/// would not) the pass is the only move that holds, and the cut is wrong.
const NULL_VERIFY_DEPTH: i32 = 10;
/// Reverse futility pruning: deepest depth, and the margin per ply of depth.
const RFP_DEPTH: i32 = 6;
const RFP_MARGIN: i32 = 80;
/// Razoring: deepest depth, and the margin below alpha (a base plus per ply of depth squared)
/// from which quiescence alone decides the node.
const RAZOR_DEPTH: i32 = 3;
const RAZOR_BASE: i32 = 300;
const RAZOR_PER_DEPTH2: i32 = 150;
/// Futility pruning of quiet moves: deepest depth, and the margin (base plus per ply).
const FUTILITY_DEPTH: i32 = 3;
const FUTILITY_BASE: i32 = 100;
const FUTILITY_PER_DEPTH: i32 = 100;
/// Late-move pruning and late-move reductions, in two degrees: `SELECTIVE`, and `PLAIN` for
/// the games whose switch turns it off (`SearchSwitches::selective`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Selectivity {
    /// Late-move pruning: deepest depth; quiet moves after `lmp_base + depth * depth` are
    /// skipped (with `lmp_by_improving`: where the static evaluation is improving, and after
    /// half as many where it is not).
    lmp_depth: i32,
    lmp_base: usize,
    pub(super) lmp_by_improving: bool,
    /// Late-move reduction in plies: `LMR_BASE + ln(depth) * ln(index) / lmr_divisor`.
    lmr_divisor: f64,
    /// Late-move reductions grow by this many plies at an expected cut node: its first moves
    /// were expected to refute, so a late one that has not is less likely to.
    lmr_cut_node: i32,
    /// Late-move reductions start at this move (from 0): the moves before are searched in full.
    lmr_full_moves: usize,
    /// Whether a quiet move that gives check is reduced too (a ply less than another).
    lmr_checks: bool,
}

/// The search as it was before `SELECTIVE`.
pub(super) const PLAIN: Selectivity = Selectivity {
    lmp_depth: 4,
    lmp_base: 3,
    lmp_by_improving: false,
    lmr_divisor: 2.25,
    lmr_cut_node: 0,
    lmr_full_moves: 3,
    lmr_checks: false,
};
/// Late-move pruning to depth 8 by whether the static evaluation improves, and late-move
/// reductions larger, most at expected cut nodes: in FIDE chess +27 Elo at 20,000 nodes; the
/// reductions from the second move on and for quiet checks too (a ply less than another), a
/// further SPRT (docs/performance.md, "Tried changes (issue 26)", `SELECTIVE` and `lmrw`).
pub(super) const SELECTIVE: Selectivity = Selectivity {
    lmp_depth: 8,
    lmp_base: 5,
    lmp_by_improving: true,
    lmr_divisor: 1.75,
    lmr_cut_node: 1,
    lmr_full_moves: 1,
    lmr_checks: true,
};

impl Selectivity {
    /// The degree a game's switch asks for.
    pub(super) fn of(selective: bool) -> &'static Selectivity {
        if selective {
            &SELECTIVE
        } else {
            &PLAIN
        }
    }

    /// Late-move reduction for a move at `index` (from 0) at `depth`: grows with the logarithms
    /// of both.
    fn lmr_reduction(&self, depth: i32, index: usize) -> i32 {
        let r = LMR_BASE + (depth as f64).ln() * (index as f64).ln() / self.lmr_divisor;
        r as i32
    }

    /// Whether a quiet move at `index` (from 0) may be reduced at all: not the first moves, and
    /// a check only where the degree reduces checks.
    pub(super) fn may_reduce(&self, index: usize, gives_check: bool) -> bool {
        index >= self.lmr_full_moves && (self.lmr_checks || !gives_check)
    }

    /// Late-move pruning: a quiet move this late in the order near the horizon is skipped.
    pub(super) fn late_move_prune(&self, depth: i32, index: usize, improving: bool) -> bool {
        let base = self.lmp_base + (depth * depth) as usize;
        let count = if self.lmp_by_improving {
            base * (1 + usize::from(improving)) / 2
        } else {
            base
        };
        depth <= self.lmp_depth && index >= count
    }
}

/// Static exchange pruning: deepest depth; a capture may lose up to `SEE_CAPTURE_MARGIN` per ply
/// of depth, a quiet move up to `SEE_QUIET_MARGIN` per ply squared, before it is skipped.
const SEE_PRUNE_DEPTH: i32 = 6;
const SEE_CAPTURE_MARGIN: i32 = 100;
const SEE_QUIET_MARGIN: i32 = 30;
/// Singular extensions: least depth; how far the table's entry may be shallower than the node;
/// the margin below the entry's score per ply of depth that the other moves must fall short of.
const SINGULAR_DEPTH: i32 = 8;
const SINGULAR_TT_DEPTH_SLACK: i32 = 3;
const SINGULAR_MARGIN: i32 = 2;
/// ProbCut: least depth; the margin above beta a capture's shallower search must beat; how many
/// plies shallower that search is; how far the table's entry may be shallower than the node and
/// still say that the margin is out of reach.
const PROBCUT_DEPTH: i32 = 5;
const PROBCUT_MARGIN: i32 = 200;
const PROBCUT_REDUCTION: i32 = 4;
const PROBCUT_TT_DEPTH_SLACK: i32 = 3;
/// Internal iterative reduction: least depth.
const IIR_DEPTH: i32 = 4;
/// Late-move reductions: least depth.
const LMR_DEPTH: i32 = 3;
/// Late-move reductions' constant term in plies (see `Selectivity`).
const LMR_BASE: f64 = 0.75;
/// Late-move reductions shrink by a ply per this much of the move's order among the quiet moves
/// (history and continuation history; and grow by as much for a negative score): a move that
/// often refuted is more likely to refute here.
const LMR_HISTORY_DIVISOR: i32 = 8_192;

/// What the null move found at a node.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum NullMove {
    /// Not tried, or its cut not confirmed by the verification search.
    Skipped,
    /// Passing fell short of beta: the opponent has a threat.
    Refuted,
    /// Passing beat beta: the node's score (0 if the search stopped meanwhile).
    Cut(i32),
}

/// What the singular-extension search found about the table's move.
pub(super) enum Singular {
    /// Not looked at, or not singular.
    No,
    /// The only good move: extend it.
    Extend,
    /// Other moves beat beta too: the node's score.
    Cut(i32),
}

/// Reverse futility: outside PV lines, near the horizon, a static evaluation far above beta is
/// taken to hold.
pub(super) fn reverse_futility(node: Node, beta: i32, static_eval: i32) -> bool {
    !node.pv_node()
        && !node.in_check
        && node.depth <= RFP_DEPTH
        && beta.abs() < MATE_BOUND
        && static_eval - RFP_MARGIN * node.depth >= beta
}

/// Razoring: outside PV lines, near the horizon, a static evaluation this far below alpha is
/// unlikely to be lifted by a quiet move, so quiescence decides whether the node fails low.
pub(super) fn razor(node: Node, alpha: i32, static_eval: i32) -> bool {
    !node.pv_node()
        && !node.in_check
        && node.depth <= RAZOR_DEPTH
        && alpha.abs() < MATE_BOUND
        && static_eval + RAZOR_BASE + RAZOR_PER_DEPTH2 * node.depth * node.depth < alpha
}

/// Internal iterative reduction: without a move from the table, ordering is poor and the node is
/// probably not critical, so it is searched a ply shallower.
pub(super) fn iir(depth: i32, tt_move: Move) -> bool {
    tt_move == Move::NULL && depth >= IIR_DEPTH
}

/// Futility: near the horizon, a quiet move cannot lift a static evaluation this far below alpha.
pub(super) fn futile(depth: i32, static_eval: i32, alpha: i32) -> bool {
    depth <= FUTILITY_DEPTH && static_eval + FUTILITY_BASE + FUTILITY_PER_DEPTH * depth <= alpha
}

/// Static exchange pruning: near the horizon, the least static exchange a move may have and still
/// be searched (quiet moves that give check are not tested).
pub(super) fn see_threshold(depth: i32, quiet: bool) -> Option<i32> {
    (depth <= SEE_PRUNE_DEPTH).then(|| {
        if quiet {
            -SEE_QUIET_MARGIN * depth * depth
        } else {
            -SEE_CAPTURE_MARGIN * depth
        }
    })
}

impl Worker<'_> {
    /// Whether the move `m` surely gives no check, by the check screen (`screen`, worked out
    /// here at its first use for the node `pos`); never where the game's checks are not the
    /// tables' (`SearchSwitches::checks_from_tables`) or its enemy has no single royal piece.
    pub(super) fn surely_no_check(
        &self,
        pos: &Position,
        m: Move,
        screen: &mut Option<Option<CheckScreen>>,
    ) -> bool {
        if !self.check_screen_on {
            return false;
        }
        let rules = self.shared.variant.rules();
        let us = pos.turn();
        screen
            .get_or_insert_with(|| CheckScreen::new(rules, pos, us))
            .as_ref()
            .is_some_and(|s| !s.may_check(rules, pos, us, m))
    }

    /// Whether the checking move `m` at `ply` is searched a ply deeper: not beyond the
    /// extension's ply limit, and not a check that loses material by static exchange (where the
    /// game's exchanges are sound), whose checking piece is mostly lost for nothing.
    pub(super) fn extends_check(&self, pos: &Position, m: Move, ply: usize) -> bool {
        ply < EXTENSION_PLY_FACTOR * self.root_depth as usize
            && !(self.see_on && self.see_below(pos, m, 0))
    }

    /// Whether `m` at `ply` is a step to the square before promotion, searched a ply deeper:
    /// a promoting kind's plain move to a square (outside the zone) from which one of its quiet
    /// leaps enters its promotion zone, as Glaurung's "pawn push to the 7th", within the
    /// extension's ply limit and not losing material by static exchange (where the game's
    /// exchanges are sound). The promotion such a step threatens often lies just past the
    /// horizon.
    pub(super) fn extends_push(&self, pos: &Position, m: Move, ply: usize) -> bool {
        if m.kind() != MoveKind::Normal || ply >= EXTENSION_PLY_FACTOR * self.root_depth as usize {
            return false;
        }
        let rules = self.shared.variant.rules();
        let kind = pos.piece_at(m.from()).kind();
        if !rules.promoting.contains(kind) {
            return false;
        }
        let us = pos.turn();
        let zone = rules.promotion_zone(us);
        !zone.contains(m.to())
            && (rules.tables.leap_quiet(us, kind, m.to()) & zone).nonempty()
            && !(self.see_on && self.see_below(pos, m, 0))
    }

    /// Singular extension: whether the table's move (the entry's) is the only good move among
    /// `moves`. Where the entry is deep enough and a lower bound (or exact) away from mate
    /// scores, and its move is legal here, the node is searched at half depth without it against
    /// a null window below the entry's score by a margin: failing low there, the move is
    /// singular and extended (as far as the check extension goes); beating a beta at or below
    /// that margin, several moves refute the node and it is cut. Not on a third party's turn,
    /// whose moves follow a policy. The move list is searched last, once the rest holds.
    pub(super) fn singular(
        &mut self,
        pos: &Position,
        node: Node,
        entry: Option<TtEntry>,
        moves: &MoveList,
        beta: i32,
    ) -> Singular {
        let Some(e) = entry.filter(|e| {
            node.depth >= SINGULAR_DEPTH
                && node.excluded == Move::NULL
                && e.bound != Bound::Upper
                && e.depth >= node.depth - SINGULAR_TT_DEPTH_SLACK
                && pos.turn() != Color::Neutral
        }) else {
            return Singular::No;
        };
        let tt_move = e.mv;
        let tt_score = from_tt(e.score, node.ply);
        if tt_score.abs() >= MATE_BOUND || !moves.contains(tt_move) {
            return Singular::No;
        }
        let singular_beta = tt_score - SINGULAR_MARGIN * node.depth;
        self.excluded[node.ply] = tt_move;
        let kind = if node.kind == NodeKind::Cut {
            NodeKind::Cut
        } else {
            NodeKind::All
        };
        let score = self.alphabeta(
            pos,
            (node.depth - 1) / 2,
            node.ply,
            singular_beta - 1,
            singular_beta,
            kind,
            node.in_check,
        );
        self.excluded[node.ply] = Move::NULL;
        // The search left a line at this ply that the node's own moves may not replace.
        self.pv[node.ply].clear();
        if self.aborted {
            Singular::No
        } else if score < singular_beta {
            if node.ply < EXTENSION_PLY_FACTOR * self.root_depth as usize {
                Singular::Extend
            } else {
                Singular::No
            }
        } else if singular_beta >= beta {
            // Kept out of the mate range, which a score this near it could reach by the margin.
            Singular::Cut(singular_beta.max(-MATE_BOUND + 1))
        } else {
            Singular::No
        }
    }

    /// ProbCut: outside PV lines, a capture (or other noisy move) whose static exchange already
    /// lifts the static evaluation past beta by a margin is searched, first by quiescence and
    /// then a few plies shallower, against that raised beta; beating it there, the node is taken
    /// to beat beta and ends with that score, stored as a lower bound. Only where the game's
    /// exchanges are sound (`see_on`: the captures are picked by static exchange), not in check
    /// or on a third party's turn, and not where a deep enough table entry says the raised beta
    /// is out of reach.
    pub(super) fn probcut(
        &mut self,
        pos: &Position,
        node: Node,
        moves: &MoveList,
        beta: i32,
        static_eval: i32,
        entry: Option<TtEntry>,
    ) -> Option<i32> {
        let raised = beta + PROBCUT_MARGIN;
        if !self.probcut_applies(pos, node, beta, raised, entry) {
            return None;
        }
        let variant = self.shared.variant;
        let mut lists = self.take_lists();
        for &m in moves.iter() {
            if variant.rulings().is_noisy(pos, m) && !self.see_below(pos, m, raised - static_eval) {
                lists.moves.push(m);
            }
        }
        let tt_move = entry.map_or(Move::NULL, |e| e.mv);
        let mut picker = self.picker(pos, &mut lists.moves, &mut lists.scores, node.ply, tt_move);
        let mut found = None;
        let mut child_slot = None;
        let shallow = Node {
            depth: node.depth - PROBCUT_REDUCTION,
            ..node
        };
        while let Some(m) = picker.next() {
            let child = variant.play_in(pos, m, &mut child_slot);
            let check = variant.in_check(child);
            self.note_played(pos, m, node.ply);
            self.path.push(pos.hash());
            let (ply, alpha, kind) = (node.ply, raised - 1, node.kind.null_window_child());
            let mut score = self.child(pos, child, 0, ply, alpha, raised, kind, check);
            if score >= raised && !self.aborted {
                score = self.child(pos, child, shallow.depth, ply, alpha, raised, kind, check);
            }
            self.path.pop();
            if self.aborted {
                found = Some(0);
                break;
            }
            if score >= raised {
                // Stored as searched a ply deeper than the child was: the node's own depth.
                let stored = Node {
                    depth: shallow.depth + 1,
                    ..node
                };
                self.store_tt(pos, stored, score, m, alpha, raised, static_eval);
                found = Some(score);
                break;
            }
        }
        self.give_back_lists(lists);
        found
    }

    /// Whether ProbCut is tried at the node (see `probcut`), whose beta is raised to `raised`.
    fn probcut_applies(
        &self,
        pos: &Position,
        node: Node,
        beta: i32,
        raised: i32,
        entry: Option<TtEntry>,
    ) -> bool {
        // The cheap tests first, the depth (false at most nodes) before all; the entry last.
        node.depth >= PROBCUT_DEPTH
            && !node.pv_node()
            && !node.in_check
            && node.excluded == Move::NULL
            && beta.abs() < MATE_BOUND
            && self.see_on
            && pos.turn() != Color::Neutral
            && !entry.is_some_and(|e| {
                e.depth >= node.depth - PROBCUT_TT_DEPTH_SLACK
                    && from_tt(e.score, node.ply) < raised
            })
    }

    /// Null move: if passing still beats beta, a real move will too (not in check, not without
    /// pieces, where zugzwang is likely, and only where the variant allows it). From
    /// `NULL_VERIFY_DEPTH` on, a search with real moves must confirm it (zugzwang with pieces).
    /// What it found: a cut, a refutation (a threat), or nothing.
    pub(super) fn null_move(
        &mut self,
        pos: &Position,
        node: Node,
        beta: i32,
        static_eval: i32,
    ) -> NullMove {
        if !(self.allow_null
            && node.ply >= self.null_free_until
            && !node.pv_node()
            && !node.in_check
            && node.depth >= NULL_MOVE_DEPTH
            && beta.abs() < MATE_BOUND
            && static_eval >= beta
            && self.has_pieces(pos))
        {
            return NullMove::Skipped;
        }
        let variant = self.shared.variant;
        let r = NULL_MOVE_BASE + node.depth / NULL_MOVE_DEPTH_DIVISOR;
        let null = variant.play(pos, Move::pass());
        self.played[node.ply] = LinePly::Unkeyed;
        // Only a pass that hands the move straight to the opponent is a null move: never one
        // that crosses a third party's turn.
        if null.turn() != pos.turn().opponent()
            || variant.rulings().point_of_view(&null) != null.turn()
        {
            return NullMove::Skipped;
        }
        let depth = node.depth - 1 - r;
        self.path.push(pos.hash());
        let kind = node.kind.null_window_child();
        let score = -self.alphabeta(&null, depth, node.ply + 1, -beta, -beta + 1, kind, false);
        self.path.pop();
        if self.aborted {
            return NullMove::Cut(0);
        }
        if score < beta {
            return NullMove::Refuted;
        }
        let score = if score >= MATE_BOUND { beta } else { score };
        if node.depth < NULL_VERIFY_DEPTH
            || self.null_free_until > 0
            || self.verify_null_cut(pos, node, depth, beta)
        {
            NullMove::Cut(score)
        } else {
            NullMove::Skipped
        }
    }

    /// Whether the node still beats beta searched to `depth` (the null move's) with real
    /// moves, and without null moves for the first three quarters of that depth (so the
    /// verification cannot itself pass out of a zugzwang).
    fn verify_null_cut(&mut self, pos: &Position, node: Node, depth: i32, beta: i32) -> bool {
        self.null_free_until = node.ply + (3 * depth / 4).max(0) as usize;
        let score = self.alphabeta(pos, depth, node.ply, beta - 1, beta, NodeKind::Cut, false);
        self.null_free_until = 0;
        self.aborted || score >= beta
    }

    /// Whether the side to move has pieces other than royal and pawn-like ones, without which a
    /// null move risks zugzwang.
    fn has_pieces(&self, pos: &Position) -> bool {
        let rules = self.shared.variant.rules();
        let us = pos.turn();
        let bb = pos.color_bb(us) & !pos.royals(rules, us) & !pos.kinds_bb(self.pawn_kinds);
        bb.nonempty()
    }

    /// Late-move reduction in plies for the quiet move `m` at `index` in `pos` searched to
    /// `new_depth`: none for the first moves (as the degree says), captures and evasions, less
    /// for checks (none in the plain degree), in PV nodes, for the killers, which refuted
    /// sibling positions, and for a move with a good history (more for a bad one).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn late_move_reduction(
        &self,
        pos: &Position,
        node: Node,
        m: Move,
        index: usize,
        quiet: bool,
        gives_check: bool,
        new_depth: i32,
    ) -> i32 {
        let sel = self.selectivity;
        if node.depth >= LMR_DEPTH && quiet && !node.in_check && sel.may_reduce(index, gives_check)
        {
            let killer = self.tables.killers[node.ply].contains(&m);
            let rows = self.continuation_rows(self.keys_before(node.ply));
            let history = self.quiet_score(pos, m, &rows) / LMR_HISTORY_DIVISOR;
            (sel.lmr_reduction(node.depth, index)
                + sel.lmr_cut_node * i32::from(node.kind == NodeKind::Cut)
                - i32::from(node.pv_node())
                - i32::from(killer)
                - history
                - i32::from(gives_check))
            .clamp(0, new_depth - 1)
        } else {
            0
        }
    }
}
