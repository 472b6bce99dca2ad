//! Demo mode as a newcomer runs it: every simulated device connects over QUIC (none refused) and
//! the demo user sees the whole company live.

mod common;

use std::sync::atomic::Ordering;
use std::time::Duration;

use common::*;

#[tokio::test]
async fn every_demo_device_connects_and_the_demo_user_sees_them() {
    let data = tempfile::tempdir().unwrap();
    let mut config = config(data.path());
    config.demo = true;
    config.no_simulators = false;
    let hub = hub::app::start(config).await.unwrap();
    let metrics = hub.metrics.clone();
    // 9 single devices (Bed 107, the still patient, among them) + 2 horse sides + 3 room-set
    // sensors stream, and 4 devices of the variant companies.
    assert!(
        eventually(Duration::from_secs(20), || metrics.devices_connected.load(Ordering::Relaxed) == 18).await,
        "only {} of 18 demo devices connected",
        metrics.devices_connected.load(Ordering::Relaxed)
    );
    assert_eq!(metrics.device_connections_refused.load(Ordering::Relaxed), 0);
    let token = login(hub.http_addr, hub::demo::DEMO_EMAIL, hub::demo::DEMO_PASSWORD).await;
    let devices: serde_json::Value = request(hub.http_addr, "GET", "/api/userDevices", Some(&token), None).await.json();
    assert_eq!(devices.as_array().unwrap().len(), 16, "16 devices including parents and sub-devices");
    let types: Vec<&str> = devices.as_array().unwrap().iter().map(|d| d["deviceType"].as_str().unwrap()).collect();
    for expected in [
        "Mattress Mat IoT",
        "Seating Mat IoT",
        "Seating Mat IoT XL",
        "Podology IoT",
        "Floor Mat",
        "Force Mat",
        "Sensing Horse",
        "Room Set",
        "Rehab Mat",
        "Seating Mat",
    ] {
        assert!(types.contains(&expected), "{expected} missing from {types:?}");
    }
    // Every streaming device's card leaves Offline once it sends frames.
    let functional = |confs: &serde_json::Value| confs.as_array().unwrap().iter().filter(|c| c["deviceFunctional"] == true).count();
    let mut confs = serde_json::Value::Null;
    for _ in 0..50 {
        confs = request(hub.http_addr, "GET", "/api/deviceConfCompany", Some(&token), None).await.json();
        if functional(&confs) >= 13 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(functional(&confs) >= 13, "{confs}");
    hub.shutdown().await;
}
