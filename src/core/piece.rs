//! Pieces: a kind (an index into the variant's piece catalogue) and a colour.

use super::color::Color;

/// Most piece kinds one variant may define.
pub const MAX_KINDS: usize = 16;

/// A piece kind: an index into the variant's catalogue (`Rules::pieces`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct PieceKind(pub u8);

impl PieceKind {
    /// Index into per-kind tables.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A coloured piece, packed as `colour * 16 + kind`; [`Piece::NONE`] marks an empty square.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece(u8);

impl Piece {
    /// No piece.
    pub const NONE: Piece = Piece(0xFF);

    /// The piece of this colour and kind.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece((color as u8) << 4 | kind.0)
    }

    /// Whether this is a real piece.
    #[inline]
    pub const fn is_some(self) -> bool {
        self.0 != 0xFF
    }

    /// Whether this is [`Piece::NONE`].
    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == 0xFF
    }

    /// The colour; meaningless for `NONE`.
    #[inline]
    pub const fn color(self) -> Color {
        Color::from_index((self.0 >> 4) as usize)
    }

    /// The kind; meaningless for `NONE`.
    #[inline]
    pub const fn kind(self) -> PieceKind {
        PieceKind(self.0 & 15)
    }

    /// The packed byte, for hashing.
    #[inline]
    pub const fn to_u8(self) -> u8 {
        self.0
    }
}
