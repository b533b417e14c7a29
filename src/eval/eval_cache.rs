//! The evaluation cache: one search thread's store of static evaluations, keyed by the
//! position's hash. A search meets the same position many times (transpositions, re-searches
//! with a wider window, a null move's verification, the table's entry overwritten), and the
//! evaluation is its most expensive part; the value kept is the one the evaluation gave, so the
//! cache changes the search's speed and nothing else.

use crate::board::Position;

/// Entries of a cache, a power of two (16 bytes each).
const ENTRIES: usize = 1 << 15;

/// One search thread's evaluation cache, direct-mapped: a new entry replaces the one in its slot.
pub struct EvalCache {
    /// The full hash of the position kept in each slot (0: none), and its evaluation.
    entries: Vec<(u64, i32)>,
}

impl Default for EvalCache {
    fn default() -> Self {
        EvalCache::new()
    }
}

impl EvalCache {
    /// An empty cache.
    pub fn new() -> EvalCache {
        EvalCache {
            entries: vec![(0, 0); ENTRIES],
        }
    }

    /// The evaluation of `pos`, worked out by `compute` unless the cache has it. The
    /// evaluation must be a function of what the hash covers (as the transposition table's
    /// stored evaluation already assumes). A position whose hash is 0 is never kept.
    #[inline]
    pub fn get(&mut self, pos: &Position, compute: impl FnOnce() -> i32) -> i32 {
        let key = pos.hash();
        let slot = &mut self.entries[key as usize & (ENTRIES - 1)];
        if slot.0 == key && key != 0 {
            return slot.1;
        }
        let value = compute();
        *slot = (key, value);
        value
    }
}
