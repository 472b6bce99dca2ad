//! The QUIC side: which server certificates to trust, and a client endpoint that many devices
//! share (one UDP socket for the whole fleet).

use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use mat_protocol::ALPN;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};

use crate::SimError;

/// Which server certificate a QUIC device accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trust {
    /// Certificates (PEM, one or more) to trust as roots, e.g. the hub's `<data>/tls/cert.pem`.
    PemFile(PathBuf),
    /// One DER certificate to trust as a root.
    Der(Vec<u8>),
    /// Accept any certificate (the handshake signature is still checked). Tests and demos only.
    InsecureSkipVerify,
}

/// Keep-alive: QUIC sends a PING only after the connection has been quiet this long, so a
/// streaming mat (frames every 100 ms) and a monitoring one at 1–2 Hz send almost none; a mat
/// quiet for a minute sends one a second (about 50 bytes each way). It keeps the hub answering
/// often enough for [`IDLE_TIMEOUT`] to mean "the hub is gone" (docs/device-protocol.md §1).
pub const KEEP_ALIVE: Duration = Duration::from_secs(1);
/// A hub silent this long is considered gone and the device moves to the next hub of its
/// welcome's list (docs/scale-out.md). Three keep-alive intervals: one lost PING or ACK is not a
/// death. It bounds a device's failover after a hub vanishes silently (`kill -9`, a cut cable):
/// 3 s, plus a backoff delay and a handshake, within issue 25's 5 s.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(3);
/// Packets the hub may receive before it must ACK: none. A packed frame (protocol version 2) is
/// one packet, and quinn otherwise ACKs every other packet or after its 25 ms ACK delay, so each
/// frame would cost the hub a timer wake-up of its own just to ACK it (7 µs of the receiving
/// thread per frame, docs/performance.md "Packed frames and the transport's share"). The count of
/// ACKs is the same either way: one per frame at 10 Hz.
const ACK_ELICITING_THRESHOLD: u32 = 0;

fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// Builds the quinn client configuration (TLS 1.3, ALPN `pmat/1`) for a trust setting.
pub fn client_config(trust: &Trust) -> Result<quinn::ClientConfig, SimError> {
    let tls = |e: rustls::Error| SimError::Tls(e.to_string());
    let builder =
        rustls::ClientConfig::builder_with_provider(provider()).with_protocol_versions(&[&rustls::version::TLS13]).map_err(tls)?;
    let mut crypto = match trust {
        Trust::InsecureSkipVerify => {
            builder.dangerous().with_custom_certificate_verifier(Arc::new(SkipServerVerification(provider()))).with_no_client_auth()
        }
        Trust::PemFile(path) => {
            let pem = std::fs::read(path).map_err(|source| SimError::Io { context: format!("reading {}", path.display()), source })?;
            let mut roots = rustls::RootCertStore::empty();
            for cert in CertificateDer::pem_slice_iter(&pem) {
                let cert = cert.map_err(|e| SimError::Tls(format!("{}: {e}", path.display())))?;
                roots.add(cert).map_err(tls)?;
            }
            if roots.is_empty() {
                return Err(SimError::Tls(format!("{}: no certificate found", path.display())));
            }
            builder.with_root_certificates(roots).with_no_client_auth()
        }
        Trust::Der(der) => {
            let mut roots = rustls::RootCertStore::empty();
            roots.add(CertificateDer::from(der.clone())).map_err(tls)?;
            builder.with_root_certificates(roots).with_no_client_auth()
        }
    };
    crypto.alpn_protocols = vec![ALPN.to_vec()];
    let crypto = quinn::crypto::rustls::QuicClientConfig::try_from(crypto).map_err(|e| SimError::Tls(e.to_string()))?;
    let mut config = quinn::ClientConfig::new(Arc::new(crypto));
    config.transport_config(Arc::new(transport(KEEP_ALIVE, IDLE_TIMEOUT)));
    Ok(config)
}

