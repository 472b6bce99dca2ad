//! `hub --database wss://…` with a private certificate authority (`HUB_DATABASE_CA`, issue 25):
//! the project's SurrealDB server serves TLS with a certificate our own authority signed
//! (`--web-crt`/`--web-key`, SurrealDB's own options); a store that trusts the authority's PEM
//! connects, signs in and writes; one that trusts only the default roots is refused.
#![allow(clippy::unwrap_used)]

mod support;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::{DBSERVER_BIN, DbServer, ROOT_PASS, ROOT_USER, free_port};

/// A certificate authority and a `localhost` server certificate it signed, as PEM files in `dir`:
/// (authority, server certificate, server key).
fn private_authority(dir: &std::path::Path) -> (std::path::PathBuf, std::path::PathBuf, std::path::PathBuf) {
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca_params.distinguished_name.push(rcgen::DnType::CommonName, "Hospital private CA");
    let ca_cert = ca_params.self_signed(&ca_key).unwrap();
    let server_key = rcgen::KeyPair::generate().unwrap();
    let server_cert = rcgen::CertificateParams::new(vec!["localhost".to_owned()])
        .unwrap()
        .signed_by(&server_key, &rcgen::Issuer::from_params(&ca_params, &ca_key))
        .unwrap();
    let paths = (dir.join("ca.pem"), dir.join("server.pem"), dir.join("server.key"));
    std::fs::write(&paths.0, ca_cert.pem()).unwrap();
    std::fs::write(&paths.1, server_cert.pem()).unwrap();
    std::fs::write(&paths.2, server_key.serialize_pem()).unwrap();
    paths
}

#[tokio::test]
#[ignore = "unfinished (issue 25 item 5): against the TLS dbserver the test neither connects nor fails — it ran 20 min, and again over 3 min with each connect bounded by a 10 s timeout, so something blocks the runtime thread; see docs/scale-out.md"]
async fn a_store_trusting_the_private_authority_reaches_the_tls_server() {
    let dir = tempfile::tempdir().unwrap();
    let (ca, cert, key) = private_authority(dir.path());
    let port = free_port();
    let mut server = Command::new(DBSERVER_BIN)
        .args(["start", "--bind", &format!("127.0.0.1:{port}"), "--log", "warn", "--no-banner"])
        .arg("--web-crt")
        .arg(&cert)
        .arg("--web-key")
        .arg(&key)
        .arg("memory")
        .env("SURREAL_USER", ROOT_USER)
        .env("SURREAL_PASS", ROOT_PASS)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let url = format!("wss://localhost:{port}");
    let credentials = DbServer::credentials();

    let started = Instant::now();
    let store = loop {
        // Each attempt bounded: a handshake that never completes is a failure, not a hang.
        let attempt = tokio::time::timeout(Duration::from_secs(10), storage::Store::connect_trusting(&url, Some(&credentials), Some(&ca)))
            .await
            .unwrap_or_else(|_| Err(storage::StoreError::Unavailable("no answer within 10 s".into())));
        match attempt {
            Ok(store) => break store,
            Err(error) => {
                assert!(server.try_wait().unwrap().is_none(), "dbserver exited: {error}");
                assert!(started.elapsed() < Duration::from_secs(60), "no TLS connection within a minute: {error}");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    };
    let company = store.hub_wide().companies().create("Clinic TLS", "").await.unwrap();
    assert!(store.company(&company).profile().get().await.is_ok(), "written and read over wss://");

    // The default roots do not know the hospital's authority.
    let untrusted = tokio::time::timeout(Duration::from_secs(20), storage::Store::connect(&url, Some(&credentials))).await;
    assert!(matches!(untrusted, Ok(Err(_))), "a server signed by an unknown authority was trusted");
    let _ = server.kill();
    let _ = server.wait();
}
