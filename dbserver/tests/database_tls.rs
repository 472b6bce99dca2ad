//! `hub --database wss://…` with a private certificate authority (`HUB_DATABASE_CA`, issue 25):
//! the project's SurrealDB server serves TLS with a certificate our own authority signed
//! (`--web-crt`/`--web-key`, SurrealDB's own options). A store and a hub that trust the
//! authority's PEM connect, sign in, write and read; one that trusts the public roots, another
//! authority, or speaks plain `ws://` to it is refused with an error.
//!
//! Bounded: every connection attempt has [`ATTEMPT_LIMIT`], the server's start [`START_LIMIT`],
//! and the server process is killed when the test ends, panicking or not, its output going to a
//! file (an earlier version let a failed test's server live on, holding the runner's output pipe
//! open: the run looked hung for 20 minutes although the test had failed in 3 seconds).
#![allow(clippy::unwrap_used)]

mod support;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use storage::{Store, StoreError};
use support::{DBSERVER_BIN, DbServer, ROOT_PASS, ROOT_USER, free_port, hub_config, login, seed_admin};

/// How long one connection attempt (TCP, TLS, WebSocket, sign-in, schema) may take.
const ATTEMPT_LIMIT: Duration = Duration::from_secs(15);
/// How long the server may take to accept its first TLS connection.
const START_LIMIT: Duration = Duration::from_secs(60);

/// A certificate authority named `name` and a `localhost` server certificate it signed, as PEM
/// files in `dir`: (authority, server certificate, server key).
fn authority(dir: &Path, name: &str) -> (PathBuf, PathBuf, PathBuf) {
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca_params.distinguished_name.push(rcgen::DnType::CommonName, format!("{name} private CA"));
    let ca_cert = ca_params.self_signed(&ca_key).unwrap();
    let server_key = rcgen::KeyPair::generate().unwrap();
    let server_cert = rcgen::CertificateParams::new(vec!["localhost".to_owned()])
        .unwrap()
        .signed_by(&server_key, &rcgen::Issuer::from_params(&ca_params, &ca_key))
        .unwrap();
    let paths = (dir.join(format!("{name}-ca.pem")), dir.join(format!("{name}-server.pem")), dir.join(format!("{name}-server.key")));
    std::fs::write(&paths.0, ca_cert.pem()).unwrap();
    std::fs::write(&paths.1, server_cert.pem()).unwrap();
    std::fs::write(&paths.2, server_key.serialize_pem()).unwrap();
    paths
}

/// `dbserver start` serving TLS on 127.0.0.1 with the hospital's certificate (in-memory store),
/// its output in a file of the temporary directory; killed on drop.
struct TlsDbServer {
    child: Child,
    port: u16,
    log: PathBuf,
    /// The hospital's authority, which signed the server's certificate.
    ca: PathBuf,
    dir: tempfile::TempDir,
}

impl TlsDbServer {
    fn start() -> TlsDbServer {
        let dir = tempfile::tempdir().unwrap();
        let (ca, cert, key) = authority(dir.path(), "hospital");
        let port = free_port();
        let log = dir.path().join("dbserver.log");
        let child = Command::new(DBSERVER_BIN)
            .args(["start", "--bind", &format!("127.0.0.1:{port}"), "--log", "info", "--no-banner"])
            .arg("--web-crt")
            .arg(&cert)
            .arg("--web-key")
            .arg(&key)
            .arg("memory")
            .env("SURREAL_USER", ROOT_USER)
            .env("SURREAL_PASS", ROOT_PASS)
            .stdin(Stdio::null())
            .stdout(Stdio::from(std::fs::File::create(&log).unwrap()))
            .stderr(Stdio::from(std::fs::File::options().append(true).open(&log).unwrap()))
            .spawn()
            .unwrap();
        TlsDbServer { child, port, log, ca, dir }
    }

    fn url(&self) -> String {
        format!("wss://localhost:{}", self.port)
    }

