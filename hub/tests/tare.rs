//! The tare through the running hub over QUIC: a Mattress Mat IoT whose every cell idles 4 steps
//! (1.6 mmHg) above zero, as other makes of mat send, plays a real recording of the development
//! set (`../shared/data/pmd-dev/`, subject 1: supine, then on the right side, then leaving the
//! bed). An administrator zeroes the empty mat (refused while the subject lies on it); the hub
//! then reads the body as if there were no offset (one entrance, one exit, Supine then Right
//! Lateral), shows the tare, audits the zeroing and keeps the tare across a restart.
#![allow(clippy::unwrap_used)] // A test's helpers may unwrap: the panic is the failure it reports.

mod common;

use std::time::Duration;

use common::{PASSWORD, eventually_async as eventually, login, request, seed_company};
use mat_protocol::device_type::DeviceType;
use serde_json::Value;
use simulator::real;
use simulator::synth::{Replay, ReplayFrame};
use simulator::{Rate, Scenario};

const SECOND: Duration = Duration::from_secs(1);
/// The idle level added to every cell, in the Mattress Mat IoT's 0.4 mmHg steps.
const OFFSET: u16 = 4;

async fn get(addr: std::net::SocketAddr, token: &str, path: &str) -> Value {
    let response = request(addr, "GET", path, Some(token), None).await;
    assert_eq!(response.status, 200, "GET {path}: {}", response.body);
    serde_json::from_str(&response.body).unwrap()
}

async fn patient_status(addr: std::net::SocketAddr, token: &str, device_id: &str) -> Value {
    let confs = get(addr, token, "/api/deviceConfCompany").await;
    confs.as_array().unwrap().iter().find(|c| c["deviceId"]["$oid"] == device_id).unwrap()["patientStatus"].clone()
}

/// An empty mat idling at the offset, 12 s; 14 s supine and 14 s on the right side with the
/// offset on every cell; then the empty mat again.
fn offset_replay() -> Replay {
    let dir = real::dev_set_dir();
    let supine = real::load(&dir, 1, 1).expect("S1/1.u16");
    let right = real::load(&dir, 1, 2).expect("S1/2.u16");
    let device = DeviceType::MattressMatIoT;
    let idle = vec![OFFSET; 48 * 48];
    let with_offset = |frame: &[u16]| -> Vec<u16> {
        real::device_cells(frame, device).unwrap().into_iter().map(|c| (u16::from(c) + OFFSET).min(255)).collect()
    };
    let mut frames = vec![ReplayFrame { cells: idle.clone(), hold: 12 * SECOND, occupied: false }];
    for recording in [&supine, &right] {
        frames.extend(recording.frames.iter().take(14).map(|f| ReplayFrame { cells: with_offset(f), hold: SECOND, occupied: true }));
    }
    frames.push(ReplayFrame { cells: idle, hold: 600 * SECOND, occupied: false });
    Replay::new(frames)
}

