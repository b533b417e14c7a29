//! Black-box tests of the XBoard/CECP v2 protocol: the binary runs with no arguments and
//! `xboard` as its first command.

use std::time::{Duration, Instant};

use crate::protocol::*;

fn is_move(l: &str) -> bool {
    l.starts_with("move ")
}

/// Waits for `move <m>` (within `timeout`); returns the lines before it and the move, after
/// checking that the move is legal after `moves` from `fen`.
#[track_caller]
fn engine_move(
    e: &mut Engine,
    fen: &str,
    moves: &[&str],
    timeout: Duration,
) -> (Vec<String>, String) {
    let mut lines = e.lines_until("a `move` line", is_move, timeout);
    let last = lines.pop().unwrap();
    let mv = last["move ".len()..].trim().to_string();
    e.assert_legal(fen, moves, &mv);
    (lines, mv)
}

/// Sends `cmd` and requires that nothing at all is printed before the following `pong`.
#[track_caller]
fn silent(e: &mut Engine, cmd: &str) {
    e.send(cmd);
    let lines = e.sync();
    if !lines.is_empty() {
        e.fail(&format!("expected no output for {cmd:?}, got {lines:?}"));
    }
}

/// Sends `usermove <mv>` and requires exactly `Illegal move: <mv>` (possibly with a reason).
#[track_caller]
fn illegal(e: &mut Engine, mv: &str) {
    e.send(&format!("usermove {mv}"));
    let lines = e.sync();
    let expected = format!("Illegal move: {mv}");
    // `Illegal move: MOVE`, or with a reason: `Illegal move (REASON): MOVE`.
    let ok = lines.len() == 1
        && lines[0].starts_with("Illegal move")
        && lines[0].ends_with(&format!(": {mv}"));
    if !ok {
        e.fail(&format!(
            "expected `{expected}` for usermove {mv}, got {lines:?}"
        ));
    }
}

#[test]
fn xboard_features() {
    let mut e = Engine::spawn(Protocol::Xboard);
    e.send("xboard");
    e.send("protover 2");
    let lines = e.lines_until("feature done=1", |l| l == "feature done=1", DEADLINE);
    if lines.first().map(String::as_str) != Some("feature done=0") {
        e.fail("the first answer to protover 2 must be `feature done=0`");
    }
    let features: Vec<&String> = lines.iter().filter(|l| l.starts_with("feature ")).collect();
    if features.len() != lines.len() {
        e.fail("non-feature lines among the features");
    }
    let text = features
        .iter()
        .map(|l| &l["feature ".len()..])
        .collect::<Vec<_>>()
        .join(" ");
    let tokens: Vec<&str> = text.split_whitespace().collect();
    if !text.contains("myname=\"Menagerie") && !text.contains("myname=Menagerie") {
        e.fail("no myname=\"Menagerie ...\" feature");
    }
    // `variants="normal"`; more comma-separated names may follow as variants are added.
    let variants = text
        .split("variants=\"")
        .nth(1)
        .and_then(|v| v.split('"').next())
        .unwrap_or("");
    if !variants.split(',').any(|v| v == "normal") {
        e.fail("no variants=\"normal\" feature");
    }
    for f in "setboard=1 usermove=1 ping=1 playother=1 san=0 time=1 draw=1 sigint=0 sigterm=0 \
              reuse=1 analyze=1 colors=0 memory=1 smp=1 exclude=1 highlight=1 debug=1"
        .split_whitespace()
    {
        if !tokens.contains(&f) {
            e.fail(&format!("feature {f} missing"));
        }
    }
    if !features.iter().any(|l| l.starts_with("feature option=\"")) {
        e.fail("no feature option=\"...\" line");
    }
    e.finish();
}

#[test]
fn xboard_ping_pong() {
    let mut e = Engine::xboard();
    e.send("ping 7");
    e.expect_exact("pong 7");
    e.send("new");
    e.send("ping 8");
    e.expect_exact("pong 8");
    e.finish();
}

