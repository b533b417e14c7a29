//! The principal variation search of a node below the root, in numbered steps. Each step is a
//! call: the table in this file, the pruning rules in `pruning`, third parties in `neutral`,
//! the order of the moves in `ordering`.

use super::ordering::{is_good_capture_score, TriedCaptures};
use super::picker::Picker;
use super::pruning;
use super::tt::{Bound, TtEntry, NO_EVAL};
use super::worker::{NodeLists, Worker};
use super::{from_tt, to_tt, INFINITY, MATE, MATE_BOUND, MAX_PLY};
use crate::board::Position;
use crate::core::{Color, Move, MoveList};

/// With helpers, least depth of a node whose moves wait while another thread searches them.
const DEFER_DEPTH: i32 = 3;
/// Whether the table's move is tried before the other moves are scored
/// (`Worker::picker_table_first`), and a step to the square before promotion extended a ply
/// (`Worker::extends_push`): off until a non-regression SPRT passes (docs/performance.md,
/// "Tried changes (issue 26)").
const TABLE_MOVE_FIRST: bool = false;
const PROMOTION_STEP_EXTENSION: bool = false;
/// Whether ProbCut is tried at a node whose null move fell short of beta, as it always was. There
/// the opponent has a threat that ProbCut's shallow capture search may not see through (Win at
/// Chess's sacrifices; docs/performance.md, "Tried changes (issue 26)"): the candidate sets it to
/// false, which waits for a non-regression SPRT.
const PROBCUT_AFTER_REFUTED_NULL: bool = true;

/// What a node is expected to be, from its window and its place in its parent's order: on a PV
/// line, whose exact score matters; a cut node, expected to fail high (one refutation ends it);
/// or an all node, expected to fail low (every move is tried).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum NodeKind {
    Pv,
    Cut,
    All,
}

impl NodeKind {
    /// The kind of the child after the node's first move: a PV line goes on through it; a cut
    /// node's best move should leave the opponent failing low, an all node's failing high.
    pub(super) fn first_child(self) -> NodeKind {
        match self {
            NodeKind::Pv => NodeKind::Pv,
            NodeKind::Cut => NodeKind::All,
            NodeKind::All => NodeKind::Cut,
        }
    }

    /// The kind of a child searched with a null window at full depth (a later move, a null move,
    /// a ProbCut capture): an all node below a cut node, else a cut node.
    pub(super) fn null_window_child(self) -> NodeKind {
        if self == NodeKind::Cut {
            NodeKind::All
        } else {
            NodeKind::Cut
        }
    }
}

/// What the steps of one node read: its depth (which internal iterative reduction may lower), its
/// distance from the root, its kind, whether its side to move is in check, the move a
/// singular-extension search leaves out and the move extended as singular (each `Move::NULL` if
/// none).
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub(super) depth: i32,
    pub(super) ply: usize,
    pub(super) kind: NodeKind,
    pub(super) in_check: bool,
    pub(super) excluded: Move,
    pub(super) singular: Move,
}

impl Node {
    /// Whether the node is on a PV line.
    pub(super) fn pv_node(&self) -> bool {
        self.kind == NodeKind::Pv
    }
}

