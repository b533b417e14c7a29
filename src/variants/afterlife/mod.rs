//! Afterlife Chess (Luiz Carlos Campos, 2002): four boards on one 11x7 rectangle with holes (the
//! World, the Hall of Truth, Limbo and the Twelve Hours of the Night), grey pieces either player
//! moves, captures of one's own pieces, and an afterlife the captured pieces travel through. A
//! side loses when its Pharaoh Ceases to Exist; there is no check.
//!
//! Ordinary movement is data: the boards bound every leap and ride (`Geometry::with_board`), and
//! the shared generator moves the pieces `rights` names (own pieces, the grey ones, enemy Slaves
//! beside one's Pharaoh) in the mover's direction. The module's hooks hold the rest:
//!
//! - `moves`: who moves what, movement in the Hall of Truth and Reincarnation;
//! - `turn`: one move is a whole turn (RULINGS §10 item 3): the move and its transfers, the free
//!   Sethling step, the Destiny of the mover's piece in Limbo, Redemption; its packing into a
//!   move and its text;
//! - `score`: evaluation and material for the search.
//!
//! `docs/rules/afterlife.md` restates the rules with their RULINGS items.

mod moves;
mod score;
mod turn;

use super::san::SanShape;
use super::switches::GameTerm;
use super::{Bench, GameModule, Presentation, SearchSwitches};
use super::{EndReason, Hooks, Outcome, Pipeline, Rights, Shortcuts};
use crate::board::{Effects, FenError, PieceFlags, Position, PositionError};
use crate::core::{Bitboard, Color, Geometry, Move, MoveList, PieceKind, Special, Square};
use crate::movegen::Method;
use crate::notation::Dialect;
use crate::rules::{PieceSpec, RuleSpec, Rules, StateSpec};
use std::sync::OnceLock;

/// The Pharaoh.
pub const PHARAOH: PieceKind = PieceKind(0);
/// The High Priest.
pub const PRIEST: PieceKind = PieceKind(1);
/// The Warrior.
pub const WARRIOR: PieceKind = PieceKind(2);
/// The Slave.
pub const SLAVE: PieceKind = PieceKind(3);
/// The Chariot (a promoted Warrior).
pub const CHARIOT: PieceKind = PieceKind(4);
/// The Freed Slave.
pub const FREED: PieceKind = PieceKind(5);
/// The Mercenary (grey).
pub const MERCENARY: PieceKind = PieceKind(6);
/// The Sethling (grey).
pub const SETHLING: PieceKind = PieceKind(7);

/// The kinds this module names, with their letters.
const NAMED: &[(PieceKind, char)] = &[
    (PHARAOH, 'P'),
    (PRIEST, 'H'),
    (WARRIOR, 'W'),
    (SLAVE, 'S'),
    (CHARIOT, 'C'),
    (FREED, 'F'),
    (MERCENARY, 'M'),
    (SETHLING, 'E'),
];

/// A Pharaoh, Warrior or Chariot that captured during its current stay in the World (FEN `x`,
/// RULINGS §10 item 5).
pub const CAPTURED: PieceFlags = PieceFlags::bit(0);

/// The start position (RULINGS §10 item 1).
pub const START_FEN: &str =
    "wphw*1*****/ssss*******/4*1*****/1_M_M1*1*****/4*1*_E**_E/SSSS*1*4/WHPW*1*_E**_E w - - 0 1";

/// A position from a game, with pieces in Limbo, the Hall and the Twelve Hours, for `bench`.
const BENCH_MIDGAME: &str =
    "1phw*1*****/s1ss*******/4*1*****/1_Mw{x}1*1*****/S3*1*1**F/1W{x}SS*1*_E2_E/1H1P{x}*1*_E**_E b - - 0 4";

/// A square by file and rank from zero.
const fn sq(file: u8, rank: u8) -> Square {
    match Square::new(file, rank) {
        Some(s) => s,
        None => panic!("inside the index space"),
    }
}

