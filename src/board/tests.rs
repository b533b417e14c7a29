//! The state no variant uses yet, built by hand: three colours, counters, flags, spells,
//! attachments, multi-square pieces, holes, the reserve and a turn schedule with a third party.
//! Each must change the hash, survive a FEN round trip, and travel with its piece.

use super::*;
use crate::core::{Bitboard, Color, Geometry, Move, Piece, PieceKind, Square};
use crate::rules::{PieceSpec, RuleSpec, Rules, TurnSchedule};

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

/// A 10x10 test game with a hole on j10, a neutral third party every 4 plies, and pieces that
/// move like FIDE ones.
fn rules() -> Rules {
    let geometry = Geometry::rectangle(10, 10)
        .unwrap()
        .with_holes(Bitboard::from_square(sq("j10")))
        .unwrap();
    Rules::compile(RuleSpec {
        name: "state-test",
        description: "hand-built state",
        geometry,
        pieces: vec![
            PieceSpec {
                royal: true,
                tracks_moved: true,
                ..PieceSpec::new('K', "king", "K")
            },
            PieceSpec::new('R', "rook", "R"),
            PieceSpec::new('O', "bobber", "W"),
            PieceSpec::new('A', "archer", "F"),
            PieceSpec::new('Z', "shield", "W"),
            PieceSpec {
                tracks_moved: true,
                ..PieceSpec::new('S', "squire", "K")
            },
        ],
        start_fen: "4k4*/10/10/10/10/10/10/10/10/4K5 w - - 0 1 0",
        castling: Vec::new(),
        promotion_ranks: Vec::new(),
        fifty_move_plies: 100,
        repetition_count: 3,
        schedule: TurnSchedule {
            third_party_every: Some(4),
        },
        xboard_builtin: None,
    })
    .unwrap()
}

const K: PieceKind = PieceKind(0);
const R: PieceKind = PieceKind(1);
const O: PieceKind = PieceKind(2);
const A: PieceKind = PieceKind(3);

fn base(rules: &Rules) -> Position {
    Position::from_fen(rules, "4k4*/10/10/10/10/10/10/10/2O7/4K2R2 w - - 0 1 0").unwrap()
}

