//! One search thread: its path, its node count and the stop checks, and its killers and history
//! (kept from one search of a game to the next in `tables`); the transposition table and the
//! stop flag are shared. Also what every kind of node asks of the thread: whose
//! point of view it is scored from, the static evaluation, the score of a game's end, and the
//! move lists it works in.

use super::picker::Scores;
use super::pruning::Selectivity;
use super::tables::ThreadTables;
use super::{Shared, MATE, MAX_PLY};
use crate::board::Position;
use crate::core::{Color, KindSet, Move, MoveList, PieceKind, Square, NUM_SQUARES};
use crate::eval::{Eval, EvalCache, PawnCache};
use crate::third_party::{Policy, SeededChooser};
use crate::variants::Outcome;
use std::sync::atomic::Ordering;

/// Nodes between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;
/// With helpers, nodes between two looks at the deepest iteration another thread finished (a
/// single atomic load): often, so that the main thread reports it without delay.
const OVERTAKEN_EVERY: u64 = 64;

/// A ply of the line being searched, as the continuation tables see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LinePly {
    /// A move, by its key (`Worker::stat_key`).
    Keyed(u32),
    /// A move without a key: the null move.
    Unkeyed,
    /// A third party's pass: it changes nothing on the board, so the moves before it stay the
    /// ones a reply answers.
    Passed,
}

/// The lists one node works in: its moves, their order scores and the quiet moves it tried.
/// Each is larger than most nodes' whole work to fill with blanks, so a thread keeps a stack
/// of them (`Worker::take_lists`) rather than building them afresh at every node.
#[derive(Default)]
pub(super) struct NodeLists {
    pub(super) moves: MoveList,
    pub(super) scores: Scores,
    pub(super) quiets: MoveList,
}

/// One search thread.
pub(super) struct Worker<'a> {
    pub(super) shared: &'a Shared<'a>,
    pub(super) id: usize,
    pub(super) eval: &'a Eval,
    /// This search's pawn terms, by the pawns' squares (`eval` fills and reads it).
    pawn_cache: PawnCache,
    /// This search's static evaluations, by the position's hash.
    eval_cache: EvalCache,
    pub(super) nodes: u64,
    unpublished: u64,
    pub(super) seldepth: usize,
    pub(super) aborted: bool,
    /// The iteration was given up (with `aborted`) because another thread finished its depth.
    pub(super) overtaken: bool,
    /// Depth of the iteration being searched.
    pub(super) root_depth: u32,
    /// Whether some score of this iteration depends on its depth: a line reached the horizon or
    /// was pruned, or a table entry that may come from outside this iteration's tree (deeper
    /// than asked for, or with helpers any) ended a node. An iteration without one is resolved
    /// to the end by the rules.
    pub(super) depth_limited: bool,
    /// Plies below the horizon and quiet moves among them, in the quiescence line being searched.
    pub(super) quiesce_plies: u32,
    pub(super) quiesce_quiet: u32,
    /// Hashes of the game before the root and of the path from the root.
    pub(super) path: Vec<u64>,
    pub(super) pv: Vec<Vec<Move>>,
    /// This thread's killers and history, which it keeps from one search of a game to the next.
    pub(super) tables: &'a mut ThreadTables,
    pub(super) pawn_kinds: KindSet,
    pub(super) allow_null: bool,
    /// No null move is tried at a ply below this one (while a null move's cut is verified).
    pub(super) null_free_until: usize,
    /// The move played at each ply of the current line, for the continuation tables.
    pub(super) played: Vec<LinePly>,
    /// The move a singular-extension search leaves out at each ply (`Move::NULL` if none).
    pub(super) excluded: Vec<Move>,
    /// The static evaluation at each ply of the current line, with the point of view it is
    /// from (`None` in check, at the root and at plies not searched by `alphabeta`'s steps).
    pub(super) evals: Vec<Option<(Color, i32)>>,
    /// Move keys of the game, each square's dense number (`ordering::dense_index`) and the
    /// board's squares, for `stat_key`.
    pub(super) keys: usize,
    pub(super) dense: [u16; NUM_SQUARES],
    pub(super) board_squares: usize,
    /// Whether static exchange evaluation holds in the game, and its kinds least valuable first.
    pub(super) see_on: bool,
    pub(super) see_kinds: Vec<PieceKind>,
    /// Whether captures are ordered and rewarded by their history in this game.
    pub(super) capture_history_on: bool,
    /// Whether the first ply of quiescence searches the quiet checks too.
    pub(super) quiet_checks_on: bool,
    /// How far late moves are pruned and reduced in this game.
    pub(super) selectivity: &'static Selectivity,
    /// Whether the game's checks are the tables' (`SearchSwitches::checks_from_tables`), so
    /// that a quiet move may be pruned unmade.
    pub(super) check_screen_on: bool,
    /// Whether static exchanges find a square's attackers by the tables
    /// (`SearchSwitches::attacks_from_tables`).
    see_by_tables: bool,
    /// Lists for the nodes of the line being searched, by `take_lists` and `give_back_lists`.
    lists: Vec<Box<NodeLists>>,
    /// The random policy's choice of a third party's ply, with the plies' texts it keeps.
    pub(super) chooser: SeededChooser,
}