impl Worker<'_> {
    /// The score of `pos` searched to `depth` within `alpha`..`beta`, from its point of view.
    /// `in_check` is whether the side to move is in check, which the parent has worked out.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn alphabeta(
        &mut self,
        pos: &Position,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        kind: NodeKind,
        in_check: bool,
    ) -> i32 {
        // Step 1. At the horizon, resolve captures.
        if depth <= 0 {
            self.depth_limited = true;
            return self.quiesce(pos, ply, alpha, beta, in_check);
        }
        if !self.enter_node(ply) {
            return 0;
        }
        let node = Node {
            depth,
            ply,
            kind,
            in_check,
            excluded: self.excluded[ply],
            singular: Move::NULL,
        };
        let mut lists = self.take_lists();
        let score = self.interior(pos, node, alpha, beta, &mut lists);
        self.give_back_lists(lists);
        score
    }

    /// Steps 2 to 13: the search of a node above the horizon, whose moves go in `lists`.
    fn interior(
        &mut self,
        pos: &Position,
        mut node: Node,
        mut alpha: i32,
        mut beta: i32,
        lists: &mut NodeLists,
    ) -> i32 {
        let (ply, in_check) = (node.ply, node.in_check);
        // The static evaluation of this ply is not known until step 6 (a third party's node
        // searches its plies before); it is kept only for the rule that reads it.
        if self.selectivity.lmp_by_improving {
            self.evals[ply] = None;
        }
        // Step 2. Draws by repetition within the search, before anything else.
        if self.is_repetition(pos) {
            return 0;
        }
        // Step 3. Mate distance pruning: no line here can beat a mate already found nearer the
        // root.
        alpha = alpha.max(-(MATE - ply as i32));
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        // Step 4. The transposition table: a deep enough entry ends the node outside PV lines
        // (not in a search that leaves a move out: the entry includes it).
        let (tt_move, tt_score, tt_eval, tt_entry) = self.probe_tt(pos, node, alpha, beta);
        if let Some(score) = tt_score {
            return score;
        }
        // Step 5. The moves, in check or on a third party's turn (which neither reverse futility
        // nor the null move prunes); game ends by the variant's rules (mate, stalemate, 50 moves,
        // its own wins), and the deepest ply, end the node. Elsewhere the ends that do not need
        // the moves are looked at here, and the moves wait until the node is not pruned.
        let generated = in_check || pos.turn() == Color::Neutral;
        if let Some(score) = if generated {
            self.generate_or_end(pos, node, &mut lists.moves, false)
        } else {
            self.end_before_moves(pos, node)
        } {
            return score;
        }
        // Step 5a. A third party's ply by its policy.
        if pos.turn() == Color::Neutral {
            if let Some(score) = self.third_party_node(pos, &lists.moves, node, alpha, beta) {
                return score;
            }
        }
        // Step 6. Reverse futility on the static evaluation (the table's, when it has one); not
        // in a search that leaves a move out, whose answer would then rest on the evaluation.
        let static_eval = if in_check {
            -INFINITY
        } else if tt_eval != NO_EVAL {
            tt_eval
        } else {
            self.static_eval(pos)
        };
        if self.selectivity.lmp_by_improving {
            self.evals[ply] = (!in_check).then(|| (self.pov(pos), static_eval));
        }
        if node.excluded == Move::NULL && pruning::reverse_futility(node, beta, static_eval) {
            self.depth_limited = true;
            return static_eval;
        }
        // Step 6a. Razoring: near the horizon, a static evaluation far below alpha is checked by
        // quiescence alone, and the node ends if that confirms it; not in a search that leaves a
        // move out, nor on a third party's turn.
        if node.excluded == Move::NULL && !generated && pruning::razor(node, alpha, static_eval) {
            let score = self.quiesce(pos, ply, alpha - 1, alpha, false);
            if self.aborted {
                return 0;
            }
            if score < alpha {
                self.depth_limited = true;
                return score;
            }
        }
        // Step 7. Null move (not in a search that leaves a move out, which asks about the
        // other moves), verified by a shallower search of the real moves at depth.
        let mut null_refuted = false;
        if node.excluded == Move::NULL {
            match self.null_move(pos, node, beta, static_eval) {
                pruning::NullMove::Cut(score) => {
                    self.depth_limited = true;
                    return score;
                }
                pruning::NullMove::Refuted => null_refuted = true,
                pruning::NullMove::Skipped => {}
            }
        }
        // Step 7a. The moves, out of check: having none ends the game (stalemate, or the
        // variant's own end).
        if !generated {
            if let Some(score) = self.generate_or_end(pos, node, &mut lists.moves, true) {
                return score;
            }
        }
        // Step 7b. ProbCut: a capture that beats beta by a margin in a shallower search is
        // taken to beat beta at full depth (with `PROBCUT_AFTER_REFUTED_NULL` off, not where the
        // null move found the opponent a threat that a shallow search may not see through).
        if PROBCUT_AFTER_REFUTED_NULL || !null_refuted {
            let probcut = self.probcut(pos, node, &lists.moves, beta, static_eval, tt_entry);
            if let Some(score) = probcut {
                self.depth_limited = true;
                return score;
            }
        }
        // Step 8. Internal iterative reduction.
        if pruning::iir(node.depth, tt_move) {
            node.depth -= 1;
        }
        // Step 8a. Singular extension: the table's move is searched a ply deeper when every
        // other move falls well short of its score; when even the others beat beta, the node
        // is cut (several moves refute it).
        match self.singular(pos, node, tt_entry, &lists.moves, beta) {
            pruning::Singular::Extend => node.singular = tt_move,
            pruning::Singular::Cut(score) => return score,
            pruning::Singular::No => {}
        }
        // Steps 9 to 12. Try the moves.
        let picker = if TABLE_MOVE_FIRST {
            self.picker_table_first(&mut lists.moves, &mut lists.scores, tt_move)
        } else {
            self.picker(pos, &mut lists.moves, &mut lists.scores, ply, tt_move)
        };
        let quiets_tried = &mut lists.quiets;
        let Some((best, best_move)) =
            self.search_moves(pos, picker, quiets_tried, node, static_eval, alpha, beta)
        else {
            return 0;
        };
        // Step 13. Remember the result for later visits and other threads; a search that left a
        // move out has no result for the node (and none at all if that was its only move).
        if node.excluded != Move::NULL {
            return if best_move == Move::NULL { alpha } else { best };
        }
        let eval = if in_check { NO_EVAL } else { static_eval };
        self.store_tt(pos, node, best, best_move, alpha, beta, eval);
        best
    }

    /// The table's move for the node (or `Move::NULL`), the score that ends the node if the
    /// entry is deep enough and its bound settles the window (never on PV lines, nor when the
    /// node leaves a move out), the stored static evaluation (or `NO_EVAL`), and the entry. An
    /// entry that ends the node and may come from outside this iteration's tree (deeper than
    /// asked for, or with helpers, any) makes the iteration depth-limited: that search may have
    /// been cut at its horizon.
    fn probe_tt(
        &mut self,
        pos: &Position,
        node: Node,
        alpha: i32,
        beta: i32,
    ) -> (Move, Option<i32>, i32, Option<TtEntry>) {
        let probed = self.shared.tt.probe_eval(pos.hash());
        let tt_eval = probed.map_or(NO_EVAL, |(_, v)| v);
        let entry = probed.map(|(e, _)| e);
        let tt_move = entry.map_or(Move::NULL, |e| e.mv);
        let may_cut = !node.pv_node() && node.excluded == Move::NULL;
        if let Some(e) = entry.filter(|e| may_cut && e.depth >= node.depth) {
            let s = from_tt(e.score, node.ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut {
                self.depth_limited |= self.shared.helpers > 0 || e.depth > node.depth;
                return (tt_move, Some(s), tt_eval, entry);
            }
        }
        (tt_move, None, tt_eval, entry)
    }

    /// The score that ends the node before its moves are known: a game end that does not
    /// depend on them (the outcome as if the side to move had one), or the deepest ply.
    fn end_before_moves(&mut self, pos: &Position, node: Node) -> Option<i32> {
        if let Some(outcome) = self.shared.variant.rulings().outcome(pos, 1, &[]) {
            return Some(self.outcome_score(outcome, pos, node.ply));
        }
        if node.ply >= MAX_PLY - 1 {
            return Some(self.static_eval(pos));
        }
        None
    }

    /// Generates the legal moves into `moves`; the score that ends the node if the game ends
    /// here, or if the search is as deep as it goes. With `ends_checked` (`end_before_moves` has
    /// looked at the rest), only a lack of moves is looked at.
    fn generate_or_end(
        &mut self,
        pos: &Position,
        node: Node,
        moves: &mut MoveList,
        ends_checked: bool,
    ) -> Option<i32> {
        let variant = self.shared.variant;
        variant.legal_moves_checked(pos, node.in_check, moves);
        if !ends_checked || moves.is_empty() {
            if let Some(outcome) = variant.rulings().outcome(pos, moves.len(), &[]) {
                return Some(self.outcome_score(outcome, pos, node.ply));
            }
        }
        if !ends_checked && node.ply >= MAX_PLY - 1 {
            return Some(self.static_eval(pos));
        }
        None
    }

    /// Steps 9 to 12: tries the moves, best-looking first, the first with a full window and the
    /// rest with a null window, pruning and reducing late quiet moves (and listing the quiet
    /// moves it tried in `quiets_tried`, empty at first). The best score and move, none if the
    /// search stopped.
    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        pos: &Position,
        mut picker: Picker,
        quiets_tried: &mut MoveList,
        node: Node,
        static_eval: i32,
        mut alpha: i32,
        beta: i32,
    ) -> Option<(i32, Move)> {
        let variant = self.shared.variant;
        let mut best = -INFINITY;
        let mut best_move = Move::NULL;
        let mut index = 0;
        let mut captures_tried = TriedCaptures::new();
        let may_prune = !node.pv_node() && !node.in_check;
        let selectivity = self.selectivity;
        let improving = !selectivity.lmp_by_improving
            || node.in_check
            || self.improving(pos, node.ply, static_eval);
        // With helpers, a move after the first whose position another thread is searching waits
        // until the others are tried (the threads then share out the node's moves); it is tried
        // last, by which time the table may hold its result.
        let defer = self.shared.helpers > 0 && node.depth >= DEFER_DEPTH;
        let mut deferred: Vec<Move> = Vec::new();
        let mut next_deferred = 0;
        let mut child_slot = None;
        // Worked out at the first move it may spare the making of.
        let mut screen = None;
        loop {
            self.score_rest(pos, &mut picker, node.ply);
            let (m, was_deferred) = match picker.next_demoting(|m, s| self.see_demotion(pos, m, s))
            {
                Some(m) => (m, false),
                None if next_deferred < deferred.len() => {
                    next_deferred += 1;
                    (deferred[next_deferred - 1], true)
                }
                None => break,
            };
            if m == node.excluded {
                continue;
            }
            // A capture scored as good has been found not to lose material; a deferred move has
            // passed the static exchange test already.
            let counted_good = was_deferred || is_good_capture_score(picker.last_score());
            let quiet = !variant.rulings().is_noisy(pos, m);
            // Step 10. Prune quiet moves that give no check near the horizon: late in the order
            // (late-move pruning), or unable to lift a static evaluation far below alpha
            // (futility). Where the check screen shows that a move gives none, it is pruned
            // unmade.
            let prunable = may_prune
                && quiet
                && index > 0
                && best > -MATE_BOUND
                && (selectivity.late_move_prune(node.depth, index, improving)
                    || pruning::futile(node.depth, static_eval, alpha));
            if prunable && self.surely_no_check(pos, m, &mut screen) {
                self.depth_limited = true;
                index += 1;
                continue;
            }
            let child = variant.play_in(pos, m, &mut child_slot);
            let gives_check = variant.in_check(child);
            if prunable && !gives_check {
                self.depth_limited = true;
                index += 1;
                continue;
            }
            // Step 10a. Near the horizon, prune moves that lose too much material by static
            // exchange: captures, and quiet moves that give no check.
            if may_prune
                && self.see_on
                && index > 0
                && best > -MATE_BOUND
                && !(quiet && gives_check)
                && !counted_good
                && pruning::see_threshold(node.depth, quiet)
                    .is_some_and(|t| self.see_below(pos, m, t))
            {
                self.depth_limited = true;
                index += 1;
                continue;
            }
            if defer && index > 0 && !was_deferred && self.shared.is_busy(child.hash()) {
                deferred.push(m);
                continue;
            }
            let extend = (gives_check && self.extends_check(pos, m, node.ply))
                || m == node.singular
                || (PROMOTION_STEP_EXTENSION && self.extends_push(pos, m, node.ply));
            let new_depth = node.depth - 1 + i32::from(extend);
            if defer {
                self.shared.mark_busy(child.hash());
            }
            self.note_played(pos, m, node.ply);
            self.path.push(pos.hash());
            let score = if index == 0 {
                let (ply, kind) = (node.ply, node.kind.first_child());
                self.child(pos, child, new_depth, ply, alpha, beta, kind, gives_check)
            } else {
                // Step 11. Late-move reductions for quiet moves.
                let r =
                    self.late_move_reduction(pos, node, m, index, quiet, gives_check, new_depth);
                self.search_later(pos, child, node, new_depth, r, alpha, beta, gives_check)
            };
            self.path.pop();
            if defer {
                self.shared.clear_busy(child.hash());
            }
            if self.aborted {
                return None;
            }
            index += 1;
            if score > best {
                best = score;
                best_move = m;
            }
            if score > alpha {
                alpha = score;
                self.update_pv(node.ply, m);
            }
            if alpha >= beta {
                // Step 12. A quiet move that refutes: remember it at this ply and in the history,
                // and count against the quiet moves tried before it.
                if quiet {
                    self.reward_quiet_cutoff(pos, m, node.ply, node.depth, quiets_tried);
                }
                let best_capture = (!quiet).then_some(m);
                self.reward_captures(pos, best_capture, node.depth, &captures_tried);
                break;
            }
            if quiet {
                quiets_tried.push(m);
            } else {
                captures_tried.push(m);
            }
        }
        Some((best, best_move))
    }

    /// A move after the first: a null-window search reduced by `r` plies, again at full depth if
    /// it beats alpha reduced, and with the full window on a PV line if it lands inside it. A
    /// reduced child is searched as a cut node, one at full depth as the parent's kind leads.
    #[allow(clippy::too_many_arguments)]
    fn search_later(
        &mut self,
        pos: &Position,
        child: &Position,
        node: Node,
        new_depth: i32,
        r: i32,
        alpha: i32,
        beta: i32,
        gives_check: bool,
    ) -> i32 {
        let ply = node.ply;
        let full = node.kind.null_window_child();
        let first = if r > 0 { NodeKind::Cut } else { full };
        let mut s = self.child(
            pos,
            child,
            new_depth - r,
            ply,
            alpha,
            alpha + 1,
            first,
            gives_check,
        );
        if s > alpha && r > 0 && !self.aborted {
            s = self.child(
                pos,
                child,
                new_depth,
                ply,
                alpha,
                alpha + 1,
                full,
                gives_check,
            );
        }
        if s > alpha && s < beta && node.pv_node() && !self.aborted {
            let kind = NodeKind::Pv;
            s = self.child(pos, child, new_depth, ply, alpha, beta, kind, gives_check);
        }
        s
    }

    /// Stores the node's best score and move, with the bound the window `alpha`..`beta` it was
    /// searched with gives it, and its static evaluation (or `NO_EVAL`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store_tt(
        &self,
        pos: &Position,
        node: Node,
        best: i32,
        best_move: Move,
        alpha: i32,
        beta: i32,
        eval: i32,
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store_eval(
            pos.hash(),
            TtEntry {
                mv: best_move,
                score: to_tt(best, node.ply),
                depth: node.depth,
                bound,
            },
            eval,
        );
    }

    /// Searches `child`, a position after a move from `pos`, at `ply + 1` and returns its score
    /// from `pos`'s point of view with the window `alpha`..`beta` of that point of view: the
    /// score is negated when the point of view changes (a player's move), and kept when it does
    /// not (a third party's ply, after which the same player is to move).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn child(
        &mut self,
        pos: &Position,
        child: &Position,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        kind: NodeKind,
        in_check: bool,
    ) -> i32 {
        if self.pov(child) == self.pov(pos) {
            self.alphabeta(child, depth, ply + 1, alpha, beta, kind, in_check)
        } else {
            -self.alphabeta(child, depth, ply + 1, -beta, -alpha, kind, in_check)
        }
    }
}
