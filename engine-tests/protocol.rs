//! A small transcript runner for the black-box protocol tests (UCI and XBoard/CECP v2).
//!
//! [`Engine`] spawns the `menagerie` binary with no arguments, writes command lines to its
//! stdin and reads its stdout on a background thread into a channel (stderr is collected on a
//! second thread). Every wait has a deadline; a failed expectation panics with the whole
//! transcript seen so far (`>` sent, `<` received, with timestamps) and the engine's stderr.
//! The child process is always killed when the [`Engine`] is dropped, so no test can leave a
//! stray engine behind or hang on it.
//!
//! Received lines are consumed in order: an expectation scans forward from the first line no
//! earlier expectation consumed, and consumes everything up to and including the line it
//! matched (the skipped lines stay in the transcript).

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

pub const BIN: &str = env!("CARGO_BIN_EXE_menagerie");

/// Deadline of every wait that has no tighter bound of its own.
pub const DEADLINE: Duration = Duration::from_secs(10);

pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// White mates in one with a1a8.
pub const MATE_IN_1: &str = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Protocol {
    Uci,
    Xboard,
}

enum Event {
    Line(Instant, String),
    Eof(Instant),
}

enum Entry {
    Sent(Instant, String),
    Received(Instant, String),
    Eof(Instant),
    Note(Instant, String),
}

pub struct Engine {
    protocol: Protocol,
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Event>,
    /// Every stdout line received so far, in order.
    lines: Vec<String>,
    /// Index in `lines` of the first line no expectation has consumed.
    pos: usize,
    eof: bool,
    exit: Option<ExitStatus>,
    log: Vec<Entry>,
    stderr: Arc<Mutex<Vec<u8>>>,
    start: Instant,
    next_ping: u32,
}

impl Engine {
    /// Spawns the engine (no arguments) and sends nothing.
    pub fn spawn(protocol: Protocol) -> Engine {
        Engine::spawn_with_env(protocol, &[])
    }

