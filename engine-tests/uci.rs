//! Black-box tests of the UCI protocol: the binary runs with no arguments and `uci` as its
//! first command.

use std::time::{Duration, Instant};

use crate::protocol::*;

const AFTER_E4_E5: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";

fn is_bestmove(l: &str) -> bool {
    l.starts_with("bestmove")
}

/// Waits for `bestmove` (within `timeout`); returns the lines before it and the best move,
/// after checking that it (and the ponder move, if any) is legal after `moves` from `fen`.
#[track_caller]
fn bestmove(e: &mut Engine, fen: &str, moves: &[&str], timeout: Duration) -> (Vec<String>, String) {
    let mut lines = e.lines_until("a bestmove line", is_bestmove, timeout);
    let last = lines.pop().unwrap();
    let Some((best, ponder)) = parse_bestmove(&last) else {
        e.fail(&format!("malformed bestmove line {last:?}"));
    };
    e.assert_legal(fen, moves, &best);
    if let Some(p) = ponder {
        let mut after: Vec<&str> = moves.to_vec();
        after.push(&best);
        e.assert_legal(fen, &after, &p);
    }
    (lines, best)
}

/// Sends `d` and returns the FEN of its `info string variant chess fen <FEN>` answer.
#[track_caller]
fn board_fen(e: &mut Engine) -> String {
    e.send("d");
    let line = e.expect_prefix("info string variant chess fen ");
    line["info string variant chess fen ".len()..].to_string()
}

#[track_caller]
fn assert_fen(e: &mut Engine, expected: &str) {
    let fen = board_fen(e);
    if fen != expected {
        e.fail(&format!("`d` shows {fen:?}, expected {expected:?}"));
    }
}

/// Sends `cmd` and requires an `info string` line before the following `readyok`.
#[track_caller]
fn expect_info_string(e: &mut Engine, cmd: &str) {
    e.send(cmd);
    let lines = e.sync();
    if !lines.iter().any(|l| l.starts_with("info string")) {
        e.fail(&format!(
            "expected an `info string` line in answer to {cmd:?}"
        ));
    }
}

#[test]
fn uci_handshake_ids_and_options() {
    let mut e = Engine::spawn(Protocol::Uci);
    e.send("uci");
    let lines = e.lines_until("uciok", |l| l == "uciok", DEADLINE);
    let has = |p: &str| lines.iter().any(|l| l.starts_with(p));
    for prefix in [
        "id name Menagerie",
        "id author ",
        "option name Hash type spin ",
        "option name Threads type spin",
        "option name MultiPV type spin",
        "option name Ponder type check",
        "option name Move Overhead type spin",
    ] {
        if !has(prefix) {
            e.fail(&format!("no line starting with {prefix:?} before uciok"));
        }
    }
    // `option name UCI_Variant type combo default chess var chess`; further `var` entries are
    // allowed as variants are added, but `chess` must be the default and among the values.
    let variant = lines
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant "))
        .cloned()
        .unwrap_or_default();
    let rest = variant
        .strip_prefix("option name UCI_Variant type combo default chess var ")
        .unwrap_or("");
    if !rest.split(" var ").any(|v| v == "chess") {
        e.fail(&format!(
            "expected `option name UCI_Variant type combo default chess var chess`, got {variant:?}"
        ));
    }
    // ids come before the options.
    let first_option = lines.iter().position(|l| l.starts_with("option ")).unwrap();
    let last_id = lines.iter().rposition(|l| l.starts_with("id ")).unwrap();
    if last_id > first_option {
        e.fail("`id` lines must precede the `option` lines");
    }
    e.finish();
}

#[test]
fn uci_isready_and_ucinewgame() {
    let mut e = Engine::uci();
    e.send("isready");
    e.expect_exact("readyok");
    e.send("ucinewgame");
    e.send("isready");
    e.expect_exact("readyok");
    e.send("position startpos moves e2e4 e7e5");
    e.send("ucinewgame");
    e.send("position startpos");
    assert_fen(&mut e, START_FEN);
    e.finish();
}

