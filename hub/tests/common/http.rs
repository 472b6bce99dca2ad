//! A minimal HTTP/1.1 client for tests against a running hub (`Connection: close`, JSON bodies,
//! a bearer token), shared by the hub's tests (`hub/tests/common`) and the database server's
//! (`dbserver/tests/support`, which includes this file by path).

use std::net::SocketAddr;
use std::time::Duration;

use serde::de::DeserializeOwned;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A response: status and body.
pub struct Response {
    pub status: u16,
    pub body: String,
}

impl Response {
    pub fn json<T: DeserializeOwned>(&self) -> T {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("bad JSON ({e}): {}", self.body))
    }

    pub fn error_code(&self) -> String {
        let v: serde_json::Value = self.json();
        v["error"].as_str().unwrap_or_default().to_owned()
    }
}

/// One HTTP/1.1 request with `Connection: close`.
pub async fn request(addr: SocketAddr, method: &str, path: &str, token: Option<&str>, body: Option<&str>) -> Response {
    try_request(addr, method, path, token, body).await.unwrap_or_else(|e| panic!("{method} {path}: {e}"))
}

/// How long [`try_request`] waits for a whole answer.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// [`request`] that reports a refused connection, a connection cut before the end of the answer,
/// or no answer within [`REQUEST_TIMEOUT`] as an error (a hub that was killed, say). An answer
/// whose status line arrived has that status, even if the body was cut.
pub async fn try_request(addr: SocketAddr, method: &str, path: &str, token: Option<&str>, body: Option<&str>) -> std::io::Result<Response> {
    tokio::time::timeout(REQUEST_TIMEOUT, exchange(addr, method, path, token, body))
        .await
        .unwrap_or_else(|_| Err(std::io::Error::new(std::io::ErrorKind::TimedOut, "no answer in time")))
}

async fn exchange(addr: SocketAddr, method: &str, path: &str, token: Option<&str>, body: Option<&str>) -> std::io::Result<Response> {
    let mut stream = tokio::net::TcpStream::connect(addr).await?;
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    if let Some(token) = token {
        head.push_str(&format!("Authorization: Bearer {token}\r\n"));
    }
    let body = body.unwrap_or("");
    if method != "GET" {
        head.push_str(&format!("Content-Type: application/json\r\nContent-Length: {}\r\n", body.len()));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).await?;
    stream.write_all(body.as_bytes()).await?;
    let mut raw = Vec::new();
    let read = stream.read_to_end(&mut raw).await;
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    if status == 0 {
        read?;
        return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "no status line"));
    }
    let body = if head.to_ascii_lowercase().contains("transfer-encoding: chunked") { dechunk(body) } else { body.to_owned() };
    Ok(Response { status, body })
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        body = rest[n..].trim_start_matches("\r\n");
    }
    out
}
