//! Command-line and environment configuration.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

/// Real-time hub for pressure-sensing mats.
#[derive(Debug, Parser)]
#[command(name = "hub", version, about)]
pub struct Cli {
    /// How the log on stderr is written: `text`, a readable line per event, or `json`, one JSON
    /// object per line (timestamp, level, target, message and fields) for a log collector. What
    /// is logged is HUB_LOG's filter (`info` by default).
    #[arg(long, env = "HUB_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text, global = true)]
    pub log_format: LogFormat,
    #[command(flatten)]
    pub serve: ServeConfig,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The log's format on stderr (`--log-format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// One readable line per event.
    Text,
    /// One JSON object per line.
    Json,
}

/// How the server runs.
#[derive(Debug, Clone, Args)]
pub struct ServeConfig {
    /// Seed the demo company and users and start simulated devices over QUIC on loopback.
    #[arg(long, env = "HUB_DEMO", global = true)]
    pub demo: bool,
    /// In demo mode, seed but start no simulated devices (load tests bring their own).
    #[arg(long, env = "HUB_NO_SIMULATORS", global = true)]
    pub no_simulators: bool,
    /// Directory of the embedded database (SurrealKV) and the TLS certificate.
    #[arg(long, env = "HUB_DATA", default_value = "./data", global = true)]
    pub data: PathBuf,
    /// Database URL instead of the embedded store in --data: `ws://HOST:PORT` or `wss://HOST:PORT`
    /// for a SurrealDB server several hubs share (root user from HUB_DATABASE_USER and
    /// HUB_DATABASE_PASS, never the command line), or mem:// for tests.
    #[arg(long, env = "HUB_DATABASE", global = true)]
    pub database: Option<String>,
    /// The SurrealDB server's root user: read from HUB_DATABASE_USER / HUB_DATABASE_PASS by the
    /// binary (`storage::Credentials::from_env`), never an argument.
    #[arg(skip)]
    pub database_credentials: Option<storage::Credentials>,
    /// PEM file of the private certificate authority a `wss://` database server's certificate is
    /// checked against (instead of the default roots).
    #[arg(long, env = "HUB_DATABASE_CA", global = true)]
    pub database_ca: Option<PathBuf>,
    /// HTTP address: REST API, browser WebSocket /ws, device WebSocket /ingest, client files.
    /// Plain HTTP is served only on a loopback address unless --https or --allow-plain-http.
    #[arg(long, env = "HUB_HTTP", default_value = "127.0.0.1:8080", global = true)]
    pub http: SocketAddr,
    /// Serve HTTPS (and wss:// sockets) on --http with the QUIC certificate (--tls-cert/--tls-key,
    /// or the self-signed one in DATA/tls).
    #[arg(long, env = "HUB_HTTPS", global = true)]
    pub https: bool,
    /// Allow plain HTTP on a non-loopback address (behind a TLS-terminating proxy on the same
    /// trusted network, for example). Without it the hub refuses to start there.
    #[arg(long, env = "HUB_ALLOW_PLAIN_HTTP", global = true)]
    pub allow_plain_http: bool,
    /// QUIC address for devices (UDP).
    #[arg(long, env = "HUB_QUIC", default_value = "127.0.0.1:4433", global = true)]
    pub quic: SocketAddr,
    /// Directory of the built client (index.html, assets, local/{lng}/translation.json).
    #[arg(long, env = "HUB_CLIENT_DIR", default_value = "client/dist", global = true)]
    pub client_dir: PathBuf,
    /// PEM certificate for QUIC and HTTPS; a self-signed one is made in DATA/tls on first start if unset.
    #[arg(long, env = "HUB_TLS_CERT", requires = "tls_key", global = true)]
    pub tls_cert: Option<PathBuf>,
    /// PEM private key matching --tls-cert.
    #[arg(long, env = "HUB_TLS_KEY", requires = "tls_cert", global = true)]
    pub tls_key: Option<PathBuf>,
    /// Seconds of absence after which a patient is Missing.
    #[arg(long, env = "HUB_ABSENCE_DELAY", default_value_t = 30, global = true)]
    pub absence_delay_secs: u64,
    /// DEMO AND TESTS ONLY: run the repositioning clock this many times faster than real time
    /// (60: a 15-minute interval is due after 15 s), so a browser tour can watch an Ulcer Risk
    /// alarm. The API still takes intervals of 15–1440 minutes. 1 (the default) is real time.
    #[arg(long, env = "HUB_DEMO_REPOSITIONING_TIME_SCALE", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=3600), global = true)]
    pub demo_repositioning_time_scale: u32,
    /// DEMO AND TESTS ONLY: Bed 101-A's simulated patient starts getting out of bed this many
    /// seconds after the hub starts (then keeps the demo's eight-minute cycle), instead of at the
    /// point its serial sets (about six minutes in), so a browser tour that needs the empty bed
    /// does not wait for it. Unset (the default): the serial's point.
    #[arg(long = "demo-bed-leaves-after", env = "HUB_DEMO_BED_LEAVES_AFTER", value_name = "SECONDS", global = true)]
    pub demo_bed_leaves_after_secs: Option<u64>,
    /// The hub-wide default alarm manager (IHE PCD-04 over MLLP), `mllp://HOST:PORT`, or
    /// `mllps://HOST:PORT` for MLLP over TLS (with --alarm-manager-ca): every company without an
    /// alarm manager of its own sends its alarms there.
    #[arg(long, env = "HUB_ALARM_MANAGER", global = true)]
    pub alarm_manager: Option<crate::alarm_manager::Destination>,
    /// PEM file of the certificate authority the default alarm manager's certificate must chain
    /// to (a bundle allowed); required with `mllps://`, refused with `mllp://`. No system roots.
    #[arg(long, env = "HUB_ALARM_MANAGER_CA", global = true)]
    pub alarm_manager_ca: Option<PathBuf>,
    /// Seconds between an unattended alarm's `continue` reports to the alarm manager (IHE PCD-04
    /// event phase); 0 sends none.
    #[arg(long, env = "HUB_ALARM_CONTINUE_SECS", default_value_t = 120, global = true)]
    pub alarm_continue_secs: u64,
    /// Where the hub listens for alarm managers' status reports (IHE PCD-05, `ORA^R41` over
    /// MLLP: delivered, read, accepted by a nurse, escalated), `HOST:PORT`; off when unset.
    #[arg(long, env = "HUB_ALARM_STATUS_LISTEN", global = true)]
    pub alarm_status_listen: Option<SocketAddr>,
    /// PEM certificate (chain) of the status listener: with --alarm-status-tls-key, the listener
    /// speaks MLLP over TLS only.
    #[arg(long, env = "HUB_ALARM_STATUS_TLS_CERT", requires_all = ["alarm_status_tls_key", "alarm_status_listen"], global = true)]
    pub alarm_status_tls_cert: Option<PathBuf>,
    /// PEM private key of --alarm-status-tls-cert.
    #[arg(long, env = "HUB_ALARM_STATUS_TLS_KEY", requires = "alarm_status_tls_cert", global = true)]
    pub alarm_status_tls_key: Option<PathBuf>,
    /// PEM file of the certificate authority managers' client certificates must chain to: the
    /// status listener then accepts only managers presenting one (mutual TLS, as IHE ATNA's node
    /// authentication asks).
    #[arg(long, env = "HUB_ALARM_STATUS_CLIENT_CA", requires = "alarm_status_tls_cert", global = true)]
    pub alarm_status_client_ca: Option<PathBuf>,
    /// Hours a login token stays valid.
    #[arg(long, env = "HUB_TOKEN_HOURS", default_value_t = 12, global = true)]
    pub token_hours: u64,
    /// Join a cluster of hubs through this NATS server, `nats://HOST:PORT` (issue 25,
    /// docs/scale-out.md); with --node. Unset: a single hub, no NATS.
    #[arg(long, env = "HUB_NATS", requires = "node", global = true)]
    pub nats: Option<String>,
    /// This hub's name in the cluster (letters, digits, `-` and `_`, at most 32): unique among
    /// the hubs sharing a NATS server; it names the hub in device leases and NATS subjects.
    #[arg(long, env = "HUB_NODE", requires = "nats", value_parser = crate::cluster::NodeName::parse, global = true)]
    pub node: Option<crate::cluster::NodeName>,
    /// The other hubs a device is told about in its welcome.
    #[command(flatten)]
    pub peers: PeerConfig,
    /// Backups of the embedded database.
    #[command(flatten)]
    pub backup: BackupConfig,
}

