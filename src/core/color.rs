//! The three sides: White, Black and a neutral side (Afterlife's grey pieces, Chaos's Nature).

use std::ops::{Index, IndexMut};

/// A side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    /// Moves first; upper-case letters in FEN.
    White = 0,
    /// Lower-case letters in FEN.
    Black = 1,
    /// Pieces that belong to neither player, or a third party that moves on its own turns.
    Neutral = 2,
}

impl Color {
    /// All three sides.
    pub const ALL: [Color; 3] = [Color::White, Color::Black, Color::Neutral];
    /// The two players.
    pub const PLAYERS: [Color; 2] = [Color::White, Color::Black];

    /// The opposing player; the neutral side has none and stays neutral.
    #[inline]
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
            Color::Neutral => Color::Neutral,
        }
    }

    /// Index 0, 1 or 2.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The side with this index.
    #[inline]
    pub const fn from_index(i: usize) -> Color {
        match i {
            0 => Color::White,
            1 => Color::Black,
            _ => Color::Neutral,
        }
    }

    /// The FEN letter of the side to move: `w`, `b` or `n`.
    pub const fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
            Color::Neutral => 'n',
        }
    }

    /// English name.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
            Color::Neutral => "neutral",
        }
    }
}

/// One value per side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct ByColor<T>(pub [T; 3]);

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    #[inline]
    fn index(&self, c: Color) -> &T {
        &self.0[c.index()]
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    #[inline]
    fn index_mut(&mut self, c: Color) -> &mut T {
        &mut self.0[c.index()]
    }
}
