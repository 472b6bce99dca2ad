//! The project's SurrealDB server (`dbserver`) as a child process on loopback, hubs started in
//! this process against it, and a small HTTP client for their REST API.
#![allow(clippy::unwrap_used, dead_code)] // A test's helpers may unwrap: the panic is the failure it reports.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use hub::app::RunningHub;
use hub::config::ServeConfig;
use storage::{Credentials, Store};

#[path = "../../../hub/tests/common/http.rs"]
mod http;
#[path = "../../../hub/tests/common/loopback_config.rs"]
mod loopback_config;
#[allow(unused_imports)] // `Response`: the cluster test's shared load names it.
pub use http::{Response, request, try_request};

/// The server binary Cargo built for these tests.
pub const DBSERVER_BIN: &str = env!("CARGO_BIN_EXE_dbserver");
pub const ROOT_USER: &str = "root";
pub const ROOT_PASS: &str = "root-secret-for-tests";
pub const PASSWORD: &str = "secret-password";

/// How long a server start may take before the test fails.
const START_LIMIT: Duration = Duration::from_secs(60);

/// A `dbserver start` on 127.0.0.1, SurrealKV files in a temporary directory; killed on drop.
pub struct DbServer {
    /// The server binary this one runs.
    bin: PathBuf,
    child: Option<Child>,
    pub port: u16,
    data: PathBuf,
    _dir: Option<tempfile::TempDir>,
}

/// A free loopback port: bound to port 0 and released (the server's `--bind` takes no port 0).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

impl DbServer {
    /// A server on a fresh, empty store.
    pub async fn start() -> DbServer {
        DbServer::start_bin(Path::new(DBSERVER_BIN)).await
    }

    /// [`DbServer::start`] of the server binary `bin` (e.g. a release build).
    pub async fn start_bin(bin: &Path) -> DbServer {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("surrealkv");
        let mut server = DbServer { bin: bin.to_owned(), child: None, port: free_port(), data, _dir: Some(dir) };
        server.spawn().await;
        server
    }

    pub fn url(&self) -> String {
        format!("ws://127.0.0.1:{}", self.port)
    }

    pub fn credentials() -> Credentials {
        Credentials { user: ROOT_USER.into(), pass: ROOT_PASS.into() }
    }

    /// Starts the process on this server's port and data, and waits until it answers `/health`.
    async fn spawn(&mut self) {
        let started = Instant::now();
        loop {
            let child = spawn_server(&self.bin, self.port, &self.data);
            self.child = Some(child);
            loop {
                if let Ok(response) = try_request(SocketAddr::from(([127, 0, 0, 1], self.port)), "GET", "/health", None, None).await
                    && response.status == 200
                {
                    return;
                }
                let exited = self.child.as_mut().unwrap().try_wait().unwrap();
                if exited.is_some() {
                    break; // the port was not free yet (a killed server's socket): try again
                }
                assert!(started.elapsed() < START_LIMIT, "dbserver did not answer /health within {START_LIMIT:?}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            assert!(started.elapsed() < START_LIMIT, "dbserver kept exiting at start");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// Kills the server (SIGKILL: no goodbye to its clients).
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts it again on the same port and data.
    pub async fn restart(&mut self) {
        self.kill();
        self.spawn().await;
    }

    /// A store of this server, as a hub opens it.
    pub async fn store(&self) -> Store {
        Store::connect(&self.url(), Some(&DbServer::credentials())).await.unwrap()
    }
}

impl Drop for DbServer {
    fn drop(&mut self) {
        self.kill();
    }
}

fn spawn_server(bin: &Path, port: u16, data: &Path) -> Child {
    Command::new(bin)
        .args(["start", "--bind", &format!("127.0.0.1:{port}"), "--log", "warn", "--no-banner"])
        .arg(format!("surrealkv://{}", data.display()))
        .env("SURREAL_USER", ROOT_USER)
        .env("SURREAL_PASS", ROOT_PASS)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap()
}

/// A hub's configuration on this server (no simulators, ports chosen by the system).
pub fn hub_config(data: &Path, database: &str) -> ServeConfig {
    ServeConfig {
        database: Some(database.to_owned()),
        database_credentials: Some(DbServer::credentials()),
        ..loopback_config::config(data)
    }
}

/// A hub started in this process on `database`, with its own data directory.
pub struct Hub {
    pub hub: RunningHub,
    _data: tempfile::TempDir,
}

impl Hub {
    pub async fn start(database: &str) -> anyhow::Result<Hub> {
        let data = tempfile::tempdir()?;
        let hub = hub::app::start(hub_config(data.path(), database)).await?;
        Ok(Hub { hub, _data: data })
    }

    pub fn http(&self) -> SocketAddr {
        self.hub.http_addr
    }

    pub async fn stop(self) {
        self.hub.shutdown().await;
    }
}

/// A company with an administrator, stored through `store`; returns the administrator's e-mail.
pub async fn seed_admin(store: &Store, tag: &str) -> String {
    let company = store.hub_wide().companies().create(&format!("Clinic {tag}"), "").await.unwrap();
    let email = format!("admin-{}@example.com", tag.to_lowercase());
    store.hub_wide().accounts().create(&email, PASSWORD, hub::auth::roles::ROLE_ADMIN, &company).await.unwrap();
    email
}

/// Signs in and returns the bearer token.
pub async fn login(addr: SocketAddr, email: &str) -> String {
    let body = serde_json::json!({ "email": email, "password": PASSWORD }).to_string();
    let response = request(addr, "POST", "/api/auth/login", None, Some(&body)).await;
    assert_eq!(response.status, 200, "login failed: {}", response.body);
    response.json::<serde_json::Value>()["token"].as_str().unwrap().to_owned()
}