/// The devices' QUIC transport settings with this keep-alive and idle timeout.
fn transport(keep_alive: Duration, idle_timeout: Duration) -> quinn::TransportConfig {
    let mut transport = quinn::TransportConfig::default();
    transport.keep_alive_interval(Some(keep_alive));
    transport.max_idle_timeout(quinn::IdleTimeout::try_from(idle_timeout).ok());
    // Asked of the hub through the ACK frequency extension; a peer without it ignores the request.
    let mut ack_frequency = quinn::AckFrequencyConfig::default();
    ack_frequency.ack_eliciting_threshold(ACK_ELICITING_THRESHOLD.into());
    transport.ack_frequency_config(Some(ack_frequency));
    transport
}

/// A QUIC client endpoint and its configuration; cheap to clone, and meant to be shared by all
/// the devices of a process so 500 devices use one UDP socket.
///
/// Must be created inside a tokio runtime (the endpoint's driver is spawned on it).
#[derive(Debug, Clone)]
pub struct QuicClient {
    endpoint: quinn::Endpoint,
    config: quinn::ClientConfig,
}

impl QuicClient {
    /// An endpoint bound to `0.0.0.0:0` (for IPv4 hubs; use [`QuicClient::for_server`] or
    /// [`QuicClient::bind`] for IPv6).
    pub fn new(trust: Trust) -> Result<Self, SimError> {
        Self::bind(&trust, SocketAddr::from((Ipv4Addr::UNSPECIFIED, 0)))
    }

    /// An endpoint bound to the unspecified address of the same family as `server`.
    pub fn for_server(trust: &Trust, server: SocketAddr) -> Result<Self, SimError> {
        let local =
            if server.is_ipv6() { SocketAddr::from((Ipv6Addr::UNSPECIFIED, 0)) } else { SocketAddr::from((Ipv4Addr::UNSPECIFIED, 0)) };
        Self::bind(trust, local)
    }

    /// An endpoint bound to `local`.
    pub fn bind(trust: &Trust, local: SocketAddr) -> Result<Self, SimError> {
        let config = client_config(trust)?;
        let endpoint = quinn::Endpoint::client(local).map_err(|source| SimError::Io { context: format!("binding UDP {local}"), source })?;
        Ok(Self { endpoint, config })
    }

    /// The same endpoint with another keep-alive and idle timeout than [`KEEP_ALIVE`] and
    /// [`IDLE_TIMEOUT`] (a test that must tell a stateless reset from an idle timeout).
    pub fn with_liveness(mut self, keep_alive: Duration, idle_timeout: Duration) -> Self {
        self.config.transport_config(Arc::new(transport(keep_alive, idle_timeout)));
        self
    }

    /// The underlying endpoint.
    pub fn endpoint(&self) -> &quinn::Endpoint {
        &self.endpoint
    }

    /// Opens a connection (handshake included).
    pub async fn connect(&self, addr: SocketAddr, server_name: &str) -> Result<quinn::Connection, String> {
        let connecting = self.endpoint.connect_with(self.config.clone(), addr, server_name).map_err(|e| e.to_string())?;
        connecting.await.map_err(|e| e.to_string())
    }
}

/// A verifier that accepts any certificate but still checks handshake signatures.
#[derive(Debug)]
struct SkipServerVerification(Arc<rustls::crypto::CryptoProvider>);

impl rustls::client::danger::ServerCertVerifier for SkipServerVerification {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp: &[u8],
        _now: UnixTime,
    ) -> Result<rustls::client::danger::ServerCertVerified, rustls::Error> {
        Ok(rustls::client::danger::ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.0.signature_verification_algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.0.signature_verification_algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unreadable_or_empty_pem_is_a_clear_error() {
        let missing = client_config(&Trust::PemFile(PathBuf::from("/nonexistent/cert.pem")));
        assert!(matches!(missing, Err(SimError::Io { .. })));
        let dir = std::env::temp_dir().join(format!("sim-empty-pem-{}", std::process::id()));
        std::fs::write(&dir, b"not a pem").expect("write");
        let empty = client_config(&Trust::PemFile(dir.clone()));
        let _ = std::fs::remove_file(&dir);
        assert!(matches!(empty, Err(SimError::Tls(_))), "{empty:?}");
        assert!(client_config(&Trust::InsecureSkipVerify).is_ok());
    }
}