/// The Hall of Truth's Entrance (H1), where arrivals are dropped.
pub const H1: Square = sq(5, 0);
/// The Feather of Ma'at (H5), from which a piece may reincarnate.
pub const H5: Square = sq(5, 4);
/// Limbo.
pub const LIMBO: Square = sq(5, 6);
/// The Twelve Hours, in the order their Destiny numbers them: h1 h2 h3 i2 j2 k1 k2 k3.
pub const TWELVE: [Square; 8] = [
    sq(7, 0),
    sq(7, 1),
    sq(7, 2),
    sq(8, 1),
    sq(9, 1),
    sq(10, 0),
    sq(10, 1),
    sq(10, 2),
];
/// Where Redemption puts the Sethlings back: h1 h3 k1 k3.
pub const SETHLING_HOMES: [Square; 4] = [sq(7, 0), sq(7, 2), sq(10, 0), sq(10, 2)];

/// The squares of files `files` and ranks `ranks` (both from zero, end excluded).
const fn area(files: (u8, u8), ranks: (u8, u8)) -> Bitboard {
    let mut bits = 0u128;
    let mut f = files.0;
    while f < files.1 {
        let mut r = ranks.0;
        while r < ranks.1 {
            bits |= Bitboard::from_square(sq(f, r)).0;
            r += 1;
        }
        f += 1;
    }
    Bitboard(bits)
}

/// The World: a1-d7.
pub const WORLD: Bitboard = area((0, 4), (0, 7));
/// The Hall of Truth: f1-f5.
pub const HALL: Bitboard = area((5, 6), (0, 5));
/// The Twelve Hours.
pub const TWELVE_HOURS: Bitboard = {
    let mut bits = 0u128;
    let mut i = 0;
    while i < TWELVE.len() {
        bits |= Bitboard::from_square(TWELVE[i]).0;
        i += 1;
    }
    Bitboard(bits)
};

/// Material values by kind (the order of the constants above), in centipawns.
pub const VALUES: [i32; 8] = [500, 350, 400, 100, 450, 150, 100, 100];

/// The board (RULINGS §10 item 1): one 11x7 rectangle whose other squares are holes.
fn geometry() -> Geometry {
    let limbo = Bitboard::from_square(LIMBO);
    let playable = WORLD | HALL | limbo | TWELVE_HOURS;
    let rect = Geometry::rectangle(11, 7).expect("11x7 is a valid board");
    let holes = rect.board() & !playable;
    rect.with_holes(holes)
        .and_then(|g| g.with_board("World", WORLD))
        .and_then(|g| g.with_board("Hall of Truth", HALL))
        .and_then(|g| g.with_board("Limbo", limbo))
        .and_then(|g| g.with_board("Twelve Hours", TWELVE_HOURS))
        .expect("the Afterlife boards fit the rectangle")
}

/// The rules of Afterlife Chess (RULINGS §3, §10). Kind order: the constants above.
pub fn spec() -> RuleSpec {
    let geometry = geometry();
    let piece = |kind: PieceKind, letter, name, betza| PieceSpec {
        value: VALUES[kind.index()],
        ..PieceSpec::new(letter, name, betza)
    };
    // Promotions happen on the World's last rank only (a Warrior in the Twelve Hours stays one).
    let last_rank = |rank: u8| -> Bitboard { WORLD & area((0, 11), (rank, rank + 1)) };
    RuleSpec {
        name: "afterlife",
        description:
            "four boards, grey pieces, Limbo, Destiny and Reincarnation (Luiz Carlos Campos, 2002)",
        pieces: vec![
            // Not royal: a side loses when its Pharaoh Ceases to Exist (§3.2, §3.6).
            piece(PHARAOH, 'P', "pharaoh", "K"),
            piece(PRIEST, 'H', "high priest", "FAD"),
            PieceSpec {
                promotes_to: "C",
                ..piece(WARRIOR, 'W', "warrior", "NF")
            },
            // §3.4 item 5: the two-step from the Slave rank of the player moving it, with e.p.
            PieceSpec {
                en_passant: true,
                pawn: true,
                promotes_to: "F",
                initial_ranks: &[1],
                ..piece(SLAVE, 'S', "slave", "fmWfcFifmnD")
            },
            piece(CHARIOT, 'C', "chariot", "R"),
            piece(FREED, 'F', "freed slave", "W"),
            // Grey: forward for the player moving it; enslaved on an army's first rank.
            PieceSpec {
                promotes_to: "S",
                neutral: true,
                ..piece(MERCENARY, 'M', "mercenary", "fW")
            },
            PieceSpec {
                neutral: true,
                ..piece(SETHLING, 'E', "sethling", "W")
            },
        ],
        templates: Vec::new(),
        start_fen: START_FEN,
        castling: Vec::new(),
        promotion_zone: crate::core::ByColor([last_rank(6), last_rank(0), Bitboard::EMPTY]),
        drop_zone: RuleSpec::whole_board(&geometry),
        fifty_move_plies: 100,
        repetition_count: 3,
        state: StateSpec {
            flags: &['x'],
            spells: &[],
        },
        xboard_builtin: None,
        geometry,
    }
}

