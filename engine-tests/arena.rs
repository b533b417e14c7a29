//! The match runner, driven from outside: matches between two instances of our engine (one over
//! UCI, one over CECP) in every registered variant, a fake engine that breaks the rules, and bad
//! configurations. The PGN must read back to moves our rules accept.

use menagerie::arena::pgn;
use menagerie::notation::{parse_move, Dialect};
use menagerie::variants;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_menagerie");

fn fake() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("engine-tests/fake_engine.sh")
        .display()
        .to_string()
}

fn temp_pgn(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("menagerie-test-{}-{name}.pgn", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Replays every game of a PGN with our rules; returns the games.
fn replay(path: &Path, variant: &str) -> Vec<pgn::ReadGame> {
    let text = std::fs::read_to_string(path).unwrap();
    let games = pgn::read(&text);
    let v = variants::by_name(variant).unwrap();
    for g in &games {
        assert_eq!(g.tag("Variant"), Some(variant));
        for tag in [
            "Event",
            "Site",
            "Date",
            "Round",
            "White",
            "Black",
            "Result",
            "TimeControl",
            "Termination",
        ] {
            assert!(g.tag(tag).is_some(), "missing tag {tag}");
        }
        assert_eq!(g.tag("Result"), Some(g.result.as_str()));
        let mut pos = match g.tag("FEN") {
            Some(f) => {
                assert_eq!(g.tag("SetUp"), Some("1"));
                v.parse_fen(f).unwrap()
            }
            None => v.start_position(),
        };
        for m in &g.moves {
            let mv = parse_move(v, &pos, Dialect::Uci, m)
                .unwrap_or_else(|e| panic!("{variant}: {e}\n{text}"));
            pos = v.play(&pos, mv);
        }
    }
    games
}

#[test]
fn uci_against_cecp_in_every_variant() {
    for v in variants::all() {
        let pgn_path = temp_pgn(v.name());
        let path = pgn_path.display().to_string();
        let out = run(&[
            "match",
            "--variant",
            v.name(),
            "--engine",
            &format!("cmd={BIN}"),
            "proto=uci",
            "name=U",
            "--engine",
            &format!("cmd={BIN}"),
            "proto=xboard",
            "name=X",
            "--each",
            "nodes=1500",
            "--games",
            "2",
            "--concurrency",
            "2",
            "--random-plies",
            "4",
            "--draw",
            "movenumber=30",
            "movecount=4",
            "score=30",
            "--resign",
            "movecount=3",
            "score=700",
            "--pgnout",
            &path,
        ]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{}: {}\n{stdout}",
            v.name(),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(stdout.lines().any(|l| l.contains("Elo")), "{stdout}");
        let games = replay(&pgn_path, v.name());
        assert_eq!(games.len(), 2);
        for g in &games {
            assert!(
                ["1-0", "0-1", "1/2-1/2"].contains(&g.result.as_str()),
                "{:?}",
                g.result
            );
            assert!(
                ["normal", "adjudication"].contains(&g.tag("Termination").unwrap()),
                "{:?}",
                g.tag("Termination")
            );
        }
        // Colours alternate between the two games.
        assert_ne!(games[0].tag("White"), games[1].tag("White"));
        let _ = std::fs::remove_file(pgn_path);
    }
}

/// A match of our engine against the fake engine in `mode`; returns the one game.
fn against_fake(mode: &str, tc: &str) -> pgn::ReadGame {
    let pgn_path = temp_pgn(mode);
    let path = pgn_path.display().to_string();
    let out = run(&[
        "match",
        "--engine",
        "cmd=bash",
        &format!("arg={}", fake()),
        &format!("arg={mode}"),
        "name=Fake",
        "--engine",
        &format!("cmd={BIN}"),
        "name=Menagerie",
        "--each",
        tc,
        "--games",
        "1",
        "--pgnout",
        &path,
    ]);
    assert!(
        out.status.success(),
        "{mode}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games = replay(&pgn_path, "chess");
    let _ = std::fs::remove_file(pgn_path);
    assert_eq!(games.len(), 1);
    games.into_iter().next().unwrap()
}

#[test]
fn an_illegal_move_loses() {
    let g = against_fake("illegal", "tc=5+0.1");
    assert_eq!(g.tag("White"), Some("Fake"));
    assert_eq!(g.result, "0-1");
    assert_eq!(g.tag("Termination"), Some("illegal move"));
}

#[test]
fn a_crash_loses() {
    let g = against_fake("crash", "tc=5+0.1");
    assert_eq!(g.result, "0-1");
    assert_eq!(g.tag("Termination"), Some("abandoned"));
}

#[test]
fn a_stall_loses_on_time() {
    let g = against_fake("stall", "tc=1+0.01");
    assert_eq!(g.result, "0-1");
    assert_eq!(g.tag("Termination"), Some("time forfeit"));
}

/// A configuration that must fail at once with one line naming `what`.
#[track_caller]
fn refused(args: &[&str], what: &str) {
    let out = run(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(stderr.contains(what), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"));
}

#[test]
fn bad_configurations_fail_fast() {
    let ours = format!("cmd={BIN}");
    refused(
        &[
            "match",
            "--engine",
            "cmd=/no/such/engine",
            "--engine",
            &ours,
            "--each",
            "tc=1+0.1",
        ],
        "cannot start",
    );
    refused(
        &[
            "match",
            "--variant",
            "nosuch",
            "--engine",
            &ours,
            "--engine",
            &ours,
            "--each",
            "tc=1+0.1",
        ],
        "unknown variant",
    );
    refused(
        &["match", "--engine", &ours, "--engine", &ours],
        "time control",
    );
    refused(
        &[
            "match", "--engine", &ours, "--engine", &ours, "--each", "tc=fast",
        ],
        "tc=fast",
    );
    refused(
        &["match", "--engine", &ours, "--each", "tc=1+0.1"],
        "two engines",
    );
    refused(
        &[
            "match",
            "--engine",
            "cmd=bash",
            &format!("arg={}", fake()),
            "arg=mute",
            "--engine",
            &ours,
            "--each",
            "tc=1+0.1",
        ],
        "uciok",
    );
}
