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
    /// A server with JetStream on a loopback port of its own choosing (`-p -1`, the port read
    /// from its log) and an empty store. Not a port found free beforehand: between that check and
    /// the server's start another test's server could take it, and this test would then talk to
    /// that server (seen: a test reading another test's leases).
    pub async fn start() -> NatsServer {
        let dir = tempfile::tempdir().unwrap();
        let mut child = Command::new(nats_server_bin())
            .args(["-a", "127.0.0.1", "-p", "-1", "-js", "-sd"])
            .arg(dir.path().join("jetstream"))
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let log = child.stderr.take().unwrap();
        let (port_tx, port_rx) = std::sync::mpsc::channel();
        // Reads the log for the port, then drains it so the server never blocks on a full pipe.
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(log).lines().map_while(Result::ok) {
                if let Some(at) = line.find("Listening for client connections on ")
                    && let Some(port) = line[at..].rsplit(':').next().and_then(|p| p.trim().parse::<u16>().ok())
                {
                    let _ = port_tx.send(port);
                }
            }
        });
        let port = tokio::task::spawn_blocking(move || port_rx.recv_timeout(START_LIMIT))
            .await
            .unwrap()
            .unwrap_or_else(|_| panic!("nats-server did not say its port within {START_LIMIT:?}"));
        NatsServer { child: Some(child), port, dir }
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

    /// Starts it again on the same port and JetStream files (a restart must keep its address).
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
                    // Someone listens; ours, unless it exits for want of the port (taken meanwhile).
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    if self.child.as_mut().unwrap().try_wait().unwrap().is_none() {
                        return;
                    }
                    break;
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
