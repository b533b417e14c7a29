//! Search: iterative deepening with aspiration windows over a principal variation search, with a
//! transposition table shared by all threads (Lazy SMP on a rayon pool), quiescence over noisy
//! moves, null-move pruning where the game allows it, and late-move reductions. It honours
//! every limit the protocols pass (depth, nodes, time, mate, infinite, ponder, searchmoves,
//! MultiPV) and stops cleanly. With one thread it is deterministic.

mod picker;
mod time;
pub mod tt;

pub use time::TimeBudget;
pub use tt::TranspositionTable;

use crate::board::Position;
use crate::core::{Color, KindSet, Move, MoveKind, MoveList, NUM_SQUARES};
use crate::eval::Eval;
use crate::third_party::{seeded_choice, seeded_choice_in, Policy, ThirdParty};
use crate::variants::{Outcome, Variant};
use picker::Picker;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tt::{Bound, TtEntry};

/// Score of a mate on the board (at ply 0); mates further away score less.
pub const MATE: i32 = 30_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
const INFINITY: i32 = 32_000;
/// Deepest ply the search reaches (iterations plus extensions plus quiescence).
pub const MAX_PLY: usize = 128;
/// Nodes between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;
/// Ordering scores: the table's move, then captures, then killers, then history.
const ORDER_TT: i32 = 2_000_000;
const ORDER_CAPTURE: i32 = 1_000_000;
const ORDER_KILLER: [i32; 2] = [900_000, 800_000];
/// Half width of the first aspiration window, in centipawns.
const ASPIRATION_WINDOW: i32 = 30;
/// Depth from which aspiration windows are used.
const ASPIRATION_DEPTH: u32 = 4;
/// Least depth for null-move pruning.
const NULL_MOVE_DEPTH: i32 = 3;
/// Null-move reduction: a base and one more ply per this many plies of depth.
const NULL_MOVE_BASE: i32 = 2;
const NULL_MOVE_DEPTH_DIVISOR: i32 = 4;
/// Reverse futility pruning: deepest depth, and the margin per ply of depth.
const RFP_DEPTH: i32 = 6;
const RFP_MARGIN: i32 = 80;
/// Futility pruning of quiet moves: deepest depth, and the margin (base plus per ply).
const FUTILITY_DEPTH: i32 = 3;
const FUTILITY_BASE: i32 = 100;
const FUTILITY_PER_DEPTH: i32 = 100;
/// Late-move pruning: deepest depth; quiet moves after `LMP_BASE + depth * depth` are skipped.
const LMP_DEPTH: i32 = 4;
const LMP_BASE: usize = 3;
/// Internal iterative reduction: least depth.
const IIR_DEPTH: i32 = 4;
/// Quiescence delta pruning: margin over the material a capture wins.
const DELTA_MARGIN: i32 = 200;
/// History scores stay within this bound, below the killers' order.
const HISTORY_MAX: i32 = ORDER_KILLER[1] - 1;
/// Late-move reductions: least depth, and how many moves are searched in full first.
const LMR_DEPTH: i32 = 3;
/// Late-move reduction in plies: `LMR_BASE + ln(depth) * ln(index) / LMR_DIVISOR`.
const LMR_BASE: f64 = 0.75;
const LMR_DIVISOR: f64 = 2.25;
const LMR_FULL_MOVES: usize = 3;
/// Plies less than usual for each option of a third party whose plies come from outside, whose
/// node averages over all of them with full windows.
const EXPECTATION_REDUCTION: i32 = 1;
/// Stack of each search thread: move lists live on it, several per ply.
pub const THREAD_STACK_BYTES: usize = 64 * 1024 * 1024;

/// Late-move reduction for a move at `index` (from 0) at `depth`: grows with the logarithms of both.
fn lmr_reduction(depth: i32, index: usize) -> i32 {
    let r = LMR_BASE + (depth as f64).ln() * (index as f64).ln() / LMR_DIVISOR;
    r as i32
}

