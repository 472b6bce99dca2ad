//! Issue 25, item 5: a device whose hub dies moves to another hub of the cluster, the one its
//! welcome listed. Two real hubs in this process, each on its own in-memory store where the same
//! device is registered with the same secret (two hubs cannot share one in-memory store; what
//! this test proves is the move of the connection, not shared storage), one certificate for both.

mod common;

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use common::config;
use storage::model::NewDevice;
use storage::{Store, device_secret};

const SERIAL: &str = "MOVE-001";
const DEVICE_TYPE: &str = "Mattress Mat IoT";

/// A store with one company and the travelling device, registered under `secret`.
async fn store_with_device(secret: &str) -> Store {
    let store = Store::memory().await.expect("an in-memory store");
    let company = store.hub_wide().companies().create("Clinic Move", "").await.expect("the company");
    store
        .hub_wide()
        .devices()
        .create(&NewDevice {
            name: "Bed 1".into(),
            device_type: DEVICE_TYPE.into(),
            hardware_serial: SERIAL.into(),
            company_id: company,
            number_of_subdevices: 2,
            secret_hash: device_secret::hash(secret),
            ..NewDevice::default()
        })
        .await
        .expect("the travelling device");
    store
}

async fn eventually(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while !done() {
        assert!(tokio::time::Instant::now() < deadline, "timed out waiting: {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_device_moves_to_the_hub_its_welcome_listed_when_its_hub_shuts_down() {
    let secret = device_secret::generate();
    let (data_a, data_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    // Hub B knows no peers: its welcome lists no one, and the device must still remember A.
    let hub_b = hub::app::start_with_store(config(data_b.path()), store_with_device(&secret).await).await.unwrap();
    let key_b = data_b.path().join("tls").join("key.pem");
    let mut config_a = config(data_a.path());
    config_a.peers.peer_quic = vec![hub_b.quic_addr.to_string()];
    (config_a.tls_cert, config_a.tls_key) = (Some(hub_b.cert_path.clone()), Some(key_b));
    let hub_a = hub::app::start_with_store(config_a, store_with_device(&secret).await).await.unwrap();

    let spec = simulator::DeviceSpec::new(SERIAL.to_owned(), secret.clone(), DEVICE_TYPE).unwrap();
    let transport = simulator::Transport::Quic {
        addr: hub_a.quic_addr,
        server_name: "localhost".into(),
        trust: simulator::Trust::PemFile(hub_b.cert_path.clone()),
    };
    let (stop, shutdown) = tokio::sync::watch::channel(false);
    let stats = Arc::new(simulator::SimStats::default());
    let device = tokio::spawn(simulator::run_device(spec, transport, stats.clone(), shutdown));

    let (metrics_a, metrics_b) = (hub_a.metrics.clone(), hub_b.metrics.clone());
    eventually("the device streams to hub A", || metrics_a.frames_received.load(Ordering::Relaxed) > 0).await;
    assert_eq!(metrics_b.frames_received.load(Ordering::Relaxed), 0, "nothing reached B while A serves the device");
    assert_eq!(stats.connects.load(Ordering::Relaxed), 1);

    hub_a.shutdown().await;
    eventually("the device is welcomed by hub B", || stats.connects.load(Ordering::Relaxed) == 2).await;
    eventually("its frames reach hub B", || metrics_b.frames_received.load(Ordering::Relaxed) > 0).await;
    assert_eq!(metrics_b.devices_connected.load(Ordering::Relaxed), 1);

    let _ = stop.send(true);
    assert!(matches!(tokio::time::timeout(Duration::from_secs(10), device).await, Ok(Ok(Ok(())))));
    hub_b.shutdown().await;
}
