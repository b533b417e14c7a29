//! An engine in its own process, driven over UCI or CECP. Its stdout is read on a thread into a
//! channel, so every wait has a deadline and a dead or stalled engine never hangs the match.

use super::config::{EngineSpec, Proto, TimeControl};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long an engine may take to finish its handshake or get ready.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// How an exchange with an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// No answer before the deadline.
    Timeout,
    /// The engine closed its output or could not be written to (it crashed or quit).
    Disconnected,
    /// The engine did not answer `isready` (UCI) or `ping` (CECP) in time.
    NotReady,
    /// The engine lacks a feature the game needs, in words (a CECP engine without `setboard`
    /// and a position `edit` cannot set up).
    Unsupported(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Timeout => write!(f, "did not answer in time"),
            Failure::Disconnected => write!(f, "exited or closed its input"),
            Failure::NotReady => write!(
                f,
                "did not answer isready (UCI) or ping (CECP) within {} s",
                HANDSHAKE_TIMEOUT.as_secs()
            ),
            Failure::Unsupported(why) => write!(f, "{why}"),
        }
    }
}

/// A CECP engine's end of the game in place of a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// `resign`.
    Resign,
    /// `1-0 {...}`, `0-1 {...}` or `1/2-1/2 {...}`: the result and the comment.
    Result {
        result: &'static str,
        comment: String,
    },
}

/// The claim a CECP line makes, if any.
fn parse_claim(line: &str) -> Option<Claim> {
    let line = line.trim();
    if line == "resign" {
        return Some(Claim::Resign);
    }
    let (head, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let result = ["1-0", "0-1", "1/2-1/2"].into_iter().find(|&r| r == head)?;
    let rest = rest.trim();
    // Only the form with a comment is a claim (`1-0 {White mates}`); a bare result is what a
    // GUI sends, not an engine.
    let comment = rest.strip_prefix('{')?;
    Some(Claim::Result {
        result,
        comment: comment.trim_end_matches('}').trim().to_string(),
    })
}

/// The engine's answer to a move request.
#[derive(Clone, Debug, Default)]
pub struct Reply {
    /// A CECP engine resigned or claimed a result instead of moving (then `text` is empty).
    pub claim: Option<Claim>,
    /// The move, in the engine's notation.
    pub text: String,
    /// Its last reported score (centipawns from its own side; mates as ±100000 ∓ plies).
    pub score: Option<i32>,
    /// Its last reported depth.
    pub depth: Option<u32>,
}

/// What a move request tells the engine.
pub struct Request<'a> {
    /// Start position FEN, in the engine's notation.
    pub fen: &'a str,
    /// Moves from the start position, in the engine's notation.
    pub moves: &'a [String],
    /// The mover's and the other side's remaining clock (for clock controls).
    pub clocks: (Duration, Duration),
    /// Whether the mover is White.
    pub white: bool,
    /// Moves left in the current period, if the control has periods.
    pub moves_to_go: Option<u32>,
    /// Deadline for the answer.
    pub deadline: Instant,
}

/// A running engine.
pub struct Player {
    /// Its settings.
    pub spec: EngineSpec,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Moves of the current game already sent (CECP keeps its own board).
    sent: usize,
    /// Whether the CECP engine has been told `go` in this game.
    started: bool,
    /// CECP: moves are sent as `usermove MOVE` (else bare).
    usermove: bool,
    /// CECP: positions can be set with `setboard`.
    setboard: bool,
}

