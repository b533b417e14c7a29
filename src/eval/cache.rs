//! Direct-mapped caches of one search thread, by a 64-bit key: the evaluation cache
//! (`EvalCache`, whole evaluations by the position's hash) and the pawn cache
//! (`PawnCache`, in `pawn_cache`). A search meets the same position many times (transpositions,
//! re-searches with a wider window, a null move's verification, a table entry overwritten), and
//! the evaluation is its most expensive part; the value kept is the one the evaluation gave, so
//! a cache changes the search's speed and nothing else.

/// A cache of `2^BITS` entries, direct-mapped: a new entry replaces the one in its slot. Key 0
/// marks an empty slot and is never kept.
pub(crate) struct DirectCache<V, const BITS: u32> {
    entries: Vec<(u64, V)>,
}

/// Static evaluations by the position's hash (16 bytes an entry with its key, 512 KB). The
/// evaluation must be a function of what the hash covers (as the transposition table's stored
/// evaluation, which outlives a search, assumes too) and of the search's limits: the point of
/// view on a third party's turn is the one the limits favour (`Worker::pov`), so a cache serves
/// one search only (each search makes its threads' workers, and their caches, afresh).
pub(crate) type EvalCache = DirectCache<i32, 15>;

impl<V: Copy + Default, const BITS: u32> Default for DirectCache<V, BITS> {
    fn default() -> Self {
        DirectCache::new()
    }
}

impl<V: Copy + Default, const BITS: u32> DirectCache<V, BITS> {
    /// An empty cache.
    pub(crate) fn new() -> Self {
        DirectCache {
            entries: vec![(0, V::default()); 1 << BITS],
        }
    }

    /// The value keyed `key`, worked out by `compute` unless the cache has it.
    #[inline]
    pub(crate) fn get(&mut self, key: u64, compute: impl FnOnce() -> V) -> V {
        let slot = &mut self.entries[key as usize & ((1 << BITS) - 1)];
        if slot.0 == key && key != 0 {
            return slot.1;
        }
        let value = compute();
        *slot = (key, value);
        value
    }
}