/// Notes for the legend: what the movement notation does not say (RULINGS §3, §10).
const LEGEND: &[(char, &str)] = &[
    (' ', "Four boards: the World (a1-d7), Limbo (f7), the Hall of Truth (f1-f5, H1 the Entrance, H5 the Feather of Ma'at) and the Twelve Hours of the Night (h1-k3). A move never leaves its board; captures and Destiny join them."),
    (' ', "Everyone captures everyone: a piece may capture its own side's pieces too; grey pieces capture White and Black pieces but never grey ones. There is no check: a side loses when its Pharaoh Ceases to Exist."),
    (' ', "A White or Black piece captured in the World goes to Limbo (a Chariot as a Warrior, a Slave as a Freed Slave), destroying what waits there. Captured anywhere else it Ceases to Exist."),
    (' ', "Destiny: a piece leaves Limbo at the end of its owner's first turn that begins with it there (unless something arrives in Limbo that turn). A High Priest, or a Pharaoh or Warrior marked {x}, goes to H1; the others go to an empty Twelve Hours square of the owner's choice, or Cease to Exist when none is empty."),
    (' ', "Free Sethling step: when the mover has no White or Black piece in the Twelve Hours and the opponent has one, the turn may add one Sethling step (the second click pair after the move). Redemption: a lone White or Black piece in the Twelve Hours goes to H1 and four Sethlings return to h1, h3, k1, k3."),
    (' ', "One move is a whole turn: the move, then the free step (+h1h2), then the Destiny (/F@j2, /H@f1, or /P@- when it Ceases to Exist)."),
    ('P', "Not royal: it may be captured; captured in the World it goes to Limbo. {x}: it captured in the World during this stay, so its Destiny is the Hall (H1)."),
    ('H', "Never enters the Twelve Hours; its Destiny is always the Hall (H1). In the Hall it also moves by the two-square jump."),
    ('W', "Becomes a Chariot on its last World rank. {x}: it captured in the World during this stay, so its Destiny is the Hall (H1)."),
    ('S', "A Slave a king's step from a Pharaoh may also be moved by that Pharaoh's player, forward for him. Freed on the mover's last rank; captured, it goes to Limbo as a Freed Slave."),
    ('C', "Captured, it goes to Limbo as a Warrior (keeping {x})."),
    ('F', "From the Feather (H5) it reincarnates as a Slave, never on its last rank."),
    ('M', "Grey: either player moves it, one step forward for that player; on rank 1 it becomes a White Slave, on rank 7 a Black one. Captured, it is removed."),
    ('E', "Grey: either player moves it, in the Twelve Hours only."),
];

