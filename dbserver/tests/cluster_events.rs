//! Every hub sees every device, on the project's real SurrealDB server (issue 25 item 4): three
//! hubs sharing one `dbserver` and one `nats-server`, a simulated mat connected to hub A, a
//! browser on hub C that sees its status and, once it starts the stream through A, its maps; REST
//! on B answers A's status. (`hub/tests/cluster_events.rs` covers the rest on a shared
//! in-process store.)
#![allow(clippy::unwrap_used)] // A test's unwraps are the failures it reports.

mod support;

#[path = "../../hub/tests/common/nats.rs"]
mod nats;

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use nats::NatsServer;
use serde_json::json;
use storage::device_secret;
use storage::model::NewDevice;
use support::*;
use tokio_tungstenite::tungstenite::Message;

const SECOND: Duration = Duration::from_secs(1);

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn send(socket: &mut Socket, event: &str, data: serde_json::Value) {
    let bytes = rmp_serde::to_vec_named(&json!({ "event": event, "data": data })).unwrap();
    socket.send(Message::binary(bytes)).await.unwrap();
}

/// The next `{event, data}` satisfying `check`, or `None` at the deadline.
async fn wait(socket: &mut Socket, limit: Duration, check: impl Fn(&str, &serde_json::Value) -> bool) -> Option<serde_json::Value> {
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        let message = tokio::time::timeout_at(deadline, socket.next()).await.ok()??.ok()?;
        let Message::Binary(bytes) = message else { continue };
        // MessagePack (maps carry binary cells), read as JSON values to compare.
        let value: rmpv::Value = rmp_serde::from_slice(&bytes).unwrap();
        let value = serde_json::to_value(&value).unwrap();
        let event = value["event"].as_str().unwrap_or_default().to_owned();
        if check(&event, &value["data"]) {
            return Some(value["data"].clone());
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_browser_on_hub_c_sees_a_mat_on_hub_a_through_the_database_server_and_nats() {
    let server = DbServer::start().await;
    let nats = NatsServer::start().await;
    let store = server.store().await;
    let company = store.hub_wide().companies().create("Clinic Cluster", "").await.unwrap();
    let email = "nurse-cluster@example.com";
    store.hub_wide().accounts().create(email, PASSWORD, 2, &company).await.unwrap();
    let secret = device_secret::generate();
    let mat = store
        .hub_wide()
        .devices()
        .create(&NewDevice {
            name: "Bed 1".into(),
            device_type: "Mattress Mat IoT".into(),
            hardware_serial: "CL-001".into(),
            company_id: company.clone(),
            secret_hash: device_secret::hash(&secret),
            ..NewDevice::default()
        })
        .await
        .unwrap();

    let mut hubs = Vec::new();
    let mut dirs = Vec::new();
    for node in ["hub-a", "hub-b", "hub-c"] {
        let dir = tempfile::tempdir().unwrap();
        let mut config = hub_config(dir.path(), &server.url());
        config.nats = Some(nats.url());
        config.node = Some(hub::cluster::NodeName::parse(node).unwrap());
        hubs.push(hub::app::start(config).await.unwrap());
        dirs.push(dir);
    }

    let token_c = login(hubs[2].http_addr, email).await;
    let (mut on_c, _) = tokio_tungstenite::connect_async(format!("ws://{}/ws", hubs[2].http_addr)).await.unwrap();
    send(&mut on_c, "authenticate", json!({ "token": token_c })).await;
    assert!(wait(&mut on_c, 5 * SECOND, |event, _| event == "authenticated").await.is_some());
    send(&mut on_c, "joinCompany", json!({})).await;

    let mut spec = simulator::DeviceSpec::new("CL-001", secret.clone(), "Mattress Mat IoT").unwrap();
    spec.rate = simulator::Rate::Fixed { hz: 10.0 };
    let transport = simulator::Transport::Quic {
        addr: hubs[0].quic_addr,
        server_name: "localhost".into(),
        trust: simulator::Trust::PemFile(hubs[0].cert_path.clone()),
    };
    let (stop, shutdown) = tokio::sync::watch::channel(false);
    tokio::spawn(simulator::run_device(spec, transport, std::sync::Arc::new(simulator::SimStats::default()), shutdown));

    let online = wait(&mut on_c, 20 * SECOND, |event, data| {
        event == "deviceConf" && data["deviceId"] == mat.as_str() && data["deviceFunctional"] == true
    })
    .await;
    assert!(online.is_some(), "C's browser saw the mat connect to A");
    let token_b = login(hubs[1].http_addr, email).await;
    let conf = request(hubs[1].http_addr, "GET", &format!("/api/deviceConfiguration/{mat}"), Some(&token_b), None).await;
    assert_eq!(conf.json::<serde_json::Value>()["deviceFunctional"], json!(true), "B's board: {}", conf.body);

    send(&mut on_c, "joinUser", json!({ "deviceId": mat })).await;
    send(&mut on_c, "startStreaming", json!({ "deviceId": mat, "seconds": 30 })).await;
    let map = wait(&mut on_c, 20 * SECOND, |event, data| {
        assert_ne!(event, "error", "{data}");
        event == "pressureMap_SAToFront" && data["deviceId"] == mat.as_str() && data["rows"] == 48
    })
    .await;
    assert!(map.is_some(), "C's browser receives the mat's live map from A");

    let _ = stop.send(true);
    for hub in hubs {
        hub.shutdown().await;
    }
}
