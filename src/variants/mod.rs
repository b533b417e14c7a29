//! The games, the variant facade and the registry. A game module implements [`GameModule`]:
//! its rules as [`Hooks`] on the shared pipeline (over defaults that are the FIDE rules), its
//! [`SearchSwitches`] and [`Presentation`], and plain data (named kinds, its own move kinds,
//! bench positions). [`Pipeline`] runs the shared pipeline with those hooks and is what the rest
//! of the engine sees, as `&dyn Variant`.

pub mod afterlife;
pub mod chaos;
pub mod chess;
pub mod divergent;
pub mod existentialist;
pub mod magician;
pub mod presentation;
pub mod san;
pub mod schizophrenic;
pub mod short;
pub mod switches;

pub use crate::movegen::{EndReason, Hooks, Outcome, Rights, Rulings, Shortcuts};
pub use presentation::Presentation;
pub use switches::SearchSwitches;

use crate::board::{FenError, Position, Setup};
use crate::core::{Bitboard, Color, Move, MoveKind, MoveList, PieceKind, Special, Square};
use crate::movegen::{self, Method};
use crate::notation::{self, Dialect};
use crate::rules::Rules;
use std::fmt;
use std::sync::OnceLock;

/// What `menagerie bench` searches in a game: plain data each game module may set
/// (`GameModule::BENCH`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bench {
    /// The depth when none is given.
    pub depth: u32,
    /// The positions, as FEN; empty: the start position.
    pub positions: &'static [&'static str],
}

impl Bench {
    /// The depth of `menagerie bench` for a game that sets none.
    pub const DEFAULT_DEPTH: u32 = 9;

    /// The start position to the default depth.
    pub const START: Bench = Bench {
        depth: Bench::DEFAULT_DEPTH,
        positions: &[],
    };
}

/// Everything a game module gives the registry: its rules as hooks on the pipeline
/// ([`Hooks`], in `crate::movegen`), the search's switches ([`SearchSwitches`]), its
/// presentation ([`Presentation`]), and plain data. A game writes only what it changes; the
/// smallest game writes `Hooks::rules`, empty impls of the other two traits, and its named
/// kinds (see `divergent.rs`).
pub trait GameModule: Hooks + SearchSwitches + Presentation + Sized + 'static {
    /// Kinds the game's module names, with their letters; a registry test checks them against
    /// the catalogue (`Rules::check_named`). Default: none.
    const NAMED_KINDS: &'static [(PieceKind, char)] = &[];

    /// The game's own move kinds (`MoveKind::Special`), each with its name, declared once with
    /// `special_kinds!` so that two of them cannot share a code; a registry test checks that
    /// every special move the game makes is one of them. Default: none.
    const SPECIALS: &'static [(Special, &'static str)] = &[];

    /// What `menagerie bench` searches. Default: the start position to `Bench::DEFAULT_DEPTH`.
    const BENCH: Bench = Bench::START;
}

