//! Cluster mode's membership (issue 25): a hub joins a real `nats-server` on loopback as a named
//! node, starts even while the server is away, and asks the other hubs again after its client
//! dropped messages it did not read in time.
#![allow(clippy::unwrap_used)]

mod common;

use std::time::Duration;

use clap::Parser;
use common::nats::NatsServer;
use hub::cluster::NodeName;
use hub::config::Cli;

#[test]
fn nats_and_node_come_together() {
    assert!(Cli::try_parse_from(["hub", "--nats", "nats://127.0.0.1:4222"]).is_err(), "--nats without --node was accepted");
    assert!(Cli::try_parse_from(["hub", "--node", "a"]).is_err(), "--node without --nats was accepted");
    assert!(Cli::try_parse_from(["hub", "--nats", "nats://127.0.0.1:4222", "--node", "a.b"]).is_err(), "a dotted node name was accepted");
    let cli = Cli::try_parse_from(["hub", "--nats", "nats://127.0.0.1:4222", "--node", "hub-a"]).unwrap();
    assert_eq!(cli.serve.node, Some(NodeName::parse("hub-a").unwrap()));
}

#[tokio::test]
async fn a_hub_joins_nats_as_its_node() {
    let nats = NatsServer::start().await;
    let data = tempfile::tempdir().unwrap();
    let mut config = common::config(data.path());
    config.nats = Some(nats.url());
    config.node = Some(NodeName::parse("hub-a").unwrap());
    let hub = hub::app::start(config).await.unwrap();
    let cluster = hub.cluster.clone().expect("the hub joined the cluster");
    assert_eq!(cluster.node.as_str(), "hub-a");
    // The hub's connection carries messages: a subscriber on it hears what another client sends.
    let mut heard = cluster.client.subscribe("test.hello").await.unwrap();
    cluster.client.flush().await.unwrap();
    let other = async_nats::connect(nats.url()).await.unwrap();
    other.publish("test.hello", "hi".into()).await.unwrap();
    other.flush().await.unwrap();
    let message = tokio::time::timeout(Duration::from_secs(5), futures_util::StreamExt::next(&mut heard)).await.unwrap().unwrap();
    assert_eq!(&message.payload[..], b"hi");
    hub.shutdown().await;
}

#[tokio::test]
async fn a_hub_starts_while_nats_is_away_and_joins_when_it_comes() {
    let mut nats = NatsServer::start().await;
    nats.kill();
    let data = tempfile::tempdir().unwrap();
    let mut config = common::config(data.path());
    config.nats = Some(nats.url());
    config.node = Some(NodeName::parse("hub-b").unwrap());
    let started = std::time::Instant::now();
    let hub = hub::app::start(config).await.unwrap();
    assert!(started.elapsed() < hub::cluster::CONNECT_WAIT + Duration::from_secs(5), "the hub waited for NATS");
    nats.restart().await;
    let cluster = hub.cluster.clone().unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while cluster.client.connection_state() != async_nats::connection::State::Connected {
        assert!(std::time::Instant::now() < deadline, "the hub did not reconnect to NATS");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    hub.shutdown().await;
}

#[tokio::test]
async fn a_hub_whose_client_dropped_messages_asks_the_others_again() {
    use hub::cluster::events_wire::{SYNC, SyncMessage, decode};
    let nats = NatsServer::start().await;
    let data = tempfile::tempdir().unwrap();
    let mut config = common::config(data.path());
    config.nats = Some(nats.url());
    config.node = Some(NodeName::parse("hub-c").unwrap());
    let hub = hub::app::start(config).await.unwrap();
    let cluster = hub.cluster.clone().unwrap();
    // Another hub's ear on the sync subject, after hub-c's joining sync.
    let other = async_nats::connect(nats.url()).await.unwrap();
    let mut syncs = other.subscribe(SYNC).await.unwrap();
    other.flush().await.unwrap();
    // A subscription on the hub's client that nobody reads: past the client's 65,536 messages
    // held unread, it drops the rest, as it would a status the hub did not read in time.
    let _unread = cluster.client.subscribe("test.flood").await.unwrap();
    cluster.client.flush().await.unwrap();
    for _ in 0..70_000 {
        other.publish("test.flood", "x".into()).await.unwrap();
    }
    other.flush().await.unwrap();
    let asked = tokio::time::timeout(Duration::from_secs(15), async {
        loop {
            let message = futures_util::StreamExt::next(&mut syncs).await.unwrap();
            if decode::<SyncMessage>(&message.payload).is_some_and(|m| m.origin == "hub-c") {
                return;
            }
        }
    })
    .await;
    assert!(
        asked.is_ok(),
        "the hub did not ask the others for their statuses after dropping messages ({} dropped)",
        cluster.link.dropped()
    );
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    loop {
        let metrics = hub.metrics.render();
        let dropped =
            metrics.lines().find_map(|l| l.strip_prefix("hub_cluster_nats_messages_dropped_total ")).and_then(|n| n.parse::<u64>().ok());
        if dropped.is_some_and(|n| n > 0) {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "/metrics did not count the dropped messages: {dropped:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Once the drops are over (the client reports them one by one, some after the first
    // resync, which then wait for the gap between two resyncs), a gap and a renewal more, then
    // nothing: no resync a renewal with nothing dropped.
    let mut seen = cluster.link.dropped();
    loop {
        tokio::time::sleep(Duration::from_secs(1)).await;
        let now = cluster.link.dropped();
        if now == seen {
            break;
        }
        seen = now;
    }
    let until = tokio::time::Instant::now()
        + hub::cluster::resync::DROPPED_RESYNC_GAP
        + hub::cluster::live_watch::RENEW
        + Duration::from_millis(500);
    while tokio::time::timeout_at(until, futures_util::StreamExt::next(&mut syncs)).await.is_ok() {}
    assert!(
        tokio::time::timeout(Duration::from_secs(5), futures_util::StreamExt::next(&mut syncs)).await.is_err(),
        "the hub asked again with nothing dropped"
    );
    hub.shutdown().await;
}