#[test]
fn uci_setoption_valid_and_invalid() {
    let mut e = Engine::uci();
    e.send("setoption name Hash value 32");
    let lines = e.sync();
    if let Some(l) = lines.iter().find(|l| !l.starts_with("info string")) {
        e.fail(&format!("unexpected answer to a valid setoption: {l:?}"));
    }
    for cmd in [
        "setoption name Hash value abc",
        "setoption name Hash value 0",
        "setoption name NoSuchOption value 1",
        "setoption name UCI_Variant value nosuch",
    ] {
        expect_info_string(&mut e, cmd);
    }
    // The engine carries on, still playing chess.
    e.send("position startpos moves e2e4");
    e.send("go depth 1");
    bestmove(&mut e, START_FEN, &["e2e4"], DEADLINE);
    e.send("setoption name UCI_Variant value chess");
    e.send("setoption name Threads value 1");
    e.send("setoption name Ponder value true");
    e.send("setoption name Move Overhead value 10");
    e.sync();
    e.finish();
}

#[test]
fn uci_position_startpos_and_fen_with_moves() {
    let mut e = Engine::uci();
    e.send("position startpos moves e2e4 e7e5");
    assert_fen(&mut e, AFTER_E4_E5);
    e.send("go depth 1");
    bestmove(&mut e, START_FEN, &["e2e4", "e7e5"], DEADLINE);

    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    e.send(&format!("position fen {fen} moves e1g1 e8c8"));
    assert_fen(
        &mut e,
        "2kr3r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1 w - - 2 2",
    );
    e.send("go depth 2");
    bestmove(&mut e, fen, &["e1g1", "e8c8"], DEADLINE);

    e.send(&format!("position fen {MATE_IN_1}"));
    assert_fen(&mut e, MATE_IN_1);
    e.finish();
}

/// Sets up startpos e2e4 e7e5, tries `position startpos moves e2e4 e7e5 g1f3 <bad>` and
/// requires an `info string` and the previous position kept (via `d` and `go depth 1`).
#[track_caller]
fn refused_move_keeps_position(bad: &[u8]) {
    let mut e = Engine::uci();
    e.send("position startpos moves e2e4 e7e5");
    assert_fen(&mut e, AFTER_E4_E5);
    let mut cmd = b"position startpos moves e2e4 e7e5 g1f3 ".to_vec();
    cmd.extend_from_slice(bad);
    cmd.push(b'\n');
    e.send_raw(&cmd);
    let lines = e.sync();
    if !lines.iter().any(|l| l.starts_with("info string")) {
        e.fail("expected an `info string` line refusing the move list");
    }
    assert_fen(&mut e, AFTER_E4_E5);
    e.send("go depth 1");
    bestmove(&mut e, START_FEN, &["e2e4", "e7e5"], DEADLINE);
    e.finish();
}

#[test]
fn uci_refuses_illegal_move_e2e5() {
    // e2 is empty after e2e4.
    refused_move_keeps_position(b"e2e5");
}

#[test]
fn uci_refuses_two_digit_rank_e2e10() {
    refused_move_keeps_position(b"e2e10");
}

#[test]
fn uci_refuses_two_digit_rank_not_truncated_to_legal_move() {
    // `d2d40` must not be read as the legal `d2d4`, nor `f1c40` as `f1c4`.
    refused_move_keeps_position(b"d2d40");
    refused_move_keeps_position(b"f1c40");
}

#[test]
fn uci_refuses_two_digit_ranks_a10a9() {
    refused_move_keeps_position(b"a10a9");
}

#[test]
fn uci_refuses_files_beyond_h() {
    refused_move_keeps_position(b"j2j4");
    refused_move_keeps_position(b"l1l2");
}

#[test]
fn uci_refuses_malformed_moves() {
    refused_move_keeps_position(b"zz");
    refused_move_keeps_position(&[b'a'; 300]);
    refused_move_keeps_position(b"\xff\xfe\x80");
    refused_move_keeps_position(b"d2d4q");
}