/// Backups of the embedded database (`crate::backup`): written by the running hub, each a
/// consistent snapshot, restored with `hub restore`. A database server several hubs share is
/// backed up on the server instead.
#[derive(Debug, Clone, Args)]
pub struct BackupConfig {
    /// Directory the hub writes its backups into (created, readable by the hub's user only): one
    /// when it starts, then one every --backup-every-hours; the newest --backup-keep are kept.
    /// Unset: no backups.
    #[arg(long = "backup-dir", env = "HUB_BACKUP_DIR", global = true)]
    pub dir: Option<PathBuf>,
    /// Hours between two backups.
    #[arg(long = "backup-every-hours", env = "HUB_BACKUP_EVERY_HOURS", default_value_t = 24, value_parser = clap::value_parser!(u32).range(1..=168), global = true)]
    pub every_hours: u32,
    /// How many backups to keep (older ones are deleted after a new one is written).
    #[arg(long = "backup-keep", env = "HUB_BACKUP_KEEP", default_value_t = 7, value_parser = clap::value_parser!(u32).range(1..=365), global = true)]
    pub keep: u32,
}

impl Default for BackupConfig {
    fn default() -> Self {
        BackupConfig { dir: None, every_hours: 24, keep: 7 }
    }
}

/// The cluster's hubs as devices reach them over QUIC: this hub's own address and its peers',
/// listed in every welcome so a device whose hub dies tries the others (docs/device-protocol.md).
/// A static list; the ingest reads it only through [`crate::ingest::hub_addresses::HubAddresses`],
/// which a discovery on NATS can later keep current instead.
#[derive(Debug, Clone, Default, Args)]
pub struct PeerConfig {
    /// QUIC address (HOST:PORT) of another hub of the cluster, as devices reach it; repeat the
    /// flag, or list them comma-separated in HUB_PEERS_QUIC.
    #[arg(long = "peer-quic", env = "HUB_PEERS_QUIC", value_delimiter = ',', global = true)]
    pub peer_quic: Vec<String>,
    /// The QUIC address (HOST:PORT) devices reach this hub at, when --quic listens on every
    /// interface (0.0.0.0 or [::]) or behind NAT; by default the bound --quic address.
    #[arg(long, env = "HUB_ADVERTISE_QUIC", global = true)]
    pub advertise_quic: Option<String>,
}

