//! Issue 27, black-box over loopback: the security headers on every kind of answer (a page, a
//! hashed asset, an API answer, an error, the browser socket's upgrade) over HTTP and HTTPS, and
//! the client's files served as a web server serves them (HEAD, Last-Modified /
//! If-Modified-Since, long caching for hashed assets, the page never stored).
#![allow(clippy::unwrap_used)] // A test's helpers may unwrap: the panic is the failure it reports.

mod common;

use std::sync::Arc;

use common::*;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

const INDEX: &str = "<!doctype html><html><head><script type=\"module\" src=\"/assets/app-3f9a1c.js\"></script></head><body><div id=\"root\"></div></body></html>";
const ASSET: &str = "console.log('the client');\n";

/// A built client of two files, and a hub (HTTPS or not) serving it.
async fn start_serving_a_client(https: bool) -> (TestHub, tempfile::TempDir) {
    let client = tempfile::tempdir().unwrap();
    std::fs::write(client.path().join("index.html"), INDEX).unwrap();
    std::fs::create_dir(client.path().join("assets")).unwrap();
    std::fs::write(client.path().join("assets/app-3f9a1c.js"), ASSET).unwrap();
    let dir = client.path().to_path_buf();
    let hub = start_with(&["Mattress Mat IoT"], move |mut config| {
        config.https = https;
        config.client_dir = dir;
        config
    })
    .await;
    (hub, client)
}

/// An answer's status line and headers (lower-case names) and body.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(key, _)| key == name).map(|(_, value)| value.as_str())
    }

    fn require(&self, name: &str, what: &str) -> &str {
        self.header(name).unwrap_or_else(|| panic!("{what}: no {name} header in {:?}", self.headers))
    }
}

fn parse(raw: &[u8]) -> Answer {
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("an HTTP head");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.lines();
    let status = lines.next().and_then(|l| l.split_whitespace().nth(1)).and_then(|s| s.parse().ok()).unwrap_or(0);
    let headers = lines.filter_map(|l| l.split_once(':')).map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned())).collect();
    Answer { status, headers, body: raw[split + 4..].to_vec() }
}

/// Sends `request` and reads the answer: to the end, or only its head for an upgrade (the
/// socket stays open).
async fn exchange<S: AsyncRead + AsyncWrite + Unpin>(mut stream: S, request: &str, head_only: bool) -> Answer {
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    if head_only {
        let mut byte = [0u8; 1];
        while !raw.ends_with(b"\r\n\r\n") {
            if stream.read(&mut byte).await.unwrap() == 0 {
                break;
            }
            raw.push(byte[0]);
        }
    } else {
        // A peer that closes without TLS close_notify is fine here: keep what arrived.
        let _ = stream.read_to_end(&mut raw).await;
    }
    parse(&raw)
}