#[test]
fn uci_refuses_a_bad_move_list_entirely() {
    // The first three moves are legal; the whole command is refused, not applied in part.
    let mut e = Engine::uci();
    e.send("position startpos moves e2e4 e7e5");
    e.send("position startpos moves e2e4 e7e5 g1f3 j2j4");
    let lines = e.sync();
    if !lines.iter().any(|l| l.starts_with("info string")) {
        e.fail("expected an `info string` line refusing the move list");
    }
    assert_fen(&mut e, AFTER_E4_E5);
    e.finish();
}

#[test]
fn uci_refuses_bad_fens() {
    let mut e = Engine::uci();
    e.send("position startpos moves e2e4 e7e5");
    for bad in [
        "position fen 8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "position fen rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "position fen 4k3/8/8/8/8/8/8/4KK2 w - - 0 1",
        "position fen garbage",
        "position fen",
        // The side not to move is in check.
        "position fen 4k3/8/8/8/8/8/4r3/4K3 b - - 0 1",
        // A good FEN followed by an illegal move is refused too.
        "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 moves e1e3",
    ] {
        expect_info_string(&mut e, bad);
        assert_fen(&mut e, AFTER_E4_E5);
    }
    e.send_raw(b"position fen \xff\xfe/8/8/8/8/8/8/8 w - - 0 1\n");
    let lines = e.sync();
    if !lines.iter().any(|l| l.starts_with("info string")) {
        e.fail("expected an `info string` line refusing the non-UTF-8 FEN");
    }
    assert_fen(&mut e, AFTER_E4_E5);
    e.send("go depth 1");
    bestmove(&mut e, START_FEN, &["e2e4", "e7e5"], DEADLINE);
    e.finish();
}

#[test]
fn uci_go_depth_3_info_lines() {
    let mut e = Engine::uci();
    e.send("position startpos");
    e.send("go depth 3");
    let (lines, _) = bestmove(&mut e, START_FEN, &[], DEADLINE);
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth "))
        .collect();
    if infos.is_empty() {
        e.fail("no `info depth` line before bestmove");
    }
    for l in &infos {
        let score_ok = match field(l, "score") {
            Some("cp") | Some("mate") => {
                let s = l.split_whitespace().skip_while(|t| *t != "score");
                s.clone().nth(2).is_some_and(|v| v.parse::<i64>().is_ok())
            }
            _ => false,
        };
        let numeric = |k: &str| field(l, k).is_some_and(|v| v.parse::<u64>().is_ok());
        let pv_ok = field(l, "pv").is_some_and(is_coordinate_move);
        if !(numeric("depth")
            && score_ok
            && numeric("nodes")
            && numeric("nps")
            && numeric("time")
            && pv_ok)
        {
            e.fail(&format!(
                "info line lacks depth/score cp|mate/nodes/nps/time/pv: {l:?}"
            ));
        }
    }
    let max_depth = infos
        .iter()
        .filter_map(|l| field(l, "depth")?.parse::<u32>().ok())
        .max()
        .unwrap();
    if max_depth != 3 {
        e.fail(&format!("`go depth 3` reported depth {max_depth}"));
    }
    e.finish();
}

#[test]
fn uci_go_movetime_200() {
    let mut e = Engine::uci();
    e.send("position startpos moves d2d4");
    e.send("go movetime 200");
    bestmove(&mut e, START_FEN, &["d2d4"], Duration::from_secs(2));
    e.finish();
}

#[test]
fn uci_go_with_clock_moves_in_time() {
    let mut e = Engine::uci();
    e.send("position startpos moves e2e4");
    let t = Instant::now();
    e.send("go wtime 1000 btime 1000 winc 10 binc 10");
    // With one second on its clock the engine must answer well within it.
    bestmove(&mut e, START_FEN, &["e2e4"], DEADLINE);
    let took = t.elapsed();
    if took > Duration::from_millis(1000) {
        e.fail(&format!(
            "with btime 1000 the engine took {took:?}: lost on time"
        ));
    }
    e.finish();
}

#[test]
fn uci_go_nodes_5000() {
    let mut e = Engine::uci();
    e.send("position startpos");
    e.send("go nodes 5000");
    bestmove(&mut e, START_FEN, &[], DEADLINE);
    e.finish();
}

