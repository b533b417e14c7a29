//! Invariants every registered variant must keep. They loop over the registry, so a new variant
//! gets them without writing a line: FEN round trip, incremental hash equal to a fresh hash after
//! every move, every generated move legal by the slow test, and the fast generator equal to the
//! reference generator, over seeded random playouts from the start position.

use super::*;
use crate::core::{Color, Move, PieceKind, Special};

use crate::core::rng::SplitMix as Rng;

/// The features of `v`'s own evaluation terms (`SearchSwitches::eval_features`) in the position
/// `fen`, for the games' tests of their terms.
pub(crate) fn game_term_features(v: &dyn Variant, fen: &str) -> Vec<i32> {
    let mut out = vec![0; v.switches().eval_terms().len()];
    v.switches()
        .eval_features(&v.parse_fen(fen).expect("a valid FEN"), &mut out);
    out
}

const PLAYOUTS: u64 = 40;
const PLAYOUT_PLIES: usize = 80;

/// Visits every position of seeded random playouts of `v` (also for the games' own tests).
pub(crate) fn for_each_playout_position(
    v: &dyn Variant,
    mut visit: impl FnMut(&Position, &MoveList),
) {
    for seed in 0..PLAYOUTS {
        let mut rng = Rng(seed);
        let mut pos = v.start_position();
        for _ in 0..PLAYOUT_PLIES {
            let mut moves = MoveList::new();
            v.legal_moves(&pos, &mut moves);
            visit(&pos, &moves);
            if moves.is_empty() {
                break;
            }
            let m = moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize];
            pos = v.play(&pos, m);
        }
    }
}

fn sorted(mut v: Vec<Move>) -> Vec<u32> {
    v.sort_by_key(|m| m.to_bits());
    v.into_iter().map(|m| m.to_bits()).collect()
}

#[test]
fn fen_round_trips() {
    for v in all() {
        for_each_playout_position(*v, |pos, _| {
            let fen = v.fen(pos);
            let back = v
                .parse_fen(&fen)
                .unwrap_or_else(|e| panic!("{}: {fen}: {e}", v.name()));
            assert_eq!(&back, pos, "{}: {fen}", v.name());
            assert_eq!(v.fen(&back), fen);
        });
    }
}

#[test]
fn incremental_hash_equals_fresh_hash() {
    for v in all() {
        for_each_playout_position(*v, |pos, moves| {
            for &m in moves {
                let next = v.play(pos, m);
                assert_eq!(
                    next.hash(),
                    next.compute_hash(),
                    "{}: {m:?} from {}",
                    v.name(),
                    v.fen(pos)
                );
            }
        });
    }
}

#[test]
fn fast_generator_equals_reference() {
    for v in all() {
        // One scratch list for every count, as perft shares it: what one count leaves in it
        // must not change the next.
        let mut scratch = MoveList::new();
        for_each_playout_position(*v, |pos, moves| {
            let fast = sorted(moves.as_slice().to_vec());
            let slow = sorted(v.reference_moves(pos));
            assert_eq!(
                v.legal_count_with(pos, &mut scratch),
                slow.len(),
                "{}: {}",
                v.name(),
                v.fen(pos)
            );
            assert_eq!(fast, slow, "{}: {}", v.name(), v.fen(pos));
        });
    }
}

/// A game's check and shortcuts found in one walk (`Hooks::check_and_shortcuts`) are those the
/// check test and the shortcuts hook find apart, at every playout position and every position
/// a move away (where most checks are).
#[test]
fn check_and_shortcuts_together_equal_apart() {
    for v in all() {
        let mut checks = 0;
        for_each_playout_position(*v, |pos, moves| {
            for next in std::iter::once(pos.clone()).chain(moves.iter().map(|&m| v.play(pos, m))) {
                let [together, apart] = v.check_and_shortcuts_both_ways(&next);
                assert_eq!(together, apart, "{}: {}", v.name(), v.fen(&next));
                checks += usize::from(apart.0);
            }
        });
        // Every game with royal pieces had thousands of checks in these playouts.
        let least = if v.rules().royal.is_empty() { 0 } else { 1000 };
        assert!(checks >= least, "{}: {checks} checks", v.name());
    }
}