/// The state labels of the piece on `sq` (see `Presentation::describe_state`), each a short badge and
/// after `: ` what it means.
fn describe(pos: &Position, sq: Square, optional_limbo: bool) -> Vec<String> {
    let piece = pos.piece_at(sq);
    let mut out = Vec::new();
    if piece.is_none() || piece.color() == Color::Neutral {
        return out;
    }
    let marked = pos.state(sq).flags.contains(CAPTURED);
    let kind = piece.kind();
    let owner = piece.color();
    let name = |c: Color| if c == Color::Black { "Black" } else { "White" };
    if sq == LIMBO {
        out.push(if kind == PRIEST {
            "to H1: a High Priest's Destiny is the Hall".to_string()
        } else if marked {
            "{x} to H1: captured during its stay, so its Destiny is the Hall".to_string()
        } else {
            "to the Twelve Hours: its Destiny is an empty Twelve Hours square of its owner's \
             choice, or it Ceases to Exist when none is empty"
                .to_string()
        });
        let (badge, verb) = if optional_limbo {
            ("may leave", "may leave")
        } else {
            ("leaves", "leaves")
        };
        out.push(if pos.turn() == owner {
            format!("{badge} now: it {verb} Limbo at the end of this turn")
        } else {
            format!(
                "waits: it {verb} Limbo at the end of {}'s next turn",
                name(owner)
            )
        });
        return out;
    }
    if marked {
        out.push("{x}: captured this stay: its Destiny is the Hall".to_string());
    }
    if sq == H5 && kind != PRIEST {
        out.push(
            "reincarnates: on the Feather, it may enter an empty World square as a turn".into(),
        );
    }
    let other = owner.opponent();
    if kind == SLAVE && moves::slaves_of(pos, other).contains(sq) {
        out.push(format!(
            "{} too: beside {}'s Pharaoh, {} may move it as his own",
            name(other),
            name(other),
            name(other)
        ));
    }
    out
}

/// Afterlife Chess.
pub struct Afterlife {
    rules: Rules,
    /// §3.4 item 1's optional Limbo: the owner may leave its piece in Limbo (RULINGS §10 item 4).
    optional_limbo: bool,
}

/// The registered instance.
pub fn get() -> &'static Pipeline<Afterlife> {
    static AFTERLIFE_VARIANT: OnceLock<Pipeline<Afterlife>> = OnceLock::new();
    AFTERLIFE_VARIANT.get_or_init(|| {
        Pipeline(Afterlife {
            rules: Rules::compile(spec()).expect("the afterlife spec compiles"),
            optional_limbo: false,
        })
    })
}

/// The same game with §3.4 item 1's optional Limbo on: a piece in Limbo may stay there.
pub fn get_optional_limbo() -> &'static Pipeline<Afterlife> {
    static OPTIONAL_LIMBO_VARIANT: OnceLock<Pipeline<Afterlife>> = OnceLock::new();
    OPTIONAL_LIMBO_VARIANT.get_or_init(|| {
        let spec = RuleSpec {
            name: "afterlife-optional-limbo",
            description: "Afterlife Chess where a piece in Limbo may wait for a later turn",
            ..spec()
        };
        Pipeline(Afterlife {
            rules: Rules::compile(spec).expect("the afterlife spec compiles"),
            optional_limbo: true,
        })
    })
}

impl GameModule for Afterlife {
    const SPECIALS: &'static [(Special, &'static str)] = turn::SPECIALS;

    const NAMED_KINDS: &'static [(PieceKind, char)] = NAMED;

    const BENCH: Bench = Bench {
        depth: 6,
        positions: &[START_FEN, BENCH_MIDGAME],
    };
}

impl Hooks for Afterlife {
    fn rules(&self) -> &Rules {
        &self.rules
    }

    fn rights(&self, pos: &Position, _in_check: bool) -> Rights {
        moves::rights(pos)
    }

    /// No Pharaoh is royal: nothing is ever exposed, and every move the rules allow is legal.
    fn shortcuts(&self, _pos: &Position, _in_check: bool) -> Shortcuts {
        Shortcuts {
            safe: Bitboard::ALL,
            every_move: true,
            ..Shortcuts::NONE
        }
    }

    fn exposed(&self, _before: &Position, _m: Move, _after: &Position, _how: Method) -> bool {
        false
    }

    fn in_check(&self, _pos: &Position, _how: Method) -> bool {
        false
    }

    /// Movement in the Hall of Truth and Reincarnation, as the first parts of turns.
    fn extra_moves(&self, pos: &Position, _in_check: bool, out: &mut MoveList) {
        moves::hall_and_reincarnation(pos, out);
    }

    fn turns_have_parts(&self) -> bool {
        true
    }

    fn complete_turns(&self, pos: &Position, out: &mut MoveList) {
        turn::complete(self, pos, out);
    }

    /// The turns by making each part, each free step and Redemption on copies of the position.
    fn reference_complete_turns(&self, pos: &Position, parts: &[Move], out: &mut Vec<Move>) {
        turn::complete_by_making(self, pos, parts, out);
    }

