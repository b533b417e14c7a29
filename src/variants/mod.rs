//! The variant facade and the registry. A game module implements [`Hooks`] (its exotic rules,
//! over defaults that are the FIDE rules); [`Pipeline`] runs the shared pipeline with those
//! hooks and is what the rest of the engine sees, as `&dyn Variant`.

pub mod afterlife;
pub mod chaos;
pub mod chess;
pub mod divergent;
pub mod existentialist;
pub mod hooks;
pub mod magician;
pub mod schizophrenic;
pub mod short;

pub use hooks::{Hooks, Rights, Shortcuts};

use crate::board::{FenError, Position, Setup};
use crate::core::{Color, Move, MoveKind, MoveList, PieceKind, Square};
use crate::movegen::{self, Method};
use crate::notation::{self, Dialect};
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

/// A game as the engine sees it: every operation of the shared pipeline, run with the game's
/// hooks. Object safe, so protocols, the search and the runner hold `&dyn Variant`.
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

    /// Kinds the game's module names, with their letters.
    fn named_kinds(&self) -> &'static [(PieceKind, char)];

    /// Legal moves of the side to move.
    fn legal_moves(&self, pos: &Position, out: &mut MoveList) {
        self.legal_moves_checked(pos, self.in_check(pos), out);
    }

    /// Legal moves when whether the side to move is in check is already known (the search
    /// works it out for the child it is about to enter).
    fn legal_moves_checked(&self, pos: &Position, in_check: bool, out: &mut MoveList);

    /// The legal moves that change material (what quiescence searches): the legal moves for
    /// which `is_noisy` holds.
    fn noisy_moves(&self, pos: &Position, in_check: bool, out: &mut MoveList);

    /// Legal moves by the slow reference generator; tests compare it with `legal_moves`.
    fn reference_moves(&self, pos: &Position) -> Vec<Move>;

    /// The position after a legal move.
    fn play(&self, pos: &Position, m: Move) -> Position;

    /// Whether the side to move is in check.
    fn in_check(&self, pos: &Position) -> bool;

    /// Whether the move `m` from `before` to `after` left a royal piece of the mover exposed,
    /// judged with the slow reference attack test (for tests).
    fn exposes_royal(&self, before: &Position, m: Move, after: &Position) -> bool;

    /// Whether the pieces that threaten `defender` attack `sq` with `occupied` as blockers.
    fn attacked(
        &self,
        pos: &Position,
        sq: Square,
        defender: Color,
        occupied: crate::core::Bitboard,
    ) -> bool;

    /// The player a position is scored for (see `Hooks::point_of_view`).
    fn point_of_view(&self, pos: &Position) -> Color;

    /// Parses and checks a FEN.
    fn parse_fen(&self, fen: &str) -> Result<Position, FenError>;

    /// The FEN of a position.
    fn fen(&self, pos: &Position) -> String;

    /// The start position.
    fn start_position(&self) -> Position {
        self.parse_fen(self.rules().spec.start_fen)
            .expect("the start FEN of every registered variant is valid")
    }

    /// A move's text in `dialect` (`crate::notation`).
    fn move_text(&self, m: Move, dialect: Dialect) -> String;

    /// Whether XBoard 4.9.1 carries `m` as this engine means it.
    fn xboard_carries(&self, pos: &Position, m: Move) -> bool;

    /// Other click sequences that enter `m` in XBoard.
    fn xboard_paths(&self, pos: &Position, m: Move) -> Vec<Vec<Square>>;

    /// The game's XBoard text for `m`, if it differs from the CECP move text.
    fn xboard_text(&self, pos: &Position, m: Move) -> Option<String>;

    /// Squares XBoard is not asked to show as we do.
    fn xboard_hidden(&self) -> crate::core::Bitboard;

    /// Whether `m` changes material.
    fn is_noisy(&self, pos: &Position, m: Move) -> bool;

    /// The material `m` wins at once, signed, from the values of piece kinds.
    fn material_gain(&self, pos: &Position, m: Move, value: &dyn Fn(PieceKind) -> i32) -> i32;

    /// Evaluation terms of the game's own, in centipawns for White.
    fn evaluate_extra(&self, pos: &Position) -> i32;

    /// Whether the search may prune with a null move.
    fn null_move_allowed(&self) -> bool;

    /// Whether the search may reduce late quiet moves.
    fn reductions_allowed(&self) -> bool;

    /// How many earlier positions a repetition may lie back.
    fn repetition_window(&self, pos: &Position) -> usize;

    /// Depth of `menagerie bench` for this variant when no depth is given.
    fn bench_depth(&self) -> u32;

    /// Positions `menagerie bench` searches; empty: the start position.
    fn bench_positions(&self) -> &'static [&'static str];

    /// Whether neither side can ever win.
    fn insufficient_material(&self, pos: &Position) -> bool;

    /// The result if the game is over (see `Hooks::outcome`).
    fn outcome(&self, pos: &Position, legal_count: usize, history: &[u64]) -> Option<Outcome>;

    /// Labels for players of the state of the piece on `sq` (see `Hooks::describe_state`).
    fn describe_state(&self, pos: &Position, sq: Square) -> Vec<String>;

    /// Notes for players beside each piece's movement (see `Hooks::legend_notes`).
    fn legend_notes(&self) -> &'static [(char, &'static str)];

    /// Notes for players on the turn (see `Hooks::describe_turn`).
    fn describe_turn(&self, pos: &Position) -> Vec<String>;

    /// What players call the neutral side (see `Hooks::neutral_name`).
    fn neutral_name(&self) -> &'static str;
}