#[test]
fn uci_go_mate_1() {
    let mut e = Engine::uci();
    e.send(&format!("position fen {MATE_IN_1}"));
    e.send("go mate 1");
    let (lines, best) = bestmove(&mut e, MATE_IN_1, &[], DEADLINE);
    if best != "a1a8" {
        e.fail(&format!("expected bestmove a1a8, got {best}"));
    }
    if !lines.iter().any(|l| l.contains(" score mate 1 ")) {
        e.fail("no info line with `score mate 1`");
    }
    e.finish();
}

#[test]
fn uci_go_infinite_then_stop() {
    let mut e = Engine::uci();
    e.send("position startpos");
    e.send("go infinite");
    e.expect_no_line(
        "bestmove before stop",
        is_bestmove,
        Duration::from_millis(300),
    );
    let t = Instant::now();
    e.send("stop");
    bestmove(&mut e, START_FEN, &[], Duration::from_secs(2));
    let took = t.elapsed();
    if took > Duration::from_secs(1) {
        e.fail(&format!("bestmove came {took:?} after stop"));
    }
    // Exactly one bestmove.
    e.expect_no_line("second bestmove", is_bestmove, Duration::from_millis(200));
    let lines = e.sync();
    if lines.iter().any(|l| is_bestmove(l)) {
        e.fail("a second bestmove after stop");
    }
    e.finish();
}

#[test]
fn uci_go_ponder_then_ponderhit() {
    let mut e = Engine::uci();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 1000 btime 1000");
    e.expect_no_line(
        "bestmove while pondering",
        is_bestmove,
        Duration::from_millis(300),
    );
    let t = Instant::now();
    e.send("ponderhit");
    // The clock applies now: one second left.
    bestmove(&mut e, START_FEN, &["e2e4", "e7e5"], Duration::from_secs(3));
    let took = t.elapsed();
    if took > Duration::from_millis(1000) {
        e.fail(&format!(
            "bestmove came {took:?} after ponderhit with wtime 1000"
        ));
    }
    e.expect_no_line("second bestmove", is_bestmove, Duration::from_millis(100));
    e.finish();
}

#[test]
fn uci_go_ponder_then_stop() {
    let mut e = Engine::uci();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 1000 btime 1000");
    e.pause(Duration::from_millis(200));
    e.send("stop");
    bestmove(&mut e, START_FEN, &["e2e4", "e7e5"], Duration::from_secs(2));
    e.finish();
}

#[test]
fn uci_stop_when_idle() {
    let mut e = Engine::uci();
    e.send("stop");
    let lines = e.sync();
    if lines.iter().any(|l| is_bestmove(l)) {
        e.fail("`stop` when idle produced a bestmove");
    }
    e.send("stop");
    e.send("position startpos");
    e.send("go depth 2");
    bestmove(&mut e, START_FEN, &[], DEADLINE);
    e.send("stop");
    e.expect_no_line("second bestmove", is_bestmove, Duration::from_millis(100));
    let lines = e.sync();
    if lines.iter().any(|l| is_bestmove(l)) {
        e.fail("`stop` after the search ended produced another bestmove");
    }
    e.finish();
}

#[test]
fn uci_isready_during_search() {
    let mut e = Engine::uci();
    e.send("position startpos");
    e.send("go infinite");
    e.pause(Duration::from_millis(100));
    let t = Instant::now();
    e.send("isready");
    e.expect(
        "readyok during search",
        |l| l == "readyok",
        Duration::from_secs(1),
    );
    let took = t.elapsed();
    if took > Duration::from_millis(500) {
        e.fail(&format!("readyok took {took:?} during a search"));
    }
    e.expect_no_line(
        "bestmove before stop",
        is_bestmove,
        Duration::from_millis(50),
    );
    e.send("stop");
    bestmove(&mut e, START_FEN, &[], Duration::from_secs(2));
    e.finish();
}

