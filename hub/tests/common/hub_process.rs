//! The real hub binary as a child process: provisioned, started, killed with SIGKILL, paused with
//! SIGSTOP and started again on the same data. A restarted hub listens on the addresses its first
//! start was given by the system (port 0), or those it was given, so devices and browsers find it
//! where they left it, as they would a hub restarted on its configured ports. The hub's own tests
//! reach it as `common::process` (with the binary Cargo built for them); another package's tests
//! include this file by path and pass the binary's path.
#![allow(clippy::unwrap_used, dead_code)] // A test's helpers may unwrap: the panic is the failure it reports.

use std::fs::OpenOptions;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How many times a start is tried before giving up (a killed hub's store lock or port may
/// outlive it for a moment).
const START_ATTEMPTS: usize = 100;
/// Pause between two attempts.
const START_RETRY: Duration = Duration::from_millis(200);

/// Where a hub listens: its first stdout line `listening http=URL quic=ADDR cert=PATH`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listening {
    pub http: SocketAddr,
    pub quic: SocketAddr,
    pub cert: PathBuf,
}

/// Reads the `listening …` line; `None` for any other line.
pub fn parse_listening(line: &str) -> Option<Listening> {
    let rest = line.trim().strip_prefix("listening ")?;
    let field = |name: &str| rest.split_whitespace().find_map(|part| part.strip_prefix(name)?.strip_prefix('='));
    Some(Listening {
        http: field("http")?.strip_prefix("http://")?.parse().ok()?,
        quic: field("quic")?.parse().ok()?,
        cert: PathBuf::from(field("cert")?),
    })
}

/// `hub provision`: `count` Mattress Mat IoT devices in the demo company of `data` (the demo
/// accounts are created too); returns the devices file (serials, secrets, ids).
pub fn provision(bin: &Path, data: &Path, count: usize) -> PathBuf {
    let file = data.join("devices.json");
    let output = Command::new(bin)
        .arg("--data")
        .arg(data)
        .args(["provision", "--count", &count.to_string(), "--device-type", "Mattress Mat IoT", "--out"])
        .arg(&file)
        .output()
        .expect("hub provision runs");
    assert!(output.status.success(), "hub provision failed: {}", String::from_utf8_lossy(&output.stderr));
    file
}

/// A hub process on a data directory.
pub struct HubProcess {
    bin: PathBuf,
    data: PathBuf,
    extra_args: Vec<String>,
    envs: Vec<(String, String)>,
    child: Option<Child>,
    /// Where it listens (the same after every restart).
    pub listening: Listening,
}

impl HubProcess {
    /// Starts the hub on `data` with ephemeral loopback ports and `extra_args`.
    pub fn start(bin: &Path, data: &Path, extra_args: &[&str]) -> HubProcess {
        let loopback = "127.0.0.1:0".parse().unwrap();
        HubProcess::start_at(bin, data, (loopback, loopback), extra_args, &[])
    }

    /// Starts the hub on `data` listening on `(http, quic)` (port 0: chosen by the system), with
    /// `extra_args` and the environment variables `envs` (a cluster's hubs: their peers'
    /// addresses are known before they start, the database's credentials are in the environment).
    pub fn start_at(
        bin: &Path,
        data: &Path,
        (http, quic): (SocketAddr, SocketAddr),
        extra_args: &[&str],
        envs: &[(&str, &str)],
    ) -> HubProcess {
        let mut hub = HubProcess {
            bin: bin.to_path_buf(),
            data: data.to_path_buf(),
            extra_args: extra_args.iter().map(|a| (*a).to_owned()).collect(),
            envs: envs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect(),
            child: None,
            listening: Listening { http, quic, cert: PathBuf::new() },
        };
        hub.spawn_until_listening();
        hub
    }

    /// SIGSTOP: the process stops where it is, sockets open, as a hub frozen by its machine (a
    /// long pause of the runtime, a VM suspended). [`Self::resume`] wakes it.
    pub fn pause(&self) {
        signal(self.pid(), "-STOP");
    }

    /// SIGCONT: a paused hub goes on from where it stopped.
    pub fn resume(&self) {
        signal(self.pid(), "-CONT");
    }

    /// The hub's stderr log so far (`DATA/hub.stderr.log`).
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.data.join("hub.stderr.log")).unwrap_or_default()
    }

    /// The process id of the running hub.
    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("a running hub").id()
    }

    /// SIGKILL: no shutdown, no flush. Waits for the process to be gone.
    pub fn kill_9(&mut self) {
        let mut child = self.child.take().expect("a running hub");
        child.kill().expect("SIGKILL is delivered");
        let status = child.wait().expect("the hub exits");
        assert!(!status.success(), "killed, not shut down: {status}");
    }

    /// Starts the hub again on the same data and addresses, retrying while the killed hub's
    /// store lock or port lingers; returns when the first attempt was spawned.
    pub fn restart(&mut self) -> Instant {
        assert!(self.child.is_none(), "kill the hub first");
        let began = Instant::now();
        self.spawn_until_listening();
        began
    }

    fn spawn_until_listening(&mut self) {
        let log_path = self.data.join("hub.stderr.log");
        for _ in 0..START_ATTEMPTS {
            let log = OpenOptions::new().create(true).append(true).open(&log_path).expect("the hub's log file");
            let mut child = Command::new(&self.bin)
                .arg("--data")
                .arg(&self.data)
                .arg("--http")
                .arg(self.listening.http.to_string())
                .arg("--quic")
                .arg(self.listening.quic.to_string())
                .arg("--client-dir")
                .arg(self.data.join("no-client"))
                .args(&self.extra_args)
                // Warnings only, unless the test's environment names another filter.
                .env("HUB_LOG", "warn")
                .envs(self.envs.iter().map(|(k, v)| (k, v)))
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::from(log))
                .spawn()
                .expect("the hub binary starts");
            let stdout = child.stdout.take().expect("piped stdout");
            let mut lines = BufReader::new(stdout);
            let mut line = String::new();
            let _ = lines.read_line(&mut line);
            if let Some(listening) = parse_listening(&line) {
                // Keep reading so the hub never writes into a closed pipe.
                std::thread::spawn(move || std::io::copy(&mut lines, &mut std::io::sink()));
                self.listening = listening;
                self.child = Some(child);
                return;
            }
            let _ = child.kill();
            let _ = child.wait();
            std::thread::sleep(START_RETRY);
        }
        let log = std::fs::read_to_string(&log_path).unwrap_or_default();
        panic!("the hub did not start on {}; its log ends with:\n{}", self.data.display(), tail(&log, 20));
    }
}

impl Drop for HubProcess {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Sends `kill SIGNAL pid` to a process this test started.
fn signal(pid: u32, signal: &str) {
    let sent = Command::new("kill").arg(signal).arg(pid.to_string()).status().expect("kill runs");
    assert!(sent.success(), "kill {signal} {pid} failed");
}

fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// A gauge or counter of the hub's `/metrics` text.
pub fn metric(text: &str, name: &str) -> Option<f64> {
    text.lines().find_map(|line| line.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
}
