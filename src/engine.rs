//! The protocol-free engine: the current game, the settings, and a search running on its own
//! thread. UCI, CECP and the browser board are adapters that turn their input into calls on this
//! facade, and run their searches through the one lifecycle of [`lifecycle::Searches`].

pub mod lifecycle;

use crate::board::{FenError, Position};
use crate::core::Move;
use crate::game::Game;
use crate::notation::{Dialect, MoveError};
use crate::search::{
    self, Control, Info, Limits, SearchInput, SearchResult, SearchTables, TranspositionTable,
};
use crate::third_party::{self, Policy, ThirdParty};
use crate::variants::{self, UnknownVariant, Variant};
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

/// The third party's ply in `pos` (whose game history is `history`) by `tp`: the seeded choice,
/// or for the engine policy the best ply for the player it helps, from a short one-thread search
/// with a fresh table, so that every program running it (the referee, the engines) chooses the
/// same ply. `None` without a ply.
pub fn choose_third_party_ply(
    variant: &dyn Variant,
    pos: &Position,
    history: &[u64],
    tp: &ThirdParty,
) -> Option<Move> {
    if tp.policy != Policy::Engine {
        return third_party::seeded_choice(variant, pos, tp.seed);
    }
    let limits = Limits {
        nodes: Some(third_party::ENGINE_POLICY_NODES),
        third_party: *tp,
        ..Limits::default()
    };
    let control = Control::new(false);
    let tt = TranspositionTable::new(third_party::ENGINE_POLICY_HASH_MB);
    search::search(
        SearchInput::new(variant, pos, &limits, &control, &tt).after(history),
        &mut |_| {},
    )
    .best
}

/// Settings the protocols expose.
#[derive(Clone, Debug)]
pub struct Options {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Lines to report.
    pub multipv: usize,
    /// Think on the opponent's time.
    pub ponder: bool,
    /// Kept back from every time budget.
    pub move_overhead: Duration,
    /// Who plays a third party's plies (Chaos's Nature).
    pub third_party: ThirdParty,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            ponder: false,
            move_overhead: Duration::from_millis(30),
            third_party: ThirdParty::default(),
        }
    }
}

/// Why a position was refused; the previous one is kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The FEN is bad.
    Fen(FenError),
    /// A move of the list is bad.
    Move { index: usize, error: MoveError },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Fen(e) => write!(f, "{e}"),
            PositionError::Move { index, error } => {
                write!(f, "move {} of the list: {error}", index + 1)
            }
        }
    }
}

/// Memory left to the rest of the process and the system beside the transposition table.
const MEMORY_RESERVE: usize = 64 << 20;

/// A transposition table size the machine cannot give.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HashError {
    /// The size asked for, in MiB.
    pub wanted_mb: usize,
    /// Memory free for it, in MiB, where the system says.
    pub free_mb: Option<usize>,
    /// The size the table keeps, in MiB.
    pub kept_mb: usize,
}

impl fmt::Display for HashError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} MB cannot be allocated", self.wanted_mb)?;
        if let Some(free) = self.free_mb {
            write!(f, " (about {free} MB are free)")?;
        }
        write!(f, "; the table keeps {} MB", self.kept_mb)
    }
}

/// Bytes the system can still give without swapping (Linux's `MemAvailable`); None where the
/// system does not say, and then only the allocator decides.
fn available_memory() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

struct Running {
    control: Arc<Control>,
    handle: JoinHandle<()>,
}

/// The engine.
pub struct Engine {
    game: Game,
    /// Settings.
    pub options: Options,
    running: Option<Running>,
    tt: Arc<TranspositionTable>,
    /// What the search threads learnt about move order in this game (killers, histories), kept
    /// from one search to the next and cleared at a new game; the running search holds the lock.
    tables: Arc<Mutex<SearchTables>>,
    /// Helper threads for Lazy SMP: `threads - 1` of them.
    pool: Option<Arc<rayon::ThreadPool>>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// An engine set to FIDE chess at its start position.
    pub fn new() -> Engine {
        let chess = variants::by_name("chess").expect("chess is registered");
        let options = Options::default();
        let tt = Arc::new(TranspositionTable::new(options.hash_mb));
        Engine {
            game: Game::from_start(chess),
            options,
            running: None,
            tt,
            tables: Arc::new(Mutex::new(SearchTables::new())),
            pool: None,
        }
    }

