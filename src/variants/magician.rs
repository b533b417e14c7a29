//! Magician's Deathmatch (Drom Sealis, 2020): FIDE chess with three new pieces that move
//! differently than they capture, a Bishop-to-Magician switch, a Magician promotion triggered by
//! pawns entering their 6th rank, and Home-File Transference. The pieces are data; the switch
//! and the trigger are the two hooks below. `docs/rules/magician.md` cites the RULINGS items.

use super::chess::{self, fide_pieces};
use super::Variant;
use crate::board::Position;
use crate::core::{Bitboard, Color, Geometry, Move, MoveKind, MoveList, Piece, PieceKind, Square};
use crate::movegen;
use crate::rules::{PieceSpec, RuleSpec, Rules};
use std::sync::OnceLock;

const BISHOP: PieceKind = PieceKind(3);
const PAWN: PieceKind = PieceKind(5);
const MAGICIAN: PieceKind = PieceKind(6);
const HIGH_PRIESTESS: PieceKind = PieceKind(7);
const TELEPATH: PieceKind = PieceKind(8);

/// The rank, counted from the owner's side from 0, whose entry by a pawn promotes a Magician.
const TRIGGER_RANK: u8 = 5;

/// Home-File Transference (RULINGS §4.3, §4.4 item 3): from the a- or h-file, within the owner's
/// first three ranks, to the same rank on the other edge file, not blocked by anything between.
fn transference(geo: &Geometry, color: Color, sq: Square) -> Bitboard {
    let last_file = geo.files() - 1;
    let rel = if color == Color::Black {
        geo.ranks() - 1 - sq.rank()
    } else {
        sq.rank()
    };
    if rel >= 3 || (sq.file() != 0 && sq.file() != last_file) {
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
pub fn get() -> &'static Magician {
    static MAGICIAN_VARIANT: OnceLock<Magician> = OnceLock::new();
    MAGICIAN_VARIANT.get_or_init(|| Magician {
        rules: Rules::compile(spec()).expect("the magician spec compiles"),
    })
}

impl Magician {
    /// Whether a pawn move ends on the mover's 6th rank.
    fn enters_trigger_rank(&self, pos: &Position, m: Move) -> bool {
        let p = pos.piece_at(m.from());
        if p.kind() != PAWN || !matches!(m.kind(), MoveKind::Normal | MoveKind::EnPassant) {
            return false;
        }
        let rel = if p.color() == Color::Black {
            7 - m.to().rank()
        } else {
            m.to().rank()
        };
        rel == TRIGGER_RANK
    }

    /// Adds the two hooks to a list of legal moves of the FIDE-like rest (RULINGS §8 items 5, 6):
    /// each pawn move onto the 6th rank becomes one move per own Magician and promoted piece, and
    /// every Bishop may switch into a Magician unless the king is in check.
    fn add_hooks(&self, pos: &Position, base: &[Move], out: &mut MoveList) {
        let us = pos.turn();
        let magicians = pos.pieces(us, MAGICIAN);
        for &m in base {
            if magicians.nonempty() && self.enters_trigger_rank(pos, m) {
                for sq in magicians {
                    for piece in [HIGH_PRIESTESS, TELEPATH] {
                        out.push(Move::special(
                            MoveKind::AlsoPromote,
                            m.from(),
                            m.to(),
                            Some(sq),
                            Some(piece),
                        ));
                    }
                }
            } else {
                out.push(m);
            }
        }
        if !movegen::in_check(&self.rules, pos, us) {
            for sq in pos.pieces(us, BISHOP) {
                out.push(Move::special(
                    MoveKind::Switch,
                    sq,
                    sq,
                    None,
                    Some(MAGICIAN),
                ));
            }
        }
    }
}

impl Variant for Magician {
    fn rules(&self) -> &Rules {
        &self.rules
    }

    fn legal_moves(&self, pos: &Position, out: &mut MoveList) {
        let mut base = MoveList::new();
        movegen::legal(&self.rules, pos, &mut base);
        self.add_hooks(pos, base.as_slice(), out);
    }

    fn noisy_moves(&self, pos: &Position, out: &mut MoveList) {
        // A quiet pawn step onto the 6th rank also promotes a Magician, so the noisy moves are
        // not the generic generator's captures and promotions.
        self.legal_moves(pos, out);
        out.retain(|m| movegen::is_noisy(pos, m));
    }

    fn reference_moves(&self, pos: &Position) -> Vec<Move> {
        let base = movegen::reference::legal(&self.rules, pos);
        let mut out = MoveList::new();
        self.add_hooks(pos, &base, &mut out);
        out.as_slice().to_vec()
    }

    fn play(&self, pos: &Position, m: Move) -> Position {
        match m.kind() {
            MoveKind::Switch => {
                let mut next = pos.play(&self.rules, Move::pass());
                let p = next.remove(m.from());
                next.put(
                    Piece::new(p.color(), m.piece().expect("a switch names its piece")),
                    m.from(),
                );
                // A switch moves nothing, so it does not count as a pawn move or capture.
                next
            }
            MoveKind::AlsoPromote => {
                let victim = pos.ep_victim().filter(|_| {
                    pos.ep_targets().contains(m.to()) && pos.piece_at(m.to()).is_none()
                });
                let base = match victim {
                    Some(v) if m.from().file() != m.to().file() => {
                        Move::en_passant(m.from(), m.to(), v)
                    }
                    _ => Move::normal(m.from(), m.to()),
                };
                let mut next = pos.play(&self.rules, base);
                let sq = m.aux().expect("the promoted piece's square");
                let p = next.remove(sq);
                next.put(
                    Piece::new(p.color(), m.piece().expect("the promoted kind")),
                    sq,
                );
                next
            }
            _ => pos.play(&self.rules, m),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse_move, Dialect};

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
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
        assert_eq!(next.hash(), next.compute_hash(v.rules()));
    }

    #[test]
    fn a_switch_changes_the_piece_in_place() {
        let v = get();
        let pos = v.start_position();
        let m = parse_move(v, &pos, Dialect::Uci, "c1c1m").unwrap();
        assert_eq!(m.kind(), MoveKind::Switch);
        let next = v.play(&pos, m);
        assert_eq!(next.piece_at(sq("c1")), Piece::new(Color::White, MAGICIAN));
        assert_eq!(next.turn(), Color::Black);
        assert_eq!(next.hash(), next.compute_hash(v.rules()));
    }

    #[test]
    fn transference_attacks_the_far_square() {
        // The Magician on a1 attacks h1 across the board (RULINGS §4.4 item 3): a black king
        // there with White to move would be in check.
        assert!(get().parse_fen("8/8/8/8/8/8/8/M3K2k w - - 0 1").is_err());
        assert!(get().parse_fen("8/8/8/8/8/8/8/M3K2k b - - 0 1").is_ok());
    }
}
