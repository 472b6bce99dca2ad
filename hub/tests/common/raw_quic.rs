//! A raw QUIC device connection for tests: one bidirectional stream, length-prefixed messages,
//! no reconnection, so what the hub does to the connection shows.
#![allow(clippy::unwrap_used)] // A test's helpers may unwrap: the panic is the failure it reports.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use mat_protocol::{self as protocol, ALPN, DeviceMessage, HubMessage};
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;

/// One device connection to a hub's QUIC address, trusting the hub's certificate file.
pub struct RawQuic {
    _endpoint: quinn::Endpoint,
    send: quinn::SendStream,
    recv: quinn::RecvStream,
    buffer: Vec<u8>,
}

impl RawQuic {
    pub async fn connect(addr: SocketAddr, cert: &Path) -> RawQuic {
        let mut roots = rustls::RootCertStore::empty();
        for cert in CertificateDer::pem_file_iter(cert).unwrap() {
            roots.add(cert.unwrap()).unwrap();
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut crypto = rustls::ClientConfig::builder_with_provider(provider)
            .with_protocol_versions(&[&rustls::version::TLS13])
            .unwrap()
            .with_root_certificates(roots)
            .with_no_client_auth();
        crypto.alpn_protocols = vec![ALPN.to_vec()];
        let config = quinn::ClientConfig::new(Arc::new(quinn::crypto::rustls::QuicClientConfig::try_from(crypto).unwrap()));
        let mut endpoint = quinn::Endpoint::client("127.0.0.1:0".parse().unwrap()).unwrap();
        endpoint.set_default_client_config(config);
        let connection = endpoint.connect(addr, "localhost").unwrap().await.unwrap();
        let (send, recv) = connection.open_bi().await.unwrap();
        RawQuic { _endpoint: endpoint, send, recv, buffer: Vec::new() }
    }

    /// Bytes as they are, framed or not.
    pub async fn send_raw(&mut self, bytes: &[u8]) {
        self.send.write_all(bytes).await.unwrap();
    }

    /// One message, length-prefixed.
    pub async fn send(&mut self, message: &DeviceMessage) {
        let framed = protocol::encode_framed(&protocol::encode(message));
        self.send_raw(&framed).await;
    }

    /// The next hub message, or None when the stream ends or nothing comes within 5 s.
    pub async fn recv(&mut self) -> Option<HubMessage> {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        loop {
            if let Ok(Some((body, total))) = protocol::decode_framed(&self.buffer) {
                let message = protocol::decode(&self.buffer[body]).unwrap();
                self.buffer.drain(..total);
                return Some(message);
            }
            let mut chunk = [0u8; 4096];
            match tokio::time::timeout_at(deadline, self.recv.read(&mut chunk)).await {
                Ok(Ok(Some(n))) => self.buffer.extend_from_slice(&chunk[..n]),
                _ => return None,
            }
        }
    }
}
