//! The HTTP side of `menagerie gui`: reading one request head within limits, the Host and Origin
//! checks, and plain responses. Every connection serves one request and is closed, so a request
//! body is never read: one that announces a body is refused.

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// Largest request head (request line and headers) read.
pub const MAX_HEAD_BYTES: usize = 8 * 1024;
/// Most headers in one request.
const MAX_HEADERS: usize = 48;
/// Time a client has to send its whole request head.
pub const HEAD_DEADLINE: Duration = Duration::from_secs(10);

/// A parsed request head, with the bytes that followed it (the first WebSocket frames, if a
/// client sent them at once).
#[derive(Debug)]
pub struct Request {
    /// `GET`, `HEAD`...
    pub method: String,
    /// The path, without the query.
    pub path: String,
    /// Headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// Bytes read past the head.
    pub rest: Vec<u8>,
}

impl Request {
    /// The value of a header (name in lower case); `None` if absent.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// How many times a header occurs.
    pub fn header_count(&self, name: &str) -> usize {
        self.headers.iter().filter(|(n, _)| n == name).count()
    }
}

/// Why a request is answered with an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// 400: not HTTP, or malformed.
    BadRequest,
    /// 403: a foreign Host or Origin.
    Forbidden,
    /// 404: no such asset.
    NotFound,
    /// 405: a method other than GET or HEAD.
    MethodNotAllowed,
    /// 413: a request with a body.
    PayloadTooLarge,
    /// 426: a WebSocket path without a valid upgrade.
    UpgradeRequired,
    /// 431: a head over the limit.
    HeadersTooLarge,
    /// 429: too many connections at once.
    Busy,
}

impl Refusal {
    /// Status code and reason phrase.
    pub fn status(self) -> (u16, &'static str) {
        match self {
            Refusal::BadRequest => (400, "Bad Request"),
            Refusal::Forbidden => (403, "Forbidden"),
            Refusal::NotFound => (404, "Not Found"),
            Refusal::MethodNotAllowed => (405, "Method Not Allowed"),
            Refusal::PayloadTooLarge => (413, "Payload Too Large"),
            Refusal::UpgradeRequired => (426, "Upgrade Required"),
            Refusal::HeadersTooLarge => (431, "Request Header Fields Too Large"),
            Refusal::Busy => (429, "Too Many Requests"),
        }
    }
}