#[test]
fn xboard_usermove_legal_and_illegal() {
    let mut e = Engine::xboard();
    silent(&mut e, "new");
    silent(&mut e, "force");
    silent(&mut e, "usermove e2e4");
    illegal(&mut e, "e2e5"); // e2 is empty now, and it is Black's turn
    silent(&mut e, "usermove e7e5"); // the state did not change: Black to move
    illegal(&mut e, "e2e10");
    illegal(&mut e, "a10a9");
    illegal(&mut e, "j2j4");
    illegal(&mut e, "g1f30"); // not g1f3
    illegal(&mut e, "zz");
    silent(&mut e, "usermove g1f3");
    // The engine's own move is legal in startpos e2e4 e7e5 g1f3.
    e.send("sd 1");
    e.send("go");
    engine_move(&mut e, START_FEN, &["e2e4", "e7e5", "g1f3"], DEADLINE);
    e.finish();
}

#[test]
fn xboard_unknown_command() {
    let mut e = Engine::xboard();
    e.send("foo");
    e.expect_exact("Error (unknown command): foo");
    e.send("ping 1");
    e.expect_exact("pong 1");
    e.finish();
}

#[test]
fn xboard_go_plays_side_to_move_with_thinking() {
    let mut e = Engine::xboard();
    e.send("new");
    e.send("sd 3");
    e.send("post");
    e.send("go");
    let (lines, _) = engine_move(&mut e, START_FEN, &[], DEADLINE);
    let thinking: Vec<&String> = lines.iter().filter(|l| is_thinking_line(l)).collect();
    if thinking.is_empty() {
        e.fail("no thinking line (depth score time nodes pv) before the move");
    }
    for l in &lines {
        if !is_thinking_line(l) {
            e.fail(&format!("unexpected line while thinking: {l:?}"));
        }
    }
    e.finish();
}

#[test]
fn xboard_engine_answers_usermove() {
    let mut e = Engine::xboard();
    e.send("new");
    e.send("sd 2");
    e.send("usermove e2e4");
    let (_, reply) = engine_move(&mut e, START_FEN, &["e2e4"], DEADLINE);
    // The game goes on: another user move and another reply.
    let after: Vec<&str> = vec!["e2e4", &reply];
    let mine = legal_moves(START_FEN, &after).into_iter().next().unwrap();
    e.send(&format!("usermove {mine}"));
    engine_move(&mut e, START_FEN, &["e2e4", &reply, &mine], DEADLINE);
    e.finish();
}

#[test]
fn xboard_engine_answers_usermove_with_st() {
    let mut e = Engine::xboard();
    e.send("new");
    e.send("st 1");
    let t = Instant::now();
    e.send("usermove d2d4");
    engine_move(&mut e, START_FEN, &["d2d4"], Duration::from_secs(5));
    let took = t.elapsed();
    if took > Duration::from_millis(2500) {
        e.fail(&format!("with st 1 the engine took {took:?}"));
    }
    e.finish();
}

#[test]
fn xboard_misc_commands_are_known() {
    let mut e = Engine::xboard();
    let cmds = [
        "new",
        "level 40 0:10 0",
        "time 1000",
        "otim 1000",
        "st 1",
        "sd 2",
        "memory 32",
        "cores 1",
        "hard",
        "easy",
        "random",
        "computer",
        "name X",
        "rating 2000 2000",
        "ics -",
        "force",
        "usermove e2e4",
        "usermove e7e5",
        "draw",
        "hint",
        "bk",
        "undo",
        "remove",
        "setscore 10 5",
        "option MultiPV=2",
        "accepted setboard",
        "rejected foo",
        "result 1-0 {x}",
        "new",
        "force",
        "playother",
        "force",
        "white",
        "black",
        "force",
        "nps 1000",
        "new",
        "force",
    ];
    for cmd in cmds {
        e.send(cmd);
        let lines = e.sync();
        if let Some(l) = lines
            .iter()
            .find(|l| l.starts_with("Error (unknown command)"))
        {
            e.fail(&format!("{cmd:?} answered {l:?}"));
        }
    }
    e.finish();
}

#[test]
fn xboard_undo_and_remove() {
    let mut e = Engine::xboard();
    for cmd in [
        "new",
        "force",
        "usermove e2e4",
        "usermove e7e5",
        "usermove g1f3",
        "usermove b8c6",
    ] {
        silent(&mut e, cmd);
    }
    silent(&mut e, "undo"); // takes back b8c6
    silent(&mut e, "remove"); // takes back g1f3 and e7e5
                              // Back at startpos e2e4: Black to move.
    illegal(&mut e, "g1f3");
    silent(&mut e, "usermove c7c5");
    e.send("sd 1");
    e.send("go");
    engine_move(&mut e, START_FEN, &["e2e4", "c7c5"], DEADLINE);
    e.finish();
}

