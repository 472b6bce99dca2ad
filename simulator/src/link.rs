//! One open connection to the hub, over QUIC (length-prefixed messages on one bidirectional
//! stream) or WebSocket (one protocol message per binary message), behind one interface.

use futures_util::{SinkExt, StreamExt};
use mat_protocol::{DeviceMessage, HubMessage, ProtocolError, decode, decode_framed, encode, encode_framed};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Why a link failed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum LinkError {
    /// The connection could not be set up.
    #[error("connect: {0}")]
    Connect(String),
    /// Reading or writing failed.
    #[error("transport: {0}")]
    Transport(String),
    /// The hub sent something that is not a protocol message.
    #[error("hub sent a bad message: {0}")]
    Protocol(#[from] ProtocolError),
}

/// An open connection.
pub(crate) enum Link {
    Quic { conn: quinn::Connection, send: quinn::SendStream, recv: quinn::RecvStream, buf: Vec<u8> },
    Ws(Box<WebSocketStream<MaybeTlsStream<TcpStream>>>),
}

/// Bytes read from a QUIC stream at a time.
const READ_CHUNK: usize = 8 * 1024;

impl Link {
    /// Opens the device's single bidirectional stream on a QUIC connection.
    pub(crate) async fn quic(conn: quinn::Connection) -> Result<Self, LinkError> {
        let (send, recv) = conn.open_bi().await.map_err(|e| LinkError::Connect(e.to_string()))?;
        Ok(Link::Quic { conn, send, recv, buf: Vec::with_capacity(READ_CHUNK) })
    }

    /// Opens a WebSocket to `url` (`ws://host:port/ingest`).
    pub(crate) async fn ws(url: &str) -> Result<Self, LinkError> {
        let (stream, _response) = tokio_tungstenite::connect_async(url).await.map_err(|e| LinkError::Connect(e.to_string()))?;
        Ok(Link::Ws(Box::new(stream)))
    }

    /// Sends one message; returns the bytes written.
    pub(crate) async fn send(&mut self, message: &DeviceMessage) -> Result<usize, LinkError> {
        self.send_body(encode(message)).await
    }

    /// Sends one encoded message body (a frame from `mat_protocol::encode_frame`); returns the
    /// bytes written.
    pub(crate) async fn send_body(&mut self, body: Vec<u8>) -> Result<usize, LinkError> {
        match self {
            Link::Quic { send, .. } => {
                let framed = encode_framed(&body);
                send.write_all(&framed).await.map_err(|e| LinkError::Transport(e.to_string()))?;
                Ok(framed.len())
            }
            Link::Ws(ws) => {
                let len = body.len();
                ws.send(Message::Binary(body.into())).await.map_err(|e| LinkError::Transport(e.to_string()))?;
                Ok(len)
            }
        }
    }

    /// Receives the next message from the hub; `Ok(None)` when the hub closed the connection.
    ///
    /// Cancel-safe: the only await points are the transports' own cancel-safe reads, and the
    /// QUIC buffer is only touched after a read completes, so it can sit in a `select!`.
    pub(crate) async fn recv(&mut self) -> Result<Option<HubMessage>, LinkError> {
        match self {
            Link::Quic { recv, buf, .. } => loop {
                if let Some((body, total)) = decode_framed(buf)? {
                    let message = decode(&buf[body]);
                    buf.drain(..total);
                    return Ok(Some(message?));
                }
                let mut chunk = [0u8; READ_CHUNK];
                match recv.read(&mut chunk).await {
                    Ok(Some(n)) => buf.extend_from_slice(&chunk[..n]),
                    Ok(None) => return Ok(None),
                    Err(quinn::ReadError::ConnectionLost(quinn::ConnectionError::ApplicationClosed(_))) => return Ok(None),
                    Err(e) => return Err(LinkError::Transport(e.to_string())),
                }
            },
            Link::Ws(ws) => loop {
                match ws.next().await {
                    None | Some(Ok(Message::Close(_))) => return Ok(None),
                    Some(Ok(Message::Binary(bytes))) => return Ok(Some(decode(&bytes)?)),
                    Some(Ok(Message::Text(_))) => {
                        return Err(LinkError::Protocol(ProtocolError::Malformed("text message on the ingest socket".into())));
                    }
                    // Pings are answered by tungstenite itself; pongs and raw frames carry nothing.
                    Some(Ok(_)) => continue,
                    Some(Err(e)) => return Err(LinkError::Transport(e.to_string())),
                }
            },
        }
    }

    /// Closes politely: finishes the QUIC stream and closes the connection with code 0, or
    /// sends a WebSocket close frame. Errors are irrelevant at this point.
    pub(crate) async fn close(self, reason: &str) {
        match self {
            Link::Quic { conn, mut send, .. } => {
                let _ = send.finish();
                conn.close(0u32.into(), reason.as_bytes());
            }
            Link::Ws(mut ws) => {
                let _ = tokio::time::timeout(std::time::Duration::from_secs(1), SinkExt::close(&mut *ws)).await;
            }
        }
    }
}