/// Reads one request head from `stream`, within [`MAX_HEAD_BYTES`] and [`HEAD_DEADLINE`].
/// `Ok(None)`: the client closed or timed out before sending anything worth an answer.
pub fn read_request(stream: &mut TcpStream) -> io::Result<Result<Option<Request>, Refusal>> {
    let started = Instant::now();
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 2048];
    loop {
        if let Some(end) = find_head_end(&buf) {
            return Ok(parse_head(&buf[..end], buf[end..].to_vec()).map(Some));
        }
        if buf.len() >= MAX_HEAD_BYTES {
            return Ok(Err(Refusal::HeadersTooLarge));
        }
        let left = HEAD_DEADLINE.saturating_sub(started.elapsed());
        if left.is_zero() {
            return Ok(Ok(None));
        }
        stream.set_read_timeout(Some(left))?;
        let room = (MAX_HEAD_BYTES + 4 - buf.len()).min(chunk.len());
        match stream.read(&mut chunk[..room]) {
            Ok(0) => return Ok(Ok(None)),
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                return Ok(Ok(None))
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// The index just past the blank line that ends a head.
fn find_head_end(buf: &[u8]) -> Option<usize> {
    buf.windows(4).position(|w| w == b"\r\n\r\n").map(|i| i + 4)
}

/// Parses a complete head.
fn parse_head(head: &[u8], rest: Vec<u8>) -> Result<Request, Refusal> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut req = httparse::Request::new(&mut headers);
    match req.parse(head) {
        Ok(httparse::Status::Complete(_)) => {}
        Err(httparse::Error::TooManyHeaders) => return Err(Refusal::HeadersTooLarge),
        _ => return Err(Refusal::BadRequest),
    }
    let method = req.method.ok_or(Refusal::BadRequest)?.to_string();
    let target = req.path.ok_or(Refusal::BadRequest)?;
    if req.version != Some(1) {
        // HTTP/1.0 has no Host header to check.
        return Err(Refusal::BadRequest);
    }
    let path = target.split(['?', '#']).next().unwrap_or("").to_string();
    let mut list = Vec::with_capacity(req.headers.len());
    for h in req.headers.iter() {
        let value = std::str::from_utf8(h.value).map_err(|_| Refusal::BadRequest)?;
        list.push((h.name.to_ascii_lowercase(), value.trim().to_string()));
    }
    Ok(Request {
        method,
        path,
        headers: list,
        rest,
    })
}

/// The hosts (`name:port`) a request may name, and the origins (`http://name:port`) it may come
/// from: the address the server listens on, and the loopback names when it listens on loopback.
#[derive(Clone, Debug)]
pub struct Allowed {
    hosts: Vec<String>,
    /// Listening on every address (`0.0.0.0`, `::`): any IP address with our port is ours. A
    /// DNS name is not, so DNS rebinding is still refused.
    any_ip: Option<u16>,
}

impl Allowed {
    /// What a server on `addr` accepts (the loopback names too when it listens on loopback or
    /// on every address).
    pub fn new(addr: std::net::SocketAddr) -> Allowed {
        let port = addr.port();
        let ip = addr.ip();
        let mut hosts = vec![match ip {
            std::net::IpAddr::V4(v4) => format!("{v4}:{port}"),
            std::net::IpAddr::V6(v6) => format!("[{v6}]:{port}"),
        }];
        if ip.is_loopback() || ip.is_unspecified() {
            hosts.push(format!("localhost:{port}"));
            hosts.push(format!("127.0.0.1:{port}"));
            hosts.push(format!("[::1]:{port}"));
        }
        hosts.dedup();
        let any_ip = ip.is_unspecified().then_some(port);
        Allowed { hosts, any_ip }
    }

    /// Whether `host` (`name:port`) names this server.
    fn ours(&self, host: &str) -> bool {
        self.hosts.iter().any(|a| a.eq_ignore_ascii_case(host))
            || self.any_ip.is_some_and(|port| {
                host.parse::<std::net::SocketAddr>()
                    .is_ok_and(|a| a.port() == port)
            })
    }

    /// The URL to open.
    pub fn url(&self) -> String {
        format!("http://{}/", self.hosts[0])
    }

    /// Whether the request's Host is ours and its Origin, if any, too. DNS rebinding sends a
    /// foreign Host; another web page's script sends a foreign Origin.
    pub fn admits(&self, req: &Request) -> bool {
        if req.header_count("host") != 1 || req.header_count("origin") > 1 {
            return false;
        }
        let host_ok = req.header("host").is_some_and(|h| self.ours(h));
        let origin_ok = req
            .header("origin")
            .is_none_or(|o| o.strip_prefix("http://").is_some_and(|h| self.ours(h)));
        host_ok && origin_ok
    }
}

/// Headers sent with every answer: nothing is cached, framed, sniffed or loaded from elsewhere.
const COMMON_HEADERS: &str = "Cache-Control: no-store\r\n\
X-Content-Type-Options: nosniff\r\n\
X-Frame-Options: DENY\r\n\
Referrer-Policy: no-referrer\r\n\
Content-Security-Policy: default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'\r\n\
Connection: close\r\n";

/// Writes a complete response; `head_only` leaves the body out (HEAD).
pub fn respond(
    stream: &mut TcpStream,
    status: (u16, &str),
    content_type: &str,
    body: &[u8],
    head_only: bool,
) -> io::Result<()> {
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n{COMMON_HEADERS}\r\n",
        status.0,
        status.1,
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    if !head_only {
        stream.write_all(body)?;
    }
    stream.flush()
}

/// Answers a refused request with its status and a one-line text.
pub fn refuse(stream: &mut TcpStream, why: Refusal) -> io::Result<()> {
    let status = why.status();
    let body = format!("{} {}\n", status.0, status.1);
    respond(
        stream,
        status,
        "text/plain; charset=utf-8",
        body.as_bytes(),
        false,
    )
}

/// Most bytes read and dropped after an answer, so that closing does not reset the connection
/// before the client has read the answer (it may still be sending a body we refused).
const DRAIN_BYTES: u64 = 1 << 20;
/// How long the dropping may take.
const DRAIN_TIME: Duration = Duration::from_millis(500);

/// Ends a connection whose answer was written: no more writes, then what the client still
/// sends is read and dropped for a short while.
pub fn finish(stream: &mut TcpStream) {
    let _ = stream.flush();
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let _ = stream.set_read_timeout(Some(DRAIN_TIME));
    let started = Instant::now();
    let mut sink = [0u8; 4096];
    let mut left = DRAIN_BYTES;
    while left > 0 && started.elapsed() < DRAIN_TIME {
        match stream.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(n) => left = left.saturating_sub(n as u64),
        }
    }
}

