//! What `menagerie gui` checks on each request, once hyper has read and framed it: whose it is
//! (Host and Origin against the address the connection reached), what it may ask (GET or HEAD
//! over HTTP/1.1, without a body), and the headers every answer carries.

use axum::http::{header, HeaderMap, Method, StatusCode, Version};
use std::net::{IpAddr, SocketAddr};

/// Why a request is answered with an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// 400: not HTTP/1.1, or a body (a Content-Length or Transfer-Encoding) on GET or HEAD.
    BadRequest,
    /// 403: a foreign Host or Origin.
    Forbidden,
    /// 404: no such asset.
    NotFound,
    /// 405: a method other than GET or HEAD.
    MethodNotAllowed,
    /// 426: a WebSocket path without a valid upgrade.
    UpgradeRequired,
    /// 429: too many connections or games at once.
    Busy,
}

impl Refusal {
    /// The status code.
    pub fn status(self) -> StatusCode {
        match self {
            Refusal::BadRequest => StatusCode::BAD_REQUEST,
            Refusal::Forbidden => StatusCode::FORBIDDEN,
            Refusal::NotFound => StatusCode::NOT_FOUND,
            Refusal::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Refusal::UpgradeRequired => StatusCode::UPGRADE_REQUIRED,
            Refusal::Busy => StatusCode::TOO_MANY_REQUESTS,
        }
    }
}

/// The hosts (`name:port`) a request may name and the origins (`http://name:port`) it may come
/// from: those of one address, plus the loopback names when that address is loopback.
#[derive(Clone, Debug)]
pub struct Allowed {
    hosts: Vec<String>,
}

impl Allowed {
    /// What a connection that reached the server at `addr` may name. For a server listening on
    /// every address (`0.0.0.0`, `::`) this is the address the connection reached, so a page of
    /// another address with the same port is foreign; no DNS name but `localhost` is ever
    /// accepted, so DNS rebinding is refused.
    pub fn new(addr: SocketAddr) -> Allowed {
        let port = addr.port();
        let ip = addr.ip().to_canonical();
        let mut hosts = vec![match ip {
            IpAddr::V4(v4) => format!("{v4}:{port}"),
            IpAddr::V6(v6) => format!("[{v6}]:{port}"),
        }];
        if ip.is_loopback() {
            for name in ["localhost", "127.0.0.1", "[::1]"] {
                let host = format!("{name}:{port}");
                if !hosts.contains(&host) {
                    hosts.push(host);
                }
            }
        }
        Allowed { hosts }
    }

    /// Whether `host` (`name:port`) names this server.
    fn ours(&self, host: &str) -> bool {
        self.hosts.iter().any(|a| a.eq_ignore_ascii_case(host))
    }

    /// The URL to open.
    pub fn url(&self) -> String {
        format!("http://{}/", self.hosts[0])
    }

    /// Whether the request has one Host and it is ours, and at most one Origin and, if so, it
    /// is ours. DNS rebinding sends a foreign Host; another web page's script a foreign Origin.
    pub fn admits(&self, headers: &HeaderMap) -> bool {
        let one = |name| {
            let mut all = headers.get_all(name).iter();
            match (all.next(), all.next()) {
                (Some(v), None) => Some(v.to_str().ok().map(str::trim)),
                _ => None,
            }
        };
        let host_ok = one(header::HOST).is_some_and(|h| h.is_some_and(|h| self.ours(h)));
        let origin_ok = match headers.get_all(header::ORIGIN).iter().count() {
            0 => true,
            1 => one(header::ORIGIN).is_some_and(|o| {
                o.and_then(|o| o.strip_prefix("http://"))
                    .is_some_and(|h| self.ours(h))
            }),
            _ => false,
        };
        host_ok && origin_ok
    }
}

/// Checks a request head before it is routed: HTTP/1.1 (which has Host), ours, GET or HEAD, and
/// no body. A GET or HEAD carries no body, so any Content-Length or Transfer-Encoding is a bad
/// request; among them two Content-Length headers, which hyper refuses itself when their values
/// differ and reads as one when they are equal.
pub fn check(
    method: &Method,
    version: Version,
    headers: &HeaderMap,
    allowed: &Allowed,
) -> Result<(), Refusal> {
    if version != Version::HTTP_11 {
        return Err(Refusal::BadRequest);
    }
    if !allowed.admits(headers) {
        return Err(Refusal::Forbidden);
    }
    if method != Method::GET && method != Method::HEAD {
        return Err(Refusal::MethodNotAllowed);
    }
    if headers.contains_key(header::CONTENT_LENGTH)
        || headers.contains_key(header::TRANSFER_ENCODING)
    {
        return Err(Refusal::BadRequest);
    }
    Ok(())
}