#[test]
fn xboard_setboard_and_illegal_fen() {
    let mut e = Engine::xboard();
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    e.send("new");
    e.send("force");
    silent(&mut e, &format!("setboard {fen}"));
    for bad in [
        "setboard 8/8/8 w - - 0 1",
        "setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "setboard 4k3/8/8/8/8/8/8/4KK2 w - - 0 1",
        "setboard garbage",
    ] {
        e.send(bad);
        let lines = e.sync();
        if !lines
            .iter()
            .any(|l| l.starts_with("tellusererror Illegal position"))
        {
            e.fail(&format!(
                "expected `tellusererror Illegal position...` for {bad:?}"
            ));
        }
    }
    // The kiwipete position is kept.
    e.send("sd 2");
    e.send("go");
    engine_move(&mut e, fen, &[], DEADLINE);
    e.finish();
}

#[test]
fn xboard_analyze() {
    let mut e = Engine::xboard();
    e.send("new");
    e.send("post");
    e.send("analyze");
    e.expect("a thinking line", is_thinking_line, DEADLINE);
    e.send(".");
    e.expect_prefix("stat01: ");
    e.send("exclude e2e4");
    e.send("include all");
    e.pause(Duration::from_millis(200));
    e.send("exit");
    e.sync();
    for l in &e.received().to_vec() {
        if l.starts_with("Error") || is_move(l) {
            e.fail(&format!("unexpected line during analysis: {l:?}"));
        }
    }
    // Analysis is over: no more thinking output.
    e.pause(Duration::from_millis(100));
    e.sync();
    e.expect_no_line(
        "thinking after exit",
        is_thinking_line,
        Duration::from_millis(300),
    );
    e.finish();
}

#[test]
fn xboard_move_now() {
    let mut e = Engine::xboard();
    e.send("new");
    e.send("st 30");
    e.send("go");
    e.pause(Duration::from_millis(300));
    let t = Instant::now();
    e.send("?");
    engine_move(&mut e, START_FEN, &[], Duration::from_secs(5));
    let took = t.elapsed();
    if took > Duration::from_secs(2) {
        e.fail(&format!("`?` took {took:?} to produce a move"));
    }
    e.finish();
}

#[test]
fn xboard_ping_while_thinking_answers_after_move() {
    let mut e = Engine::xboard();
    e.send("new");
    e.send("st 1");
    e.send("go");
    e.pause(Duration::from_millis(100));
    e.send("ping 5");
    let lines = e.lines_until("pong 5", |l| l == "pong 5", DEADLINE);
    if !lines.iter().any(|l| is_move(l)) {
        e.fail("`pong 5` came before the engine's `move` line");
    }
    e.finish();
}

#[test]
fn xboard_mate_claim_after_engine_move() {
    let mut e = Engine::xboard();
    e.send("new");
    e.send("force");
    e.send(&format!("setboard {MATE_IN_1}"));
    e.send("sd 3");
    e.send("go");
    let (_, mv) = engine_move(&mut e, MATE_IN_1, &[], DEADLINE);
    if mv != "a1a8" {
        e.fail(&format!("expected move a1a8, got {mv}"));
    }
    e.expect_exact("1-0 {White mates}");
    e.finish();
}

#[test]
fn xboard_mate_claim_after_user_move() {
    let mut e = Engine::xboard();
    e.send("new");
    e.send("force");
    e.send(&format!("setboard {MATE_IN_1}"));
    e.send("usermove a1a8");
    e.expect_exact("1-0 {White mates}");
    e.finish();
}

#[test]
fn xboard_lift_highlight() {
    let mut e = Engine::xboard();
    e.send("new");
    e.send("lift e2");
    e.expect_line(
        |l| l == "highlight 8/8/8/8/4Y3/4Y3/8/8",
        Duration::from_secs(2),
    );
    e.finish();
}

#[test]
fn xboard_unsupported_variant() {
    let mut e = Engine::xboard();
    e.send("variant nosuch");
    e.expect_prefix("Error (unsupported variant): nosuch");
    e.send("new");
    e.send("sd 1");
    e.send("go");
    engine_move(&mut e, START_FEN, &[], DEADLINE);
    e.finish();
}

