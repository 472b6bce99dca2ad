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
    let handle =
        registry.call(|reply| RegistryMsg::Resolve { device_id, reply }, Some(Duration::from_secs(2))).await.unwrap().unwrap().unwrap();
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

/// A stream that was running when the hub stopped resumes with the time left after a restart
/// (the end time is stored); one whose end passed is not resumed.
#[tokio::test]
async fn a_stored_stream_end_resumes_after_a_restart() {
    let data = tempfile::tempdir().unwrap();
    let store = storage::Store::memory().await.unwrap();
    let (company, _, devices) = common::seed_company(&store, "R", &["Mattress Mat IoT", "Mattress Mat IoT"]).await;
    let now_ms = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
    store.company(&company).device_confs().set_streaming_end(&devices[0].id, Some(now_ms + 60_000)).await.unwrap();
    store.company(&company).device_confs().set_streaming_end(&devices[1].id, Some(now_ms - 1_000)).await.unwrap();
    let hub = hub::app::start_with_store(common::config(data.path()), store).await.unwrap();
    let remaining = |id: &str| {
        let device_id: std::sync::Arc<str> = std::sync::Arc::from(id);
        let registry = hub.actors.registry.clone();
        async move {
            let handle = registry
                .call(|reply| actors::actor::registry::RegistryMsg::Resolve { device_id, reply }, Some(std::time::Duration::from_secs(5)))
                .await
                .unwrap()
                .unwrap()
                .unwrap();
            handle
                .actor
                .call(actors::actor::mat::MatMsg::StreamingRemaining, Some(std::time::Duration::from_secs(5)))
                .await
                .unwrap()
                .unwrap()
        }
    };
    let left = remaining(&devices[0].id).await;
    assert!((55..=60).contains(&left), "about a minute left, got {left} s");
    assert_eq!(remaining(&devices[1].id).await, 0, "a past end is not resumed");
}

/// An alarm left unattended when the hub stopped is still pending after a restart: the device's
/// actor answers for it, and attending it by number works.
#[tokio::test]
async fn a_stored_unattended_alarm_is_pending_after_a_restart() {
    let data = tempfile::tempdir().unwrap();
    let store = storage::Store::memory().await.unwrap();
    let (company, _, devices) = common::seed_company(&store, "P", &["Mattress Mat IoT"]).await;
    let device = &devices[0];
    let raised = storage::unix_now() - 120;
    store
        .company(&company)
        .logs()
        .raise_alarm_keyed(&device.id, &hub::records::alarm_key(&device.id, 41), "Missing", raised)
        .await
        .unwrap();
    let hub = hub::app::start_with_store(common::config(data.path()), store).await.unwrap();
    let device_id: std::sync::Arc<str> = std::sync::Arc::from(device.id.as_str());
    let handle = hub
        .actors
        .registry
        .call(|reply| RegistryMsg::Resolve { device_id, reply }, Some(Duration::from_secs(5)))
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    // What the card shows (the live board), once the actor has handled everything before a call.
    let pending = async || {
        handle.actor.call(MatMsg::StreamingRemaining, Some(Duration::from_secs(5))).await.unwrap().unwrap();
        hub.board.status(&company, &device.id).expect("the device's status").unattended_alarm
    };
    assert!(pending().await, "pending after the restart");
    let alarm = Some(mat_core::machine::alarm::AlarmId(41));
    let attended =
        handle.actor.call(|reply| MatMsg::AttendAlarm { alarm, by: None, reply }, Some(Duration::from_secs(5))).await.unwrap().unwrap();
    assert_eq!(attended.unwrap(), 1);
    assert!(!pending().await);
    // The attendance reaches storage through the writer.
    let mut stored = false;
    for _ in 0..30 {
        if hub.store.company(&company).logs().alarms(&device.id).await.unwrap()[0].has_been_attended {
            stored = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(stored, "the stored alarm is attended");
}