/// Headers sent with every answer: nothing is cached, framed, sniffed or loaded from elsewhere.
pub const COMMON_HEADERS: [(header::HeaderName, &str); 5] = [
    (header::CACHE_CONTROL, "no-store"),
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (header::X_FRAME_OPTIONS, "DENY"),
    (header::REFERRER_POLICY, "no-referrer"),
    (
        header::CONTENT_SECURITY_POLICY,
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for &(name, value) in pairs {
            h.append(name, HeaderValue::from_str(value).unwrap());
        }
        h
    }

    fn admits(addr: &str, pairs: &[(&'static str, &str)]) -> bool {
        Allowed::new(addr.parse().unwrap()).admits(&headers(pairs))
    }

    #[test]
    fn admits_only_its_own_host_and_origin() {
        let at = "127.0.0.1:8000";
        assert!(admits(at, &[("host", "127.0.0.1:8000")]));
        assert!(admits(at, &[("host", "localhost:8000")]));
        assert!(admits(
            at,
            &[
                ("host", "localhost:8000"),
                ("origin", "http://127.0.0.1:8000")
            ]
        ));
        assert!(!admits(at, &[("host", "evil.example:8000")]));
        assert!(!admits(at, &[("host", "127.0.0.1:9000")]));
        assert!(!admits(
            at,
            &[
                ("host", "127.0.0.1:8000"),
                ("origin", "http://evil.example")
            ]
        ));
        assert!(!admits(
            at,
            &[
                ("host", "127.0.0.1:8000"),
                ("origin", "https://127.0.0.1:8000")
            ]
        ));
        assert!(!admits(at, &[]));
        assert!(!admits(
            at,
            &[("host", "127.0.0.1:8000"), ("host", "evil.example")]
        ));
        assert!(!admits(
            at,
            &[
                ("host", "127.0.0.1:8000"),
                ("origin", "http://127.0.0.1:8000"),
                ("origin", "http://127.0.0.1:8000")
            ]
        ));
    }

    /// A connection to a server on every address reached one address: only that one is ours.
    #[test]
    fn only_the_address_reached_is_ours() {
        let at = "192.168.1.20:8000";
        assert!(admits(at, &[("host", "192.168.1.20:8000")]));
        assert!(admits(
            at,
            &[
                ("host", "192.168.1.20:8000"),
                ("origin", "http://192.168.1.20:8000")
            ]
        ));
        assert!(!admits(
            at,
            &[
                ("host", "192.168.1.20:8000"),
                ("origin", "http://203.0.113.7:8000")
            ]
        ));
        assert!(!admits(at, &[("host", "203.0.113.7:8000")]));
        assert!(!admits(at, &[("host", "localhost:8000")]));
        // A dual-stack socket reports an IPv4 peer's address mapped into IPv6.
        assert!(admits(
            "[::ffff:127.0.0.1]:8000",
            &[
                ("host", "localhost:8000"),
                ("origin", "http://127.0.0.1:8000")
            ]
        ));
        assert!(admits("[::1]:8000", &[("host", "[::1]:8000")]));
    }

    #[test]
    fn a_body_an_old_version_or_a_method_is_refused() {
        let allowed = Allowed::new("127.0.0.1:8000".parse().unwrap());
        let host = ("host", "127.0.0.1:8000");
        let check = |m: Method, v: Version, pairs: &[(&'static str, &str)]| {
            check(&m, v, &headers(pairs), &allowed)
        };
        assert_eq!(check(Method::GET, Version::HTTP_11, &[host]), Ok(()));
        assert_eq!(check(Method::HEAD, Version::HTTP_11, &[host]), Ok(()));
        assert_eq!(
            check(Method::GET, Version::HTTP_10, &[host]),
            Err(Refusal::BadRequest)
        );
        assert_eq!(
            check(Method::POST, Version::HTTP_11, &[host]),
            Err(Refusal::MethodNotAllowed)
        );
        for body in [("content-length", "0"), ("transfer-encoding", "chunked")] {
            assert_eq!(
                check(Method::GET, Version::HTTP_11, &[host, body]),
                Err(Refusal::BadRequest)
            );
        }
    }
}
