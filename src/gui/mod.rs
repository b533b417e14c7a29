//! `menagerie gui`: a board for every game in the browser. A small server on 127.0.0.1 serves
//! the page (HTML, CSS and JavaScript embedded in the binary) and one WebSocket per page, over
//! which a [`session::Session`] plays the game with the engine on a thread of its own. hyper
//! reads the requests and axum upgrades the WebSocket; the server answers only requests whose
//! Host and Origin are the address they reached, serves only its own assets, gives a bad
//! request a 4xx answer without stopping, caps connections, games and what the games' engines
//! hold together ([`budget`]), and drops sockets that stay silent. `docs/gui.md` describes the
//! page; `docs/architecture.md` the choice of the HTTP and WebSocket stack.

pub mod budget;
pub mod clock;
pub mod http;
pub mod record;
pub mod session;
pub mod tree;
pub mod view;

use axum::body::Body;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::FromRequestParts;
use axum::http::{header, HeaderValue, Request, Response, StatusCode};
use budget::{Budget, Hold};
use http::{Allowed, Refusal};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::convert::Infallible;
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::mpsc::{self as std_mpsc, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, OwnedSemaphorePermit, Semaphore};

/// Most connections served at once; more are answered 429 at once.
const MAX_CONNECTIONS: usize = 64;
/// Most pages playing at once (each has its own engine and transposition table).
const MAX_GAMES: usize = 8;
/// The transposition tables of all games together, in MiB.
const TOTAL_HASH_MB: usize = 1024;
/// Largest WebSocket message or frame a page may send.
const MAX_MESSAGE_BYTES: usize = 64 * 1024;
/// Largest request head (hyper's smallest read buffer).
const MAX_HEAD_BYTES: usize = 8 * 1024;
/// Most headers in one request.
const MAX_HEADERS: usize = 48;
/// Time a client has to send its whole request head (or the idle timeout, if shorter).
const HEAD_DEADLINE: Duration = Duration::from_secs(10);
/// Time a request may take from its first byte to the end of the answer.
const REQUEST_DEADLINE: Duration = Duration::from_secs(30);
/// How often a game looks at its search events and clocks.
const POLL: Duration = Duration::from_millis(40);
/// A client that does not take what we write within this time is dropped.
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// Messages a game may have waiting for its socket.
const OUTBOX: usize = 256;
/// The path of the WebSocket.
const WS_PATH: &str = "/ws";

/// The search threads of all games together: twice the cores, at least 16.
pub fn total_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (2 * cores).max(16)
}

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
        "/record.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/record.js"),
    ),
    (
        "/analysis.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/analysis.js"),
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
    /// A WebSocket that sends nothing (not even the answer to a ping) for this long is closed,
    /// and a request head must come within it (and within 10 s).
    pub idle_timeout: Duration,
}

/// The idle timeout unless the user names another.
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(60);

impl Default for Options {
    fn default() -> Self {
        Options {
            address: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 0,
            open: true,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
        }
    }
}

/// Starts the server, prints the URL, opens the browser and serves until the process ends.
pub fn run(opts: &Options) -> Result<(), String> {
    let listener = std::net::TcpListener::bind(SocketAddr::new(opts.address, opts.port))
        .map_err(|e| format!("cannot listen on {}:{}: {e}", opts.address, opts.port))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let url = Allowed::new(addr).url();
    println!("Menagerie gui: open {url}");
    use std::io::Write;
    let _ = std::io::stdout().flush();
    if opts.open {
        open_browser(&url);
    }
    serve(listener, opts.idle_timeout).map_err(|e| e.to_string())
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

/// What every connection shares.
struct Server {
    connections: Arc<Semaphore>,
    budget: Arc<Budget>,
    idle: Duration,
}

/// Serves `listener` until the process ends: hyper reads each connection's one request on a
/// single-threaded runtime; each game plays on a thread of its own.
pub fn serve(listener: std::net::TcpListener, idle: Duration) -> io::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let server = Arc::new(Server {
        connections: Arc::new(Semaphore::new(MAX_CONNECTIONS)),
        budget: Budget::new(TOTAL_HASH_MB, total_threads(), MAX_GAMES),
        idle: idle.max(Duration::from_millis(100)),
    });
    runtime.block_on(async move {
        listener.set_nonblocking(true)?;
        let listener = tokio::net::TcpListener::from_std(listener)?;
        loop {
            let stream = match listener.accept().await {
                Ok((stream, _)) => stream,
                Err(_) => {
                    // Out of file descriptors or a connection reset while queued: keep accepting.
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                }
            };
            let Ok(permit) = Arc::clone(&server.connections).try_acquire_owned() else {
                let _ = stream.try_write(BUSY);
                continue;
            };
            // A game's answers are several messages written one by one: no Nagle delay.
            let _ = stream.set_nodelay(true);
            tokio::spawn(connection(stream, permit, Arc::clone(&server)));
        }
    })
}