    /// The current variant.
    pub fn variant(&self) -> &'static dyn Variant {
        self.game.variant()
    }

    /// The current game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The current game, to play or take back moves.
    pub fn game_mut(&mut self) -> &mut Game {
        &mut self.game
    }

    /// Switches variant and resets to its start position: a new game.
    pub fn set_variant(&mut self, name: &str) -> Result<(), UnknownVariant> {
        let v = variants::by_name(name)?;
        self.stop_and_wait();
        self.game = Game::from_start(v);
        self.forget_game();
        Ok(())
    }

    /// Starts a new game of the current variant, with an empty transposition table and empty
    /// move-ordering tables.
    pub fn new_game(&mut self) {
        self.stop_and_wait();
        self.game = Game::from_start(self.variant());
        self.forget_game();
    }

    /// Forgets what the searches of the game before learnt: the transposition table and the
    /// move-ordering tables.
    fn forget_game(&mut self) {
        self.clear_hash();
        self.search_tables().clear();
    }

    /// The search threads' move-ordering tables, once no search holds them. A search that
    /// panicked left them as they were, which is still a valid state.
    fn search_tables(&mut self) -> MutexGuard<'_, SearchTables> {
        self.stop_and_wait();
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether the search threads' move-ordering tables are empty (nothing learnt since a new
    /// game).
    pub fn search_tables_clear(&mut self) -> bool {
        self.search_tables().is_clear()
    }

    /// Empties the transposition table.
    pub fn clear_hash(&mut self) {
        self.stop_and_wait();
        // No search runs, so nothing else holds the table.
        if let Some(tt) = Arc::get_mut(&mut self.tt) {
            tt.clear();
        }
    }

    /// Bytes of the transposition table.
    pub fn hash_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// Gives the transposition table `mb` MiB now (stopping a running search), or refuses a
    /// size the machine cannot give and keeps the table as it was.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), HashError> {
        self.stop_and_wait();
        let result = self.resize_table(mb);
        self.options.hash_mb = self.tt.bytes() >> 20;
        result
    }

    /// Searches with `n` threads from now on. The helper threads start here rather than at the
    /// next search, so that search's first iterations do not wait for them. A running search
    /// keeps the pool it started with.
    pub fn set_threads(&mut self, n: usize) {
        self.options.threads = n.max(1);
        self.apply_pool();
    }

    fn resize_table(&mut self, mb: usize) -> Result<(), HashError> {
        let wanted = mb.saturating_mul(1 << 20);
        let kept = self.tt.bytes();
        if wanted == kept {
            return Ok(());
        }
        let refuse = |free: Option<usize>| HashError {
            wanted_mb: mb,
            free_mb: free.map(|b| b >> 20),
            kept_mb: kept >> 20,
        };
        // The old table is freed before the new one is made, so its memory counts as free.
        let free = available_memory().map(|b| b.saturating_add(kept));
        if free.is_some_and(|f| wanted.saturating_add(MEMORY_RESERVE) > f) {
            return Err(refuse(free));
        }
        self.tt = Arc::new(TranspositionTable::new(0));
        match TranspositionTable::try_new(mb) {
            Ok(tt) => {
                self.tt = Arc::new(tt);
                Ok(())
            }
            Err(_) => {
                // The old size was had a moment ago; failing that, the smallest table.
                self.tt = Arc::new(
                    TranspositionTable::try_new(kept >> 20)
                        .unwrap_or_else(|_| TranspositionTable::new(0)),
                );
                Err(refuse(free))
            }
        }
    }

    /// Brings the table and the thread pool in line with the options.
    fn apply_options(&mut self) {
        if self.tt.bytes() != self.options.hash_mb << 20 {
            // A size set straight in the options; one the machine cannot give is dropped.
            let _ = self.resize_table(self.options.hash_mb);
            self.options.hash_mb = self.tt.bytes() >> 20;
        }
        self.apply_pool();
    }

    /// Brings the thread pool in line with the option: `threads - 1` helpers, none for one.
    fn apply_pool(&mut self) {
        let helpers = self.options.threads.saturating_sub(1);
        if self.pool.as_ref().map_or(0, |p| p.current_num_threads()) != helpers {
            self.pool = (helpers > 0).then(|| {
                Arc::new(
                    rayon::ThreadPoolBuilder::new()
                        .num_threads(helpers)
                        .stack_size(search::THREAD_STACK_BYTES)
                        .thread_name(|i| format!("search-{}", i + 1))
                        .build()
                        .expect("the search thread pool starts"),
                )
            });
        }
    }

    /// Sets a position: a FEN (or the start position) and moves from it. On error nothing changes.
    pub fn set_position(
        &mut self,
        fen: Option<&str>,
        moves: &[&str],
        dialect: Dialect,
    ) -> Result<(), PositionError> {
        let v = self.variant();
        let start = match fen {
            Some(f) => v.parse_fen(f).map_err(PositionError::Fen)?,
            None => v.start_position(),
        };
        let mut game = Game::new(v, start);
        for (index, text) in moves.iter().enumerate() {
            game.play_text(dialect, text)
                .map_err(|error| PositionError::Move { index, error })?;
        }
        self.stop_and_wait();
        self.game = game;
        Ok(())
    }

    /// Whether a search is running.
    pub fn searching(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| !r.handle.is_finished())
    }

    /// Starts searching the current position on a thread of its own. `on_info` gets each finished
    /// line and `on_done` the result; both run on the search thread.
    pub fn start_search(
        &mut self,
        mut limits: Limits,
        pondering: bool,
        mut on_info: impl FnMut(&Info) + Send + 'static,
        on_done: impl FnOnce(SearchResult) + Send + 'static,
    ) {
        self.stop_and_wait();
        self.apply_options();
        limits.multipv = limits.multipv.max(self.options.multipv);
        limits.move_overhead = self.options.move_overhead;
        limits.third_party = self.options.third_party;
        let control = Arc::new(Control::new(pondering));
        let variant = self.variant();
        let root = self.game.position().clone();
        let history = self.game.history();
        let thread_control = Arc::clone(&control);
        let tt = Arc::clone(&self.tt);
        let tables = Arc::clone(&self.tables);
        let pool = self.pool.clone();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(search::THREAD_STACK_BYTES)
            .spawn(move || {
                let mut tables = tables.lock().unwrap_or_else(|e| e.into_inner());
                let input = SearchInput::new(variant, &root, &limits, &thread_control, &tt)
                    .after(&history)
                    .with_pool(pool.as_deref());
                let result = search::search_in_game(input, &mut tables, &mut on_info);
                drop(tables);
                on_done(result);
            })
            .expect("the search thread starts");
        self.running = Some(Running { control, handle });
    }

    /// Sets one of the options of a third party's player by its protocol name: `Nature`
    /// (`random`, `engine` or `external`), `Nature Favors` (`white` or `black`), `Nature Seed`.
    /// `None` when `name` is none of them; `Some(Err)` with the reason for a bad value. A change
    /// empties the transposition table: its scores and evaluations at the third party's turns
    /// were the old player's.
    pub fn set_third_party_option(
        &mut self,
        name: &str,
        value: &str,
    ) -> Option<Result<(), String>> {
        let before = self.options.third_party;
        let result = self.parse_third_party_option(name, value)?;
        if self.options.third_party != before {
            self.clear_hash();
        }
        Some(result)
    }

    /// `set_third_party_option`'s parse and set, without the table.
    fn parse_third_party_option(&mut self, name: &str, value: &str) -> Option<Result<(), String>> {
        let tp = &mut self.options.third_party;
        let value = value.trim();
        Some(match name.trim().to_ascii_lowercase().as_str() {
            "nature" => Policy::parse(value)
                .map(|p| tp.policy = p)
                .ok_or_else(|| format!("'{value}' is not one of {}", Policy::NAMES.join(", "))),
            "nature favors" => third_party::parse_player(value)
                .map(|c| tp.favors = c)
                .ok_or_else(|| format!("'{value}' is not white or black")),
            "nature seed" => value
                .parse::<u64>()
                .ok()
                .filter(|&n| n <= third_party::MAX_SEED)
                .map(|n| tp.seed = n)
                .ok_or_else(|| {
                    format!(
                        "'{value}' is not a number from 0 to {}",
                        third_party::MAX_SEED
                    )
                }),
            _ => return None,
        })
    }

    /// The third party's ply in the current position by the set policy: the seeded choice, or
    /// for the engine policy a short search for the player it helps. `None` when it is not the
    /// third party's turn or it has no ply.
    pub fn third_party_ply(&mut self) -> Option<Move> {
        self.stop_and_wait();
        let pos = self.game.position();
        if pos.turn() != crate::core::Color::Neutral {
            return None;
        }
        let tp = self.options.third_party;
        choose_third_party_ply(self.variant(), pos, &self.game.history(), &tp)
    }

    /// Counts the leaves of the current position's move tree to `depth` (at least 1) on the
    /// search thread, which `stop` stops like a search. `on_done` gets the counts by root move,
    /// or None if stopped; it runs on that thread.
    pub fn start_perft(
        &mut self,
        depth: u32,
        on_done: impl FnOnce(Option<Vec<(Move, u64)>>) + Send + 'static,
    ) {
        self.stop_and_wait();
        let control = Arc::new(Control::new(false));
        let thread_control = Arc::clone(&control);
        let variant = self.variant();
        let root = self.game.position().clone();
        let threads = self.options.threads;
        let handle = std::thread::Builder::new()
            .name("perft".into())
            .stack_size(search::THREAD_STACK_BYTES)
            .spawn(move || {
                let stop = thread_control.stop_flag();
                on_done(crate::perft::divide(
                    variant,
                    &root,
                    depth.max(1),
                    threads,
                    &|_| {},
                    stop,
                ));
            })
            .expect("the perft thread starts");
        self.running = Some(Running { control, handle });
    }

    /// Asks a running search to stop; its `on_done` still runs.
    pub fn stop(&self) {
        if let Some(r) = &self.running {
            r.control.stop();
        }
    }

    /// Stops a running search and waits for its thread.
    pub fn stop_and_wait(&mut self) {
        if let Some(r) = self.running.take() {
            r.control.stop();
            let _ = r.handle.join();
        }
    }

    /// The opponent played the move being pondered on.
    pub fn ponderhit(&self) {
        if let Some(r) = &self.running {
            r.control.ponderhit();
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop_and_wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    /// Searches the engine's position to `depth` and waits for the result.
    fn search_to(engine: &mut Engine, depth: u32) -> SearchResult {
        let (tx, rx) = mpsc::channel();
        engine.start_search(
            Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            false,
            |_| {},
            move |r| tx.send(r).unwrap(),
        );
        let r = rx.recv().unwrap();
        engine.stop_and_wait();
        r
    }

    /// The move-ordering tables live through the searches and moves of a game, and every kind
    /// of new game (a new game, a variant set, the same variant set again) clears them.
    #[test]
    fn move_ordering_tables_last_a_game() {
        let mut engine = Engine::new();
        assert!(engine.search_tables_clear());
        let first = search_to(&mut engine, 5).best.unwrap();
        assert!(!engine.search_tables_clear(), "the search learnt nothing");
        let m = crate::notation::move_text(engine.variant(), Dialect::Uci, first);
        engine.set_position(None, &[&m], Dialect::Uci).unwrap();
        assert!(
            !engine.search_tables_clear(),
            "a move of the game cleared them"
        );
        search_to(&mut engine, 5);
        engine.new_game();
        assert!(engine.search_tables_clear(), "a new game kept them");

        search_to(&mut engine, 5);
        engine.set_variant("chess").unwrap();
        assert!(engine.search_tables_clear(), "a variant set kept them");

        engine.set_threads(2);
        search_to(&mut engine, 5);
        engine.set_variant("magician").unwrap();
        assert!(engine.search_tables_clear(), "a helper's tables were kept");
        search_to(&mut engine, 3);
        assert!(!engine.search_tables_clear());
    }

    /// A third party's options that change empty the transposition table (its scores at the
    /// third party's turns were the old player's); setting one to the value it has keeps it.
    #[test]
    fn a_third_party_player_changed_empties_the_table() {
        let mut engine = Engine::new();
        engine.set_variant("chaos").unwrap();
        let root = engine.game.position().hash();
        let cases = [
            ("Nature Favors", "white", "black"),
            ("Nature", "random", "engine"),
            ("Nature Seed", "0", "7"),
        ];
        for (name, now, other) in cases {
            assert_eq!(engine.set_third_party_option(name, now), Some(Ok(())));
            search_to(&mut engine, 3);
            assert!(
                engine.tt.probe(root).is_some(),
                "the search stored the root"
            );
            assert_eq!(engine.set_third_party_option(name, now), Some(Ok(())));
            assert!(engine.tt.probe(root).is_some(), "{name} set again to {now}");
            assert_eq!(engine.set_third_party_option(name, other), Some(Ok(())));
            assert!(engine.tt.probe(root).is_none(), "{name} changed to {other}");
            assert_eq!(engine.set_third_party_option(name, now), Some(Ok(())));
        }
    }
}
