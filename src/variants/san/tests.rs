//! SAN: FIDE forms checked by hand against a real game, and for every game the round trip over
//! seeded random playouts (move -> SAN -> move, no two legal moves sharing a SAN).

use super::*;
use crate::core::rng::SplitMix as Rng;
use crate::core::MoveKind;
use crate::notation;
use crate::variants::{all, by_name};

/// Characters a SAN token may hold: none that PGN reads as a separator, a comment, a variation,
/// a result or a move number's dot.
fn pgn_safe(text: &str) -> bool {
    text.chars()
        .all(|c| c.is_ascii_alphanumeric() || "=@x^&>/+#-".contains(c))
}

/// The Opera Game (Morphy against the Duke of Brunswick and Count Isouard, Paris 1858) as
/// every score prints it: pawn captures, `Nbd7`, `O-O-O`, `+` and `#`.
const OPERA: &str = "e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 \
                     Nxb5 cxb5 Bxb5+ Nbd7 O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#";

#[test]
fn a_real_game_reads_and_writes_back_as_printed() {
    let v = by_name("chess").unwrap();
    let mut pos = v.start_position();
    let mut moves = Vec::new();
    for token in OPERA.split_whitespace() {
        let m = read(v, &pos, token).unwrap_or_else(|e| panic!("{token}: {e}"));
        assert_eq!(write(v, &pos, m), token);
        moves.push(m);
        pos = v.play(&pos, m);
    }
    let line = write_line(v, &v.start_position(), &moves);
    assert_eq!(
        line.join(" "),
        OPERA.split_whitespace().collect::<Vec<_>>().join(" ")
    );
}

/// Positions with one move each whose SAN the PGN standard fixes: en passant, promotion,
/// disambiguation by rank and by both file and rank.
#[test]
fn fide_forms_by_hand() {
    let v = by_name("chess").unwrap();
    let cases = [
        (
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "e5f6",
            "exf6",
        ),
        ("8/1P4k1/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", "b8=Q"),
        ("8/1P2k3/8/8/8/8/8/4K3 w - - 0 1", "b7b8r", "b8=R"),
        ("6k1/8/8/8/8/R7/8/R3K3 w - - 0 1", "a1a2", "R1a2"),
        ("6k1/8/8/8/8/8/4K3/R6R w - - 0 1", "a1d1", "Rad1"),
        ("8/2k5/8/8/4Q2Q/8/8/K6Q w - - 0 1", "h4e1", "Qh4e1"),
        ("8/2k5/8/8/4Q2Q/8/8/K6Q w - - 0 1", "h4f4", "Qhf4+"),
        ("6k1/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1", "O-O-O"),
        ("6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1", "a1a8", "Ra8#"),
    ];
    for (fen, uci, san) in cases {
        let pos = v.parse_fen(fen).unwrap();
        let m = crate::notation::parse_move(v, &pos, Dialect::Uci, uci).unwrap();
        assert_eq!(write(v, &pos, m), san, "{fen} {uci}");
        assert_eq!(read(v, &pos, san), Ok(m), "{fen} {san}");
    }
}

#[test]
fn reading_is_tolerant_and_refuses_junk() {
    let v = by_name("chess").unwrap();
    let pos = v.start_position();
    let nf3 = read(v, &pos, "Nf3").unwrap();
    for text in ["Nf3+", "Nf3!?", "Nf3#", "g1f3", "Ng1f3", "Ngf3"] {
        assert_eq!(read(v, &pos, text), Ok(nf3), "{text}");
    }
    for text in [
        "",
        "Nf4",
        "Ke2",
        "O-O",
        "e5",
        "x",
        "Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3",
    ] {
        assert!(read(v, &pos, text).is_err(), "{text}");
    }
}

/// A move's kind: the core kind, or the game's name for its own kind.
fn kind_name(v: &dyn Variant, m: Move) -> String {
    match m.kind() {
        MoveKind::Special(code) => v
            .specials()
            .iter()
            .find(|(c, _)| *c == code)
            .map_or("?".to_string(), |(_, n)| n.to_string()),
        k => format!("{k:?}"),
    }
}

/// Whether `san` has the form `docs/protocol.md` ("SAN") gives moves of `kind` in `game`.
fn documented_form(game: &str, kind: &str, san: &str) -> bool {
    let mark = |m: &str| san.contains(m);
    match (game, kind) {
        (_, "Drop") => mark("@") && san.chars().next().is_some_and(|c| c.is_ascii_uppercase()),
        (_, "Pass") => san == "--",
        (_, "Castle") => san == "O-O" || san == "O-O-O",
        (_, "Shot") => mark("^"),
        (_, "Promotion" | "Transform") => mark("="),
        ("magician", "ALSO_PROMOTE") => mark("/") && mark("="),
        ("schizophrenic", "EXPLODE") => san.ends_with("=-") && mark("x"),
        ("schizophrenic", "KING_TELEPORT") => san.starts_with("K>"),
        ("existentialist", "MERGE") => mark("&"),
        ("existentialist", "SHIELD3") => san.matches('&').count() == 2,
        ("existentialist", "SHIELD_MOVE") => san.starts_with('&') && mark("-"),
        ("existentialist", "IN_PLACE") => san.starts_with("Kx"),
        ("existentialist", "SHARED_STEP") => san.starts_with('K'),
        (_, "TURN") => san.split('/').count() <= 3,
        _ => !mark("~"),
    }
}