#[test]
fn uci_quit_during_search() {
    let mut e = Engine::uci();
    e.send("position startpos");
    e.send("go infinite");
    e.pause(Duration::from_millis(200));
    let status = e.quit_and_wait(Duration::from_secs(3));
    if !status.success() {
        e.fail(&format!("exit status {status} after quit during a search"));
    }
    e.check_clean();
}

#[test]
fn uci_go_perft_3() {
    let mut e = Engine::uci();
    e.send("position startpos");
    e.send("go perft 3");
    let lines = e.lines_until(
        "Nodes searched",
        |l| l.starts_with("Nodes searched:"),
        DEADLINE,
    );
    let total = lines.last().unwrap().clone();
    if total != "Nodes searched: 8902" {
        e.fail(&format!("expected `Nodes searched: 8902`, got {total:?}"));
    }
    let mut sum = 0u64;
    let mut moves = Vec::new();
    for l in &lines[..lines.len() - 1] {
        if l.is_empty() || l.starts_with("info ") {
            continue;
        }
        match l.split_once(": ") {
            Some((mv, n)) if is_coordinate_move(mv) && n.parse::<u64>().is_ok() => {
                sum += n.parse::<u64>().unwrap();
                moves.push(mv.to_string());
            }
            _ => e.fail(&format!("unexpected perft line {l:?}")),
        }
    }
    moves.sort();
    let mut legal = legal_moves(START_FEN, &[]);
    legal.sort();
    if moves != legal || sum != 8902 {
        e.fail(&format!(
            "perft divide lists {moves:?} summing to {sum}, expected {legal:?} summing to 8902"
        ));
    }
    e.sync();
    e.finish();
}

#[test]
fn uci_go_searchmoves() {
    let mut e = Engine::uci();
    e.send("position startpos");
    e.send("go searchmoves e2e4 d2d4 depth 3");
    let (lines, best) = bestmove(&mut e, START_FEN, &[], DEADLINE);
    if best != "e2e4" && best != "d2d4" {
        e.fail(&format!(
            "bestmove {best} is not among searchmoves e2e4 d2d4"
        ));
    }
    for l in lines.iter().filter(|l| l.starts_with("info depth")) {
        if let Some(pv) = field(l, "pv") {
            if pv != "e2e4" && pv != "d2d4" {
                e.fail(&format!("pv outside searchmoves: {l:?}"));
            }
        }
    }
    e.finish();
}

#[test]
fn uci_multipv_3() {
    let mut e = Engine::uci();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    e.send("go depth 3");
    let (lines, _) = bestmove(&mut e, START_FEN, &[], DEADLINE);
    let depth3: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info") && field(l, "depth") == Some("3"))
        .collect();
    let mut firsts = Vec::new();
    for k in ["1", "2", "3"] {
        match depth3.iter().find(|l| field(l, "multipv") == Some(k)) {
            Some(l) => firsts.push(field(l, "pv").unwrap_or("").to_string()),
            None => e.fail(&format!("no depth-3 info line with multipv {k}")),
        }
    }
    firsts.sort();
    firsts.dedup();
    if firsts.len() != 3 {
        e.fail(&format!(
            "the 3 PVs do not start with 3 distinct moves: {firsts:?}"
        ));
    }
    e.finish();
}

#[test]
fn uci_unknown_commands() {
    let mut e = Engine::uci();
    expect_info_string(&mut e, "foo");
    expect_info_string(&mut e, "foo bar baz");
    e.send_raw(b"\xff\xfe\x80\n");
    e.sync();
    e.send("position startpos moves e2e4");
    e.send("go depth 1");
    bestmove(&mut e, START_FEN, &["e2e4"], DEADLINE);
    e.finish();
}

#[test]
fn uci_short_game_by_bestmoves() {
    // A GUI-like loop: the position is re-sent with the growing move list each turn.
    let mut e = Engine::uci();
    e.send("ucinewgame");
    e.sync();
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..8 {
        let list = moves.join(" ");
        if moves.is_empty() {
            e.send("position startpos");
        } else {
            e.send(&format!("position startpos moves {list}"));
        }
        e.send("go depth 2");
        let refs: Vec<&str> = moves.iter().map(|s| s.as_str()).collect();
        let (_, best) = bestmove(&mut e, START_FEN, &refs, DEADLINE);
        moves.push(best);
    }
    e.finish();
}

