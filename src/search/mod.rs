//! Search: iterative deepening over an alpha-beta (negamax) search with quiescence, for any
//! registered variant. This is the baseline the Search issue builds on; it already honours every
//! limit the protocols pass (depth, nodes, time, mate, infinite, ponder, searchmoves, MultiPV) and
//! stops cleanly.

mod time;

pub use time::TimeBudget;

use crate::board::Position;
use crate::core::{Move, MoveKind, MoveList, Square, NUM_SQUARES};
use crate::eval::Eval;
use crate::variants::{Outcome, Variant};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Score of a mate on the board (at ply 0); mates further away score less.
pub const MATE: i32 = 30_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
const INFINITY: i32 = 32_000;
/// Deepest ply the search reaches (iterations plus extensions plus quiescence).
pub const MAX_PLY: usize = 128;
/// Nodes between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;
/// Ordering scores: the previous best move, then captures, then killers, then history.
const ORDER_PV: i32 = 2_000_000;
const ORDER_CAPTURE: i32 = 1_000_000;
const ORDER_KILLER: [i32; 2] = [900_000, 800_000];

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

    /// Whether a stop was asked for.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
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

struct Searcher<'a> {
    variant: &'a dyn Variant,
    eval: Eval,
    control: &'a Control,
    limits: &'a Limits,
    budget: TimeBudget,
    nodes: u64,
    seldepth: usize,
    aborted: bool,
    /// Hashes of the game before the root and of the path from the root.
    path: Vec<u64>,
    pv: Vec<Vec<Move>>,
    /// The best line of the last iteration, tried first at each ply.
    prev_pv: Vec<Move>,
    killers: [[Move; 2]; MAX_PLY],
    history: Vec<i32>,
}

/// Searches `root` (whose game history is `history`, oldest first) within `limits`, calling
/// `on_info` after each finished line.
pub fn search(
    variant: &dyn Variant,
    root: &Position,
    history: &[u64],
    limits: &Limits,
    control: &Control,
    on_info: &mut dyn FnMut(&Info),
) -> SearchResult {
    let mut s = Searcher {
        variant,
        eval: Eval::new(variant.rules()),
        control,
        limits,
        budget: TimeBudget::new(limits, root.turn()),
        nodes: 0,
        seldepth: 0,
        aborted: false,
        path: history.to_vec(),
        pv: vec![Vec::new(); MAX_PLY + 1],
        prev_pv: Vec::new(),
        killers: [[Move::NULL; 2]; MAX_PLY],
        history: vec![0; NUM_SQUARES * NUM_SQUARES],
    };
    s.run(root, on_info)
}