impl PeerConfig {
    /// The hub list of the welcome: this hub first (its advertised address, or the bound one
    /// unless that is the unspecified address no device can dial), then its peers, each once.
    pub fn hub_addresses(&self, bound_quic: SocketAddr) -> Vec<String> {
        let own = match &self.advertise_quic {
            Some(advertised) => Some(advertised.trim().to_owned()),
            None => (!bound_quic.ip().is_unspecified()).then(|| bound_quic.to_string()),
        };
        let mut hubs: Vec<String> = Vec::new();
        for address in own.into_iter().chain(self.peer_quic.iter().map(|peer| peer.trim().to_owned())) {
            if !address.is_empty() && !hubs.contains(&address) {
                hubs.push(address);
            }
        }
        // Alone, a hub has nothing to tell: the welcome stays as it was before clusters.
        if hubs.len() < 2 { Vec::new() } else { hubs }
    }
}

impl ServeConfig {
    /// The database URL to open.
    pub fn database_url(&self) -> String {
        self.database.clone().unwrap_or_else(|| format!("surrealkv://{}", self.data.join("db").display()))
    }

    /// `--backup-dir` backs up the embedded database only: a database server several hubs share
    /// is backed up on the server.
    pub fn check_backup(&self) -> anyhow::Result<()> {
        if self.backup.dir.is_some() && self.database_is_server() {
            anyhow::bail!(
                "--backup-dir backs up the embedded database; a database server several hubs share is backed up on the server (`surreal export`)"
            );
        }
        Ok(())
    }

    /// Whether the database is a SurrealDB server (shared with other hubs) rather than embedded.
    pub fn database_is_server(&self) -> bool {
        self.database.as_deref().is_some_and(storage::is_server)
    }

    /// The absence delay.
    pub fn absence_delay(&self) -> Duration {
        Duration::from_secs(self.absence_delay_secs)
    }

    /// How the HTTP listener serves, or why it must not start.
    pub fn http_scheme(&self) -> Result<HttpScheme, PlainHttpRefused> {
        http_scheme(self.http, self.https, self.allow_plain_http)
    }
}

/// How the HTTP listener serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HttpScheme {
    Http,
    Https,
}

impl HttpScheme {
    /// `http` or `https`, for URLs.
    pub fn as_str(self) -> &'static str {
        match self {
            HttpScheme::Http => "http",
            HttpScheme::Https => "https",
        }
    }
}

/// Plain HTTP asked for on an address other machines can reach.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "refusing to serve plain HTTP on {0}: tokens and device secrets would cross the network in clear. \
     Use --https (HUB_HTTPS=1) to serve HTTPS with the hub's certificate, listen on a loopback address, \
     or pass --allow-plain-http (HUB_ALLOW_PLAIN_HTTP=1) if a TLS proxy on a trusted network fronts the hub"
)]
pub struct PlainHttpRefused(pub SocketAddr);

