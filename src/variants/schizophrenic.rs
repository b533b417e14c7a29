//! Schizophrenic Chess (David Short, 2002): 12x7, with Crabs, Teleporters that may explode on
//! their own first rank, Schizzies whose powers depend on their file, a Bobber whose range grows,
//! and a King that castles with Squires and may teleport home once. The pieces come from
//! `short`; the hooks here are the King's teleport, the Crab's promotion limits, and attack
//! detection that sees explosions and Bobbers. `docs/rules/schizophrenic.md` cites the RULINGS
//! items.

use super::san::SanShape;
use super::short::{self, BobberRules, TeleporterRules};
use super::switches::GameTerm;
use super::{chess, Hooks, Pipeline, Shortcuts};
use super::{Bench, GameModule, Presentation, SearchSwitches};
use crate::board::{Effects, PieceFlags, PieceState, Position, PositionError, MAX_STATES};
use crate::core::{Bitboard, Color, Geometry, Move, MoveKind, MoveList, Piece, PieceKind};
use crate::core::{Special, Square};
use crate::movegen::{self, Method};
use crate::notation::{self, Dialect};
use crate::rules::{Direction, PieceSpec, RuleSpec, Rules, StateSpec};
use std::sync::OnceLock;

/// The King.
const KING: PieceKind = PieceKind(0);
/// The Bobber.
const BOBBER: PieceKind = PieceKind(1);
/// The Squire.
const SQUIRE: PieceKind = PieceKind(2);
/// The Teleporter.
const TELEPORTER: PieceKind = PieceKind(5);
/// The Left and Right Schizzies.
const LEFT_SCHIZZY: PieceKind = PieceKind(6);
const RIGHT_SCHIZZY: PieceKind = PieceKind(7);
/// The Queen (by promotion only).
const QUEEN: PieceKind = PieceKind(9);
/// Files of the board's left half, a-f: a Left Schizzy leaps there and is a Queen on the right
/// half, a Right Schizzy the reverse (RULINGS §2.2).
const LEFT_HALF_FILES: u8 = 6;

/// The kinds this module names, with their letters.
const NAMED: &[(PieceKind, char)] = &[
    (KING, 'K'),
    (BOBBER, 'O'),
    (SQUIRE, 'S'),
    (TELEPORTER, 'T'),
    (QUEEN, 'Q'),
];

crate::special_kinds! {
    /// A Teleporter's explosion onto an enemy piece on its own first rank: both pieces are
    /// removed (RULINGS §2.4 item 6). Made by the shared Teleporter (`short::TeleporterRules`).
    pub EXPLODE;
    /// The King's once-per-game teleport to an empty Teleporter home square (RULINGS §2.3): it
    /// differs from a step onto the same square by using the teleport up (§8 item 1).
    pub KING_TELEPORT;
}

/// The King's teleport from `from` to `to` (its text carries the King's letter).
fn king_teleport(from: Square, to: Square) -> Move {
    Move::new(MoveKind::Special(KING_TELEPORT), from, to, None, Some(KING))
}

/// A King whose teleport is used (FEN `t`).
pub const TELEPORT_USED: PieceFlags = PieceFlags::bit(0);

/// Files of the Teleporters' home squares, a and l (RULINGS §2.2).
const HOME_FILES: [u8; 2] = [0, 11];
/// At most this many Squires of a side on the board after a promotion (RULINGS §2.3, §8 item 2).
const MAX_SQUIRES: u32 = 3;
/// At most this many Queens of a side on the board after a promotion.
const MAX_QUEENS: u32 = 1;

const TELEPORTERS: TeleporterRules = TeleporterRules {
    kind: TELEPORTER,
    home_files: &HOME_FILES,
    explosion: Some(EXPLODE),
};
/// The Bobber's range grows to 11, the longest line on twelve files (RULINGS §2.2).
const BOBBERS: BobberRules = BobberRules {
    kind: BOBBER,
    cap: 11,
};

