//! `menagerie gui`: a board for every game in the browser. A small server on 127.0.0.1 serves
//! the page (HTML, CSS and JavaScript embedded in the binary) and one WebSocket per page, over
//! which a [`session::Session`] plays the game with the engine. It answers only requests whose
//! Host and Origin are its own, serves only its own assets, and gives a bad request a 4xx answer
//! without stopping. `docs/gui.md` describes the page; `docs/architecture.md` the choice of
//! the HTTP and WebSocket stack.

pub mod clock;
pub mod http;
pub mod record;
pub mod session;
pub mod view;

use http::{Allowed, Refusal, Request};
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::sync::Arc;
use std::time::Duration;
use tungstenite::protocol::{Role, WebSocketConfig};
use tungstenite::{Message, WebSocket};

/// Most connections served at once; more are answered 429 at once.
const MAX_CONNECTIONS: usize = 64;
/// Most pages playing at once (each has its own engine and transposition table).
const MAX_SESSIONS: usize = 8;
/// Largest WebSocket message or frame a page may send.
const MAX_MESSAGE_BYTES: usize = 64 * 1024;
/// How often a WebSocket connection looks at its search events and clocks.
const POLL: Duration = Duration::from_millis(40);
/// A client that does not take what we write within this time is dropped.
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// The path of the WebSocket.
const WS_PATH: &str = "/ws";

/// The page's files: path, content type, body.
const ASSETS: &[(&str, &str, &str)] = &[
    (
        "/",
        "text/html; charset=utf-8",
        include_str!("assets/index.html"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/app.js"),
    ),
    (
        "/moves.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/moves.js"),
    ),
    (
        "/pieces.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/pieces.js"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("assets/style.css"),
    ),
    (
        "/favicon.svg",
        "image/svg+xml",
        include_str!("assets/favicon.svg"),
    ),
];

/// How `menagerie gui` runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// The address to listen on: 127.0.0.1 unless the user names another.
    pub address: IpAddr,
    /// The port; 0 lets the system choose.
    pub port: u16,
    /// Whether to open the system's browser.
    pub open: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            address: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 0,
            open: true,
        }
    }
}

/// Starts the server, prints the URL, opens the browser and serves until the process ends.
pub fn run(opts: &Options) -> Result<(), String> {
    let listener = TcpListener::bind(SocketAddr::new(opts.address, opts.port))
        .map_err(|e| format!("cannot listen on {}:{}: {e}", opts.address, opts.port))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let allowed = Allowed::new(addr);
    let url = allowed.url();
    println!("Menagerie gui: open {url}");
    use std::io::Write;
    let _ = std::io::stdout().flush();
    if opts.open {
        open_browser(&url);
    }
    serve(listener, allowed);
    Ok(())
}

/// Asks the system to open `url`; a failure only means the user opens it by hand.
fn open_browser(url: &str) {
    let program = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    let spawned = std::process::Command::new(program)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if spawned.is_err() {
        eprintln!("could not start {program}; open the URL above by hand");
    }
}

/// Counts live connections or sessions; a slot is given back when its guard drops.
struct Slots {
    used: AtomicUsize,
    max: usize,
}

struct Slot(Arc<Slots>);

impl Slots {
    fn new(max: usize) -> Arc<Slots> {
        Arc::new(Slots {
            used: AtomicUsize::new(0),
            max,
        })
    }