#[test]
fn xboard_quit_mid_search() {
    let mut e = Engine::xboard();
    e.send("new");
    e.send("st 30");
    e.send("go");
    e.pause(Duration::from_millis(200));
    let status = e.quit_and_wait(Duration::from_secs(3));
    if !status.success() {
        e.fail(&format!("exit status {status} after quit during a search"));
    }
    e.check_clean();
}

#[test]
fn xboard_quit_when_idle() {
    let mut e = Engine::xboard();
    e.send("new");
    e.quit_and_wait(Duration::from_secs(3));
    e.check_clean();
}

/// A user enters Magician's switch in place as XBoard 4.9.1 lets them: the Bishop, then the
/// cyan empty square the engine offers, then back onto the Bishop's own square, where the
/// engine asks for the new piece; XBoard then sends the two-leg move. The switch on c1 from the
/// start position passes through a3, the nearest empty square (ties by square index).
#[test]
fn xboard_switch_entered_by_clicks() {
    let mut e = Engine::xboard();
    e.send("new");
    e.send("variant magician");
    e.send("force");
    e.send("lift c1");
    e.expect_line(
        |l| l == "highlight 8/8/8/8/8/C7/8/8",
        Duration::from_secs(2),
    );
    silent(&mut e, "put a3");
    e.send("lift a3");
    e.expect_line(
        |l| l == "highlight 8/8/8/8/8/8/8/2M5",
        Duration::from_secs(2),
    );
    e.send("put c1");
    e.expect_exact("choice M");
    silent(&mut e, "usermove c1a3,a3c1m");
    // Black's switch arrives as XBoard relays it, letter lost. The c1 Magician cannot switch
    // again; the other Bishop can.
    silent(&mut e, "usermove c8c8,e6b8");
    illegal(&mut e, "c1c1m");
    silent(&mut e, "usermove f1f1m");
    e.finish();
}

/// Chaos's Chess: XBoard has no third party, so Nature plays inside the engine and says so with
/// `tellothers` (XBoard 4.9.1 shows `telluser` in a dialog that waits for OK, one per ply); a ply
/// sent on Nature's turn (as the match runner relays Nature's) is taken instead.
#[test]
fn xboard_chaos_nature_plays_inside_the_engine() {
    let mut e = Engine::xboard();
    e.send("variant chaos");
    e.sync();
    silent(&mut e, "force");
    for m in ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4"] {
        silent(&mut e, &format!("usermove {m}"));
    }
    // Nature's turn: a refused move changes nothing, Nature's turn included.
    illegal(&mut e, "g8g5");
    // Black's move makes the engine play Nature's ply first.
    e.send("usermove g8f6");
    let lines = e.sync();
    assert!(
        lines.len() == 1 && lines[0].starts_with("tellothers Nature plays "),
        "{lines:?}"
    );
    silent(&mut e, "usermove d2d3");
    // A relayed pass on Nature's turn is Nature's ply: nothing to tell.
    silent(&mut e, "new");
    e.send("variant chaos");
    e.sync();
    silent(&mut e, "force");
    for m in ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "@@@@", "g8f6"] {
        silent(&mut e, &format!("usermove {m}"));
    }
    // The pass left the counter at 5: Nature's turn again after g8f6.
    e.send("usermove d2d3");
    let lines = e.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("tellothers Nature plays ")),
        "{lines:?}"
    );
    e.finish();
}

/// Chaos under XBoard: the board has holdings, one pocket for each kind a player may hold
/// (XBoard's first five slots, P N B R Q), so that XBoard 4.9.1 accepts a reintroduction
/// (`B@c1`); without them (`8x8+0_fairy`) it refused one and forfeited the engine. The start's
/// holdings are empty: Nature's pool is no player's and is left out of XBoard's brackets.
#[test]
fn xboard_chaos_board_has_holdings() {
    let mut e = Engine::xboard();
    e.send("variant chaos");
    let lines = e.sync();
    let setup = "setup (PNBRQ................Kpnbrq................k) 8x8+5_fairy \
                 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1 0";
    assert!(lines.iter().any(|l| l == setup), "{lines:?}");
    // The second engine gets the start as XBoard writes it, empty holdings as `[-]`.
    silent(
        &mut e,
        "setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-] w KQkq - 0 1",
    );
    silent(&mut e, "force");
    silent(&mut e, "usermove e2e4");
    e.finish();
}

