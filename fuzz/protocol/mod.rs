//! The protocol fuzzer: the real binary over UCI and CECP, for every registered game.
//!
//! Each step writes one generated line (or a burst of lines at once), then `d` and a sync
//! (`isready` or `ping`), and reads everything up to the sync's answer. The model
//! (`model.rs`) says whether the line must be refused; the step then checks that:
//! - the engine is alive and answered the sync in time (or exited, after `quit`);
//! - a line the model refuses got a refusal (`info string`, `Error (...)`, `Illegal move`,
//!   `tellusererror`), and a line it takes got none;
//! - `d` shows the model's position (so a refused line changed nothing);
//! - every `bestmove`, `move` and perft count is right for the position it was asked in, and
//!   every UCI `go` is answered once;
//! - stdout holds only protocol lines and stderr only `#` lines.
//!
//! After a refused line, a legal move (the probe) must still be taken.

mod driver;
mod lines;
mod model;

use crate::fen::seed_corpus;
use crate::protocol_lines::{is_cecp_line, is_uci_line};
use crate::{env_number, seed};
use driver::{Driver, Output};
use lines::Step;
use menagerie::board::Position;
use menagerie::core::rng::SplitMix as Rng;
use menagerie::notation::{parse_move, Dialect};
use menagerie::perft::perft;
use menagerie::protocol::xboard_variant::parse_wire;
use menagerie::variants::{self, Variant};
use model::{Model, Proto, Verdict};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_menagerie");
/// Fuzzed lines over all sessions in `cargo test`; `MENAGERIE_FUZZ_LINES` sets a long run.
const LINES: u64 = 3_000;
/// Longest wait for one step's answer (a CECP engine thinking on its move delays the pong).
const STEP_DEADLINE: Duration = Duration::from_secs(30);
/// Longest wait for the process to end after `quit`.
const EXIT_DEADLINE: Duration = Duration::from_secs(10);
/// Numbers of the fuzzer's own pings, far from those of the fuzzed `ping` lines.
const FIRST_PING: u64 = 1 << 40;
/// Failures reported in full.
const REPORTED: usize = 5;

/// A failure, with the last exchanges.
struct Failure {
    what: String,
    history: String,
}

/// One engine process and its model, for one game and protocol.
struct Session {
    proto: Proto,
    game: &'static dyn Variant,
    driver: Driver,
    model: Model,
    rng: Rng,
    /// Games and positions of `go perft` runs to come, with their depth.
    perfts: VecDeque<(&'static dyn Variant, Position, u32)>,
    next_ping: u64,
    /// CECP: the last line was `new`, which sets chess.
    after_new: bool,
    /// Fuzzed lines sent (not counting `d` and the syncs).
    lines: u64,
    restarts: u64,
}

fn is_refusal(proto: Proto, line: &str) -> bool {
    match proto {
        // A `go` ignores what it cannot read and still searches (`...; ignored`).
        Proto::Uci => {
            line.starts_with("info string ")
                && !line.starts_with("info string variant ")
                && line != "info string perft stopped"
                && !line.ends_with("; ignored")
        }
        Proto::Cecp => {
            line.starts_with("Error (")
                || line.starts_with("Illegal move")
                || line.starts_with("tellusererror ")
        }
    }
}

fn is_protocol_line(proto: Proto, line: &str) -> bool {
    match proto {
        Proto::Uci => is_uci_line(line),
        Proto::Cecp => is_cecp_line(line),
    }
}

/// The variant and FEN of a `d` answer.
fn d_answer(proto: Proto, line: &str) -> Option<(&str, &str)> {
    let rest = match proto {
        Proto::Uci => line.strip_prefix("info string variant ")?,
        Proto::Cecp => line.strip_prefix("# variant ")?,
    };
    let (name, rest) = rest.split_once(' ')?;
    Some((name, rest.strip_prefix("fen ")?))
}

impl Session {
    fn start(proto: Proto, game: &'static dyn Variant, seed: u64) -> Result<Session, String> {
        let mut s = Session {
            proto,
            game,
            driver: Driver::spawn(BIN),
            model: Model::new(proto),
            rng: Rng(seed),
            perfts: VecDeque::new(),
            next_ping: FIRST_PING,
            after_new: false,
            lines: 0,
            restarts: 0,
        };
        s.handshake()?;
        Ok(s)
    }

