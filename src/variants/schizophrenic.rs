//! Schizophrenic Chess (David Short, 2002): 12x7, with Crabs, Teleporters that may explode on
//! their own first rank, Schizzies whose powers depend on their file, a Bobber whose range grows,
//! and a King that castles with Squires and may teleport home once. The pieces come from
//! `short`; the hooks here are the King's teleport, the Crab's promotion limits, and attack
//! detection that sees explosions and Bobbers. `docs/rules/schizophrenic.md` cites the RULINGS
//! items.

use super::short::{self, BobberRules, TeleporterRules};
use super::{chess, Variant};
use crate::board::{PieceFlags, Position, PositionError};
use crate::core::{Bitboard, Color, Geometry, Move, MoveKind, MoveList, Piece, PieceKind, Square};
use crate::movegen;
use crate::rules::{Direction, PieceSpec, RuleSpec, Rules, TurnSchedule};
use std::sync::OnceLock;

const KING: PieceKind = PieceKind(0);
const BOBBER: PieceKind = PieceKind(1);
const SQUIRE: PieceKind = PieceKind(2);
const TELEPORTER: PieceKind = PieceKind(5);
const QUEEN: PieceKind = PieceKind(9);

/// Files of the Teleporters' home squares, a and l (RULINGS §2.2).
const HOME_FILES: [u8; 2] = [0, 11];
/// At most this many Squires of a side on the board after a promotion (RULINGS §2.3, §8 item 2).
const MAX_SQUIRES: u32 = 3;
/// At most this many Queens of a side on the board after a promotion.
const MAX_QUEENS: u32 = 1;

const TELEPORTERS: TeleporterRules = TeleporterRules {
    kind: TELEPORTER,
    home_files: &HOME_FILES,
    explodes: true,
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
        geometry,
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
        start_fen: START_FEN,
        castling,
        promotion_ranks: vec![6],
        fifty_move_plies: 100,
        repetition_count: 3,
        schedule: TurnSchedule::default(),
        xboard_builtin: None,
    }
}

/// Schizophrenic Chess.
pub struct Schizophrenic {
    rules: Rules,
}

/// The registered instance.
pub fn get() -> &'static Schizophrenic {
    static SCHIZOPHRENIC: OnceLock<Schizophrenic> = OnceLock::new();
    SCHIZOPHRENIC.get_or_init(|| Schizophrenic {
        rules: Rules::compile(spec()).expect("the schizophrenic spec compiles"),
    })
}

impl Schizophrenic {
    /// Whether `by` attacks `sq`: the tables' pieces (the Schizzies by the file they stand on),
    /// Bobbers at their present range, and Teleporter explosions (RULINGS §8 item 3).
    fn attacked(&self, pos: &Position, sq: Square, by: Color) -> bool {
        let rules = &self.rules;
        movegen::attacked(rules, pos, sq, by, pos.occupied())
            || TELEPORTERS.explosion_attacks(rules, pos, sq, by)
            || BOBBERS.attacks(rules, pos, sq, by)
    }

    /// Whether `color`'s King is attacked.
    fn king_attacked(&self, pos: &Position, color: Color) -> bool {
        pos.royals(&self.rules, color)
            .into_iter()
            .any(|k| self.attacked(pos, k, color.opponent()))
    }

    /// The King's once-per-game teleport to an empty Teleporter home square, not out of check
    /// (RULINGS §2.3, §2.4 item 7). Into check is excluded with every other move.
    fn king_teleports(&self, pos: &Position, in_check: bool, out: &mut MoveList) {
        let us = pos.turn();
        if in_check {
            return;
        }
        for from in pos.pieces(us, KING) {
            if pos.state(from).flags.contains(PieceFlags::TELEPORT_USED) {
                continue;
            }
            for to in TELEPORTERS.homes(&self.rules, us) & !pos.occupied() {
                out.push(Move::special(
                    MoveKind::Teleport,
                    from,
                    to,
                    None,
                    Some(KING),
                ));
            }
        }
    }

    /// Whether a promotion to `kind` keeps within the limits: one Queen, three Squires on the
    /// board (RULINGS §8 item 2).
    fn promotion_allowed(&self, pos: &Position, kind: PieceKind) -> bool {
        let us = pos.turn();
        let count = pos.pieces(us, kind).count();
        match kind {
            QUEEN => count < MAX_QUEENS,
            SQUIRE => count < MAX_SQUIRES,
            _ => true,
        }
    }

