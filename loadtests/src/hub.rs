//! Spawn mode: provision devices into a fresh data directory, start the hub on ephemeral ports,
//! read where it listens, and stop it at the end.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};

/// Where a started hub listens: its stdout line `listening http=URL quic=ADDR cert=PEMPATH`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listening {
    /// Base URL of the REST API and sockets, e.g. `http://127.0.0.1:41234`.
    pub http: String,
    /// QUIC address for devices.
    pub quic: SocketAddr,
    /// The hub's self-signed certificate (PEM).
    pub cert: PathBuf,
}

/// Parses the hub's `listening …` line; `None` for any other line.
pub fn parse_listening(line: &str) -> Option<Listening> {
    let rest = line.trim().strip_prefix("listening ")?;
    let (mut http, mut quic, mut cert) = (None, None, None);
    for field in rest.split_whitespace() {
        match field.split_once('=') {
            Some(("http", v)) => http = Some(v.to_owned()),
            Some(("quic", v)) => quic = v.parse().ok(),
            Some(("cert", v)) => cert = Some(PathBuf::from(v)),
            _ => {}
        }
    }
    Some(Listening { http: http?, quic: quic?, cert: cert? })
}

/// How a hub is started besides its data directory and addresses: its arguments and environment.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Launch {
    /// Arguments after `--data DIR --http ADDR --quic ADDR`.
    pub args: Vec<String>,
    /// Environment variables (a cluster hub's database credentials).
    pub envs: Vec<(String, String)>,
}

impl Launch {
    /// A single hub: demo mode (the demo company and accounts) without its own simulators.
    pub fn single() -> Launch {
        Launch { args: vec!["--demo".into(), "--no-simulators".into()], envs: Vec::new() }
    }
}

/// A hub this program started.
pub struct SpawnedHub {
    child: Child,
    hub_bin: PathBuf,
    cpu: Option<usize>,
    launch: Launch,
    /// Its process id (a new one after [`SpawnedHub::restart`]).
    pub pid: u32,
    /// Where it listens.
    pub listening: Listening,
    /// The provisioned devices.
    pub devices_file: PathBuf,
    /// The data directory (deleted on drop unless kept).
    pub data_dir: PathBuf,
    _temp: Option<tempfile::TempDir>,
}

/// How long a debug hub may take to open its database and bind.
const START_TIMEOUT: Duration = Duration::from_secs(90);

/// Provisions `count` devices of `device_type` and starts the hub in demo mode without its own
/// simulators, on ephemeral loopback ports, pinned to `cpu` when given (`taskset -c CPU hub …`,
/// which execs the hub: the pid is the hub's).
pub async fn spawn(hub_bin: &Path, cpu: Option<usize>, count: usize, device_type: &str, keep_data: bool) -> Result<SpawnedHub> {
    let temp = tempfile::Builder::new().prefix("hub-load-").tempdir().context("creating a temporary data directory")?;
    let data_dir = temp.path().to_path_buf();
    let devices_file = provision(hub_bin, &data_dir, count, device_type, &Launch::default()).await?;
    let mut hub = start_hub(hub_bin, cpu, &data_dir, devices_file, Launch::single()).await?;
    hub._temp = if keep_data {
        let _ = temp.keep();
        None
    } else {
        Some(temp)
    };
    Ok(hub)
}

/// `hub provision`: `count` devices of `device_type` in the demo company (created with its
/// accounts) of `data_dir`, or of the database `launch` names; returns the devices file.
pub async fn provision(hub_bin: &Path, data_dir: &Path, count: usize, device_type: &str, launch: &Launch) -> Result<PathBuf> {
    if !hub_bin.is_file() {
        bail!("hub binary {} does not exist (build it with `cargo build -p hub`)", hub_bin.display());
    }
    let devices_file = data_dir.join("devices.json");
    let provision = Command::new(hub_bin)
        .arg("provision")
        .arg("--data")
        .arg(data_dir)
        .args(&launch.args)
        .args(["--count", &count.to_string(), "--device-type", device_type, "--prefix", "LOAD", "--out"])
        .arg(&devices_file)
        .envs(launch.envs.iter().map(|(k, v)| (k, v)))
        .kill_on_drop(true)
        .output()
        .await
        .with_context(|| format!("running {} provision", hub_bin.display()))?;
    if !provision.status.success() {
        bail!(
            "`hub provision` failed ({}):\n{}{}",
            provision.status,
            String::from_utf8_lossy(&provision.stdout),
            String::from_utf8_lossy(&provision.stderr)
        );
    }
    Ok(devices_file)
}

/// Starts a hub on `data_dir` (kept by the caller) with `launch`, on ephemeral loopback ports,
/// pinned to `cpu` when given; returns once it printed where it listens.
pub async fn start_hub(hub_bin: &Path, cpu: Option<usize>, data_dir: &Path, devices_file: PathBuf, launch: Launch) -> Result<SpawnedHub> {
    let (child, pid, listening) = start(hub_bin, cpu, data_dir, "127.0.0.1:0", "127.0.0.1:0", &launch).await?;
    Ok(SpawnedHub {
        child,
        hub_bin: hub_bin.to_path_buf(),
        cpu,
        launch,
        pid,
        listening,
        devices_file,
        data_dir: data_dir.to_path_buf(),
        _temp: None,
    })
}