/// The rule: HTTPS when asked; plain HTTP on loopback; plain HTTP elsewhere only when explicitly
/// allowed.
pub fn http_scheme(addr: SocketAddr, https: bool, allow_plain_http: bool) -> Result<HttpScheme, PlainHttpRefused> {
    if https {
        Ok(HttpScheme::Https)
    } else if addr.ip().is_loopback() || allow_plain_http {
        Ok(HttpScheme::Http)
    } else {
        Err(PlainHttpRefused(addr))
    }
}

/// Maintenance commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Register N devices in the demo company and write their serials and one-time secrets to a
    /// JSON file (for the simulator and load tests). Run it while the hub is stopped.
    Provision(ProvisionArgs),
    /// Create an administrator (role 1) for a real deployment, and its company if needed. Run it
    /// while the hub is stopped.
    CreateAdmin(CreateAdminArgs),
    /// Restore a backup (`--backup-dir`) into the embedded database of --data, which must hold
    /// none yet (move the old DATA/db aside first). Run it while the hub is stopped.
    Restore(RestoreArgs),
}

/// Arguments of `hub restore`.
#[derive(Debug, Clone, Args)]
pub struct RestoreArgs {
    /// The backup file (`hub-backup-….surql`).
    #[arg(long)]
    pub from: PathBuf,
}

/// Arguments of `hub create-admin`.
#[derive(Debug, Clone, Args)]
pub struct CreateAdminArgs {
    /// The administrator's e-mail.
    #[arg(long)]
    pub email: String,
    /// The password (at least 6 characters); prefer the environment variable, which does not
    /// show in the process list.
    #[arg(long, env = "HUB_ADMIN_PASSWORD", hide_env_values = true)]
    pub password: String,
    /// The company's name; created if it does not exist.
    #[arg(long)]
    pub company: String,
}

/// Arguments of `hub provision`.
#[derive(Debug, Args)]
pub struct ProvisionArgs {
    /// How many devices.
    #[arg(long, default_value_t = 10)]
    pub count: usize,
    /// Their type, spelled as in spec §3.
    #[arg(long, default_value = "Mattress Mat IoT")]
    pub device_type: String,
    /// Serial prefix; serials are PREFIX-00001, PREFIX-00002, …
    #[arg(long, default_value = "LOAD")]
    pub prefix: String,
    /// Where to write the JSON list of {serial, secret, deviceType, rows, cols, deviceId}.
    #[arg(long)]
    pub out: PathBuf,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_http_only_on_loopback_unless_allowed() {
        let addr = |s: &str| s.parse::<SocketAddr>().unwrap();
        for loopback in ["127.0.0.1:8080", "127.0.0.2:0", "[::1]:8080"] {
            assert_eq!(http_scheme(addr(loopback), false, false), Ok(HttpScheme::Http), "{loopback}");
        }
        for reachable in ["0.0.0.0:8080", "192.168.1.20:8080", "[::]:8080"] {
            assert_eq!(http_scheme(addr(reachable), false, false), Err(PlainHttpRefused(addr(reachable))), "{reachable}");
            assert_eq!(http_scheme(addr(reachable), false, true), Ok(HttpScheme::Http), "{reachable} allowed");
            assert_eq!(http_scheme(addr(reachable), true, false), Ok(HttpScheme::Https), "{reachable} over TLS");
        }
        assert_eq!(http_scheme(addr("127.0.0.1:0"), true, false), Ok(HttpScheme::Https));
        let message = PlainHttpRefused(addr("0.0.0.0:8080")).to_string();
        assert!(message.contains("0.0.0.0:8080") && message.contains("--https") && message.contains("--allow-plain-http"), "{message}");
    }

    #[test]
    fn the_flags_parse_from_the_command_line() {
        let cli = Cli::try_parse_from(["hub", "--http", "0.0.0.0:8443", "--https"]).unwrap();
        assert_eq!(cli.serve.http_scheme(), Ok(HttpScheme::Https));
        let cli = Cli::try_parse_from(["hub", "--http", "0.0.0.0:8080"]).unwrap();
        assert!(cli.serve.http_scheme().is_err());
        let cli = Cli::try_parse_from(["hub", "--http", "0.0.0.0:8080", "--allow-plain-http"]).unwrap();
        assert_eq!(cli.serve.http_scheme(), Ok(HttpScheme::Http));
    }

