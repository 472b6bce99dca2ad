//! A real cluster on loopback, every part its own process: `nats-server` (JetStream), the
//! SurrealDB server (`dbserver`), three hub processes sharing both (`--database ws://…
//! --nats … --node …`, each welcome listing every hub), and HAProxy in front of their HTTP
//! listeners with the configuration `scripts/cluster/haproxy.sh` generates (its one owner).
#![allow(clippy::unwrap_used, dead_code)] // A test's helpers may unwrap: the panic is the failure it reports.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::hub_process::HubProcess;
use crate::nats::NatsServer;
use crate::support::{DbServer, ROOT_PASS, ROOT_USER, free_port, try_request};

/// The hubs' names, in the order they start (hub-a makes the certificate the others share).
pub const NODES: [&str; 3] = ["hub-a", "hub-b", "hub-c"];
/// Where Debian installs HAProxy; `HAPROXY_BIN` overrides.
const HAPROXY_BIN: &str = "/usr/sbin/haproxy";
/// How long HAProxy may take to find every hub up.
const HAPROXY_LIMIT: Duration = Duration::from_secs(30);

/// The hub binary: `CLUSTER_HUB_BIN`, or the one Cargo built beside `dbserver` (`cargo test
/// --workspace` builds both; alone, `cargo build -p hub` first).
pub fn hub_bin() -> PathBuf {
    if let Some(bin) = std::env::var_os("CLUSTER_HUB_BIN") {
        return PathBuf::from(bin);
    }
    let beside = Path::new(crate::support::DBSERVER_BIN).with_file_name("hub");
    assert!(beside.exists(), "{} is missing: build the hub first (cargo build -p hub), or set CLUSTER_HUB_BIN", beside.display());
    beside
}

/// The database server binary: `CLUSTER_DBSERVER_BIN` (e.g. a release build), or the one Cargo
/// built for this test.
pub fn dbserver_bin() -> PathBuf {
    std::env::var_os("CLUSTER_DBSERVER_BIN").map_or_else(|| PathBuf::from(crate::support::DBSERVER_BIN), PathBuf::from)
}