    fn take(self: &Arc<Slots>) -> Option<Slot> {
        let prev = self.used.fetch_add(1, Ordering::SeqCst);
        if prev >= self.max {
            self.used.fetch_sub(1, Ordering::SeqCst);
            return None;
        }
        Some(Slot(Arc::clone(self)))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.used.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Accepts connections forever, each on a thread of its own.
pub fn serve(listener: TcpListener, allowed: Allowed) {
    let connections = Slots::new(MAX_CONNECTIONS);
    let sessions = Slots::new(MAX_SESSIONS);
    let allowed = Arc::new(allowed);
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else {
            // Out of file descriptors or a connection reset while queued: keep accepting.
            std::thread::sleep(Duration::from_millis(10));
            continue;
        };
        let Some(slot) = connections.take() else {
            let _ = stream.set_write_timeout(Some(Duration::from_millis(200)));
            let _ = http::refuse(&mut stream, Refusal::Busy);
            continue;
        };
        let (allowed, sessions) = (Arc::clone(&allowed), Arc::clone(&sessions));
        let spawned = std::thread::Builder::new()
            .name("gui-connection".into())
            .spawn(move || {
                let _slot = slot;
                let _ = connection(stream, &allowed, &sessions);
            });
        if spawned.is_err() {
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// Serves one connection: one request, or one WebSocket.
fn connection(mut stream: TcpStream, allowed: &Allowed, sessions: &Arc<Slots>) -> io::Result<()> {
    stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
    let req = match http::read_request(&mut stream)? {
        Ok(Some(req)) => req,
        Ok(None) => return Ok(()),
        Err(why) => {
            http::refuse(&mut stream, why)?;
            http::finish(&mut stream);
            return Ok(());
        }
    };
    match route(&req, allowed) {
        Route::Asset(content_type, body) => {
            http::respond(
                &mut stream,
                (200, "OK"),
                content_type,
                body.as_bytes(),
                req.method == "HEAD",
            )?;
            http::finish(&mut stream);
            Ok(())
        }
        Route::Refuse(why) => {
            http::refuse(&mut stream, why)?;
            http::finish(&mut stream);
            Ok(())
        }
        Route::WebSocket(key) => {
            let Some(slot) = sessions.take() else {
                return http::refuse(&mut stream, Refusal::Busy);
            };
            http::switch_protocols(&mut stream, &key)?;
            let _slot = slot;
            websocket(stream, req.rest)
        }
    }
}

/// What a request gets.
enum Route {
    Asset(&'static str, &'static str),
    WebSocket(String),
    Refuse(Refusal),
}

fn route(req: &Request, allowed: &Allowed) -> Route {
    if !allowed.admits(req) {
        return Route::Refuse(Refusal::Forbidden);
    }
    if req.method != "GET" && req.method != "HEAD" {
        return Route::Refuse(Refusal::MethodNotAllowed);
    }
    let has_body = req
        .header("content-length")
        .is_some_and(|l| l.trim() != "0")
        || req.header("transfer-encoding").is_some();
    if has_body {
        return Route::Refuse(Refusal::PayloadTooLarge);
    }
    if req.path == WS_PATH {
        return match http::websocket_key(req) {
            Some(key) => Route::WebSocket(key.to_string()),
            None => Route::Refuse(Refusal::UpgradeRequired),
        };
    }
    match ASSETS.iter().find(|(p, _, _)| *p == req.path) {
        Some(&(_, content_type, body)) => Route::Asset(content_type, body),
        None => Route::Refuse(Refusal::NotFound),
    }
}

/// Plays one page's game over its WebSocket until the page goes away.
fn websocket(stream: TcpStream, rest: Vec<u8>) -> io::Result<()> {
    stream.set_read_timeout(Some(POLL))?;
    let config = WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE_BYTES))
        .max_frame_size(Some(MAX_MESSAGE_BYTES));
    let mut ws = WebSocket::from_partially_read(stream, rest, Role::Server, Some(config));
    let (tx, rx) = channel();
    let mut session = session::Session::new(tx);
    loop {
        let mut out = Vec::new();
        match ws.read() {
            Ok(Message::Text(text)) => out.extend(session.handle(text.as_str())),
            Ok(Message::Binary(_)) => {
                out.push(serde_json::json!({"type": "error", "message": "binary messages are not understood"}));
            }
            Ok(Message::Close(_)) => break,
            Ok(_) => {}
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) => {}
            // A protocol error, an oversized message or a closed connection ends the page's game.
            Err(_) => break,
        }
        while let Ok(event) = rx.try_recv() {
            out.extend(session.on_event(event));
        }
        out.extend(session.tick());
        for msg in out {
            if ws.write(Message::text(msg.to_string())).is_err() {
                return Ok(());
            }
        }
        match ws.flush() {
            Ok(()) => {}
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) => {}
            Err(_) => break,
        }
    }
    let _ = ws.close(None);
    let _ = ws.flush();
    Ok(())
}
