//! Forced mates in FIDE chess: positions with a known shortest mate in 1, 2 or 3 moves, from
//! famous games, classic traps, named checkmate patterns and composed problems. The engine
//! gets `go mate N` and must answer with a first move of a shortest mate and report
//! `score mate N`.
//!
//! How the expected answers were checked (independently of this engine, by a script kept
//! outside the repository):
//! - every FEN was validated with python-chess 1.11.2; every game position was produced by
//!   replaying the published game score from the initial position with python-chess;
//! - shortest mate: Stockfish 15.1 answers `go mate N` with `score mate N`, and at
//!   `go depth 20` with MultiPV 50 no move scores a shorter mate;
//! - solutions: every first move Stockfish 15.1 scores `mate N` at depth 20, MultiPV 50
//!   (MultiPV 500 for `boden2`, which has 51 legal moves), so every legal move got a score;
//! - cross-check: an exhaustive python-chess mate-in-N search over all legal moves gives the
//!   same solution sets and finds no shorter mate in any position.
//!
//! Lines shown in the source comments (e.g. "15.Bxd7+ Nxd7") are the published game moves;
//! the solution lists hold every first move of a shortest mate, which is not always the game
//! move (see `lasker2b`).

use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

use crate::protocol::*;

/// A position where the side to move mates in exactly `n` moves at best.
struct MateCase {
    name: &'static str,
    fen: &'static str,
    n: u32,
    /// Every first move (UCI coordinates) that mates in `n`.
    solutions: &'static [&'static str],
}

/// When the engine has not answered `go mate N` by then, it is sent `stop`.
const SAFETY_LIMIT: Duration = Duration::from_secs(20);
/// How long the engine may take to answer `stop` with `bestmove`.
const STOP_GRACE: Duration = Duration::from_secs(5);