/// The start array (RULINGS §2.1).
pub const START_FEN: &str =
    "tlscbokbcsjt/pppppppppppp/12/12/12/PPPPPPPPPPPP/TLSCBOKBCSJT w KQkq - 0 1";

/// The rules of Schizophrenic Chess (RULINGS §2). Kind order: the constants above.
pub fn spec() -> RuleSpec {
    let geometry = Geometry::rectangle(12, 7).expect("12x7 is a valid board");
    let [left, right] = short::schizzies(12);
    // §2.3 and §8 items 4 and 10: FIDE-style castling with either Squire, the King on g.
    let castling = chess::fide_castling(&geometry, KING, SQUIRE, 6, [2, 9]);
    RuleSpec {
        name: "schizophrenic",
        description: "12x7; Teleporters, Schizzies, a growing Bobber and a teleporting King (David Short, 2002)",
        pieces: vec![
            chess::fide_king(),
            short::bobber(),
            short::squire(),
            short::crowned_knight(),
            chess::fide_bishop(),
            short::teleporter(),
            left,
            right,
            // §2.2: the Crab also steps diagonally forward without capturing; §2.4 items 3-5:
            // it promotes to Q, S, B or C and takes en passant after a straight double step.
            PieceSpec {
                en_passant: true,
                pawn: true,
                promotes_to: "QSBC",
                initial_ranks: &[1],
                value: 110,
                ..PieceSpec::new('P', "crab", "fmWfFifmnD")
            },
            PieceSpec {
                value: 950,
                ..PieceSpec::new('Q', "queen", "Q")
            },
        ],
        templates: Vec::new(),
        start_fen: START_FEN,
        castling,
        promotion_zone: RuleSpec::zone_from_ranks(&geometry, &[6]),
        drop_zone: RuleSpec::whole_board(&geometry),
        fifty_move_plies: 100,
        repetition_count: 3,
        state: StateSpec {
            flags: &['t'],
            spells: &[],
        },
        xboard_builtin: None,
        geometry,
    }
}

/// Schizophrenic Chess.
pub struct Schizophrenic {
    rules: Rules,
}

/// The registered instance.
pub fn get() -> &'static Pipeline<Schizophrenic> {
    static SCHIZOPHRENIC: OnceLock<Pipeline<Schizophrenic>> = OnceLock::new();
    SCHIZOPHRENIC.get_or_init(|| {
        Pipeline(Schizophrenic {
            rules: Rules::compile(spec()).expect("the schizophrenic spec compiles"),
        })
    })
}

impl Schizophrenic {
    /// Whether a promotion to `kind` keeps within the limits: one Queen, three Squires on the
    /// board (RULINGS §8 item 2).
    fn promotion_allowed(&self, pos: &Position, kind: PieceKind) -> bool {
        let count = pos.pieces(pos.turn(), kind).count();
        match kind {
            QUEEN => count < MAX_QUEENS,
            SQUIRE => count < MAX_SQUIRES,
            _ => true,
        }
    }

    /// Own pieces that may stand between our King on `ksq` and an enemy piece on one of its
    /// lines: the first piece in a direction is ours and the next one is the enemy's. Only these
    /// can expose the King by moving (Bobbers slide along lines too); leaps and explosions do not
    /// depend on where our other pieces stand.
    fn shields(&self, pos: &Position, ksq: Square, us: Color) -> Bitboard {
        let t = &self.rules.tables;
        let occ = pos.occupied();
        let mut out = Bitboard::EMPTY;
        for d in 0..8u8 {
            let d = Direction(d);
            let Some(first) = t.first_blocker(d, ksq, occ) else {
                continue;
            };
            if pos.piece_at(first).color() != us {
                continue;
            }
            if let Some(second) = t.first_blocker(d, first, occ) {
                if pos.piece_at(second).color() == us.opponent() {
                    out.insert(first);
                }
            }
        }
        out
    }

