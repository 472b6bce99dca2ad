//! A minimal HTTP/1.1 client over a plain TCP stream: enough for the hub's login and metrics
//! (no TLS, one request per connection, `Connection: close`).

use std::time::Duration;

use anyhow::{Context, Result, bail};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// `http://host:port` split into the address to dial and the `Host` header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseUrl {
    /// `host:port`.
    pub authority: String,
}

impl BaseUrl {
    /// Parses `http://host[:port][/…]` (the path is ignored).
    pub fn parse(url: &str) -> Result<Self> {
        let Some(rest) = url.strip_prefix("http://") else {
            bail!("only http:// hub URLs are supported, got {url:?}");
        };
        let authority = rest.split('/').next().unwrap_or_default();
        if authority.is_empty() {
            bail!("no host in {url:?}");
        }
        let authority = if authority.contains(':') && !authority.ends_with(']') { authority.to_owned() } else { format!("{authority}:80") };
        Ok(Self { authority })
    }

    /// The WebSocket URL of `path` on the same host.
    pub fn ws(&self, path: &str) -> String {
        format!("ws://{}{path}", self.authority)
    }
}

/// A response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// Status code.
    pub status: u16,
    /// Body, de-chunked.
    pub body: Vec<u8>,
}

/// Sends one request and reads the whole response.
pub async fn request(base: &BaseUrl, method: &str, path: &str, json_body: Option<&[u8]>) -> Result<Response> {
    let exchange = async {
        let mut stream = TcpStream::connect(&base.authority).await.with_context(|| format!("connecting to {}", base.authority))?;
        let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nAccept: */*\r\n", base.authority);
        if let Some(body) = json_body {
            head.push_str(&format!("Content-Type: application/json\r\nContent-Length: {}\r\n", body.len()));
        }
        head.push_str("\r\n");
        stream.write_all(head.as_bytes()).await?;
        if let Some(body) = json_body {
            stream.write_all(body).await?;
        }
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).await?;
        parse_response(&raw)
    };
    tokio::time::timeout(Duration::from_secs(30), exchange).await.with_context(|| format!("{method} {path}: no answer in 30 s"))?
}

/// Parses a complete HTTP/1.1 response (status line, headers, body with `Content-Length`,
/// chunked encoding, or until the end).
pub fn parse_response(raw: &[u8]) -> Result<Response> {
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").context("no end of headers in the response")?;
    let head = std::str::from_utf8(&raw[..split]).context("response headers are not UTF-8")?;
    let body = &raw[split + 4..];
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let status: u16 =
        status_line.split_whitespace().nth(1).and_then(|s| s.parse().ok()).with_context(|| format!("bad status line {status_line:?}"))?;
    let mut chunked = false;
    let mut length = None;
    for line in lines {
        let Some((name, value)) = line.split_once(':') else { continue };
        let (name, value) = (name.trim().to_ascii_lowercase(), value.trim());
        if name == "transfer-encoding" && value.to_ascii_lowercase().contains("chunked") {
            chunked = true;
        } else if name == "content-length" {
            length = value.parse::<usize>().ok();
        }
    }
    let body = if chunked {
        dechunk(body)?
    } else if let Some(n) = length {
        body.get(..n).context("response shorter than its Content-Length")?.to_vec()
    } else {
        body.to_vec()
    };
    Ok(Response { status, body })
}

fn dechunk(mut data: &[u8]) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let eol = data.windows(2).position(|w| w == b"\r\n").context("truncated chunk size")?;
        let size_text = std::str::from_utf8(&data[..eol])?.split(';').next().unwrap_or_default().trim();
        let size = usize::from_str_radix(size_text, 16).with_context(|| format!("bad chunk size {size_text:?}"))?;
        data = &data[eol + 2..];
        if size == 0 {
            return Ok(out);
        }
        out.extend_from_slice(data.get(..size).context("truncated chunk")?);
        data = data.get(size + 2..).unwrap_or_default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_plain_and_chunked_responses() {
        let plain = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\ncontent-type: text/plain\r\n\r\nhello";
        assert_eq!(parse_response(plain).expect("plain"), Response { status: 200, body: b"hello".to_vec() });
        let chunked = b"HTTP/1.1 401 Unauthorized\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n6;x=y\r\npedia \r\n0\r\n\r\n";
        assert_eq!(parse_response(chunked).expect("chunked"), Response { status: 401, body: b"Wikipedia ".to_vec() });
        let until_close = b"HTTP/1.0 200 OK\r\n\r\nabc";
        assert_eq!(parse_response(until_close).expect("eof").body, b"abc");
        assert!(parse_response(b"garbage").is_err());
    }

    #[test]
    fn base_urls() {
        assert_eq!(BaseUrl::parse("http://127.0.0.1:8080").expect("url").authority, "127.0.0.1:8080");
        assert_eq!(BaseUrl::parse("http://localhost/x").expect("url").authority, "localhost:80");
        assert_eq!(BaseUrl::parse("http://127.0.0.1:9/").expect("url").ws("/ws"), "ws://127.0.0.1:9/ws");
        assert!(BaseUrl::parse("https://x").is_err());
    }
}
