//! The transposition table, shared by all search threads without locks. Entries come in clusters
//! of `CLUSTER` that fill one cache line: a position may sit in any entry of its cluster, and a
//! new one replaces the entry least worth keeping (shallow, or left by an earlier search). Each
//! entry is two atomic words: the data (move, score, depth, bound, generation), and 48 bits of
//! the key with the static evaluation, stored XORed with a mix of the data (`mix`), so a torn
//! write from two threads at once reads back as a miss instead of as wrong data. The table takes
//! exactly the bytes asked for.

use crate::core::Move;
use std::collections::TryReserveError;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// Bytes of one entry.
pub const ENTRY_BYTES: usize = 16;
/// Entries per cluster.
const CLUSTER: usize = 4;
/// The stored static evaluation of an entry that has none.
pub const NO_EVAL: i32 = i16::MIN as i32;
/// Replacement: an entry of an earlier search counts as this many plies shallower per search.
const AGE_WEIGHT: i32 = 8;
/// Entries sampled for `hashfull`.
const HASHFULL_SAMPLE: usize = 1000;

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact score.
    Exact = 1,
    /// At least this score (the search failed high).
    Lower = 2,
    /// At most this score (the search failed low).
    Upper = 3,
}

/// One probe result.
#[derive(Clone, Copy, Debug)]
pub struct TtEntry {
    /// Best or refuting move, or `Move::NULL`.
    pub mv: Move,
    /// Score, relative to the stored node (mates are adjusted by the caller).
    pub score: i32,
    /// Depth searched.
    pub depth: i32,
    /// Bound type.
    pub bound: Bound,
}

#[derive(Default)]
struct Slot {
    key: AtomicU64,
    data: AtomicU64,
}

/// The entries a position may sit in, one cache line.
#[derive(Default)]
#[repr(align(64))]
struct Cluster {
    slots: [Slot; CLUSTER],
}

/// The table.
pub struct TranspositionTable {
    clusters: Vec<Cluster>,
    generation: AtomicU8,
}

/// The key word of an entry before its XOR with the data: the key's low 48 bits (the cluster is
/// chosen by its high bits) and the static evaluation.
fn key_word(key: u64, eval: i32) -> u64 {
    key << 16 | (eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16) as u64
}

/// The data word as the key word is XORed with: multiplied by an odd constant, so that every bit
/// of the data reaches the key's 48 checked bits. A plain XOR would leave the data's low 16 bits
/// (part of the move) to the evaluation's bits, which are not checked: a torn write of two entries
/// that differ there alone would read back as a hit, with the other entry's move and a garbled
/// evaluation.
#[inline]
fn mix(data: u64) -> u64 {
    data.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Whether a key word (after the XOR) is that of `key`.
fn key_matches(word: u64, key: u64) -> bool {
    word >> 16 == key << 16 >> 16
}

/// The static evaluation in a key word.
fn word_eval(word: u64) -> i32 {
    word as u16 as i16 as i32
}

fn pack(e: &TtEntry, generation: u8) -> u64 {
    let bound = e.bound as u64;
    e.mv.to_bits() as u64
        | ((e.score as i16 as u16) as u64) << 32
        | ((e.depth.clamp(-1, 254) + 1) as u64) << 48
        | bound << 56
        | ((generation & 63) as u64) << 58
}

fn unpack(d: u64) -> (TtEntry, u8) {
    let bound = match d >> 56 & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        _ => Bound::Upper,
    };
    let mv = Move::from_bits(d as u32);
    let score = (d >> 32) as u16 as i16 as i32;
    let depth = (d >> 48 & 0xFF) as i32 - 1;
    (
        TtEntry {
            mv,
            score,
            depth,
            bound,
        },
        (d >> 58) as u8,
    )
}

impl TranspositionTable {
    /// A table of exactly `mb` MiB (at least one entry), for sizes the engine chose itself; a
    /// size from the user goes through `try_new`.
    pub fn new(mb: usize) -> TranspositionTable {
        TranspositionTable::try_new(mb).expect("a table of a size the engine chose is allocated")
    }

    /// A table of exactly `mb` MiB (at least one entry), or an error if the allocator cannot
    /// give that much.
    pub fn try_new(mb: usize) -> Result<TranspositionTable, TryReserveError> {
        let count = (mb.saturating_mul(1 << 20) / (ENTRY_BYTES * CLUSTER)).max(1);
        let mut clusters = Vec::new();
        clusters.try_reserve_exact(count)?;
        clusters.resize_with(count, Cluster::default);
        Ok(TranspositionTable {
            clusters,
            generation: AtomicU8::new(0),
        })
    }

