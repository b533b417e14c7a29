//! Magician's Deathmatch (Drom Sealis, 2020): FIDE chess with three new pieces that move
//! differently than they capture, a Bishop-to-Magician switch, a Magician promotion triggered by
//! pawns entering their 6th rank, and Home-File Transference. The pieces are data; the switch
//! and the trigger are the two hooks below. `docs/rules/magician.md` cites the RULINGS items.

use super::chess::{self, fide_pieces, BISHOP, PAWN};
use super::san::{self, SanShape};
use super::switches::GameTerm;
use super::{GameModule, Presentation, SearchSwitches};
use super::{Hooks, Pipeline};
use crate::board::{Effects, Position};
use crate::core::Square;
use crate::core::{Bitboard, Color, Geometry, Move, MoveKind, MoveList, Piece, PieceKind, Special};
use crate::movegen::{self, Shortcuts};
use crate::notation::{self, Dialect};
use crate::rules::{PieceSpec, RuleSpec, Rules};
use std::sync::OnceLock;

/// The Magician, from the reserve of switches.
pub const MAGICIAN: PieceKind = PieceKind(6);
/// The High-Priestess, a Magician's promotion.
pub const HIGH_PRIESTESS: PieceKind = PieceKind(7);
/// The Telepath, a Magician's promotion.
pub const TELEPATH: PieceKind = PieceKind(8);

/// The kinds this module names, with their letters.
const NAMED: &[(PieceKind, char)] = &[
    (BISHOP, 'B'),
    (PAWN, 'P'),
    (MAGICIAN, 'M'),
    (HIGH_PRIESTESS, 'H'),
    (TELEPATH, 'T'),
];

crate::special_kinds! {
    /// A pawn move entering the 6th rank that also promotes the Magician on `aux` into `piece`
    /// (RULINGS §4.3, §8 item 6). Whether it captures, en passant included, is read from the
    /// board.
    pub ALSO_PROMOTE;
}

/// The rank, counted from the owner's side from 0, whose entry by a pawn promotes a Magician.
const TRIGGER_RANK: u8 = 5;

/// Home-File Transference (RULINGS §4.3, §4.4 item 3): from the a- or h-file, within the owner's
/// first three ranks, to the same rank on the other edge file, not blocked by anything between.
fn transference(geo: &Geometry, color: Color, sq: Square) -> Bitboard {
    let last_file = geo.files() - 1;
    if geo.relative_rank(color, sq) >= 3 || (sq.file() != 0 && sq.file() != last_file) {
        return Bitboard::EMPTY;
    }
    let other = if sq.file() == 0 { last_file } else { 0 };
    Square::new(other, sq.rank()).map_or(Bitboard::EMPTY, Bitboard::from_square)
}

/// The rules of Magician's Deathmatch (RULINGS §4): FIDE chess (§4.1, §4.6) with three more
/// pieces.
pub fn spec() -> RuleSpec {
    let magic = |letter, name, betza| PieceSpec {
        extra_leaps: Some(transference),
        ..PieceSpec::new(letter, name, betza)
    };
    // §4.3: pawns may also promote to the three new pieces.
    let mut pieces = fide_pieces("QRBNMHT");
    // §4.2 and §4.4 item 4: each moves one way and captures by leaping.
    pieces.extend([
        magic('M', "magician", "mB2cKcAcD"),
        magic('H', "high-priestess", "mQ2cKcNcAcD"),
        magic('T', "telepath", "mNcKcNcAcD"),
    ]);
    RuleSpec {
        name: "magician",
        description: "FIDE chess where Bishops switch into Magicians, which promote as pawns advance (Drom Sealis, 2020)",
        pieces,
        xboard_builtin: None,
        ..chess::spec()
    }
}

/// Magician's Deathmatch.
pub struct Magician {
    rules: Rules,
}

/// The registered instance.
pub fn get() -> &'static Pipeline<Magician> {
    static MAGICIAN_VARIANT: OnceLock<Pipeline<Magician>> = OnceLock::new();
    MAGICIAN_VARIANT.get_or_init(|| {
        Pipeline(Magician {
            rules: Rules::compile(spec()).expect("the magician spec compiles"),
        })
    })
}

impl Magician {
    /// Whether a pawn move (plain, capture or en passant) ends on the mover's 6th rank.
    fn enters_trigger_rank(&self, pos: &Position, m: Move) -> bool {
        let p = pos.piece_at(m.from());
        p.kind() == PAWN
            && matches!(m.kind(), MoveKind::Normal | MoveKind::EnPassant)
            && self.rules.geometry().relative_rank(p.color(), m.to()) == TRIGGER_RANK
    }
}

/// Notes for players (`menagerie gui`'s legend), from `docs/rules/magician.md`.
const LEGEND: &[(char, &str)] = &[
    ('B', "As a whole move, a Bishop may switch into a Magician where it stands (not in check; never back)."),
    ('P', "A pawn move onto the 6th rank (3rd for Black) also promotes one own Magician to a High-Priestess or a Telepath, of the mover's choice; on the last rank a pawn promotes to Q, R, B, N, M, H or T."),
    ('M', "Home-File Transference: on the a- or h-file within its first three ranks it may move to the same rank on the other edge file, capturing there."),
    ('H', "Home-File Transference as the Magician."),
    ('T', "Home-File Transference as the Magician."),
];