#[test]
fn uci_stdout_clean_with_logging_enabled() {
    // Logs, if any, must go to stderr, never into the protocol stream.
    let mut e = Engine::spawn_with_env(Protocol::Uci, &[("RUST_LOG", "trace")]);
    e.send("uci");
    e.expect_exact("uciok");
    e.send("setoption name Hash value 8");
    e.send("setoption name Hash value abc");
    e.send("position startpos moves e2e4 e2e5");
    e.send("position startpos moves e2e4");
    e.send("go depth 3");
    bestmove(&mut e, START_FEN, &["e2e4"], DEADLINE);
    e.send("foo");
    e.sync();
    e.finish(); // checks every stdout line is a UCI line
}

/// Every `go` is answered with exactly one `bestmove`: an unknown token is ignored and a value
/// that does not parse is taken as absent (as the UCI text says and Stockfish does), each with
/// an `info string`; a negative clock counts as none left. Lines without a limit that still
/// holds are stopped.
#[test]
fn uci_go_with_unknown_or_unparsable_tokens_is_answered_once() {
    let cases: [(&str, bool, bool); 9] = [
        // (line, whether it needs `stop`, whether an `info string` says what was ignored)
        ("go pon", true, true),
        ("go depth 2 pon", false, true),
        ("go depth abc", true, true),
        ("go depth abc nodes 3000", false, true),
        ("go depth infinite", true, true),
        ("go movetime x1 depth 2", false, true),
        ("go searchmoves zz e2e4 depth 2", false, true),
        ("go wtime -100 btime -100", false, false),
        ("go depth 99999999999999999999999 nodes 3000", false, false),
    ];
    let mut e = Engine::uci();
    e.send("position startpos");
    for (line, needs_stop, warns) in cases {
        e.send(line);
        if needs_stop {
            e.pause(Duration::from_millis(200));
            e.send("stop");
        }
        let (lines, best) = bestmove(&mut e, START_FEN, &[], DEADLINE);
        let warned = lines.iter().any(|l| l.starts_with("info string"));
        if warned != warns {
            e.fail(&format!("{line:?}: info string {warned}, expected {warns}"));
        }
        if line.contains("searchmoves") && best != "e2e4" {
            e.fail(&format!(
                "{line:?}: bestmove {best}, not the one searchmove e2e4"
            ));
        }
        let after = e.sync();
        if after.iter().any(|l| is_bestmove(l)) {
            e.fail(&format!("{line:?}: a second bestmove"));
        }
    }
    e.finish();
}

/// `hashfull` is the table's fill in per mille: within 0-1000, never falling during a search
/// (entries of the running search are only ever replaced by others of it), and above 0 once a
/// one-MiB table (65,536 entries) has taken tens of thousands of writes.
#[test]
fn uci_hashfull_reports_the_fill() {
    let mut e = Engine::uci();
    e.send("setoption name Hash value 1");
    e.send("position startpos");
    e.send("go depth 9");
    let (lines, _) = bestmove(&mut e, START_FEN, &[], Duration::from_secs(60));
    let fills: Vec<(u64, u32)> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .map(|l| {
            let number = |key| field(l, key).and_then(|v| v.parse().ok());
            match (number("nodes"), number("hashfull")) {
                (Some(n), Some(h)) => (n, h as u32),
                _ => e.fail(&format!("no nodes or hashfull in {l:?}")),
            }
        })
        .collect();
    let Some(&(nodes, last)) = fills.last() else {
        e.fail("no info line");
    };
    if fills.iter().any(|&(_, h)| h > 1000) || fills.windows(2).any(|w| w[1].1 < w[0].1) {
        e.fail(&format!("hashfull out of range or falling: {fills:?}"));
    }
    if nodes >= 20_000 && last == 0 {
        e.fail(&format!("hashfull 0 after {nodes} nodes in a 1 MiB table"));
    }
    e.finish();
}
