//! 128-bit square sets. Bit `i` is the square with index `i` (see [`crate::core::square`]).

use super::square::{Square, NUM_SQUARES};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square of the 12x10 index space.
    pub const ALL: Bitboard = Bitboard((1u128 << NUM_SQUARES) - 1);

    /// The set holding one square.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        // The bit in its 64-bit half: a 128-bit shift by a variable costs several steps.
        let i = sq.index();
        let bit = 1u64 << (i & 63);
        Bitboard(if i < 64 {
            bit as u128
        } else {
            (bit as u128) << 64
        })
    }

    /// Whether the set holds `sq`.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        // One 64-bit half, then one shift: a 128-bit shift by a variable costs several steps.
        let i = sq.index();
        let half = if i < 64 {
            self.0 as u64
        } else {
            (self.0 >> 64) as u64
        };
        half >> (i & 63) & 1 != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set holds at least one square.
    #[inline]
    pub const fn nonempty(self) -> bool {
        self.0 != 0
    }

    /// Number of squares.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether more than one square is set.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline]
    pub fn first(self) -> Option<Square> {
        (self.0 != 0).then(|| Square::from_index(self.0.trailing_zeros() as u8))
    }

    /// The highest square, if any.
    #[inline]
    pub fn last(self) -> Option<Square> {
        (self.0 != 0).then(|| Square::from_index(127 - self.0.leading_zeros() as u8))
    }

    /// Adds a square.
    #[inline]
    pub fn insert(&mut self, sq: Square) {
        self.0 |= Bitboard::from_square(sq).0;
    }

    /// Removes a square.
    #[inline]
    pub fn remove(&mut self, sq: Square) {
        self.0 &= !Bitboard::from_square(sq).0;
    }

    /// Flips a square.
    #[inline]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= Bitboard::from_square(sq).0;
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        // The scan and the clear a 64-bit half at a time, chosen without a branch.
        let lo = self.0 as u64;
        let hi = (self.0 >> 64) as u64;
        let in_lo = lo != 0;
        let index = if in_lo {
            lo.trailing_zeros()
        } else {
            64 + hi.trailing_zeros()
        };
        let hi = if in_lo { hi } else { hi & hi.wrapping_sub(1) };
        self.0 = u128::from(hi) << 64 | u128::from(lo & lo.wrapping_sub(1));
        Some(Square::from_index(index as u8))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        let mut bb = Bitboard::EMPTY;
        for sq in iter {
            bb.insert(sq);
        }
        bb
    }
}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Self {
        Bitboard::from_square(sq)
    }
}

macro_rules! bitop {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_method(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::ALL.0)
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(*self).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_in_order_and_counts() {
        let squares = [0u8, 5, 63, 64, 100, 119].map(Square::from_index);
        let bb: Bitboard = squares.iter().copied().collect();
        assert_eq!(bb.count(), 6);
        assert_eq!(bb.collect::<Vec<_>>(), squares.to_vec());
        assert_eq!(bb.first(), Some(squares[0]));
        assert_eq!(bb.last(), Some(squares[5]));
        assert!(bb.more_than_one());
        assert!(!Bitboard::from_square(squares[3]).more_than_one());
    }

    #[test]
    fn complement_stays_in_index_space() {
        assert_eq!((!Bitboard::EMPTY).count() as usize, NUM_SQUARES);
        assert_eq!(!Bitboard::ALL, Bitboard::EMPTY);
    }
}