    #[test]
    fn the_welcome_lists_this_hub_then_its_peers_and_nothing_when_alone() {
        let bound: SocketAddr = "127.0.0.1:4433".parse().unwrap();
        let peers = |args: &[&str]| Cli::try_parse_from([&["hub"], args].concat()).unwrap().serve.peers;
        assert_eq!(peers(&[]).hub_addresses(bound), Vec::<String>::new(), "a single hub lists no one");
        let two = peers(&["--peer-quic", "127.0.0.1:4434", "--peer-quic", "127.0.0.1:4435"]);
        assert_eq!(two.hub_addresses(bound), ["127.0.0.1:4433", "127.0.0.1:4434", "127.0.0.1:4435"]);
        // A hub listening on every interface lists the address it advertises, never 0.0.0.0.
        let any: SocketAddr = "0.0.0.0:4433".parse().unwrap();
        assert_eq!(two.hub_addresses(any), ["127.0.0.1:4434", "127.0.0.1:4435"]);
        let advertised = peers(&["--advertise-quic", "hub-a.ward.local:4433", "--peer-quic", "hub-b.ward.local:4433"]);
        assert_eq!(advertised.hub_addresses(any), ["hub-a.ward.local:4433", "hub-b.ward.local:4433"]);
        // Itself among its peers (one list for every hub of a cluster) is listed once.
        let same_list = peers(&["--peer-quic", "127.0.0.1:4433, 127.0.0.1:4434"]);
        assert_eq!(same_list.hub_addresses(bound), ["127.0.0.1:4433", "127.0.0.1:4434"]);
    }

    #[test]
    fn the_default_alarm_manager_is_an_mllp_url() {
        let cli = Cli::try_parse_from(["hub", "--alarm-manager", "mllp://127.0.0.1:2575"]).unwrap();
        assert_eq!(cli.serve.alarm_manager.map(|d| d.to_string()), Some("mllp://127.0.0.1:2575".into()));
        assert!(Cli::try_parse_from(["hub", "--alarm-manager", "tcp://127.0.0.1:2575"]).is_err());
        assert!(Cli::try_parse_from(["hub"]).unwrap().serve.alarm_manager.is_none());
        let cli = Cli::try_parse_from(["hub", "--alarm-status-listen", "127.0.0.1:2576"]).unwrap();
        assert_eq!(cli.serve.alarm_status_listen, Some("127.0.0.1:2576".parse().unwrap()));
        assert!(Cli::try_parse_from(["hub"]).unwrap().serve.alarm_status_listen.is_none(), "off unless asked");
        assert_eq!(Cli::try_parse_from(["hub"]).unwrap().serve.alarm_continue_secs, 120);
        let secure =
            Cli::try_parse_from(["hub", "--alarm-manager", "mllps://am.ward3.local:2575", "--alarm-manager-ca", "ca.pem"]).unwrap();
        assert_eq!(secure.serve.alarm_manager.map(|d| d.tls), Some(true));
        assert_eq!(secure.serve.alarm_manager_ca, Some(PathBuf::from("ca.pem")));
        let listen = ["hub", "--alarm-status-listen", "0.0.0.0:2576"];
        let tls =
            Cli::try_parse_from([&listen[..], &["--alarm-status-tls-cert", "c.pem", "--alarm-status-tls-key", "k.pem"]].concat()).unwrap();
        assert_eq!((tls.serve.alarm_status_tls_cert.is_some(), tls.serve.alarm_status_client_ca), (true, None));
        let mutual =
            [&listen[..], &["--alarm-status-tls-cert", "c.pem", "--alarm-status-tls-key", "k.pem", "--alarm-status-client-ca", "ca.pem"]];
        assert!(Cli::try_parse_from(mutual.concat()).unwrap().serve.alarm_status_client_ca.is_some());
        assert!(Cli::try_parse_from([&listen[..], &["--alarm-status-tls-cert", "c.pem"]].concat()).is_err(), "a certificate needs its key");
        assert!(Cli::try_parse_from([&listen[..], &["--alarm-status-client-ca", "ca.pem"]].concat()).is_err(), "mutual TLS needs TLS");
        assert!(
            Cli::try_parse_from(["hub", "--alarm-status-tls-cert", "c.pem", "--alarm-status-tls-key", "k.pem"]).is_err(),
            "TLS for a listener that is not asked for"
        );
        assert_eq!(Cli::try_parse_from(["hub", "--alarm-continue-secs", "0"]).unwrap().serve.alarm_continue_secs, 0);
    }
}