/// The answer to a connection over the cap, written without reading its request.
const BUSY: &[u8] = b"HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 22\r\nConnection: close\r\n\r\n429 Too Many Requests\n";

/// Serves one connection: one request (every answer closes the connection), which may become
/// a WebSocket that then lives on its own.
async fn connection(
    stream: tokio::net::TcpStream,
    _permit: OwnedSemaphorePermit,
    server: Arc<Server>,
) {
    let Ok(local) = stream.local_addr() else {
        return;
    };
    let allowed = Arc::new(Allowed::new(local));
    let head_deadline = HEAD_DEADLINE.min(server.idle);
    let service = hyper::service::service_fn(move |req: Request<Incoming>| {
        let (allowed, server) = (Arc::clone(&allowed), Arc::clone(&server));
        async move { Ok::<_, Infallible>(with_common_headers(route(req, &allowed, server).await)) }
    });
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(head_deadline)
        .half_close(true)
        .max_buf_size(MAX_HEAD_BYTES)
        .max_headers(MAX_HEADERS);
    let conn = http
        .serve_connection(TokioIo::new(stream), service)
        .with_upgrades();
    // A client that is slow to send its head, or to take the answer, is dropped.
    let _ = tokio::time::timeout(REQUEST_DEADLINE, conn).await;
}

/// A plain answer.
fn answer(status: StatusCode, content_type: &'static str, body: Body) -> Response<Body> {
    let mut res = Response::new(body);
    *res.status_mut() = status;
    res.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    res
}

/// A refused request's answer: its status and a one-line text.
fn refuse(why: Refusal) -> Response<Body> {
    let status = why.status();
    let text = format!(
        "{} {}\n",
        status.as_u16(),
        status.canonical_reason().unwrap_or("")
    );
    answer(status, "text/plain; charset=utf-8", Body::from(text))
}