    /// The King's teleports to its empty home squares, not out of check (RULINGS §2.3, §2.4
    /// item 7). Into check is excluded with every other move.
    fn king_teleports(&self, pos: &Position, in_check: bool, out: &mut Vec<Move>) {
        let us = pos.turn();
        if in_check {
            return;
        }
        for from in pos.pieces(us, KING) {
            if pos.state(from).flags.contains(TELEPORT_USED) {
                continue;
            }
            for to in TELEPORTERS.homes(&self.rules, us) & !pos.occupied() {
                out.push(king_teleport(from, to));
            }
        }
    }
}

/// Notes for players (`menagerie gui`'s legend), from `docs/rules/schizophrenic.md`.
const LEGEND: &[(char, &str)] = &[
    ('K', "Once per game it may teleport to an empty Teleporter home square of its side (a1, l1; a7, l7), not out of or into check; castles with either Squire."),
    ('O', "Its k-th move slides up to k squares any way, moving or capturing; from its 11th move on it is a Queen. The badge shows its range now."),
    ('T', "Without capturing: to any empty square of the other colour, or back to an empty home square; captures by one King step; explodes onto an enemy piece on its own first rank, both vanishing (written with x)."),
    ('L', "From files a-f: Knight, Camel or Ferz leaps; from files g-l: Queen."),
    ('J', "From files a-f: Queen; from files g-l: Knight, Camel or Ferz leaps."),
    ('P', "The Crab: one step forward or diagonally forward without capturing, captures diagonally forward, a double step from its start rank; promotes on the last rank to Q, S, B or C (not to a Queen while one is on the board, not to a Squire while three are)."),
];

impl GameModule for Schizophrenic {
    const SPECIALS: &'static [(Special, &'static str)] = SPECIALS;

    const NAMED_KINDS: &'static [(PieceKind, char)] = NAMED;

    const BENCH: Bench = Bench {
        depth: 7,
        positions: &[START_FEN],
    };
}

impl Hooks for Schizophrenic {
    fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The tables' pieces (the Schizzies by the file they stand on), Bobbers at their present
    /// range, and Teleporter explosions onto their own first rank (RULINGS §8 item 3).
    fn attacked(
        &self,
        pos: &Position,
        sq: Square,
        occupied: Bitboard,
        attackers: Bitboard,
        how: Method,
    ) -> bool {
        let rules = &self.rules;
        if TELEPORTERS.explosion_attacks(rules, pos, sq, attackers & occupied) {
            return true;
        }
        match how {
            Method::Fast => {
                movegen::table_attacked(rules, pos, sq, occupied, attackers)
                    || BOBBERS.attacks(rules, pos, sq, occupied, attackers & occupied)
            }
            Method::Reference => {
                movegen::reference::attacked(rules, pos, sq, occupied, attackers)
                    || (pos.kind_bb(BOBBER) & attackers & occupied)
                        .into_iter()
                        .any(|b| {
                            BOBBERS
                                .reference_targets(rules, pos, b, occupied)
                                .contains(&sq)
                        })
            }
        }
    }

    /// Out of check, an ordinary move of a piece that shields no line to the King is legal
    /// without making it; the King's own moves by the square test.
    fn shortcuts(&self, pos: &Position, in_check: bool) -> Shortcuts {
        let us = pos.turn();
        let Some(king) = pos.royals(&self.rules, us).first() else {
            return Shortcuts::NONE;
        };
        let safe = if in_check {
            Bitboard::EMPTY
        } else {
            !self.shields(pos, king, us) & !Bitboard::from_square(king)
        };
        Shortcuts {
            safe,
            risky: Bitboard::EMPTY,
            royal: Some(king),
            line_pinned: Bitboard::EMPTY,
            by_tables: false,
            every_move: false,
            drops_and_pass: false,
            evasions: Bitboard::ALL,
        }
    }

    fn extra_moves(&self, pos: &Position, in_check: bool, out: &mut MoveList) {
        let (all, them) = (Bitboard::ALL, pos.color_bb(pos.turn().opponent()));
        TELEPORTERS.moves(&self.rules, pos, all, out);
        BOBBERS.moves(&self.rules, pos, all, them, out);
        let mut teleports = Vec::new();
        self.king_teleports(pos, in_check, &mut teleports);
        out.extend(teleports);
    }

