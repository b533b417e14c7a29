//! `menagerie perft --divide` streaming and `menagerie perft --suite FILE`. Counts are from the
//! chessprogramming wiki, https://www.chessprogramming.org/Perft_Results (start position:
//! 20, 400, 8902, 197281, ... 119060324 at depth 6).

use super::{parse_divide, run, run_ok, BIN};
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A fresh directory for this test's files.
fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("menagerie-perft-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The one stdout line about `depth`.
fn line_for(stdout: &str, depth: u32) -> &str {
    let key = format!("depth {depth:>2} ");
    let lines: Vec<&str> = stdout.lines().filter(|l| l.contains(&key)).collect();
    assert_eq!(lines.len(), 1, "one line for depth {depth}:\n{stdout}");
    lines[0]
}

#[test]
fn suite_with_a_wrong_count_fails_that_line() {
    let dir = temp_dir("wrong");
    let file = dir.join("chess.perft");
    // 8903 is deliberately wrong: the start position has 8902 leaves at depth 3.
    std::fs::write(
        &file,
        format!(
            "# test file\nid startpos\nsource chessprogramming wiki, Perft Results\nepd {START}\n\
             perft 1 20\nperft 2 400\nperft 3 8903\nperft 4 197281\n"
        ),
    )
    .unwrap();
    let out = run(&[
        "perft",
        "--suite",
        file.to_str().unwrap(),
        "--max-nodes",
        "10000",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}{}", out.stdout, out.stderr);
    for depth in [1, 2] {
        assert!(
            line_for(&out.stdout, depth).starts_with("PASS"),
            "{}",
            out.stdout
        );
    }
    let fail = line_for(&out.stdout, 3);
    assert!(fail.starts_with("FAIL"), "{fail}");
    assert!(fail.contains("8903") && fail.contains("8902"), "{fail}");
    assert!(
        line_for(&out.stdout, 4).starts_with("SKIP"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("2 passed, 1 failed, 1 skipped"),
        "{}",
        out.stdout
    );
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn suite_runs_the_chess_file_and_skips_over_max_nodes() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/perft/chess.perft");
    let max = 100_000u64;
    // Counted from the file here, not from the runner's output.
    let counts: Vec<u64> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter_map(|l| l.trim().strip_prefix("perft "))
        .map(|r| r.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect();
    let run_lines = counts.iter().filter(|&&n| n <= max).count();
    let skipped = counts.len() - run_lines;
    assert!(run_lines > 0 && skipped > 0);
    let out = run_ok(&[
        "perft",
        "--suite",
        path,
        "--max-nodes",
        &max.to_string(),
        "--threads",
        "2",
    ]);
    let starting = |w: &str| out.lines().filter(|l| l.starts_with(w)).count();
    assert_eq!(starting("PASS"), run_lines, "{out}");
    assert_eq!(starting("SKIP"), skipped, "{out}");
    assert_eq!(starting("FAIL"), 0, "{out}");
    assert!(out.contains(&format!("{run_lines} passed, 0 failed, {skipped} skipped")));
}

#[test]
fn suite_variant_from_the_option_when_the_name_is_not_one() {
    let dir = temp_dir("name");
    let file = dir.join("positions.perft");
    std::fs::write(
        &file,
        format!("id startpos\nsource chessprogramming wiki\nepd {START}\nperft 2 400\n"),
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let out = run(&["perft", "--suite", f]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stderr.contains("--variant"), "{}", out.stderr);
    let out = run_ok(&["perft", "--suite", f, "--variant", "chess"]);
    assert!(line_for(&out, 2).starts_with("PASS"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn suite_refuses_a_bad_file_in_one_line() {
    let dir = temp_dir("bad");
    for (name, text, words) in [
        (
            "a.perft",
            "id x\nepd 8/8/8/8/8/8/8/K6k w - - 0 1\n",
            "no source",
        ),
        ("b.perft", "id x\nsource s\nepd e\nperft two 5\n", "line 4"),
        ("c.perft", "\u{0}\u{1}garbage\n", "line 1"),
    ] {
        let file = dir.join(name);
        std::fs::write(&file, text).unwrap();
        let out = run(&[
            "perft",
            "--suite",
            file.to_str().unwrap(),
            "--variant",
            "chess",
        ]);
        assert_eq!(out.status.code(), Some(1), "{name}: {}", out.stderr);
        assert_eq!(out.stderr.lines().count(), 1, "{name}: {}", out.stderr);
        assert!(out.stderr.contains(words), "{name}: {}", out.stderr);
    }
    // A FEN the variant refuses fails its position without stopping the others.
    let file = dir.join("d.perft");
    std::fs::write(
        &file,
        format!("id bad\nsource s\nepd not a fen\nperft 1 20\n\nid good\nsource s\nepd {START}\nperft 1 20\n"),
    )
    .unwrap();
    let out = run(&[
        "perft",
        "--suite",
        file.to_str().unwrap(),
        "--variant",
        "chess",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", out.stderr);
    assert!(out
        .stdout
        .lines()
        .any(|l| l.starts_with("FAIL") && l.contains("bad")));
    assert!(out
        .stdout
        .lines()
        .any(|l| l.starts_with("PASS") && l.contains("good")));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn divide_prints_each_root_move_before_the_end() {
    // Depth 6 (119,060,324 leaves) takes seconds; the first root move's line must arrive through
    // the pipe while the others are still being counted.
    let mut child = Command::new(BIN)
        .args(["perft", "--depth", "6", "--divide", "--threads", "2"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    reader.read_line(&mut first).unwrap();
    let running = child.try_wait().unwrap().is_none();
    let _ = child.kill();
    let _ = child.wait();
    let (mv, count) = first.trim().split_once(": ").expect("a `move: count` line");
    assert!(super::is_uci_move(mv), "{first:?}");
    assert!(count.parse::<u64>().unwrap() > 1_000_000, "{first:?}");
    assert!(running, "the first line came only when the count had ended");
}

#[test]
fn divide_with_threads_through_a_pipe_lists_every_move() {
    let out = run(&["perft", "--depth", "4", "--divide", "--threads", "2"]);
    assert!(out.status.success(), "{}", out.stderr);
    let (moves, total) = parse_divide(&out.stdout);
    assert_eq!(moves.len(), 20);
    assert_eq!(total, 197_281);
    assert_eq!(moves.values().sum::<u64>(), total);
    // No progress bar escapes when stdout and stderr are not terminals.
    assert!(!out.stdout.contains('\u{1b}') && !out.stderr.contains('\u{1b}'));
}