    /// Spawns the engine with extra environment variables and sends nothing.
    pub fn spawn_with_env(protocol: Protocol, env: &[(&str, &str)]) -> Engine {
        let mut cmd = Command::new(BIN);
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd
            .spawn()
            .unwrap_or_else(|e| panic!("cannot spawn {BIN}: {e}"));
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped stdout");
        let mut stderr_pipe = child.stderr.take().expect("piped stderr");

        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(Event::Eof(Instant::now()));
                        return;
                    }
                    Ok(_) => {
                        while buf.last() == Some(&b'\n') || buf.last() == Some(&b'\r') {
                            buf.pop();
                        }
                        let line = String::from_utf8_lossy(&buf).into_owned();
                        if tx.send(Event::Line(Instant::now(), line)).is_err() {
                            return;
                        }
                    }
                }
            }
        });

        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&stderr);
        thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            loop {
                match stderr_pipe.read(&mut chunk) {
                    Ok(0) | Err(_) => return,
                    Ok(n) => sink.lock().unwrap().extend_from_slice(&chunk[..n]),
                }
            }
        });

        Engine {
            protocol,
            child,
            stdin,
            rx,
            lines: Vec::new(),
            pos: 0,
            eof: false,
            exit: None,
            log: Vec::new(),
            stderr,
            start: Instant::now(),
            next_ping: 9000,
        }
    }

    /// Spawns the engine, sends `uci` and waits for `uciok`.
    #[track_caller]
    pub fn uci() -> Engine {
        let mut e = Engine::spawn(Protocol::Uci);
        e.send("uci");
        e.expect_exact("uciok");
        e
    }

    /// Spawns the engine, sends `xboard` and `protover 2` and waits for `feature done=1`.
    #[track_caller]
    pub fn xboard() -> Engine {
        let mut e = Engine::spawn(Protocol::Xboard);
        e.send("xboard");
        e.send("protover 2");
        e.expect_exact("feature done=1");
        e
    }

    // ----- sending -------------------------------------------------------------------------

    /// Writes `line` and a newline to the engine's stdin.
    #[track_caller]
    pub fn send(&mut self, line: &str) {
        self.log.push(Entry::Sent(Instant::now(), line.to_string()));
        self.write(format!("{line}\n").as_bytes());
    }

    /// Writes raw bytes to the engine's stdin (the caller supplies any newline).
    #[track_caller]
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.log.push(Entry::Sent(
            Instant::now(),
            format!(
                "{} (raw bytes {:?})",
                String::from_utf8_lossy(bytes).trim_end(),
                bytes
            ),
        ));
        self.write(bytes);
    }

    #[track_caller]
    fn write(&mut self, bytes: &[u8]) {
        let result = match self.stdin.as_mut() {
            Some(stdin) => stdin.write_all(bytes).and_then(|_| stdin.flush()),
            None => Err(std::io::Error::other("stdin already closed")),
        };
        if let Err(e) = result {
            self.fail(&format!("cannot write to the engine's stdin: {e}"));
        }
    }

    /// Sleeps while collecting output (so the transcript keeps its timing).
    pub fn pause(&mut self, d: Duration) {
        let deadline = Instant::now() + d;
        while self.pump(deadline) {}
    }

    // ----- receiving -----------------------------------------------------------------------

    /// Receives one event before `deadline`; false on timeout or end of output.
    fn pump(&mut self, deadline: Instant) -> bool {
        if self.eof {
            let now = Instant::now();
            if now < deadline {
                thread::sleep((deadline - now).min(Duration::from_millis(10)));
            }
            return false;
        }
        let now = Instant::now();
        let wait = deadline.saturating_duration_since(now);
        match self.rx.recv_timeout(wait) {
            Ok(Event::Line(t, line)) => {
                self.log.push(Entry::Received(t, line.clone()));
                self.lines.push(line);
                true
            }
            Ok(Event::Eof(t)) => {
                self.log.push(Entry::Eof(t));
                self.eof = true;
                false
            }
            Err(RecvTimeoutError::Timeout) => false,
            Err(RecvTimeoutError::Disconnected) => {
                self.eof = true;
                false
            }
        }
    }

    /// Waits up to `timeout` for a line matching `pred`; returns it, consuming every line up
    /// to and including it. Fails with the transcript if none arrives in time.
    #[track_caller]
    pub fn expect_line(&mut self, pred: impl Fn(&str) -> bool, timeout: Duration) -> String {
        self.expect("a line matching the predicate", pred, timeout)
    }

    /// [`Engine::expect_line`] with a description of the awaited line for the failure message.
    #[track_caller]
    pub fn expect(&mut self, what: &str, pred: impl Fn(&str) -> bool, timeout: Duration) -> String {
        let mut consumed = self.lines_until(what, pred, timeout);
        consumed.pop().expect("lines_until returns the match")
    }

    /// Like [`Engine::expect`] but returns every consumed line, the match last.
    #[track_caller]
    pub fn lines_until(
        &mut self,
        what: &str,
        pred: impl Fn(&str) -> bool,
        timeout: Duration,
    ) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut i = self.pos;
        loop {
            while i < self.lines.len() {
                if pred(&self.lines[i]) {
                    let out = self.lines[self.pos..=i].to_vec();
                    self.pos = i + 1;
                    return out;
                }
                i += 1;
            }
            if self.eof {
                self.fail(&format!(
                    "expected {what}, but the engine closed its stdout"
                ));
            }
            if Instant::now() >= deadline {
                self.fail(&format!("expected {what} within {timeout:?}, none arrived"));
            }
            self.pump(deadline);
        }
    }

    /// Expects a line equal to `line` (within [`DEADLINE`]).
    #[track_caller]
    pub fn expect_exact(&mut self, line: &str) -> String {
        self.expect(&format!("the line {line:?}"), |l| l == line, DEADLINE)
    }

    /// Expects a line starting with `prefix` (within [`DEADLINE`]).
    #[track_caller]
    pub fn expect_prefix(&mut self, prefix: &str) -> String {
        self.expect(
            &format!("a line starting with {prefix:?}"),
            |l| l.starts_with(prefix),
            DEADLINE,
        )
    }

    /// Watches the output for `duration`: fails at once if a line matching `pred` is among
    /// the unconsumed lines or arrives meanwhile. Consumes nothing.
    #[track_caller]
    pub fn expect_no_line(&mut self, what: &str, pred: impl Fn(&str) -> bool, duration: Duration) {
        let deadline = Instant::now() + duration;
        let mut i = self.pos;
        loop {
            while i < self.lines.len() {
                if pred(&self.lines[i]) {
                    let line = self.lines[i].clone();
                    self.fail(&format!("expected no {what} here, got {line:?}"));
                }
                i += 1;
            }
            if Instant::now() >= deadline {
                return;
            }
            self.pump(deadline);
        }
    }

    /// Round trip: `isready`/`readyok` (UCI) or `ping N`/`pong N` (XBoard). Returns the lines
    /// received before the answer (consumed); the answer itself is consumed too.
    #[track_caller]
    pub fn sync(&mut self) -> Vec<String> {
        let mut lines = match self.protocol {
            Protocol::Uci => {
                self.send("isready");
                self.lines_until("readyok", |l| l == "readyok", DEADLINE)
            }
            Protocol::Xboard => {
                let n = self.next_ping;
                self.next_ping += 1;
                self.send(&format!("ping {n}"));
                let pong = format!("pong {n}");
                self.lines_until(&format!("{pong:?}"), |l| l == pong, DEADLINE)
            }
        };
        lines.pop();
        lines
    }

    /// Every stdout line received so far (consumed or not).
    pub fn received(&self) -> &[String] {
        &self.lines
    }

    // ----- process end ---------------------------------------------------------------------

    /// Waits up to `within` for the process to exit, collecting its output meanwhile.
    #[track_caller]
    pub fn wait_exit(&mut self, within: Duration) -> ExitStatus {
        if let Some(status) = self.exit {
            return status;
        }
        let deadline = Instant::now() + within;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.exit = Some(status);
                    self.log.push(Entry::Note(
                        Instant::now(),
                        format!("process exited: {status}"),
                    ));
                    // Collect what is still in the pipe.
                    let drain = Instant::now() + Duration::from_secs(2);
                    while !self.eof && Instant::now() < drain {
                        self.pump(drain);
                    }
                    return status;
                }
                Ok(None) => {}
                Err(e) => self.fail(&format!("cannot wait for the engine: {e}")),
            }
            if Instant::now() >= deadline {
                self.fail(&format!("the engine did not exit within {within:?}"));
            }
            self.pump((Instant::now() + Duration::from_millis(10)).min(deadline));
        }
    }

    /// Sends `quit`, then waits up to `within` for the process to exit.
    #[track_caller]
    pub fn quit_and_wait(&mut self, within: Duration) -> ExitStatus {
        self.send("quit");
        self.wait_exit(within)
    }

    /// Ends the session: sends `quit` (unless the process already ended), requires a clean exit
    /// within [`DEADLINE`], then checks the whole stdout: only protocol lines, and neither
    /// stdout nor stderr mentions a panic.
    #[track_caller]
    pub fn finish(mut self) {
        if self.exit.is_none() {
            if let Ok(None) = self.child.try_wait() {
                self.send("quit");
            }
        }
        let status = self.wait_exit(DEADLINE);
        if !status.success() {
            self.fail(&format!("the engine ended with {status} after quit"));
        }
        self.check_clean();
    }

    /// Fails unless every stdout line so far is a protocol line and nothing mentions a panic.
    #[track_caller]
    pub fn check_clean(&self) {
        let stderr = self.stderr_text();
        if stderr.contains("panicked") {
            self.fail("stderr mentions a panic");
        }
        for line in &self.lines {
            if line.contains("panicked") {
                self.fail(&format!("stdout mentions a panic: {line:?}"));
            }
            let ok = match self.protocol {
                Protocol::Uci => is_uci_line(line),
                Protocol::Xboard => is_cecp_line(line),
            };
            if !ok {
                self.fail(&format!(
                    "stdout holds a line that is not a {:?} protocol line: {line:?}",
                    self.protocol
                ));
            }
        }
    }

    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }

    /// The session so far: sent and received lines with their times since spawn.
    pub fn transcript(&self) -> String {
        let mut out = String::new();
        for entry in &self.log {
            let (t, text) = match entry {
                Entry::Sent(t, s) => (*t, format!("> {s}")),
                Entry::Received(t, s) => (*t, format!("< {s}")),
                Entry::Eof(t) => (*t, "<EOF on stdout>".to_string()),
                Entry::Note(t, s) => (*t, format!("# {s}")),
            };
            let secs = t.saturating_duration_since(self.start).as_secs_f64();
            out.push_str(&format!("[{secs:7.3}s] {text}\n"));
        }
        out
    }

    /// Panics with `msg`, the transcript and stderr.
    #[track_caller]
    pub fn fail(&self, msg: &str) -> ! {
        panic!(
            "{msg}\n---- transcript ({:?}) ----\n{}---- stderr ----\n{}---- end ----",
            self.protocol,
            self.transcript(),
            self.stderr_text()
        );
    }

    /// Fails unless `mv` is a legal move (UCI coordinates) after `moves` from `fen`.
    #[track_caller]
    pub fn assert_legal(&self, fen: &str, moves: &[&str], mv: &str) {
        let legal = legal_moves(fen, moves);
        if !legal.iter().any(|m| m == mv) {
            self.fail(&format!(
                "{mv:?} is not a legal move in {fen} after moves {moves:?}; legal: {legal:?}"
            ));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        drop(self.stdin.take());
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

// ----- protocol line shapes ----------------------------------------------------------------

#[allow(unused_imports)] // the fuzz crate includes this file without using it
pub use crate::protocol_lines::is_thinking_line;
use crate::protocol_lines::{is_cecp_line, is_uci_line};

/// `e2e4`, `e7e8q`: files a-h, ranks 1-8, optional promotion letter.
pub fn is_coordinate_move(s: &str) -> bool {
    let b = s.as_bytes();
    let sq = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    (b.len() == 4 || (b.len() == 5 && b"nbrq".contains(&b[4]))) && sq(b[0], b[1]) && sq(b[2], b[3])
}

/// Splits `bestmove m [ponder p]` into its moves.
pub fn parse_bestmove(line: &str) -> Option<(String, Option<String>)> {
    let mut it = line.split_whitespace();
    if it.next()? != "bestmove" {
        return None;
    }
    let best = it.next()?.to_string();
    let ponder = match (it.next(), it.next()) {
        (Some("ponder"), Some(p)) => Some(p.to_string()),
        _ => None,
    };
    Some((best, ponder))
}

/// The value following `key` in a whitespace-separated line, e.g. `depth` in an info line.
pub fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut it = line.split_whitespace();
    while let Some(tok) = it.next() {
        if tok == key {
            return it.next();
        }
    }
    None
}

// ----- reference rules (shakmaty) ------------------------------------------------------------

fn position_after(fen: &str, moves: &[&str]) -> Chess {
    let parsed: Fen = fen
        .parse()
        .unwrap_or_else(|e| panic!("test bug: shakmaty rejects FEN {fen:?}: {e}"));
    let mut pos: Chess = parsed
        .into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("test bug: shakmaty rejects position {fen:?}: {e}"));
    for mv in moves {
        let m = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.to_uci(CastlingMode::Standard).to_string() == *mv)
            .unwrap_or_else(|| panic!("test bug: {mv} is illegal in {fen} after {moves:?}"));
        pos.play_unchecked(m);
    }
    pos
}

/// The legal moves (UCI coordinates) after `moves` from `fen`, by the independent `shakmaty`.
pub fn legal_moves(fen: &str, moves: &[&str]) -> Vec<String> {
    position_after(fen, moves)
        .legal_moves()
        .into_iter()
        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .collect()
}