    fn reference_extra_moves(&self, pos: &Position, in_check: bool, out: &mut Vec<Move>) {
        let rules = &self.rules;
        let us = pos.turn();
        TELEPORTERS.reference_moves(rules, pos, Bitboard::ALL, out);
        for from in Square::all().filter(|&s| pos.piece_at(s) == Piece::new(us, BOBBER)) {
            for to in BOBBERS.reference_targets(rules, pos, from, pos.occupied()) {
                out.push(Move::normal(from, to));
            }
        }
        for from in Square::all().filter(|&s| pos.piece_at(s) == Piece::new(us, KING)) {
            let used = pos.state(from).flags.contains(TELEPORT_USED);
            for file in HOME_FILES {
                let to = Square::new(file, short::first_rank(rules, us)).expect("on board");
                if !used && !in_check && pos.piece_at(to).is_none() {
                    out.push(king_teleport(from, to));
                }
            }
        }
    }

    /// The Crab's promotion limits (RULINGS §8 item 2).
    fn allows(&self, pos: &Position, m: Move) -> bool {
        m.kind() != MoveKind::Promotion
            || self.promotion_allowed(pos, m.piece().expect("a promotion names its piece"))
    }

    fn apply_special(&self, _before: &Position, m: Move, after: &mut Position) -> Effects {
        if m.is(EXPLODE) {
            // Both pieces go; a capture, so the fifty-move count restarts.
            after.capture(m.from());
            after.capture(m.to());
            Effects {
                irreversible: true,
                double_step: None,
            }
        } else {
            debug_assert!(m.is(KING_TELEPORT), "{m:?}");
            let fx = after.apply_core(&self.rules, Move::normal(m.from(), m.to()));
            // `validate` keeps the pieces that carry state within the table, so this fits.
            let marked = after.update_state(m.to(), |s| s.flags.insert(TELEPORT_USED));
            debug_assert!(marked.is_ok(), "a King's state fits");
            fx
        }
    }

    /// A Bobber's move counter grows with each of its moves (RULINGS §2.2).
    fn after_move(&self, before: &Position, m: Move, _fx: &Effects, after: &mut Position) {
        if m.kind() == MoveKind::Normal && before.piece_at(m.from()).kind() == BOBBER {
            let _ = after.update_state(m.to(), |s| s.counter = BOBBERS.next_counter(s.counter));
        }
    }

    fn is_noisy(&self, pos: &Position, m: Move) -> bool {
        m.is(EXPLODE) || movegen::core_is_noisy(pos, m)
    }

    fn material_gain(&self, pos: &Position, m: Move, value: &dyn Fn(PieceKind) -> i32) -> i32 {
        if m.is(EXPLODE) {
            return value(pos.piece_at(m.to()).kind());
        }
        movegen::core_material_gain(pos, m, value)
    }

    /// Only Kings (a used teleport) and Bobbers (their counter) carry state. No move makes a
    /// Bobber or a King, so when there are no more of them than the state table holds, every
    /// state play gives them fits.
    fn validate(&self, pos: &Position) -> Result<(), PositionError> {
        movegen::validate_basic(self, pos)?;
        movegen::validate_two_players(pos)?;
        let bad = |sq: Square, what: &str| {
            Err(PositionError::Variant(format!("the piece on {sq} {what}")))
        };
        for (sq, state) in pos.states().iter() {
            let kind = pos.piece_at(sq).kind();
            let only = match kind {
                KING => PieceState {
                    flags: state.flags,
                    ..PieceState::default()
                },
                BOBBER => PieceState {
                    counter: state.counter,
                    ..PieceState::default()
                },
                _ => PieceState::default(),
            };
            if state != only {
                return bad(
                    sq,
                    "has state it cannot carry (a King only a used teleport, a Bobber only its counter)",
                );
            }
            if kind == BOBBER && state.counter > BOBBERS.cap - 1 {
                return bad(
                    sq,
                    &format!(
                        "has counter {}, at most {} means anything",
                        state.counter,
                        BOBBERS.cap - 1
                    ),
                );
            }
            if state.flags.0 & !TELEPORT_USED.0 != 0 {
                return bad(sq, "has a flag this game does not have");
            }
        }
        let carriers = (pos.kind_bb(KING) | pos.kind_bb(BOBBER)).count() as usize;
        if carriers > MAX_STATES {
            return Err(PositionError::Variant(format!(
                "{carriers} Kings and Bobbers are more than the {MAX_STATES} whose state a position can hold"
            )));
        }
        Ok(())
    }
}