/// A free loopback UDP port (bound to port 0 and released).
pub fn free_udp_port() -> u16 {
    std::net::UdpSocket::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The database's credentials, as the hubs read them.
fn database_env() -> [(&'static str, &'static str); 2] {
    [("HUB_DATABASE_USER", ROOT_USER), ("HUB_DATABASE_PASS", ROOT_PASS)]
}

/// `hub provision` on the server: `count` Mattress Mat IoT devices in the demo company (created
/// with its accounts); returns the devices file.
pub fn provision(bin: &Path, data: &Path, database: &str, count: usize) -> PathBuf {
    let file = data.join("devices.json");
    let output = Command::new(bin)
        .arg("--data")
        .arg(data)
        .args(["--database", database, "provision", "--count", &count.to_string(), "--device-type", "Mattress Mat IoT", "--out"])
        .arg(&file)
        .envs(database_env())
        .output()
        .expect("hub provision runs");
    assert!(output.status.success(), "hub provision failed: {}", String::from_utf8_lossy(&output.stderr));
    file
}

/// HAProxy's configuration for `hubs`, from `scripts/cluster/haproxy.sh`.
pub fn haproxy_config(listen: SocketAddr, stats: SocketAddr, hubs: &[SocketAddr]) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/cluster/haproxy.sh");
    let output = Command::new("bash")
        .arg(&script)
        .arg(listen.to_string())
        .arg(stats.to_string())
        .args(hubs.iter().map(SocketAddr::to_string))
        .output()
        .expect("bash runs the HAProxy script");
    assert!(output.status.success(), "{} failed: {}", script.display(), String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

/// The running cluster; every process is killed on drop.
pub struct Cluster {
    pub db: DbServer,
    pub nats: NatsServer,
    /// hub-a, hub-b, hub-c.
    pub hubs: Vec<HubProcess>,
    /// The browsers' one address (HAProxy).
    pub browsers: SocketAddr,
    /// HAProxy's statistics page.
    pub stats: SocketAddr,
    haproxy: Child,
    /// The devices `provision` registered.
    pub devices_file: PathBuf,
    /// The certificate every hub presents.
    pub cert: PathBuf,
    pub dir: tempfile::TempDir,
}

impl Cluster {
    /// Starts the servers (the database server from `db_bin`), provisions `mats` devices, starts
    /// the hubs (`bin`) with `hub_args` added (e.g. the absence delay) and HAProxy, and returns
    /// once HAProxy finds every hub up.
    pub async fn start(bin: &Path, db_bin: &Path, mats: usize, hub_args: &[&str]) -> Cluster {
        let dir = tempfile::tempdir().unwrap();
        let db = DbServer::start_bin(db_bin).await;
        let nats = NatsServer::start().await;
        let data: Vec<PathBuf> = NODES.iter().map(|node| dir.path().join(node)).collect();
        for path in &data {
            std::fs::create_dir_all(path).unwrap();
        }
        let devices_file = provision(bin, &data[0], &db.url(), mats);
        let loopback = |port: u16| SocketAddr::from(([127, 0, 0, 1], port));
        let http: Vec<SocketAddr> = NODES.iter().map(|_| loopback(free_port())).collect();
        let quic: Vec<SocketAddr> = NODES.iter().map(|_| loopback(free_udp_port())).collect();
        let mut env: Vec<(&str, String)> = database_env().iter().map(|(k, v)| (*k, (*v).to_owned())).collect();
        if let Ok(filter) = std::env::var("CLUSTER_HUB_LOG") {
            env.push(("HUB_LOG", filter));
        }
        let mut hubs: Vec<HubProcess> = Vec::new();
        let mut cert = PathBuf::new();
        for (k, node) in NODES.iter().enumerate() {
            let mut args: Vec<String> = vec!["--database".into(), db.url(), "--nats".into(), nats.url(), "--node".into(), (*node).into()];
            args.extend(["--advertise-quic".into(), quic[k].to_string()]);
            for (j, peer) in quic.iter().enumerate() {
                if j != k {
                    args.extend(["--peer-quic".into(), peer.to_string()]);
                }
            }
            if k > 0 {
                let key = cert.with_file_name("key.pem");
                args.extend(["--tls-cert".into(), cert.display().to_string(), "--tls-key".into(), key.display().to_string()]);
            }
            args.extend(hub_args.iter().map(|a| (*a).to_owned()));
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
            let hub = HubProcess::start_at(bin, &data[k], (http[k], quic[k]), &args, &env);
            if k == 0 {
                cert = hub.listening.cert.clone();
            }
            hubs.push(hub);
        }
        let (browsers, stats) = (loopback(free_port()), loopback(free_port()));
        let config = dir.path().join("haproxy.cfg");
        std::fs::write(&config, haproxy_config(browsers, stats, &http)).unwrap();
        let haproxy_bin = std::env::var_os("HAPROXY_BIN").map(PathBuf::from).unwrap_or_else(|| PathBuf::from(HAPROXY_BIN));
        assert!(haproxy_bin.exists(), "{} is missing: apt-get install -y haproxy (scripts/test-all.sh installs it)", haproxy_bin.display());
        let haproxy = Command::new(haproxy_bin)
            .arg("-db")
            .arg("-f")
            .arg(&config)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("haproxy starts");
        let cluster = Cluster { db, nats, hubs, browsers, stats, haproxy, devices_file, cert, dir };
        cluster.wait_for_haproxy(NODES.len()).await;
        cluster
    }

    /// Waits until HAProxy's statistics show `up` hubs UP.
    pub async fn wait_for_haproxy(&self, up: usize) {
        let deadline = Instant::now() + HAPROXY_LIMIT;
        loop {
            if let Ok(stats) = try_request(self.stats, "GET", "/;csv", None, None).await
                && stats.body.lines().filter(|l| l.starts_with("hubs,hub-") && l.split(',').nth(17) == Some("UP")).count() == up
            {
                return;
            }
            assert!(Instant::now() < deadline, "HAProxy did not find {up} hubs up within {HAPROXY_LIMIT:?}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Each hub's HTTP address.
    pub fn http(&self) -> Vec<SocketAddr> {
        self.hubs.iter().map(|h| h.listening.http).collect()
    }

    /// Each hub's QUIC address.
    pub fn quic(&self) -> Vec<SocketAddr> {
        self.hubs.iter().map(|h| h.listening.quic).collect()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = self.haproxy.kill();
        let _ = self.haproxy.wait();
    }
}
