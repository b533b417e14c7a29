//! Tests of `menagerie gui` from outside: the binary is started as a user starts it
//! (`menagerie gui --no-open --port 0`) and driven over HTTP, WebSocket and, in real Chromium,
//! through the page (`gui-tests/browser.py`).
//!
//! The browser tests need Chromium, ChromeDriver and selenium (`.ci/run` installs them). Where
//! they are missing the test says so and passes, unless `MENAGERIE_BROWSER_TESTS=1` demands them
//! (as `.ci/run` does); then it fails. `MENAGERIE_SCREENSHOTS=DIR` has the browser tests save a
//! screenshot of each game there (`docs/gui.md`), and `MENAGERIE_BROWSER_FILTER=TEXT` runs only the
//! browser checks whose label contains TEXT.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tungstenite::{Message, WebSocket};

mod faults;

/// Requests the hostile test sends.
const HOSTILE_REQUESTS: usize = 10_000;
/// Time the whole hostile test may take.
const HOSTILE_DEADLINE: Duration = Duration::from_secs(300);
/// Time to wait for one answer.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

/// A running `menagerie gui`, ended when dropped.
struct Server {
    child: Child,
    host: String,
}

impl Server {
    fn start() -> Server {
        let server = Server::start_with(&[]);
        assert!(
            server.host.starts_with("127.0.0.1:"),
            "listens on loopback by default: {}",
            server.host
        );
        server
    }