    fn apply_special(&self, before: &Position, m: Move, after: &mut Position) -> Effects {
        turn::apply(before, m, after)
    }

    fn read_en_passant(&self, pos: &mut Position, targets: &[Square]) -> Result<(), FenError> {
        moves::read_en_passant(pos, targets)
    }

    fn is_noisy(&self, pos: &Position, m: Move) -> bool {
        turn::is_noisy(pos, m)
    }

    fn material_gain(&self, pos: &Position, m: Move, value: &dyn Fn(PieceKind) -> i32) -> i32 {
        score::material_gain(pos, m, value)
    }

    fn validate(&self, pos: &Position) -> Result<(), PositionError> {
        moves::validate(pos)
    }

    /// A side whose Pharaoh no longer exists has lost; both gone is a draw (RULINGS §3.6, §10
    /// item 3). Otherwise FIDE's ends: no legal move draws (§3.4 item 13).
    fn outcome(&self, pos: &Position, legal_count: usize, history: &[u64]) -> Option<Outcome> {
        let alive = |c: Color| pos.pieces(c, PHARAOH).nonempty();
        match (alive(Color::White), alive(Color::Black)) {
            (true, true) => crate::movegen::fide_outcome(self, pos, legal_count, history),
            (false, false) => Some(Outcome::Draw {
                reason: EndReason::Variant("both Pharaohs ceased to exist"),
            }),
            (white, _) => Some(Outcome::Win {
                winner: if white { Color::White } else { Color::Black },
                reason: EndReason::Variant("a Pharaoh ceased to exist"),
            }),
        }
    }
}

impl SearchSwitches for Afterlife {
    fn eval_terms(&self) -> &'static [GameTerm] {
        score::TERMS
    }

    fn eval_features(&self, pos: &Position, out: &mut [i32]) {
        score::features(pos, out)
    }

    /// Off: a capture does not simply remove its victim's value. Grey pieces may be captured by
    /// either player (a self-capture), and a captured piece travels on through the afterlife
    /// and may come back.
    fn see_sound(&self) -> bool {
        false
    }

    /// Off: no gain measured (self-play at 5,000 nodes, 200 games each: +14.9 here and -17.4
    /// with optional Limbo, docs/performance.md). A guess at the cause: a capture's worth
    /// depends on where its victim travels next, which neither the mover nor the victim's kind
    /// tells.
    fn capture_history(&self) -> bool {
        false
    }
}

impl Presentation for Afterlife {
    /// A turn's parts joined by `/`: the first part (`Wxc5`, a Reincarnation `W@c3`), the free
    /// Sethling step (`Sh1-h2`) and the Destiny of the piece in Limbo (`F@j2`, `H@f1`, `P@-`)
    /// (`docs/protocol.md`, "SAN").
    fn san_shape(&self, rules: &Rules, pos: &Position, m: Move) -> Option<SanShape> {
        Some(turn::san_shape(rules, pos, m))
    }

    fn special_text(&self, m: Move, dialect: Dialect) -> String {
        turn::text(&self.rules, m, dialect)
    }

    fn xboard_text(&self, pos: &Position, m: Move) -> Option<String> {
        let mut turns = MoveList::new();
        crate::movegen::legal(self, pos, false, &mut turns);
        turn::xboard_text(&self.rules, turns.as_slice(), m)
    }

    /// XBoard cannot show arrivals in Limbo, the Hall or the Twelve Hours.
    fn xboard_hidden(&self) -> Bitboard {
        !WORLD
    }

    fn neutral_name(&self) -> &'static str {
        "Grey"
    }

    /// In the game's words: `{x}` and the Destiny it gives, when and where a piece leaves Limbo,
    /// a piece on the Feather that may reincarnate, a Slave the other player may move (RULINGS
    /// §3.3, §3.4 items 6 and 8, §10 items 4-6).
    fn describe_state(&self, _rules: &Rules, pos: &Position, sq: Square) -> Vec<String> {
        describe(pos, sq, self.optional_limbo)
    }

    fn legend_notes(&self) -> &'static [(char, &'static str)] {
        LEGEND
    }
}

#[cfg(test)]
mod tests;
