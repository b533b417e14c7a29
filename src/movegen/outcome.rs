//! How a game ends: the result, its reason, and FIDE's rules for it (the default of
//! `Hooks::outcome`).

use crate::board::Position;
use crate::core::Color;
use std::fmt;

use super::hooks::Hooks;
use super::Method;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The side to move is in check with no legal move.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Fifty moves by each side without capture or pawn move.
    FiftyMoves,
    /// The same position occurred the set number of times.
    Repetition,
    /// Neither side can mate.
    InsufficientMaterial,
    /// A rule of the variant.
    Variant(&'static str),
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndReason::Checkmate => write!(f, "checkmate"),
            EndReason::Stalemate => write!(f, "stalemate"),
            EndReason::FiftyMoves => write!(f, "50-move rule"),
            EndReason::Repetition => write!(f, "repetition"),
            EndReason::InsufficientMaterial => write!(f, "insufficient material"),
            EndReason::Variant(s) => write!(f, "{s}"),
        }
    }
}

/// A finished game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `winner` won.
    Win { winner: Color, reason: EndReason },
    /// Nobody won.
    Draw { reason: EndReason },
}

impl Outcome {
    /// The reason in the words XBoard and PGN comments use: `White mates`, `Stalemate`,
    /// `Draw by repetition`...
    pub fn describe(&self) -> String {
        let side = |c: Color| if c == Color::White { "White" } else { "Black" };
        match *self {
            Outcome::Win {
                winner,
                reason: EndReason::Checkmate,
            } => format!("{} mates", side(winner)),
            Outcome::Win { winner, reason } => format!("{} wins by {reason}", side(winner)),
            Outcome::Draw {
                reason: EndReason::Stalemate,
            } => "Stalemate".to_string(),
            Outcome::Draw {
                reason: EndReason::Repetition,
            } => "Draw by repetition".to_string(),
            Outcome::Draw {
                reason: EndReason::FiftyMoves,
            } => "Draw by fifty move rule".to_string(),
            Outcome::Draw {
                reason: EndReason::InsufficientMaterial,
            } => "Insufficient material".to_string(),
            Outcome::Draw { reason } => format!("Draw by {reason}"),
        }
    }

    /// The result in PGN form: `1-0`, `0-1` or `1/2-1/2`.
    pub fn pgn(&self) -> &'static str {
        match self {
            Outcome::Win {
                winner: Color::White,
                ..
            } => "1-0",
            Outcome::Win { .. } => "0-1",
            Outcome::Draw { .. } => "1/2-1/2",
        }
    }
}

/// FIDE's ends of the game: checkmate or stalemate without a legal move, the fifty-move rule,
/// repetition and insufficient material, read from the game's spec and hooks.
pub fn fide_outcome<H: Hooks + ?Sized>(
    h: &H,
    pos: &Position,
    legal_count: usize,
    history: &[u64],
) -> Option<Outcome> {
    let spec = &h.rules().spec;
    if legal_count == 0 {
        return Some(if h.in_check(pos, Method::Fast) {
            Outcome::Win {
                winner: pos.turn().opponent(),
                reason: EndReason::Checkmate,
            }
        } else {
            Outcome::Draw {
                reason: EndReason::Stalemate,
            }
        });
    }
    if spec.fifty_move_plies > 0 && pos.halfmove_clock() >= spec.fifty_move_plies {
        return Some(Outcome::Draw {
            reason: EndReason::FiftyMoves,
        });
    }
    if spec.repetition_count > 0 {
        let window = h.repetition_window(pos).min(history.len());
        let seen = history[history.len() - window..]
            .iter()
            .filter(|&&x| x == pos.hash())
            .count();
        if seen + 1 >= spec.repetition_count as usize {
            return Some(Outcome::Draw {
                reason: EndReason::Repetition,
            });
        }
    }
    if h.insufficient_material(pos) {
        return Some(Outcome::Draw {
            reason: EndReason::InsufficientMaterial,
        });
    }
    None
}
