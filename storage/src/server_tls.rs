//! TLS to a SurrealDB server (`hub --database wss://…`, issue 25): the rustls client
//! configuration storage hands the `surrealdb` crate for every `wss://` URL.
//!
//! With a private certificate authority (`HUB_DATABASE_CA`) its PEM certificates are the only
//! roots the connection trusts; without one, the public web roots (`webpki-roots`, the list the
//! crate's WebSocket client would take itself). Always with ring, named here: the workspace
//! compiles both ring (the hub's TLS) and aws-lc-rs (`surrealdb-server`) into rustls, so rustls
//! cannot choose a process-wide provider by itself, and the WebSocket client's own default
//! configuration panics ("Could not automatically determine the process-level CryptoProvider")
//! in any process that did not install one — a library must not depend on that.

use std::path::Path;
use std::sync::Arc;

use rustls::RootCertStore;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;

use crate::StoreError;

/// The TLS configuration for opening `url`: `Some` for a TLS server (`wss://`, `https://`),
/// `None` for a plain or embedded one. A certificate authority given for a URL without TLS is
/// refused: the operator believes the database traffic is encrypted, and it would not be.
pub fn config_for(url: &str, ca: Option<&Path>) -> Result<Option<rustls::ClientConfig>, StoreError> {
    if is_tls(url) {
        return client_config(ca).map(Some);
    }
    match ca {
        Some(ca) => Err(StoreError::Open(
            url.to_owned(),
            format!("HUB_DATABASE_CA ({}) is set, but the database URL is not wss://: the connection would not be encrypted", ca.display()),
        )),
        None => Ok(None),
    }
}

/// Whether `url` names a server reached over TLS.
pub fn is_tls(url: &str) -> bool {
    url.starts_with("wss://") || url.starts_with("https://")
}

/// A client configuration that trusts the certificates of the PEM file `ca` and nothing else, or
/// the public web roots without one.
pub fn client_config(ca: Option<&Path>) -> Result<rustls::ClientConfig, StoreError> {
    let roots = match ca {
        Some(ca) => private_roots(ca)?,
        None => RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() },
    };
    rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .map_err(|e| StoreError::Open("wss://".into(), format!("TLS configuration: {e}")))
        .map(|builder| builder.with_root_certificates(roots).with_no_client_auth())
}

/// The certificates of the PEM file at `ca` as the only roots.
fn private_roots(ca: &Path) -> Result<RootCertStore, StoreError> {
    let unusable = |why: String| StoreError::Open(ca.display().to_string(), format!("HUB_DATABASE_CA: {why}"));
    let certificates = CertificateDer::pem_file_iter(ca)
        .map_err(|e| unusable(e.to_string()))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| unusable(e.to_string()))?;
    if certificates.is_empty() {
        return Err(unusable("the file holds no PEM certificate".into()));
    }
    let mut roots = RootCertStore::empty();
    for certificate in certificates {
        roots.add(certificate).map_err(|e| unusable(e.to_string()))?;
    }
    Ok(roots)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_without_a_certificate_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("ca.pem");
        std::fs::write(&empty, "not a certificate\n").unwrap();
        let error = client_config(Some(&empty)).unwrap_err().to_string();
        assert!(error.contains("HUB_DATABASE_CA") && error.contains("no PEM certificate"), "{error}");
        assert!(client_config(Some(&dir.path().join("missing.pem"))).is_err());
    }

    #[test]
    fn every_tls_url_gets_a_configuration_and_no_other_does() {
        assert!(config_for("wss://db.example:8000", None).unwrap().is_some(), "wss:// without a CA: the public roots");
        assert!(config_for("ws://127.0.0.1:8000", None).unwrap().is_none());
        assert!(config_for("surrealkv:///var/lib/hub/db", None).unwrap().is_none());
    }

    #[test]
    fn an_authority_for_a_plain_url_is_refused_not_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let ca = dir.path().join("ca.pem");
        for url in ["ws://127.0.0.1:8000", "surrealkv:///var/lib/hub/db"] {
            let error = config_for(url, Some(&ca)).unwrap_err().to_string();
            assert!(error.contains("HUB_DATABASE_CA") && error.contains("not wss://"), "{url}: {error}");
        }
    }

    /// The regression of issue 25: without a CA the WebSocket client built its own rustls
    /// configuration and panicked, as this test process installs no default provider. Now the
    /// handshake runs (against a listener that hangs up) and ends in an error.
    #[tokio::test]
    async fn wss_without_an_authority_fails_by_error_not_by_panic() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                drop(socket);
            }
        });
        let opened =
            tokio::time::timeout(std::time::Duration::from_secs(20), crate::Store::connect(&format!("wss://127.0.0.1:{port}"), None)).await;
        assert!(matches!(opened, Ok(Err(StoreError::Open(..)))), "{opened:?}");
    }
}
