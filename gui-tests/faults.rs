//! The server's faults found by fuzzing and review (issue 24, section 5), each checked from
//! outside over loopback: the origin on every address, the caps on tables and threads across
//! games, tables allocated off the socket's thread, request framing, and idle sockets.

use super::{command, Server, ANSWER_TIMEOUT};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};
use tungstenite::{Message, WebSocket};

/// A WebSocket upgrade with `host` and `origin`.
fn upgrade(host: &str, origin: &str) -> String {
    format!(
        "GET /ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
         Origin: {origin}\r\n\r\n"
    )
}

/// Listening on every address, the server takes as its own only the address a connection
/// reached it by: a page of another IP address with the same port is foreign.
#[test]
fn on_every_address_only_the_address_reached_is_its_own() {
    let server = Server::start_with(&["--address", "0.0.0.0"]);
    let port = server.port().to_string();
    let ours = format!("127.0.0.1:{port}");
    let foreign = format!("203.0.113.7:{port}");
    let status = |host: &str, origin: &str| server.raw(upgrade(host, origin).as_bytes());
    assert_eq!(status(&ours, &format!("http://{foreign}")), 403);
    assert_eq!(status(&foreign, &format!("http://{foreign}")), 403);
    assert_eq!(
        server.raw(format!("GET / HTTP/1.1\r\nHost: {foreign}\r\n\r\n").as_bytes()),
        403
    );
    // The address it was reached by, and loopback's names for it, are its own.
    assert_eq!(status(&ours, &format!("http://{ours}")), 101);
    let local = format!("localhost:{port}");
    assert_eq!(status(&local, &format!("http://{local}")), 101);
    assert_eq!(server.get("/", ""), 200);
}

/// Reads messages until the `state` that answers a command; returns it and the error message
/// that came before it, if any.
fn answer(ws: &mut WebSocket<TcpStream>) -> (serde_json::Value, Option<String>) {
    let mut error = None;
    loop {
        if let Message::Text(t) = ws.read().expect("an answer") {
            let v: serde_json::Value = serde_json::from_str(t.as_str()).expect("JSON");
            match v["type"].as_str() {
                Some("error") => error = v["message"].as_str().map(str::to_string),
                Some("state") => return (v, error),
                _ => {}
            }
        }
    }
}

/// A line of `/proc/<pid>/status` (`VmRSS`, `Threads`) as a number (kB for memory).
fn proc_status(pid: u32, key: &str) -> usize {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc");
    text.lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("no {key} in /proc/{pid}/status"))
}