    /// Starts the protocol and the session's game, with time controls that keep every search
    /// short.
    fn handshake(&mut self) -> Result<(), String> {
        let (hello, done): (&[u8], &str) = match self.proto {
            Proto::Uci => (b"uci\n", "uciok"),
            Proto::Cecp => (b"xboard\nprotover 2\n", "feature done=1"),
        };
        self.driver.send(hello);
        let deadline = Instant::now() + STEP_DEADLINE;
        loop {
            match self.driver.next(deadline) {
                Some(Output::Stdout(l)) if l == done => break,
                Some(Output::Stdout(_)) | Some(Output::Stderr(_)) => {}
                _ => return Err(format!("no {done} after the handshake")),
            }
        }
        self.model = Model::new(self.proto);
        let setup: Vec<String> = match self.proto {
            Proto::Uci => vec![format!(
                "setoption name UCI_Variant value {}",
                self.game.name()
            )],
            Proto::Cecp => vec![
                "new".into(),
                format!("variant {}", self.game.name()),
                "force".into(),
                "level 0 0:01 0".into(),
            ],
        };
        for l in setup {
            self.run_line(l.as_bytes(), false)?;
        }
        Ok(())
    }

    fn sync_line(&mut self) -> (String, String) {
        match self.proto {
            Proto::Uci => ("isready".into(), "readyok".into()),
            Proto::Cecp => {
                let n = self.next_ping;
                self.next_ping += 1;
                (format!("ping {n}"), format!("pong {n}"))
            }
        }
    }

    /// Everything the engine writes up to the `skip + 1`-th `answer`, checked line by line for
    /// hygiene (a UCI line may be `isready` itself: its `readyok`s are skipped).
    fn collect(&mut self, answer: &str, mut skip: usize) -> Result<Vec<String>, String> {
        let deadline = Instant::now() + STEP_DEADLINE;
        let mut out = Vec::new();
        loop {
            match self.driver.next(deadline) {
                None => return Err(format!("no {answer:?} within {STEP_DEADLINE:?}")),
                Some(Output::Closed) => return Err("the engine died".into()),
                Some(Output::Stderr(l)) if !l.starts_with('#') => {
                    return Err(format!("stderr holds a line that is not a '#' line: {l:?}"))
                }
                Some(Output::Stderr(_)) => {}
                Some(Output::Stdout(l)) if l == answer && skip == 0 => return Ok(out),
                Some(Output::Stdout(l)) if l == answer => {
                    skip -= 1;
                    out.push(l);
                }
                Some(Output::Stdout(l)) if !is_protocol_line(self.proto, &l) => {
                    return Err(format!("stdout holds a line of no protocol: {l:?}"))
                }
                Some(Output::Stdout(l)) => out.push(l),
            }
        }
    }

    /// After `quit`: the process ends, cleanly, having written only protocol lines.
    fn expect_exit(&mut self) -> Result<(), String> {
        let deadline = Instant::now() + EXIT_DEADLINE;
        loop {
            match self.driver.next(deadline) {
                None => return Err("the engine did not end after quit".into()),
                Some(Output::Closed) => break,
                Some(Output::Stderr(l)) if !l.starts_with('#') => {
                    return Err(format!("stderr holds a line that is not a '#' line: {l:?}"))
                }
                Some(Output::Stdout(l)) if !is_protocol_line(self.proto, &l) => {
                    return Err(format!("stdout holds a line of no protocol: {l:?}"))
                }
                Some(_) => {}
            }
        }
        match self.driver.wait_exit(EXIT_DEADLINE) {
            Some(status) if status.success() => Ok(()),
            Some(status) => Err(format!("the engine ended with {status} after quit")),
            None => Err("the engine closed its pipes but did not end".into()),
        }
    }

    /// A fresh engine after `quit` or a failure.
    fn restart(&mut self) -> Result<(), String> {
        self.driver = Driver::spawn(BIN);
        self.perfts.clear();
        self.restarts += 1;
        self.handshake()
    }

