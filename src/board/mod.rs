//! The position shared by every variant, its text form (FEN), and the standard way to make a move.

pub mod fen;
pub mod make;
mod position;
pub mod state;
pub mod zobrist;

pub use fen::{FenError, Setup};
pub use make::Effects;
pub use position::{ep_capturable, Position, PositionError};
pub use state::{PieceFlags, PieceState, Reserve, Spell, SpellKind, StateTable, MAX_STATES};

#[cfg(test)]
mod tests;
