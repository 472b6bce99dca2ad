//! The QUIC server certificate: the configured PEM pair, or a self-signed one for `localhost`
//! and the loopback addresses, generated on first start and kept in `DATA/tls`.

use std::path::{Path, PathBuf};

use anyhow::Context;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// A certificate chain, its key, and the PEM file devices can trust.
pub struct ServerIdentity {
    pub chain: Vec<CertificateDer<'static>>,
    pub key: PrivateKeyDer<'static>,
    /// The certificate as PEM, for simulators and devices to pin.
    pub cert_path: PathBuf,
}

/// Loads the configured pair, or loads or creates the self-signed one in `data/tls`.
pub fn load_or_create(data: &Path, cert: Option<&Path>, key: Option<&Path>) -> anyhow::Result<ServerIdentity> {
    let (cert_path, key_path) = match (cert, key) {
        (Some(c), Some(k)) => (c.to_path_buf(), k.to_path_buf()),
        _ => {
            let dir = data.join("tls");
            let (c, k) = (dir.join("cert.pem"), dir.join("key.pem"));
            if !c.exists() || !k.exists() {
                std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
                let names = vec!["localhost".to_owned(), "127.0.0.1".to_owned(), "::1".to_owned()];
                let certified = rcgen::generate_simple_self_signed(names).context("generating a self-signed certificate")?;
                std::fs::write(&c, certified.cert.pem()).with_context(|| format!("writing {}", c.display()))?;
                write_private(&k, certified.signing_key.serialize_pem().as_bytes())?;
                tracing::info!(cert = %c.display(), "generated a self-signed QUIC certificate");
            }
            (c, k)
        }
    };
    let chain = CertificateDer::pem_file_iter(&cert_path)
        .with_context(|| format!("reading {}", cert_path.display()))?
        .collect::<Result<Vec<_>, _>>()
        .with_context(|| format!("parsing {}", cert_path.display()))?;
    let key = PrivateKeyDer::from_pem_file(&key_path).with_context(|| format!("reading {}", key_path.display()))?;
    Ok(ServerIdentity { chain, key, cert_path })
}

fn write_private(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path).with_context(|| format!("creating {}", path.display()))?;
    file.write_all(bytes).with_context(|| format!("writing {}", path.display()))
}
