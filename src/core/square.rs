//! Squares on a board of up to 12 files and 10 ranks.
//!
//! Every board uses the same fixed stride of 12 squares per rank (as Fairy-Stockfish's large-board
//! build does), so a square index is `rank * 12 + file` whatever the variant's size. Text forms
//! that depend on a protocol live in `crate::notation`; here a square prints in the internal form
//! (files `a..l`, ranks `1..10`).

use std::fmt;

/// Most files a board may have.
pub const MAX_FILES: u8 = 12;
/// Most ranks a board may have.
pub const MAX_RANKS: u8 = 10;
/// Squares per rank in the index space, whatever the board's width.
pub const STRIDE: u8 = MAX_FILES;
/// Number of square indices.
pub const NUM_SQUARES: usize = (MAX_FILES as usize) * (MAX_RANKS as usize);

/// A square, `rank * 12 + file`, both counted from zero.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The square on `file` and `rank` (both from zero), if inside the 12x10 index space.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < MAX_FILES && rank < MAX_RANKS {
            Some(Square(rank * STRIDE + file))
        } else {
            None
        }
    }

    /// The square with this index; the index must be below [`NUM_SQUARES`].
    #[inline]
    pub const fn from_index(index: u8) -> Square {
        debug_assert!((index as usize) < NUM_SQUARES);
        Square(index)
    }

    /// Index into the 12x10 space.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File from zero (`a` is 0).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % STRIDE
    }

    /// Rank from zero (rank `1` is 0).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / STRIDE
    }

    /// The square `df` files and `dr` ranks away, if it is inside the index space.
    #[inline]
    pub fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if (0..MAX_FILES as i8).contains(&f) && (0..MAX_RANKS as i8).contains(&r) {
            Square::new(f as u8, r as u8)
        } else {
            None
        }
    }

    /// All square indices of the 12x10 space.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..NUM_SQUARES as u8).map(Square)
    }

    /// Parses the internal form: a file letter `a..l` and a rank `1..10`.
    pub fn parse(text: &str) -> Option<Square> {
        let mut chars = text.chars();
        let f = chars.next()?;
        if !('a'..='l').contains(&f) {
            return None;
        }
        let digits = chars.as_str();
        if digits.is_empty()
            || digits.len() > 2
            || !digits.bytes().all(|b| b.is_ascii_digit())
            || digits.starts_with('0')
        {
            return None;
        }
        let r: u8 = digits.parse().ok()?;
        Square::new(f as u8 - b'a', r.checked_sub(1)?)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::new(sq.file(), sq.rank()), Some(sq));
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
    }

    #[test]
    fn parses_two_digit_ranks_and_far_files() {
        assert_eq!(Square::parse("a10"), Square::new(0, 9));
        assert_eq!(Square::parse("l1"), Square::new(11, 0));
        assert_eq!(Square::parse("a11"), None);
        assert_eq!(Square::parse("m1"), None);
        assert_eq!(Square::parse("a0"), None);
        assert_eq!(Square::parse("a01"), None);
        assert_eq!(Square::parse("a"), None);
    }

    #[test]
    fn offsets_stay_inside() {
        let a1 = Square::new(0, 0).unwrap();
        assert_eq!(a1.offset(-1, 0), None);
        assert_eq!(a1.offset(11, 9), Square::new(11, 9));
        assert_eq!(a1.offset(12, 0), None);
    }
}