const CASES: &[MateCase] = &[
    // ----- Mate in 1 -----
    // Fool's mate, Wikipedia "Fool's mate": position after 1.f3 e5 2.g4; 2...Qh4#
    MateCase {
        name: "fools",
        fen: "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
        n: 1,
        solutions: &["d8h4"],
    },
    // Scholar's mate, Wikipedia "Scholar's mate": position after 1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6
    //   (reached here by 2.Bc4 Nc6 3.Qh5 Nf6); 4.Qxf7#
    MateCase {
        name: "scholars",
        fen: "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        n: 1,
        solutions: &["h5f7"],
    },
    // Légal–Saint Brie, Paris 1750 (Wikipedia "Légal Trap"): position after 6...Ke7; 7.Nd5#
    MateCase {
        name: "legal1",
        fen: "rn1q1bnr/ppp1kB1p/3p2p1/4N3/4P3/2N5/PPPP1PPP/R1BbK2R w KQ - 1 7",
        n: 1,
        solutions: &["c3d5"],
    },
    // Morphy–Duke Karl of Brunswick and Count Isouard, Paris 1858 (Wikipedia "Opera Game"):
    //   position after 16...Nxb8; 17.Rd8#
    MateCase {
        name: "opera1",
        fen: "1n2kb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2KR4 w k - 0 17",
        n: 1,
        solutions: &["d1d8"],
    },
    // Réti–Tartakower, Vienna 1910 (E. Winter, Chess Notes 3136; de.wikipedia "Réti – Tartakower,
    //   Wien 1910"): position after 10...Kc7; 11.Bd8#
    MateCase {
        name: "reti1",
        fen: "rnb2b1r/ppk2ppp/2p5/4q1B1/4n3/8/PPP2PPP/2KR1BNR w - - 2 11",
        n: 1,
        solutions: &["g5d8"],
    },
    // Anderssen–Kieseritzky, London 1851 (Wikipedia "Immortal Game"): position after 22...Nxf6;
    //   23.Be7#
    MateCase {
        name: "immortal1",
        fen: "r1bk3r/p2p1pNp/n2B1n2/1p1NP2P/6P1/3P4/P1P1K3/q5b1 w - - 0 23",
        n: 1,
        solutions: &["d6e7"],
    },
    // Anderssen–Dufresne, Berlin 1852 (Wikipedia "Evergreen Game"): position after 23...Kf8;
    //   24.Bxe7#
    MateCase {
        name: "evergreen1",
        fen: "1r3kr1/pbpBnp1p/1b3P2/8/8/B1P2q2/P4PPP/3R2K1 w - - 4 24",
        n: 1,
        solutions: &["a3e7"],
    },
    // Ed. Lasker–Thomas, London 1912 (E. Winter, "Chaos in a Miniature"): position after 17...Kg1;
    //   18.Kd2# (18.O-O-O# also mates)
    MateCase {
        name: "lasker1",
        fen: "rn3r2/pbppq1p1/1p2pN2/8/3P2NP/6P1/PPP1BP1R/R3K1k1 w Q - 5 18",
        n: 1,
        solutions: &["e1c1", "e1d2"],
    },
    // Schulder–Boden, London 1853 (Wikipedia "Boden's mate"; E. Winter, "Boden's Mate"): position
    //   after 15.bxc3; 15...Ba3#
    MateCase {
        name: "boden1",
        fen: "2k1rb1r/ppp3pp/2n5/3B1b2/5P2/2P1BQ2/P2N1P1P/2KR3R b - - 0 15",
        n: 1,
        solutions: &["f8a3"],
    },
    // Canal–N.N., Budapest 1934, "Peruvian Immortal" (Wikipedia "Boden's mate"): position after
    //   13...bxc6; 14.Ba6#
    MateCase {
        name: "peruvian1",
        fen: "2kr2nr/p2n1ppp/2p1p3/8/1P1P1B2/2N4P/1PPKBPP1/7q w - - 0 14",
        n: 1,
        solutions: &["e2a6"],
    },
    // Blackburne Shilling Gambit trap (Wikipedia "Blackburne Shilling Gambit"; Muhlock–Kostić,
    //   Cologne 1912): position after 7.Be2; 7...Nf3#
    MateCase {
        name: "blackburne1",
        fen: "r1b1kbnr/pppp1Npp/8/8/3nq3/8/PPPPBP1P/RNBQKR2 b Qkq - 1 7",
        n: 1,
        solutions: &["d4f3"],
    },
    // Englund Gambit trap (Wikipedia "Englund Gambit"): position after 8.Qxc3; 8...Qc1#
    MateCase {
        name: "englund1",
        fen: "r1b1k1nr/pppp1ppp/2n5/4P3/8/2Q2N2/PqP1PPPP/RN2KB1R b KQkq - 0 8",
        n: 1,
        solutions: &["b2c1"],
    },
    // Back-rank mate (Wikipedia "Checkmate pattern", "Back-rank checkmate"); set up here one move
    //   before the mate Rd8#
    MateCase {
        name: "backrank",
        fen: "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        n: 1,
        solutions: &["d1d8"],
    },
    // Smothered mate (Wikipedia "Smothered mate", "Checkmate pattern"); set up here one move
    //   before the mate Nf7#
    MateCase {
        name: "smothered",
        fen: "6rk/6pp/8/6N1/8/8/6PP/6K1 w - - 0 1",
        n: 1,
        solutions: &["g5f7"],
    },
    // Anastasia's mate (Wikipedia "Checkmate pattern"); set up here one move before the mate Rh3#
    MateCase {
        name: "anastasia",
        fen: "5r2/4Nppk/8/8/8/4R3/6PP/6K1 w - - 0 1",
        n: 1,
        solutions: &["e3h3"],
    },
    // Arabian mate (Wikipedia "Checkmate pattern"); set up here one move before the mate Rh7#
    MateCase {
        name: "arabian",
        fen: "7k/R7/5N2/8/8/8/6PP/6K1 w - - 0 1",
        n: 1,
        solutions: &["a7h7"],
    },
    // ----- Mate in 2 -----
    // Légal–Saint Brie, Paris 1750 (Wikipedia "Légal Trap"): position after 5...Bxd1; 6.Bxf7+ Ke7
    //   7.Nd5#
    MateCase {
        name: "legal2",
        fen: "rn1qkbnr/ppp2p1p/3p2p1/4N3/2B1P3/2N5/PPPP1PPP/R1BbK2R w KQkq - 0 6",
        n: 2,
        solutions: &["c4f7"],
    },
    // Morphy–Duke Karl of Brunswick and Count Isouard, Paris 1858 (Wikipedia "Opera Game"):
    //   position after 15...Nxd7; 16.Qb8+ Nxb8 17.Rd8#
    MateCase {
        name: "opera2",
        fen: "4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - 0 16",
        n: 2,
        solutions: &["b3b8"],
    },
    // Réti–Tartakower, Vienna 1910 (E. Winter, Chess Notes 3136): position after 9...Kxd8; 10.Bg5+
    //   Kc7 11.Bd8# (10...Ke8 11.Rd8#)
    MateCase {
        name: "reti2",
        fen: "rnbk1b1r/pp3ppp/2p5/4q3/4n3/8/PPPB1PPP/2KR1BNR w - - 0 10",
        n: 2,
        solutions: &["d2g5"],
    },
    // Anderssen–Kieseritzky, London 1851 (Wikipedia "Immortal Game"): position after 21...Kd8;
    //   22.Qf6+ Nxf6 23.Be7#
    MateCase {
        name: "immortal2",
        fen: "r1bk2nr/p2p1pNp/n2B4/1p1NP2P/6P1/3P1Q2/P1P1K3/q5b1 w - - 1 22",
        n: 2,
        solutions: &["f3f6"],
    },
    // Anderssen–Dufresne, Berlin 1852 (Wikipedia "Evergreen Game"): position after 22...Ke8;
    //   23.Bd7+ Kf8 24.Bxe7#
    MateCase {
        name: "evergreen2",
        fen: "1r2k1r1/pbp1np1p/1b3P2/5B2/8/B1P2q2/P4PPP/3R2K1 w - - 2 23",
        n: 2,
        solutions: &["f5d7"],
    },
    // Ed. Lasker–Thomas, London 1912 (E. Winter, "Chaos in a Miniature"): position after 16...Kg2;
    //   17.Rh2+ Kg1 18.Kd2#
    MateCase {
        name: "lasker2",
        fen: "rn3r2/pbppq1p1/1p2pN2/8/3P2NP/6P1/PPP1BPk1/R3K2R w KQ - 3 17",
        n: 2,
        solutions: &["e1c1", "h1h2"],
    },
    // Schulder–Boden, London 1853 (Wikipedia "Boden's mate"; E. Winter, "Boden's Mate"): position
    //   after 14.Bxd5; 14...Qxc3+ 15.bxc3 Ba3#
    MateCase {
        name: "boden2",
        fen: "2k1rb1r/ppp3pp/2n2q2/3B1b2/5P2/2P1BQ2/PP1N1P1P/2KR3R b - - 0 14",
        n: 2,
        solutions: &["f6c3"],
    },
    // Canal–N.N., Budapest 1934, "Peruvian Immortal" (Wikipedia "Boden's mate"): position after
    //   12...Qxh1; 13.Qxc6+ bxc6 14.Ba6#
    MateCase {
        name: "peruvian2",
        fen: "2kr2nr/pp1n1ppp/2p1p3/8/1P1P1B2/2N2Q1P/1PPKBPP1/7q w - - 0 13",
        n: 2,
        solutions: &["f3c6"],
    },
    // Problem attributed to Paul Morphy, New York Clipper, 28 June 1856: mate in 2, 1.Ra6!
    MateCase {
        name: "morphy",
        fen: "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1",
        n: 2,
        solutions: &["a1a6"],
    },
    // Problem by Z. Mach, Nove Parizske Mody 1899: mate in 2 (US Chess, "Wednesday Workout:
    //   Kramnik's Folly")
    MateCase {
        name: "mach1899",
        fen: "2R5/nk6/R4p2/5Q2/2K5/8/8/8 w - - 0 1",
        n: 2,
        solutions: &["c8a8"],
    },
    // Ed. Lasker–Thomas, London 1912 (E. Winter, "Chaos in a Miniature"): position after 15...Kf3;
    //   the game went 16.Be2+ (mate in 3), but 16.Kf1 or 16.O-O mates in 2 (17.Nh2#)
    MateCase {
        name: "lasker2b",
        fen: "rn3r2/pbppq1p1/1p2pN2/8/3P2NP/3B1kP1/PPP2P2/R3K2R w KQ - 1 16",
        n: 2,
        solutions: &["e1f1", "e1g1"],
    },
    // ----- Mate in 3 -----
    // Réti–Tartakower, Vienna 1910 (E. Winter, Chess Notes 3136): position after 8...Nxe4; 9.Qd8+
    //   Kxd8 10.Bg5+ and 11.Bd8# or 11.Rd8#
    MateCase {
        name: "reti3",
        fen: "rnb1kb1r/pp3ppp/2p5/4q3/4n3/3Q4/PPPB1PPP/2KR1BNR w kq - 0 9",
        n: 3,
        solutions: &["d3d8"],
    },
    // Anderssen–Kieseritzky, London 1851 (Wikipedia "Immortal Game"): position after 20...Na6;
    //   21.Nxg7+ Kd8 22.Qf6+ Nxf6 23.Be7#
    MateCase {
        name: "immortal3",
        fen: "r1b1k1nr/p2p1ppp/n2B4/1p1NPN1P/6P1/3P1Q2/P1P1K3/q5b1 w kq - 2 21",
        n: 3,
        solutions: &["f5g7"],
    },
    // Anderssen–Dufresne, Berlin 1852 (Wikipedia "Evergreen Game"): position after 21...Kxd7;
    //   22.Bf5+ Ke8 23.Bd7+ Kf8 24.Bxe7#
    MateCase {
        name: "evergreen3",
        fen: "1r4r1/pbpknp1p/1b3P2/8/8/B1PB1q2/P4PPP/3R2K1 w - - 0 22",
        n: 3,
        solutions: &["d3f5"],
    },
    // I.E. Orchard–W.E. Orchard, Columbia SC 1886, odds of the queen's knight (American Chess
    //   Review, July 1886; E. Winter, Chess Notes 2908): position after 8...Qxc4; 9.Qd8+ Kxd8
    //   10.Bg5+ Ke8 11.Rd8#
    MateCase {
        name: "orchard3",
        fen: "rnb1kb1r/ppp2ppp/8/4P1Q1/2q1p3/8/PPPB1nPP/2KR2NR w kq - 0 9",
        n: 3,
        solutions: &["g5d8"],
    },
    // Problem by V. Marin y Llovet, Norwich Mercury 1904: mate in 3, 1.Qc6! (US Chess, "Wednesday
    //   Workout: Kramnik's Folly")
    MateCase {
        name: "marin1904",
        fen: "r6B/1p5p/3p2pK/1N5P/1p3P2/3p4/1R2p3/kB1b3Q w - - 0 1",
        n: 3,
        solutions: &["h1c6"],
    },
    // Anastasia's mate (Wikipedia "Checkmate pattern": often the queen is first sacrificed on the
    //   h-file); set up here: Ne7+ Kh8 Qxh7+ Kxh7 Rh3#
    MateCase {
        name: "anastasia3",
        fen: "5rk1/5ppp/8/3N3Q/8/4R3/6PP/6K1 w - - 0 1",
        n: 3,
        solutions: &["d5e7"],
    },
    // Philidor's legacy (Wikipedia "Smothered mate"); set up here after Nf7+ Kg8: Nh6++ Kh8 Qg8+
    //   Rxg8 Nf7#
    MateCase {
        name: "philidor",
        fen: "r4rk1/5Npp/8/8/2Q5/8/5PPP/6K1 w - - 0 1",
        n: 3,
        solutions: &["f7h6"],
    },
];

