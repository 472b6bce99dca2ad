//! A mat actor that panics is restarted by its supervisor and goes on serving its device.

mod common;

use std::sync::atomic::Ordering;
use std::time::Duration;

use actors::actor::mat::MatMsg;
use actors::actor::registry::RegistryMsg;
use common::*;

#[tokio::test]
async fn a_panicking_mat_actor_is_restarted_and_keeps_streaming() {
    let hub = start(&["Mattress Mat IoT", "Seating Mat IoT"]).await;
    let token = hub.login().await;
    let (victim, bystander) = (hub.devices[0].clone(), hub.devices[1].clone());
    let mut viewer = Browser::authenticated(hub.http(), &token).await;
    viewer.send("joinUser", serde_json::json!({ "deviceId": victim.id })).await;
    let mut other = Browser::authenticated(hub.http(), &token).await;
    other.send("joinUser", serde_json::json!({ "deviceId": bystander.id })).await;
    let (mut spec, transport) = hub.quic_device(&victim);
    spec.rate = simulator::Rate::Fixed { hz: 20.0 };
    let _victim = hub.run_device(spec, transport);
    let (mut spec, transport) = hub.quic_device(&bystander);
    spec.rate = simulator::Rate::Fixed { hz: 20.0 };
    let _bystander = hub.run_device(spec, transport);
    assert!(viewer.wait_for("pressureMap_SAToFront", Duration::from_secs(10)).await.is_some());

    let registry = hub.hub.actors.registry.clone();
    let device_id: std::sync::Arc<str> = victim.id.as_str().into();
    let handle = registry
        .call(|reply| RegistryMsg::Resolve { device_id, reply }, Some(Duration::from_secs(2)))
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    handle.actor.cast(MatMsg::InjectPanic).unwrap();

    let metrics = hub.hub.metrics.clone();
    assert!(eventually(Duration::from_secs(5), || metrics.actor_restarts.load(Ordering::Relaxed) == 1).await, "restarted once");
    // The restarted actor serves the same viewer with new frames, over the same connection.
    let processed = metrics.frames_processed.load(Ordering::Relaxed);
    let map = viewer.wait_for("pressureMap_SAToFront", Duration::from_secs(5)).await.expect("maps after the restart");
    assert_eq!(field(&map.data, "deviceId").as_str(), Some(victim.id.as_str()));
    assert!(eventually(Duration::from_secs(5), || metrics.frames_processed.load(Ordering::Relaxed) > processed + 20).await);
    assert_eq!(metrics.devices_connected.load(Ordering::Relaxed), 2, "no device was disconnected");
    // The other device's viewer kept receiving throughout.
    assert!(other.wait_for("pressureMap_SAToFront", Duration::from_secs(2)).await.is_some());
}
