//! Slider lines by one lookup. For every square and each of its four lines (file, rank and the
//! two diagonals) a table holds the squares a rider reaches along both directions of the line,
//! up to and including the first piece each way, for every arrangement of the pieces that can
//! stop it. The arrangement is found by hashing the occupied squares of the line: each 64-bit
//! half of the board is masked and multiplied by a number searched for when the table is built
//! (magic bitboards, on a board of any size, with holes and linked boards alike). The tables are
//! built from the rays, and the ray walk (`Tables::slide`) stays their reference.

use super::tables::Direction;
use crate::core::rng::SplitMix;
use crate::core::{Bitboard, Square};

/// Lines of a square: a direction `l` below four and its opposite `l + 4`.
pub const LINES: u32 = 4;
/// Squares the entry table holds room for: every `u8` index below it, so that an index taken
/// modulo it needs no bounds check.
const SQUARE_SLOTS: usize = 128;
/// Candidate numbers tried per table size before the table is doubled.
const TRIES_PER_SIZE: u32 = 100_000;
/// The most bits a table may take beyond its mask's, should no multipliers fit it.
const MORE_BITS: u32 = 4;
/// The search's fixed seed: the tables are the same on every build.
const SEED: u64 = 1;

/// How one (square, line) finds its entry in `LineTables::attacks`.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    /// The squares of the line that can stop a rider, per 64-bit half.
    mask: [u64; 2],
    /// The multipliers of the halves.
    magic: [u64; 2],
    /// The hash's top bits index the table: 64 less their number.
    shift: u32,
    /// Where the (square, line)'s part of `attacks` begins.
    base: u32,
}

impl Entry {
    /// The index in `LineTables::attacks` of the arrangement `occupied`.
    #[inline(always)]
    fn index(&self, occupied: Bitboard) -> usize {
        let lo = occupied.0 as u64 & self.mask[0];
        let hi = (occupied.0 >> 64) as u64 & self.mask[1];
        let hash = lo.wrapping_mul(self.magic[0]) ^ hi.wrapping_mul(self.magic[1]);
        self.base as usize + (hash >> self.shift) as usize
    }
}

/// The rider targets along every line of every square.
#[derive(Debug)]
pub struct LineTables {
    entries: Box<[[Entry; LINES as usize]; SQUARE_SLOTS]>,
    attacks: Vec<Bitboard>,
}

impl LineTables {
    /// The tables for the squares of `board`, whose rays `rays` gives (per direction, then
    /// square), with `slide` the reference walk along them (a direction, a square, the occupied
    /// squares). Other squares find nothing.
    pub fn build(
        board: Bitboard,
        rays: impl Fn(Direction, Square) -> Bitboard,
        slide: impl Fn(Direction, Square, Bitboard) -> Bitboard,
    ) -> LineTables {
        // Squares off the board find index 0, which holds nothing.
        let nothing = Entry {
            shift: 63,
            ..Entry::default()
        };
        let mut entries: Box<[[Entry; LINES as usize]; SQUARE_SLOTS]> =
            vec![[nothing; LINES as usize]; SQUARE_SLOTS]
                .into_boxed_slice()
                .try_into()
                .expect("one entry list per square slot");
        let mut attacks = vec![Bitboard::EMPTY];
        let mut rng = SplitMix(SEED);
        for sq in board {
            for (line, entry) in entries[sq.index()].iter_mut().enumerate() {
                let (d, e) = (Direction(line as u8), Direction(line as u8 + 4));
                let mask = stoppers(d, rays(d, sq)) | stoppers(e, rays(e, sq));
                let targets = |occ: Bitboard| slide(d, sq, occ) | slide(e, sq, occ);
                *entry = fill(mask, targets, &mut attacks, &mut rng);
            }
        }
        LineTables { entries, attacks }
    }

    /// The squares a rider on `sq` reaches along both directions of `line` (below `LINES`), up to
    /// and including the first of `occupied` each way.
    #[inline(always)]
    pub fn attacks(&self, line: u32, sq: Square, occupied: Bitboard) -> Bitboard {
        let entry = &self.entries[sq.index() % SQUARE_SLOTS][(line % LINES) as usize];
        self.attacks[entry.index(occupied)]
    }
}

/// The squares of a ray in direction `d` that can stop a rider: all but the last, beyond which
/// there is nothing to stop.
fn stoppers(d: Direction, ray: Bitboard) -> Bitboard {
    let last = if d.is_positive() {
        ray.last()
    } else {
        ray.first()
    };
    match last {
        Some(sq) => ray & !Bitboard::from_square(sq),
        None => ray,
    }
}

/// Searches multipliers for the arrangements of `mask` and appends their targets to `attacks`:
/// the entry that finds them. Only the registered games' boards are built (none from user
/// input), each line of at most ten squares that can stop a rider, and the tests build every
/// game's tables: a search that failed would fail there, not in play.
fn fill(
    mask: Bitboard,
    targets: impl Fn(Bitboard) -> Bitboard,
    attacks: &mut Vec<Bitboard>,
    rng: &mut SplitMix,
) -> Entry {
    let arrangements = subsets(mask).map(|s| (s, targets(s))).collect::<Vec<_>>();
    let halves = [mask.0 as u64, (mask.0 >> 64) as u64];
    let base = attacks.len() as u32;
    let bits = mask.count();
    if bits == 0 {
        attacks.push(arrangements[0].1);
        return Entry {
            shift: 63,
            base,
            ..Entry::default()
        };
    }
    for size in bits..=bits + MORE_BITS {
        // Each slot remembers the try that filled it, so that a failed try costs only the
        // arrangements it looked at, not a cleared table.
        let mut table: Vec<(u32, Bitboard)> = vec![(0, Bitboard::EMPTY); 1 << size];
        for attempt in 1..=TRIES_PER_SIZE {
            let entry = Entry {
                mask: halves,
                magic: [sparse(rng), sparse(rng)],
                shift: 64 - size,
                base: 0,
            };
            let fits = arrangements.iter().all(|&(occ, reached)| {
                let slot = &mut table[entry.index(occ)];
                if slot.0 != attempt {
                    *slot = (attempt, reached);
                }
                // Two arrangements may share a slot when they stop the rider alike.
                slot.1 == reached
            });
            if fits {
                attacks.extend(table.iter().map(|&(filled, reached)| {
                    if filled == attempt {
                        reached
                    } else {
                        Bitboard::EMPTY
                    }
                }));
                return Entry { base, ..entry };
            }
        }
    }
    panic!("no multipliers found for a line of {bits} squares")
}

/// Every subset of `mask`, the empty set first.
fn subsets(mask: Bitboard) -> impl Iterator<Item = Bitboard> {
    let mut next = Some(0u128);
    std::iter::from_fn(move || {
        let s = next?;
        let after = s.wrapping_sub(mask.0) & mask.0;
        next = (after != 0).then_some(after);
        Some(Bitboard(s))
    })
}

/// A multiplier with about a quarter of its bits set: on these boards such numbers fit a line
/// in about ten times fewer tries than denser or sparser ones.
fn sparse(rng: &mut SplitMix) -> u64 {
    rng.next_u64() & rng.next_u64()
}