/// Adds the headers every answer carries, and closes every connection that is not upgraded
/// (hyper then ends it after the answer; its own keep-alive setting would also mark a 101
/// answer `close`).
fn with_common_headers(mut res: Response<Body>) -> Response<Body> {
    let upgraded = res.status() == StatusCode::SWITCHING_PROTOCOLS;
    let headers = res.headers_mut();
    for (name, value) in http::COMMON_HEADERS {
        headers.insert(name, HeaderValue::from_static(value));
    }
    if !upgraded {
        headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    res
}

/// What a request gets.
async fn route(req: Request<Incoming>, allowed: &Allowed, server: Arc<Server>) -> Response<Body> {
    if let Err(why) = http::check(req.method(), req.version(), req.headers(), allowed) {
        return refuse(why);
    }
    let path = req.uri().path();
    if path == WS_PATH {
        let (mut parts, _) = req.into_parts();
        let Ok(upgrade) = WebSocketUpgrade::from_request_parts(&mut parts, &()).await else {
            return refuse(Refusal::UpgradeRequired);
        };
        let Some(hold) = server.budget.join() else {
            return refuse(Refusal::Busy);
        };
        let idle = server.idle;
        return upgrade
            .max_message_size(MAX_MESSAGE_BYTES)
            .max_frame_size(MAX_MESSAGE_BYTES)
            .on_upgrade(move |socket| websocket(socket, hold, idle));
    }
    match ASSETS.iter().find(|(p, _, _)| *p == path) {
        Some(&(_, content_type, text)) => {
            let body = if req.method() == axum::http::Method::HEAD {
                Body::empty()
            } else {
                Body::from(text)
            };
            let mut res = answer(StatusCode::OK, content_type, body);
            res.headers_mut()
                .insert(header::CONTENT_LENGTH, HeaderValue::from(text.len()));
            res
        }
        None => refuse(Refusal::NotFound),
    }
}

/// Carries one page's game between its WebSocket and the game's thread: commands in, the
/// game's messages out, a ping every quarter of the idle timeout, and the socket closed when
/// the page has sent nothing (not even a pong) for the idle timeout.
async fn websocket(mut socket: WebSocket, hold: Hold, idle: Duration) {
    let (commands, inbox) = std_mpsc::channel::<String>();
    let (outbox, mut out) = mpsc::channel::<String>(OUTBOX);
    let spawned = std::thread::Builder::new()
        .name("gui-game".into())
        .spawn(move || play(inbox, outbox, hold));
    if spawned.is_err() {
        let _ = send(&mut socket, Message::Close(None)).await;
        return;
    }
    let mut pings = tokio::time::interval(idle / 4);
    pings.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut heard = Instant::now();
    loop {
        tokio::select! {
            msg = socket.recv() => {
                heard = Instant::now();
                match msg {
                    Some(Ok(Message::Text(text))) => {
                        if commands.send(text.as_str().to_owned()).is_err() {
                            break;
                        }
                    }
                    Some(Ok(Message::Binary(_))) => {
                        let error = serde_json::json!({"type": "error", "message": "binary messages are not understood"});
                        if !send(&mut socket, Message::text(error.to_string())).await {
                            break;
                        }
                    }
                    // A protocol error, an oversized message or a closed connection ends the
                    // page's game.
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                    Some(Ok(_)) => {}
                }
            }
            msg = out.recv() => match msg {
                Some(text) => {
                    if !send(&mut socket, Message::text(text)).await {
                        break;
                    }
                }
                None => break,
            },
            _ = pings.tick() => {
                if heard.elapsed() >= idle {
                    let close = CloseFrame { code: 1001, reason: "idle".into() };
                    let _ = send(&mut socket, Message::Close(Some(close))).await;
                    break;
                }
                if !send(&mut socket, Message::Ping(Default::default())).await {
                    break;
                }
            }
        }
    }
    // The game's thread sees its inbox closed (or its outbox gone) and ends its game.
}

/// Writes a message within [`WRITE_TIMEOUT`]; false when the socket is done for.
async fn send(socket: &mut WebSocket, msg: Message) -> bool {
    matches!(
        tokio::time::timeout(WRITE_TIMEOUT, socket.send(msg)).await,
        Ok(Ok(()))
    )
}

/// One page's game on its own thread: the session's engine, its tables and its searches live
/// here, so a table is allocated and a search stopped without holding up the socket.
fn play(inbox: std_mpsc::Receiver<String>, outbox: mpsc::Sender<String>, mut hold: Hold) {
    let (events, searches) = std_mpsc::channel();
    let mut session = session::Session::new(events);
    loop {
        let mut out = Vec::new();
        match inbox.recv_timeout(POLL) {
            Ok(text) => out.extend(hold.handle(&mut session, &text)),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break,
        }
        while let Ok(event) = searches.try_recv() {
            out.extend(session.on_event(event));
        }
        out.extend(session.tick());
        for msg in out {
            if outbox.blocking_send(msg.to_string()).is_err() {
                return;
            }
        }
    }
    // The session (its search stopped, its table freed) goes before the hold on the budget.
    drop(session);
    drop(hold);
}