/// A game as the engine sees it: the operations of the shared pipeline run with the game's
/// hooks, and the game's concerns handed out whole (`rulings`, `switches`, `presentation`), so a
/// new hook is written once, in its trait, and called through them. Object safe, so protocols,
/// the search and the runner hold `&dyn Variant`.
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

    // ---- The game's concerns ----

    /// What the search, the game record and the referee ask of the game's rules beyond the
    /// operations below (`outcome`, `point_of_view`, `is_noisy`, `material_gain`,
    /// `repetition_window`), answered by its hooks (`movegen::Rulings`).
    fn rulings(&self) -> &dyn Rulings;

    /// The search's switches for the game.
    fn switches(&self) -> &dyn SearchSwitches;

    /// The game's move text, XBoard texts and the browser board's labels.
    fn presentation(&self) -> &dyn Presentation;

    /// Kinds the game's module names, with their letters (`GameModule::NAMED_KINDS`).
    fn named_kinds(&self) -> &'static [(PieceKind, char)];

    /// The game's own move kinds with their names (`GameModule::SPECIALS`).
    fn specials(&self) -> &'static [(Special, &'static str)];

    /// What `menagerie bench` searches (`GameModule::BENCH`).
    fn bench(&self) -> Bench;

    // ---- The pipeline ----

    /// Legal moves of the side to move.
    fn legal_moves(&self, pos: &Position, out: &mut MoveList) {
        self.legal_moves_checked(pos, self.in_check(pos), out);
    }

    /// Legal moves when whether the side to move is in check is already known (the search
    /// works it out for the child it is about to enter).
    fn legal_moves_checked(&self, pos: &Position, in_check: bool, out: &mut MoveList);

    /// The number of legal moves of the side to move (perft's last ply): `legal_moves`'s
    /// length, counted without listing where the game allows (`Hooks::counts_in_bulk`).
    fn legal_count(&self, pos: &Position) -> usize {
        self.legal_count_with(pos, &mut MoveList::new())
    }

    /// `legal_count` with `scratch` as a list the count may use and leaves in any state, so
    /// that a caller counting many positions fills one list once.
    fn legal_count_with(&self, pos: &Position, scratch: &mut MoveList) -> usize {
        scratch.clear();
        self.legal_moves(pos, scratch);
        scratch.len()
    }

    /// The legal moves that change material (what quiescence searches): the legal moves for
    /// which `Hooks::is_noisy` holds.
    fn noisy_moves(&self, pos: &Position, in_check: bool, out: &mut MoveList);

    /// Legal moves by the slow reference generator; tests compare it with `legal_moves`.
    fn reference_moves(&self, pos: &Position) -> Vec<Move>;

    /// The position after a legal move.
    fn play(&self, pos: &Position, m: Move) -> Position;

    /// `play` written over `next`, whatever it held: one copy of the position fewer, for the
    /// loops that make one move after another (perft, the search).
    fn play_into(&self, pos: &Position, m: Move, next: &mut Position);

    /// The position after `m`, in `slot`: written over the one a move before left there
    /// (`play_into`), or a new one the first time. A loop over a node's moves copies the
    /// position once a move this way, not twice.
    fn play_in<'a>(&self, pos: &Position, m: Move, slot: &'a mut Option<Position>) -> &'a Position;

    /// Whether the side to move is in check.
    fn in_check(&self, pos: &Position) -> bool;

    /// Whether the move `m` from `before` to `after` left a royal piece of the mover exposed,
    /// judged with the slow reference attack test (for tests).
    fn exposes_royal(&self, before: &Position, m: Move, after: &Position) -> bool;

    /// Whether the side to move is in check with the legality shortcuts for it, found together
    /// (`Hooks::check_and_shortcuts`) and found apart (`Hooks::in_check`, then
    /// `Hooks::shortcuts`), for tests.
    #[cfg(test)]
    fn check_and_shortcuts_both_ways(&self, pos: &Position) -> [(bool, movegen::Shortcuts); 2];

    /// Whether the pieces that threaten `defender` attack `sq` with `occupied` as blockers.
    fn attacked(&self, pos: &Position, sq: Square, defender: Color, occupied: Bitboard) -> bool;

    /// Whether the pieces of `subset` among those that threaten `defender` attack `sq` with
    /// `occupied` as blockers (static exchange evaluation looks for the least valuable one).
    fn attacked_by(
        &self,
        pos: &Position,
        sq: Square,
        defender: Color,
        occupied: Bitboard,
        subset: Bitboard,
    ) -> bool;

    /// Parses and checks a FEN.
    fn parse_fen(&self, fen: &str) -> Result<Position, FenError>;

    /// The FEN of a position.
    fn fen(&self, pos: &Position) -> String;

    /// The start position.
    fn start_position(&self) -> Position {
        self.parse_fen(self.rules().spec.start_fen)
            .expect("the start FEN of every registered variant is valid")
    }

    /// A move's text in `dialect` (`crate::notation`): the core kinds' text, or the game's
    /// (`Presentation::special_text`).
    fn move_text(&self, m: Move, dialect: Dialect) -> String;
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

impl<H: GameModule> Variant for Pipeline<H> {
    fn rules(&self) -> &Rules {
        self.0.rules()
    }

    fn rulings(&self) -> &dyn Rulings {
        &self.0
    }

    fn switches(&self) -> &dyn SearchSwitches {
        &self.0
    }

    fn presentation(&self) -> &dyn Presentation {
        &self.0
    }

