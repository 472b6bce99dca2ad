//! The measured hub in cluster mode, planned (pure; `cluster.rs` starts the processes): which
//! arguments are valid together, how `nats-server`, the SurrealDB server and the two hubs are
//! started, and what `nats-server`'s monitoring says about the traffic (issue 25).
//!
//! Hub A is the hub under test: pinned to the target core, its mats connect to it, its CPU is
//! measured as a single hub's is. Hub B, `nats-server` and the database server run on the
//! generator's core. Viewers watch A's mats either on A (nobody elsewhere watches: the cluster's
//! fixed cost) or on B (every map crosses NATS: the watched map's cost and the hop's latency).

use std::path::Path;

use serde::{Deserialize, Serialize};

/// The hub under test, the owner of every mat.
pub const NODE_A: &str = "hub-a";
/// The other hub, on the generator's core.
pub const NODE_B: &str = "hub-b";
/// The database server's root user (a throw-away server on loopback).
pub const DATABASE_USER: &str = "root";

/// Where the viewers of a cluster run watch the mats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ViewersOn {
    /// On hub A, the mats' owner: no map crosses NATS.
    A,
    /// On hub B: every map the viewers see crosses NATS from A.
    B,
}

impl ViewersOn {
    /// The node the viewers' sockets reach.
    pub fn node(self) -> &'static str {
        match self {
            ViewersOn::A => NODE_A,
            ViewersOn::B => NODE_B,
        }
    }
}

/// Which of the run's arguments fit together, for a cluster target or not; the message says what
/// to change.
pub fn check(cluster_target: bool, viewers_on: Option<ViewersOn>, spawns: bool, viewers: usize) -> Result<(), String> {
    if !cluster_target {
        return match viewers_on {
            Some(_) => Err("--viewers-on is for --target hub-cluster".to_owned()),
            None => Ok(()),
        };
    }
    if !spawns {
        return Err("--target hub-cluster starts its own cluster: give --hub-bin (not --hub-url)".to_owned());
    }
    if viewers_on == Some(ViewersOn::B) && viewers == 0 {
        return Err("--viewers-on b with --viewers 0 sends nothing through NATS: give viewers".to_owned());
    }
    Ok(())
}

/// The arguments that put a hub in the cluster (after `--data`, `--http`, `--quic`).
pub fn node_args(node: &str, nats_url: &str, database_url: &str) -> Vec<String> {
    ["--database", database_url, "--nats", nats_url, "--node", node].iter().map(|s| (*s).to_owned()).collect()
}

/// Hub A's arguments: the single hub's (demo company, no simulators) plus the cluster's.
pub fn hub_a_args(nats_url: &str, database_url: &str) -> Vec<String> {
    let mut args = vec!["--demo".to_owned(), "--no-simulators".to_owned()];
    args.extend(node_args(NODE_A, nats_url, database_url));
    args
}

/// Hub B's arguments: the cluster's only (A seeded the demo already).
pub fn hub_b_args(nats_url: &str, database_url: &str) -> Vec<String> {
    node_args(NODE_B, nats_url, database_url)
}

/// The hubs' database credentials (`HUB_DATABASE_USER` / `HUB_DATABASE_PASS`).
pub fn hub_env(password: &str) -> Vec<(String, String)> {
    vec![("HUB_DATABASE_USER".to_owned(), DATABASE_USER.to_owned()), ("HUB_DATABASE_PASS".to_owned(), password.to_owned())]
}

/// `nats-server` on loopback with JetStream in `store` and its monitoring port.
pub fn nats_args(port: u16, monitor_port: u16, store: &Path) -> Vec<String> {
    vec![
        "-a".into(),
        "127.0.0.1".into(),
        "-p".into(),
        port.to_string(),
        "-m".into(),
        monitor_port.to_string(),
        "-js".into(),
        "-sd".into(),
        store.display().to_string(),
    ]
}