impl<'a> Worker<'a> {
    pub(super) fn new(
        shared: &'a Shared<'a>,
        id: usize,
        tables: &'a mut ThreadTables,
        history: &[u64],
    ) -> Worker<'a> {
        let rules = shared.variant.rules();
        let pawn_kinds = rules.pawns;
        let eval = &*shared.eval;
        let see_kinds = super::see::kinds_by_value(shared.variant, &|k| eval.value(k));
        let geometry = &rules.spec.geometry;
        Worker {
            shared,
            id,
            eval,
            pawn_cache: PawnCache::new(),
            eval_cache: EvalCache::new(),
            nodes: 0,
            unpublished: 0,
            seldepth: 0,
            aborted: false,
            overtaken: false,
            root_depth: 0,
            depth_limited: false,
            quiesce_plies: 0,
            quiesce_quiet: 0,
            path: history.to_vec(),
            pv: (0..=MAX_PLY).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            tables,
            played: vec![LinePly::Unkeyed; MAX_PLY + 1],
            excluded: vec![Move::NULL; MAX_PLY + 1],
            evals: vec![None; MAX_PLY + 1],
            keys: super::ordering::stat_keys(shared.variant),
            dense: super::ordering::dense_indices(geometry.files()),
            board_squares: super::ordering::board_squares(shared.variant),
            pawn_kinds,
            allow_null: shared.variant.switches().null_move_allowed(),
            null_free_until: 0,
            see_on: shared.variant.switches().see_sound(),
            see_kinds,
            capture_history_on: shared.variant.switches().capture_history(),
            quiet_checks_on: shared.variant.switches().quiet_checks_in_quiescence(),
            selectivity: Selectivity::of(shared.variant.switches().selective()),
            check_screen_on: shared.variant.switches().checks_from_tables(),
            see_by_tables: shared.variant.switches().attacks_from_tables(),
            lists: Vec::new(),
            chooser: SeededChooser::default(),
        }
    }

    /// Lists for a node, emptied: the stack's top, or new ones at a depth the line has not
    /// reached before. Handed back by `give_back_lists` when the node ends.
    pub(super) fn take_lists(&mut self) -> Box<NodeLists> {
        let mut lists = self.lists.pop().unwrap_or_default();
        lists.moves.clear();
        lists.quiets.clear();
        lists
    }

    /// Returns a node's lists to the stack for the next node.
    pub(super) fn give_back_lists(&mut self, lists: Box<NodeLists>) {
        self.lists.push(lists);
    }

    pub(super) fn is_main(&self) -> bool {
        self.id == 0
    }

    pub(super) fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + self.unpublished
    }

    /// Infinite or pondering searches ignore the clock.
    pub(super) fn unbounded(&self) -> bool {
        self.shared.limits.infinite || self.shared.control.pondering()
    }

    pub(super) fn publish(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.unpublished, Ordering::Relaxed);
        self.unpublished = 0;
    }

    /// Counts a node; every `CHECK_EVERY` nodes, publishes the count and looks at the stop flag
    /// and (on the main thread) the node and time limits, setting `aborted` when the search must
    /// end. With helpers, also gives up the iteration (`aborted` and `overtaken`) once another
    /// thread has finished its depth.
    pub(super) fn count_node(&mut self) {
        self.nodes += 1;
        self.unpublished += 1;
        if self.shared.helpers > 0
            && !self.aborted
            && self.nodes % OVERTAKEN_EVERY == 0
            && self.shared.completed() >= self.root_depth
        {
            self.aborted = true;
            self.overtaken = true;
            return;
        }
        if self.unpublished < CHECK_EVERY {
            return;
        }
        self.publish();
        let c = self.shared.control;
        if c.stopped() {
            self.aborted = true;
            return;
        }
        if self.is_main() {
            let limits = self.shared.limits;
            let out_of_nodes = limits
                .nodes
                .is_some_and(|n| self.shared.nodes.load(Ordering::Relaxed) >= n);
            let out_of_time = !self.unbounded() && self.shared.budget.hard_exceeded(c.elapsed());
            if out_of_nodes || out_of_time {
                c.set_stop();
                self.aborted = true;
            }
        }
    }

    /// Enters a node at `ply`: clears its line, counts it and notes the depth reached. False when
    /// the search is to stop.
    pub(super) fn enter_node(&mut self, ply: usize) -> bool {
        self.pv[ply].clear();
        self.count_node();
        if self.aborted {
            return false;
        }
        self.seldepth = self.seldepth.max(ply);
        true
    }

    /// Notes that `m` is played from `pos` at `ply` (for the continuation tables of the nodes
    /// below).
    pub(super) fn note_played(&mut self, pos: &Position, m: Move, ply: usize) {
        self.played[ply] = match self.stat_key(pos, m) {
            Some(key) => LinePly::Keyed(key),
            None if pos.turn() == Color::Neutral => LinePly::Passed,
            None => LinePly::Unkeyed,
        };
    }

    /// Sets the line at `ply` to `m` followed by the line found below it.
    pub(super) fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(m);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// Whether an earlier position of the game or of the path equals this one (within the
    /// game's repetition window; any distance, since a third party's plies can make the same
    /// side move at odd and even distances).
    pub(super) fn is_repetition(&self, pos: &Position) -> bool {
        let window = self
            .shared
            .variant
            .rulings()
            .repetition_window(pos)
            .min(self.path.len());
        self.path[self.path.len() - window..]
            .iter()
            .rev()
            .any(|&h| h == pos.hash())
    }

    /// The player a node is scored for: the game's point of view, or on a third party's ply
    /// chosen by the engine policy, the player that policy helps.
    pub(super) fn pov(&self, pos: &Position) -> Color {
        let tp = &self.shared.limits.third_party;
        if pos.turn() == Color::Neutral && tp.policy == Policy::Engine {
            tp.favors
        } else {
            self.shared.variant.rulings().point_of_view(pos)
        }
    }

    /// The score of a game's end at `ply`, from the position's point of view: mates nearer the
    /// root score further from zero.
    pub(super) fn outcome_score(&self, outcome: Outcome, pos: &Position, ply: usize) -> i32 {
        let pov = self.pov(pos);
        match outcome {
            Outcome::Win { winner, .. } if winner == pov => MATE - ply as i32,
            Outcome::Win { .. } => -(MATE - ply as i32),
            Outcome::Draw { .. } => 0,
        }
    }

    /// Whether the static evaluation `eval` at `ply` (from `pos`'s point of view) is better
    /// than the same player's two plies before, or that one is not known: a position getting
    /// better for the side to move is pruned less.
    pub(super) fn improving(&self, pos: &Position, ply: usize, eval: i32) -> bool {
        match ply.checked_sub(2).and_then(|p| self.evals[p]) {
            Some((pov, before)) if pov == self.pov(pos) => eval > before,
            _ => true,
        }
    }

    /// The static evaluation from the position's point of view.
    pub(super) fn static_eval(&mut self, pos: &Position) -> i32 {
        let variant = self.shared.variant;
        let pov = self.pov(pos);
        let (eval, pawn_cache) = (&self.eval, &mut self.pawn_cache);
        self.eval_cache.get(pos.hash(), || {
            eval.evaluate_cached(variant, pos, pov, pawn_cache)
        })
    }

    /// The value of the piece on `sq`, 0 if it is empty.
    pub(super) fn value_on(&self, pos: &Position, sq: Square) -> i32 {
        let p = pos.piece_at(sq);
        if p.is_some() {
            self.eval.value(p.kind())
        } else {
            0
        }
    }

    /// How this search counts static exchanges (`see::Counting`).
    fn counting<'c>(&'c self, value: &'c dyn Fn(PieceKind) -> i32) -> super::see::Counting<'c> {
        super::see::Counting {
            variant: self.shared.variant,
            value,
            kinds: &self.see_kinds,
            by_tables: self.see_by_tables,
        }
    }

    /// Whether `m` loses material by static exchange: its SEE is below `threshold`. A move whose
    /// gain, less the piece it leaves on the target square, reaches the threshold cannot (the
    /// exchange never costs more than that piece), so its exchange is not counted.
    pub(super) fn see_below(&self, pos: &Position, m: Move, threshold: i32) -> bool {
        let at_risk = match (m.kind(), m.piece()) {
            (crate::core::MoveKind::Promotion, Some(k)) => self.eval.value(k),
            _ => self.value_on(pos, m.from()),
        };
        let value = |k| self.eval.value(k);
        self.material_gain(pos, m) - at_risk < threshold
            && !super::see::see_at_least(&self.counting(&value), pos, m, threshold)
    }

    /// What a move wins at once for the mover (the game says: a self-capture loses).
    pub(super) fn material_gain(&self, pos: &Position, m: Move) -> i32 {
        self.shared
            .variant
            .rulings()
            .material_gain(pos, m, &|k| self.eval.value(k))
    }
}