    /// Bytes of the entries.
    pub fn bytes(&self) -> usize {
        self.clusters.len() * std::mem::size_of::<Cluster>()
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        for c in &mut self.clusters {
            *c = Cluster::default();
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks a new search: older entries are replaced first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn cluster(&self, key: u64) -> &Cluster {
        &self.clusters[((key as u128 * self.clusters.len() as u128) >> 64) as usize]
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        self.probe_eval(key).map(|(e, _)| e)
    }

    /// The entry stored for `key` with its static evaluation (`NO_EVAL` if none was stored).
    #[inline]
    pub fn probe_eval(&self, key: u64) -> Option<(TtEntry, i32)> {
        self.cluster(key).slots.iter().find_map(|slot| {
            let data = slot.data.load(Ordering::Relaxed);
            let word = slot.key.load(Ordering::Relaxed) ^ mix(data);
            (data != 0 && key_matches(word, key)).then(|| (unpack(data).0, word_eval(word)))
        })
    }

    /// Stores an entry without a static evaluation.
    #[inline]
    pub fn store(&self, key: u64, entry: TtEntry) {
        self.store_eval(key, entry, NO_EVAL);
    }

    /// Stores an entry with the position's static evaluation (or `NO_EVAL`). An entry for the
    /// same position is replaced unless it is a deeper result of this search and the new one is
    /// not exact; otherwise the entry of the cluster least worth keeping goes: an empty one, else
    /// the shallowest, an earlier search's counting `AGE_WEIGHT` plies shallower per search.
    #[inline]
    pub fn store_eval(&self, key: u64, entry: TtEntry, eval: i32) {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let cluster = self.cluster(key);
        let mut victim = &cluster.slots[0];
        let mut victim_worth = i32::MAX;
        let mut entry = entry;
        let mut eval = eval;
        for slot in &cluster.slots {
            let old = slot.data.load(Ordering::Relaxed);
            if old == 0 {
                if victim_worth > i32::MIN {
                    victim = slot;
                    victim_worth = i32::MIN;
                }
                continue;
            }
            let word = slot.key.load(Ordering::Relaxed) ^ mix(old);
            let (prev, age) = unpack(old);
            if key_matches(word, key) {
                // Keep a deeper result of this search, but never lose an exact score to a bound.
                if age == generation && prev.depth > entry.depth + 2 && entry.bound != Bound::Exact
                {
                    return;
                }
                if entry.mv == Move::NULL {
                    entry.mv = prev.mv;
                }
                if eval == NO_EVAL {
                    eval = word_eval(word);
                }
                victim = slot;
                break;
            }
            let searches_ago = i32::from(generation.wrapping_sub(age) & 63);
            let worth = prev.depth - AGE_WEIGHT * searches_ago;
            if worth < victim_worth {
                victim = slot;
                victim_worth = worth;
            }
        }
        let data = pack(&entry, generation);
        victim.data.store(data, Ordering::Relaxed);
        victim
            .key
            .store(key_word(key, eval) ^ mix(data), Ordering::Relaxed);
    }

    /// Per mille of sampled entries written by the current search: the first
    /// `HASHFULL_SAMPLE` entries, which stand for the whole table since keys spread evenly over
    /// it (Stockfish samples its first 1000 clusters the same way).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let n = (self.clusters.len() * CLUSTER).min(HASHFULL_SAMPLE);
        let used = self
            .clusters
            .iter()
            .flat_map(|c| c.slots.iter())
            .take(n)
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && unpack(d).1 == generation
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Square;

    #[test]
    fn size_is_exactly_what_was_asked() {
        for mb in [1, 2, 16] {
            assert_eq!(TranspositionTable::new(mb).bytes(), mb << 20);
        }
        assert_eq!(std::mem::size_of::<Slot>(), ENTRY_BYTES);
        assert_eq!(std::mem::size_of::<Cluster>(), ENTRY_BYTES * CLUSTER);
    }

    #[test]
    fn stores_and_probes() {
        let tt = TranspositionTable::new(1);
        let mv = Move::normal(Square::from_index(12), Square::from_index(28));
        for (score, bound) in [
            (-29_990, Bound::Upper),
            (0, Bound::Exact),
            (31_000, Bound::Lower),
        ] {
            tt.store(
                42,
                TtEntry {
                    mv,
                    score,
                    depth: 7,
                    bound,
                },
            );
            let e = tt.probe(42).unwrap();
            assert_eq!((e.mv, e.score, e.depth, e.bound), (mv, score, 7, bound));
        }
        assert!(tt.probe(43).is_none());
        tt.store(
            42,
            TtEntry {
                mv: Move::NULL,
                score: 5,
                depth: 0,
                bound: Bound::Exact,
            },
        );
        assert_eq!(
            tt.probe(42).unwrap().mv,
            mv,
            "a store without a move keeps the old move"
        );
    }

    /// With `n` keys spread evenly over `c` clusters of four entries, the number K of keys in
    /// a cluster is Poisson with mean n/c, and the cluster holds min(K, 4) entries: `hashfull`
    /// reports E[min(K, 4)] / 4, per mille, and 0 for the next search until it writes.
    #[test]
    fn hashfull_is_the_sampled_fill() {
        let tt = TranspositionTable::new(1);
        let c = tt.clusters.len() as f64;
        let fill = |n: f64| {
            let lambda = n / c;
            // P(K = k) for k = 0..3, from P(0) = e^-lambda and P(k) = P(k-1) lambda / k.
            let mut p = (-lambda).exp();
            let (mut below, mut mean_below) = (0.0, 0.0);
            for k in 0..4 {
                below += p;
                mean_below += k as f64 * p;
                p *= lambda / (k + 1) as f64;
            }
            (mean_below + 4.0 * (1.0 - below)) / 4.0
        };
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        let mut key: u64 = 0x9E37_79B9_7F4A_7C15;
        let entry = TtEntry {
            mv: Move::NULL,
            score: 0,
            depth: 1,
            bound: Bound::Exact,
        };
        for n in 1..=(tt.clusters.len() * CLUSTER * 2) as u64 {
            // SplitMix64 steps: keys spread as the positions' hashes do.
            key = key.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = key;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            tt.store(z ^ (z >> 31), entry);
            if n % 16_384 == 0 {
                let expected = 1000.0 * fill(n as f64);
                // A sample of 1000 entries: a standard deviation of at most 16 per mille.
                let got = tt.hashfull() as f64;
                assert!(
                    (got - expected).abs() < 80.0,
                    "{n} stores: hashfull {got}, expected about {expected:.0}"
                );
            }
        }
        assert!(tt.hashfull() > 800);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0, "a new search has written nothing yet");
    }

    /// Two threads that write two positions into one entry at once can leave the data of one
    /// beside the key word of the other: that reads back as a miss for both, also when the two
    /// data words differ in the move's low bits alone (which a plain XOR would leave to the
    /// unchecked evaluation bits of the key word).
    #[test]
    fn a_torn_write_reads_as_a_miss() {
        let mut tt = TranspositionTable::new(1);
        // Keys whose high bits are 0 share the first cluster.
        let (ka, kb) = (1, 2);
        let entry = |from, to| TtEntry {
            mv: Move::normal(Square::from_index(from), Square::from_index(to)),
            score: 25,
            depth: 3,
            bound: Bound::Exact,
        };
        let (a, b) = (entry(12, 28), entry(11, 27));
        tt.new_search();
        let generation = tt.generation.load(Ordering::Relaxed) & 63;
        let (da, db) = (pack(&a, generation), pack(&b, generation));
        assert!(
            da != db && (da ^ db) >> 16 == 0,
            "the data differ in the low bits alone"
        );
        tt.store_eval(kb, b, 40);
        assert_eq!(tt.probe_eval(kb).map(|(e, v)| (e.mv, v)), Some((b.mv, 40)));
        let slot = &tt.clusters[0].slots[0];
        assert_eq!(slot.data.load(Ordering::Relaxed), db);
        // A's data lands after B's key word.
        slot.data.store(da, Ordering::Relaxed);
        assert!(tt.probe_eval(kb).is_none(), "B's key with A's data");
        assert!(tt.probe_eval(ka).is_none(), "A's data with B's key");
        // And B's data after A's key word.
        tt.clear();
        tt.new_search();
        tt.store_eval(ka, a, 40);
        let slot = &tt.clusters[0].slots[0];
        slot.data.store(db, Ordering::Relaxed);
        assert!(tt.probe_eval(ka).is_none() && tt.probe_eval(kb).is_none());
    }

    /// Four keys of one cluster fill it; a fifth replaces the shallowest entry of this search,
    /// and an entry of an earlier search before a deeper one of this search. The static
    /// evaluation is read back with its entry.
    #[test]
    fn replaces_the_entry_least_worth_keeping() {
        let tt = TranspositionTable::new(1);
        // Keys whose high bits are 0 share the first cluster.
        let key = |i: u64| i + 1;
        let entry = |depth| TtEntry {
            mv: Move::NULL,
            score: 0,
            depth,
            bound: Bound::Exact,
        };
        for (i, depth) in [(0, 5), (1, 2), (2, 7), (3, 6)] {
            tt.store_eval(key(i), entry(depth), 10 * i as i32);
        }
        for i in 0..4 {
            assert_eq!(tt.probe_eval(key(i)).map(|(_, e)| e), Some(10 * i as i32));
        }
        tt.store(key(4), entry(3));
        assert!(tt.probe(key(1)).is_none(), "the depth-2 entry went");
        assert_eq!(
            tt.probe_eval(key(4)).map(|(e, v)| (e.depth, v)),
            Some((3, NO_EVAL))
        );
        // One search later, the depth-7 entry of the last search counts as -1, below the rest
        // once they are rewritten in this search.
        tt.new_search();
        for i in [0, 3, 4] {
            tt.store(key(i), entry(1));
        }
        tt.store(key(5), entry(1));
        assert!(tt.probe(key(2)).is_none(), "the old entry went first");
        for i in [0, 3, 4, 5] {
            assert!(tt.probe(key(i)).is_some());
        }
    }
}