/// The engine's answer to `go mate N` in one position.
struct Answer {
    bestmove: String,
    /// `M` of the last `info ... score mate M` line before `bestmove`, if any.
    mate: Option<i64>,
    /// From `go` to `bestmove`.
    took: Duration,
    /// The engine had not answered within [`SAFETY_LIMIT`] and was sent `stop`.
    stopped: bool,
}

/// `M` of `score mate M` in a search info line.
fn mate_score(line: &str) -> Option<i64> {
    if !line.starts_with("info ") || line.starts_with("info string") {
        return None;
    }
    let mut it = line
        .split_whitespace()
        .skip_while(|t| *t != "score")
        .skip(1);
    match (it.next(), it.next()) {
        (Some("mate"), Some(v)) => v.parse().ok(),
        _ => None,
    }
}

/// Whether a `bestmove` line is among the lines received from index `from` on.
fn has_bestmove(e: &Engine, from: usize) -> bool {
    e.received()[from..]
        .iter()
        .any(|l| l.starts_with("bestmove"))
}

/// Collects output until a `bestmove` line (from index `from` on) arrives or `deadline` passes.
fn wait_bestmove(e: &mut Engine, from: usize, deadline: Instant) -> bool {
    loop {
        if has_bestmove(e, from) {
            return true;
        }
        let now = Instant::now();
        if now >= deadline {
            return false;
        }
        e.pause((deadline - now).min(Duration::from_millis(1)));
    }
}

