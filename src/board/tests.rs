//! The state no variant uses yet, built by hand: three colours, counters, flags, spells,
//! attachments, multi-square pieces, holes, the reserve and turns decided by a clock of the
//! game's own with a third party. Each must change the hash, survive a FEN round trip, and travel
//! with its piece. The test game is written as hooks on the shared pipeline, as a real game is.

use super::*;
use crate::core::{Bitboard, Color, Geometry, Move, Piece, PieceKind, Square};
use crate::rules::{PieceSpec, RuleSpec, Rules, StateSpec};
use crate::variants::{GameModule, Hooks, Pipeline, Presentation, SearchSwitches, Variant};

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

/// Player plies between two turns of the third party.
const PLAYER_PLIES: u8 = 4;

/// A 10x10 test game with a hole on j10, a neutral third party after every four player plies,
/// and pieces that move like FIDE ones.
struct StateGame {
    rules: Rules,
}

impl Hooks for StateGame {
    fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The turn clock counts player plies; at `PLAYER_PLIES` the third party moves, then the
    /// player who did not move last.
    fn next_turn(&self, before: &Position, _m: Move, after: &mut Position) {
        let clock = before.turn_state();
        if before.turn() == Color::Neutral {
            after.set_turn_state(0);
            // Who moved last is whoever does not move next: White after an even number.
            after.set_turn(Color::White);
            return;
        }
        let clock = clock + 1;
        if clock == PLAYER_PLIES {
            after.set_turn_state(clock);
            after.set_turn(Color::Neutral);
        } else {
            after.set_turn_state(clock);
            after.set_turn(before.turn().opponent());
        }
    }

    fn point_of_view(&self, pos: &Position) -> Color {
        match pos.turn() {
            Color::Neutral => Color::White,
            c => c,
        }
    }

    fn read_turn(&self, setup: &Setup, pos: &mut Position) -> Result<(), FenError> {
        let text = setup.turn_field.clone().unwrap_or_default();
        let clock: u8 = text.parse().map_err(|_| FenError::BadTurnField(text))?;
        pos.set_turn_state(clock);
        Ok(())
    }

    fn write_turn(&self, pos: &Position) -> Option<String> {
        Some(pos.turn_state().to_string())
    }

    /// Any piece may carry any state here.
    fn validate(&self, pos: &Position) -> Result<(), PositionError> {
        crate::movegen::validate_basic(self, pos)
    }
}

impl GameModule for StateGame {}
impl SearchSwitches for StateGame {}
impl Presentation for StateGame {}

fn game() -> Pipeline<StateGame> {
    let geometry = Geometry::rectangle(10, 10)
        .unwrap()
        .with_holes(Bitboard::from_square(sq("j10")))
        .unwrap();
    let rules = Rules::compile(RuleSpec {
        name: "state-test",
        description: "hand-built state",
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
        templates: Vec::new(),
        start_fen: "4k4*/10/10/10/10/10/10/10/10/4K5 w - - 0 1 0",
        castling: Vec::new(),
        promotion_zone: RuleSpec::zone_from_ranks(&geometry, &[]),
        drop_zone: RuleSpec::whole_board(&geometry),
        fifty_move_plies: 100,
        repetition_count: 3,
        state: StateSpec {
            flags: &['p', 't'],
            spells: &['d'],
        },
        xboard_builtin: None,
        geometry,
    })
    .unwrap();
    Pipeline(StateGame { rules })
}

const K: PieceKind = PieceKind(0);
const R: PieceKind = PieceKind(1);
const O: PieceKind = PieceKind(2);
const A: PieceKind = PieceKind(3);

/// The flag written `t`.
const FLAG_T: PieceFlags = PieceFlags::bit(1);
/// The flag written `p`.
const FLAG_P: PieceFlags = PieceFlags::bit(0);
/// The spell written `d`.
const DAZZLED: SpellKind = SpellKind(0);

fn base(g: &Pipeline<StateGame>) -> Position {
    g.parse_fen("4k4*/10/10/10/10/10/10/10/2O7/4K2R2 w - - 0 1 0")
        .unwrap()
}