    /// Sends lines, then `d` and a sync, and checks the answer; `lines` are taken in order
    /// (a burst) and must all be taken when there are several.
    fn exchange(&mut self, lines: &[Vec<u8>]) -> Result<Vec<bool>, String> {
        let quits = lines
            .iter()
            .position(|l| self.model.verdict(l) == Verdict::Quits);
        let mut bytes = Vec::new();
        for l in &lines[..quits.map_or(lines.len(), |q| q + 1)] {
            bytes.extend_from_slice(l);
            bytes.push(b'\n');
        }
        if let Some(q) = quits {
            self.driver.send(&bytes);
            for l in &lines[..q] {
                self.model.commit(l, false);
            }
            return self.expect_exit().map(|()| vec![]);
        }
        let (sync, answer) = self.sync_line();
        bytes.extend_from_slice(format!("d\n{sync}\n").as_bytes());
        if !self.driver.send(&bytes) {
            return Err("the engine no longer reads its input".into());
        }
        let own_syncs = lines
            .iter()
            .filter(|l| {
                let text = String::from_utf8_lossy(l);
                self.proto == Proto::Uci && text.split_whitespace().next() == Some("isready")
            })
            .count();
        let out = self.collect(&answer, own_syncs)?;
        let d_at = out
            .iter()
            .rposition(|l| d_answer(self.proto, l).is_some())
            .ok_or_else(|| format!("no answer to d in {out:?}"))?;
        let refused = out[..d_at].iter().any(|l| is_refusal(self.proto, l));
        let mut verdicts = Vec::new();
        let mut thinks = false;
        for l in lines {
            verdicts.push(self.model.verdict(l));
            thinks = self.model.starts_thinking(l);
            let refused_here = lines.len() == 1 && refused;
            self.note_perft(l, refused_here);
            self.model.commit(l, refused_here);
        }
        match (lines.len(), verdicts[0]) {
            (1, Verdict::Refused) if !refused => return Err("a line to refuse was taken".into()),
            (1, Verdict::Taken) if refused => return Err("a valid line was refused".into()),
            (n, _) if n > 1 && refused => return Err("a line of a valid burst was refused".into()),
            _ => {}
        }
        let must_move = lines.len() == 1 && !refused && thinks && self.model.engine_to_move();
        let moved = self.follow(&out, d_at)?;
        if must_move && !moved {
            return Err("the engine did not play its move".into());
        }
        if self.model.searches.len() > 1 {
            return Err(format!(
                "{} searches await their bestmove",
                self.model.searches.len()
            ));
        }
        Ok(vec![refused])
    }

    /// Remembers a `go perft N` the engine took, to check its count.
    fn note_perft(&mut self, line: &[u8], refused: bool) {
        let text = String::from_utf8_lossy(line);
        let words: Vec<&str> = text.split_whitespace().collect();
        if let (false, ["go", "perft", d]) = (refused, &words[..]) {
            if let Ok(depth) = d.parse::<u32>() {
                let root = (self.model.variant(), self.model.position().clone());
                self.perfts.push_back((root.0, root.1, depth));
            }
        }
    }

    /// Follows the answer in order: moves the engine plays, `bestmove`s, perft counts, claims,
    /// and the `d` answer at `d_at`. True if the engine played a move.
    fn follow(&mut self, out: &[String], d_at: usize) -> Result<bool, String> {
        let mut legs = String::new();
        let mut moved = false;
        for (i, l) in out.iter().enumerate() {
            if i == d_at {
                let (name, fen) = d_answer(self.proto, l).expect("a d answer");
                let expected = self.model.fen();
                if name != self.model.variant().name() || fen != expected {
                    return Err(format!(
                        "d shows {name} {fen:?}, the model has {} {expected:?}",
                        self.model.variant().name()
                    ));
                }
            } else if let Some(leg) = l.strip_prefix("move ") {
                legs.push_str(leg.trim());
                if !legs.ends_with(',') {
                    let text = std::mem::take(&mut legs);
                    let shown = self.model.shown();
                    let m = parse_wire(self.model.variant(), self.model.position(), &shown, &text)
                        .map_err(|e| format!("the engine plays {text}: {e}"))?;
                    self.model.play(m, text);
                    moved = true;
                }
            } else if let Some(text) = l.strip_prefix("tellothers Nature plays ") {
                // The third party's ply the engine played itself; the model has it already
                // where it could foresee it.
                if self.model.position().turn() == menagerie::core::Color::Neutral {
                    let v = self.model.variant();
                    let m = parse_move(v, self.model.position(), Dialect::Cecp, text)
                        .map_err(|e| format!("the engine plays the third party's {text}: {e}"))?;
                    self.model.play(m, String::new());
                    self.model.own_third_party = true;
                }
            } else if let Some(rest) = l.strip_prefix("bestmove ") {
                self.check_bestmove(rest)?;
            } else if let Some(n) = l.strip_prefix("Nodes searched: ") {
                let (v, pos, depth) = self.perfts.pop_front().ok_or("a perft nobody asked for")?;
                let expected = perft(v, &pos, depth);
                if n != expected.to_string() {
                    return Err(format!("perft {depth} counts {n}, the rules {expected}"));
                }
            } else if l == "info string perft stopped" {
                self.perfts
                    .pop_front()
                    .ok_or("a perft nobody asked for stopped")?;
            } else if ["1-0 {", "0-1 {", "1/2-1/2 {"]
                .iter()
                .any(|p| l.starts_with(p))
                && !self.model.game_over
            {
                return Err(format!("the engine claims {l:?} in a game that goes on"));
            }
        }
        Ok(moved)
    }