/// In every game that says its checks come from the tables (`checks_from_tables`), a move the
/// check screen passes over gives no check, at every playout position; and the screen passes
/// over most quiet moves there, or it would save nothing.
#[test]
fn the_check_screen_passes_over_no_check() {
    let mut games = 0;
    for v in all().iter().filter(|v| v.switches().checks_from_tables()) {
        games += 1;
        let (mut screened, mut moves_seen, mut checks) = (0, 0, 0);
        for_each_playout_position(*v, |pos, moves| {
            let us = pos.turn();
            let Some(screen) = movegen::CheckScreen::new(v.rules(), pos, us) else {
                return;
            };
            for &m in moves.iter() {
                let gives_check = v.in_check(&v.play(pos, m));
                let may = screen.may_check(v.rules(), pos, us, m);
                assert!(may || !gives_check, "{}: {} {m:?}", v.name(), v.fen(pos));
                (moves_seen, screened, checks) = (
                    moves_seen + 1,
                    screened + usize::from(!may),
                    checks + usize::from(gives_check),
                );
            }
        });
        assert!(checks >= 1000, "{}: {checks} checks", v.name());
        assert!(
            screened * 2 > moves_seen,
            "{}: {screened} of {moves_seen}",
            v.name()
        );
    }
    assert!(games >= 2);
}

/// In every game that says its captures are the tables' (`attacks_from_tables`), the attackers
/// `movegen::table_attackers` finds on a move's target, for either side, are exactly the pieces
/// that the game's own test (`Variant::attacked_by`) says capture there one by one, with the
/// moving piece lifted as static exchange evaluation sees the board; at every playout position.
#[test]
fn the_tables_find_every_attacker_where_a_game_says_so() {
    let mut games = 0;
    for v in all().iter().filter(|v| v.switches().attacks_from_tables()) {
        games += 1;
        let mut found = 0;
        for_each_playout_position(*v, |pos, moves| {
            for &m in moves.iter() {
                let (sq, occ) = (m.to(), pos.occupied() & !Bitboard::from_square(m.from()));
                for side in Color::PLAYERS {
                    let theirs = pos.color_bb(side) & occ & !Bitboard::from_square(sq);
                    let fast = movegen::table_attackers(v.rules(), pos, sq, occ, theirs, side);
                    let one =
                        |p| v.attacked_by(pos, sq, side.opponent(), occ, Bitboard::from_square(p));
                    let slow: Vec<Square> = theirs.into_iter().filter(|&p| one(p)).collect();
                    let fast: Vec<Square> = fast.into_iter().collect();
                    assert_eq!(fast, slow, "{}: {} {m:?} {side:?}", v.name(), v.fen(pos));
                    found += fast.len();
                }
            }
        });
        assert!(found >= 10_000, "{}: {found} attackers", v.name());
    }
    assert!(games >= 3);
}

#[test]
fn no_capture_ends_where_it_starts() {
    // `SquareTest::attacked_squares` counts on it: a piece's own square is attacked only by the
    // others.
    for v in all() {
        let rules = v.rules();
        let t = &rules.tables;
        let occupied = rules.geometry().board();
        for color in Color::ALL {
            for kind in PieceKind::all(rules.num_kinds()) {
                let rides = t.capture_rides(color, kind);
                for sq in rules.geometry().board() {
                    let own = Bitboard::from_square(sq);
                    let at = format!("{}: {color:?} {kind:?} on {sq}", v.name());
                    assert!((t.leap_capture(color, kind, sq) & own).is_empty(), "{at}");
                    for occ in [Bitboard::EMPTY, occupied] {
                        let ridden = t.ride_targets(rides, sq, occ);
                        assert!((ridden & own).is_empty(), "{at}");
                    }
                }
            }
        }
    }
}