impl Player {
    /// Starts the engine and completes its handshake.
    pub fn start(spec: &EngineSpec) -> Result<Player, String> {
        let mut cmd = Command::new(&spec.cmd);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn().map_err(|e| {
            format!(
                "engine {}: cannot start {}: {e}",
                spec.name,
                spec.cmd.display()
            )
        })?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            // Bytes, decoded lossily as cutechess-cli does: an engine that writes a line that
            // is not UTF-8 (a Latin-1 author name) is still alive and playing.
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf);
                        let line = line.trim_end_matches(['\n', '\r']).to_string();
                        if tx.send(line).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let stdin = child.stdin.take();
        let mut p = Player {
            spec: spec.clone(),
            child,
            stdin,
            lines: rx,
            sent: 0,
            started: false,
            usermove: false,
            setboard: false,
        };
        p.handshake()
            .map_err(|what| format!("engine {}: {what}", spec.name))?;
        Ok(p)
    }

    fn send(&mut self, line: &str) -> Result<(), Failure> {
        let stdin = self.stdin.as_mut().ok_or(Failure::Disconnected)?;
        stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush())
            .map_err(|_| Failure::Disconnected)
    }

    /// Reads lines until one satisfies `done`, calling `seen` on every line.
    fn read_until(
        &mut self,
        deadline: Instant,
        mut seen: impl FnMut(&str),
        done: impl Fn(&str) -> bool,
    ) -> Result<String, Failure> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    seen(&line);
                    if done(&line) {
                        return Ok(line);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Err(Failure::Timeout),
                Err(RecvTimeoutError::Disconnected) => return Err(Failure::Disconnected),
            }
        }
    }

    fn handshake(&mut self) -> Result<(), String> {
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        let explain = |f: Failure, what: &str| match f {
            Failure::Timeout => format!(
                "did not answer {what} within {} s",
                HANDSHAKE_TIMEOUT.as_secs()
            ),
            Failure::Disconnected => format!("exited before answering {what}"),
            other => other.to_string(),
        };
        match self.spec.proto {
            Proto::Uci => {
                self.send("uci").map_err(|f| explain(f, "uci"))?;
                self.read_until(deadline, |_| {}, |l| l.trim() == "uciok")
                    .map_err(|f| explain(f, "uci with uciok"))?;
                for (k, v) in self.spec.options.clone() {
                    self.send(&format!("setoption name {k} value {v}"))
                        .map_err(|f| explain(f, "setoption"))?;
                }
            }
            Proto::Xboard => {
                self.send("xboard")
                    .and_then(|_| self.send("protover 2"))
                    .map_err(|f| explain(f, "xboard"))?;
                // Answer every feature as a GUI does, and remember the ones that change how we talk.
                let mut features = Vec::new();
                self.read_until(
                    deadline,
                    |l| features.extend(parse_features(l)),
                    |l| {
                        l.starts_with("feature")
                            && parse_features(l)
                                .iter()
                                .any(|(k, v)| k == "done" && v == "1")
                    },
                )
                .map_err(|f| explain(f, "protover 2 with feature done=1"))?;
                for (k, v) in &features {
                    match k.as_str() {
                        "usermove" => self.usermove = v == "1",
                        "setboard" => self.setboard = v == "1",
                        _ => {}
                    }
                    if k != "done" {
                        self.send(&format!("accepted {k}"))
                            .map_err(|f| explain(f, "accepted"))?;
                    }
                }
                for (k, v) in self.spec.options.clone() {
                    self.send(&format!("option {k}={v}"))
                        .map_err(|f| explain(f, "option"))?;
                }
            }
        }
        self.sync(deadline).map_err(|f| explain(f, "isready/ping"))
    }

    /// Waits until the engine has handled everything sent so far.
    fn sync(&mut self, deadline: Instant) -> Result<(), Failure> {
        match self.spec.proto {
            Proto::Uci => {
                self.send("isready")?;
                self.read_until(deadline, |_| {}, |l| l.trim() == "readyok")?;
            }
            Proto::Xboard => {
                self.send("ping 1")?;
                self.read_until(deadline, |_| {}, |l| l.trim() == "pong 1")?;
            }
        }
        Ok(())
    }

    /// Prepares a new game of `variant` (its protocol name) from `fen`; `standard` says whether
    /// `fen` is the variant's start position, which CECP's `new` and `variant` already set.
    pub fn new_game(&mut self, variant: &str, fen: &str, standard: bool) -> Result<(), Failure> {
        self.sent = 0;
        self.started = false;
        match self.spec.proto {
            Proto::Uci => {
                self.send(&format!("setoption name UCI_Variant value {variant}"))?;
                self.send("ucinewgame")?;
            }
            Proto::Xboard => {
                self.send("new")?;
                if variant != "normal" {
                    self.send(&format!("variant {variant}"))?;
                }
                self.send("force")?;
                // No thinking on the opponent's time: it would take a core from the opponent.
                self.send("easy")?;
                if !standard {
                    if self.setboard {
                        self.send(&format!("setboard {fen}"))?;
                    } else {
                        // As XBoard and cutechess-cli do for an engine with setboard=0.
                        for line in edit_commands(fen).map_err(Failure::Unsupported)? {
                            if line == "a2a3" && self.usermove {
                                self.send("usermove a2a3")?;
                            } else {
                                self.send(&line)?;
                            }
                        }
                    }
                }
                self.send("post")?;
                match self.spec.tc.expect("every engine has a time control") {
                    TimeControl::Clock { moves, base, inc } => {
                        let secs = base.as_secs();
                        let base = if secs % 60 == 0 {
                            format!("{}", secs / 60)
                        } else {
                            format!("{}:{:02}", secs / 60, secs % 60)
                        };
                        self.send(&format!("level {moves} {base} {}", inc.as_secs_f64()))?;
                    }
                    TimeControl::PerMove(t) => self.send(&format!("st {}", t.as_secs_f64()))?,
                    // CECP counts nodes through `nps`: one second at N nodes per second.
                    TimeControl::Nodes(n) => {
                        self.send(&format!("nps {n}"))?;
                        self.send("st 1")?;
                    }
                    // No clock: a day per move, bounded by `sd`.
                    TimeControl::Infinite => self.send("st 86400")?,
                }
                if let Some(d) = self.spec.depth {
                    self.send(&format!("sd {d}"))?;
                }
            }
        }
        self.sync(Instant::now() + HANDSHAKE_TIMEOUT)
            .map_err(|f| match f {
                Failure::Timeout => Failure::NotReady,
                f => f,
            })
    }

    /// Drops what the engine said since its last answer: a second `move`, or a `bestmove` that
    /// came after its time ran out, is not the answer to the next request.
    fn drop_stale_lines(&mut self) {
        while let Ok(line) = self.lines.try_recv() {
            log::debug!("engine {}: stale line dropped: {line}", self.spec.name);
        }
    }

    /// Asks for a move.
    pub fn go(&mut self, req: &Request) -> Result<Reply, Failure> {
        let mut reply = Reply::default();
        self.drop_stale_lines();
        match self.spec.proto {
            Proto::Uci => {
                let moves = if req.moves.is_empty() {
                    String::new()
                } else {
                    format!(" moves {}", req.moves.join(" "))
                };
                self.send(&format!("position fen {}{moves}", req.fen))?;
                let go = match self.spec.tc.expect("every engine has a time control") {
                    TimeControl::Clock { inc, .. } => {
                        let (w, b) = if req.white {
                            req.clocks
                        } else {
                            (req.clocks.1, req.clocks.0)
                        };
                        let mtg = req
                            .moves_to_go
                            .map_or(String::new(), |m| format!(" movestogo {m}"));
                        format!(
                            "go wtime {} btime {} winc {} binc {}{mtg}",
                            w.as_millis(),
                            b.as_millis(),
                            inc.as_millis(),
                            inc.as_millis()
                        )
                    }
                    TimeControl::PerMove(t) => format!("go movetime {}", t.as_millis()),
                    TimeControl::Nodes(n) => format!("go nodes {n}"),
                    TimeControl::Infinite => "go".to_string(),
                };
                let go = match self.spec.depth {
                    Some(d) => format!("{go} depth {d}"),
                    None => go,
                };
                self.send(&go)?;
                let line = self.read_until(
                    req.deadline,
                    |l| parse_uci_info(l, &mut reply),
                    |l| l.starts_with("bestmove"),
                )?;
                reply.text = line.split_whitespace().nth(1).unwrap_or("").to_string();
            }
            Proto::Xboard => {
                for m in &req.moves[self.sent..] {
                    if self.usermove {
                        self.send(&format!("usermove {m}"))?;
                    } else {
                        self.send(m)?;
                    }
                }
                self.sent = req.moves.len();
                if let TimeControl::Clock { .. } =
                    self.spec.tc.expect("every engine has a time control")
                {
                    self.send(&format!("time {}", req.clocks.0.as_millis() / 10))?;
                    self.send(&format!("otim {}", req.clocks.1.as_millis() / 10))?;
                }
                self.send("go")?;
                self.started = true;
                let line = self.read_until(
                    req.deadline,
                    |l| parse_thinking(l, &mut reply),
                    |l| l.starts_with("move ") || parse_claim(l).is_some(),
                )?;
                if let Some(claim) = parse_claim(&line) {
                    self.send("force")?;
                    reply.claim = Some(claim);
                    return Ok(reply);
                }
                let mut text = line["move ".len()..].trim().to_string();
                // Multi-leg moves come one leg per line, all but the last ending in a comma.
                while text.ends_with(',') {
                    let next = self.read_until(req.deadline, |_| {}, |l| l.starts_with("move "))?;
                    text.push_str(next["move ".len()..].trim());
                }
                // Stop the engine from thinking when the opponent's move arrives: we drive it.
                self.send("force")?;
                reply.text = text;
                self.sent += 1;
            }
        }
        Ok(reply)
    }

    /// Tells the engine the game is over and asks it to quit.
    pub fn quit(mut self) {
        // Both protocols end with `quit`.
        let _ = self.send("quit");
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Player {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The CECP `edit` commands that set up `fen` (CECP notation) on an engine without `setboard`:
/// after `new` and `force`, a dummy `a2a3` when Black is to move (edit mode keeps the side to
/// move), `edit`, `#` (clear), White's pieces, `c`, Black's pieces, `.`; or why that cannot
/// set up the position.
pub fn edit_commands(fen: &str) -> Result<Vec<String>, String> {
    let mut fields = fen.split_whitespace();
    let board = fields.next().unwrap_or("");
    let turn = fields.next().unwrap_or("w");
    let why = |what: &str| {
        format!("the engine has no setboard (setboard=0) and edit mode cannot set up {what}")
    };
    if board.contains(['[', ']', '+', '~', '*']) {
        return Err(why("pieces in hand or promoted pieces"));
    }
    let ranks: Vec<&str> = board.split('/').collect();
    let (mut white, mut black) = (Vec::new(), Vec::new());
    for (i, rank) in ranks.iter().enumerate() {
        let rank_no = ranks.len() - i;
        let mut file = 0usize;
        let mut digits = String::new();
        for ch in rank.chars() {
            if ch.is_ascii_digit() {
                digits.push(ch);
                continue;
            }
            if !digits.is_empty() {
                file += digits.parse::<usize>().unwrap_or(0);
                digits.clear();
            }
            if !ch.is_ascii_alphabetic() || file >= 26 {
                return Err(why(&format!("the board {board}")));
            }
            let square = format!("{}{rank_no}", (b'a' + file as u8) as char);
            let command = format!("{}{square}", ch.to_ascii_uppercase());
            if ch.is_ascii_uppercase() {
                white.push(command);
            } else {
                black.push(command);
            }
            file += 1;
        }
    }
    let mut out = Vec::new();
    if turn == "b" {
        out.push("a2a3".to_string());
    }
    out.push("edit".to_string());
    out.push("#".to_string());
    out.extend(white);
    out.push("c".to_string());
    out.extend(black);
    out.push(".".to_string());
    Ok(out)
}

/// Picks `score cp|mate` and `depth` out of a UCI info line.
fn parse_uci_info(line: &str, reply: &mut Reply) {
    let t: Vec<&str> = line.split_whitespace().collect();
    if t.first() != Some(&"info") {
        return;
    }
    for (i, w) in t.iter().enumerate() {
        match *w {
            "depth" => reply.depth = t.get(i + 1).and_then(|d| d.parse().ok()).or(reply.depth),
            "cp" => reply.score = t.get(i + 1).and_then(|d| d.parse().ok()).or(reply.score),
            "mate" => {
                reply.score = t
                    .get(i + 1)
                    .and_then(|d| d.parse::<i32>().ok())
                    .map(|m| if m > 0 { 100_000 - m } else { -100_000 - m })
                    .or(reply.score)
            }
            _ => {}
        }
    }
}

/// Picks score and depth out of a CECP thinking line (`depth score time nodes pv`).
fn parse_thinking(line: &str, reply: &mut Reply) {
    let t: Vec<&str> = line.split_whitespace().collect();
    if t.len() >= 4 && t[..4].iter().all(|f| f.parse::<i64>().is_ok()) {
        reply.depth = t[0].parse().ok();
        reply.score = t[1].parse().ok();
    }
}

/// The `key=value` pairs of a CECP `feature` line (values may be quoted).
fn parse_features(line: &str) -> Vec<(String, String)> {
    let Some(rest) = line.strip_prefix("feature ") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut chars = rest.chars().peekable();
    loop {
        while chars.peek() == Some(&' ') {
            chars.next();
        }
        let key: String = chars.by_ref().take_while(|&c| c != '=').collect();
        if key.is_empty() {
            break;
        }
        let value: String = if chars.peek() == Some(&'"') {
            chars.next();
            chars.by_ref().take_while(|&c| c != '"').collect()
        } else {
            chars.by_ref().take_while(|&c| c != ' ').collect()
        };
        out.push((key.trim().to_string(), value));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_mode_setup() {
        // The Italian opening after 1.e4 e5 2.Nf3 Nc6 3.Bc4, Black to move.
        let lines =
            edit_commands("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3")
                .unwrap();
        assert_eq!(&lines[..3], ["a2a3", "edit", "#"]);
        assert!(lines.contains(&"Bc4".to_string()) && lines.contains(&"Nf3".to_string()));
        let c = lines.iter().position(|l| l == "c").unwrap();
        assert!(lines[c + 1..].contains(&"Nc6".to_string()));
        assert!(lines[c + 1..].contains(&"Ke8".to_string()));
        assert!(!lines[..c].contains(&"Ke8".to_string()));
        assert_eq!(lines.last().unwrap(), ".");
        // White's 16 pieces and Black's 16, and the five commands around them.
        assert_eq!(lines.len(), 32 + 5);
        assert!(edit_commands("8/8/8/8/8/8/8/K6k[Q] w - - 0 1")
            .unwrap_err()
            .contains("setboard=0"));
    }

    #[test]
    fn feature_lines() {
        let f = parse_features("feature setboard=0 myname=\"Fairy-Max 5.0b\" done=1");
        assert_eq!(
            f,
            vec![
                ("setboard".into(), "0".into()),
                ("myname".into(), "Fairy-Max 5.0b".into()),
                ("done".into(), "1".into())
            ]
        );
        assert!(parse_features("tellics say hi").is_empty());
    }
}
