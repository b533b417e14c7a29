//! FIDE chess: the baseline every other game is checked against. All its rules are the trait's
//! defaults except insufficient material, which knows FIDE's drawn endings.

use super::{Bench, GameModule, Presentation, SearchSwitches};
use super::{Hooks, Pipeline};
use crate::board::Position;
use crate::core::{Bitboard, Color, Geometry, PieceKind, Square};
use crate::movegen::{self, Shortcuts};
use crate::rules::{CastleSpec, PieceSpec, RuleSpec, Rules, StateSpec};
use std::sync::OnceLock;

/// FIDE's kinds, in the order of `fide_pieces`.
pub const KING: PieceKind = PieceKind(0);
/// The Queen.
pub const QUEEN: PieceKind = PieceKind(1);
/// The Rook.
pub const ROOK: PieceKind = PieceKind(2);
/// The Bishop.
pub const BISHOP: PieceKind = PieceKind(3);
/// The Knight.
pub const KNIGHT: PieceKind = PieceKind(4);
/// The Pawn.
pub const PAWN: PieceKind = PieceKind(5);

/// The kinds above with their letters, checked against the catalogue.
pub const NAMED: &[(PieceKind, char)] = &[
    (KING, 'K'),
    (QUEEN, 'Q'),
    (ROOK, 'R'),
    (BISHOP, 'B'),
    (KNIGHT, 'N'),
    (PAWN, 'P'),
];

/// The FIDE pawn: one step forward, two from its start rank (blocked by a piece in between),
/// captures one step diagonally forward, en passant, promotes on the last rank.
pub const fn fide_pawn(promotes_to: &'static str) -> PieceSpec {
    PieceSpec {
        en_passant: true,
        pawn: true,
        promotes_to,
        initial_ranks: &[1],
        value: 100,
        ..PieceSpec::new('P', "pawn", "fmWfcFifmnD")
    }
}

/// FIDE castling for a king and rooks on the back ranks: the king goes two files towards the rook,
/// the rook lands on the square it crossed. Usable on any width with the given start files.
pub fn fide_castling(
    geo: &Geometry,
    king: PieceKind,
    rook: PieceKind,
    king_file: u8,
    rook_files: [u8; 2],
) -> Vec<CastleSpec> {
    let mut out = Vec::new();
    for color in Color::PLAYERS {
        let rank = if color == Color::White {
            0
        } else {
            geo.ranks() - 1
        };
        for (side, rook_file) in [('K', rook_files[1]), ('Q', rook_files[0])] {
            let sq = |f: u8| Square::new(f, rank).expect("on board");
            let (king_to, rook_to) = if side == 'K' {
                (king_file + 2, king_file + 1)
            } else {
                (king_file - 2, king_file - 1)
            };
            let span = |a: u8, b: u8| -> Bitboard { (a.min(b)..=a.max(b)).map(sq).collect() };
            // `Rules::compile` takes the king's and rook's own squares out.
            let must_be_empty = span(king_file, king_to) | span(rook_file, rook_to);
            out.push(CastleSpec {
                color,
                letter: if color == Color::White {
                    side
                } else {
                    side.to_ascii_lowercase()
                },
                king,
                partner: rook,
                king_from: sq(king_file),
                king_to: sq(king_to),
                partner_from: sq(rook_file),
                partner_to: sq(rook_to),
                must_be_empty,
                must_be_safe: span(king_file, king_to),
            });
        }
    }
    out
}

/// The FIDE King: royal, and it remembers whether it moved, for castling.
pub const fn fide_king() -> PieceSpec {
    PieceSpec {
        royal: true,
        tracks_moved: true,
        ..PieceSpec::new('K', "king", "K")
    }
}

/// The FIDE Bishop.
pub const fn fide_bishop() -> PieceSpec {
    PieceSpec {
        value: 330,
        ..PieceSpec::new('B', "bishop", "B")
    }
}

/// FIDE's six pieces, in the kind order the constants above name; pawns promote to `promotes_to`.
pub fn fide_pieces(promotes_to: &'static str) -> Vec<PieceSpec> {
    vec![
        fide_king(),
        PieceSpec {
            value: 950,
            ..PieceSpec::new('Q', "queen", "Q")
        },
        PieceSpec {
            tracks_moved: true,
            value: 500,
            ..PieceSpec::new('R', "rook", "R")
        },
        fide_bishop(),
        PieceSpec {
            value: 320,
            ..PieceSpec::new('N', "knight", "N")
        },
        fide_pawn(promotes_to),
    ]
}