impl SearchSwitches for Schizophrenic {
    fn eval_terms(&self) -> &'static [GameTerm] {
        TERMS
    }

    fn eval_features(&self, pos: &Position, out: &mut [i32]) {
        schizzy_features(pos, out)
    }

    /// Off: a Teleporter's explosion, which the attack test counts as an attack, removes both
    /// the Teleporter and its victim instead of putting the Teleporter in the victim's place.
    fn see_sound(&self) -> bool {
        false
    }
}

/// The game's own evaluation terms: a side with both Schizzies (wherever play goes, one of them
/// is a Queen there), and a Schizzy that is a Queen where it stands on the same half as the
/// enemy King (the piece-square tables see the half, not the King).
const TERMS: &[GameTerm] = &[
    GameTerm::new("schizzy_pair", 20),
    GameTerm::new("schizzy_queen_by_king", 15),
];

/// The features of [`TERMS`] for White minus Black.
fn schizzy_features(pos: &Position, out: &mut [i32]) {
    let on_left = |sq: Square| sq.file() < LEFT_HALF_FILES;
    for c in Color::PLAYERS {
        let sign = if c == Color::White { 1 } else { -1 };
        let (left, right) = (pos.pieces(c, LEFT_SCHIZZY), pos.pieces(c, RIGHT_SCHIZZY));
        if left.nonempty() && right.nonempty() {
            out[0] += sign;
        }
        let Some(king) = pos.pieces(c.opponent(), KING).into_iter().next() else {
            continue;
        };
        let king_left = on_left(king);
        // A Left Schizzy is a Queen on the right half, a Right Schizzy on the left half.
        let queens = left
            .into_iter()
            .filter(|&sq| !on_left(sq) && !king_left)
            .count()
            + right
                .into_iter()
                .filter(|&sq| on_left(sq) && king_left)
                .count();
        out[1] += sign * queens as i32;
    }
}

impl Presentation for Schizophrenic {
    /// A Teleporter's explosion `Txf1=-` (it takes the piece and is gone too), the King's
    /// teleport `K>a1` (`docs/protocol.md`, "SAN").
    fn san_shape(&self, rules: &Rules, pos: &Position, m: Move) -> Option<SanShape> {
        let step = |capture| SanShape::step(rules, pos, m.from(), m.to(), capture);
        if m.is(EXPLODE) {
            Some(SanShape {
                suffix: "=-".to_string(),
                ..step(true)
            })
        } else if m.is(KING_TELEPORT) {
            Some(SanShape {
                mark: ">",
                ..step(false)
            })
        } else {
            None
        }
    }

    fn special_text(&self, m: Move, dialect: Dialect) -> String {
        let geo = self.rules.geometry();
        let squares = format!(
            "{}{}",
            notation::square_text(geo, dialect, m.from()),
            notation::square_text(geo, dialect, m.to())
        );
        if m.is(EXPLODE) {
            // Under CECP a letter that names no piece, which XBoard turns into an empty square.
            let suffix = match dialect {
                Dialect::Uci => 'x',
                Dialect::Cecp => notation::cecp_vanish_letter(&self.rules),
            };
            format!("{squares}{suffix}")
        } else {
            let king = notation::piece_letter(&self.rules, dialect, KING).to_ascii_lowercase();
            format!("{squares}{king}")
        }
    }

