//! Search: iterative deepening with aspiration windows over a principal variation search, with a
//! transposition table shared by all threads (Lazy SMP on a rayon pool), quiescence over noisy
//! moves, null-move pruning where the game allows it, and late-move reductions. It honours
//! every limit the protocols pass (depth, nodes, time, mate, infinite, ponder, searchmoves,
//! MultiPV) and stops cleanly. With one thread it is deterministic.
//!
//! The parts, by concern:
//! - this file: what the protocols pass in and get back, and [`search`], which starts the threads;
//! - `worker`: one search thread's state, node counting and the stop checks, the evaluation it
//!   scores nodes by;
//! - `root`: iterative deepening, aspiration windows, MultiPV lines and when to stop;
//! - `alphabeta`: the principal variation search of a node, in numbered steps;
//! - `pruning`: the rules that skip or shorten work (reverse futility, null move, internal
//!   iterative reduction, late-move pruning, futility, late-move reductions) and their tunables;
//! - `quiesce`: the quiescence search;
//! - `ordering`: the order moves are tried in, and the killers and history that learn it;
//!   `picker` hands the moves out in that order; `tables` keeps them, one set per thread, from
//!   one search of a game to the next;
//! - `neutral`: nodes where a third party plays; `see`: static exchange evaluation;
//! - `time`: time management; `tt`: the transposition table.

mod alphabeta;
mod neutral;
mod ordering;
mod picker;
mod pruning;
mod quiesce;
mod root;
mod see;
mod tables;
mod time;
pub mod tt;
mod worker;

pub use tables::SearchTables;
pub use time::TimeBudget;
pub use tt::TranspositionTable;

use crate::board::Position;
use crate::core::{Color, Move};
use crate::eval::Eval;
use crate::third_party::{seeded_choice, Policy, ThirdParty};
use crate::variants::Variant;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use worker::Worker;

/// Score of a mate on the board (at ply 0); mates further away score less.
pub const MATE: i32 = 30_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
const INFINITY: i32 = 32_000;
/// Deepest ply the search reaches (iterations plus extensions plus quiescence).
pub const MAX_PLY: usize = 128;
/// Stack of each search thread: move lists live on it, several per ply.
pub const THREAD_STACK_BYTES: usize = 64 * 1024 * 1024;

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

/// One iteration as the first thread to finish it found it: its lines, best first, as (score,
/// line).
#[derive(Clone)]
struct Iteration {
    depth: u32,
    seldepth: u32,
    lines: Vec<(i32, Vec<Move>)>,
}

/// Entries of the table of nodes being searched (a power of two).
const BUSY_ENTRIES: usize = 4096;

/// Everything the search threads share.
struct Shared<'a> {
    variant: &'a dyn Variant,
    /// The game's evaluation (`SearchTables::eval_for`).
    eval: Arc<Eval>,
    tt: &'a TranspositionTable,
    control: &'a Control,
    limits: &'a Limits,
    budget: TimeBudget,
    /// Nodes of all threads, published in batches.
    nodes: AtomicU64,
    /// Threads besides the main one.
    helpers: usize,
    /// Every finished iteration, from depth 1 on without a gap, each from the thread that
    /// finished it first; `completed` is their number, the deepest finished depth.
    iterations: Mutex<Vec<Iteration>>,
    completed: AtomicU32,
    /// With helpers, the hashes of the positions some thread is searching (by the low bits of
    /// the hash, 0 for none), so that the others try other moves first; empty with one thread.
    busy: Vec<AtomicU64>,
}

impl<'a> Shared<'a> {
    /// What the threads of one search share, with `helpers` threads beside the main one.
    fn new(
        variant: &'a dyn Variant,
        eval: Arc<Eval>,
        tt: &'a TranspositionTable,
        control: &'a Control,
        limits: &'a Limits,
        helpers: usize,
    ) -> Shared<'a> {
        Shared {
            variant,
            eval,
            tt,
            control,
            limits,
            budget: TimeBudget::new(limits),
            nodes: AtomicU64::new(0),
            helpers,
            iterations: Mutex::new(Vec::new()),
            completed: AtomicU32::new(0),
            busy: if helpers > 0 {
                (0..BUSY_ENTRIES).map(|_| AtomicU64::new(0)).collect()
            } else {
                Vec::new()
            },
        }
    }

    /// The deepest iteration any thread has finished (0 before the first).
    fn completed(&self) -> u32 {
        self.completed.load(Ordering::Acquire)
    }

    /// Records an iteration a thread finished, unless another finished it first. Threads start
    /// no iteration deeper than one past the deepest finished, so the record has no gaps.
    fn complete(&self, iteration: Iteration) {
        let mut done = self.iterations.lock().expect("iterations lock");
        if done.len() + 1 == iteration.depth as usize {
            self.completed.store(iteration.depth, Ordering::Release);
            done.push(iteration);
        }
    }

    /// The busy-table slot of a position.
    fn busy_slot(&self, hash: u64) -> Option<&AtomicU64> {
        self.busy.get(hash as usize & (BUSY_ENTRIES - 1))
    }

    /// Whether another thread is searching the position with this hash.
    fn is_busy(&self, hash: u64) -> bool {
        self.busy_slot(hash)
            .is_some_and(|slot| slot.load(Ordering::Relaxed) == hash)
    }

    /// Marks the position with this hash as being searched.
    fn mark_busy(&self, hash: u64) {
        if let Some(slot) = self.busy_slot(hash) {
            slot.store(hash, Ordering::Relaxed);
        }
    }

    /// Clears the mark of the position with this hash, if it is still there.
    fn clear_busy(&self, hash: u64) {
        if let Some(slot) = self.busy_slot(hash) {
            let _ = slot.compare_exchange(hash, 0, Ordering::Relaxed, Ordering::Relaxed);
        }
    }
}