    fn check_bestmove(&mut self, rest: &str) -> Result<(), String> {
        if self.model.searches.is_empty() {
            return Err("a bestmove nobody asked for".into());
        }
        let (v, root) = self.model.searches.remove(0);
        let mut words = rest.split_whitespace();
        let best = words.next().unwrap_or("");
        let mut game = menagerie::game::Game::new(v, root);
        if best == "(none)" {
            return match game.legal_moves().is_empty() {
                true => Ok(()),
                false => Err("bestmove (none) with legal moves".into()),
            };
        }
        game.play_text(menagerie::notation::Dialect::Uci, best)
            .map_err(|e| format!("bestmove {best}: {e}"))?;
        if let (Some("ponder"), Some(p)) = (words.next(), words.next()) {
            game.play_text(menagerie::notation::Dialect::Uci, p)
                .map_err(|e| format!("ponder move {p}: {e}"))?;
        }
        Ok(())
    }

    /// Sends one line and checks the answer; `probe` sends a legal move after a refusal.
    fn run_line(&mut self, line: &[u8], probe: bool) -> Result<(), String> {
        self.lines += 1;
        let text = String::from_utf8_lossy(line);
        self.after_new = self.proto == Proto::Cecp && text.trim() == "new";
        let refused = self.exchange(&[line.to_vec()])?;
        if probe && refused.first() == Some(&true) {
            if let Some(p) = lines::probe(&mut self.rng, &self.model) {
                self.lines += 1;
                let refused = self.exchange(&[p])?;
                if refused.first() == Some(&true) {
                    return Err("the probe after a refusal was refused".into());
                }
            }
        }
        Ok(())
    }

    /// One generated step.
    fn step(&mut self, corpus: &[String]) -> Result<(), String> {
        let step = match self.proto {
            Proto::Uci => lines::uci(&mut self.rng, &self.model, corpus, self.game),
            Proto::Cecp => lines::cecp(
                &mut self.rng,
                &self.model,
                corpus,
                self.game,
                self.after_new,
            ),
        };
        match step {
            Step::Line(l) if self.model.verdict(&l) == Verdict::Quits => {
                self.lines += 1;
                self.exchange(&[l])?;
                self.restart()
            }
            Step::Line(l) => self.run_line(&l, true),
            Step::Burst(ls) => {
                self.lines += ls.len() as u64;
                let quits = ls.iter().any(|l| self.model.verdict(l) == Verdict::Quits);
                self.exchange(&ls)?;
                if quits {
                    self.restart()?;
                }
                Ok(())
            }
        }
    }