/// Plies per playout and playouts per game: a few hundred plies of every game.
const PLIES: usize = 100;
const PLAYOUTS: u64 = 3;

/// For every game, at every position of seeded random playouts (from the start, and from each
/// bench position, which hold the rarer moves): every legal move has a SAN no
/// other legal move has, safe in PGN, that reads back to it; and the moves played read back
/// from their SAN with check marks.
#[test]
fn every_game_round_trips_over_random_playouts() {
    for &v in all() {
        let mut kinds = std::collections::BTreeSet::new();
        let bench = v.bench().positions.iter().map(|f| v.parse_fen(f).unwrap());
        let starts: Vec<Position> = (0..PLAYOUTS)
            .map(|_| v.start_position())
            .chain(bench)
            .collect();
        for (seed, start) in starts.into_iter().enumerate() {
            let mut rng = Rng(seed as u64 + 7);
            let mut pos = start;
            for ply in 0..PLIES {
                let listed = legal_with_san(v, &pos);
                if listed.is_empty() {
                    break;
                }
                let mut seen = HashMap::new();
                for (m, s) in &listed {
                    let kind = kind_name(v, *m);
                    assert!(
                        documented_form(v.name(), &kind, s),
                        "{}: {kind} written {s}",
                        v.name()
                    );
                    kinds.insert(kind);
                    assert!(
                        pgn_safe(s) && !s.is_empty(),
                        "{}: {s:?} in {}",
                        v.name(),
                        v.fen(&pos)
                    );
                    if let Some(other) = seen.insert(s.clone(), *m) {
                        panic!(
                            "{}: {other:?} and {m:?} are both {s} in {}",
                            v.name(),
                            v.fen(&pos)
                        );
                    }
                }
                // Reading every move is quadratic; read a spread of them and the one played.
                let pick = rng.below(listed.len());
                for (i, (m, s)) in listed.iter().enumerate() {
                    if i == pick || (i + ply) % 5 == 0 {
                        assert_eq!(
                            read(v, &pos, s),
                            Ok(*m),
                            "{}: {s} in {}",
                            v.name(),
                            v.fen(&pos)
                        );
                    }
                }
                let m = listed[pick].0;
                let full = write(v, &pos, m);
                assert!(full.starts_with(&listed[pick].1), "{full}");
                assert_eq!(
                    read(v, &pos, &full),
                    Ok(m),
                    "{}: {full} in {}",
                    v.name(),
                    v.fen(&pos)
                );
                pos = v.play(&pos, m);
            }
        }
        eprintln!("{}: move kinds seen {kinds:?}", v.name());
    }
}

/// Existentialist's rarer moves, which random playouts seldom reach: the King's capture in
/// place and its step from the square it shares, a merge into a shield and the shield's move.
#[test]
fn existentialist_shared_squares_and_shields() {
    let v = by_name("existentialist").unwrap();
    let uci = |pos: &Position, t: &str| notation::parse_move(v, pos, Dialect::Uci, t).unwrap();
    // Black's Rook takes onto White's protected King+Archer: the two share e1.
    let pos = v
        .parse_fen("k9/10/10/10/10/10/10/10/4r5/4K{aA}5 b - - 0 1")
        .unwrap();
    let shared = v.play(&pos, uci(&pos, "e2e1"));
    let in_place = uci(&shared, "e1e1");
    assert_eq!(write(v, &shared, in_place), "Kxe1");
    assert_eq!(read(v, &shared, "Kxe1"), Ok(in_place));
    let away = uci(&shared, "e1d2");
    assert_eq!(kind_name(v, away), "SHARED_STEP");
    assert_eq!(read(v, &shared, &write(v, &shared, away)), Ok(away));
    // The Zednick joins the Teleporter beside it: a merge, then the shield moves.
    let pos = v
        .parse_fen("k9/10/10/10/10/10/10/10/3ZT5/9K w - - 0 1")
        .unwrap();
    let merge = uci(&pos, "d2e2");
    assert_eq!(write(v, &pos, merge), "Z&e2");
    let shield = v.play(&v.play(&pos, merge), uci(&v.play(&pos, merge), "a10b10"));
    let moved = legal_with_san(v, &shield)
        .into_iter()
        .filter(|(m, _)| kind_name(v, *m) == "SHIELD_MOVE")
        .collect::<Vec<_>>();
    assert!(!moved.is_empty());
    for (m, s) in moved {
        assert!(s.starts_with("&d2-"), "{s}");
        assert_eq!(read(v, &shield, &s), Ok(m));
    }
}
