//! Spawn mode for `--target hub-cluster`: `nats-server` and the SurrealDB server (`dbserver`) on
//! free loopback ports, the mats provisioned on that server, hub A (the measured hub, pinned to the
//! target core like a single hub) and hub B, all but A on the generator's core; read each
//! process's CPU and `nats-server`'s counters during the window; stop everything at the end.
//! What is started with which arguments is `cluster_plan.rs`.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use tokio::process::Child;

use crate::cluster_plan::{self, NatsTraffic, ViewersOn};
use crate::cluster_report::{ClusterSample, ProcessSample};
use crate::http::{self, BaseUrl};
use crate::hub::{self, Launch, SpawnedHub};
use crate::procstat;

/// Where Debian installs `nats-server`.
pub const DEFAULT_NATS_SERVER_BIN: &str = "/usr/sbin/nats-server";
/// How long a server may take to answer after it started.
const SERVER_START: Duration = Duration::from_secs(60);

/// A server process of the cluster (killed on drop).
struct Server {
    name: &'static str,
    child: Child,
    pid: u32,
}

/// The running cluster.
pub struct SpawnedCluster {
    /// The measured hub (the mats' owner).
    pub a: SpawnedHub,
    /// The other hub.
    pub b: SpawnedHub,
    nats: Server,
    database: Server,
    nats_monitor: BaseUrl,
    /// Where the viewers watch.
    pub viewers_on: ViewersOn,
    /// Every process's data and logs.
    pub dir: PathBuf,
    _temp: Option<tempfile::TempDir>,
}

/// What to start.
pub struct ClusterSpec<'a> {
    pub hub_bin: &'a Path,
    pub dbserver_bin: &'a Path,
    pub nats_server_bin: &'a Path,
    /// Hub A's core.
    pub target_cpu: Option<usize>,
    /// The core of hub B and the servers (the generator's).
    pub side_cpu: Option<usize>,
    pub mats: usize,
    pub device_type: &'a str,
    pub viewers_on: ViewersOn,
    pub keep_data: bool,
}

/// A free loopback TCP port (bound to port 0 and released: the servers take no port 0).
fn free_port() -> Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0").context("finding a free port")?.local_addr()?.port())
}

