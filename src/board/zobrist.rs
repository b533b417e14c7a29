//! Zobrist keys, generated at compile time from a fixed seed.

use crate::core::{Color, Piece, Square, MAX_KINDS, NUM_SQUARES};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// A strong 64-bit mix, used to hash values that have no table of their own.
pub const fn mix(x: u64) -> u64 {
    splitmix(x).1
}

const PIECE_KEYS: usize = 3 * MAX_KINDS * NUM_SQUARES;

struct Keys {
    piece: [u64; PIECE_KEYS],
    square: [u64; NUM_SQUARES],
    unmoved: [u64; NUM_SQUARES],
    ep: [u64; NUM_SQUARES],
    turn: [u64; 3],
}

/// Kinds whose keys come first in the stream: the keys of the first sixteen kinds were drawn
/// before the catalogue grew to `MAX_KINDS`, and drawing them first keeps every key (and so the
/// search's node counts) as it was.
const FIRST_KINDS: usize = 16;

const fn piece_index(color: usize, kind: usize, sq: usize) -> usize {
    (color * MAX_KINDS + kind) * NUM_SQUARES + sq
}

const fn build() -> Keys {
    let mut k = Keys {
        piece: [0; PIECE_KEYS],
        square: [0; NUM_SQUARES],
        unmoved: [0; NUM_SQUARES],
        ep: [0; NUM_SQUARES],
        turn: [0; 3],
    };
    let mut s = 0x4D65_6E61_6765_7269u64; // fixed seed
    let mut i = 0;
    while i < 3 * FIRST_KINDS * NUM_SQUARES {
        let (ns, v) = splitmix(s);
        s = ns;
        let (color, rest) = (
            i / (FIRST_KINDS * NUM_SQUARES),
            i % (FIRST_KINDS * NUM_SQUARES),
        );
        k.piece[piece_index(color, rest / NUM_SQUARES, rest % NUM_SQUARES)] = v;
        i += 1;
    }
    i = 0;
    while i < NUM_SQUARES {
        let (s1, a) = splitmix(s);
        let (s2, b) = splitmix(s1);
        let (s3, c) = splitmix(s2);
        s = s3;
        k.square[i] = a;
        k.unmoved[i] = b;
        k.ep[i] = c;
        i += 1;
    }
    i = 0;
    while i < 3 {
        let (ns, v) = splitmix(s);
        s = ns;
        k.turn[i] = v;
        i += 1;
    }
    i = 0;
    while i < 3 * (MAX_KINDS - FIRST_KINDS) * NUM_SQUARES {
        let (ns, v) = splitmix(s);
        s = ns;
        let per_color = (MAX_KINDS - FIRST_KINDS) * NUM_SQUARES;
        let (color, rest) = (i / per_color, i % per_color);
        k.piece[piece_index(color, FIRST_KINDS + rest / NUM_SQUARES, rest % NUM_SQUARES)] = v;
        i += 1;
    }
    k
}

static KEYS: Keys = build();

/// Key of `piece` on `sq`.
#[inline]
pub fn piece(p: Piece, sq: Square) -> u64 {
    KEYS.piece[piece_index(p.color().index(), p.kind().index(), sq.index())]
}

/// Key of an unmoved piece on `sq`.
#[inline]
pub fn unmoved(sq: Square) -> u64 {
    KEYS.unmoved[sq.index()]
}

/// Key of an en-passant target on `sq`.
#[inline]
pub fn ep(sq: Square) -> u64 {
    KEYS.ep[sq.index()]
}

/// Key of the side to move.
#[inline]
pub fn turn(c: Color) -> u64 {
    KEYS.turn[c.index()]
}

/// Key of a non-default piece state on `sq`, packed as by `PieceState::pack`.
#[inline]
pub fn state(sq: Square, packed: u64) -> u64 {
    mix(KEYS.square[sq.index()] ^ packed)
}

/// Key of holding `count` pieces of a (colour, kind) in reserve (zero when none).
#[inline]
pub fn reserve(c: Color, kind: usize, count: u8) -> u64 {
    if count == 0 {
        0
    } else {
        mix(((c.index() * MAX_KINDS + kind) as u64) << 8 | count as u64 | 0x5E5E_0000_0000)
    }
}

/// Key of a game's own turn clock (zero for 0, the state of games whose turns alternate).
#[inline]
pub fn turn_state(state: u8) -> u64 {
    if state == 0 {
        0
    } else {
        mix(0xFA5E_0000_0000 | state as u64)
    }
}
