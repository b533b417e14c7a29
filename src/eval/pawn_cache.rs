//! The pawn cache: one search thread's store of what the evaluation works out from the
//! pawn-like pieces and the royal pieces alone (pawn structure, shelter and storms, the squares
//! pawns defend, outpost squares), keyed by those pieces' squares. Pawns move seldom, so most
//! positions of a search share their pawns with one seen before.

use super::cache::DirectCache;
use super::PawnTerms;
use crate::board::Position;
use crate::core::{Color, KindSet, Square};
use crate::rules::Rules;

/// One search thread's pawn cache (128 bytes an entry with its key, 1 MB).
pub(crate) type PawnCache = DirectCache<PawnTerms, 13>;

/// The key of the pieces of kinds `pawns` of both players and the players' first royal pieces:
/// a 64-bit mix of their squares, never 0 (an empty entry's key). Two positions that differ
/// there share a key by chance only, once in about 2^64.
pub(super) fn key(rules: &Rules, pos: &Position, pawns: KindSet) -> u64 {
    let mut h = 0;
    for c in Color::PLAYERS {
        for k in pawns {
            let bb = pos.pieces(c, k).0;
            h = mix(h ^ bb as u64);
            h = mix(h ^ (bb >> 64) as u64);
        }
        let royal = pos.royals(rules, c).first();
        h = mix(h ^ royal.map_or(0, |sq: Square| sq.index() as u64 + 1));
    }
    h.max(1)
}

/// A bijection of 64-bit words that spreads every input bit over the high ones and back.
#[inline]
fn mix(x: u64) -> u64 {
    let x = x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^ (x >> 29)
}