/// The shared pipeline run with a game's hooks `H`: the one implementation of [`Variant`].
/// Dereferences to the game, for its own helpers.
pub struct Pipeline<H>(pub H);

impl<H> std::ops::Deref for Pipeline<H> {
    type Target = H;
    fn deref(&self) -> &H {
        &self.0
    }
}

impl<H: Hooks> Variant for Pipeline<H> {
    fn rules(&self) -> &Rules {
        self.0.rules()
    }

    fn named_kinds(&self) -> &'static [(PieceKind, char)] {
        self.0.named_kinds()
    }

    fn legal_moves_checked(&self, pos: &Position, in_check: bool, out: &mut MoveList) {
        movegen::legal(&self.0, pos, in_check, out);
    }

    fn noisy_moves(&self, pos: &Position, in_check: bool, out: &mut MoveList) {
        movegen::legal_noisy(&self.0, pos, in_check, out);
    }

    fn reference_moves(&self, pos: &Position) -> Vec<Move> {
        movegen::reference::legal(&self.0, pos)
    }

    fn play(&self, pos: &Position, m: Move) -> Position {
        movegen::play(&self.0, pos, m)
    }

    fn in_check(&self, pos: &Position) -> bool {
        self.0.in_check(pos, Method::Fast)
    }

    fn exposes_royal(&self, before: &Position, m: Move, after: &Position) -> bool {
        self.0.exposed(before, m, after, Method::Reference)
    }

    fn attacked(
        &self,
        pos: &Position,
        sq: Square,
        defender: Color,
        occupied: crate::core::Bitboard,
    ) -> bool {
        let attackers = self.0.attackers(pos, defender) & occupied;
        self.0.attacked(pos, sq, occupied, attackers, Method::Fast)
    }

    fn point_of_view(&self, pos: &Position) -> Color {
        self.0.point_of_view(pos)
    }

    fn parse_fen(&self, fen: &str) -> Result<Position, FenError> {
        let rules = self.0.rules();
        let setup = Setup::parse(rules, fen)?;
        let mut pos = Position::from_setup(rules, &setup)?;
        self.0.read_turn(&setup, &mut pos)?;
        if pos.turn() == Color::Neutral {
            // A third party's turn leaves the players' ply, which follows the player it hands
            // the move to (a White move, then Nature, makes an odd ply).
            pos.set_ply(crate::board::fen::players_ply(
                pos.fullmove(),
                self.0.point_of_view(&pos),
            ));
        }
        if !setup.ep.is_empty() {
            self.0.read_en_passant(&mut pos, &setup.ep)?;
        }
        self.0.validate(&pos)?;
        Ok(pos)
    }

    fn fen(&self, pos: &Position) -> String {
        let mut fen = pos.to_fen(self.0.rules());
        if let Some(field) = self.0.write_turn(pos) {
            fen.push(' ');
            fen.push_str(&field);
        }
        fen
    }

    fn move_text(&self, m: Move, dialect: Dialect) -> String {
        match m.kind() {
            MoveKind::Special(_) => self.0.special_text(m, dialect),
            _ => notation::core_move_text(self.0.rules(), dialect, m),
        }
    }

    fn xboard_carries(&self, pos: &Position, m: Move) -> bool {
        self.0.xboard_carries(pos, m)
    }

    fn xboard_paths(&self, pos: &Position, m: Move) -> Vec<Vec<Square>> {
        self.0.xboard_paths(pos, m)
    }

    fn xboard_text(&self, pos: &Position, m: Move) -> Option<String> {
        self.0.xboard_text(pos, m)
    }

    fn xboard_hidden(&self) -> crate::core::Bitboard {
        self.0.xboard_hidden()
    }

    fn is_noisy(&self, pos: &Position, m: Move) -> bool {
        self.0.is_noisy(pos, m)
    }

    fn material_gain(&self, pos: &Position, m: Move, value: &dyn Fn(PieceKind) -> i32) -> i32 {
        self.0.material_gain(pos, m, value)
    }

    fn evaluate_extra(&self, pos: &Position) -> i32 {
        self.0.evaluate_extra(pos)
    }

    fn null_move_allowed(&self) -> bool {
        self.0.null_move_allowed()
    }

    fn reductions_allowed(&self) -> bool {
        self.0.reductions_allowed()
    }

    fn repetition_window(&self, pos: &Position) -> usize {
        self.0.repetition_window(pos)
    }

    fn bench_depth(&self) -> u32 {
        self.0.bench_depth()
    }

    fn bench_positions(&self) -> &'static [&'static str] {
        self.0.bench_positions()
    }

    fn insufficient_material(&self, pos: &Position) -> bool {
        self.0.insufficient_material(pos)
    }

    fn outcome(&self, pos: &Position, legal_count: usize, history: &[u64]) -> Option<Outcome> {
        self.0.outcome(pos, legal_count, history)
    }

    fn describe_state(&self, pos: &Position, sq: Square) -> Vec<String> {
        self.0.describe_state(pos, sq)
    }

    fn legend_notes(&self) -> &'static [(char, &'static str)] {
        self.0.legend_notes()
    }

    fn describe_turn(&self, pos: &Position) -> Vec<String> {
        self.0.describe_turn(pos)
    }

    fn neutral_name(&self) -> &'static str {
        self.0.neutral_name()
    }
}