    /// XBoard's PGN drops the suffix of a one-square King move, so a teleport onto a square the
    /// King could step to would read back as the step; and XBoard takes a King move of two or
    /// more squares along its rank for castling and drags a piece along, so a teleport past
    /// pieces cannot be shown.
    fn xboard_carries(&self, pos: &Position, m: Move) -> bool {
        if !m.is(KING_TELEPORT) {
            return true;
        }
        let (from, to) = (m.from(), m.to());
        if from.file().abs_diff(to.file()) <= 1 && from.rank().abs_diff(to.rank()) <= 1 {
            return false;
        }
        if from.rank() != to.rank() {
            return true;
        }
        let (a, b) = (from.file().min(to.file()), from.file().max(to.file()));
        (a + 1..b).all(|f| Square::new(f, from.rank()).is_none_or(|s| pos.piece_at(s).is_none()))
    }

    /// Beyond the shared checks (which use this game's attacks): a Bobber's counter stays
    /// within its range cap, and only Kings carry a used teleport.
    fn describe_state(&self, _rules: &Rules, pos: &Position, sq: Square) -> Vec<String> {
        let piece = pos.piece_at(sq);
        let mut out = Vec::new();
        if piece.kind() == BOBBER {
            out.push(format!("range {}", BOBBERS.range(pos, sq)));
        }
        if piece.kind() == KING && pos.state(sq).flags.contains(TELEPORT_USED) {
            out.push("teleport used".to_string());
        }
        out
    }