/// Limits of one search.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Most nodes.
    pub nodes: Option<u64>,
    /// Exact time for this move.
    pub movetime: Option<Duration>,
    /// Our clock: time left, increment, moves to the next time control.
    pub clock: Option<Clock>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Stop once a mate in at most this many moves is found.
    pub mate: Option<u32>,
    /// Only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// Root moves not to search.
    pub exclude: Vec<Move>,
    /// Lines to report.
    pub multipv: usize,
    /// Kept back from every time budget for transmission delays.
    pub move_overhead: Duration,
    /// Who plays a third party's plies, which decides how the search treats them.
    pub third_party: ThirdParty,
}

/// A clock for time management.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    /// Time left.
    pub time: Duration,
    /// Increment per move.
    pub inc: Duration,
    /// Moves until the next time control, if any.
    pub movestogo: Option<u32>,
}

/// Signals shared between the searching thread and the protocol.
#[derive(Debug)]
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
    start: Mutex<Instant>,
}

impl Control {
    /// A fresh control; `pondering` suspends time limits until `ponderhit`.
    pub fn new(pondering: bool) -> Control {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            start: Mutex::new(Instant::now()),
        }
    }

    /// Asks the search to stop as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// The flag `stop` sets, for work other than a search (perft).
    pub fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }

    /// Whether a stop was asked for.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Stops every thread of this search (the main thread's limits ran out).
    fn set_stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// The opponent played the expected move: time limits apply from now on.
    pub fn ponderhit(&self) {
        *self.start.lock().expect("clock lock") = Instant::now();
        self.pondering.store(false, Ordering::Relaxed);
    }

    /// Whether the search is pondering.
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    fn elapsed(&self) -> Duration {
        self.start.lock().expect("clock lock").elapsed()
    }
}

/// A score as protocols print it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// From an internal score.
    pub fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s <= -MATE_BOUND {
            Score::Mate(-((MATE + s) / 2))
        } else {
            Score::Cp(s)
        }
    }
}

/// What one finished iteration (or MultiPV line) found.
#[derive(Clone, Debug)]
pub struct Info {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Line number, from 1.
    pub multipv: usize,
    /// Internal score, from the side to move's point of view.
    pub score: i32,
    /// Nodes so far.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// Transposition table use, per mille.
    pub hashfull: u32,
}

/// The search's answer.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// Best move, if there is a legal move.
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
    /// Internal score of the best move.
    pub score: i32,
    /// Depth of the last finished iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// Everything the search threads share.
struct Shared<'a> {
    variant: &'a dyn Variant,
    tt: &'a TranspositionTable,
    control: &'a Control,
    limits: &'a Limits,
    budget: TimeBudget,
    /// Nodes of all threads, published in batches.
    nodes: AtomicU64,
}

/// One search thread: its own killers, histories and path; the table and the stop flag are shared.
struct Worker<'a> {
    shared: &'a Shared<'a>,
    id: usize,
    eval: Eval,
    nodes: u64,
    unpublished: u64,
    seldepth: usize,
    aborted: bool,
    /// Hashes of the game before the root and of the path from the root.
    path: Vec<u64>,
    pv: Vec<Vec<Move>>,
    killers: [[Move; 2]; MAX_PLY],
    history: Vec<i32>,
    pawn_kinds: KindSet,
    allow_null: bool,
}