/// Every game gives notation what reading and writing move text needs.
impl<V: Variant + ?Sized> notation::MoveSource for V {
    fn rules(&self) -> &Rules {
        Variant::rules(self)
    }

    fn legal_moves(&self, pos: &Position, out: &mut MoveList) {
        Variant::legal_moves(self, pos, out)
    }

    fn move_text(&self, m: Move, dialect: Dialect) -> String {
        Variant::move_text(self, m, dialect)
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
    ALL.get_or_init(|| REGISTRY.iter().map(|(_, get)| get()).collect())
}

/// Builds (once) and returns a registered variant.
type Builder = fn() -> &'static dyn Variant;

/// Every registered variant's name with the function that builds it, in the order
/// `menagerie variants` lists them. A variant's tables are compiled when it is first asked for,
/// so a process that plays one game compiles only that one.
const REGISTRY: &[(&str, Builder)] = &[
    ("chess", || chess::get()),
    ("divergent", || divergent::get()),
    ("magician", || magician::get()),
    ("schizophrenic", || schizophrenic::get()),
    ("existentialist", || existentialist::get()),
    ("afterlife", || afterlife::get()),
    ("afterlife-optional-limbo", || {
        afterlife::get_optional_limbo()
    }),
    ("chaos", || chaos::get()),
];

/// The variant with this name (CECP's `normal` is chess).
pub fn by_name(name: &str) -> Result<&'static dyn Variant, UnknownVariant> {
    let name = if name == "normal" { "chess" } else { name };
    REGISTRY
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, get)| get())
        .ok_or_else(|| UnknownVariant(name.to_string()))
}

#[cfg(test)]
mod tests;
