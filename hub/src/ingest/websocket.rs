//! Device ingest over WebSocket at `/ingest`: one binary message per protocol message.

use std::net::SocketAddr;
use std::sync::Arc;

use bytes::Bytes;
use futures_util::{SinkExt, StreamExt};
use mat_protocol::{MAX_MESSAGE_BYTES, ProtocolError};
use warp::filters::ws::{Message, WebSocket};

use super::connection::{DeviceTransport, IngestContext, serve_device};

/// Largest WebSocket message the transport reads; bigger ones close the socket. Messages
/// between [`MAX_MESSAGE_BYTES`] and this are read, refused with `too_large`, and the device
/// may go on.
pub const TRANSPORT_MESSAGE_LIMIT: usize = 4 * MAX_MESSAGE_BYTES;

/// Serves one upgraded device socket.
pub async fn serve(socket: WebSocket, peer: Option<SocketAddr>, ctx: Arc<IngestContext>) {
    let peer = peer.unwrap_or_else(|| SocketAddr::from(([0, 0, 0, 0], 0)));
    serve_device(ctx, WsTransport { socket }, peer).await;
}

struct WsTransport {
    socket: WebSocket,
}

impl DeviceTransport for WsTransport {
    async fn recv(&mut self) -> Result<Option<Bytes>, ProtocolError> {
        loop {
            let Some(Ok(message)) = self.socket.next().await else { return Ok(None) };
            if message.is_binary() {
                let len = message.as_bytes().len();
                if len > MAX_MESSAGE_BYTES {
                    return Err(ProtocolError::TooLarge(len));
                }
                // The message's own buffer, not a copy.
                return Ok(Some(message.into_bytes()));
            }
            if message.is_close() {
                return Ok(None);
            }
            if message.is_text() {
                return Err(ProtocolError::Malformed("text messages are not part of the device protocol".into()));
            }
            // Ping and pong are answered by the WebSocket layer.
        }
    }

    async fn send(&mut self, body: Vec<u8>) -> Result<(), String> {
        self.socket.send(Message::binary(body)).await.map_err(|e| e.to_string())
    }

    fn recovers_from_errors(&self) -> bool {
        true
    }

    async fn close(&mut self) {
        let _ = self.socket.send(Message::close()).await;
        let _ = self.socket.flush().await;
    }
}