/// The SurrealDB server (`dbserver start`) on loopback with SurrealKV in `store`.
pub fn dbserver_args(port: u16, store: &Path) -> Vec<String> {
    vec![
        "start".into(),
        "--bind".into(),
        format!("127.0.0.1:{port}"),
        "--log".into(),
        "warn".into(),
        "--no-banner".into(),
        format!("surrealkv://{}", store.display()),
    ]
}

/// `nats-server`'s message counters (`GET /varz` of its monitoring port), since it started.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize)]
pub struct NatsTraffic {
    /// Messages published to the server.
    pub in_msgs: u64,
    /// Messages it delivered to subscribers.
    pub out_msgs: u64,
    pub in_bytes: u64,
    pub out_bytes: u64,
}

/// Reads the counters of a `/varz` answer.
pub fn parse_varz(body: &str) -> Result<NatsTraffic, String> {
    serde_json::from_str(body).map_err(|e| format!("nats-server /varz: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn viewers_on_is_only_for_a_cluster_and_a_cluster_is_only_spawned() {
        assert_eq!(check(false, None, true, 50), Ok(()));
        assert_eq!(check(false, None, false, 50), Ok(()), "attach mode stays as it was for a single hub");
        assert!(check(false, Some(ViewersOn::B), true, 50).unwrap_err().contains("--target hub-cluster"));
        assert!(check(true, Some(ViewersOn::A), false, 50).unwrap_err().contains("--hub-bin"));
        assert_eq!(check(true, None, true, 50), Ok(()));
        assert_eq!(check(true, Some(ViewersOn::A), true, 0), Ok(()), "no viewers on A: the cluster's fixed cost alone");
        assert!(check(true, Some(ViewersOn::B), true, 0).unwrap_err().contains("NATS"));
        assert_eq!(check(true, Some(ViewersOn::B), true, 1), Ok(()));
    }

    #[test]
    fn hub_a_runs_as_the_single_hub_does_plus_the_cluster_and_hub_b_without_the_demo() {
        let a = hub_a_args("nats://127.0.0.1:4222", "ws://127.0.0.1:8000");
        assert_eq!(
            a,
            ["--demo", "--no-simulators", "--database", "ws://127.0.0.1:8000", "--nats", "nats://127.0.0.1:4222", "--node", "hub-a"]
        );
        assert_eq!(&a[..2], crate::hub::Launch::single().args.as_slice(), "A is the single hub plus the cluster");
        let b = hub_b_args("nats://127.0.0.1:4222", "ws://127.0.0.1:8000");
        assert_eq!(b, ["--database", "ws://127.0.0.1:8000", "--nats", "nats://127.0.0.1:4222", "--node", "hub-b"]);
        assert_eq!(ViewersOn::A.node(), "hub-a");
        assert_eq!(ViewersOn::B.node(), "hub-b");
        assert_eq!(hub_env("pw"), [("HUB_DATABASE_USER".to_owned(), "root".to_owned()), ("HUB_DATABASE_PASS".to_owned(), "pw".to_owned())]);
    }

    #[test]
    fn the_servers_listen_on_loopback_with_their_stores() {
        let nats = nats_args(4222, 8222, Path::new("/tmp/x/js"));
        assert_eq!(nats.join(" "), "-a 127.0.0.1 -p 4222 -m 8222 -js -sd /tmp/x/js");
        let db = dbserver_args(8000, Path::new("/tmp/x/db"));
        assert_eq!(db.join(" "), "start --bind 127.0.0.1:8000 --log warn --no-banner surrealkv:///tmp/x/db");
    }

    #[test]
    fn reads_the_message_counters_of_varz() {
        let body = r#"{"server_id":"N1","in_msgs":120,"out_msgs":240,"in_bytes":293000,"out_bytes":586000,"connections":2}"#;
        assert_eq!(parse_varz(body), Ok(NatsTraffic { in_msgs: 120, out_msgs: 240, in_bytes: 293_000, out_bytes: 586_000 }));
        assert!(parse_varz("{}").is_err());
        assert!(parse_varz("<html>").is_err());
    }
}
