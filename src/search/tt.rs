//! The transposition table, shared by all search threads without locks. Each entry is two atomic
//! words, the key stored XORed with the data, so a torn write from two threads at once reads back
//! as a miss instead of as wrong data. The table takes exactly the bytes asked for.

use crate::core::Move;
use std::collections::TryReserveError;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// Bytes of one entry.
pub const ENTRY_BYTES: usize = 16;
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

/// The table.
pub struct TranspositionTable {
    slots: Vec<Slot>,
    generation: AtomicU8,
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
        let count = (mb.saturating_mul(1 << 20) / ENTRY_BYTES).max(1);
        let mut slots = Vec::new();
        slots.try_reserve_exact(count)?;
        slots.resize_with(count, Slot::default);
        Ok(TranspositionTable {
            slots,
            generation: AtomicU8::new(0),
        })
    }

    /// Bytes of the entries.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        for s in &mut self.slots {
            *s = Slot::default();
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks a new search: older entries are replaced first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn slot(&self, key: u64) -> &Slot {
        &self.slots[((key as u128 * self.slots.len() as u128) >> 64) as usize]
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let slot = self.slot(key);
        let data = slot.data.load(Ordering::Relaxed);
        let k = slot.key.load(Ordering::Relaxed);
        (data != 0 && k ^ data == key).then(|| unpack(data).0)
    }

    /// Stores an entry, unless a deeper entry of this search for the same position is kept.
    #[inline]
    pub fn store(&self, key: u64, entry: TtEntry) {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let slot = self.slot(key);
        let old = slot.data.load(Ordering::Relaxed);
        if old != 0 && slot.key.load(Ordering::Relaxed) ^ old == key {
            let (prev, age) = unpack(old);
            // Keep a deeper result of this search, but never lose an exact score to a bound.
            if age == generation && prev.depth > entry.depth + 2 && entry.bound != Bound::Exact {
                return;
            }
            let mut entry = entry;
            if entry.mv == Move::NULL {
                entry.mv = prev.mv;
            }
            let data = pack(&entry, generation);
            slot.data.store(data, Ordering::Relaxed);
            slot.key.store(key ^ data, Ordering::Relaxed);
            return;
        }
        let data = pack(&entry, generation);
        slot.data.store(data, Ordering::Relaxed);
        slot.key.store(key ^ data, Ordering::Relaxed);
    }

    /// Per mille of sampled entries written by the current search: the first
    /// `HASHFULL_SAMPLE` entries, which stand for the whole table since keys spread evenly over
    /// it (Stockfish samples its first 1000 clusters the same way).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let n = self.slots.len().min(HASHFULL_SAMPLE);
        let used = self.slots[..n]
            .iter()
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

    /// With `n` keys spread evenly over `m` entries, each entry stays empty with probability
    /// (1 - 1/m)^n, about e^(-n/m): `hashfull` reports the rest, per mille, and 0 for the next
    /// search until it writes.
    #[test]
    fn hashfull_is_the_sampled_fill() {
        let tt = TranspositionTable::new(1);
        let m = tt.slots.len() as f64;
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        let mut key: u64 = 0x9E37_79B9_7F4A_7C15;
        let entry = TtEntry {
            mv: Move::NULL,
            score: 0,
            depth: 1,
            bound: Bound::Exact,
        };
        for n in 1..=(tt.slots.len() * 2) as u64 {
            // SplitMix64 steps: keys spread as the positions' hashes do.
            key = key.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = key;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            tt.store(z ^ (z >> 31), entry);
            if n % 16_384 == 0 {
                let expected = 1000.0 * (1.0 - (-(n as f64) / m).exp());
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
}
