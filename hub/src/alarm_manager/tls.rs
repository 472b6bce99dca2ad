//! MLLP over TLS to an alarm manager (PCD-04): a company's manager with `tls` on is reached
//! through rustls (the workspace's 0.23 with ring, as QUIC and HTTPS use it) and tokio-rustls,
//! trusting only the certificate authority its administrators pasted (`caPem`): a hospital's
//! alarm manager carries a certificate of the hospital's own CA far more often than a public
//! one, and trusting the system's public roots would let any publicly certified host stand in
//! for it (docs/decisions.md). The manager's certificate must name the configured host. The
//! hub-wide default (`mllps://`, `--alarm-manager-ca FILE`) is reached the same way.
//!
//! The PCD-05 status listener's side: with `--alarm-status-tls-cert`/`--alarm-status-tls-key` it
//! speaks MLLP over TLS only ([`listener_config`]); with `--alarm-status-client-ca` it also asks
//! each manager for a client certificate chaining to that CA and refuses the handshake without
//! one (mutual TLS, IHE ATNA's node authentication).

use std::path::Path;
use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_rustls::client::TlsStream;

/// The trust anchors of a PEM text: every certificate in it; what is wrong otherwise.
pub fn roots(ca_pem: &str) -> Result<rustls::RootCertStore, String> {
    let mut store = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(ca_pem.as_bytes()) {
        let cert = cert.map_err(|e| format!("the CA certificate is not readable PEM: {e}"))?;
        store.add(cert).map_err(|e| format!("the CA certificate cannot be used: {e}"))?;
    }
    if store.is_empty() {
        return Err("the CA text holds no certificate (-----BEGIN CERTIFICATE-----)".into());
    }
    Ok(store)
}

/// A client configuration trusting `ca_pem` only.
pub fn client_config(ca_pem: &str) -> Result<Arc<rustls::ClientConfig>, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_root_certificates(roots(ca_pem)?)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// The name the manager's certificate must carry: the configured host (an IPv6 address without
/// its brackets).
pub fn server_name(host: &str) -> Result<ServerName<'static>, String> {
    let bare = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')).unwrap_or(host);
    ServerName::try_from(bare.to_owned()).map_err(|_| format!("{host:?} is not a name a certificate can carry"))
}

/// The TLS handshake over an open connection to `host`.
pub async fn connect(tcp: TcpStream, host: &str, ca_pem: &str) -> Result<TlsStream<TcpStream>, String> {
    let connector = TlsConnector::from(client_config(ca_pem)?);
    connector.connect(server_name(host)?, tcp).await.map_err(|e| format!("TLS with {host}: {e}"))
}

/// What the status listener's TLS is made of: its certificate chain and key, and the CA of the
/// client certificates it demands, if it demands one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListenerTls {
    pub cert_pem: String,
    pub key_pem: String,
    pub client_ca_pem: Option<String>,
}

impl ListenerTls {
    /// Reads the PEM files (the key's file is read only here and kept in memory).
    pub fn read(cert: &Path, key: &Path, client_ca: Option<&Path>) -> Result<ListenerTls, String> {
        let read = |path: &Path| std::fs::read_to_string(path).map_err(|e| format!("reading {}: {e}", path.display()));
        Ok(ListenerTls { cert_pem: read(cert)?, key_pem: read(key)?, client_ca_pem: client_ca.map(read).transpose()? })
    }
}

/// The status listener's server configuration; what is wrong otherwise (checked at start-up).
pub fn listener_config(tls: &ListenerTls) -> Result<Arc<rustls::ServerConfig>, String> {
    let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(tls.cert_pem.as_bytes())
        .collect::<Result<_, _>>()
        .map_err(|e| format!("the status listener's certificate is not readable PEM: {e}"))?;
    if chain.is_empty() {
        return Err("the status listener's certificate file holds no certificate".into());
    }
    let key = PrivateKeyDer::from_pem_slice(tls.key_pem.as_bytes()).map_err(|e| format!("the status listener's key: {e}"))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder =
        rustls::ServerConfig::builder_with_provider(provider.clone()).with_safe_default_protocol_versions().map_err(|e| e.to_string())?;
    let builder = match &tls.client_ca_pem {
        None => builder.with_no_client_auth(),
        Some(ca_pem) => {
            let roots = Arc::new(roots(ca_pem).map_err(|why| format!("the client CA: {why}"))?);
            let verifier = rustls::server::WebPkiClientVerifier::builder_with_provider(roots, provider)
                .build()
                .map_err(|e| format!("the client CA: {e}"))?;
            builder.with_client_cert_verifier(verifier)
        }
    };
    let config = builder.with_single_cert(chain, key).map_err(|e| format!("the status listener's certificate and key: {e}"))?;
    Ok(Arc::new(config))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ca_must_be_a_readable_certificate() {
        let ca = rcgen::generate_simple_self_signed(vec!["am.ward3.local".to_owned()]).unwrap();
        let pem = ca.cert.pem();
        assert_eq!(roots(&pem).unwrap().len(), 1);
        assert_eq!(roots(&format!("{pem}{pem}")).unwrap().len(), 2, "a bundle");
        assert!(client_config(&pem).is_ok());
        assert!(roots("").unwrap_err().contains("no certificate"));
        assert!(roots("hello").unwrap_err().contains("no certificate"));
        let broken = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n";
        assert!(roots(broken).is_err(), "not an X.509 certificate");
    }

    #[test]
    fn the_certificate_must_name_the_configured_host() {
        assert!(server_name("am.ward3.local").is_ok());
        assert!(server_name("127.0.0.1").is_ok());
        assert!(server_name("[::1]").is_ok());
        assert!(server_name("bad host").is_err());
    }

    #[test]
    fn the_listener_needs_a_matching_certificate_and_key_and_a_readable_client_ca() {
        let made = rcgen::generate_simple_self_signed(vec!["hub.ward3.local".to_owned()]).unwrap();
        let other = rcgen::generate_simple_self_signed(vec!["other".to_owned()]).unwrap();
        let tls = ListenerTls { cert_pem: made.cert.pem(), key_pem: made.signing_key.serialize_pem(), client_ca_pem: None };
        assert!(listener_config(&tls).is_ok());
        let mutual = ListenerTls { client_ca_pem: Some(other.cert.pem()), ..tls.clone() };
        assert!(listener_config(&mutual).is_ok());
        let mismatched = ListenerTls { key_pem: other.signing_key.serialize_pem(), ..tls.clone() };
        assert!(listener_config(&mismatched).is_err(), "a key of another certificate");
        assert!(listener_config(&ListenerTls { cert_pem: "x".into(), ..tls.clone() }).unwrap_err().contains("no certificate"));
        assert!(listener_config(&ListenerTls { key_pem: "x".into(), ..tls.clone() }).is_err());
        assert!(listener_config(&ListenerTls { client_ca_pem: Some("x".into()), ..tls }).unwrap_err().contains("client CA"));
    }
}