/// The rules of FIDE chess.
pub fn spec() -> RuleSpec {
    let geometry = Geometry::rectangle(8, 8).expect("8x8 is a valid board");
    let castling = fide_castling(&geometry, KING, ROOK, 4, [0, 7]);
    RuleSpec {
        name: "chess",
        description: "FIDE chess, the baseline",
        pieces: fide_pieces("QRBN"),
        templates: Vec::new(),
        start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        castling,
        promotion_zone: RuleSpec::zone_from_ranks(&geometry, &[7]),
        drop_zone: RuleSpec::whole_board(&geometry),
        fifty_move_plies: 100,
        repetition_count: 3,
        state: StateSpec::default(),
        xboard_builtin: Some("normal"),
        geometry,
    }
}

/// FIDE chess.
pub struct Chess {
    rules: Rules,
}

/// The registered instance.
pub fn get() -> &'static Pipeline<Chess> {
    static CHESS: OnceLock<Pipeline<Chess>> = OnceLock::new();
    CHESS.get_or_init(|| {
        Pipeline(Chess {
            rules: Rules::compile(spec()).expect("the chess spec compiles"),
        })
    })
}

impl GameModule for Chess {
    const NAMED_KINDS: &'static [(PieceKind, char)] = NAMED;

    const BENCH: Bench = Bench {
        depth: Bench::DEFAULT_DEPTH,
        positions: &[
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
            "8/5pk1/6p1/8/3R4/6P1/5PK1/3r4 w - - 0 40",
        ],
    };
}

impl Hooks for Chess {
    fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Check and pins in one walk: the default attack test, check test and shortcuts.
    #[inline(always)]
    fn check_and_shortcuts(&self, pos: &Position) -> (bool, Shortcuts) {
        movegen::table_check_and_evasions(&self.rules, pos)
    }

    /// FIDE's dead positions that are easy to recognise: bare kings, a lone minor piece, and any
    /// number of bishops all on squares of one colour.
    fn insufficient_material(&self, pos: &Position) -> bool {
        let heavy = pos.kind_bb(QUEEN) | pos.kind_bb(ROOK) | pos.kind_bb(PAWN);
        if heavy.nonempty() {
            return false;
        }
        let knights = pos.kind_bb(KNIGHT);
        let bishops = pos.kind_bb(BISHOP);
        if knights.is_empty() && bishops.is_empty() {
            return true;
        }
        if bishops.is_empty() {
            return knights.count() == 1;
        }
        if knights.nonempty() {
            return false;
        }
        let light = bishops
            .into_iter()
            .filter(|s| (s.file() + s.rank()) % 2 == 1)
            .count();
        light == 0 || light == bishops.count() as usize
    }
}

impl SearchSwitches for Chess {
    fn checks_from_tables(&self) -> bool {
        true
    }

    fn attacks_from_tables(&self) -> bool {
        true
    }
}

impl Presentation for Chess {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{EndReason, Outcome, Variant};

    fn outcome(fen: &str) -> Option<Outcome> {
        let v = get();
        let pos = v.parse_fen(fen).unwrap();
        let mut moves = crate::core::MoveList::new();
        v.legal_moves(&pos, &mut moves);
        v.outcome(&pos, moves.len(), &[])
    }

    #[test]
    fn pieces_carry_no_state() {
        let v = get();
        for state in ["{c5}", "{m}", "{g1}", "{aP}"] {
            let fen = format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN{state}R w KQkq - 0 1");
            assert!(v.parse_fen(&fen).is_err(), "{fen}");
        }
    }

    #[test]
    fn start_position_has_twenty_moves() {
        let v = get();
        let mut moves = crate::core::MoveList::new();
        v.legal_moves(&v.start_position(), &mut moves);
        assert_eq!(moves.len(), 20);
    }

