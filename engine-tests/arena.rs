//! The match runner, driven from outside: matches between two instances of our engine (one over
//! UCI, one over CECP) in every registered variant, a fake engine that breaks the rules, and bad
//! configurations. The PGN must read back to moves our rules accept.

use menagerie::arena::pgn;
use menagerie::variants::{self, san};
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
    // Tests run at once: each file gets its own number too.
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let p = std::env::temp_dir().join(format!(
        "menagerie-test-{}-{n}-{name}.pgn",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&p);
    p
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Replays every game of a PGN with our rules, each move written in our SAN as `san::write`
/// writes it; returns the games.
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
            let mv = san::read(v, &pos, m).unwrap_or_else(|e| panic!("{variant}: {e}\n{text}"));
            assert_eq!(
                &san::write(v, &pos, mv),
                m,
                "{variant}: not our SAN\n{text}"
            );
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
        // `pgn-check` replays the SAN PGN (issue 25's Done-when).
        let check = run(&["pgn-check", &path]);
        let said = String::from_utf8_lossy(&check.stdout);
        assert!(
            check.status.success() && said.contains("2 games replayed, every move legal"),
            "{}: {said}{}",
            v.name(),
            String::from_utf8_lossy(&check.stderr)
        );
        let _ = std::fs::remove_file(pgn_path);
    }
}