fn assert_consistent(g: &Pipeline<StateGame>, pos: &Position) {
    assert_eq!(
        pos.hash(),
        pos.compute_hash(),
        "incremental hash differs from a fresh one"
    );
    let fen = g.fen(pos);
    let back = g.parse_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(&back, pos, "FEN round trip of {fen}");
    assert_eq!(g.fen(&back), fen);
}

/// Applies `change` to the base position and checks the hash moved and everything stays consistent.
fn check_state_kind(change: impl Fn(&mut Position)) -> String {
    let g = game();
    let plain = base(&g);
    let mut changed = plain.clone();
    change(&mut changed);
    assert_ne!(
        plain.hash(),
        changed.hash(),
        "the change must alter the hash"
    );
    assert_consistent(&g, &changed);
    g.fen(&changed)
}

#[test]
fn counter() {
    let fen = check_state_kind(|p| {
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
    // Two counters that differ give different positions, and so do the second counters.
    let g = game();
    let mut a = base(&g);
    let mut b = base(&g);
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
    let fen = check_state_kind(|p| {
        p.set_state(
            sq("c2"),
            PieceState {
                counter: 3,
                counter2: 2,
                ..Default::default()
            },
        )
        .unwrap()
    });
    assert!(fen.contains("O{c3,f2}"), "{fen}");
}

#[test]
fn flags() {
    let mut flags = PieceFlags::default();
    flags.insert(FLAG_T);
    flags.insert(FLAG_P);
    let fen = check_state_kind(|p| {
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
        kind: DAZZLED,
        left: 40,
    });
    let fen = check_state_kind(|p| {
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
    let g = game();
    let mut a = base(&g);
    a.set_state(
        sq("h1"),
        PieceState {
            spell: Some(Spell {
                kind: DAZZLED,
                left: 41,
            }),
            ..Default::default()
        },
    )
    .unwrap();
    let mut b = base(&g);
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
fn spells_end_and_equal_positions_hash_equal() {
    let g = game();
    // A spell in force for one more ply: after White's move it has ended and is gone, so the
    // position equals the same one reached without a spell.
    let with = g
        .parse_fen("4k4*/10/10/10/10/10/10/10/2O7/4K2R{sd@1}2 w - - 0 1 0")
        .unwrap();
    let without = base(&g);
    let m = crate::notation::parse_move(&g, &with, crate::notation::Dialect::Uci, "e1d1").unwrap();
    let (a, b) = (g.play(&with, m), g.play(&without, m));
    assert!(a.state(sq("h1")).spell.is_none(), "the spell ended");
    assert_eq!(a, b);
    assert_eq!(a.hash(), b.hash());
    // A spell is hashed by the plies it has left: the same spell one ply later, ending one ply
    // later, is the same position.
    let early = g
        .parse_fen("4k4*/10/10/10/10/10/10/10/2O7/4K2R{sd@3}2 w - - 0 2 0")
        .unwrap();
    let late = g
        .parse_fen("4k4*/10/10/10/10/10/10/10/2O7/4K2R{sd@5}2 w - - 0 3 0")
        .unwrap();
    assert_eq!(early.hash(), late.hash());
}

#[test]
fn attachment() {
    let fen = check_state_kind(|p| {
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
    let fen = check_state_kind(|p| {
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
    let fen = check_state_kind(|p| {
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
    let g = game();
    let fresh = g
        .parse_fen("4k4*/10/10/10/10/10/10/10/10/4K3S1 w - - 0 1 0")
        .unwrap();
    assert!(fresh.unmoved().contains(sq("i1")));
    let moved = g
        .parse_fen("4k4*/10/10/10/10/10/10/10/10/4K3S{m}1 w - - 0 1 0")
        .unwrap();
    assert!(!moved.unmoved().contains(sq("i1")));
    assert_ne!(fresh.hash(), moved.hash());
    assert_consistent(&g, &fresh);
    assert_consistent(&g, &moved);
}

#[test]
fn turns_from_the_games_own_clock() {
    let g = game();
    let mut pos = base(&g);
    let mut seen = Vec::new();
    for _ in 0..6 {
        seen.push(pos.turn());
        assert_consistent(&g, &pos);
        let m = if pos.turn() == Color::Neutral {
            Move::pass()
        } else {
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
            Move::normal(from, to)
        };
        pos = g.play(&pos, m);
    }
    use Color::*;
    assert_eq!(seen, [White, Black, White, Black, Neutral, White]);
    assert_eq!(pos.turn(), Black);
    assert_eq!(
        pos.fullmove(),
        3,
        "the third party's ply is no move of a player"
    );
    assert!(
        g.fen(&pos).ends_with(" 1"),
        "the clock is the seventh field"
    );
    assert_consistent(&g, &pos);
    // The same board with another clock is another position.
    let other = g.parse_fen(&g.fen(&pos).replace(" 1", " 2")).unwrap();
    assert_ne!(other.hash(), pos.hash());
    // Games without a clock of their own refuse a seventh field and the third party's turn.
    let chess = crate::variants::by_name("chess").unwrap();
    assert!(chess
        .parse_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1 7")
        .unwrap_err()
        .to_string()
        .contains("seventh field"));
    assert!(chess.parse_fen("4k3/8/8/8/8/8/8/4K3 n - - 0 1").is_err());
}

#[test]
fn state_travels_with_its_piece_and_dies_with_it() {
    let g = game();
    let pos = g
        .parse_fen("4k4*/10/10/10/10/10/10/10/2O{c2}7/4K2R2 w - - 0 1 0")
        .unwrap();
    let pos = g.play(&pos, Move::normal(sq("c2"), sq("c3")));
    assert_eq!(pos.state(sq("c3")).counter, 2);
    assert!(pos.state(sq("c2")).is_default());
    assert_consistent(&g, &pos);
    // The white rook captures a black piece with state.
    let pos = g
        .parse_fen("4k4*/10/10/10/10/10/10/7a{sd@9}2/10/4K2R2 w - - 0 1 0")
        .unwrap();
    let pos = g.play(&pos, Move::normal(sq("h1"), sq("h3")));
    assert!(
        pos.state(sq("h3")).is_default(),
        "the captured archer's spell is gone"
    );
    assert_eq!(pos.piece_at(sq("h3")), Piece::new(Color::White, R));
    assert_consistent(&g, &pos);
}

#[test]
fn holes_are_written_and_checked() {
    let g = game();
    let pos = base(&g);
    assert!(g.fen(&pos).starts_with("4k4*/"));
    assert_eq!(
        g.parse_fen("4k5/10/10/10/10/10/10/10/10/4K5 w - - 0 1 0"),
        Err(FenError::NotAHole(sq("j10")))
    );
    assert_eq!(
        g.parse_fen("4k3**/10/10/10/10/10/10/10/10/4K5 w - - 0 1 0"),
        Err(FenError::HoleMark(sq("i10")))
    );
    assert!(g
        .parse_fen("4k3K*/10/10/10/10/10/10/10/10/4K5 w - - 0 1 0")
        .is_err());
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

/// Text that no position writes and that once read as something else: each is refused with an
/// error that names the fault (issue 24).
#[test]
fn fen_text_faults_are_named() {
    let g = game();
    // The test game's board: 10x10, j10 a hole; `t` and `p` are its flags.
    let fen = |last_rank: &str| format!("4k4*/10/10/10/10/10/10/10/10/{last_rank} w - - 0 1 0");
    assert!(g.parse_fen(&fen("K8O{c3}")).is_ok());
    // An unclosed brace on the last piece of the board field was read as closed.
    assert_eq!(
        g.parse_fen("4k4*/10/10/10/10/10/10/10/10/K8O{c3 w - - 0 1 0"),
        Err(FenError::UnclosedState {
            rank: 1,
            text: "c3".into()
        })
    );
    // Mid-board, the brace ran to the end of its rank, which was reported as too short.
    let mid = g
        .parse_fen("4k4*/10/10/10/10/10/2O{c32/10/10/4K5 w - - 0 1 0")
        .unwrap_err();
    assert_eq!(
        mid,
        FenError::UnclosedState {
            rank: 4,
            text: "c32".into()
        }
    );
    assert_eq!(
        mid.to_string(),
        "FEN piece state '{c32' on rank 4 has no closing '}'"
    );
    // Leading zeros in a count of empty squares, and a count of 0.
    assert_eq!(
        g.parse_fen(&fen("K0009")),
        Err(FenError::BadEmptyCount {
            rank: 1,
            text: "0009".into()
        })
    );
    assert!(matches!(
        g.parse_fen(&fen("K09")),
        Err(FenError::BadEmptyCount { .. })
    ));
    assert!(matches!(
        g.parse_fen(&fen("0K9")),
        Err(FenError::BadEmptyCount { .. })
    ));
    // Counters and spell ends take no leading zero either.
    assert!(matches!(
        g.parse_fen(&fen("K8O{c03}")),
        Err(FenError::BadState(_))
    ));
    assert!(matches!(
        g.parse_fen(&fen("K8O{sd@09}")),
        Err(FenError::BadState(_))
    ));
    assert!(g.parse_fen(&fen("K8O{sd@9}")).is_ok());
    // Empty braces, an empty item, an item given twice.
    assert_eq!(
        g.parse_fen(&fen("K8O{}")),
        Err(FenError::EmptyState(sq("j1")))
    );
    assert!(matches!(
        g.parse_fen(&fen("K8O{c3,}")),
        Err(FenError::BadState(_))
    ));
    assert_eq!(
        g.parse_fen(&fen("K{t,t}9")),
        Err(FenError::RepeatedState {
            square: sq("a1"),
            item: 't'
        })
    );
    assert_eq!(
        g.parse_fen(&fen("K8O{c1,c2}")),
        Err(FenError::RepeatedState {
            square: sq("j1"),
            item: 'c'
        })
    );
    assert!(g.parse_fen(&fen("K{t,p}9")).is_ok());
    // Link numbers run from 1 without a gap.
    assert_eq!(
        g.parse_fen(&fen("K2Z{g3}Z{g3}5")),
        Err(FenError::LinkGap {
            found: 3,
            missing: 1
        })
    );
    assert_eq!(
        g.parse_fen(&fen("K2Z{g1}Z{g1}Z{g3}Z{g3}3")),
        Err(FenError::LinkGap {
            found: 3,
            missing: 2
        })
    );
    assert!(g.parse_fen(&fen("K2Z{g2}Z{g2}Z{g1}Z{g1}3")).is_ok());
    // A reserve without its `]` is reported as written, and text after the `]` by itself.
    let unclosed = g
        .parse_fen("4k4*/10/10/10/10/10/10/10/10/4K5[RR w - - 0 1 0")
        .unwrap_err();
    assert_eq!(unclosed, FenError::UnclosedReserve("RR".into()));
    assert_eq!(unclosed.to_string(), "FEN reserve '[RR' has no closing ']'");
    assert_eq!(
        g.parse_fen("4k4*/10/10/10/10/10/10/10/10/4K5[RR]x w - - 0 1 0"),
        Err(FenError::AfterReserve("x".into()))
    );
    assert!(g
        .parse_fen("4k4*/10/10/10/10/10/10/10/10/4K5[RR] w - - 0 1 0")
        .is_ok());
}

/// A position copied over one that held more kinds and more state is the source, piece for
/// piece and entry for entry: the copy takes the kinds and state entries in use only
/// (`Position::clone_from`), and clears what the old one held beyond them.
#[test]
fn a_copy_over_a_fuller_position_is_its_source() {
    let g = game();
    let source = base(&g);
    let mut fuller = Position::empty();
    for (i, kind) in PieceKind::all(crate::core::MAX_KINDS).enumerate() {
        fuller.put(Piece::new(Color::Black, kind), Square::from_index(i as u8));
    }
    for s in ["a1", "b1", "c1"] {
        let state = PieceState {
            counter: 2,
            ..Default::default()
        };
        fuller.set_state(sq(s), state).unwrap();
    }
    fuller.clone_from(&source);
    assert_eq!(fuller, source);
    for kind in PieceKind::all(crate::core::MAX_KINDS) {
        assert_eq!(fuller.kind_bb(kind), source.kind_bb(kind), "{kind:?}");
    }
    assert_eq!(
        fuller.states().iter().count(),
        source.states().iter().count()
    );
    assert_consistent(&g, &fuller);
    // And the other way: a source with a kind past the copy's over the copy.
    let mut sparse = source.clone();
    let mut full = source.clone();
    full.put(
        Piece::new(Color::White, PieceKind::all(20).last().unwrap()),
        sq("e5"),
    );
    sparse.clone_from(&full);
    assert_eq!(sparse, full);
}
