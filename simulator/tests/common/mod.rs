//! Helpers for the loopback tests: a tiny QUIC hub, a tiny WebSocket hub, and frame-rate probes.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use mat_protocol::{
    ALPN, CommandEnvelope, DeviceMessage, ErrorCode, HubMessage, MAX_MESSAGE_BYTES, PROTOCOL_VERSION, ProtocolErrorMessage, Welcome,
    decode_device_message as decode, decode_framed, encode, encode_framed,
};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio::net::TcpStream;
use tokio::time::Instant;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;

/// A self-signed certificate for `localhost`: DER, PEM and the key.
pub struct TestCert {
    pub der: CertificateDer<'static>,
    pub pem: String,
    pub key: PrivatePkcs8KeyDer<'static>,
}

pub fn test_cert() -> TestCert {
    let ck = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).expect("rcgen");
    TestCert { der: ck.cert.der().clone(), pem: ck.cert.pem(), key: PrivatePkcs8KeyDer::from(ck.signing_key.serialize_der()) }
}

/// A QUIC server endpoint on 127.0.0.1:0 speaking ALPN `pmat/1`.
pub fn quic_server(cert: &TestCert) -> (quinn::Endpoint, SocketAddr) {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut tls = rustls::ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .expect("tls13")
        .with_no_client_auth()
        .with_single_cert(vec![cert.der.clone()], PrivateKeyDer::Pkcs8(cert.key.clone_key()))
        .expect("server cert");
    tls.alpn_protocols = vec![ALPN.to_vec()];
    let crypto = quinn::crypto::rustls::QuicServerConfig::try_from(tls).expect("quic server config");
    let config = quinn::ServerConfig::with_crypto(Arc::new(crypto));
    let endpoint = quinn::Endpoint::server(config, "127.0.0.1:0".parse().expect("addr")).expect("server endpoint");
    let addr = endpoint.local_addr().expect("local addr");
    (endpoint, addr)
}

/// Either side of a test hub's conversation with one device.
pub enum HubSide {
    Quic { conn: quinn::Connection, send: quinn::SendStream, recv: quinn::RecvStream, buf: Vec<u8> },
    Ws(Box<WebSocketStream<TcpStream>>),
}

impl HubSide {
    /// Accepts the next QUIC connection and its one bidirectional stream.
    pub async fn accept_quic(endpoint: &quinn::Endpoint) -> HubSide {
        let incoming =
            tokio::time::timeout(Duration::from_secs(5), endpoint.accept()).await.expect("a connection in time").expect("endpoint open");
        let conn = incoming.await.expect("handshake");
        let alpn = conn.handshake_data().and_then(|d| d.downcast::<quinn::crypto::rustls::HandshakeData>().ok()).and_then(|d| d.protocol);
        assert_eq!(alpn.as_deref(), Some(ALPN), "ALPN");
        let (send, recv) = conn.accept_bi().await.expect("bidirectional stream");
        HubSide::Quic { conn, send, recv, buf: Vec::new() }
    }

    /// Reads one device message (panics on timeout or protocol error).
    pub async fn read(&mut self) -> DeviceMessage {
        tokio::time::timeout(Duration::from_secs(5), self.try_read()).await.expect("a message in time").expect("a message")
    }

    /// Reads one device message; `None` when the device closed.
    pub async fn try_read(&mut self) -> Option<DeviceMessage> {
        match self {
            HubSide::Quic { recv, buf, .. } => loop {
                if let Some((body, total)) = decode_framed(buf).expect("framing") {
                    let message = decode(&buf[body]).expect("decode");
                    buf.drain(..total);
                    return Some(message);
                }
                let mut chunk = [0u8; 8192];
                match recv.read(&mut chunk).await {
                    Ok(Some(n)) => buf.extend_from_slice(&chunk[..n]),
                    _ => return None,
                }
            },
            HubSide::Ws(ws) => loop {
                match ws.next().await {
                    Some(Ok(Message::Binary(bytes))) => {
                        // No length prefix on WebSocket: the message is exactly one body.
                        assert!(bytes.len() <= MAX_MESSAGE_BYTES);
                        return Some(decode(&bytes).expect("decode unframed"));
                    }
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
                    Some(Ok(_)) => continue,
                }
            },
        }
    }

    pub async fn write(&mut self, message: &HubMessage) {
        match self {
            HubSide::Quic { send, .. } => send.write_all(&encode_framed(&encode(message))).await.expect("write"),
            HubSide::Ws(ws) => ws.send(Message::Binary(encode(message).into())).await.expect("ws send"),
        }
    }

    pub async fn welcome(&mut self, device_id: &str) {
        self.write(&HubMessage::Welcome(Welcome {
            version: PROTOCOL_VERSION,
            device_id: device_id.to_owned(),
            max_message_bytes: MAX_MESSAGE_BYTES as u32,
            hubs: Vec::new(),
        }))
        .await;
    }

    pub async fn refuse(&mut self, code: ErrorCode) {
        self.write(&HubMessage::Error(ProtocolErrorMessage { code, message: "test refusal".into(), fatal: true })).await;
    }

    pub async fn command(&mut self, id: u32, command: mat_protocol::Command) {
        self.write(&HubMessage::Command(CommandEnvelope { id, command })).await;
    }

    /// Closes the connection from the hub's side.
    pub async fn close(self) {
        match self {
            HubSide::Quic { conn, .. } => conn.close(0u32.into(), b"test closes"),
            HubSide::Ws(mut ws) => {
                // The sink's close, named: tokio-tungstenite's inherent `close(Option<CloseFrame>)`
                // exists only under some feature sets, so `ws.close(..)` builds in one resolution
                // (`cargo test -p simulator`) and not in the workspace's.
                let _ = SinkExt::close(&mut *ws).await;
            }
        }
    }

    pub fn quic_remote(&self) -> Option<SocketAddr> {
        match self {
            HubSide::Quic { conn, .. } => Some(conn.remote_address()),
            HubSide::Ws(_) => None,
        }
    }
}

/// What the hub saw during a measuring window.
#[derive(Debug, Default)]
pub struct Window {
    pub seqs: Vec<u64>,
    pub acks: Vec<mat_protocol::Ack>,
    pub cells_len: Vec<usize>,
    pub device_times: Vec<u64>,
}

/// Reads everything the device sends for `length`.
pub async fn collect(hub: &mut HubSide, length: Duration) -> Window {
    let deadline = Instant::now() + length;
    let mut window = Window::default();
    while let Ok(Some(message)) = tokio::time::timeout_at(deadline, hub.try_read()).await {
        match message {
            DeviceMessage::Frame(f) => {
                window.seqs.push(f.seq);
                window.cells_len.push(f.cells.len());
                window.device_times.push(f.device_time_ms);
            }
            DeviceMessage::Ack(a) => window.acks.push(a),
            DeviceMessage::Hello(h) => panic!("unexpected second hello {h:?}"),
        }
    }
    window
}

/// Asserts the seqs rise by exactly one.
pub fn assert_consecutive(seqs: &[u64]) {
    for pair in seqs.windows(2) {
        assert_eq!(pair[1], pair[0] + 1, "seqs {seqs:?}");
    }
}

pub fn unix_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}