impl GameModule for Magician {
    const SPECIALS: &'static [(Special, &'static str)] = SPECIALS;

    const NAMED_KINDS: &'static [(PieceKind, char)] = NAMED;
}

impl Hooks for Magician {
    fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Check and pins in one walk: the default attack test, check test and shortcuts.
    #[inline(always)]
    fn check_and_shortcuts(&self, pos: &Position) -> (bool, Shortcuts) {
        movegen::table_check_and_evasions(&self.rules, pos)
    }

    /// While the mover has Magicians, a pawn move onto the 6th rank is one of the moves that
    /// also promote a Magician (`extra_moves`), never a move alone (RULINGS §8 item 6).
    fn allows(&self, pos: &Position, m: Move) -> bool {
        pos.pieces(pos.turn(), MAGICIAN).is_empty() || !self.enters_trigger_rank(pos, m)
    }

    /// `allows` refuses plain pawn moves onto the 6th rank while the mover has Magicians.
    fn counts_in_bulk(&self, pos: &Position) -> bool {
        pos.pieces(pos.turn(), MAGICIAN).is_empty()
    }

    /// Each pawn move onto the 6th rank, once per own Magician and new kind (RULINGS §8 item
    /// 6); and every Bishop may switch into a Magician unless the king is in check (§8 item 5).
    fn extra_moves(&self, pos: &Position, in_check: bool, out: &mut MoveList) {
        let rules = &self.rules;
        let us = pos.turn();
        let magicians = pos.pieces(us, MAGICIAN);
        if magicians.nonempty() {
            let pawns = pos.pieces(us, PAWN);
            let mut steps = MoveList::new();
            let victims = pos.color_bb(us.opponent());
            movegen::moves_of(rules, pos, PAWN, pawns, victims, &mut steps);
            movegen::en_passant(rules, pos, pawns, &mut steps);
            for &m in steps.iter().filter(|&&m| self.enters_trigger_rank(pos, m)) {
                for sq in magicians {
                    for piece in [HIGH_PRIESTESS, TELEPATH] {
                        out.push(Move::new(
                            MoveKind::Special(ALSO_PROMOTE),
                            m.from(),
                            m.to(),
                            Some(sq),
                            Some(piece),
                        ));
                    }
                }
            }
        }
        if !in_check {
            for sq in pos.pieces(us, BISHOP) {
                out.push(Move::transform(sq, MAGICIAN));
            }
        }
    }

    fn apply_special(&self, before: &Position, m: Move, after: &mut Position) -> Effects {
        let victim = before
            .ep_victim()
            .filter(|_| before.ep_targets().contains(m.to()) && before.piece_at(m.to()).is_none());
        let base = match victim {
            Some(v) if m.from().file() != m.to().file() => Move::en_passant(m.from(), m.to(), v),
            _ => Move::normal(m.from(), m.to()),
        };
        let fx = after.apply_core(&self.rules, base);
        let sq = m.aux().expect("the promoted piece's square");
        let p = after.remove(sq);
        after.put(
            Piece::new(p.color(), m.piece().expect("the promoted kind")),
            sq,
        );
        fx
    }

    fn is_noisy(&self, pos: &Position, m: Move) -> bool {
        m.is(ALSO_PROMOTE) || movegen::core_is_noisy(pos, m)
    }

    fn material_gain(&self, pos: &Position, m: Move, value: &dyn Fn(PieceKind) -> i32) -> i32 {
        if m.is(ALSO_PROMOTE) {
            // The piece on the target square and the new kind (an en-passant victim is not
            // counted).
            let victim = pos.piece_at(m.to());
            let taken = if victim.is_some() {
                value(victim.kind())
            } else {
                0
            };
            return taken + m.piece().map_or(0, value);
        }
        movegen::core_material_gain(pos, m, value)
    }
}

impl SearchSwitches for Magician {
    fn eval_terms(&self) -> &'static [GameTerm] {
        TERMS
    }

    fn eval_features(&self, pos: &Position, out: &mut [i32]) {
        magic_features(&self.rules, pos, out)
    }

    fn attacks_from_tables(&self) -> bool {
        true
    }
}

/// The game's own evaluation terms, both about the pawns one step from the rank whose entry
/// promotes a Magician: with a Magician on the board (the next pawn move there promotes it),
/// and with none but a Bishop (a switch arms them).
const TERMS: &[GameTerm] = &[
    GameTerm::new("magic_promotion_ready", 20),
    GameTerm::new("switch_to_promote", 10),
];

