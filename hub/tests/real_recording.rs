//! A real recording through the running hub over QUIC: subject 1 of the development set
//! (`../shared/data/pmd-dev/`) lies supine, then on the right side, then leaves the bed. The frames
//! are sent as a Mattress Mat IoT sends them (placed on its 48×48 grid, 0.4 mmHg steps). The REST
//! API then shows what the hub decided: exactly one entrance and one exit in the presence log, the
//! patient Correct while lying and Missing after leaving, and the device log reading Supine on
//! entrance and Right Lateral after the turn.
#![allow(clippy::unwrap_used)] // A test's helpers may unwrap: the panic is the failure it reports.

mod common;

use std::time::Duration;

use common::{eventually_async as eventually, get_json as get};
use mat_core::machine::posture::Posture;
use mat_protocol::device_type::DeviceType;
use serde_json::Value;
use simulator::real;
use simulator::{Rate, Scenario};

const SECOND: Duration = Duration::from_secs(1);

async fn patient_status(hub: &common::TestHub, token: &str, device_id: &str) -> Value {
    let confs = get(hub, token, "/api/deviceConfCompany").await;
    confs.as_array().unwrap().iter().find(|c| c["deviceId"]["$oid"] == device_id).unwrap()["patientStatus"].clone()
}

#[tokio::test]
async fn a_real_recording_yields_one_entrance_one_exit_and_lying_postures() {
    let dir = real::dev_set_dir();
    let supine = real::load(&dir, 1, 1).expect("S1/1.u16");
    let right = real::load(&dir, 1, 2).expect("S1/2.u16");
    // 14 s supine and 14 s on the right side (each real frame held 1 s, as recorded at 1 Hz; the
    // device repeats it at 10 Hz), then an empty bed until the test ends.
    let replay = real::replay(&[(&supine, 14), (&right, 14)], SECOND, 120 * SECOND, DeviceType::MattressMatIoT);

    let hub = common::start_bed(2).await;
    let device = hub.devices[0].clone();
    let token = hub.login().await;
    let (mut spec, transport) = hub.quic_device(&device);
    spec.scenario = Scenario::Replay(replay);
    spec.rate = Rate::Fixed { hz: 10.0 };
    spec.time_offset = Duration::ZERO;
    let (stop, stats) = hub.run_device(spec, transport);

    // Lying: the patient is Correct (present) once the first frames arrive.
    let lying = eventually(12 * SECOND, || async { patient_status(&hub, &token, &device.id).await == "Correct" }).await;
    assert!(lying, "Correct while lying: {}", patient_status(&hub, &token, &device.id).await);

    // Leaving at 28 s: an exit after the 5 s settle, then Missing after the absence delay.
    let presence_path = format!("/api/presenceLogs/{}", device.id);
    let left = eventually(45 * SECOND, || async {
        get(&hub, &token, &presence_path).await.as_array().is_some_and(|a| a.iter().any(|e| e["logId"] == "0"))
    })
    .await;
    assert!(left, "an exit: {}", get(&hub, &token, &presence_path).await);
    let missing = eventually(10 * SECOND, || async { patient_status(&hub, &token, &device.id).await == "Missing" }).await;
    assert!(missing, "Missing after leaving: {}", patient_status(&hub, &token, &device.id).await);
    let _ = stop.send(true);
    assert!(stats.snapshot().frames_sent > 250, "{:?}", stats.snapshot());

    // Exactly one entrance and one exit: no real frame of the stay read ABSENCE for 5 s.
    let presence = get(&hub, &token, &presence_path).await;
    let entries = presence.as_array().unwrap();
    let ids: Vec<&str> = entries.iter().filter_map(|e| e["logId"].as_str()).collect();
    assert_eq!(ids, ["0", "1"], "newest first: the exit, then the entrance: {presence}");
    let (exit, entrance) = (entries[0]["creationDate"].as_i64().unwrap(), entries[1]["creationDate"].as_i64().unwrap());
    assert!((26..=32).contains(&(exit - entrance)), "a stay of 28 s: {presence}");

    // Device log: an entry on entrance and at each settled posture change, all lying postures.
    let logs = get(&hub, &token, &format!("/api/iotLogs/{}", device.id)).await;
    let logs = logs.as_array().unwrap();
    assert!(!logs.is_empty(), "an entry on entrance");
    let lying_ids: Vec<String> =
        [Posture::Supine, Posture::Prone, Posture::LeftLateral, Posture::RightLateral].iter().map(|p| p.id().to_string()).collect();
    for entry in logs {
        let id = entry["posture"]["id"].as_str().unwrap_or_default();
        assert!(id.is_empty() || lying_ids.iter().any(|l| l == id), "a lying posture (or none): {entry}");
        let confidence = entry["posture"]["confidence"].as_f64().unwrap_or(0.0);
        assert!((0.0..=1.0).contains(&confidence), "{entry}");
        // Real peaks are 49–104 mmHg: 120–255 steps of 0.4 mmHg, at least 20 mmHg on any frame.
        assert!(entry["maxPressure"].as_i64().is_some_and(|m| (50..=255).contains(&m)), "the body's peak in steps: {entry}");
        let time = entry["creationDate"][1].as_i64().unwrap();
        assert!((entrance..=exit).contains(&time), "written while present: {entry}");
    }
    let postures: Vec<&str> = logs.iter().map(|e| e["posture"]["id"].as_str().unwrap_or_default()).collect();
    println!("device log postures (newest first): {postures:?}; presence: {presence}");
    // What the subject did: supine (id 0) on entrance, then the right side (id 3).
    assert_eq!(postures, ["3", "0"], "newest first: Right Lateral after Supine");
}