/// A TLS client that trusts only the hub's certificate.
fn tls_connector(hub: &TestHub) -> tokio_rustls::TlsConnector {
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_file_iter(&hub.hub.cert_path).unwrap() {
        roots.add(cert.unwrap()).unwrap();
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    tokio_rustls::TlsConnector::from(Arc::new(config))
}

/// One request to the hub, over TLS when `https`.
async fn send(hub: &TestHub, https: bool, request: &str, head_only: bool) -> Answer {
    let tcp = tokio::net::TcpStream::connect(hub.http()).await.unwrap();
    if https {
        let tls = tls_connector(hub).connect(ServerName::try_from("localhost").unwrap(), tcp).await.expect("a TLS handshake");
        exchange(tls, request, head_only).await
    } else {
        exchange(tcp, request, head_only).await
    }
}

fn get(method: &str, path: &str, extra: &str) -> String {
    format!("{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{extra}\r\n")
}

/// Every header a browser uses to contain the app, on one answer.
fn assert_hardened(answer: &Answer, what: &str, https: bool) {
    let csp = answer.require("content-security-policy", what);
    let directives: Vec<&str> = csp.split(';').map(str::trim).collect();
    for wanted in
        ["default-src 'self'", "script-src 'self'", "connect-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]
    {
        assert!(directives.contains(&wanted), "{what}: CSP lacks {wanted:?}: {csp}");
    }
    assert!(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"), "{what}: CSP allows inline script or eval: {csp}");
    assert!(directives.iter().any(|d| d.starts_with("img-src 'self'") && d.contains("data:") && d.contains("blob:")), "{what}: {csp}");
    assert_eq!(answer.require("x-content-type-options", what), "nosniff", "{what}");
    assert_eq!(answer.require("x-frame-options", what), "DENY", "{what}");
    assert_eq!(answer.require("referrer-policy", what), "no-referrer", "{what}");
    let permissions = answer.require("permissions-policy", what);
    for denied in ["camera=()", "microphone=()", "geolocation=()", "payment=()", "usb=()"] {
        assert!(permissions.contains(denied), "{what}: Permissions-Policy lacks {denied}: {permissions}");
    }
    match answer.header("strict-transport-security") {
        Some(hsts) => {
            assert!(https, "{what}: HSTS over plain HTTP");
            let max_age: u64 = hsts.split(';').find_map(|p| p.trim().strip_prefix("max-age=")).and_then(|v| v.parse().ok()).unwrap();
            assert!(max_age >= 180 * 24 * 3600, "{what}: HSTS for only {max_age} s");
        }
        None => assert!(!https, "{what}: no HSTS under HTTPS"),
    }
}

async fn every_answer_carries_the_headers(https: bool) {
    let (hub, _client) = start_serving_a_client(https).await;
    let login = format!(r#"{{"email":"{}","password":"{PASSWORD}"}}"#, hub.email);
    let signed_in =
        send(&hub, https, &format!("{}{login}", request_head("localhost", "POST", "/api/auth/login", None, &login)), false).await;
    assert_eq!(signed_in.status, 200, "{}", String::from_utf8_lossy(&signed_in.body));
    assert_hardened(&signed_in, "the sign-in answer", https);
    assert_eq!(signed_in.require("cache-control", "the sign-in answer"), "no-store");
    let token = serde_json::from_slice::<serde_json::Value>(&signed_in.body).unwrap()["token"].as_str().unwrap().to_owned();

    let page = send(&hub, https, &get("GET", "/", ""), false).await;
    assert_eq!(page.status, 200);
    assert_eq!(String::from_utf8_lossy(&page.body), INDEX);
    assert_hardened(&page, "the page", https);
    assert_eq!(page.require("cache-control", "the page"), "no-store");

    let route = send(&hub, https, &get("GET", "/devices", ""), false).await;
    assert_eq!((route.status, String::from_utf8_lossy(&route.body).as_ref()), (200, INDEX));
    assert_hardened(&route, "an app route", https);
    assert_eq!(route.require("cache-control", "an app route"), "no-store");

    let asset = send(&hub, https, &get("GET", "/assets/app-3f9a1c.js", ""), false).await;
    assert_eq!((asset.status, asset.body.as_slice()), (200, ASSET.as_bytes()));
    assert_hardened(&asset, "a hashed asset", https);
    assert!(asset.require("content-type", "a hashed asset").contains("javascript"));
    assert_eq!(asset.require("cache-control", "a hashed asset"), "public, max-age=31536000, immutable");

    let api = send(&hub, https, &get("GET", "/api/userDevices", &format!("Authorization: Bearer {token}\r\n")), false).await;
    assert_eq!(api.status, 200, "{}", String::from_utf8_lossy(&api.body));
    assert_hardened(&api, "an API answer", https);
    assert_eq!(api.require("cache-control", "an API answer"), "no-store");

    let refused = send(&hub, https, &get("GET", "/api/userDevices", ""), false).await;
    assert_eq!(refused.status, 401);
    assert_hardened(&refused, "a refused API call", https);
    assert_eq!(refused.require("cache-control", "a refused API call"), "no-store");

    let upgrade = send(
        &hub,
        https,
        "GET /ws HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
        true,
    )
    .await;
    assert_eq!(upgrade.status, 101);
    assert_hardened(&upgrade, "the browser socket's upgrade", https);
}

#[tokio::test]
async fn every_answer_carries_the_security_headers_over_http() {
    every_answer_carries_the_headers(false).await;
}

#[tokio::test]
async fn every_answer_carries_the_security_headers_and_hsts_over_https() {
    every_answer_carries_the_headers(true).await;
}

#[tokio::test]
async fn head_is_answered_like_get_without_a_body() {
    let (hub, _client) = start_serving_a_client(false).await;
    for (path, length) in [("/", INDEX.len()), ("/index.html", INDEX.len()), ("/assets/app-3f9a1c.js", ASSET.len())] {
        let head = send(&hub, false, &get("HEAD", path, ""), false).await;
        assert_eq!(head.status, 200, "HEAD {path}");
        assert!(head.body.is_empty(), "HEAD {path} answered a body");
        assert_eq!(head.require("content-length", path), length.to_string(), "HEAD {path}");
        assert_hardened(&head, path, false);
    }
    let route = send(&hub, false, &get("HEAD", "/devices", ""), false).await;
    assert_eq!((route.status, route.body.len()), (200, 0));
}

#[tokio::test]
async fn an_unchanged_file_is_answered_304_and_a_changed_one_again() {
    let (hub, client) = start_serving_a_client(false).await;
    let first = send(&hub, false, &get("GET", "/assets/app-3f9a1c.js", ""), false).await;
    let modified = first.require("last-modified", "a hashed asset").to_owned();
    let again = send(&hub, false, &get("GET", "/assets/app-3f9a1c.js", &format!("If-Modified-Since: {modified}\r\n")), false).await;
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    assert_hardened(&again, "a 304", false);

    // A new build of the file is served in full to the same question.
    let path = client.path().join("assets/app-3f9a1c.js");
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
    std::fs::write(&path, "console.log('rebuilt');\n").unwrap();
    std::fs::File::options().write(true).open(&path).unwrap().set_modified(later).unwrap();
    let rebuilt = send(&hub, false, &get("GET", "/assets/app-3f9a1c.js", &format!("If-Modified-Since: {modified}\r\n")), false).await;
    assert_eq!((rebuilt.status, rebuilt.body.as_slice()), (200, b"console.log('rebuilt');\n".as_slice()));
}