impl Searcher<'_> {
    fn run(&mut self, root: &Position, on_info: &mut dyn FnMut(&Info)) -> SearchResult {
        let mut moves = MoveList::new();
        self.variant.legal_moves(root, &mut moves);
        let mut root_moves: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| self.limits.searchmoves.is_empty() || self.limits.searchmoves.contains(m))
            .filter(|m| !self.limits.exclude.contains(m))
            .collect();
        let mut result = SearchResult::default();
        if root_moves.is_empty() {
            return result;
        }
        // Until the first iteration ends, any legal move is better than none.
        result.best = Some(root_moves[0]);
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        let lines = self.limits.multipv.clamp(1, root_moves.len());
        let mut last_iteration_nodes = 0;
        for depth in 1..=max_depth {
            let nodes_before = self.nodes;
            let mut found: Vec<(i32, Vec<Move>)> = Vec::new();
            for line in 0..lines {
                let candidates: Vec<Move> = root_moves
                    .iter()
                    .copied()
                    .filter(|m| !found.iter().any(|(_, pv)| pv[0] == *m))
                    .collect();
                let (score, pv) = self.root(root, depth, &candidates);
                if self.aborted && !(depth == 1 && line == 0 && !pv.is_empty()) {
                    break;
                }
                found.push((score, pv));
            }
            if found.is_empty() {
                break;
            }
            // Step 1. Report the lines, best first, and keep the best.
            found.sort_by_key(|(score, _)| -score);
            for (i, (score, pv)) in found.iter().enumerate() {
                let info = Info {
                    depth,
                    seldepth: self.seldepth as u32,
                    multipv: i + 1,
                    score: *score,
                    nodes: self.nodes,
                    time: self.control.elapsed(),
                    pv: pv.clone(),
                };
                on_info(&info);
            }
            let (score, pv) = &found[0];
            self.prev_pv = pv.clone();
            result = SearchResult {
                best: pv.first().copied(),
                ponder: pv.get(1).copied(),
                score: *score,
                depth,
                nodes: self.nodes,
            };
            // Step 2. Search the best move first in the next iteration.
            if let Some(best) = result.best {
                if let Some(i) = root_moves.iter().position(|&m| m == best) {
                    root_moves[..=i].rotate_right(1);
                }
            }
            if self.aborted {
                break;
            }
            // Step 3. A tree that stopped growing is resolved to the end (every line ends by a
            // rule): deeper iterations would only repeat it.
            let grown = self.nodes - nodes_before;
            if depth > 1 && grown == last_iteration_nodes {
                break;
            }
            last_iteration_nodes = grown;
            // Step 4. Stop when the iteration used enough of the time, or a wanted mate is found.
            if let Some(n) = self.limits.mate {
                if let Score::Mate(m) = Score::from_internal(*score) {
                    if m > 0 && m as u32 <= n {
                        break;
                    }
                }
            }
            if !self.unbounded() && self.budget.soft_exceeded(self.control.elapsed()) {
                break;
            }
            if score.abs() >= MATE_BOUND
                && MATE - score.abs() <= depth as i32
                && self.limits.depth.is_none()
                && !self.unbounded()
            {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    /// Infinite or pondering searches ignore the clock.
    fn unbounded(&self) -> bool {
        self.limits.infinite || self.control.pondering()
    }

    /// Searches the root moves in order; returns the best score and its PV.
    fn root(&mut self, pos: &Position, depth: u32, moves: &[Move]) -> (i32, Vec<Move>) {
        let mut alpha = -INFINITY;
        let beta = INFINITY;
        let mut best_pv = Vec::new();
        self.seldepth = 0;
        for &m in moves {
            let child = self.variant.play(pos, m);
            self.path.push(pos.hash());
            let score = -self.alphabeta(&child, depth as i32 - 1, 1, -beta, -alpha);
            self.path.pop();
            if self.aborted {
                break;
            }
            if score > alpha {
                alpha = score;
                best_pv = std::iter::once(m)
                    .chain(self.pv[1].iter().copied())
                    .collect();
            }
        }
        (alpha, best_pv)
    }

    fn check_limits(&mut self) {
        if self.nodes % CHECK_EVERY != 0 {
            return;
        }
        if self.control.stopped()
            || self.limits.nodes.is_some_and(|n| self.nodes >= n)
            || (!self.unbounded() && self.budget.hard_exceeded(self.control.elapsed()))
        {
            self.aborted = true;
        }
    }

    fn is_repetition(&self, pos: &Position) -> bool {
        let window = (pos.halfmove_clock() as usize).min(self.path.len());
        self.path[self.path.len() - window..]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .any(|&h| h == pos.hash())
    }

    fn outcome_score(&self, outcome: Outcome, pos: &Position, ply: usize) -> i32 {
        match outcome {
            Outcome::Win { winner, .. } if winner == pos.turn() => MATE - ply as i32,
            Outcome::Win { .. } => -(MATE - ply as i32),
            Outcome::Draw { .. } => 0,
        }
    }

    fn alphabeta(
        &mut self,
        pos: &Position,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.pv[ply].clear();
        self.nodes += 1;
        self.check_limits();
        if self.aborted {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        // Step 1. Draws by repetition within the search, found before generating moves.
        if self.is_repetition(pos) {
            return 0;
        }
        let mut moves = MoveList::new();
        self.variant.legal_moves(pos, &mut moves);
        // Step 2. Game ends by the variant's rules (mate, stalemate, 50 moves, its own wins).
        if let Some(outcome) = self.variant.outcome(pos, moves.len(), &[]) {
            return self.outcome_score(outcome, pos, ply);
        }
        if ply >= MAX_PLY - 1 {
            return self.eval.evaluate(self.variant.rules(), pos);
        }
        // Step 3. At the horizon, resolve captures.
        if depth <= 0 {
            return self.quiesce(pos, ply, alpha, beta, &moves);
        }
        // Step 4. Try the moves, best-looking first.
        let ordered = self.order(pos, &moves, ply);
        let mut best = -INFINITY;
        for m in ordered {
            let child = self.variant.play(pos, m);
            // Check extension: a forcing line is searched one ply deeper.
            let extension = i32::from(self.variant.in_check(&child));
            self.path.push(pos.hash());
            let score = -self.alphabeta(&child, depth - 1 + extension, ply + 1, -beta, -alpha);
            self.path.pop();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                let (head, tail) = self.pv.split_at_mut(ply + 1);
                head[ply].clear();
                head[ply].push(m);
                head[ply].extend_from_slice(&tail[0]);
            }
            if alpha >= beta {
                // Step 5. A quiet move that refutes: remember it at this ply and in the history.
                if !self.is_noisy(pos, m) {
                    let k = &mut self.killers[ply];
                    if k[0] != m {
                        k[1] = k[0];
                        k[0] = m;
                    }
                    self.history[m.from().index() * NUM_SQUARES + m.to().index()] += depth * depth;
                }
                break;
            }
        }
        best
    }

    fn quiesce(
        &mut self,
        pos: &Position,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        moves: &MoveList,
    ) -> i32 {
        let in_check = self.variant.in_check(pos);
        // Stand pat: the side to move may decline every capture, unless in check.
        let mut best = if in_check {
            -INFINITY
        } else {
            self.eval.evaluate(self.variant.rules(), pos)
        };
        if best >= beta {
            return best;
        }
        alpha = alpha.max(best);
        let mut noisy = MoveList::new();
        for &m in moves.iter() {
            if in_check || self.is_noisy(pos, m) {
                noisy.push(m);
            }
        }
        for m in self.order(pos, &noisy, ply) {
            let child = self.variant.play(pos, m);
            self.nodes += 1;
            self.check_limits();
            if self.aborted {
                return 0;
            }
            self.seldepth = self.seldepth.max(ply + 1);
            let mut replies = MoveList::new();
            self.variant.legal_moves(&child, &mut replies);
            let score = match self.variant.outcome(&child, replies.len(), &[]) {
                Some(o) => -self.outcome_score(o, &child, ply + 1),
                None if ply + 1 >= MAX_PLY - 1 => -self.eval.evaluate(self.variant.rules(), &child),
                None => -self.quiesce(&child, ply + 1, -beta, -alpha, &replies),
            };
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

    /// Captures, promotions and other material-changing moves.
    fn is_noisy(&self, pos: &Position, m: Move) -> bool {
        match m.kind() {
            MoveKind::Normal => pos.piece_at(m.to()).is_some(),
            MoveKind::Castle
            | MoveKind::Drop
            | MoveKind::Pass
            | MoveKind::Switch
            | MoveKind::Merge
            | MoveKind::ShieldShift
            | MoveKind::Nature => false,
            _ => true,
        }
    }

    fn victim_value(&self, pos: &Position, sq: Square) -> i32 {
        let p = pos.piece_at(sq);
        if p.is_some() {
            self.eval.value(p.kind())
        } else {
            0
        }
    }

    /// Moves sorted best-looking first: the previous iteration's move at this ply, captures by
    /// most valuable victim and least valuable attacker, killers, then history.
    fn order(&self, pos: &Position, moves: &MoveList, ply: usize) -> Vec<Move> {
        let pv_move = self.prev_pv.get(ply).copied();
        let mut scored: Vec<(i32, Move)> = moves
            .iter()
            .map(|&m| {
                let s = if Some(m) == pv_move {
                    ORDER_PV
                } else if self.is_noisy(pos, m) {
                    let victim = match m.kind() {
                        MoveKind::EnPassant => m.aux().map_or(0, |v| self.victim_value(pos, v)),
                        _ => self.victim_value(pos, m.to()),
                    };
                    let promo = m.piece().map_or(0, |k| self.eval.value(k));
                    let attacker = self.victim_value(pos, m.from());
                    ORDER_CAPTURE + 10 * (victim + promo) - attacker / 10
                } else if self.killers[ply][0] == m {
                    ORDER_KILLER[0]
                } else if self.killers[ply][1] == m {
                    ORDER_KILLER[1]
                } else {
                    self.history[m.from().index() * NUM_SQUARES + m.to().index()]
                        .min(ORDER_KILLER[1] - 1)
                };
                (s, m)
            })
            .collect();
        scored.sort_by_key(|&(s, _)| -s);
        scored.into_iter().map(|(_, m)| m).collect()
    }
}