/// Eight pages asking for the most a page may ask (1024 MB and 64 threads) once held 8 GB and
/// hundreds of threads. Across games the tables share 1024 MB and the search threads twice the
/// cores (at least 16), every page keeping at least the default 16 MB and one thread.
#[test]
fn eight_pages_share_capped_tables_and_threads() {
    const TOTAL_HASH_MB: u64 = 1024;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let total_threads = (2 * cores).max(16);
    let server = Server::start();
    let mut pages: Vec<_> = (0..8).map(|_| server.websocket()).collect();
    let sums = |states: &[serde_json::Value]| {
        let sum = |k: &str| {
            states
                .iter()
                .map(|s| s["engine"][k].as_u64().unwrap())
                .sum::<u64>()
        };
        (sum("hash_mb"), sum("threads"))
    };
    let mut states = Vec::new();
    for ws in &mut pages {
        ws.send(Message::text(
            r#"{"cmd":"settings","hash_mb":1024,"threads":64}"#,
        ))
        .unwrap();
        let (state, error) = answer(ws);
        assert!(error.is_some(), "the most for one page is over the cap");
        states.push(state);
    }
    let (hash, threads) = sums(&states);
    assert!(hash <= TOTAL_HASH_MB, "{hash} MB of tables");
    assert!(threads <= total_threads, "{threads} threads");
    // Within what is left, each page gets what it asks for, until the caps.
    let mut granted = 0;
    for (i, ws) in pages.iter_mut().enumerate() {
        ws.send(Message::text(
            r#"{"cmd":"settings","hash_mb":200,"threads":3}"#,
        ))
        .unwrap();
        let (state, error) = answer(ws);
        if error.is_none() {
            granted += 1;
            assert_eq!(state["engine"]["hash_mb"], 200);
        }
        states[i] = state;
    }
    let (hash, threads) = sums(&states);
    assert!((1..8).contains(&granted), "{granted} pages got 200 MB");
    assert!(hash <= TOTAL_HASH_MB, "{hash} MB of tables");
    assert!(threads <= total_threads, "{threads} threads");
    // Every page's engine plays a move, so every table and thread pool exists.
    for ws in &mut pages {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut state = command(ws, r#"{"cmd":"settings","white":"engine","depth":2}"#);
        while state["moves"].as_array().unwrap().is_empty() {
            assert!(Instant::now() < deadline, "the engine did not move");
            state = answer(ws).0;
        }
    }
    let pid = server.child.id();
    let rss_mb = proc_status(pid, "VmRSS") as u64 / 1024;
    let held = proc_status(pid, "Threads") as u64;
    eprintln!("8 games: {hash} MB of tables, {threads} search threads; process {rss_mb} MB, {held} threads");
    assert!(rss_mb <= hash + 256, "the process holds {rss_mb} MB");
    // Beside the search threads: per game its own thread and a search thread, and the server's.
    assert!(
        held <= threads + 2 * 8 + 4,
        "the process holds {held} threads"
    );
}

/// A table is allocated on the game's own thread, so the page's socket still answers (here a
/// ping) while it is made.
#[test]
fn the_socket_answers_while_a_table_is_allocated() {
    let server = Server::start();
    let mut ws = server.websocket();
    // The engine is to move with a new 768 MB table: the search allocates it first.
    ws.send(Message::text(
        r#"{"cmd":"settings","white":"engine","black":"human","hash_mb":768,"depth":1}"#,
    ))
    .unwrap();
    ws.send(Message::Ping(b"still there?".to_vec().into()))
        .unwrap();
    let first = loop {
        match ws.read().expect("an answer") {
            Message::Pong(p) => break format!("pong {}", String::from_utf8_lossy(&p)),
            Message::Text(t) => {
                let v: serde_json::Value = serde_json::from_str(t.as_str()).unwrap();
                if v["type"] == "state" {
                    break "state".to_string();
                }
            }
            _ => {}
        }
    };
    assert_eq!(first, "pong still there?", "the ping waited for the table");
    let (state, error) = answer(&mut ws);
    assert_eq!(error, None);
    assert_eq!(state["engine"]["hash_mb"], 768);
}

/// Two Content-Length headers (differing, the start of request smuggling, or equal) get 400,
/// and a head with bare LF line ends gets an answer.
#[test]
fn framing_faults_are_answered() {
    let server = Server::start();
    let host = &server.host;
    for (a, b) in [("0", "7"), ("7", "0"), ("0", "0"), ("7", "7")] {
        let req = format!(
            "GET / HTTP/1.1\r\nHost: {host}\r\nContent-Length: {a}\r\nContent-Length: {b}\r\n\r\nabcdefg"
        );
        assert_eq!(
            server.raw(req.as_bytes()),
            400,
            "Content-Length {a} and {b}"
        );
    }
    let started = Instant::now();
    let bare = format!("GET / HTTP/1.1\nHost: {host}\n\n");
    assert_eq!(server.raw(bare.as_bytes()), 200, "bare LF");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(server.get("/", ""), 200);
}

/// Sockets that say nothing are closed after `--idle-timeout`: a WebSocket that answers no
/// ping gives its game slot back, and a request head never finished is dropped. A page that
/// answers pings stays, however long its player thinks.
#[test]
fn idle_sockets_time_out() {
    let server = Server::start_with(&["--idle-timeout", "2"]);
    let started = Instant::now();
    let mut live = server.websocket();
    // Seven more pages fill the eight game slots and never read, so never answer a ping.
    let silent: Vec<_> = (0..7).map(|_| server.websocket()).collect();
    let ninth = || server.raw(upgrade(&server.host, &format!("http://{}", server.host)).as_bytes());
    assert_eq!(ninth(), 429, "every game slot is taken");
    let mut unfinished = TcpStream::connect(&server.host).unwrap();
    unfinished.write_all(b"GET / HTTP/1.1\r\nHost: ").unwrap();
    // The live page reads (so answers the server's pings) for longer than the timeout.
    live.get_ref()
        .set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    while started.elapsed() < Duration::from_secs(5) {
        match live.read() {
            Ok(_) => {}
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(e) => panic!("the live page was closed: {e}"),
        }
    }
    live.get_ref()
        .set_read_timeout(Some(ANSWER_TIMEOUT))
        .unwrap();
    // The silent pages' slots are free again.
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let code = ninth();
        if code == 101 {
            break;
        }
        assert!(Instant::now() < deadline, "a ninth page still gets {code}");
        std::thread::sleep(Duration::from_millis(250));
    }
    // The unfinished head was dropped without an answer.
    unfinished.set_read_timeout(Some(ANSWER_TIMEOUT)).unwrap();
    let mut rest = Vec::new();
    let _ = unfinished.read_to_end(&mut rest);
    assert!(started.elapsed() < Duration::from_secs(30));
    // The live page still plays.
    let state = command(&mut live, r#"{"cmd":"state"}"#);
    assert_eq!(state["type"], "state");
    drop(silent);
}