fn spawn_server(
    name: &'static str,
    cpu: Option<usize>,
    bin: &Path,
    args: &[String],
    envs: &[(String, String)],
    log: &Path,
) -> Result<Server> {
    if !bin.is_file() {
        bail!("{name}: {} does not exist", bin.display());
    }
    let log_file = std::fs::File::create(log).with_context(|| format!("creating {}", log.display()))?;
    let child = crate::pinning::command(cpu, bin)
        .args(args)
        .envs(envs.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(Stdio::from(log_file.try_clone()?))
        .stderr(Stdio::from(log_file))
        .kill_on_drop(true)
        .spawn()
        .with_context(|| format!("starting {}", bin.display()))?;
    let pid = child.id().with_context(|| format!("{name} exited at once"))?;
    Ok(Server { name, child, pid })
}

/// Waits until `server` answers `GET path` with 200 on `base`.
async fn wait_http(server: &mut Server, base: &BaseUrl, path: &str, log: &Path) -> Result<()> {
    let deadline = tokio::time::Instant::now() + SERVER_START;
    loop {
        if let Ok(r) = http::request(base, "GET", path, None).await
            && r.status == 200
        {
            return Ok(());
        }
        if let Ok(Some(status)) = server.child.try_wait() {
            let tail = std::fs::read_to_string(log).unwrap_or_default();
            bail!(
                "{} exited ({status}) before answering {path}:\n{}",
                server.name,
                tail.lines().rev().take(20).collect::<Vec<_>>().join("\n")
            );
        }
        if tokio::time::Instant::now() > deadline {
            bail!("{} did not answer {path} within {} s (log {})", server.name, SERVER_START.as_secs(), log.display());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Starts the cluster and provisions the mats; returns once both hubs listen.
pub async fn spawn(spec: ClusterSpec<'_>) -> Result<SpawnedCluster> {
    let temp = tempfile::Builder::new().prefix("hub-cluster-load-").tempdir().context("creating a temporary directory")?;
    let dir = temp.path().to_path_buf();

    let (nats_port, monitor_port) = (free_port()?, free_port()?);
    let nats_log = dir.join("nats.log");
    let mut nats = spawn_server(
        "nats-server",
        spec.side_cpu,
        spec.nats_server_bin,
        &cluster_plan::nats_args(nats_port, monitor_port, &dir.join("jetstream")),
        &[],
        &nats_log,
    )?;
    let nats_monitor = BaseUrl::parse(&format!("http://127.0.0.1:{monitor_port}"))?;
    wait_http(&mut nats, &nats_monitor, "/healthz", &nats_log).await?;
    let nats_url = format!("nats://127.0.0.1:{nats_port}");

    let password = format!("load-{}-{}", std::process::id(), crate::latency::unix_us());
    let db_port = free_port()?;
    let db_log = dir.join("dbserver.log");
    let mut database = spawn_server(
        "dbserver",
        spec.side_cpu,
        spec.dbserver_bin,
        &cluster_plan::dbserver_args(db_port, &dir.join("surrealkv")),
        &[("SURREAL_USER".to_owned(), cluster_plan::DATABASE_USER.to_owned()), ("SURREAL_PASS".to_owned(), password.clone())],
        &db_log,
    )?;
    wait_http(&mut database, &BaseUrl::parse(&format!("http://127.0.0.1:{db_port}"))?, "/health", &db_log).await?;
    let database_url = format!("ws://127.0.0.1:{db_port}");
    let env = cluster_plan::hub_env(&password);

    let (dir_a, dir_b) = (dir.join(cluster_plan::NODE_A), dir.join(cluster_plan::NODE_B));
    for d in [&dir_a, &dir_b] {
        std::fs::create_dir_all(d).with_context(|| format!("creating {}", d.display()))?;
    }
    let on_database = Launch { args: vec!["--database".into(), database_url.clone()], envs: env.clone() };
    let devices_file = hub::provision(spec.hub_bin, &dir_a, spec.mats, spec.device_type, &on_database).await?;
    let a = hub::start_hub(
        spec.hub_bin,
        spec.target_cpu,
        &dir_a,
        devices_file.clone(),
        Launch { args: cluster_plan::hub_a_args(&nats_url, &database_url), envs: env.clone() },
    )
    .await
    .context("starting hub A")?;
    let b = hub::start_hub(
        spec.hub_bin,
        spec.side_cpu,
        &dir_b,
        devices_file,
        Launch { args: cluster_plan::hub_b_args(&nats_url, &database_url), envs: env },
    )
    .await
    .context("starting hub B")?;
    let temp = if spec.keep_data {
        let _ = temp.keep();
        None
    } else {
        Some(temp)
    };
    Ok(SpawnedCluster { a, b, nats, database, nats_monitor, viewers_on: spec.viewers_on, dir, _temp: temp })
}

impl SpawnedCluster {
    /// The hub the viewers' sockets reach.
    pub fn viewers_hub(&self) -> &SpawnedHub {
        match self.viewers_on {
            ViewersOn::A => &self.a,
            ViewersOn::B => &self.b,
        }
    }

    /// The CPU ticks of every process beside hub A, and `nats-server`'s counters, now.
    pub async fn sample(&self) -> ClusterSample {
        let ticks = |pid: u32| procstat::sample(pid).ok().map(|s| s.ticks);
        let processes = vec![
            ProcessSample { name: cluster_plan::NODE_B, pid: self.b.pid, ticks: ticks(self.b.pid) },
            ProcessSample { name: self.nats.name, pid: self.nats.pid, ticks: ticks(self.nats.pid) },
            ProcessSample { name: self.database.name, pid: self.database.pid, ticks: ticks(self.database.pid) },
        ];
        ClusterSample { processes, nats: self.nats_traffic().await }
    }

    async fn nats_traffic(&self) -> Option<NatsTraffic> {
        match http::request(&self.nats_monitor, "GET", "/varz", None).await {
            Ok(r) if r.status == 200 => cluster_plan::parse_varz(&String::from_utf8_lossy(&r.body)).map_err(|e| tracing::warn!("{e}")).ok(),
            Ok(r) => {
                tracing::warn!(status = r.status, "nats-server /varz failed");
                None
            }
            Err(e) => {
                tracing::warn!("nats-server /varz: {e:#}");
                None
            }
        }
    }

    /// Stops the hubs (B, then A), then the database server and `nats-server`.
    pub async fn stop(self) -> Result<()> {
        let SpawnedCluster { a, b, mut nats, mut database, .. } = self;
        let stopped_b = b.stop().await.context("stopping hub B");
        let stopped_a = a.stop().await.context("stopping hub A");
        for server in [&mut database, &mut nats] {
            let _ = server.child.start_kill();
            let _ = tokio::time::timeout(Duration::from_secs(10), server.child.wait()).await;
        }
        stopped_b.and(stopped_a)
    }
}