/// The squares a kind captures on `target` from (`Tables::capture_origins`) are those from
/// which its forward leaps and rides reach `target`, for every game, kind, colour and square,
/// on an empty and a crowded board.
#[test]
fn capture_origins_are_the_forward_captures_reversed() {
    for v in all() {
        let rules = v.rules();
        let t = &rules.tables;
        let board = rules.geometry().board();
        let crowded = Bitboard(0x5a5a_a5a5_3c3c_c3c3_u128 << 64 | 0x0ff0_f00f_6996_9669) & board;
        for color in Color::PLAYERS {
            for kind in PieceKind::all(rules.num_kinds()) {
                let rides = t.capture_rides(color, kind);
                for occ in [Bitboard::EMPTY, crowded] {
                    for target in board {
                        let slow: Bitboard = board
                            .into_iter()
                            .filter(|&s| {
                                (t.leap_capture(color, kind, s) | t.ride_targets(rides, s, occ))
                                    .contains(target)
                            })
                            .collect();
                        assert_eq!(
                            t.capture_origins(color, kind, target, occ),
                            slow,
                            "{}: {color:?} {kind:?} onto {target}",
                            v.name()
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn line_lookups_equal_the_ray_walk() {
    use crate::rules::Direction;
    for v in all() {
        let t = &v.rules().tables;
        let board = v.rules().geometry().board();
        let mut rng = Rng(7);
        for _ in 0..200 {
            // Sparse and dense arrangements, holes and other boards' squares included.
            let density = 1 + rng.below(4);
            let occupied = Bitboard((0..density).fold(!0u128, |acc, _| {
                acc & (u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64()))
            })) & Bitboard::ALL;
            for sq in board {
                for line in 0..4u8 {
                    let walked = t.slide(Direction(line), sq, occupied)
                        | t.slide(Direction(line + 4), sq, occupied);
                    assert_eq!(
                        t.line(u32::from(line), sq, occupied),
                        walked,
                        "{}: line {line} of {sq:?}",
                        v.name()
                    );
                }
            }
        }
    }
}

#[test]
fn every_generated_move_is_legal_by_the_slow_test() {
    for v in all() {
        for_each_playout_position(*v, |pos, moves| {
            for &m in moves {
                // Made through the variant, which knows its own move kinds, and judged by its
                // own exposure rule with the slow attack test.
                let after = v.play(pos, m);
                assert!(
                    !v.exposes_royal(pos, m, &after),
                    "{}: {m:?} in {}",
                    v.name(),
                    v.fen(pos)
                );
            }
        });
    }
}

#[test]
fn start_positions_are_valid_and_named_uniquely() {
    let mut names: Vec<&str> = all().iter().map(|v| v.name()).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), all().len());
    for v in all() {
        v.start_position();
        // The registry's names are written beside the builders: each must build its game.
        assert_eq!(by_name(v.name()).map(|b| b.name()), Ok(v.name()));
    }
    assert_eq!(by_name("normal").unwrap().name(), "chess");
    // The names the protocols greet with, read without building a game, are the games' own.
    let built: Vec<&str> = all().iter().map(|v| v.name()).collect();
    assert_eq!(super::names().collect::<Vec<_>>(), built);
    let xboard: Vec<&str> = all()
        .iter()
        .map(|v| v.rules().spec.xboard_builtin.unwrap_or(v.name()))
        .collect();
    assert_eq!(super::xboard_names().collect::<Vec<_>>(), xboard);
    assert!(by_name("checkers")
        .err()
        .unwrap()
        .to_string()
        .contains("known: chess"));
}

#[test]
fn noisy_moves_are_the_noisy_legal_moves() {
    for v in all() {
        for_each_playout_position(*v, |pos, moves| {
            let mut noisy = MoveList::new();
            v.noisy_moves(pos, v.in_check(pos), &mut noisy);
            let expected: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| v.rulings().is_noisy(pos, m))
                .collect();
            assert_eq!(
                sorted(noisy.as_slice().to_vec()),
                sorted(expected),
                "{}: {}",
                v.name(),
                v.fen(pos)
            );
        });
    }
}

#[test]
fn named_kinds_match_their_letters() {
    for v in all() {
        v.rules()
            .check_named(v.named_kinds())
            .unwrap_or_else(|e| panic!("{}: {e}", v.name()));
    }
    // The check sees a catalogue reordered under a module's names.
    let chess = by_name("chess").unwrap();
    let swapped = [
        (crate::core::PieceKind(1), 'R'),
        (crate::core::PieceKind(2), 'Q'),
    ];
    assert!(chess.rules().check_named(&swapped).is_err());
}

/// A game's own move kinds cannot collide: each game declares them once (`special_kinds!`),
/// with distinct codes and names, and every special move it makes, from the start position,
/// its bench positions and the seeded playouts from them, carries one of its declared codes.
/// Shared pieces (`short.rs`) declare none of their own. The codes seen must also name distinct
/// effects: two moves with the same squares and the same code have the same text.
#[test]
fn special_codes_are_declared_once_and_never_shared() {
    use std::collections::BTreeMap;
    for v in all() {
        let declared = v.specials();
        assert!(declared.len() <= Special::COUNT as usize, "{}", v.name());
        for (i, (code, name)) in declared.iter().enumerate() {
            assert!(code.0 < Special::COUNT, "{}: {name}", v.name());
            for (other, other_name) in &declared[..i] {
                assert_ne!(code, other, "{}: {name} and {other_name}", v.name());
                assert_ne!(name, other_name, "{}", v.name());
            }
        }
        let mut seen: BTreeMap<u8, usize> = BTreeMap::new();
        let mut check = |pos: &Position, moves: &MoveList| {
            for &m in moves {
                if let MoveKind::Special(code) = m.kind() {
                    assert!(
                        declared.iter().any(|(c, _)| *c == code),
                        "{}: {m:?} in {} has the undeclared code {}",
                        v.name(),
                        v.fen(pos),
                        code.0
                    );
                    *seen.entry(code.0).or_default() += 1;
                }
            }
        };
        let starts: Vec<Position> = std::iter::once(v.start_position())
            .chain(
                v.bench()
                    .positions
                    .iter()
                    .map(|fen| v.parse_fen(fen).expect("a bench position parses")),
            )
            .collect();
        for start in &starts {
            for seed in 0..PLAYOUTS {
                let mut rng = Rng(seed);
                let mut pos = start.clone();
                for _ in 0..PLAYOUT_PLIES {
                    let mut moves = MoveList::new();
                    v.legal_moves(&pos, &mut moves);
                    check(&pos, &moves);
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize];
                    pos = v.play(&pos, m);
                }
            }
        }
        // A game that declares kinds makes some of them in play.
        assert_eq!(
            declared.is_empty(),
            seen.is_empty(),
            "{}: {seen:?}",
            v.name()
        );
    }
}

/// Schizophrenic's Teleporter explosion and Existentialist's merge were once the same code from
/// two modules; now each game's codes come from its own declaration, and the explosion is the
/// one Schizophrenic declares.
#[test]
fn the_teleporter_explodes_with_its_game_code() {
    let schizo = by_name("schizophrenic").unwrap();
    let names: Vec<&str> = schizo.specials().iter().map(|(_, n)| *n).collect();
    assert_eq!(names, ["EXPLODE", "KING_TELEPORT"]);
    let exist = by_name("existentialist").unwrap();
    assert!(!exist.specials().iter().any(|(_, n)| *n == "EXPLODE"));
}