/// What one search is asked: the game and the position to search, the hashes of the game's
/// earlier positions (oldest first, for repetitions), the limits, the control that stops it,
/// the shared transposition table, and the pool that runs the helper threads (none: one
/// thread).
#[derive(Clone, Copy)]
pub struct SearchInput<'a> {
    pub variant: &'a dyn Variant,
    pub root: &'a Position,
    pub history: &'a [u64],
    pub limits: &'a Limits,
    pub control: &'a Control,
    pub tt: &'a TranspositionTable,
    pub pool: Option<&'a rayon::ThreadPool>,
}

impl<'a> SearchInput<'a> {
    /// A one-thread search of `root` with no earlier positions.
    pub fn new(
        variant: &'a dyn Variant,
        root: &'a Position,
        limits: &'a Limits,
        control: &'a Control,
        tt: &'a TranspositionTable,
    ) -> SearchInput<'a> {
        SearchInput {
            variant,
            root,
            history: &[],
            limits,
            control,
            tt,
            pool: None,
        }
    }

    /// The same search after the game's earlier positions `history` (hashes, oldest first).
    pub fn after(self, history: &'a [u64]) -> SearchInput<'a> {
        SearchInput { history, ..self }
    }

    /// The same search with helper threads from `pool`, if any.
    pub fn with_pool(self, pool: Option<&'a rayon::ThreadPool>) -> SearchInput<'a> {
        SearchInput { pool, ..self }
    }
}

/// Runs the search `input` asks for; `on_info` gets each finished line of the main thread. The
/// threads' move-ordering tables start empty: a search with no game behind it
/// (`search_in_game` keeps them across a game's searches).
pub fn search(input: SearchInput, on_info: &mut dyn FnMut(&Info)) -> SearchResult {
    search_in_game(input, &mut SearchTables::new(), on_info)
}

/// [`search`], with the threads' move-ordering tables taken from `tables` and left there for
/// the game's next search (thread `i` gets the `i`-th; the killers are cleared first).
pub fn search_in_game(
    input: SearchInput,
    tables: &mut SearchTables,
    on_info: &mut dyn FnMut(&Info),
) -> SearchResult {
    let SearchInput {
        variant,
        root,
        history,
        limits,
        control,
        tt,
        pool,
    } = input;
    // A third party whose ply is chosen by its seed (or sent from outside, when the engine is
    // asked anyway) plays the seeded choice without a search.
    if root.turn() == Color::Neutral && limits.third_party.policy != Policy::Engine {
        return SearchResult {
            best: seeded_choice(variant, root, limits.third_party.seed),
            ..SearchResult::default()
        };
    }
    tt.new_search();
    let helpers = pool.map_or(0, |p| p.current_num_threads());
    let eval = tables.eval_for(variant);
    let shared = Shared::new(variant, eval, tt, control, limits, helpers);
    let (main_tables, helper_tables) = tables
        .for_search(helpers + 1, ordering::stat_keys(variant))
        .split_first_mut()
        .expect("one table per thread, at least one thread");
    let Some(pool) = pool.filter(|_| helpers > 0) else {
        return Worker::new(&shared, 0, main_tables, history).run(root, on_info);
    };
    // Lazy SMP: helpers search the same tree and fill the shared table; every thread deepens
    // from the deepest iteration any thread has finished, and tries first the moves no other
    // thread is searching. The main thread, running here, reports every finished iteration as
    // soon as it sees it and decides when to stop.
    pool.in_place_scope(|scope| {
        for (i, t) in helper_tables.iter_mut().enumerate() {
            let shared = &shared;
            scope.spawn(move |_| {
                Worker::new(shared, i + 1, t, history).run(root, &mut |_| {});
            });
        }
        let result = Worker::new(&shared, 0, main_tables, history).run(root, on_info);
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
    let control = Control::new(false);
    search(
        SearchInput::new(variant, pos, &limits, &control, &tt),
        &mut |_| {},
    )
    .best
}

/// A score as the table stores it: mates counted from this node instead of from the root.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A score from the table at `ply`: mates counted from the root again.
fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests;