    /// Ends the session: a running search is stopped and answered, then `quit`.
    fn finish(&mut self) -> Result<(), String> {
        if self.proto == Proto::Uci {
            self.exchange(&[b"stop".to_vec()])?;
            let deadline = Instant::now() + STEP_DEADLINE;
            while !self.model.searches.is_empty() {
                match self.driver.next(deadline) {
                    Some(Output::Stdout(l)) => {
                        if let Some(rest) = l.strip_prefix("bestmove ") {
                            self.check_bestmove(rest)?;
                        }
                    }
                    Some(Output::Stderr(_)) => {}
                    _ => return Err("a go was never answered with bestmove".into()),
                }
            }
        }
        self.exchange(&[b"quit".to_vec()]).map(|_| ())
    }
}

/// What one session found.
struct Tally {
    lines: u64,
    restarts: u64,
    failures: Vec<Failure>,
    failed: u64,
}

fn fuzz_session(proto: Proto, game: &'static dyn Variant, lines: u64, seed: u64) -> Tally {
    let corpus = seed_corpus(game, &mut Rng(seed));
    let mut tally = Tally {
        lines: 0,
        restarts: 0,
        failures: Vec::new(),
        failed: 0,
    };
    let mut session = match Session::start(proto, game, seed) {
        Ok(s) => s,
        Err(what) => {
            tally.failed += 1;
            tally.failures.push(Failure {
                what,
                history: String::new(),
            });
            return tally;
        }
    };
    while session.lines < lines {
        let corpus = if session.model.variant().name() == game.name() {
            &corpus[..]
        } else {
            &[]
        };
        if let Err(what) = session.step(corpus) {
            tally.failed += 1;
            if tally.failures.len() < REPORTED {
                tally.failures.push(Failure {
                    what,
                    history: session.driver.history(),
                });
            }
            if let Err(what) = session.restart() {
                tally.failures.push(Failure {
                    what: format!("cannot restart: {what}"),
                    history: String::new(),
                });
                break;
            }
        }
    }
    if let Err(what) = session.finish() {
        tally.failed += 1;
        tally.failures.push(Failure {
            what,
            history: session.driver.history(),
        });
    }
    tally.lines = session.lines;
    tally.restarts = session.restarts;
    tally
}

/// One session's report lines and its failure count.
fn run_session(
    i: usize,
    game: &'static dyn Variant,
    proto: Proto,
    lines: u64,
    seed: u64,
) -> (Vec<String>, u64, u64) {
    let session_seed = seed ^ ((i as u64) << 32) ^ (proto as u64) << 48;
    let started = Instant::now();
    let t = fuzz_session(proto, game, lines, session_seed);
    eprintln!(
        "{} over {proto:?}: {} lines (seed {seed}), {} restarts, {} failures, {:.1} s",
        game.name(),
        t.lines,
        t.restarts,
        t.failed,
        started.elapsed().as_secs_f64()
    );
    let report = t
        .failures
        .into_iter()
        .map(|f| {
            format!(
                "{} over {proto:?}: {}\n---- last exchanges ----\n{}\n",
                game.name(),
                f.what,
                f.history
            )
        })
        .collect();
    (report, t.lines, t.failed)
}

#[test]
fn protocol_fuzzing_over_every_game() {
    let total = env_number("MENAGERIE_FUZZ_LINES", LINES);
    let seed = seed();
    // Sessions are independent (each has its own seed), so a long run may take several at
    // once: `MENAGERIE_FUZZ_JOBS`. The lines sent do not depend on it.
    let jobs = env_number("MENAGERIE_FUZZ_JOBS", 1).max(1) as usize;
    let games = variants::all();
    let per_session = total.div_ceil(2 * games.len() as u64);
    let sessions: Vec<(usize, &'static dyn Variant, Proto)> = games
        .iter()
        .enumerate()
        .flat_map(|(i, &g)| [Proto::Uci, Proto::Cecp].map(|p| (i, g, p)))
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(&(i, game, proto)) = sessions.get(k) else {
                    break;
                };
                let r = run_session(i, game, proto, per_session, seed);
                results.lock().expect("no session panics").push((k, r));
            });
        }
    });
    let mut results = results.into_inner().expect("no session panics");
    results.sort_by_key(|(k, _)| *k);
    let (mut report, mut sent, mut failed) = (Vec::new(), 0, 0);
    for (_, (r, lines, f)) in results {
        report.extend(r);
        sent += lines;
        failed += f;
    }
    eprintln!("{sent} lines in all, {failed} failures");
    assert!(
        failed == 0,
        "{failed} failures in {sent} lines (seed {seed}):\n{}",
        report.join("\n")
    );
}