    fn legend_notes(&self) -> &'static [(char, &'static str)] {
        LEGEND
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_move;
    use crate::variants::Variant;

    fn moves_from(v: &Pipeline<Schizophrenic>, fen: &str, from: &str) -> Vec<String> {
        let pos = v.parse_fen(fen).unwrap();
        let mut list = MoveList::new();
        v.legal_moves(&pos, &mut list);
        let from = Square::parse(from).unwrap();
        let mut out: Vec<String> = list
            .iter()
            .filter(|m| m.from() == from)
            .map(|&m| v.move_text(m, Dialect::Uci))
            .collect();
        out.sort();
        out
    }

    /// The game's terms: both Schizzies of a side make a pair; a Schizzy counts by the King only
    /// where it is a Queen (Left Schizzy on files g-l, Right on a-f) on the enemy King's half.
    #[test]
    fn schizzy_terms_read_the_halves() {
        let features = |fen| crate::variants::tests::game_term_features(get(), fen);
        // Black's King on a6 (left half): White's Right Schizzy on b1 is a Queen there, the Left
        // Schizzy on g1 is a Queen on the other half.
        assert_eq!(features("12/k11/12/12/12/12/1J4L4K w - - 0 1"), [1, 1]);
        // Black's King on l7 (right half): now the Left Schizzy counts, and without the Right
        // Schizzy there is no pair.
        assert_eq!(features("11k/12/12/12/12/12/6L4K w - - 0 1"), [0, 1]);
        // A Left Schizzy on the left half leaps: it counts for neither term.
        assert_eq!(features("k11/12/12/12/12/12/1L9K w - - 0 1"), [0, 0]);
        // Black's pieces subtract: a Black Left Schizzy on h7 by White's King on k1.
        assert_eq!(features("7l2k1/12/12/12/12/12/10K1 w - - 0 1"), [0, -1]);
    }

    #[test]
    fn schizzies_change_with_their_file() {
        let v = get();
        // A Left Schizzy on c4 (left half) leaps: 8 knight + 8 camel + 4 ferz targets, all on
        // the board from c4 except camel leaps beyond the edge (c4: files a..f, ranks 1..7).
        let left = moves_from(v, "6k5/12/12/2L9/12/12/6K5 w - - 0 1", "c4");
        assert!(left.contains(&"c4d6".to_string()) && left.contains(&"c4f5".to_string()));
        assert!(
            !left.contains(&"c4c5".to_string()),
            "no queen step on the left half"
        );
        // On h4 (right half) it is a Queen.
        let right = moves_from(v, "6k5/12/12/7L4/12/12/6K5 w - - 0 1", "h4");
        assert!(right.contains(&"h4h5".to_string()) && right.contains(&"h4l4".to_string()));
        assert!(
            !right.contains(&"h4i6".to_string()),
            "no knight leap on the right half"
        );
    }

    #[test]
    fn bobber_range_follows_its_counter() {
        let v = get();
        let one = moves_from(v, "6k5/12/12/5O6/12/12/6K5 w - - 0 1", "f4");
        assert_eq!(one.len(), 8);
        let three = moves_from(v, "6k5/12/12/5O{c2}6/12/12/6K5 w - - 0 1", "f4");
        assert!(three.contains(&"f4f7".to_string()) && !three.contains(&"f4j4".to_string()));
        let pos = v.parse_fen("6k5/12/12/5O6/12/12/6K5 w - - 0 1").unwrap();
        let after = v.play(&pos, parse_move(v, &pos, Dialect::Uci, "f4f5").unwrap());
        assert_eq!(after.state(Square::parse("f5").unwrap()).counter, 1);
    }

    #[test]
    fn explosion_and_step_capture_are_two_moves() {
        let v = get();
        let pos = v.parse_fen("6k5/12/12/12/12/4T7/5c5K w - - 0 1").unwrap();
        let step = parse_move(v, &pos, Dialect::Uci, "e2f1").unwrap();
        let blast = parse_move(v, &pos, Dialect::Uci, "e2f1x").unwrap();
        assert_eq!(step.kind(), MoveKind::Normal);
        assert!(blast.is(EXPLODE));
        // Under CECP the explosion's suffix is a letter of no piece; XBoard's SAN reads back.
        let cecp = v.move_text(blast, Dialect::Cecp);
        assert_eq!(cecp, "e2f1z");
        assert_eq!(parse_move(v, &pos, Dialect::Cecp, &cecp), Ok(blast));
        assert_eq!(
            crate::notation::parse_san(v, &pos, Dialect::Cecp, "Txf1=Z"),
            Ok(blast)
        );
        assert_eq!(
            crate::notation::parse_san(v, &pos, Dialect::Cecp, "Txf1"),
            Ok(step)
        );
        let after = v.play(&pos, blast);
        assert!(after.piece_at(Square::parse("e2").unwrap()).is_none());
        assert!(after.piece_at(Square::parse("f1").unwrap()).is_none());
    }

    #[test]
    fn state_only_where_the_rules_keep_it() {
        let v = get();
        let crabs = |white: &str, black: &str| {
            format!(
                "k11/{}/12/O11/12/{}/K11 w - - 0 1",
                black.repeat(12),
                white.repeat(12)
            )
        };
        // Crabs keep no counter: such a FEN once filled the state table, and the next move
        // that needed an entry (the King's teleport, a Bobber's step) found none.
        for fen in [
            crabs("P{c1}", "p{c1}"),
            crabs("P", "p{c1}"),
            "k{t}11/12/12/O{t}11/12/12/K11 w - - 0 1".to_string(),
            "k11/12/12/O{c1,t}11/12/12/K{c2}11 w - - 0 1".to_string(),
            "k11/12/12/O{g1}11/12/12/K{m}11 w - - 0 1".to_string(),
        ] {
            assert!(v.parse_fen(&fen).is_err(), "{fen}");
        }
        assert!(v
            .parse_fen("k{t}11/12/12/5O{c3}6/12/12/K11 w - - 0 1")
            .is_ok());
        // More Kings and Bobbers than the table holds cannot be played on; as many can.
        let bobbers = |n: usize| {
            let rank = |b: &str| format!("{}{}", b.repeat(n), 12 - n);
            format!(
                "k11/{}/12/12/12/{}/1K10 w - - 0 1",
                rank("o{c1}"),
                rank("O{c1}")
            )
        };
        assert!(v.parse_fen(&bobbers(12).replace("12 w", " w")).is_err());
        let full = v.parse_fen(&bobbers(11)).unwrap();
        let mut moves = MoveList::new();
        v.legal_moves(&full, &mut moves);
        let teleport = moves.iter().find(|m| m.is(KING_TELEPORT)).unwrap();
        let after = v.play(&full, *teleport);
        assert!(after.state(teleport.to()).flags.contains(TELEPORT_USED));
        assert_eq!(
            crate::perft::perft(v, &full, 2),
            crate::perft::perft(v, &v.parse_fen(&v.fen(&full)).unwrap(), 2)
        );
    }

    #[test]
    fn king_teleports_once() {
        let v = get();
        let pos = v.parse_fen("6k5/12/12/12/12/12/1K10 w - - 0 1").unwrap();
        let step = parse_move(v, &pos, Dialect::Uci, "b1a1").unwrap();
        let jump = parse_move(v, &pos, Dialect::Uci, "b1a1k").unwrap();
        assert_eq!(step.kind(), MoveKind::Normal);
        assert!(jump.is(KING_TELEPORT));
        assert!(parse_move(v, &pos, Dialect::Uci, "b1l1k").is_ok());
        let after = v.play(&pos, jump);
        assert_eq!(
            v.fen(&after).split(' ').next(),
            Some("6k5/12/12/12/12/12/K{t}11")
        );
        let used = v.parse_fen("6k5/12/12/12/12/12/1K{t}10 w - - 0 1").unwrap();
        assert!(parse_move(v, &used, Dialect::Uci, "b1l1k").is_err());
    }

    #[test]
    fn teleporter_explosions_guard_the_first_rank() {
        let v = get();
        // White's Teleporter on e4 attacks all of rank 1: the Black King may not step onto it.
        let black = v.parse_fen("12/12/12/4T7/12/5k6/11K b - - 0 1").unwrap();
        let mut list = MoveList::new();
        v.legal_moves(&black, &mut list);
        assert!(
            list.iter().all(|m| m.to().rank() != 0),
            "{:?}",
            list.as_slice()
        );
    }

    #[test]
    fn en_passant_and_the_diagonal_step_differ_in_every_notation() {
        let v = get();
        let pos = v.parse_fen("6k5/12/2Pp8/12/12/12/6K5 w - d6 0 1").unwrap();
        let ep = parse_move(v, &pos, Dialect::Uci, "c5d5,d5d6").unwrap();
        let step = parse_move(v, &pos, Dialect::Uci, "c5d6").unwrap();
        assert_eq!(
            (ep.kind(), step.kind()),
            (MoveKind::EnPassant, MoveKind::Normal)
        );
        let san = |t| crate::notation::parse_san(v, &pos, Dialect::Cecp, t);
        assert_eq!(san("cxd6"), Ok(ep));
        assert_eq!(san("cd6"), Ok(step));
        assert_eq!(
            san("c6"),
            Ok(parse_move(v, &pos, Dialect::Uci, "c5c6").unwrap())
        );
    }

    #[test]
    fn positions_with_the_king_en_prise_are_refused() {
        let v = get();
        // A Bobber next to the Black King, and a Teleporter that could explode onto it.
        assert!(v.parse_fen("6k5/6O5/12/12/12/12/8K3 w - - 0 1").is_err());
        assert!(v.parse_fen("12/12/12/12/4T7/12/3k5K2 w - - 0 1").is_err());
        assert!(v
            .parse_fen("7k4/12/12/12/12/12/O{c11}7K3 w - - 0 1")
            .is_err());
        assert!(v
            .parse_fen("7k4/12/12/12/12/12/O{c10}7K3 w - - 0 1")
            .is_ok());
        assert!(v.parse_fen("6k5/12/12/12/12/12/S{t}7K3 w - - 0 1").is_err());
    }

    #[test]
    fn crab_promotion_limits() {
        let v = get();
        // A Queen on the board: the Crab may not choose another.
        let fen = "12/P11/12/12/12/Q11/6K2k2 w - - 0 1";
        let choices = moves_from(v, fen, "a6");
        assert_eq!(
            choices,
            ["a6a7b", "a6a7c", "a6a7s", "a6b7b", "a6b7c", "a6b7s"]
        );
    }
}
