//! What the search threads learn about the order of moves, kept from one search of a game to
//! the next: each thread's killers, history, counter-moves, continuation and capture history
//! (`ordering` fills and reads them); and the game's evaluation, built once for its searches.

use super::ordering::{CAPTURE_VICTIMS, HISTORY_SIZE};
use super::MAX_PLY;
use crate::core::{Color, Move};
use crate::eval::Eval;
use crate::rules::Rules;
use crate::variants::Variant;
use std::sync::Arc;

/// One search thread's move-ordering tables.
pub(super) struct ThreadTables {
    /// Two quiet moves that refuted a node, per ply from the root. Cleared at every search: they
    /// are indexed by the ply from that search's root, and the next root is one or more plies
    /// further into the game by a number the search is not told (a `position` command may
    /// jump anywhere), so a shift could not line them up; a search refills them in its first
    /// iterations, as Stockfish's do.
    pub(super) killers: Box<[[Move; 2]; MAX_PLY]>,
    /// Quiet moves' history by side to move, origin and target (`ordering`). Kept across the
    /// searches of a game: what refuted positions of one move mostly still refutes positions of
    /// the next.
    pub(super) history: Vec<i32>,
    /// The quiet move that last refuted each move, by side to move and the refuted move's key
    /// (`ordering::stat_key`: the kind it moved and its target). Kept across the game.
    pub(super) counter: Vec<Move>,
    /// Continuation history: how often a quiet move (by its key) refuted after a move one or two
    /// plies before it (by that move's key), `keys` x `keys` entries. Kept across the game.
    pub(super) continuation: Vec<i16>,
    /// Capture history: how often a capture (by the mover's key and the kind it takes) refuted,
    /// `keys` x `CAPTURE_VICTIMS` entries. Kept across the game.
    pub(super) captures: Vec<i16>,
    /// Move keys of the game the counter-move and continuation tables are sized for.
    keys: usize,
}

impl ThreadTables {
    fn new() -> ThreadTables {
        ThreadTables {
            killers: Box::new([[Move::NULL; 2]; MAX_PLY]),
            history: vec![0; HISTORY_SIZE],
            counter: Vec::new(),
            continuation: Vec::new(),
            captures: Vec::new(),
            keys: 0,
        }
    }

    /// Sizes the tables keyed by moves for a game with `keys` move keys (emptying them if their
    /// size changes).
    fn size_for(&mut self, keys: usize) {
        if self.keys != keys {
            self.keys = keys;
            self.counter = vec![Move::NULL; Color::ALL.len() * keys];
            self.continuation = vec![0; keys * keys];
            self.captures = vec![0; keys * CAPTURE_VICTIMS];
        }
    }

    /// Forgets what the search before learnt at each ply (the killers).
    pub(super) fn new_search(&mut self) {
        self.killers.fill([Move::NULL; 2]);
    }

    fn clear(&mut self) {
        self.new_search();
        self.history.fill(0);
        self.counter.fill(Move::NULL);
        self.continuation.fill(0);
        self.captures.fill(0);
    }

    fn is_clear(&self) -> bool {
        self.killers.iter().all(|k| k == &[Move::NULL; 2])
            && self.history.iter().all(|&h| h == 0)
            && self.counter.iter().all(|&m| m == Move::NULL)
            && self.continuation.iter().all(|&h| h == 0)
            && self.captures.iter().all(|&h| h == 0)
    }
}

/// The move-ordering tables of every search thread of one game, one per thread id (Lazy SMP
/// threads learn different things), grown when a search has more threads. Cleared at a new
/// game; a search with no game behind it takes empty ones.
#[derive(Default)]
pub struct SearchTables {
    threads: Vec<ThreadTables>,
    /// The evaluation of the game searched last, built once for all its searches: building one
    /// (the parameter file, the square tables) takes longer than a short search (chess about
    /// 2 M instructions, Existentialist 7 M, against some 11 k a node).
    eval: Option<(GameId, Arc<Eval>)>,
}

/// The game a kept evaluation was built for: its name and the address of its rules (a
/// registered game's live as long as the process, so two games never share one).
#[derive(Clone, Copy, PartialEq, Eq)]
struct GameId {
    name: &'static str,
    rules: usize,
}

impl SearchTables {
    /// Empty tables.
    pub fn new() -> SearchTables {
        SearchTables::default()
    }

    /// Forgets everything learnt: a new game.
    pub fn clear(&mut self) {
        for t in &mut self.threads {
            t.clear();
        }
    }

    /// The evaluation of `variant`: the one kept, if built for it, else a new one, kept.
    pub(super) fn eval_for(&mut self, variant: &dyn Variant) -> Arc<Eval> {
        let id = GameId {
            name: variant.name(),
            rules: std::ptr::from_ref::<Rules>(variant.rules()) as usize,
        };
        match &self.eval {
            Some((kept, eval)) if *kept == id => Arc::clone(eval),
            _ => {
                let eval = Arc::new(Eval::new(variant));
                self.eval = Some((id, Arc::clone(&eval)));
                eval
            }
        }
    }

    /// Whether nothing has been learnt since the tables were made or cleared.
    pub fn is_clear(&self) -> bool {
        self.threads.iter().all(ThreadTables::is_clear)
    }

    /// Threads that have tables.
    #[cfg(test)]
    pub(super) fn threads(&self) -> usize {
        self.threads.len()
    }

    /// The tables of thread `id`.
    #[cfg(test)]
    pub(super) fn thread(&self, id: usize) -> &ThreadTables {
        &self.threads[id]
    }

    /// The tables of threads 0 to `threads - 1`, ready for a new search (killers cleared) of a
    /// game with `keys` move keys (`ordering::stat_keys`).
    pub(super) fn for_search(&mut self, threads: usize, keys: usize) -> &mut [ThreadTables] {
        if self.threads.len() < threads {
            self.threads.resize_with(threads, ThreadTables::new);
        }
        let used = &mut self.threads[..threads];
        for t in used.iter_mut() {
            t.size_for(keys);
            t.new_search();
        }
        used
    }
}