fn assert_consistent(rules: &Rules, pos: &Position) {
    assert_eq!(
        pos.hash(),
        pos.compute_hash(rules),
        "incremental hash differs from a fresh one"
    );
    let fen = pos.to_fen(rules);
    let back = Position::from_fen(rules, &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(&back, pos, "FEN round trip of {fen}");
    assert_eq!(back.to_fen(rules), fen);
}

/// Applies `change` to the base position and checks the hash moved and everything stays consistent.
fn check_state_kind(change: impl Fn(&Rules, &mut Position)) -> String {
    let rules = rules();
    let plain = base(&rules);
    let mut changed = plain.clone();
    change(&rules, &mut changed);
    assert_ne!(
        plain.hash(),
        changed.hash(),
        "the change must alter the hash"
    );
    assert_consistent(&rules, &changed);
    changed.to_fen(&rules)
}

#[test]
fn counter() {
    let fen = check_state_kind(|_, p| {
        p.set_state(
            sq("c2"),
            PieceState {
                counter: 3,
                ..Default::default()
            },
        )
        .unwrap()
    });
    assert!(fen.contains("O{c3}"), "{fen}");
    // Two counters that differ give different positions.
    let rules = rules();
    let mut a = base(&rules);
    let mut b = base(&rules);
    a.set_state(
        sq("c2"),
        PieceState {
            counter: 3,
            ..Default::default()
        },
    )
    .unwrap();
    b.set_state(
        sq("c2"),
        PieceState {
            counter: 4,
            ..Default::default()
        },
    )
    .unwrap();
    assert_ne!(a.hash(), b.hash());
}

#[test]
fn flags() {
    let mut flags = PieceFlags::default();
    flags.insert(PieceFlags::TELEPORT_USED);
    flags.insert(PieceFlags::PROMOTED);
    let fen = check_state_kind(|_, p| {
        p.set_state(
            sq("e1"),
            PieceState {
                flags,
                ..Default::default()
            },
        )
        .unwrap()
    });
    assert!(fen.contains("K{p,t}"), "{fen}");
}

#[test]
fn timed_spell() {
    let spell = Some(Spell {
        kind: SpellKind::Dazzled,
        expires: 40,
    });
    let fen = check_state_kind(|_, p| {
        p.set_state(
            sq("h1"),
            PieceState {
                spell,
                ..Default::default()
            },
        )
        .unwrap()
    });
    assert!(fen.contains("R{sd@40}"), "{fen}");
    // The same spell with another expiry is another position.
    let rules = rules();
    let mut a = base(&rules);
    a.set_state(
        sq("h1"),
        PieceState {
            spell: Some(Spell {
                kind: SpellKind::Dazzled,
                expires: 41,
            }),
            ..Default::default()
        },
    )
    .unwrap();
    let mut b = base(&rules);
    b.set_state(
        sq("h1"),
        PieceState {
            spell,
            ..Default::default()
        },
    )
    .unwrap();
    assert_ne!(a.hash(), b.hash());
}

#[test]
fn attachment() {
    let fen = check_state_kind(|_, p| {
        p.set_state(
            sq("h1"),
            PieceState {
                attached: Piece::new(Color::White, A),
                ..Default::default()
            },
        )
        .unwrap()
    });
    assert!(fen.contains("R{aA}"), "{fen}");
}

#[test]
fn multi_square_piece() {
    let fen = check_state_kind(|_, p| {
        for s in ["d5", "e5", "f5"] {
            p.put(Piece::new(Color::Black, PieceKind(4)), sq(s));
            p.set_state(
                sq(s),
                PieceState {
                    link: 1,
                    ..Default::default()
                },
            )
            .unwrap();
        }
    });
    assert!(fen.contains("3z{g1}z{g1}z{g1}4"), "{fen}");
}

#[test]
fn neutral_pieces_and_reserve() {
    let fen = check_state_kind(|_, p| {
        p.put(Piece::new(Color::Neutral, R), sq("e5"));
        p.set_reserve(Color::White, R, 2);
        p.set_reserve(Color::Neutral, O, 1);
    });
    assert!(fen.contains("4_R5"), "{fen}");
    assert!(fen.contains("[RR_O]"), "{fen}");
}

#[test]
fn unmoved_flag_of_tracked_pieces() {
    // Squires track whether they moved; written without state they have not.
    let rules = rules();
    let fresh =
        Position::from_fen(&rules, "4k4*/10/10/10/10/10/10/10/10/4K3S1 w - - 0 1 0").unwrap();
    assert!(fresh.unmoved().contains(sq("i1")));
    let moved =
        Position::from_fen(&rules, "4k4*/10/10/10/10/10/10/10/10/4K3S{m}1 w - - 0 1 0").unwrap();
    assert!(!moved.unmoved().contains(sq("i1")));
    assert_ne!(fresh.hash(), moved.hash());
    assert_consistent(&rules, &fresh);
    assert_consistent(&rules, &moved);
}

#[test]
fn turn_schedule_with_third_party() {
    let rules = rules();
    let mut pos = base(&rules);
    let mut seen = Vec::new();
    for _ in 0..5 {
        seen.push(pos.turn());
        assert_consistent(&rules, &pos);
        if pos.turn() == Color::Neutral {
            pos.apply(&rules, Move::pass());
            continue;
        }
        // Shuffle the rook between h1 and h2 (White) or the king (Black).
        let (from, to) = if pos.turn() == Color::White {
            if pos.piece_at(sq("h1")).is_some() {
                (sq("h1"), sq("h2"))
            } else {
                (sq("h2"), sq("h1"))
            }
        } else if pos.piece_at(sq("e10")).is_some() {
            (sq("e10"), sq("e9"))
        } else {
            (sq("e9"), sq("e10"))
        };
        pos.apply(&rules, Move::normal(from, to));
    }
    assert_eq!(
        seen,
        [
            Color::White,
            Color::Black,
            Color::White,
            Color::Black,
            Color::Neutral
        ]
    );
    assert_eq!(pos.turn(), Color::White);
    assert!(
        pos.to_fen(&rules).ends_with(" 5"),
        "the ply is written for schedules with a third party"
    );
    assert_consistent(&rules, &pos);
}

#[test]
fn state_travels_with_its_piece_and_dies_with_it() {
    let rules = rules();
    let mut pos = Position::from_fen(
        &rules,
        "4k4*/10/10/10/10/10/10/10/2O{c2}7/4K2R2 w - - 0 1 0",
    )
    .unwrap();
    pos.apply(&rules, Move::normal(sq("c2"), sq("c3")));
    assert_eq!(pos.state(sq("c3")).counter, 2);
    assert!(pos.state(sq("c2")).is_default());
    assert_consistent(&rules, &pos);
    // Black's king walks next to it... instead the white rook captures a black piece with state.
    let mut pos = Position::from_fen(
        &rules,
        "4k4*/10/10/10/10/10/10/7a{sd@9}2/10/4K2R2 w - - 0 1 0",
    )
    .unwrap();
    pos.apply(&rules, Move::normal(sq("h1"), sq("h3")));
    assert!(
        pos.state(sq("h3")).is_default(),
        "the captured archer's spell is gone"
    );
    assert_eq!(pos.piece_at(sq("h3")), Piece::new(Color::White, R));
    assert_consistent(&rules, &pos);
}

#[test]
fn holes_are_written_and_checked() {
    let rules = rules();
    let pos = base(&rules);
    assert!(pos.to_fen(&rules).starts_with("4k4*/"));
    assert_eq!(
        Position::from_fen(&rules, "4k5/10/10/10/10/10/10/10/10/4K5 w - - 0 1 0"),
        Err(FenError::NotAHole(sq("j10")))
    );
    assert_eq!(
        Position::from_fen(&rules, "4k3**/10/10/10/10/10/10/10/10/4K5 w - - 0 1 0"),
        Err(FenError::HoleMark(sq("i10")))
    );
    assert!(Position::from_fen(&rules, "4k3K*/10/10/10/10/10/10/10/10/4K5 w - - 0 1 0").is_err());
    let _ = K;
}

#[test]
fn fen_errors_say_what_is_wrong() {
    let chess = crate::variants::by_name("chess").unwrap();
    let err = |fen: &str| chess.parse_fen(fen).unwrap_err().to_string();
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        "FEN rank 2 has 9 files, the board has 8"
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        "FEN has 7 ranks, the board has 8"
    );
    assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1").contains("'X'"));
    assert!(err("8/8/8/8/8/8/8/8 w - - 0 1").contains("white has 0 kings"));
    assert!(err("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1").contains("not to move is in check"));
    assert!(err("4k3/8/8/8/8/8/8/4K3 w K - 0 1").contains("castling"));
    assert!(err("4k3/8/8/8/8/8/8/4K3 x - - 0 1").contains("side to move"));
    assert!(err("4k3/8/8/8/8/8/8/4K3 w - e9 0 1").contains("en-passant"));
    assert!(err("4k3/8/8/8/8/8/8/4K3 w - - x 1").contains("halfmove"));
    assert!(err("").contains("empty"));
    assert!(err("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra more").contains("fields"));
}