/// The 101 answer that switches a connection to WebSocket.
pub fn switch_protocols(stream: &mut TcpStream, key: &str) -> io::Result<()> {
    let accept = tungstenite::handshake::derive_accept_key(key.as_bytes());
    let head = format!(
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: {accept}\r\n\r\n"
    );
    stream.write_all(head.as_bytes())?;
    stream.flush()
}

/// Whether the request asks for a WebSocket (RFC 6455 section 4.2.1), and its key if so.
pub fn websocket_key(req: &Request) -> Option<&str> {
    let has_token = |name: &str, token: &str| {
        req.header(name)
            .is_some_and(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case(token)))
    };
    let key = req.header("sec-websocket-key")?;
    let valid_key = key.len() == 24 && key.is_ascii();
    (req.method == "GET"
        && has_token("upgrade", "websocket")
        && has_token("connection", "upgrade")
        && req.header("sec-websocket-version") == Some("13")
        && valid_key)
        .then_some(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(head: &str) -> Result<Request, Refusal> {
        parse_head(head.as_bytes(), Vec::new())
    }

    #[test]
    fn parses_a_head_and_strips_the_query() {
        let r = req("GET /app.js?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8000\r\n\r\n").unwrap();
        assert_eq!((r.method.as_str(), r.path.as_str()), ("GET", "/app.js"));
        assert_eq!(r.header("host"), Some("127.0.0.1:8000"));
        assert_eq!(req("not http\r\n\r\n").unwrap_err(), Refusal::BadRequest);
        assert_eq!(
            req("GET / HTTP/1.0\r\n\r\n").unwrap_err(),
            Refusal::BadRequest
        );
    }

    #[test]
    fn admits_only_its_own_host_and_origin() {
        let allowed = Allowed::new("127.0.0.1:8000".parse().unwrap());
        let with = |extra: &str| req(&format!("GET / HTTP/1.1\r\n{extra}\r\n")).unwrap();
        assert!(allowed.admits(&with("Host: 127.0.0.1:8000\r\n")));
        assert!(allowed.admits(&with("Host: localhost:8000\r\n")));
        assert!(allowed.admits(&with(
            "Host: localhost:8000\r\nOrigin: http://127.0.0.1:8000\r\n"
        )));
        assert!(!allowed.admits(&with("Host: evil.example:8000\r\n")));
        assert!(!allowed.admits(&with("Host: 127.0.0.1:9000\r\n")));
        assert!(!allowed.admits(&with(
            "Host: 127.0.0.1:8000\r\nOrigin: http://evil.example\r\n"
        )));
        assert!(!allowed.admits(&with(
            "Host: 127.0.0.1:8000\r\nOrigin: https://127.0.0.1:8000\r\n"
        )));
        assert!(!allowed.admits(&with("")));
        assert!(!allowed.admits(&with("Host: 127.0.0.1:8000\r\nHost: evil.example\r\n")));
    }

    #[test]
    fn on_every_address_any_ip_with_our_port_is_ours_but_no_name() {
        let allowed = Allowed::new("0.0.0.0:8000".parse().unwrap());
        let with = |extra: &str| req(&format!("GET / HTTP/1.1\r\n{extra}\r\n")).unwrap();
        assert!(allowed.admits(&with("Host: 192.168.1.20:8000\r\n")));
        assert!(!allowed.admits(&with("Host: 192.168.1.20:9000\r\n")));
        assert!(!allowed.admits(&with("Host: attacker.example:8000\r\n")));
        assert!(allowed.admits(&with("Host: localhost:8000\r\n")));
    }

    #[test]
    fn a_websocket_upgrade_needs_every_header() {
        let full = "GET /ws HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: keep-alive, Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n";
        assert_eq!(
            websocket_key(&req(full).unwrap()),
            Some("dGhlIHNhbXBsZSBub25jZQ==")
        );
        let old = full.replace("Version: 13", "Version: 8");
        assert_eq!(websocket_key(&req(&old).unwrap()), None);
        let plain = full.replace("Upgrade: websocket\r\n", "");
        assert_eq!(websocket_key(&req(&plain).unwrap()), None);
    }
}
