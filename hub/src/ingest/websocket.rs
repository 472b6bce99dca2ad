//! Device ingest over WebSocket at `/ingest`: one binary message per protocol message.

use std::net::SocketAddr;
use std::sync::Arc;

use bytes::Bytes;
use futures_util::{SinkExt, StreamExt};
use mat_protocol::{MAX_MESSAGE_BYTES, ProtocolError};
use tokio_tungstenite::tungstenite::Message;

use crate::http::ws_upgrade::ServerSocket as WebSocket;

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
            match message {
                Message::Binary(bytes) if bytes.len() > MAX_MESSAGE_BYTES => return Err(ProtocolError::TooLarge(bytes.len())),
                // The message's own buffer, not a copy.
                Message::Binary(bytes) => return Ok(Some(bytes)),
                Message::Close(_) => return Ok(None),
                Message::Text(_) => {
                    return Err(ProtocolError::Malformed("text messages are not part of the device protocol".into()));
                }
                // Ping and pong are answered by the WebSocket layer.
                Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => {}
            }
        }
    }

    async fn send(&mut self, body: Vec<u8>) -> Result<(), String> {
        self.socket.send(Message::binary(body)).await.map_err(|e| e.to_string())
    }

    fn recovers_from_errors(&self) -> bool {
        true
    }

    async fn close(&mut self) {
        let _ = self.socket.send(Message::Close(None)).await;
        let _ = self.socket.flush().await;
    }
}