/// A match of the fake engine in `mode` (over `proto`, playing White in odd games) against
/// our engine; returns the runner's stderr, the PGN text and its games.
fn fake_match(
    mode: &[&str],
    proto: &str,
    each: &[&str],
    more: &[&str],
) -> (String, String, Vec<pgn::ReadGame>) {
    let pgn_path = temp_pgn(&mode.join("-").replace('/', "_"));
    let path = pgn_path.display().to_string();
    let mut args = vec![
        "match".to_string(),
        "--engine".into(),
        "cmd=bash".into(),
        format!("arg={}", fake()),
    ];
    args.extend(mode.iter().map(|w| format!("arg={w}")));
    args.extend([
        format!("proto={proto}"),
        "name=Fake".into(),
        "--engine".into(),
        format!("cmd={BIN}"),
        "name=Menagerie".into(),
        "--pgnout".into(),
        path,
        "--each".into(),
    ]);
    args.extend(each.iter().map(|w| w.to_string()));
    args.extend(more.iter().map(|w| w.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run(&args);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{mode:?}: {stderr}");
    let text = std::fs::read_to_string(&pgn_path).unwrap_or_default();
    let games = replay(&pgn_path, "chess");
    let _ = std::fs::remove_file(pgn_path);
    (stderr, text, games)
}

/// The one game of a match against the fake engine in `mode`.
fn against_fake(mode: &str, proto: &str, tc: &str) -> (pgn::ReadGame, String) {
    let (_, text, games) = fake_match(&[mode], proto, &[tc], &["--games", "1"]);
    assert_eq!(games.len(), 1, "{text}");
    assert_eq!(games[0].tag("White"), Some("Fake"));
    (games.into_iter().next().unwrap(), text)
}

#[test]
fn an_illegal_move_loses() {
    let (g, text) = against_fake("illegal", "uci", "tc=5+0.1");
    assert_eq!(g.result, "0-1");
    assert_eq!(g.tag("Termination"), Some("illegal move"));
    assert!(
        text.contains("{White makes an illegal move: a1a1}"),
        "{text}"
    );
}

#[test]
fn a_crash_loses() {
    let (g, text) = against_fake("crash", "uci", "tc=5+0.1");
    assert_eq!(g.result, "0-1");
    assert_eq!(g.tag("Termination"), Some("abandoned"));
    assert!(text.contains("{White disconnects}"), "{text}");
}

#[test]
fn a_stall_loses_on_time() {
    let (g, text) = against_fake("stall", "uci", "tc=1+0.01");
    assert_eq!(g.result, "0-1");
    assert_eq!(g.tag("Termination"), Some("time forfeit"));
    assert!(text.contains("{White loses on time}"), "{text}");
}

#[test]
fn a_late_move_loses_on_time() {
    let (g, _) = against_fake("late", "uci", "tc=1+0.01");
    assert_eq!(g.result, "0-1");
    assert_eq!(g.tag("Termination"), Some("time forfeit"));
}

#[test]
fn a_crash_stops_the_match_unless_it_recovers() {
    // Two games: the fake crashes in each. Without --recover the match stops after the first,
    // as cutechess-cli's does.
    let (stderr, _, games) = fake_match(&["crash"], "uci", &["tc=5+0.1"], &["--games", "2"]);
    assert_eq!(games.len(), 1, "{stderr}");
    assert!(
        stderr.contains("Match stopped: engine Fake failed in game 1"),
        "{stderr}"
    );
    let (stderr, _, games) = fake_match(
        &["crash"],
        "uci",
        &["tc=5+0.1"],
        &["--games", "2", "--recover"],
    );
    assert_eq!(games.len(), 2, "{stderr}");
    assert!(!stderr.contains("Match stopped"), "{stderr}");
    for g in &games {
        assert_eq!(g.tag("Termination"), Some("abandoned"));
        let fake_lost = if g.tag("White") == Some("Fake") {
            "0-1"
        } else {
            "1-0"
        };
        assert_eq!(g.result, fake_lost);
    }
}

#[test]
fn a_cecp_resignation_ends_the_game() {
    let (g, text) = against_fake("resign", "xboard", "tc=5+0.1");
    assert_eq!(g.result, "0-1");
    assert_eq!(g.tag("Termination"), Some("normal"));
    assert!(g.moves.is_empty());
    assert!(text.contains("{White resigns}"), "{text}");
}

#[test]
fn a_false_result_claim_loses() {
    for mode in ["claim-draw", "claim-win"] {
        let (g, text) = against_fake(mode, "xboard", "tc=5+0.1");
        assert_eq!(g.result, "0-1", "{mode}");
        assert_eq!(g.tag("Termination"), Some("adjudication"), "{mode}");
        assert!(
            text.contains("Black wins by adjudication: Invalid result claim"),
            "{text}"
        );
    }
}

#[test]
fn a_claim_of_the_opponents_win_is_taken() {
    let (g, text) = against_fake("concede", "xboard", "tc=5+0.1");
    assert_eq!(g.result, "0-1");
    assert_eq!(g.tag("Termination"), Some("normal"));
    assert!(text.contains("{White resigns}"), "{text}");
}

#[test]
fn output_that_is_not_utf8_is_read_over_both_protocols() {
    // Our engine behind a filter that writes bytes that are not UTF-8 before every line, the
    // handshake included: it plays whole games and loses none by disconnection.
    for proto in ["uci", "xboard"] {
        let (stderr, text, games) = fake_match(
            &["garbage", BIN],
            proto,
            &["nodes=400"],
            &[
                "--games",
                "2",
                "--draw",
                "movenumber=30",
                "movecount=2",
                "score=400",
            ],
        );
        assert_eq!(games.len(), 2, "{proto}: {stderr}");
        for g in &games {
            assert!(
                ["normal", "adjudication"].contains(&g.tag("Termination").unwrap()),
                "{proto}: {text}"
            );
            assert!(g.moves.len() > 2, "{proto}: {text}");
        }
    }
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

/// Issue 17, bug 12: a PGN that fails in one dialect and replays in the other says so. On ten
/// ranks UCI's `e2e4` is CECP's `e1e3`; the runner's PGN is in UCI's.
#[test]
fn pgn_check_names_the_dialect_a_file_needs() {
    let game = |moves: &str, variant: &str| {
        format!(
            "[Event \"t\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\
             [Variant \"{variant}\"]\n\n1. {moves} *\n"
        )
    };
    let uci = temp_pgn("uci-dialect");
    std::fs::write(&uci, game("e2e4 e9e7", "divergent")).unwrap();
    let cecp = temp_pgn("cecp-dialect");
    std::fs::write(&cecp, game("e1e3 e8e6", "divergent")).unwrap();
    let neither = temp_pgn("no-dialect");
    std::fs::write(&neither, game("e2e7", "divergent")).unwrap();
    let check = |dialect: &str, file: &Path| {
        let out = run(&["pgn-check", "--dialect", dialect, file.to_str().unwrap()]);
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    assert!(check("uci", &uci).0);
    assert!(check("cecp", &cecp).0);
    for (dialect, file, other) in [("cecp", &uci, "uci"), ("uci", &cecp, "cecp")] {
        let (ok, err) = check(dialect, file);
        assert!(!ok);
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(
            err.contains(&format!("the game replays with --dialect {other}")),
            "no hint: {err}"
        );
    }
    for dialect in ["uci", "cecp"] {
        let (ok, err) = check(dialect, &neither);
        assert!(
            !ok && err.contains("ply 1") && !err.contains("replays with"),
            "{err}"
        );
    }
    for f in [uci, cecp, neither] {
        let _ = std::fs::remove_file(f);
    }
}

/// A file in the temporary directory with `text`, for a test's openings.
fn temp_file(name: &str, text: &str) -> PathBuf {
    let p = temp_pgn(name).with_extension(name.rsplit('.').next().unwrap_or("txt"));
    std::fs::write(&p, text).unwrap();
    p
}

/// Two openings in SAN, as a person writes them.
const TWO_OPENINGS: &str =
    "[Event \"Ruy Lopez\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n\
[Event \"QGD\"]\n[Result \"*\"]\n\n1.d4 d5 2.c4 e6 3.Nc3 Nf6 *\n";

/// The coordinate moves marked `{book}` in a game of the runner's PGN.
fn book_moves(text: &str, game: usize) -> Vec<String> {
    let g = text
        .split("[Event ")
        .filter(|s| !s.is_empty())
        .nth(game)
        .unwrap();
    let body = g.split("\n\n").nth(1).unwrap();
    let words: Vec<&str> = body.split_whitespace().collect();
    words
        .windows(2)
        .filter(|w| w[1] == "{book}")
        .map(|w| w[0].to_string())
        .collect()
}

/// Issue 25: the match written as for cutechess-cli, with single dashes: openings from a PGN in
/// SAN cut at plies=4, pairs by -repeat with pentanomial statistics and the SPRT, -epdout and
/// -ratinginterval; without -repeat each game has an opening of its own and the statistics are
/// trinomial.
#[test]
fn a_cutechess_command_line_plays_pairs() {
    let book = temp_file("two.pgn", TWO_OPENINGS);
    let pgn_path = temp_pgn("cutechess");
    let epd_path = pgn_path.with_extension("epd");
    let _ = std::fs::remove_file(&epd_path);
    let ours = format!("cmd={BIN}");
    let common = [
        "match",
        "-variant",
        "standard",
        "-engine",
        &ours,
        "name=A",
        "-engine",
        &ours,
        "name=B",
        "-each",
        "nodes=2000",
        "restart=on",
        "-games",
        "2",
        "-maxmoves",
        "12",
        "-sprt",
        "elo0=0",
        "elo1=10",
        "alpha=0.05",
        "beta=0.05",
        "-srand",
        "3",
    ];
    let with_book = format!("file={}", book.display());
    let pgn_arg = pgn_path.display().to_string();
    let epd_arg = epd_path.display().to_string();
    let mut args: Vec<&str> = common.to_vec();
    args.extend([
        "-openings",
        &with_book,
        "format=pgn",
        "order=sequential",
        "plies=4",
        "-repeat",
        "-pgnout",
        &pgn_arg,
        "-epdout",
        &epd_arg,
        "-ratinginterval",
        "1",
    ]);
    let out = run(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // One table per game (-ratinginterval 1) and the final one.
    assert_eq!(stdout.matches("Score of A vs B").count(), 3, "{stdout}");
    let last = stdout.rsplit("Score of A vs B").next().unwrap();
    assert!(last.contains("Ptnml(0-2): ["), "{stdout}");
    assert!(last.contains(", 1 pairs"), "{stdout}");
    assert!(
        last.contains("SPRT: LLR") && last.contains(", trinomial LLR"),
        "{stdout}"
    );
    assert!(!stdout.contains("-0.0"), "{stdout}");
    let text = std::fs::read_to_string(&pgn_path).unwrap();
    let games = replay(&pgn_path, "chess");
    assert_eq!(games.len(), 2, "{text}");
    // Both games on the first opening, colours swapped; its SAN read and written back.
    for (k, white) in [(0, "A"), (1, "B")] {
        assert_eq!(book_moves(&text, k), ["e4", "e5", "Nf3", "Nc6"], "{text}");
        assert_eq!(games[k].tag("White"), Some(white));
    }
    let epd = std::fs::read_to_string(&epd_path).unwrap();
    assert_eq!(epd.lines().count(), 2, "{epd}");
    let chess = variants::by_name("chess").unwrap();
    for l in epd.lines() {
        assert!(chess.parse_fen(&format!("{l} 0 1")).is_ok(), "{l}");
    }
    let _ = std::fs::remove_file(&pgn_path);
    let _ = std::fs::remove_file(&epd_path);

    // Without -repeat: the second game has the second opening, and no pairs.
    let mut args: Vec<&str> = common.to_vec();
    args.extend(["-openings", &with_book, "plies=4", "-pgnout", &pgn_arg]);
    let out = run(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!stdout.contains("Ptnml"), "{stdout}");
    assert!(stdout.contains("(games unpaired: trinomial)"), "{stdout}");
    let text = std::fs::read_to_string(&pgn_path).unwrap();
    assert_eq!(book_moves(&text, 1), ["d4", "d5", "c4", "e6"], "{text}");
    let _ = std::fs::remove_file(&pgn_path);
    let _ = std::fs::remove_file(&book);
}

/// Issue 25: bad input fails in one line before any engine starts (the engine binary does not
/// exist, so a run that got as far as starting it would say "cannot start").
#[test]
fn bad_input_fails_before_any_engine_starts() {
    let none = "cmd=/no/such/engine";
    let base = |more: &[&str]| {
        let mut a = vec![
            "match", "-engine", none, "-engine", none, "-each", "tc=1+0.1",
        ];
        a.extend_from_slice(more);
        a.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let check = |more: &[&str], what: &str| {
        let a = base(more);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        refused(&a, what);
        let stderr = String::from_utf8_lossy(&run(&a).stderr).to_string();
        assert!(!stderr.contains("cannot start"), "{stderr}");
    };
    check(&["-each", "speed=9"], "unknown engine setting 'speed'");
    check(&["-each", "tc=40/"], "tc=40/");
    check(&["-each", "tc=inf"], "tc=inf needs depth=");
    check(
        &["-sprt", "elo0=5", "elo1=5"],
        "elo0=5 must be below elo1=5",
    );
    check(&["-tb", "/tb"], "-tb");
    check(&["-frobnicate"], "-frobnicate");
    check(
        &["-openings", "file=/no/such/book.epd"],
        "/no/such/book.epd",
    );
    let epd = temp_file(
        "bad.epd",
        "# two good lines and a bad one\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n\
         not a position\nrnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -\n",
    );
    let file = format!("file={}", epd.display());
    check(&["-openings", &file], &format!("{}:3:", epd.display()));
    // Skipped with a warning, the match goes on to start its engines.
    let a = base(&["-openings", &file, "--skip-bad-openings"]);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let out = run(&a);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("warning: --openings: {}:3:", epd.display())),
        "{stderr}"
    );
    assert!(stderr.contains("cannot start"), "{stderr}");
    // A PGN whose second game (from line 6) has an illegal move.
    let pgn = temp_file(
        "bad.pgn",
        "[Event \"a\"]\n\n1. e4 e5 *\n\n\n[Event \"b\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n",
    );
    let file = format!("file={}", pgn.display());
    check(
        &["-openings", &file],
        &format!("{}:6: game 2, ply 3", pgn.display()),
    );
    let _ = std::fs::remove_file(epd);
    let _ = std::fs::remove_file(pgn);
}

/// Issue 25: an engine that answers isready once and then never is reported in words.
#[test]
fn an_engine_that_stops_answering_isready_is_named() {
    let ours = format!("cmd={BIN}");
    let out = run(&[
        "match",
        "--engine",
        "cmd=bash",
        &format!("arg={}", fake()),
        "arg=ready-once",
        "--engine",
        &ours,
        "--each",
        "tc=1+0.1",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("did not answer isready"), "{stderr}");
    assert!(!stderr.contains("Timeout"), "{stderr}");
}

/// Issue 25: a CECP engine with setboard=0 gets its position through edit mode, with a dummy
/// move first when Black is to move, as XBoard and cutechess-cli do.
#[test]
fn an_engine_without_setboard_is_set_up_with_edit() {
    let log = temp_pgn("edit-log").with_extension("log");
    let book = temp_file(
        "black.epd",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq -\n",
    );
    let log_arg = log.display().to_string();
    let file = format!("file={}", book.display());
    let (_, text, games) = fake_match(
        &["edit", &log_arg],
        "xboard",
        &["tc=5+0.1"],
        &["--games", "1", "--openings", &file],
    );
    assert_eq!(games.len(), 1, "{text}");
    // The fake resigns when asked to move: the game was set up and played, not abandoned.
    assert!(text.contains("{White resigns}"), "{text}");
    let sent = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = sent.lines().collect();
    assert!(!sent.contains("\nsetboard "), "{sent}");
    let edit = lines.iter().position(|&l| l == "edit").expect("edit sent");
    // The fake announced usermove=1.
    assert_eq!(lines[edit - 1], "usermove a2a3", "{sent}");
    let c = edit + lines[edit..].iter().position(|&l| l == "c").unwrap();
    let end = c + lines[c..].iter().position(|&l| l == ".").unwrap();
    assert_eq!(lines[edit + 1], "#");
    assert!(
        lines[edit..c].contains(&"Nf3") && lines[edit..c].contains(&"Ke1"),
        "{sent}"
    );
    assert!(
        lines[c..end].contains(&"Pe5") && lines[c..end].contains(&"Ng8"),
        "{sent}"
    );
    assert_eq!(
        end - edit - 3,
        32,
        "32 pieces between edit, #, c and .: {sent}"
    );
    let _ = std::fs::remove_file(log);
    let _ = std::fs::remove_file(book);
}

/// Issue 25: an engine that prints each move twice is not taken at its leftover line: over UCI
/// and CECP, no game is lost by an illegal move.
#[test]
fn a_move_printed_twice_is_dropped() {
    for proto in ["uci", "xboard"] {
        let (_, text, games) = fake_match(
            &["twice", BIN],
            proto,
            &["tc=5+0.1"],
            &["--games", "2", "--maxmoves", "8"],
        );
        assert_eq!(games.len(), 2, "{text}");
        assert!(!text.contains("illegal move"), "{proto}: {text}");
        for g in &games {
            assert!(g.moves.len() >= 10, "{proto}: {text}");
        }
    }
}

/// python-chess reads the runner's PGN of FIDE chess with every move legal, its SAN included
/// (issue 25). Skipped when python-chess is not installed, unless
/// `MENAGERIE_PYTHON_CHESS_TESTS=1` requires it.
#[test]
fn python_chess_reads_the_runners_san() {
    let required = std::env::var("MENAGERIE_PYTHON_CHESS_TESTS").is_ok_and(|v| v == "1");
    let found = Command::new("python3")
        .args(["-c", "import chess.pgn"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(!required, "python-chess required but not installed");
        eprintln!("skipped: python-chess is not installed (pip install chess)");
        return;
    }
    let pgn_path = temp_pgn("python-chess-san");
    let path = pgn_path.display().to_string();
    let ours = format!("cmd={BIN}");
    let out = run(&[
        "match",
        "-engine",
        &ours,
        "name=A",
        "-engine",
        &ours,
        "name=B",
        "-each",
        "nodes=800",
        "-games",
        "4",
        "-concurrency",
        "2",
        "-pgnout",
        &path,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let script = r#"
import sys, chess.pgn
n = plies = 0
with open(sys.argv[1]) as f:
    while (g := chess.pgn.read_game(f)) is not None:
        assert not g.errors, g.errors
        board = g.board()
        for node in g.mainline():
            assert node.move in board.legal_moves, node.move
            assert board.san(node.move) == node.san(), (board.san(node.move), node.san())
            board.push(node.move)
            plies += 1
        n += 1
print(n, plies)
"#;
    let checked = Command::new("python3")
        .args(["-c", script, &path])
        .output()
        .expect("python3 runs");
    let said = String::from_utf8_lossy(&checked.stdout);
    assert!(
        checked.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&checked.stderr)
    );
    let counts: Vec<usize> = said
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(counts.first(), Some(&4), "{said}");
    assert!(counts.get(1).is_some_and(|&p| p >= 40), "{said}");
    let _ = std::fs::remove_file(pgn_path);
}
