//! Hostile and careless input over both protocols, one test per fault the protocol fuzzer
//! (`engine-tests/fuzz`) or a user found: every refused command is answered as the protocol says
//! and changes nothing, and nothing kills or blocks the engine.

use std::time::Duration;

use crate::protocol::*;

/// The position `d` shows: `info string variant V fen F` (UCI) or `# variant V fen F` (CECP).
#[track_caller]
pub fn fen_of(e: &mut Engine) -> String {
    e.send("d");
    let line = e.expect("the `d` answer", |l| l.contains(" fen "), DEADLINE);
    line.split_once(" fen ").unwrap().1.to_string()
}

/// Sends `cmd` and requires a refusal (`info string`, `Error (`, `Illegal move`) before the
/// next sync.
#[track_caller]
fn refused(e: &mut Engine, cmd: &str) -> Vec<String> {
    e.send(cmd);
    let lines = e.sync();
    let refusal = |l: &String| {
        l.starts_with("info string") || l.starts_with("Error (") || l.starts_with("Illegal move")
    };
    if !lines.iter().any(refusal) {
        e.fail(&format!("expected a refusal of {cmd:?}, got {lines:?}"));
    }
    lines
}

const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

#[test]
fn cecp_a_refused_remove_changes_nothing() {
    let mut e = Engine::xboard();
    for cmd in ["new", "force", "usermove e2e4"] {
        e.send(cmd);
    }
    refused(&mut e, "remove");
    assert_eq!(fen_of(&mut e), AFTER_E4, "remove with one ply played");

    // Nor the game-over flag: after `result`, moves stay refused.
    e.send("result 1-0 {adjudication}");
    refused(&mut e, "remove");
    refused(&mut e, "usermove e7e5");
    assert_eq!(fen_of(&mut e), AFTER_E4);

    // Nor the exclude list: only e7e5 is left to analyse before and after the refusal.
    e.send("new");
    e.send("force");
    e.send("usermove e2e4");
    e.send("exclude all");
    e.send("include e7e5");
    refused(&mut e, "remove");
    e.send("post");
    e.send("analyze");
    let line = e.expect("a thinking line", is_thinking_line, DEADLINE);
    assert_eq!(line.split_whitespace().nth(4), Some("e7e5"), "{line}");
    e.send("exit");
    e.finish();
}

/// The memory the system says is free, in MiB (None where it does not say).
fn free_mb() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? / 1024)
}

/// The largest `Hash` the engine offers, which only a machine with more free memory can give.
const HUGE_MB: u64 = 65_536;

#[test]
fn a_table_beyond_free_memory_is_refused_and_the_engine_plays_on() {
    if free_mb().is_none_or(|f| f >= HUGE_MB) {
        eprintln!("skipped: this machine may have {HUGE_MB} MB free");
        return;
    }
    let mut e = Engine::uci();
    refused(&mut e, &format!("setoption name Hash value {HUGE_MB}"));
    e.send("go depth 1");
    e.expect_prefix("bestmove ");
    e.finish();

    let mut e = Engine::xboard();
    refused(&mut e, &format!("memory {HUGE_MB}"));
    e.send("new");
    e.send("sd 1");
    e.send("go");
    e.expect_prefix("move ");
    e.finish();
}

#[test]
fn an_overlong_line_is_refused_whole() {
    for mut e in [Engine::uci(), Engine::xboard()] {
        // Its tail must not run as a command: the engine would quit.
        let mut line = vec![b'x'; 1 << 16];
        line.extend_from_slice(b"quit\n");
        e.send_raw(&line);
        let lines = e.sync();
        assert_eq!(lines.len(), 1, "one refusal: {lines:?}");
        // The longest line allowed is read whole, as an unknown command.
        let mut line = vec![b'x'; 1 << 16];
        line.push(b'\n');
        e.send_raw(&line);
        let lines = e.sync();
        assert!(
            lines.len() == 1 && lines[0].contains("xxxx"),
            "unknown command: {lines:?}"
        );
        e.finish();
    }
}

#[test]
fn uci_go_perft_stops_and_the_loop_answers_meanwhile() {
    let mut e = Engine::uci();
    e.send("go perft 20");
    e.sync();
    e.send("stop");
    e.expect_exact("info string perft stopped");
    e.sync();
    // A perft that ends prints its count, and quit ends a running one.
    e.send("go perft 2");
    e.expect_exact("Nodes searched: 400");
    // A `go perft 0` answers after the perft before it, even one that is still running.
    e.send("go perft 20");
    e.send("go perft 0");
    e.expect_exact("info string perft stopped");
    e.expect_exact("Nodes searched: 1");
    e.send("go perft 20");
    let status = e.quit_and_wait(Duration::from_secs(5));
    assert!(status.success(), "{status}");
}

#[test]
fn cecp_analysis_output_is_of_the_current_position() {
    let mut e = Engine::xboard();
    e.send("variant divergent");
    e.send("post");
    e.send("analyze");
    e.expect("a thinking line", is_thinking_line, DEADLINE);
    e.send("new");
    e.send("result 1-0");
    e.send("analyze");
    e.send(".");
    let stat: Vec<String> = e
        .sync()
        .into_iter()
        .filter(|l| l.starts_with("stat01"))
        .collect();
    // Nothing was searched in this game: no move of the last one.
    assert_eq!(stat, ["stat01: 0 0 0 20 20"]);
    e.finish();
}

#[test]
fn uci_setoption_with_words_out_of_order() {
    let mut e = Engine::uci();
    for cmd in [
        "setoption value 1 name Hash",
        "setoption name",
        "setoption name value 3",
        "setoption",
    ] {
        let lines = refused(&mut e, cmd);
        assert!(lines[0].contains("setoption name <name>"), "{lines:?}");
    }
    e.finish();
}

#[test]
fn a_seventh_fen_field_is_refused_where_the_game_has_none() {
    let fen = format!("{START_FEN} 7");
    let mut e = Engine::uci();
    refused(&mut e, &format!("position fen {fen}"));
    assert_eq!(fen_of(&mut e), START_FEN);
    e.finish();

    let mut e = Engine::xboard();
    e.send("new");
    e.send(&format!("setboard {fen}"));
    let refusal = e.expect_prefix("tellusererror ");
    assert!(refusal.contains("seventh field"), "{refusal}");
    assert_eq!(fen_of(&mut e), START_FEN);
    e.finish();
}