/// A reintroduction is a move the engine sends under XBoard like any other: here the rook's
/// return to h1 mates at once (Nf6 holds g8 and h7, Black's g7 pawn the last square), beside
/// King and Knight moves that do not. The position arrives as XBoard writes it (holdings in the
/// brackets, Nature's pool and counter left out).
#[test]
fn xboard_chaos_sends_a_reintroduction() {
    let mut e = Engine::xboard();
    e.send("variant chaos");
    e.sync();
    silent(&mut e, "force");
    silent(&mut e, "setboard 7k/6p1/5N2/8/8/8/8/K7[R] w - - 0 1");
    silent(&mut e, "sd 3");
    e.send("go");
    let lines = e.lines_until("a move", is_move, DEADLINE);
    assert_eq!(
        lines.last().map(String::as_str),
        Some("move R@h1"),
        "{lines:?}"
    );
    let claim = e.lines_until("the mate", |l| l.starts_with("1-0"), DEADLINE);
    assert!(
        claim.last().is_some_and(|l| l.starts_with("1-0 {")),
        "{claim:?}"
    );
    // XBoard relays the same text to the other engine, which takes it.
    let mut other = Engine::xboard();
    other.send("variant chaos");
    other.sync();
    silent(&mut other, "force");
    silent(&mut other, "setboard 7k/6p1/5N2/8/8/8/8/K7[R] w - - 0 1");
    other.send("usermove R@h1");
    let lines = other.sync();
    assert!(
        lines.len() == 1 && lines[0].starts_with("1-0 {"),
        "{lines:?}"
    );
    other.finish();
    e.finish();
}

/// Scholar's mate in one (`Qxf7#`).
const SCHOLAR: &str = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";

/// The depth of a CECP thinking line.
fn thinking_depth(l: &str) -> Option<u32> {
    is_thinking_line(l)
        .then(|| l.split_whitespace().next()?.parse().ok())
        .flatten()
}

/// Analysis goes on deepening and reporting until told to stop, even once the tree has stopped
/// growing (a mate in one is resolved at depth 1): a client that waits for a depth gets it.
#[test]
fn xboard_analysis_deepens_past_a_resolved_tree() {
    let mut e = Engine::xboard();
    e.send("new");
    e.send("force");
    e.send(&format!("setboard {SCHOLAR}"));
    e.send("post");
    e.send("analyze");
    e.expect(
        "a thinking line of depth 10",
        |l| thinking_depth(l).is_some_and(|d| d >= 10),
        DEADLINE,
    );
    e.send("exit");
    e.sync();
    e.finish();
}

/// Runs `engine-tests/python_chess.py` (python-chess's `analyse` with a depth limit) over
/// `protocol` and returns its output; `None` when python-chess is not installed and not
/// required (`MENAGERIE_PYTHON_CHESS_TESTS=1` requires it, as `.ci/run` does).
pub fn python_chess_analyse(protocol: &str, fen: &str, depth: u32) -> Option<String> {
    use std::process::{Command, Stdio};
    let required = std::env::var("MENAGERIE_PYTHON_CHESS_TESTS").is_ok_and(|v| v == "1");
    let found = Command::new("python3")
        .args(["-c", "import chess.engine"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        assert!(
            !required,
            "python-chess required but not installed (pip install chess)"
        );
        eprintln!("skipped: python-chess is not installed (pip install chess)");
        return None;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/engine-tests/python_chess.py");
    let mut child = Command::new("python3")
        .args([script, BIN, protocol, fen, &depth.to_string()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 starts");
    let start = Instant::now();
    while child.try_wait().expect("python3 runs").is_none() {
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("python-chess's analyse over {protocol} did not return within 30 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("python3 output");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "python-chess over {protocol}: {:?}\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    Some(stdout)
}

/// python-chess's depth-limited `analyse` over CECP returns, with the mate.
#[test]
fn xboard_python_chess_analyse_with_a_depth_returns() {
    let Some(out) = python_chess_analyse("xboard", SCHOLAR, 4) else {
        return;
    };
    let depth: u32 = out
        .split_whitespace()
        .nth(1)
        .and_then(|d| d.parse().ok())
        .unwrap_or_else(|| panic!("no depth in {out:?}"));
    assert!(depth >= 4, "{out}");
    assert!(out.contains("pv h5f7 score #+1"), "{out}");
}