    /// `menagerie gui --no-open --port 0` with `args` added. `host` is where to connect: the
    /// address printed, or 127.0.0.1 with its port where the server listens on every address.
    fn start_with(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_menagerie"))
            .args(["gui", "--no-open", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("menagerie gui starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("the URL line");
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL in '{line}'"));
        let host = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .replace("0.0.0.0:", "127.0.0.1:");
        Server { child, host }
    }

    fn port(&self) -> &str {
        self.host.rsplit(':').next().unwrap()
    }

    fn url(&self) -> String {
        format!("http://{}/", self.host)
    }

    /// Sends raw bytes and returns the status code of the answer (0: no answer).
    fn raw(&self, bytes: &[u8]) -> u16 {
        let Ok(mut s) = TcpStream::connect(&self.host) else {
            return 0;
        };
        let _ = s.set_read_timeout(Some(ANSWER_TIMEOUT));
        let _ = s.set_write_timeout(Some(ANSWER_TIMEOUT));
        // The server may answer and close before it has read everything (a body it refuses).
        let _ = s.write_all(bytes);
        let _ = s.shutdown(std::net::Shutdown::Write);
        let mut answer = Vec::new();
        let _ = s.take(4096).read_to_end(&mut answer);
        status(&answer)
    }

    fn get(&self, path: &str, extra: &str) -> u16 {
        self.raw(format!("GET {path} HTTP/1.1\r\nHost: {}\r\n{extra}\r\n", self.host).as_bytes())
    }

    /// A WebSocket session, as the page opens it.
    fn websocket(&self) -> WebSocket<TcpStream> {
        let stream = TcpStream::connect(&self.host).expect("connect");
        stream.set_read_timeout(Some(ANSWER_TIMEOUT)).unwrap();
        let url = format!("ws://{}/ws", self.host);
        let (ws, _) = tungstenite::client(url.as_str(), stream).expect("WebSocket handshake");
        ws
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn status(answer: &[u8]) -> u16 {
    let text = String::from_utf8_lossy(answer);
    text.strip_prefix("HTTP/1.1 ")
        .and_then(|r| r.get(..3))
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

/// Sends a command and returns the `state` message that answers it.
fn command(ws: &mut WebSocket<TcpStream>, cmd: &str) -> serde_json::Value {
    ws.send(Message::text(cmd)).expect("send");
    loop {
        let msg = ws.read().expect("an answer");
        if let Message::Text(t) = msg {
            let v: serde_json::Value = serde_json::from_str(t.as_str()).expect("JSON");
            if v["type"] == "state" {
                return v;
            }
        }
    }
}

#[test]
fn serves_the_page_and_refuses_what_is_not_its_own() {
    let server = Server::start();
    assert_eq!(server.get("/", ""), 200);
    assert_eq!(server.get("/app.js", ""), 200);
    assert_eq!(server.get("/../../etc/passwd", ""), 404);
    assert_eq!(server.get("/%2e%2e/Cargo.toml", ""), 404);
    assert_eq!(server.get("/src/main.rs", ""), 404);
    // DNS rebinding: our port, a foreign name.
    let rebound = format!("GET / HTTP/1.1\r\nHost: attacker.example:{}\r\n\r\n", {
        server.host.rsplit(':').next().unwrap()
    });
    assert_eq!(server.raw(rebound.as_bytes()), 403);
    assert_eq!(server.get("/", "Origin: http://attacker.example\r\n"), 403);
    let foreign_ws = "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: http://attacker.example\r\n";
    assert_eq!(server.get("/ws", foreign_ws), 403);
    assert_eq!(server.get("/ws", ""), 426);
    let post = format!(
        "POST / HTTP/1.1\r\nHost: {}\r\nContent-Length: 5\r\n\r\nhello",
        server.host
    );
    assert_eq!(server.raw(post.as_bytes()), 405);
}

#[test]
fn a_page_plays_a_game_over_its_websocket() {
    let server = Server::start();
    let mut ws = server.websocket();
    let state = command(
        &mut ws,
        r#"{"cmd":"settings","white":"human","black":"human"}"#,
    );
    assert_eq!(
        state["fen"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    assert_eq!(state["legal"].as_array().unwrap().len(), 20);
    let state = command(&mut ws, r#"{"cmd":"move","text":"e2e4"}"#);
    assert_eq!(
        state["fen"],
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    let state = command(&mut ws, r#"{"cmd":"move","text":"e2e4"}"#);
    assert_eq!(state["moves"].as_array().unwrap().len(), 1, "refused");
}

/// 10,000 malformed or hostile requests (bad PGNs among them); afterwards the server still answers and a game that
/// was in progress is exactly as it was.
#[test]
fn ten_thousand_hostile_requests_change_nothing() {
    let server = Server::start();
    let mut game = server.websocket();
    command(
        &mut game,
        r#"{"cmd":"settings","white":"human","black":"human"}"#,
    );
    command(&mut game, r#"{"cmd":"move","text":"d2d4"}"#);
    let before = command(&mut game, r#"{"cmd":"state"}"#)["fen"].clone();
    let huge_body = format!(
        "POST / HTTP/1.1\r\nHost: {}\r\nContent-Length: 10000000\r\n\r\n{}",
        server.host,
        "x".repeat(64 * 1024)
    );
    let huge_head = format!(
        "GET / HTTP/1.1\r\nHost: {}\r\nX-Filler: {}\r\n\r\n",
        server.host,
        "y".repeat(20_000)
    );
    let ws_head = |origin: &str| {
        format!("GET /ws HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n{origin}\r\n", server.host)
    };
    // A valid upgrade followed by frames that break RFC 6455: unmasked, reserved bits,
    // an oversized length, a bad opcode.
    let bad_frames: [&[u8]; 4] = [
        b"\x81\x05hello",
        b"\xf1\x85abcdhello",
        b"\x82\xff\x7f\xff\xff\xff\xff\xff\xff\xff",
        b"\x8b\x80abcd",
    ];
    let started = Instant::now();
    let mut answers = [0usize; 600];
    for i in 0..HOSTILE_REQUESTS {
        assert!(started.elapsed() < HOSTILE_DEADLINE, "too slow at {i}");
        let code = match i % 10 {
            0 => server.get(&format!("/{}etc/passwd", "../".repeat(i % 50)), ""),
            1 => server.raw(huge_body.as_bytes()),
            2 => server.get("/", "Origin: http://attacker.example\r\n"),
            3 => server.raw(b"GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n"),
            4 => server.raw(huge_head.as_bytes()),
            5 => server.raw(&[0xde, 0xad, 0xbe, 0xef, b'\r', b'\n', b'\r', b'\n']),
            6 => {
                let mut bytes = ws_head("").into_bytes();
                bytes.extend_from_slice(bad_frames[i / 10 % bad_frames.len()]);
                server.raw(&bytes)
            }
            7 => server.raw(ws_head("Origin: http://attacker.example\r\n").as_bytes()),
            8 => server.get("/ws", "Upgrade: websocket\r\n"),
            _ => {
                // Illegal and malformed commands on the game's own WebSocket.
                let cmd = match i % 40 {
                    9 => r#"{"cmd":"move","text":"e2e5"}"#.to_string(),
                    19 => r#"{"cmd":"fen","fen":"8/8/8 w"}"#.to_string(),
                    29 => format!(r#"{{"cmd":"move","text":"{}"}}"#, "a1".repeat(300)),
                    // A PGN whose third move is illegal.
                    39 => r#"{"cmd":"pgn","pgn":"[Variant \"chess\"]\n\n1. e4 e5 2. Ke3 *"}"#
                        .to_string(),
                    _ => "{not json".to_string(),
                };
                game.send(Message::text(cmd)).expect("the game's socket");
                let mut refused = 0;
                loop {
                    let msg = game.read().unwrap_or_else(|e| {
                        panic!("request {i}: no answer on the game's socket: {e}")
                    });
                    if let Message::Text(t) = msg {
                        let v: serde_json::Value = serde_json::from_str(t.as_str()).unwrap();
                        if v["type"] == "error" {
                            refused = 400;
                        }
                        if v["type"] == "state" {
                            break;
                        }
                    }
                }
                refused
            }
        };
        answers[code as usize] += 1;
        assert!(
            (400..500).contains(&code) || (code == 101 && i % 10 == 6),
            "request {i} (kind {}) got {code}",
            i % 10
        );
    }
    let elapsed = started.elapsed();
    let counts: Vec<String> = answers
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(c, n)| format!("{c}: {n}"))
        .collect();
    eprintln!(
        "{HOSTILE_REQUESTS} hostile requests in {:.1} s; answers {}",
        elapsed.as_secs_f64(),
        counts.join(", ")
    );
    assert_eq!(server.get("/", ""), 200, "still serving");
    let after = command(&mut game, r#"{"cmd":"state"}"#);
    assert_eq!(after["fen"], before, "the game is unchanged");
    let after = command(&mut game, r#"{"cmd":"move","text":"d7d5"}"#);
    assert_eq!(
        after["moves"].as_array().unwrap().len(),
        2,
        "still playable"
    );
}

/// Whether the browser tests can run here: python3 with selenium, and Chromium.
fn browser_available() -> Result<(), String> {
    let ok = Command::new("python3")
        .args(["-c", "import selenium"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("python3: {e}"))?;
    if !ok.success() {
        return Err("the Python package selenium is not installed".into());
    }
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    if !std::path::Path::new(&chromium).exists() {
        return Err(format!("no Chromium at {chromium}"));
    }
    Ok(())
}

/// Runs `gui-tests/browser.py` against a server of its own: the checks of `suite`, those whose
/// label contains `MENAGERIE_BROWSER_FILTER` when it is set.
fn chromium(suite: &str) {
    let required = std::env::var("MENAGERIE_BROWSER_TESTS").is_ok_and(|v| v == "1");
    if let Err(why) = browser_available() {
        assert!(!required, "browser tests required but cannot run: {why}");
        eprintln!("browser tests skipped: {why} (see .ci/run)");
        return;
    }
    let server = Server::start();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/gui-tests/browser.py");
    let mut cmd = Command::new("python3");
    cmd.arg(script).arg(server.url()).args(["--suite", suite]);
    if let Ok(dir) = std::env::var("MENAGERIE_SCREENSHOTS") {
        cmd.args(["--screenshots", &dir]);
    }
    if let Ok(filter) = std::env::var("MENAGERIE_BROWSER_FILTER") {
        cmd.args(["--filter", &filter]);
    }
    let status = cmd.status().expect("python3 runs");
    assert!(status.success(), "the browser tests failed");
}

#[test]
fn every_game_in_chromium() {
    chromium("games");
}

/// The analysis board (move list, PGN, analysis mode, drag and drop, a narrow window) in FIDE
/// chess, Afterlife and Chaos.
#[test]
fn the_analysis_board_in_chromium() {
    chromium("board");
}
