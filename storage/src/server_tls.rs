//! TLS to a SurrealDB server with a private certificate authority (`hub --database wss://…` with
//! `HUB_DATABASE_CA`, issue 25): the authority's PEM certificates become the only roots the
//! connection trusts (rustls with ring, as the hub's other TLS). Without a CA file, `wss://` uses
//! the `surrealdb` crate's default roots.

use std::path::Path;
use std::sync::Arc;

use rustls::RootCertStore;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;

use crate::StoreError;

/// A client configuration that trusts the certificates of the PEM file at `ca` and nothing else.
pub fn client_config(ca: &Path) -> Result<rustls::ClientConfig, StoreError> {
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
    rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .map_err(|e| unusable(e.to_string()))
        .map(|builder| builder.with_root_certificates(roots).with_no_client_auth())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_without_a_certificate_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("ca.pem");
        std::fs::write(&empty, "not a certificate\n").unwrap();
        let error = client_config(&empty).unwrap_err().to_string();
        assert!(error.contains("HUB_DATABASE_CA") && error.contains("no PEM certificate"), "{error}");
        assert!(client_config(&dir.path().join("missing.pem")).is_err());
    }
}