    /// Own pieces that may stand between our King on `ksq` and an enemy piece on one of its
    /// lines: the first piece in a direction is ours and the next one is the enemy's. Only these
    /// can expose the King by moving; every other attack (leaps, explosions) does not depend on
    /// where our other pieces stand.
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

    /// Keeps the moves that leave the mover's King unattacked, and castlings whose King squares
    /// are all safe by this game's attacks (the generic test sees only the tables). Out of check,
    /// an ordinary move of a piece that shields no line to the King is legal without making it.
    fn retain_legal(&self, pos: &Position, in_check: bool, moves: &mut MoveList) {
        let us = pos.turn();
        let rules = &self.rules;
        let king = pos.royals(rules, us).first();
        let risky = match king {
            Some(k) if !in_check => self.shields(pos, k, us) | Bitboard::from_square(k),
            _ => Bitboard::ALL,
        };
        moves.retain(|m| {
            if m.kind() == MoveKind::Castle {
                let spec = rules.spec.castling.iter().find(|c| {
                    c.color == us && c.king_from == m.from() && Some(c.partner_from) == m.aux()
                });
                if spec.is_some_and(|c| {
                    c.must_be_safe
                        .into_iter()
                        .any(|s| self.attacked(pos, s, us.opponent()))
                }) {
                    return false;
                }
            }
            if m.kind() == MoveKind::Promotion
                && !self.promotion_allowed(pos, m.piece().expect("a promotion names its piece"))
            {
                return false;
            }
            let ordinary = matches!(
                m.kind(),
                MoveKind::Normal | MoveKind::Promotion | MoveKind::Explode
            );
            (ordinary && !risky.contains(m.from())) || !self.king_attacked(&self.play(pos, m), us)
        });
    }
}

impl Variant for Schizophrenic {
    fn rules(&self) -> &Rules {
        &self.rules
    }