    /// The server's output so far, for a failure message.
    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// A store trusting the hospital's authority, once the server accepts it (within
    /// [`START_LIMIT`]; the server may not listen yet).
    async fn trusted_store(&mut self) -> Store {
        let started = Instant::now();
        loop {
            match bounded(Store::connect_trusting(&self.url(), Some(&DbServer::credentials()), Some(&self.ca))).await {
                Ok(store) => return store,
                Err(error) => {
                    assert!(self.child.try_wait().unwrap().is_none(), "dbserver exited: {error}\n{}", self.log());
                    assert!(started.elapsed() < START_LIMIT, "no TLS connection within {START_LIMIT:?}: {error}\n{}", self.log());
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        }
    }
}

impl Drop for TlsDbServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `connect` within [`ATTEMPT_LIMIT`]: a handshake that never completes is a failure, not a hang.
async fn bounded(connect: impl Future<Output = Result<Store, StoreError>>) -> Result<Store, StoreError> {
    tokio::time::timeout(ATTEMPT_LIMIT, connect)
        .await
        .unwrap_or_else(|_| Err(StoreError::Unavailable(format!("no answer within {ATTEMPT_LIMIT:?}"))))
}

#[tokio::test]
async fn a_store_and_a_hub_trusting_the_private_authority_reach_the_tls_server() {
    let mut server = TlsDbServer::start();
    let store = server.trusted_store().await;
    let company = store.hub_wide().companies().create("Clinic TLS", "").await.unwrap();
    assert!(store.company(&company).profile().get().await.is_ok(), "written and read over wss://");

    // The hub opens the same database as `hub --database wss://… ` with HUB_DATABASE_CA does,
    // and serves what the store wrote: an administrator seeded over TLS signs in through it.
    let data = tempfile::tempdir().unwrap();
    let config = hub::config::ServeConfig { database_ca: Some(server.ca.clone()), ..hub_config(data.path(), &server.url()) };
    let hub = tokio::time::timeout(START_LIMIT, hub::app::start(config)).await.expect("the hub did not start within a minute").unwrap();
    let email = seed_admin(&store, "Tls").await;
    login(hub.http_addr, &email).await;
    hub.shutdown().await;
}

#[tokio::test]
async fn without_the_authority_the_tls_server_is_refused_with_an_error() {
    let mut server = TlsDbServer::start();
    server.trusted_store().await; // it serves TLS: each refusal below is the client's, not a dead server
    let credentials = DbServer::credentials();

    // The public roots do not know the hospital's authority.
    let public_roots = bounded(Store::connect(&server.url(), Some(&credentials))).await.unwrap_err().to_string();
    assert!(public_roots.contains("certificate"), "the public roots: {public_roots}");

    // Nor does another authority.
    let (other_ca, _, _) = authority(server.dir.path(), "other");
    let other = bounded(Store::connect_trusting(&server.url(), Some(&credentials), Some(&other_ca))).await.unwrap_err().to_string();
    assert!(other.contains("certificate"), "another authority: {other}");

    // A plain WebSocket client gets no answer it can use from a TLS server.
    let plain_url = format!("ws://localhost:{}", server.port);
    let plain = bounded(Store::connect(&plain_url, Some(&credentials))).await.unwrap_err();
    assert!(matches!(plain, StoreError::Open(..)), "plain ws:// to the TLS server: {plain}");

    // The hub with another authority does not start.
    let data = tempfile::tempdir().unwrap();
    let config = hub::config::ServeConfig { database_ca: Some(other_ca), ..hub_config(data.path(), &server.url()) };
    let refused =
        tokio::time::timeout(START_LIMIT, hub::app::start(config)).await.expect("the hub neither started nor failed within a minute");
    let error = format!("{:#}", refused.err().expect("a hub trusting another authority started"));
    assert!(error.contains("certificate"), "the hub with another authority: {error}");
}