/// Runs `go mate N` on `case` in a fresh engine. Panics (with the transcript) only when the
/// session itself breaks: no `bestmove` even after `stop`, a malformed line, an unclean exit.
fn solve(case: &MateCase) -> Answer {
    let mut e = Engine::uci();
    e.send("ucinewgame");
    e.send(&format!("position fen {}", case.fen));
    e.sync();
    let from = e.received().len();
    let start = Instant::now();
    e.send(&format!("go mate {}", case.n));
    let mut stopped = false;
    if !wait_bestmove(&mut e, from, start + SAFETY_LIMIT) {
        stopped = true;
        e.send("stop");
        if !wait_bestmove(&mut e, from, Instant::now() + STOP_GRACE) {
            e.fail(&format!(
                "no bestmove within {STOP_GRACE:?} after `stop` (sent {SAFETY_LIMIT:?} after `go`)"
            ));
        }
    }
    let took = start.elapsed();
    let mut lines = e.lines_until("a bestmove line", |l| l.starts_with("bestmove"), DEADLINE);
    let last = lines.pop().expect("lines_until returns the match");
    let Some((bestmove, _ponder)) = parse_bestmove(&last) else {
        e.fail(&format!("malformed bestmove line {last:?}"));
    };
    let mate = lines.iter().rev().find_map(|l| mate_score(l));
    e.finish();
    Answer {
        bestmove,
        mate,
        took,
        stopped,
    }
}