/// Searches `root` (whose game history is `history`, oldest first) within `limits`, with
/// `threads` threads sharing `tt`; `pool` runs the helper threads. `on_info` gets each finished
/// line of the main thread.
#[allow(clippy::too_many_arguments)]
pub fn search(
    variant: &dyn Variant,
    root: &Position,
    history: &[u64],
    limits: &Limits,
    control: &Control,
    tt: &TranspositionTable,
    pool: Option<&rayon::ThreadPool>,
    on_info: &mut dyn FnMut(&Info),
) -> SearchResult {
    // A third party whose ply is chosen by its seed (or sent from outside, when the engine is
    // asked anyway) plays the seeded choice without a search.
    if root.turn() == Color::Neutral && limits.third_party.policy != Policy::Engine {
        return SearchResult {
            best: seeded_choice(variant, root, limits.third_party.seed),
            ..SearchResult::default()
        };
    }
    tt.new_search();
    let shared = Shared {
        variant,
        tt,
        control,
        limits,
        budget: TimeBudget::new(limits),
        nodes: AtomicU64::new(0),
    };
    let helpers = pool.map_or(0, |p| p.current_num_threads());
    let Some(pool) = pool.filter(|_| helpers > 0) else {
        return Worker::new(&shared, 0, history).run(root, on_info);
    };
    // Lazy SMP: helpers search the same tree and fill the shared table; the main thread, running
    // here, decides when to stop and reports.
    pool.in_place_scope(|scope| {
        for id in 1..=helpers {
            let shared = &shared;
            scope.spawn(move |_| {
                Worker::new(shared, id, history).run(root, &mut |_| {});
            });
        }
        let result = Worker::new(&shared, 0, history).run(root, on_info);
        control.set_stop();
        result
    })
}

/// The best move of a one-thread search of `pos` to `depth` with a small table, from the game's
/// start (no earlier positions): what the games' search tests ask.
#[cfg(test)]
pub(crate) fn best_at_depth(variant: &dyn Variant, pos: &Position, depth: u32) -> Option<Move> {
    let limits = Limits {
        depth: Some(depth),
        ..Default::default()
    };
    let tt = TranspositionTable::new(1);
    search(
        variant,
        pos,
        &[],
        &limits,
        &Control::new(false),
        &tt,
        None,
        &mut |_| {},
    )
    .best
}

fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl<'a> Worker<'a> {
    fn new(shared: &'a Shared<'a>, id: usize, history: &[u64]) -> Worker<'a> {
        let rules = shared.variant.rules();
        let pawn_kinds = rules.pawns;
        Worker {
            shared,
            id,
            eval: Eval::new(rules),
            nodes: 0,
            unpublished: 0,
            seldepth: 0,
            aborted: false,
            path: history.to_vec(),
            pv: (0..=MAX_PLY).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            killers: [[Move::NULL; 2]; MAX_PLY],
            history: vec![0; NUM_SQUARES * NUM_SQUARES],
            pawn_kinds,
            allow_null: shared.variant.switches().null_move_allowed(),
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + self.unpublished
    }

    fn run(&mut self, root: &Position, on_info: &mut dyn FnMut(&Info)) -> SearchResult {
        let limits = self.shared.limits;
        let mut moves = MoveList::new();
        self.shared.variant.legal_moves(root, &mut moves);
        let mut root_moves: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
            .filter(|m| !limits.exclude.contains(m))
            .collect();
        let mut result = SearchResult::default();
        if root_moves.is_empty() {
            return result;
        }
        // Until the first iteration ends, any legal move is better than none.
        result.best = Some(root_moves[0]);
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        let lines = limits.multipv.clamp(1, root_moves.len());
        let mut last_iteration_nodes = 0;
        let mut last_score: i32 = 0;
        // Helpers start one ply deeper every other thread, so the threads spread over depths.
        let first_depth = if self.is_main() {
            1
        } else {
            1 + (self.id % 2) as u32
        };
        for depth in first_depth..=max_depth {
            let nodes_before = self.nodes;
            let mut found: Vec<(i32, Vec<Move>)> = Vec::new();
            for line in 0..lines {
                let candidates: Vec<Move> = root_moves
                    .iter()
                    .copied()
                    .filter(|m| !found.iter().any(|(_, pv)| pv[0] == *m))
                    .collect();
                // Step 1. Aspiration: search a narrow window around the last score first, and widen
                // it on failure.
                let (score, pv) =
                    if depth >= ASPIRATION_DEPTH && lines == 1 && last_score.abs() < MATE_BOUND {
                        self.aspiration(root, depth, &candidates, last_score)
                    } else {
                        self.root(root, depth, &candidates, -INFINITY, INFINITY)
                    };
                if self.aborted && !(depth == first_depth && line == 0 && !pv.is_empty()) {
                    break;
                }
                found.push((score, pv));
            }
            if found.is_empty() {
                break;
            }
            // Step 2. Report the lines, best first, and keep the best.
            found.sort_by_key(|(score, _)| -score);
            if self.is_main() {
                let hashfull = self.shared.tt.hashfull();
                for (i, (score, pv)) in found.iter().enumerate() {
                    let info = Info {
                        depth,
                        seldepth: self.seldepth as u32,
                        multipv: i + 1,
                        score: *score,
                        nodes: self.total_nodes(),
                        time: self.shared.control.elapsed(),
                        pv: pv.clone(),
                        hashfull,
                    };
                    on_info(&info);
                }
            }
            let (score, pv) = &found[0];
            last_score = *score;
            result = SearchResult {
                best: pv.first().copied(),
                ponder: pv.get(1).copied(),
                score: *score,
                depth,
                nodes: 0,
            };
            // Step 3. Search the best move first in the next iteration.
            if let Some(best) = result.best {
                if let Some(i) = root_moves.iter().position(|&m| m == best) {
                    root_moves[..=i].rotate_right(1);
                }
            }
            if self.aborted || !self.is_main() {
                if self.aborted {
                    break;
                }
                continue;
            }
            // Step 4. A tree that stopped growing is resolved to the end (every line ends by a
            // rule): deeper iterations would only repeat it.
            let grown = self.nodes - nodes_before;
            if depth > 1 && grown == last_iteration_nodes {
                break;
            }
            last_iteration_nodes = grown;
            // Step 5. Stop when the iteration used enough of the time, or a wanted mate is found.
            if let Some(n) = limits.mate {
                if let Score::Mate(m) = Score::from_internal(*score) {
                    if m > 0 && m as u32 <= n {
                        break;
                    }
                }
            }
            if !self.unbounded()
                && self
                    .shared
                    .budget
                    .soft_exceeded(self.shared.control.elapsed())
            {
                break;
            }
            // A mate found with twice its length in depth is taken as the shortest: pruning may
            // hide a shorter one from shallower iterations.
            if score.abs() >= MATE_BOUND
                && 2 * (MATE - score.abs()) <= depth as i32
                && limits.depth.is_none()
                && limits.mate.is_none()
                && !self.unbounded()
            {
                break;
            }
        }
        self.publish();
        result.nodes = self.shared.nodes.load(Ordering::Relaxed);
        result
    }

    /// Infinite or pondering searches ignore the clock.
    fn unbounded(&self) -> bool {
        self.shared.limits.infinite || self.shared.control.pondering()
    }

    fn aspiration(
        &mut self,
        pos: &Position,
        depth: u32,
        moves: &[Move],
        center: i32,
    ) -> (i32, Vec<Move>) {
        let mut delta = ASPIRATION_WINDOW;
        loop {
            let alpha = (center - delta).max(-INFINITY);
            let beta = (center + delta).min(INFINITY);
            let (score, pv) = self.root(pos, depth, moves, alpha, beta);
            if self.aborted || (score > alpha && score < beta) || delta >= INFINITY {
                return (score, pv);
            }
            delta = delta.saturating_mul(4).min(INFINITY);
        }
    }

    /// Searches the root moves in order with a principal variation search; returns the best
    /// score and its line.
    fn root(
        &mut self,
        pos: &Position,
        depth: u32,
        moves: &[Move],
        mut alpha: i32,
        beta: i32,
    ) -> (i32, Vec<Move>) {
        let mut best_pv = Vec::new();
        let mut best = -INFINITY;
        self.seldepth = 0;
        let variant = self.shared.variant;
        for (i, &m) in moves.iter().enumerate() {
            let child = variant.play(pos, m);
            self.path.push(pos.hash());
            let check = variant.in_check(&child);
            let d = depth as i32 - 1 + i32::from(check);
            let mut score = if i == 0 {
                self.child(pos, &child, d, 0, alpha, beta, true, check)
            } else {
                self.child(pos, &child, d, 0, alpha, alpha + 1, false, check)
            };
            if i > 0 && score > alpha && score < beta && !self.aborted {
                score = self.child(pos, &child, d, 0, alpha, beta, true, check);
            }
            self.path.pop();
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                best_pv = std::iter::once(m)
                    .chain(self.pv[1].iter().copied())
                    .collect();
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                break;
            }
        }
        if !self.aborted && !best_pv.is_empty() {
            let bound = if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.shared.tt.store(
                pos.hash(),
                TtEntry {
                    mv: best_pv[0],
                    score: to_tt(best, 0),
                    depth: depth as i32,
                    bound,
                },
            );
        }
        (best, best_pv)
    }

    fn publish(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.unpublished, Ordering::Relaxed);
        self.unpublished = 0;
    }

    fn count_node(&mut self) {
        self.nodes += 1;
        self.unpublished += 1;
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

    /// Whether an earlier position of the game or of the path equals this one (within the
    /// game's repetition window; any distance, since a third party's plies can make the same
    /// side move at odd and even distances).
    fn is_repetition(&self, pos: &Position) -> bool {
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

    /// Searches `child`, a position after a move from `pos`, at `ply + 1` and returns its score
    /// from `pos`'s point of view with the window `alpha`..`beta` of that point of view: the
    /// score is negated when the point of view changes (a player's move), and kept when it does
    /// not (a third party's ply, after which the same player is to move).
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        pos: &Position,
        child: &Position,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        pv_node: bool,
        in_check: bool,
    ) -> i32 {
        if self.pov(child) == self.pov(pos) {
            self.alphabeta(child, depth, ply + 1, alpha, beta, pv_node, in_check)
        } else {
            -self.alphabeta(child, depth, ply + 1, -beta, -alpha, pv_node, in_check)
        }
    }

    /// `child` for quiescence.
    fn quiesce_child(
        &mut self,
        pos: &Position,
        child: &Position,
        ply: usize,
        alpha: i32,
        beta: i32,
        in_check: bool,
    ) -> i32 {
        if self.pov(child) == self.pov(pos) {
            self.quiesce(child, ply + 1, alpha, beta, in_check)
        } else {
            -self.quiesce(child, ply + 1, -beta, -alpha, in_check)
        }
    }

    /// The player a node is scored for: the game's point of view, or on a third party's ply
    /// chosen by the engine policy, the player that policy helps.
    fn pov(&self, pos: &Position) -> Color {
        let tp = &self.shared.limits.third_party;
        if pos.turn() == Color::Neutral && tp.policy == Policy::Engine {
            tp.favors
        } else {
            self.shared.variant.rulings().point_of_view(pos)
        }
    }

    fn outcome_score(&self, outcome: Outcome, pos: &Position, ply: usize) -> i32 {
        let pov = self.pov(pos);
        match outcome {
            Outcome::Win { winner, .. } if winner == pov => MATE - ply as i32,
            Outcome::Win { .. } => -(MATE - ply as i32),
            Outcome::Draw { .. } => 0,
        }
    }

    /// Whether the side to move has pieces other than royal and pawn-like ones, without which a
    /// null move risks zugzwang.
    fn has_pieces(&self, pos: &Position) -> bool {
        let rules = self.shared.variant.rules();
        let us = pos.turn();
        let bb = pos.color_bb(us) & !pos.royals(rules, us) & !pos.kinds_bb(self.pawn_kinds);
        bb.nonempty()
    }

    /// The static evaluation from the position's point of view.
    fn static_eval(&self, pos: &Position) -> i32 {
        let variant = self.shared.variant;
        let pov = self.pov(pos);
        let extra = variant.switches().evaluate_extra(pos);
        let extra = if pov == Color::Black { -extra } else { extra };
        self.eval.evaluate(variant.rules(), pos, pov) + extra
    }

    /// `in_check` is whether the side to move is in check, which the parent has worked out.
    #[allow(clippy::too_many_arguments)]
    fn alphabeta(
        &mut self,
        pos: &Position,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        pv_node: bool,
        in_check: bool,
    ) -> i32 {
        // Step 1. At the horizon, resolve captures.
        if depth <= 0 {
            return self.quiesce(pos, ply, alpha, beta, in_check);
        }
        self.pv[ply].clear();
        self.count_node();
        if self.aborted {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let variant = self.shared.variant;
        // Step 2. Draws by repetition within the search, before anything else.
        if self.is_repetition(pos) {
            return 0;
        }
        // Step 3. Mate distance pruning: no line here can beat a mate already found nearer the root.
        alpha = alpha.max(-(MATE - ply as i32));
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        // Step 4. The transposition table: a deep enough entry ends the node outside PV lines.
        let entry = self.shared.tt.probe(pos.hash());
        let tt_move = entry.map_or(Move::NULL, |e| e.mv);
        if let Some(e) = entry.filter(|e| !pv_node && e.depth >= depth) {
            let s = from_tt(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut {
                return s;
            }
        }
        // Step 5. Game ends by the variant's rules (mate, stalemate, 50 moves, its own wins).
        let mut moves = MoveList::new();
        variant.legal_moves_checked(pos, in_check, &mut moves);
        if let Some(outcome) = variant.rulings().outcome(pos, moves.len(), &[]) {
            return self.outcome_score(outcome, pos, ply);
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval(pos);
        }
        // Step 5a. A third party's ply by its policy: the seeded choice it will make, or the
        // average over its options; the engine policy searches it as a node of the player it
        // helps (`pov`).
        if pos.turn() == Color::Neutral {
            match self.shared.limits.third_party.policy {
                Policy::Random => {
                    return self.follow_choice(pos, &moves, depth, ply, alpha, beta, pv_node)
                }
                Policy::External => return self.expected(pos, &moves, depth, ply),
                Policy::Engine => {}
            }
        }
        let static_eval = if in_check {
            -INFINITY
        } else {
            self.static_eval(pos)
        };
        // Step 6. Reverse futility: outside PV lines, near the horizon, a static evaluation far
        // above beta is taken to hold.
        if !pv_node
            && !in_check
            && depth <= RFP_DEPTH
            && beta.abs() < MATE_BOUND
            && static_eval - RFP_MARGIN * depth >= beta
        {
            return static_eval;
        }
        // Step 7. Null move: if passing still beats beta, a real move will too (not in check, not
        // without pieces, where zugzwang is likely, and only where the variant allows it).
        if self.allow_null
            && !pv_node
            && !in_check
            && depth >= NULL_MOVE_DEPTH
            && beta.abs() < MATE_BOUND
            && static_eval >= beta
            && self.has_pieces(pos)
        {
            let r = NULL_MOVE_BASE + depth / NULL_MOVE_DEPTH_DIVISOR;
            let null = variant.play(pos, Move::pass());
            // Only a pass that hands the move straight to the opponent is a null move: never
            // one that crosses a third party's turn.
            if null.turn() == pos.turn().opponent()
                && variant.rulings().point_of_view(&null) == null.turn()
            {
                self.path.push(pos.hash());
                let score = -self.alphabeta(
                    &null,
                    depth - 1 - r,
                    ply + 1,
                    -beta,
                    -beta + 1,
                    false,
                    false,
                );
                self.path.pop();
                if self.aborted {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }
        // Step 8. Internal iterative reduction: without a move from the table, ordering is poor
        // and the node is probably not critical, so search it a ply shallower.
        if tt_move == Move::NULL && depth >= IIR_DEPTH {
            depth -= 1;
        }
        // Step 9. Try the moves, best-looking first, the first with a full window and the rest
        // with a null window, pruning and reducing late quiet moves.
        let alpha_orig = alpha;
        let mut picker = self.picker(pos, &mut moves, ply, tt_move);
        let mut best = -INFINITY;
        let mut best_move = Move::NULL;
        let mut index = 0;
        let mut quiets_tried = MoveList::new();
        let may_prune = !pv_node && !in_check;
        while let Some(m) = picker.next() {
            let quiet = !variant.rulings().is_noisy(pos, m);
            let child = variant.play(pos, m);
            let gives_check = variant.in_check(&child);
            // Step 10. Prune quiet moves that give no check near the horizon: late in the order
            // (late-move pruning), or unable to lift a static evaluation far below alpha
            // (futility).
            if may_prune
                && quiet
                && !gives_check
                && index > 0
                && best > -MATE_BOUND
                && ((depth <= LMP_DEPTH && index >= LMP_BASE + (depth * depth) as usize)
                    || (depth <= FUTILITY_DEPTH
                        && static_eval + FUTILITY_BASE + FUTILITY_PER_DEPTH * depth <= alpha))
            {
                index += 1;
                continue;
            }
            let new_depth = depth - 1 + i32::from(gives_check);
            self.path.push(pos.hash());
            let score = if index == 0 {
                self.child(
                    pos,
                    &child,
                    new_depth,
                    ply,
                    alpha,
                    beta,
                    pv_node,
                    gives_check,
                )
            } else {
                // Step 11. Late-move reductions for quiet moves.
                let mut r = 0;
                if depth >= LMR_DEPTH
                    && index >= LMR_FULL_MOVES
                    && quiet
                    && !in_check
                    && !gives_check
                {
                    // Less for PV nodes and for the killers, which refuted sibling positions.
                    let killer = self.killers[ply].contains(&m);
                    r = (lmr_reduction(depth, index) - i32::from(pv_node) - i32::from(killer))
                        .clamp(0, new_depth - 1);
                }
                let mut s = self.child(
                    pos,
                    &child,
                    new_depth - r,
                    ply,
                    alpha,
                    alpha + 1,
                    false,
                    gives_check,
                );
                if s > alpha && r > 0 && !self.aborted {
                    s = self.child(
                        pos,
                        &child,
                        new_depth,
                        ply,
                        alpha,
                        alpha + 1,
                        false,
                        gives_check,
                    );
                }
                if s > alpha && s < beta && pv_node && !self.aborted {
                    s = self.child(pos, &child, new_depth, ply, alpha, beta, true, gives_check);
                }
                s
            };
            self.path.pop();
            if self.aborted {
                return 0;
            }
            index += 1;
            if score > best {
                best = score;
                best_move = m;
            }
            if score > alpha {
                alpha = score;
                let (head, tail) = self.pv.split_at_mut(ply + 1);
                head[ply].clear();
                head[ply].push(m);
                head[ply].extend_from_slice(&tail[0]);
            }
            if alpha >= beta {
                // Step 12. A quiet move that refutes: remember it at this ply and in the history,
                // and count against the quiet moves tried before it.
                if quiet {
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
                break;
            }
            if quiet {
                quiets_tried.push(m);
            }
        }
        // Step 13. Remember the result for later visits and other threads.
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            pos.hash(),
            TtEntry {
                mv: best_move,
                score: to_tt(best, ply),
                depth,
                bound,
            },
        );
        best
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
        pv_node: bool,
    ) -> i32 {
        let variant = self.shared.variant;
        let seed = self.shared.limits.third_party.seed;
        let Some(m) = seeded_choice_in(variant, pos, moves, seed) else {
            return self.static_eval(pos);
        };
        let child = variant.play(pos, m);
        let check = variant.in_check(&child);
        self.path.push(pos.hash());
        let score = self.child(pos, &child, depth, ply, alpha, beta, pv_node, check);
        self.path.pop();
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(m);
        head[ply].extend_from_slice(&tail[0]);
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
            self.path.push(pos.hash());
            let s = self.child(
                pos,
                &child,
                child_depth,
                ply,
                -INFINITY,
                INFINITY,
                false,
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

    /// Moves a history score towards `bonus`'s sign, keeping it below the killers' order.
    fn update_history(&mut self, m: Move, bonus: i32) {
        let h = &mut self.history[m.from().index() * NUM_SQUARES + m.to().index()];
        *h = (*h + bonus).clamp(-HISTORY_MAX, HISTORY_MAX);
    }

    /// What a move wins at once for the mover (the game says: a self-capture loses).
    fn material_gain(&self, pos: &Position, m: Move) -> i32 {
        self.shared
            .variant
            .rulings()
            .material_gain(pos, m, &|k| self.eval.value(k))
    }

    /// Resolves captures: the side to move may stand pat on the static evaluation unless in check,
    /// when every evasion is searched.
    fn quiesce(
        &mut self,
        pos: &Position,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        in_check: bool,
    ) -> i32 {
        self.pv[ply].clear();
        self.count_node();
        if self.aborted {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let variant = self.shared.variant;
        if ply >= MAX_PLY - 1 {
            return self.static_eval(pos);
        }
        let mut moves = MoveList::new();
        // A third party's ply in quiescence: the seeded choice when it is known, else its pass.
        let policy = self.shared.limits.third_party.policy;
        if pos.turn() == Color::Neutral && policy != Policy::Engine {
            variant.legal_moves(pos, &mut moves);
            let m = match policy {
                Policy::Random => {
                    seeded_choice_in(variant, pos, &moves, self.shared.limits.third_party.seed)
                }
                _ => moves.iter().copied().find(|m| m.kind() == MoveKind::Pass),
            };
            let Some(m) = m else {
                return match variant.rulings().outcome(pos, moves.len(), &[]) {
                    Some(o) => self.outcome_score(o, pos, ply),
                    None => self.static_eval(pos),
                };
            };
            let child = variant.play(pos, m);
            let check = variant.in_check(&child);
            return self.quiesce_child(pos, &child, ply, alpha, beta, check);
        }
        let stand_pat;
        if in_check {
            // Every evasion, so that mate is found.
            variant.legal_moves_checked(pos, true, &mut moves);
            if let Some(outcome) = variant.rulings().outcome(pos, moves.len(), &[]) {
                return self.outcome_score(outcome, pos, ply);
            }
            stand_pat = -INFINITY;
        } else {
            // Not in check, the side to move is taken to have a move (stalemate is left to the
            // full-width search); the other game ends still count.
            if let Some(outcome) = variant.rulings().outcome(pos, 1, &[]) {
                return self.outcome_score(outcome, pos, ply);
            }
            stand_pat = self.static_eval(pos);
            if stand_pat >= beta {
                return stand_pat;
            }
            variant.noisy_moves(pos, false, &mut moves);
        }
        let mut best = stand_pat;
        alpha = alpha.max(best);
        let mut picker = self.picker(pos, &mut moves, ply, Move::NULL);
        while let Some(m) = picker.next() {
            if !in_check {
                let gain = self.material_gain(pos, m);
                // Delta pruning: even winning this material with a margin cannot reach alpha.
                if stand_pat + gain + DELTA_MARGIN <= alpha {
                    continue;
                }
                // A capture by a piece worth more than its prey, onto a defended square, likely
                // loses material.
                if matches!(m.kind(), MoveKind::Normal | MoveKind::Promotion)
                    && self.value_on(pos, m.from()) > gain
                    && variant.attacked(
                        pos,
                        m.to(),
                        pos.turn(),
                        pos.occupied() & !crate::core::Bitboard::from_square(m.from()),
                    )
                {
                    continue;
                }
            }
            let child = variant.play(pos, m);
            let check = variant.in_check(&child);
            let score = self.quiesce_child(pos, &child, ply, alpha, beta, check);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    fn value_on(&self, pos: &Position, sq: crate::core::Square) -> i32 {
        let p = pos.piece_at(sq);
        if p.is_some() {
            self.eval.value(p.kind())
        } else {
            0
        }
    }

    /// Moves in the order to try them: the table's move, captures by most valuable victim and
    /// least valuable attacker, killers, then history.
    fn picker<'m>(
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
}

#[cfg(test)]
mod tests;
