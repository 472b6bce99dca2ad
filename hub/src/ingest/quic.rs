//! Device ingest over QUIC (quinn): ALPN `pmat/1`, one bidirectional stream per connection,
//! messages framed with a big-endian u32 length.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use bytes::{Buf, Bytes, BytesMut};
use mat_protocol::{ALPN, ProtocolError, decode_framed, encode_framed};
use quinn::crypto::rustls::QuicServerConfig;

use super::connection::{DeviceTransport, IngestContext, serve_device};
use super::quic_thread::QuicThread;
use super::reset_key::{RESET_KEY_LEN, endpoint_config};
use crate::tls::ServerIdentity;

/// Idle connections are closed after this long (devices send frames at least every few seconds).
const IDLE_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a new connection has to open its stream.
const STREAM_TIMEOUT: Duration = Duration::from_secs(5);
/// The UDP receive buffer asked for: at 20,000 frames/s (40,000 datagrams/s) the default
/// 208 KiB holds a few milliseconds, and a datagram dropped there costs the mat a retransmission.
/// Linux grants at most `net.core.rmem_max`; the hub logs what it got.
const RECEIVE_BUFFER_BYTES: usize = 4 << 20;

/// Binds the QUIC endpoint. `reset_key` signs stateless resets (see [`super::reset_key`]): the
/// same key across restarts lets a new process reset the connections of the one before it.
pub fn bind(addr: SocketAddr, identity: &ServerIdentity, reset_key: &[u8; RESET_KEY_LEN]) -> anyhow::Result<quinn::Endpoint> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut crypto = rustls::ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .context("TLS 1.3 is not available")?
        .with_no_client_auth()
        .with_single_cert(identity.chain.clone(), identity.key.clone_key())
        .context("the QUIC certificate and key do not match")?;
    crypto.alpn_protocols = vec![ALPN.to_vec()];
    let mut config = quinn::ServerConfig::with_crypto(Arc::new(QuicServerConfig::try_from(crypto).context("QUIC TLS configuration")?));
    let mut transport = quinn::TransportConfig::default();
    transport.max_idle_timeout(Some(IDLE_TIMEOUT.try_into().context("idle timeout")?));
    transport.max_concurrent_bidi_streams(1u32.into());
    transport.max_concurrent_uni_streams(0u32.into());
    config.transport_config(Arc::new(transport));
    let socket = std::net::UdpSocket::bind(addr).with_context(|| format!("binding QUIC on {addr}"))?;
    widen_receive_buffer(&socket);
    quinn::Endpoint::new(endpoint_config(reset_key), Some(config), socket, Arc::new(QuicThread::start()?))
        .with_context(|| format!("starting QUIC on {addr}"))
}

/// Asks for [`RECEIVE_BUFFER_BYTES`]; a smaller grant is logged, not fatal.
fn widen_receive_buffer(socket: &std::net::UdpSocket) {
    let socket = socket2::SockRef::from(socket);
    let asked = socket.set_recv_buffer_size(RECEIVE_BUFFER_BYTES);
    // Linux reports twice what it grants (the doubling covers its bookkeeping).
    let granted = socket.recv_buffer_size().map(|doubled| doubled / 2).unwrap_or(0);
    if asked.is_err() || granted < RECEIVE_BUFFER_BYTES {
        tracing::warn!(
            granted,
            asked = RECEIVE_BUFFER_BYTES,
            "the QUIC socket's receive buffer is smaller than asked; raise net.core.rmem_max for thousands of mats"
        );
    } else {
        tracing::debug!(granted, "QUIC socket receive buffer");
    }
}

/// Accepts device connections until the endpoint is closed.
pub async fn serve(endpoint: quinn::Endpoint, ctx: Arc<IngestContext>) {
    while let Some(incoming) = endpoint.accept().await {
        let ctx = ctx.clone();
        tokio::spawn(async move {
            let peer = incoming.remote_address();
            let connection = match incoming.await {
                Ok(connection) => connection,
                Err(error) => return tracing::debug!(%peer, %error, "QUIC handshake failed"),
            };
            let stream = tokio::time::timeout(STREAM_TIMEOUT, connection.accept_bi()).await;
            let Ok(Ok((send, recv))) = stream else {
                connection.close(1u32.into(), b"no stream opened");
                return;
            };
            let transport = QuicTransport { connection, send, recv, chunk: Bytes::new(), buffer: BytesMut::new() };
            serve_device(ctx, transport, peer).await;
        });
    }
}

struct QuicTransport {
    connection: quinn::Connection,
    send: quinn::SendStream,
    recv: quinn::RecvStream,
    /// The rest of quinn's last chunk, while it starts with whole messages: they are handed on
    /// as slices of it, not copied.
    chunk: Bytes,
    /// A message split across chunks, gathered here.
    buffer: BytesMut,
}

impl QuicTransport {
    /// The next whole message already received, if any: a slice of the chunk when it holds the
    /// message whole (a frame in one packet), else gathered in the buffer.
    fn next_message(&mut self) -> Result<Option<Bytes>, ProtocolError> {
        if self.buffer.is_empty() {
            if let Some((body, total)) = decode_framed(&self.chunk)? {
                let message = self.chunk.slice(body);
                self.chunk.advance(total);
                return Ok(Some(message));
            }
            // The start of a message that goes on in the next chunk.
            self.buffer.extend_from_slice(&self.chunk);
            self.chunk = Bytes::new();
            return Ok(None);
        }
        let Some((body, total)) = decode_framed(&self.buffer)? else { return Ok(None) };
        let mut message = self.buffer.split_to(total);
        message.advance(body.start);
        Ok(Some(message.freeze()))
    }
}

impl DeviceTransport for QuicTransport {
    async fn recv(&mut self) -> Result<Option<Bytes>, ProtocolError> {
        loop {
            if let Some(message) = self.next_message()? {
                return Ok(Some(message));
            }
            // quinn's own chunk, not a copy into a scratch array: an array here would live in
            // every connection's task for as long as it waits (16 KiB per mat).
            match self.recv.read_chunk(usize::MAX, true).await {
                Ok(Some(chunk)) if self.buffer.is_empty() => self.chunk = chunk.bytes,
                Ok(Some(chunk)) => self.buffer.extend_from_slice(&chunk.bytes),
                Ok(None) | Err(_) => return Ok(None),
            }
        }
    }

    async fn send(&mut self, body: Vec<u8>) -> Result<(), String> {
        self.send.write_all(&encode_framed(&body)).await.map_err(|e| e.to_string())
    }

    fn recovers_from_errors(&self) -> bool {
        false
    }

    async fn close(&mut self) {
        let _ = self.send.finish();
        // Give the last message (often an error) a moment to reach the device.
        let _ = tokio::time::timeout(Duration::from_millis(500), self.send.stopped()).await;
        self.connection.close(0u32.into(), b"closed");
    }
}