    #[test]
    fn game_ends() {
        // Fool's mate.
        assert_eq!(
            outcome("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"),
            Some(Outcome::Win {
                winner: Color::Black,
                reason: EndReason::Checkmate
            })
        );
        // Black king in the corner, no move, not in check.
        assert_eq!(
            outcome("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
            Some(Outcome::Draw {
                reason: EndReason::Stalemate
            })
        );
        assert_eq!(
            outcome("8/8/4k3/8/8/3K4/8/8 w - - 0 1"),
            Some(Outcome::Draw {
                reason: EndReason::InsufficientMaterial
            })
        );
        assert_eq!(
            outcome("8/8/4k3/8/8/3KN3/8/8 w - - 0 1"),
            Some(Outcome::Draw {
                reason: EndReason::InsufficientMaterial
            })
        );
        // Bishops on c1 and f8 are both on dark squares.
        assert_eq!(
            outcome("5b2/8/4k3/8/8/3K4/8/2B5 w - - 0 1"),
            Some(Outcome::Draw {
                reason: EndReason::InsufficientMaterial
            })
        );
        assert_eq!(outcome("4b3/8/4k3/8/8/3K4/8/2B5 w - - 0 1"), None);
        assert_eq!(outcome("8/8/4k3/8/8/3KNN2/8/8 w - - 0 1"), None);
        assert_eq!(outcome("8/8/4k3/8/8/3K4/8/7R w - - 99 80"), None);
        assert_eq!(
            outcome("8/8/4k3/8/8/3K4/8/7R w - - 100 80"),
            Some(Outcome::Draw {
                reason: EndReason::FiftyMoves
            })
        );
    }

    #[test]
    fn threefold_repetition() {
        let v = get();
        let mut pos = v.start_position();
        let mut history = Vec::new();
        let moves = ["g1f3", "g8f6", "f3g1", "f6g8"];
        for round in 0..2 {
            for m in moves {
                let mv =
                    crate::notation::parse_move(v, &pos, crate::notation::Dialect::Uci, m).unwrap();
                history.push(pos.hash());
                pos = v.play(&pos, mv);
            }
            let hist = &history[..];
            let out = v.outcome(&pos, 20, hist);
            if round == 0 {
                assert_eq!(out, None, "twice is not yet a draw");
            } else {
                assert_eq!(
                    out,
                    Some(Outcome::Draw {
                        reason: EndReason::Repetition
                    })
                );
            }
        }
    }

    /// FIDE's pieces on a board ten files wide, its king-side rook on the i-file, one file in
    /// from the corner: the one place where castling's partner may shield the king's target.
    struct InnerRook {
        rules: Rules,
    }

    impl Hooks for InnerRook {
        fn rules(&self) -> &Rules {
            &self.rules
        }
    }

    impl GameModule for InnerRook {}
    impl SearchSwitches for InnerRook {}
    impl Presentation for InnerRook {}

    fn inner_rook() -> Pipeline<InnerRook> {
        let geometry = Geometry::rectangle(10, 8).unwrap();
        let castling = fide_castling(&geometry, KING, ROOK, 4, [0, 8]);
        // FIDE's spec on the wider board.
        let rules = Rules::compile(RuleSpec {
            name: "inner-rook",
            description: "FIDE pieces, ten files, the king's rook on i1",
            start_fen: "4k5/10/10/10/10/10/10/4K3R1 w K - 0 1",
            castling,
            promotion_zone: RuleSpec::zone_from_ranks(&geometry, &[7]),
            drop_zone: RuleSpec::whole_board(&geometry),
            xboard_builtin: None,
            geometry,
            ..spec()
        })
        .unwrap();
        Pipeline(InnerRook { rules })
    }

    /// The castling filter judges the king's target with both pieces moved: castling off the
    /// i-file opens the rank to the enemy rook on j1, which the rook on i1 shielded while the
    /// path was tested. The fast generator, its count and the reference must all refuse it.
    #[test]
    fn castling_judges_the_target_with_the_partner_moved() {
        let v = inner_rook();
        let castles = |fen: &str| {
            let pos = v.parse_fen(fen).unwrap();
            let mut moves = crate::core::MoveList::new();
            v.legal_moves(&pos, &mut moves);
            let fast = moves
                .iter()
                .any(|m| m.kind() == crate::core::MoveKind::Castle);
            let reference = v
                .reference_moves(&pos)
                .iter()
                .any(|m| m.kind() == crate::core::MoveKind::Castle);
            assert_eq!(fast, reference, "{fen}");
            assert_eq!(v.legal_count(&pos), moves.len(), "{fen}");
            fast
        };
        assert!(castles("4k5/10/10/10/10/10/10/4K3R1 w K - 0 1"));
        assert!(castles("4k5/10/10/10/10/10/9r/4K3R1 w K - 0 1"));
        assert!(!castles("4k5/10/10/10/10/10/10/4K3Rr w K - 0 1"));
    }
}
