//! The notation pitfalls of boards beyond 8x8, through both protocols, on Divergent Chess (10x10):
//! UCI writes rank 10 as `a10`; CECP numbers the ten ranks 0..9 (`a0`..`j9`) and has no `a10`;
//! files go beyond `h`. Nothing may be silently cut short (`e2e10` read as `e2e1`).

use std::time::Duration;

use crate::protocol::*;

const START: &str = "rngbqkbgnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNGBQKBGNR w - - 0 1";
const NEAR_PROMOTION: &str = "10/P3K5/10/4p5/4P5/10/10/5k4/10/10 w - - 0 1";

/// A move in UCI notation on a 10x10 board: files a-j, ranks 1-10, optional piece letter.
fn is_uci_move_10x10(m: &str) -> bool {
    let b = m.as_bytes();
    let mut i = 0;
    let mut square = || {
        if i >= b.len() || !(b'a'..=b'j').contains(&b[i]) {
            return false;
        }
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        matches!(
            &m[start..i],
            "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "10"
        )
    };
    let ok = square() && square();
    ok && (i == b.len() || (i + 1 == b.len() && b[i].is_ascii_lowercase()))
}

/// A move in CECP notation on a ten-rank board: files a-j, ranks 0-9 (one digit).
fn is_cecp_move_10x10(m: &str) -> bool {
    let b = m.as_bytes();
    let sq = |f: u8, r: u8| (b'a'..=b'j').contains(&f) && r.is_ascii_digit();
    (b.len() == 4 || (b.len() == 5 && b[4].is_ascii_lowercase()))
        && sq(b[0], b[1])
        && sq(b[2], b[3])
}

fn fen_of(e: &mut Engine) -> String {
    e.send("d");
    let line = e.expect_prefix("info string variant divergent fen ");
    line["info string variant divergent fen ".len()..].to_string()
}

#[test]
fn uci_ten_ranks_and_files_beyond_h() {
    let mut e = Engine::uci();
    e.send("setoption name UCI_Variant value divergent");
    e.expect(
        "the variant's size and start position",
        |l| l == format!("info string variant divergent files 10 ranks 10 startpos {START}"),
        Duration::from_secs(5),
    );
    // A triple step and a pawn on the j-file.
    e.send("position startpos moves e2e5 j9j7 j2j4");
    assert_eq!(
        fen_of(&mut e),
        "rngbqkbgnr/ppppppppp1/10/9p/10/4P5/9P/10/PPPP1PPPP1/RNGBQKBGNR b - - 0 2"
    );
    // A move onto rank 10, written a10, with the promotion letter.
    e.send(&format!("position fen {NEAR_PROMOTION} moves a9a10u"));
    let fen = fen_of(&mut e);
    assert!(fen.starts_with("U9/"), "{fen}");
    // Off-board files and ranks are refused whole, and the previous position stays.
    for bad in ["k2k3", "a10a11", "e2e1"] {
        e.send(&format!("position fen {NEAR_PROMOTION} moves {bad}"));
        e.expect_prefix("info string");
        assert!(
            fen_of(&mut e).starts_with("U9/"),
            "refusing {bad} kept the position"
        );
    }
    // The engine's own moves use two-digit ranks where needed.
    e.send(&format!("position fen {NEAR_PROMOTION}"));
    e.send("go depth 3");
    let line = e.expect_prefix("bestmove ");
    let (best, ponder) = parse_bestmove(&line).unwrap();
    assert!(is_uci_move_10x10(&best), "{line}");
    if let Some(p) = ponder {
        assert!(is_uci_move_10x10(&p), "{line}");
    }
    e.finish();
}

#[test]
fn cecp_ranks_from_zero_on_ten_ranks() {
    let mut e = Engine::xboard();
    e.send("new");
    e.send("variant divergent");
    e.expect(
        "setup for an engine-defined variant",
        |l| l.starts_with("setup (") && l.ends_with(&format!(") 10x10+0_fairy {START}")),
        Duration::from_secs(5),
    );
    let pieces = e.sync();
    assert_eq!(
        pieces.iter().filter(|l| l.starts_with("piece ")).count(),
        11,
        "{pieces:?}"
    );
    assert!(
        pieces.contains(&"piece N& mWafsmWcFafscF".to_string()),
        "{pieces:?}"
    );
    assert!(
        pieces.contains(&"piece P& fmWfceFifmnDifmnH".to_string()),
        "{pieces:?}"
    );
    // CECP d1 is our d2: the pawn's 1-, 2- and 3-steps land on CECP d2, d3, d4.
    e.send("lift d1");
    e.expect_exact("highlight 10/10/10/10/10/3Y6/3Y6/3Y6/10/10");
    e.send("force");
    // e1e4 is the triple step e2-e5; e8e7 a black single step; rank "10" does not exist here.
    for m in ["e1e4", "e8e7", "j1j3"] {
        e.send(&format!("usermove {m}"));
        let lines = e.sync();
        assert!(lines.is_empty(), "usermove {m}: {lines:?}");
    }
    for bad in ["a10a9", "a9a10", "k1k2", "e1e"] {
        e.send(&format!("usermove {bad}"));
        let lines = e.sync();
        assert_eq!(lines, vec![format!("Illegal move: {bad}")]);
    }
    // The engine answers in the same notation.
    e.send("sd 2");
    e.send("go");
    let line = e.expect_prefix("move ");
    let m = line["move ".len()..].trim().to_string();
    assert!(is_cecp_move_10x10(&m), "{line}");
    e.finish();
}

#[test]
fn cecp_promotion_onto_the_last_rank_is_rank_nine() {
    let mut e = Engine::xboard();
    e.send("new");
    e.send("variant divergent");
    e.send("force");
    e.send(&format!("setboard {NEAR_PROMOTION}"));
    let defined = e.sync();
    assert!(
        defined
            .iter()
            .all(|l| l.starts_with("setup (") || l.starts_with("piece ")),
        "{defined:?}"
    );
    // Our a9-a10 is CECP a8-a9, with the promoted pawn's letter.
    e.send("usermove a8a9");
    assert_eq!(
        e.sync(),
        vec!["Illegal move: a8a9".to_string()],
        "promotion is mandatory"
    );
    e.send("usermove a8a9u");
    assert!(e.sync().is_empty());
    e.send("lift e8");
    e.expect_prefix("highlight ");
    e.finish();
}
