//! Black-box tests of the `menagerie` binary: they run the built executable
//! and check its output against the CLI contract of the product spec.
//!
//! Perft reference numbers come from the chessprogramming wiki:
//! <https://www.chessprogramming.org/Perft_Results>

mod arena;
mod gui_state;
mod hostile;
mod mates;
mod perft_cli;
mod protocol;
#[path = "../test-support/protocol_lines.rs"]
mod protocol_lines;
mod tenranks;
mod uci;
mod xboard;
use std::collections::BTreeMap;
use std::io::Read;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_menagerie");

/// Kiwipete, "Position 2" on https://www.chessprogramming.org/Perft_Results
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// "Position 3" on https://www.chessprogramming.org/Perft_Results
const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";

struct Output {
    status: ExitStatus,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Output {
    let out = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {BIN}: {e}"));
    Output {
        status: out.status,
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs a command that must succeed and returns its stdout.
fn run_ok(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "`menagerie {}` failed with {:?}\nstdout:\n{}\nstderr:\n{}",
        args.join(" "),
        out.status,
        out.stdout,
        out.stderr
    );
    out.stdout
}

/// The count on the last line of stdout, which must be `Nodes searched: N`.
fn nodes_searched(stdout: &str) -> u64 {
    let last = stdout
        .lines()
        .last()
        .unwrap_or_else(|| panic!("empty stdout"));
    let n = last
        .strip_prefix("Nodes searched: ")
        .unwrap_or_else(|| panic!("last line is not `Nodes searched: N`: {last:?}"));
    n.trim()
        .parse()
        .unwrap_or_else(|e| panic!("bad node count {n:?}: {e}"))
}

fn perft(fen: Option<&str>, depth: u32) -> u64 {
    let depth = depth.to_string();
    let mut args = vec!["perft", "--depth", &depth];
    if let Some(fen) = fen {
        args.extend(["--fen", fen]);
    }
    nodes_searched(&run_ok(&args))
}

/// Whether `s` is a UCI coordinate move on an 8x8 board, e.g. `e2e4`, `e7e8q`.
fn is_uci_move(s: &str) -> bool {
    let b = s.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    match b.len() {
        4 => square(b[0], b[1]) && square(b[2], b[3]),
        5 => square(b[0], b[1]) && square(b[2], b[3]) && b"qrbn".contains(&b[4]),
        _ => false,
    }
}

/// Parses `--divide` output: move lines, a blank line, `Nodes searched: N`.
/// Returns the per-move counts and the total.
fn parse_divide(stdout: &str) -> (BTreeMap<String, u64>, u64) {
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines.len() >= 2, "divide output too short:\n{stdout}");
    let n = lines.len();
    assert_eq!(
        lines[n - 2],
        "",
        "no blank line before the total:\n{stdout}"
    );
    let total = nodes_searched(stdout);
    let mut moves = BTreeMap::new();
    for line in &lines[..n - 2] {
        let (mv, count) = line
            .split_once(": ")
            .unwrap_or_else(|| panic!("divide line is not `<move>: <count>`: {line:?}"));
        assert!(is_uci_move(mv), "not a UCI move: {mv:?} in {line:?}");
        let count: u64 = count
            .parse()
            .unwrap_or_else(|e| panic!("bad count in {line:?}: {e}"));
        assert!(
            moves.insert(mv.to_string(), count).is_none(),
            "move {mv} listed twice:\n{stdout}"
        );
    }
    (moves, total)
}

// ---------------------------------------------------------------------------
// 1. Perft correctness (https://www.chessprogramming.org/Perft_Results)
// ---------------------------------------------------------------------------

#[test]
fn perft_start_position_depth_1_to_4() {
    // Initial position, https://www.chessprogramming.org/Perft_Results
    for (depth, expected) in [(1, 20), (2, 400), (3, 8902), (4, 197_281)] {
        assert_eq!(perft(None, depth), expected, "start position depth {depth}");
    }
}

#[test]
fn perft_explicit_chess_variant_matches_default() {
    let out = run_ok(&["perft", "--variant", "chess", "--depth", "3"]);
    assert_eq!(nodes_searched(&out), 8902);
}

#[test]
fn perft_kiwipete_depth_3() {
    // Position 2 (Kiwipete), https://www.chessprogramming.org/Perft_Results
    assert_eq!(perft(Some(KIWIPETE), 3), 97_862);
}

#[test]
fn perft_position_3_depth_4() {
    // Position 3, https://www.chessprogramming.org/Perft_Results
    assert_eq!(perft(Some(POSITION_3), 4), 43_238);
}

// ---------------------------------------------------------------------------
// 2. --divide format
// ---------------------------------------------------------------------------

#[test]
fn divide_start_position_depth_2() {
    let out = run_ok(&["perft", "--depth", "2", "--divide"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 22, "20 moves, blank, total:\n{out}");
    assert_eq!(lines[20], "");
    assert_eq!(lines[21], "Nodes searched: 400");

    let (moves, total) = parse_divide(&out);
    assert_eq!(moves.len(), 20, "{out}");
    for (mv, count) in &moves {
        assert_eq!(mv.len(), 4, "{mv}");
        assert_eq!(*count, 20, "{mv}: {count}");
    }
    assert!(
        moves.contains_key("e2e4") && moves.contains_key("g1f3"),
        "{out}"
    );
    assert_eq!(moves.values().sum::<u64>(), total);
    assert_eq!(total, 400);
}

#[test]
fn divide_sum_equals_total_kiwipete() {
    let out = run_ok(&["perft", "--fen", KIWIPETE, "--depth", "2", "--divide"]);
    let (moves, total) = parse_divide(&out);
    // Kiwipete has 48 legal moves; depth 2 = 2039 (Perft_Results).
    assert_eq!(moves.len(), 48);
    assert_eq!(total, 2039);
    assert_eq!(moves.values().sum::<u64>(), total);
}

// ---------------------------------------------------------------------------
// 3. --threads
// ---------------------------------------------------------------------------

#[test]
fn threads_match_single_thread() {
    let one = run_ok(&[
        "perft",
        "--fen",
        KIWIPETE,
        "--depth",
        "3",
        "--divide",
        "--threads",
        "1",
    ]);
    let two = run_ok(&[
        "perft",
        "--fen",
        KIWIPETE,
        "--depth",
        "3",
        "--divide",
        "--threads",
        "2",
    ]);
    let (moves1, total1) = parse_divide(&one);
    let (moves2, total2) = parse_divide(&two);
    assert_eq!(total1, 97_862);
    assert_eq!(total2, total1);
    assert_eq!(
        moves2, moves1,
        "divide lines differ between 1 and 2 threads"
    );
    assert_eq!(moves1.values().sum::<u64>(), total1);

    let four = run_ok(&["perft", "--fen", KIWIPETE, "--depth", "3", "--threads", "4"]);
    assert_eq!(nodes_searched(&four), 97_862);
}

// ---------------------------------------------------------------------------
// 4. variants
// ---------------------------------------------------------------------------

#[test]
fn variants_lists_chess() {
    let out = run(&["variants"]);
    assert!(out.status.success(), "{:?} {}", out.status, out.stderr);
    assert!(
        out.stdout
            .lines()
            .any(|l| l.starts_with("chess") && l.contains("8x8")),
        "no `chess ... 8x8` line in:\n{}",
        out.stdout
    );
    assert!(out.stderr.is_empty(), "unexpected stderr: {}", out.stderr);
}

// ---------------------------------------------------------------------------
// 5. Bad input: non-zero exit (not a panic), nothing on stdout, one line on
//    stderr naming the problem.
// ---------------------------------------------------------------------------

/// Runs `args`, checks the error contract and returns the stderr line.
fn run_bad(args: &[&str]) -> String {
    let out = run(args);
    let cmd = format!("menagerie {}", args.join(" "));
    let info = format!(
        "`{cmd}`: status {:?}\nstdout: {:?}\nstderr: {:?}",
        out.status, out.stdout, out.stderr
    );
    // With `panic = "abort"` a panic ends in a signal, so `code()` is None.
    let code = out
        .status
        .code()
        .unwrap_or_else(|| panic!("killed by a signal: {info}"));
    assert_ne!(code, 0, "exit code 0 on bad input: {info}");
    assert_ne!(code, 101, "exit code 101 (panic): {info}");
    assert!(!out.stderr.contains("panicked"), "panic: {info}");
    assert!(out.stdout.is_empty(), "stdout not empty: {info}");
    let lines: Vec<&str> = out.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "stderr is not exactly one line: {info}");
    assert!(!lines[0].trim().is_empty(), "stderr line is blank: {info}");
    lines[0].to_string()
}

fn bad_fen(fen: &str) -> String {
    run_bad(&["perft", "--fen", fen, "--depth", "1"])
}

/// Asserts that `line` contains every one of `words`, ignoring case.
fn assert_mentions(line: &str, words: &[&str]) {
    let lower = line.to_lowercase();
    for w in words {
        assert!(
            lower.contains(&w.to_lowercase()),
            "error message {line:?} does not mention {w:?}"
        );
    }
}

#[test]
fn bad_unknown_variant() {
    let line = run_bad(&["perft", "--variant", "checkers", "--depth", "1"]);
    assert_mentions(&line, &["checkers"]);
}

#[test]
fn bad_fen_rank_with_9_files() {
    let line = bad_fen("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_mentions(&line, &["9 files", "the board has 8"]);
}

#[test]
fn bad_fen_7_ranks() {
    let line = bad_fen("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_mentions(&line, &["7 ranks"]);
}

#[test]
fn bad_fen_unknown_piece_letter() {
    let line = bad_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1");
    assert_mentions(&line, &["X"]);
    assert_mentions(&line, &["piece"]);
}

#[test]
fn bad_fen_side_to_move() {
    let line = bad_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1");
    assert_mentions(&line, &["side to move", "x"]);
}

#[test]
fn bad_fen_two_white_kings() {
    let line = bad_fen("4k3/8/8/8/8/8/8/3KK3 w - - 0 1");
    assert_mentions(&line, &["white", "king"]);
}

#[test]
fn bad_fen_no_black_king() {
    let line = bad_fen("8/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_mentions(&line, &["black", "king"]);
}

#[test]
fn bad_depth_not_a_number() {
    let line = run_bad(&["perft", "--depth", "abc"]);
    assert_mentions(&line, &["depth", "abc"]);
}

#[test]
fn bad_depth_too_large() {
    let line = run_bad(&["perft", "--depth", "99"]);
    assert_mentions(&line, &["depth", "99"]);
}

#[test]
fn bad_threads_zero() {
    let line = run_bad(&["perft", "--depth", "2", "--threads", "0"]);
    assert_mentions(&line, &["threads", "0"]);
}

#[test]
fn bad_missing_depth() {
    // The one line must say what is wrong, i.e. name the missing argument.
    let line = run_bad(&["perft"]);
    assert_mentions(&line, &["depth"]);
}

#[test]
fn bad_fen_empty() {
    let line = bad_fen("");
    assert_mentions(&line, &["fen"]);
}

#[test]
fn bad_fen_garbage() {
    let line = bad_fen("hello");
    assert_mentions(&line, &["fen"]);
}

#[test]
fn bad_fen_side_not_to_move_in_check() {
    // Sanity: black to move and in check is a legal position.
    assert_eq!(perft(Some("4k3/8/8/8/8/8/4R3/4K3 b - - 0 1"), 1), 4);
    // White to move while the black king is attacked must be rejected.
    let line = bad_fen("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1");
    assert_mentions(&line, &["check"]);
}

#[test]
fn bad_fen_castling_right_without_rook() {
    let line = bad_fen("4k3/8/8/8/8/8/8/4K3 w K - 0 1");
    assert_mentions(&line, &["castling"]);
}

#[test]
fn bad_fen_en_passant_off_board() {
    let line = bad_fen("4k3/8/8/8/8/8/8/4K3 w - e9 0 1");
    assert_mentions(&line, &["en-passant", "e9"]);
}

#[test]
fn bad_fen_en_passant_nonsense_file() {
    let line = bad_fen("4k3/8/8/8/8/8/8/4K3 w - z3 0 1");
    assert_mentions(&line, &["en-passant", "z3"]);
}

// ---------------------------------------------------------------------------
// 6. Depth 0
// ---------------------------------------------------------------------------

#[test]
fn depth_0_is_one_node() {
    let out = run_ok(&["perft", "--depth", "0"]);
    assert_eq!(out.lines().last(), Some("Nodes searched: 1"));
    assert_eq!(nodes_searched(&out), 1);
    assert_eq!(perft(Some(KIWIPETE), 0), 1);
}

// ---------------------------------------------------------------------------
// 7. No arguments, stdin closed: no panic, no hang.
// ---------------------------------------------------------------------------

#[test]
fn no_arguments_with_closed_stdin_terminates() {
    let mut child = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {BIN}: {e}"));
    drop(child.stdin.take()); // close stdin

    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            break status;
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`menagerie` with no arguments and closed stdin did not exit within 10 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };

    // Output is small, so the pipes cannot have blocked the child.
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let code = status
        .code()
        .unwrap_or_else(|| panic!("killed by a signal (panic?); stderr: {stderr:?}"));
    assert_ne!(code, 101, "panicked; stderr: {stderr:?}");
    assert!(!stderr.contains("panicked"), "panicked; stderr: {stderr:?}");
}

// ---------------------------------------------------------------------------
// --help
// ---------------------------------------------------------------------------

#[test]
fn help_exits_zero() {
    let out = run(&["--help"]);
    assert!(out.status.success(), "{:?} {}", out.status, out.stderr);
    assert!(out.stdout.contains("perft"), "{}", out.stdout);

    let out = run(&["perft", "--help"]);
    assert!(out.status.success(), "{:?} {}", out.status, out.stderr);
    assert!(out.stdout.contains("--depth"), "{}", out.stdout);
}