#[tokio::test]
async fn a_real_recording_with_an_idle_offset_reads_right_after_the_empty_mat_is_zeroed() {
    let data = tempfile::tempdir().unwrap();
    let store = storage::Store::memory().await.unwrap();
    let (company, nurse_email, devices) = seed_company(&store, "T", &["Mattress Mat IoT"]).await;
    store.hub_wide().accounts().create("admin-t@example.com", PASSWORD, 1, &company).await.unwrap();
    let device = devices[0].clone();
    let mut config = common::config(data.path());
    config.absence_delay_secs = 2;
    let hub = hub::app::start_with_store(config.clone(), store.clone()).await.unwrap();
    let addr = hub.http_addr;
    let admin = login(addr, "admin-t@example.com", PASSWORD).await;
    let nurse = login(addr, &nurse_email, PASSWORD).await;
    let tare_path = format!("/api/device/{}/tare", device.id);

    let untared = get(addr, &nurse, &tare_path).await;
    assert_eq!(untared["set"], false, "{untared}");

    let spec = simulator::DeviceSpec::new(device.serial.clone(), device.secret.clone(), &device.device_type).unwrap();
    let transport = simulator::Transport::Quic {
        addr: hub.quic_addr,
        server_name: "localhost".into(),
        trust: simulator::Trust::PemFile(hub.cert_path.clone()),
    };
    let mut spec = spec;
    spec.scenario = Scenario::Replay(offset_replay());
    spec.rate = Rate::Fixed { hz: 10.0 };
    spec.time_offset = Duration::ZERO;
    let (stop, shutdown) = tokio::sync::watch::channel(false);
    let stats = std::sync::Arc::new(simulator::SimStats::default());
    let sim_stats = stats.clone();
    tokio::spawn(async move {
        let _ = simulator::run_device(spec, transport, sim_stats, shutdown).await;
    });

    // The empty mat: staff may not zero it; an administrator does, once its frames arrive.
    let staff = request(addr, "POST", &tare_path, Some(&nurse), None).await;
    assert_eq!(staff.status, 403, "{}", staff.body);
    let zeroed = eventually(10 * SECOND, || async { request(addr, "POST", &tare_path, Some(&admin), None).await.status == 200 }).await;
    assert!(zeroed, "the empty mat is zeroed: {}", request(addr, "POST", &tare_path, Some(&admin), None).await.body);
    let tare = get(addr, &nurse, &tare_path).await;
    assert_eq!((tare["set"].as_bool(), tare["source"].as_str()), (Some(true), Some("zeroed")), "{tare}");
    let mean = tare["meanMmHg"].as_f64().unwrap();
    assert!((mean - 1.6).abs() < 0.05, "the idle level is 4 steps of 0.4 mmHg: {tare}");

    // The subject lies down (12 s after the mat started): an entrance, Correct, and zeroing is
    // refused.
    let presence_path = format!("/api/presenceLogs/{}", device.id);
    let entered = eventually(30 * SECOND, || async {
        get(addr, &nurse, &presence_path).await.as_array().is_some_and(|a| a.iter().any(|e| e["logId"] == "1"))
    })
    .await;
    assert!(entered, "an entrance: {}", get(addr, &nurse, &presence_path).await);
    assert_eq!(patient_status(addr, &nurse, &device.id).await, "Correct");
    let refused = request(addr, "POST", &tare_path, Some(&admin), None).await;
    assert_eq!((refused.status, refused.error_code()), (409, "tareOccupied".to_owned()), "{}", refused.body);

    // The subject leaves: an exit, and the empty mat with its offset is ABSENCE (Missing).
    let left = eventually(45 * SECOND, || async {
        get(addr, &nurse, &presence_path).await.as_array().is_some_and(|a| a.iter().any(|e| e["logId"] == "0"))
    })
    .await;
    assert!(left, "an exit: {}", get(addr, &nurse, &presence_path).await);
    let missing = eventually(10 * SECOND, || async { patient_status(addr, &nurse, &device.id).await == "Missing" }).await;
    assert!(missing, "Missing after leaving");
    let _ = stop.send(true);
    assert!(stats.snapshot().frames_sent > 300, "{:?}", stats.snapshot());

    let presence = get(addr, &nurse, &presence_path).await;
    let ids: Vec<&str> = presence.as_array().unwrap().iter().filter_map(|e| e["logId"].as_str()).collect();
    assert_eq!(ids[..2], ["0", "1"], "newest first: the exit, then the entrance: {presence}");
    assert_eq!(ids.iter().filter(|&&id| id == "1").count(), 1, "one entrance: no body frame read ABSENCE for 5 s: {presence}");
    let logs = get(addr, &nurse, &format!("/api/iotLogs/{}", device.id)).await;
    let postures: Vec<&str> = logs.as_array().unwrap().iter().map(|e| e["posture"]["id"].as_str().unwrap_or_default()).collect();
    assert_eq!(postures, ["3", "0"], "newest first: Right Lateral after Supine, as without the offset: {logs}");

    // The zeroing is in the audit log.
    let audit = get(addr, &admin, "/api/auditLog/1").await;
    assert!(
        audit["entries"].as_array().unwrap().iter().any(|e| e["action"] == "device.tare" && e["entityId"] == device.id.as_str()),
        "{audit}"
    );

    // A restart keeps the stored tare.
    hub.shutdown().await;
    let hub = hub::app::start_with_store(config, store.clone()).await.unwrap();
    let nurse = login(hub.http_addr, &nurse_email, PASSWORD).await;
    let after = get(hub.http_addr, &nurse, &tare_path).await;
    assert_eq!(after, tare, "the same tare after a restart");
    hub.shutdown().await;
}
