//! MLLP over TLS to an alarm manager (PCD-04): a company's manager with `tls` on is reached
//! through rustls (the workspace's 0.23 with ring, as QUIC and HTTPS use it) and tokio-rustls,
//! trusting only the certificate authority its administrators pasted (`caPem`): a hospital's
//! alarm manager carries a certificate of the hospital's own CA far more often than a public
//! one, and trusting the system's public roots would let any publicly certified host stand in
//! for it (docs/decisions.md). The manager's certificate must name the configured host.

use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
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
}
