//! Vocabulary types shared by every part of the engine: squares, bitboards, colours, pieces and
//! moves. Nothing here knows a rule.

pub mod bitboard;
pub mod color;
pub mod geometry;
pub mod moves;
pub mod piece;
pub mod rng;
pub mod square;

pub use bitboard::Bitboard;
pub use color::{ByColor, Color};
pub use geometry::Geometry;
pub use moves::{Move, MoveKind, MoveList, Special};
pub use piece::{KindSet, Piece, PieceKind, MAX_KINDS};
pub use square::{Square, MAX_FILES, MAX_RANKS, NUM_SQUARES, STRIDE};
