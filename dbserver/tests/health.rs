//! `GET /health`, `/health/live` and the database and NATS gauges of `/metrics` on a hub in a
//! cluster (the project's database server and Debian's nats-server on loopback), while each of
//! them is stopped and started again: what the IT team's monitoring and load balancer see.
#![allow(clippy::unwrap_used)] // A test's unwraps are the failures it reports.

#[path = "../../hub/tests/common/nats.rs"]
mod nats;
mod support;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use nats::NatsServer;
use serde_json::Value;
use support::*;

/// The probe asks every 5 s and waits 3 s for an answer: a change shows within 8 s; a loaded
/// machine gets twice that and more.
const SEEN_WITHIN: Duration = Duration::from_secs(30);

async fn health(hub: SocketAddr) -> (u16, Value) {
    let response = request(hub, "GET", "/health", None, None).await;
    (response.status, serde_json::from_str(&response.body).unwrap_or(Value::Null))
}

/// Waits until `/health` answers `status` with these `problems`, the database and NATS probed
/// (not `null`), and returns its body.
async fn until_health(hub: SocketAddr, status: u16, problems: &[&str]) -> Value {
    let began = Instant::now();
    loop {
        let (got, body) = health(hub).await;
        let listed: Vec<&str> = body["problems"].as_array().map(|p| p.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
        let probed = body["database"]["reachable"].is_boolean() && body["nats"]["connected"].is_boolean();
        if got == status && listed == problems && probed {
            return body;
        }
        assert!(began.elapsed() < SEEN_WITHIN, "/health answered {got} {body} for {:?}, not {status} {problems:?}", began.elapsed());
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

async fn gauge(hub: SocketAddr, name: &str) -> Option<String> {
    let text = request(hub, "GET", "/metrics", None, None).await.body;
    text.lines().find_map(|line| line.strip_prefix(name).and_then(|rest| rest.strip_prefix(' ')).map(str::to_owned))
}

async fn live(hub: SocketAddr) -> u16 {
    request(hub, "GET", "/health/live", None, None).await.status
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn health_names_the_database_or_nats_while_it_is_down_and_the_hub_stays_live() {
    let mut db = DbServer::start().await;
    let mut nats = NatsServer::start().await;
    let dir = tempfile::tempdir().unwrap();
    let mut config = hub_config(dir.path(), &db.url());
    config.nats = Some(nats.url());
    config.node = Some(hub::cluster::NodeName::parse("hub-health").unwrap());
    let running = hub::app::start(config).await.unwrap();
    let hub = running.http_addr;

    let ok = until_health(hub, 200, &[]).await;
    assert_eq!(ok["status"], "ok", "{ok}");
    assert_eq!(ok["database"]["reachable"], true, "{ok}");
    assert!(ok["database"]["latencyMs"].as_u64().is_some(), "{ok}");
    assert_eq!(ok["nats"]["connected"], true, "{ok}");
    assert_eq!(ok["storage"]["pendingRecords"], 0, "{ok}");
    assert_eq!(gauge(hub, "hub_database_up").await.as_deref(), Some("1"));
    assert_eq!(gauge(hub, "hub_nats_connected").await.as_deref(), Some("1"));
    assert_eq!(gauge(hub, "hub_cluster_nats_reconnections_total").await.as_deref(), Some("0"));
    assert_eq!(live(hub).await, 200);

    // NATS stops: the hub is degraded, names it, and stays live; it recovers by itself.
    nats.kill();
    let down = until_health(hub, 503, &["nats"]).await;
    assert_eq!((down["status"].as_str(), down["nats"]["connected"].as_bool()), (Some("degraded"), Some(false)), "{down}");
    assert_eq!(gauge(hub, "hub_nats_connected").await.as_deref(), Some("0"));
    assert_eq!(live(hub).await, 200, "a load balancer keeps the hub: NATS is every hub's");
    nats.restart().await;
    until_health(hub, 200, &[]).await;
    let reconnected = || async { gauge(hub, "hub_cluster_nats_reconnections_total").await.is_some_and(|n| n != "0") };
    let began = Instant::now();
    while !reconnected().await {
        assert!(began.elapsed() < SEEN_WITHIN, "{:?}", gauge(hub, "hub_cluster_nats_reconnections_total").await);
        tokio::time::sleep(Duration::from_millis(250)).await;
    }

    // The database server stops: the same, and its gauge says so.
    db.kill();
    let down = until_health(hub, 503, &["database"]).await;
    assert_eq!(down["database"]["reachable"], false, "{down}");
    assert!(down["database"]["latencyMs"].is_null(), "no latency for a probe not answered: {down}");
    assert_eq!(gauge(hub, "hub_database_up").await.as_deref(), Some("0"));
    assert_eq!(live(hub).await, 200);
    db.restart().await;
    until_health(hub, 200, &[]).await;
    assert_eq!(gauge(hub, "hub_database_up").await.as_deref(), Some("1"));

    running.shutdown().await;
}