/// The first line of a caught panic's message.
fn panic_summary(payload: &(dyn std::any::Any + Send)) -> String {
    let msg = if let Some(s) = payload.downcast_ref::<String>() {
        s.as_str()
    } else if let Some(s) = payload.downcast_ref::<&str>() {
        s
    } else {
        "(non-string panic payload)"
    };
    msg.lines().next().unwrap_or("").to_string()
}

/// The table itself: enough positions of each length, unique, every solution a legal move
/// (by the independent shakmaty move generator).
#[test]
fn mates_table_is_consistent() {
    for n in 1..=3 {
        let count = CASES.iter().filter(|c| c.n == n).count();
        assert!(count >= 6, "only {count} mate-in-{n} positions");
    }
    assert!(CASES.len() >= 24);
    for (i, c) in CASES.iter().enumerate() {
        assert!(
            CASES[..i]
                .iter()
                .all(|o| o.fen != c.fen && o.name != c.name),
            "duplicate position {} ({})",
            c.name,
            c.fen
        );
        assert!(!c.solutions.is_empty(), "{}: no solutions", c.name);
        let legal = legal_moves(c.fen, &[]);
        for s in c.solutions {
            assert!(
                legal.iter().any(|m| m == s),
                "{}: solution {s} is not legal in {}",
                c.name,
                c.fen
            );
        }
    }
}

#[test]
fn mates_engine_finds_shortest_mate() {
    let total_start = Instant::now();
    let mut failures = Vec::new();
    let mut times = Vec::new();
    for case in CASES {
        let expected = format!(
            "{} (mate in {}, expected one of {:?})\n    fen {}",
            case.name, case.n, case.solutions, case.fen
        );
        let answer = match panic::catch_unwind(AssertUnwindSafe(|| solve(case))) {
            Ok(a) => a,
            Err(payload) => {
                println!("{:<14} mate in {}: SESSION FAILED", case.name, case.n);
                failures.push(format!(
                    "{expected}\n    engine session failed: {}",
                    panic_summary(payload.as_ref())
                ));
                continue;
            }
        };
        times.push((answer.took, case.name));
        let mut problems = Vec::new();
        if !case.solutions.contains(&answer.bestmove.as_str()) {
            problems.push(format!("bestmove {} is not a solution", answer.bestmove));
        }
        match answer.mate {
            Some(m) if m == case.n as i64 => {}
            Some(m) => problems.push(format!("last score was `mate {m}`, not `mate {}`", case.n)),
            None => problems.push("no `info ... score mate` line before bestmove".to_string()),
        }
        if answer.stopped {
            problems.push(format!(
                "`go mate {}` had not ended after {SAFETY_LIMIT:?}; `stop` was sent",
                case.n
            ));
        }
        let mate = answer
            .mate
            .map_or_else(|| "none".to_string(), |m| m.to_string());
        println!(
            "{:<14} mate in {}: {:>9.3?}  bestmove {:<6} score mate {:<5} {}",
            case.name,
            case.n,
            answer.took,
            answer.bestmove,
            mate,
            if problems.is_empty() { "ok" } else { "FAIL" }
        );
        if !problems.is_empty() {
            failures.push(format!(
                "{expected}\n    engine: bestmove {}, score mate {mate}, {:.3?}: {}",
                answer.bestmove,
                answer.took,
                problems.join("; ")
            ));
        }
    }
    let total = total_start.elapsed();
    let solved = CASES.len() - failures.len();
    println!(
        "solved {solved}/{} positions in {total:.1?} (engine time {:.1?})",
        CASES.len(),
        times.iter().map(|(t, _)| *t).sum::<Duration>()
    );
    times.sort_by(|a, b| b.cmp(a));
    let slow: Vec<String> = times
        .iter()
        .filter(|(t, _)| *t >= Duration::from_secs(2))
        .map(|(t, name)| format!("{name} {t:.1?}"))
        .collect();
    if !slow.is_empty() {
        println!("slow (2 s or more): {}", slow.join(", "));
    }
    assert!(
        failures.is_empty(),
        "{} of {} mate positions not solved:\n{}",
        failures.len(),
        CASES.len(),
        failures.join("\n")
    );
}