    fn named_kinds(&self) -> &'static [(PieceKind, char)] {
        H::NAMED_KINDS
    }

    fn specials(&self) -> &'static [(Special, &'static str)] {
        H::SPECIALS
    }

    fn bench(&self) -> Bench {
        H::BENCH
    }

    fn legal_moves(&self, pos: &Position, out: &mut MoveList) {
        movegen::legal_here(&self.0, pos, out);
    }

    fn legal_moves_checked(&self, pos: &Position, in_check: bool, out: &mut MoveList) {
        movegen::legal(&self.0, pos, in_check, out);
    }

    fn legal_count_with(&self, pos: &Position, scratch: &mut MoveList) -> usize {
        movegen::legal_count_here(&self.0, pos, scratch)
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

    fn play_into(&self, pos: &Position, m: Move, next: &mut Position) {
        movegen::play_into(&self.0, pos, m, next);
    }

    fn play_in<'a>(&self, pos: &Position, m: Move, slot: &'a mut Option<Position>) -> &'a Position {
        movegen::play_in(&self.0, pos, m, slot)
    }

    fn in_check(&self, pos: &Position) -> bool {
        self.0.in_check(pos, Method::Fast)
    }

    fn exposes_royal(&self, before: &Position, m: Move, after: &Position) -> bool {
        self.0.exposed(before, m, after, Method::Reference)
    }

    #[cfg(test)]
    fn check_and_shortcuts_both_ways(&self, pos: &Position) -> [(bool, movegen::Shortcuts); 2] {
        let in_check = self.0.in_check(pos, Method::Fast);
        [
            self.0.check_and_shortcuts(pos),
            (in_check, self.0.shortcuts(pos, in_check)),
        ]
    }

    fn attacked(&self, pos: &Position, sq: Square, defender: Color, occupied: Bitboard) -> bool {
        let attackers = self.0.attackers(pos, defender) & occupied;
        self.0.attacked(pos, sq, occupied, attackers, Method::Fast)
    }

    fn attacked_by(
        &self,
        pos: &Position,
        sq: Square,
        defender: Color,
        occupied: Bitboard,
        subset: Bitboard,
    ) -> bool {
        let attackers = self.0.attackers(pos, defender) & occupied & subset;
        attackers.nonempty() && self.0.attacked(pos, sq, occupied, attackers, Method::Fast)
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
        let names: Vec<&str> = names().collect();
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
    ALL.get_or_init(|| REGISTRY.iter().map(|r| (r.build)()).collect())
}

/// Every registered variant's name, in the order `menagerie variants` lists them, without
/// compiling any of them.
pub fn names() -> impl Iterator<Item = &'static str> {
    REGISTRY.iter().map(|r| r.name)
}

/// Every registered variant's name as CECP's `feature variants` offers it (`normal` for chess,
/// `Spec::xboard_builtin`), in the same order, without compiling any of them.
pub fn xboard_names() -> impl Iterator<Item = &'static str> {
    REGISTRY.iter().map(|r| r.xboard.unwrap_or(r.name))
}

/// A registered variant: its name, its CECP built-in name where XBoard knows the game (which
/// its spec repeats, checked by a test), and the function that builds it (once) and returns it.
struct Registered {
    name: &'static str,
    xboard: Option<&'static str>,
    build: fn() -> &'static dyn Variant,
}

/// Every registered variant, in the order `menagerie variants` lists them. A variant's tables
/// are compiled when it is first asked for, so a process that plays one game compiles only that
/// one: the protocols' greetings list the names from here.
const REGISTRY: &[Registered] = &[
    Registered {
        name: "chess",
        xboard: Some("normal"),
        build: || chess::get(),
    },
    Registered {
        name: "divergent",
        xboard: None,
        build: || divergent::get(),
    },
    Registered {
        name: "magician",
        xboard: None,
        build: || magician::get(),
    },
    Registered {
        name: "schizophrenic",
        xboard: None,
        build: || schizophrenic::get(),
    },
    Registered {
        name: "existentialist",
        xboard: None,
        build: || existentialist::get(),
    },
    Registered {
        name: "afterlife",
        xboard: None,
        build: || afterlife::get(),
    },
    Registered {
        name: "afterlife-optional-limbo",
        xboard: None,
        build: || afterlife::get_optional_limbo(),
    },
    Registered {
        name: "chaos",
        xboard: None,
        build: || chaos::get(),
    },
];

/// The variant with this name (CECP's `normal` is chess).
pub fn by_name(name: &str) -> Result<&'static dyn Variant, UnknownVariant> {
    let name = if name == "normal" { "chess" } else { name };
    REGISTRY
        .iter()
        .find(|r| r.name == name)
        .map(|r| (r.build)())
        .ok_or_else(|| UnknownVariant(name.to_string()))
}

#[cfg(test)]
pub(crate) mod tests;