/// The features of [`TERMS`] for White minus Black.
fn magic_features(rules: &Rules, pos: &Position, out: &mut [i32]) {
    let geo = rules.geometry();
    for c in Color::PLAYERS {
        let sign = if c == Color::White { 1 } else { -1 };
        let ready = pos
            .pieces(c, PAWN)
            .into_iter()
            .filter(|&sq| geo.relative_rank(c, sq) + 1 == TRIGGER_RANK)
            .count() as i32;
        if ready == 0 {
            continue;
        }
        if pos.pieces(c, MAGICIAN).nonempty() {
            out[0] += sign * ready;
        } else if pos.pieces(c, BISHOP).nonempty() {
            out[1] += sign * ready;
        }
    }
}

impl Presentation for Magician {
    /// The pawn move that also promotes a Magician: the move, `/`, the Magician and what it
    /// becomes, `e6/Ma1=H` (`docs/protocol.md`, "SAN").
    fn san_shape(&self, rules: &Rules, pos: &Position, m: Move) -> Option<SanShape> {
        if !m.is(ALSO_PROMOTE) {
            return None;
        }
        let aux = m.aux()?;
        let capture = pos.piece_at(m.to()).is_some() || pos.ep_targets().contains(m.to());
        let magician = san::letter_of(rules, pos, aux).unwrap_or('?');
        let becomes = m.piece().map_or('?', |k| san::kind_letter(rules, k));
        Some(SanShape {
            suffix: format!("/{magician}{}={becomes}", san::square(rules, aux)),
            ..SanShape::step(rules, pos, m.from(), m.to(), capture)
        })
    }

    fn legend_notes(&self) -> &'static [(char, &'static str)] {
        LEGEND
    }

    fn special_text(&self, m: Move, dialect: Dialect) -> String {
        let geo = self.rules.geometry();
        let sq = |s| notation::square_text(geo, dialect, s);
        let letter = m.piece().map_or('?', |k| {
            notation::piece_letter(&self.rules, dialect, k).to_ascii_lowercase()
        });
        let aux = m.aux().map_or(String::new(), sq);
        format!("{}{}/{aux}{letter}", sq(m.from()), sq(m.to()))
    }

    /// XBoard changes only the squares a move names, so it cannot show a Magician elsewhere
    /// becoming a High-Priestess.
    fn xboard_carries(&self, _pos: &Position, m: Move) -> bool {
        !m.is(ALSO_PROMOTE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_move;
    use crate::variants::Variant;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    /// The game's terms count the pawns on the 5th rank (one step from the rank whose entry
    /// promotes a Magician): as armed with a Magician on the board, as waiting for a switch
    /// with only a Bishop, not at all without either or once past that rank.
    #[test]
    fn magic_terms_count_the_pawns_before_the_trigger_rank() {
        let features = |fen| crate::variants::tests::game_term_features(get(), fen);
        assert_eq!(features("4k3/8/8/3PP3/8/8/8/2M1K3 w - - 0 1"), [2, 0]);
        assert_eq!(features("4k3/8/8/3PP3/8/8/8/2B1K3 w - - 0 1"), [0, 2]);
        assert_eq!(features("4k3/8/8/3PP3/8/8/8/2N1K3 w - - 0 1"), [0, 0]);
        assert_eq!(features("4k3/8/4P3/8/8/8/8/2M1K3 w - - 0 1"), [0, 0]);
        // Black's 5th rank is the 4th; Black's counts subtract.
        assert_eq!(features("4km2/8/8/4P3/3p4/8/8/4K3 w - - 0 1"), [-1, 0]);
    }

    #[test]
    fn en_passant_with_magician_promotion() {
        let v = get();
        let pos = v.parse_fen("4k3/8/8/3pP3/8/8/8/M3K3 w - d6 0 1").unwrap();
        let m = parse_move(v, &pos, Dialect::Uci, "e5d6/a1h").unwrap();
        let next = v.play(&pos, m);
        assert!(
            next.piece_at(sq("d5")).is_none(),
            "the e.p. victim is taken"
        );
        assert_eq!(next.piece_at(sq("d6")), Piece::new(Color::White, PAWN));
        assert_eq!(
            next.piece_at(sq("a1")),
            Piece::new(Color::White, HIGH_PRIESTESS)
        );
        assert_eq!(next.hash(), next.compute_hash());
    }

    #[test]
    fn a_switch_changes_the_piece_in_place() {
        let v = get();
        let pos = v.start_position();
        let m = parse_move(v, &pos, Dialect::Uci, "c1c1m").unwrap();
        assert_eq!(m.kind(), MoveKind::Transform);
        let next = v.play(&pos, m);
        assert_eq!(next.piece_at(sq("c1")), Piece::new(Color::White, MAGICIAN));
        assert_eq!(next.turn(), Color::Black);
        assert_eq!(next.hash(), next.compute_hash());
    }

    #[test]
    fn transference_attacks_the_far_square() {
        // The Magician on a1 attacks h1 across the board (RULINGS §4.4 item 3): a black king
        // there with White to move would be in check.
        assert!(get().parse_fen("8/8/8/8/8/8/8/M3K2k w - - 0 1").is_err());
        assert!(get().parse_fen("8/8/8/8/8/8/8/M3K2k b - - 0 1").is_ok());
    }
}