/// Starts the hub with `launch` on `data_dir`, listening on `http` and `quic` (`127.0.0.1:0` for
/// ephemeral ports); returns once it printed where it listens.
async fn start(
    hub_bin: &Path,
    cpu: Option<usize>,
    data_dir: &Path,
    http: &str,
    quic: &str,
    launch: &Launch,
) -> Result<(Child, u32, Listening)> {
    let log_path = data_dir.join("hub.log");
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log_path)
        .with_context(|| format!("creating {}", log_path.display()))?;
    let mut child = crate::pinning::command(cpu, hub_bin)
        .arg("--data")
        .arg(data_dir)
        .args(["--http", http, "--quic", quic])
        .args(&launch.args)
        .envs(launch.envs.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::from(log))
        .kill_on_drop(true)
        .spawn()
        .with_context(|| format!("starting {}", hub_bin.display()))?;
    let pid = child.id().context("the hub exited at once")?;
    let stdout = child.stdout.take().context("no hub stdout")?;
    let mut lines = BufReader::new(stdout).lines();
    let find = async {
        while let Some(line) = lines.next_line().await? {
            if let Some(listening) = parse_listening(&line) {
                return Ok(Some(listening));
            }
        }
        Ok::<_, std::io::Error>(None)
    };
    let why = match tokio::time::timeout(START_TIMEOUT, find).await {
        Ok(Ok(Some(listening))) => Ok(listening),
        Err(_) => Err(format!("no `listening` line within {} s", START_TIMEOUT.as_secs())),
        Ok(Err(e)) => Err(format!("reading its stdout: {e}")),
        Ok(Ok(None)) => Err("it exited before printing `listening http=… quic=… cert=…`".to_owned()),
    };
    let listening = match why {
        Ok(listening) => listening,
        Err(why) => {
            let _ = child.start_kill();
            let log = std::fs::read_to_string(&log_path).unwrap_or_default();
            let tail: Vec<&str> = log.lines().rev().take(30).collect::<Vec<_>>().into_iter().rev().collect();
            bail!("the hub did not start: {why}\n--- {} (last lines) ---\n{}", log_path.display(), tail.join("\n"));
        }
    };
    // Keep draining stdout into a file so the hub never blocks on a full pipe.
    let stdout_log = data_dir.join("hub.stdout.log");
    tokio::spawn(async move {
        let Ok(mut file) = tokio::fs::OpenOptions::new().create(true).append(true).open(&stdout_log).await else { return };
        while let Ok(Some(line)) = lines.next_line().await {
            let _ = file.write_all(line.as_bytes()).await;
            let _ = file.write_all(b"\n").await;
        }
    });
    Ok((child, pid, listening))
}

/// How [`SpawnedHub::restart`] ends the running hub.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Ending {
    /// SIGKILL: no shutdown, connections left open (the devices learn of it from a stateless
    /// reset or their idle timeout).
    Kill,
    /// SIGTERM: the hub closes its connections and stops.
    Term,
}

/// How many times a restart is tried while the ended hub's store lock or ports linger.
const RESTART_ATTEMPTS: usize = 100;
/// Pause between two restart attempts.
const RESTART_RETRY: Duration = Duration::from_millis(200);

impl SpawnedHub {
    /// Ends the hub (`ending`), waits for the process to be gone, and starts it again on the same
    /// data directory, addresses and core; returns once the new process printed where it listens.
    pub async fn restart(&mut self, ending: Ending) -> Result<()> {
        match ending {
            Ending::Kill => self.child.start_kill().context("killing the hub")?,
            Ending::Term => {
                let _ = Command::new("kill").args(["-TERM", &self.pid.to_string()]).status().await;
            }
        }
        match tokio::time::timeout(Duration::from_secs(30), self.child.wait()).await {
            Ok(status) => {
                status.context("waiting for the hub to exit")?;
            }
            Err(_) => bail!("the hub did not exit within 30 s of SIGTERM"),
        }
        let (http, quic) = (self.listening.http.trim_start_matches("http://").to_owned(), self.listening.quic.to_string());
        let mut last = None;
        for _ in 0..RESTART_ATTEMPTS {
            match start(&self.hub_bin, self.cpu, &self.data_dir, &http, &quic, &self.launch).await {
                Ok((child, pid, listening)) => {
                    (self.child, self.pid, self.listening) = (child, pid, listening);
                    return Ok(());
                }
                Err(e) => last = Some(e),
            }
            tokio::time::sleep(RESTART_RETRY).await;
        }
        Err(last.unwrap_or_else(|| anyhow::anyhow!("no restart attempt")).context(format!("restarting the hub {RESTART_ATTEMPTS} times")))
    }

    /// Asks the hub to stop (SIGTERM), then kills it if it has not exited within 10 s.
    pub async fn stop(mut self) -> Result<()> {
        if let Ok(Some(_)) = self.child.try_wait() {
            return Ok(());
        }
        let _ = Command::new("kill").args(["-TERM", &self.pid.to_string()]).status().await;
        match tokio::time::timeout(Duration::from_secs(10), self.child.wait()).await {
            Ok(_) => Ok(()),
            Err(_) => {
                self.child.kill().await.context("killing the hub")?;
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_listening_line() {
        let line = "listening http=http://127.0.0.1:41234 quic=127.0.0.1:45678 cert=/tmp/x/tls/cert.pem\n";
        let l = parse_listening(line).expect("parsed");
        assert_eq!(l.http, "http://127.0.0.1:41234");
        assert_eq!(l.quic, "127.0.0.1:45678".parse().expect("addr"));
        assert_eq!(l.cert, PathBuf::from("/tmp/x/tls/cert.pem"));
        assert_eq!(parse_listening("demo: open http://…"), None);
        assert_eq!(parse_listening("listening http=http://x quic=nonsense cert=/c"), None);
    }
}