    fn bench_positions(&self) -> &'static [&'static str] {
        &[START_FEN]
    }

    /// Legality here is tested by making every move, so nodes cost more than in chess.
    fn bench_depth(&self) -> u32 {
        7
    }

    /// Beyond the shared checks: the side not to move may not be attacked by this game's attacks
    /// (the shared check sees only the tables), a Bobber's counter stays within its range cap,
    /// and only Kings carry a used teleport.
    fn validate(&self, pos: &Position) -> Result<(), PositionError> {
        if self.king_attacked(pos, pos.turn().opponent()) {
            return Err(PositionError::OpponentInCheck);
        }
        for sq in pos.occupied() {
            let state = pos.state(sq);
            let kind = pos.piece_at(sq).kind();
            if kind == BOBBER && state.counter > BOBBERS.cap - 1 {
                return Err(PositionError::Variant(format!(
                    "the Bobber on {sq} has counter {}, at most {} means anything",
                    state.counter,
                    BOBBERS.cap - 1
                )));
            }
            if kind != KING && state.flags.contains(PieceFlags::TELEPORT_USED) {
                return Err(PositionError::Variant(format!(
                    "only a King has a teleport to mark used, not the piece on {sq}"
                )));
            }
        }
        Ok(())
    }

    fn legal_moves(&self, pos: &Position, out: &mut MoveList) {
        let rules = &self.rules;
        movegen::pseudo_legal(rules, pos, out);
        TELEPORTERS.moves(rules, pos, out);
        BOBBERS.moves(rules, pos, out);
        let in_check = self.king_attacked(pos, pos.turn());
        self.king_teleports(pos, in_check, out);
        self.retain_legal(pos, in_check, out);
    }

    fn noisy_moves(&self, pos: &Position, out: &mut MoveList) {
        self.legal_moves(pos, out);
        out.retain(|m| movegen::is_noisy(pos, m));
    }

    fn reference_moves(&self, pos: &Position) -> Vec<Move> {
        let rules = &self.rules;
        let us = pos.turn();
        let mut pseudo = movegen::reference::pseudo_legal(rules, pos);
        TELEPORTERS.reference_moves(rules, pos, &mut pseudo);
        for from in Square::all().filter(|&s| pos.piece_at(s) == Piece::new(us, BOBBER)) {
            for to in BOBBERS.reference_targets(rules, pos, from) {
                pseudo.push(Move::normal(from, to));
            }
        }
        // The slow attack test: every enemy piece's reference targets, explosions and Bobbers.
        let attacked = |p: &Position, sq: Square, by: Color| {
            movegen::reference::attacked(rules, p, sq, by)
                || (sq.rank() == short::first_rank(rules, by)
                    && Square::all().any(|s| p.piece_at(s) == Piece::new(by, TELEPORTER)))
                || Square::all()
                    .filter(|&s| p.piece_at(s) == Piece::new(by, BOBBER))
                    .any(|s| BOBBERS.reference_targets(rules, p, s).contains(&sq))
        };
        let king_attacked = |p: &Position, c: Color| {
            Square::all()
                .filter(|&s| p.piece_at(s) == Piece::new(c, KING))
                .any(|s| attacked(p, s, c.opponent()))
        };
        let in_check = king_attacked(pos, us);
        for from in Square::all().filter(|&s| pos.piece_at(s) == Piece::new(us, KING)) {
            let used = pos.state(from).flags.contains(PieceFlags::TELEPORT_USED);
            for file in HOME_FILES {
                let to = Square::new(file, short::first_rank(rules, us)).expect("on board");
                if !used && !in_check && pos.piece_at(to).is_none() {
                    pseudo.push(Move::special(
                        MoveKind::Teleport,
                        from,
                        to,
                        None,
                        Some(KING),
                    ));
                }
            }
        }
        let count = |k: PieceKind| {
            Square::all()
                .filter(|&s| pos.piece_at(s) == Piece::new(us, k))
                .count()
        };
        pseudo
            .into_iter()
            .filter(|m| match (m.kind(), m.piece()) {
                (MoveKind::Promotion, Some(QUEEN)) => count(QUEEN) < 1,
                (MoveKind::Promotion, Some(SQUIRE)) => count(SQUIRE) < 3,
                _ => true,
            })
            .filter(|m| {
                m.kind() != MoveKind::Castle
                    || rules.spec.castling.iter().any(|c| {
                        c.color == us
                            && c.king_from == m.from()
                            && Some(c.partner_from) == m.aux()
                            && c.must_be_safe
                                .into_iter()
                                .all(|s| !attacked(pos, s, us.opponent()))
                    })
            })
            .filter(|&m| !king_attacked(&self.play(pos, m), us))
            .collect()
    }

    fn play(&self, pos: &Position, m: Move) -> Position {
        let rules = &self.rules;
        match m.kind() {
            MoveKind::Explode => {
                // Both pieces go; a capture, so the fifty-move count restarts.
                let mut next = pos.play(rules, Move::pass());
                next.capture(m.from());
                next.capture(m.to());
                next.set_halfmove(0);
                next
            }
            MoveKind::Teleport => {
                let mut next = pos.play(rules, Move::normal(m.from(), m.to()));
                let mut state = next.state(m.to());
                state.flags.insert(PieceFlags::TELEPORT_USED);
                next.set_state(m.to(), state).expect("a king's state fits");
                next
            }
            _ => {
                let bobber =
                    pos.piece_at(m.from()).kind() == BOBBER && m.kind() == MoveKind::Normal;
                let mut next = pos.play(rules, m);
                if bobber {
                    let mut state = next.state(m.to());
                    state.counter = BOBBERS.next_counter(state.counter);
                    next.set_state(m.to(), state)
                        .expect("a Bobber's state fits");
                }
                next
            }
        }
    }

    fn in_check(&self, pos: &Position) -> bool {
        self.king_attacked(pos, pos.turn())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse_move, Dialect};

    fn moves_from(v: &Schizophrenic, fen: &str, from: &str) -> Vec<String> {
        let pos = v.parse_fen(fen).unwrap();
        let mut list = MoveList::new();
        v.legal_moves(&pos, &mut list);
        let from = Square::parse(from).unwrap();
        let mut out: Vec<String> = list
            .iter()
            .filter(|m| m.from() == from)
            .map(|&m| crate::notation::move_text(v.rules(), Dialect::Uci, m))
            .collect();
        out.sort();
        out
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
        assert_eq!(blast.kind(), MoveKind::Explode);
        // Under CECP the explosion's suffix is a letter of no piece; XBoard's SAN reads back.
        let cecp = crate::notation::move_text(v.rules(), Dialect::Cecp, blast);
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
    fn king_teleports_once() {
        let v = get();
        let pos = v.parse_fen("6k5/12/12/12/12/12/1K10 w - - 0 1").unwrap();
        let step = parse_move(v, &pos, Dialect::Uci, "b1a1").unwrap();
        let jump = parse_move(v, &pos, Dialect::Uci, "b1a1k").unwrap();
        assert_eq!(
            (step.kind(), jump.kind()),
            (MoveKind::Normal, MoveKind::Teleport)
        );
        assert!(parse_move(v, &pos, Dialect::Uci, "b1l1k").is_ok());
        let after = v.play(&pos, jump);
        assert_eq!(
            after.to_fen(v.rules()).split(' ').next(),
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
