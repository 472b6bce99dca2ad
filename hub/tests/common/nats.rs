//! Debian's `nats-server` as a child process on loopback with JetStream, its files in a
//! temporary directory; stopped, killed and started again on the same port and files, as the
//! cluster's tests need (issue 25). Included by path where another package's tests need it.
#![allow(clippy::unwrap_used, dead_code)] // A test's helpers may unwrap: the panic is the failure it reports.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Where Debian installs the server (`apt-get install nats-server`: /usr/sbin); `NATS_SERVER_BIN`
/// overrides.
pub fn nats_server_bin() -> PathBuf {
    if let Some(bin) = std::env::var_os("NATS_SERVER_BIN") {
        return PathBuf::from(bin);
    }
    ["/usr/sbin/nats-server", "/usr/bin/nats-server"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
        .unwrap_or_else(|| PathBuf::from("/usr/sbin/nats-server"))
}

/// How long a start may take before the test fails.
const START_LIMIT: Duration = Duration::from_secs(30);

/// A `nats-server -js` on 127.0.0.1; killed on drop.
pub struct NatsServer {
    child: Option<Child>,
    pub port: u16,
    dir: tempfile::TempDir,
}

impl NatsServer {
    /// A server with JetStream on a free loopback port and an empty store.
    pub async fn start() -> NatsServer {
        let mut server = NatsServer { child: None, port: 0, dir: tempfile::tempdir().unwrap() };
        server.port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        server.spawn().await;
        server
    }

    /// `nats://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    /// Kills the server (SIGKILL) and waits for it to be gone.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts it again on the same port and JetStream files.
    pub async fn restart(&mut self) {
        self.kill();
        self.spawn().await;
    }

    async fn spawn(&mut self) {
        let bin = nats_server_bin();
        assert!(bin.exists(), "{} is missing: apt-get install -y nats-server (scripts/test-all.sh installs it)", bin.display());
        let started = Instant::now();
        loop {
            let child = Command::new(&bin)
                .args(["-a", "127.0.0.1", "-p", &self.port.to_string(), "-js", "-sd"])
                .arg(self.dir.path().join("jetstream"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            self.child = Some(child);
            loop {
                if tokio::net::TcpStream::connect(("127.0.0.1", self.port)).await.is_ok() {
                    return;
                }
                if self.child.as_mut().unwrap().try_wait().unwrap().is_some() {
                    break; // the port was not free yet: try again
                }
                assert!(started.elapsed() < START_LIMIT, "nats-server did not listen within {START_LIMIT:?}");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            assert!(started.elapsed() < START_LIMIT, "nats-server kept exiting at start");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

impl Drop for NatsServer {
    fn drop(&mut self) {
        self.kill();
    }
}
