//! The variant trait and the registry. A variant module writes a `RuleSpec` and overrides only
//! what its rules change; the trait's default methods are the FIDE rules, read from the spec.

pub mod chess;
pub mod divergent;
pub mod magician;
pub mod schizophrenic;
pub mod short;

use crate::board::{FenError, Position, PositionError};
use crate::core::{Color, Move, MoveList};
use crate::movegen;
use crate::rules::Rules;
use std::fmt;
use std::sync::OnceLock;

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

/// A game's rules. Every method but `rules` has a default: the FIDE rules, read from the spec.
pub trait Variant: Send + Sync {
    /// The compiled rules.
    fn rules(&self) -> &Rules;

    /// Name in every protocol.
    fn name(&self) -> &'static str {
        self.rules().spec.name
    }

    /// One-line description.
    fn description(&self) -> &'static str {
        self.rules().spec.description
    }

    /// Whether the search may prune with a null move. Off where zugzwang or forced moves are
    /// common.
    fn null_move_allowed(&self) -> bool {
        true
    }

    /// Whether the search may reduce late quiet moves.
    fn reductions_allowed(&self) -> bool {
        true
    }

    /// Evaluation terms of the variant's own, in centipawns for the side to move.
    fn evaluate_extra(&self, _pos: &Position) -> i32 {
        0
    }

    /// Depth of `menagerie bench` for this variant when no depth is given: deep enough to
    /// exercise the search, short enough to run in seconds.
    fn bench_depth(&self) -> u32 {
        crate::bench::DEFAULT_DEPTH
    }

    /// Positions `menagerie bench` searches; empty: the start position.
    fn bench_positions(&self) -> &'static [&'static str] {
        &[]
    }

    /// Checks beyond those every variant shares (`movegen::validate_basic`).
    fn validate(&self, _pos: &Position) -> Result<(), PositionError> {
        Ok(())
    }

    /// Parses and checks a FEN.
    fn parse_fen(&self, fen: &str) -> Result<Position, FenError> {
        let pos = Position::from_fen(self.rules(), fen)?;
        self.validate(&pos)?;
        Ok(pos)
    }

    /// The start position.
    fn start_position(&self) -> Position {
        self.parse_fen(self.rules().spec.start_fen)
            .expect("the start FEN of every registered variant is valid")
    }

    /// Legal moves of the side to move.
    fn legal_moves(&self, pos: &Position, out: &mut MoveList) {
        movegen::legal(self.rules(), pos, out);
    }

    /// The legal moves that change material, which quiescence searches: the legal moves for which
    /// `movegen::is_noisy` holds. A variant that overrides `legal_moves` overrides this as well.
    fn noisy_moves(&self, pos: &Position, out: &mut MoveList) {
        movegen::legal_noisy(self.rules(), pos, out);
    }

    /// Legal moves by the slow reference generator; tests compare it with `legal_moves`.
    fn reference_moves(&self, pos: &Position) -> Vec<Move> {
        movegen::reference::legal(self.rules(), pos)
    }

    /// The position after a legal move.
    fn play(&self, pos: &Position, m: Move) -> Position {
        pos.play(self.rules(), m)
    }

    /// Whether the side to move is in check.
    fn in_check(&self, pos: &Position) -> bool {
        movegen::in_check(self.rules(), pos, pos.turn())
    }

    /// Whether neither side can ever win. Default: no piece but royal ones is left.
    fn insufficient_material(&self, pos: &Position) -> bool {
        let rules = self.rules();
        let royal = Color::PLAYERS
            .iter()
            .fold(crate::core::Bitboard::EMPTY, |bb, &c| {
                bb | pos.royals(rules, c)
            });
        rules.royal.0 != 0 && (pos.occupied() & !royal).is_empty() && pos.reserve().is_empty()
    }

    /// The result if the game is over. `legal_count` is the number of legal moves here; `history`
    /// holds the hashes of earlier positions of the game, oldest first.
    fn outcome(&self, pos: &Position, legal_count: usize, history: &[u64]) -> Option<Outcome> {
        let spec = &self.rules().spec;
        if legal_count == 0 {
            return Some(if self.in_check(pos) {
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
            let window = (pos.halfmove_clock() as usize).min(history.len());
            let seen = history[history.len() - window..]
                .iter()
                .filter(|&&h| h == pos.hash())
                .count();
            if seen + 1 >= spec.repetition_count as usize {
                return Some(Outcome::Draw {
                    reason: EndReason::Repetition,
                });
            }
        }
        if self.insufficient_material(pos) {
            return Some(Outcome::Draw {
                reason: EndReason::InsufficientMaterial,
            });
        }
        None
    }
}

/// A variant name that is not registered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = all().iter().map(|v| v.name()).collect();
        write!(
            f,
            "unknown variant '{}' (known: {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownVariant {}

/// Every registered variant, in the order `menagerie variants` lists them.
pub fn all() -> &'static [&'static dyn Variant] {
    static ALL: OnceLock<Vec<&'static dyn Variant>> = OnceLock::new();
    ALL.get_or_init(|| {
        vec![
            chess::get(),
            divergent::get(),
            magician::get(),
            schizophrenic::get(),
        ]
    })
}

/// The variant with this name (CECP's `normal` is chess).
pub fn by_name(name: &str) -> Result<&'static dyn Variant, UnknownVariant> {
    let name = if name == "normal" { "chess" } else { name };
    all()
        .iter()
        .copied()
        .find(|v| v.name() == name)
        .ok_or_else(|| UnknownVariant(name.to_string()))
}

#[cfg(test)]
mod tests;
