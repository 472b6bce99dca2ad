//! The device-type table the client reads (`GET /api/deviceTypes`) and the repositioning clock as
//! the device page reads and sets it (`GET`/`PUT /api/device/{id}/repositioning`), including the
//! demo/test-only time scale that lets a browser tour watch an Ulcer Risk alarm.
#![allow(clippy::unwrap_used)] // A test's helpers may unwrap: the panic is the failure it reports.

mod common;

use std::time::Duration;

use common::request;
use serde_json::Value;
use simulator::synth::BedScript;
use simulator::{Rate, Scenario};

const SECOND: Duration = Duration::from_secs(1);

#[tokio::test]
async fn the_device_type_table_is_served_to_signed_in_users() {
    let hub = common::start(&["Mattress Mat IoT"]).await;
    let anonymous = request(hub.http(), "GET", "/api/deviceTypes", None, None).await;
    assert_eq!(anonymous.status, 401);
    let token = hub.login().await;
    let response = request(hub.http(), "GET", "/api/deviceTypes", Some(&token), None).await;
    assert_eq!(response.status, 200, "{}", response.body);
    let table: Value = response.json();
    let types = table.as_array().unwrap();
    assert_eq!(types.len(), 21, "the 20 types of spec §3 and Room Set");
    let by_name = |name: &str| types.iter().find(|t| t["name"] == name).unwrap_or_else(|| panic!("{name} missing")).clone();
    let iot = by_name("Podology IoT");
    assert_eq!(iot["route"], "/PodiatryIoT");
    assert_eq!(iot["analysisRoute"], "/Podology");
    assert_eq!(iot["pageFamily"], "mat");
    assert_eq!(iot["frame"], serde_json::json!({ "rows": 48, "cols": 48, "bytesPerCell": 1 }));
    assert!(iot["captures"].as_array().unwrap().contains(&Value::from("Remote")));
    assert_eq!(iot["pdfReports"], true);
    let room = by_name("Room Set");
    assert_eq!(
        (room["route"].as_str(), room["pageFamily"].as_str(), room["settingsRoute"].as_str()),
        (Some("/ForceMat"), Some("roomSet"), Some("/roomSettings"))
    );
    assert_eq!(room["frame"], Value::Null);
    let force = by_name("Force Mat");
    assert_eq!(
        (force["pageFamily"].as_str(), force["hasPatients"].as_bool(), force["readingPresence"].as_bool()),
        (Some("force"), Some(false), Some(true))
    );
    assert_eq!(by_name("Sensing Horse Subdevice")["card"], false);
    assert_eq!(by_name("Sleep Mat")["posture"], "sleepMat");
    assert_eq!(by_name("Seating Mat IoT")["cellSizeCm"], 2.0);
    assert_eq!(by_name("Mattress Mat IoT")["repositioningClock"], true);
    assert_eq!(types.iter().filter(|t| t["pdfReports"] == true).count(), 8, "spec §6");
    assert_eq!(by_name("Fitness Mat")["captures"], serde_json::json!(["Static", "Series24h"]), "spec §6: its 24 h button");
    // Steps in hub units (1000/255 Pa): the Fitness Mat the spec's 0.06 kPa, a seat 1 mmHg, a plate
    // 1 kPa, a floor mat or the Wellness Mat 1 mmHg (docs/device-protocol.md §7).
    let step = |name: &str| by_name(name)["pressureUnitsPerCell"].as_f64().unwrap();
    assert!((step("Fitness Mat") - 0.06 * 255.0).abs() < 1e-9, "{}", step("Fitness Mat"));
    assert!((step("Seating Mat IoT") - 133.322_387_415 * 255.0 / 1000.0).abs() < 1e-9, "a seat's step is 1 mmHg");
    assert!((step("Podology IoT") - 255.0).abs() < 1e-9, "a plate's step is 1 kPa");
    assert!((step("Floor Mat") - step("Seating Mat IoT")).abs() < 1e-12, "a floor mat's step is 1 mmHg");
    assert!((step("Wellness Mat") - step("Seating Mat IoT")).abs() < 1e-12, "the Wellness Mat's step is 1 mmHg");
    // The one active floor, in each type's steps: two steps where people lie or sit, 5 kPa on a
    // plate; none where cells are not pressures.
    let floor = |name: &str| by_name(name)["activeFloorSteps"].clone();
    assert_eq!(floor("Mattress Mat IoT"), 2);
    assert_eq!(floor("Seating Mat IoT"), 2);
    assert_eq!(floor("Floor Mat"), 2);
    assert_eq!(floor("Podology IoT"), 5);
    assert_eq!(floor("Force Mat"), Value::Null);
    // The horse's page shows its sub-devices' maps and counts them with their floor.
    assert_eq!(floor("Sensing Horse"), floor("Sensing Horse Subdevice"));
    let bed_step = by_name("Mattress Mat IoT")["pressureUnitsPerCell"].as_f64().unwrap();
    assert!((bed_step - 0.4 * 133.322_387_415 * 255.0 / 1000.0).abs() < 1e-9, "a bed mat's step is 0.4 mmHg: {bed_step}");
    assert_eq!(force["pressureUnitsPerCell"], Value::Null, "force channels are not pressures");
    check_client_fixture(&table, "deviceTypes.json");
    hub.hub.shutdown().await;
}

#[tokio::test]
async fn the_pressure_scale_is_served_to_signed_in_users() {
    let hub = common::start(&["Mattress Mat IoT"]).await;
    let anonymous = request(hub.http(), "GET", "/api/pressureScale", None, None).await;
    assert_eq!(anonymous.status, 401);
    let token = hub.login().await;
    let response = request(hub.http(), "GET", "/api/pressureScale", Some(&token), None).await;
    assert_eq!(response.status, 200, "{}", response.body);
    let scale: Value = response.json();
    assert!((scale["pascalPerUnit"].as_f64().unwrap() - 1000.0 / 255.0).abs() < 1e-12);
    assert_eq!(scale["defaultUnit"], "mmHg", "spec §9: mmHg unless the user chooses kPa");
    assert_eq!(scale["fitnessKpaPerStep"], 0.06, "spec §1");
    let units: Vec<(&str, f64)> =
        scale["pascalPer"].as_array().unwrap().iter().map(|u| (u["unit"].as_str().unwrap(), u["pascals"].as_f64().unwrap())).collect();
    assert_eq!(units, [("mmHg", 133.322_387_415), ("kPa", 1000.0)]);
    check_client_fixture(&scale, "pressureScale.json");
    hub.hub.shutdown().await;
}

/// The client's tests read the table from `client/src/test/fixtures/deviceTypes.json`; it must be
/// exactly what the hub serves. `UPDATE_CLIENT_FIXTURES=1` rewrites it.
fn check_client_fixture(table: &Value, file: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../client/src/test/fixtures").join(file);
    let served = serde_json::to_string_pretty(table).unwrap() + "\n";
    if std::env::var_os("UPDATE_CLIENT_FIXTURES").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &served).unwrap();
    }
    let stored = std::fs::read_to_string(&path).unwrap_or_default();
    let stored: Value = serde_json::from_str(&stored).unwrap_or(Value::Null);
    assert_eq!(&stored, table, "client/src/test/fixtures/{file} is out of date: run this test with UPDATE_CLIENT_FIXTURES=1");
}

#[tokio::test]
async fn the_interval_is_validated_at_and_across_its_limits_and_read_back() {
    let hub = common::start(&["Mattress Mat IoT", "Force Mat"]).await;
    let token = hub.login().await;
    let path = format!("/api/device/{}/repositioning", hub.devices[0].id);
    for (minutes, status) in [(14, 400), (15, 200), (1440, 200), (1441, 400), (0, 400), (-15, 400)] {
        let body = format!(r#"{{"minutes": {minutes}}}"#);
        let response = request(hub.http(), "PUT", &path, Some(&token), Some(&body)).await;
        assert_eq!(response.status, status, "{minutes} min: {}", response.body);
        if status == 400 {
            assert_eq!(response.error_code(), "invalidRepositioningInterval");
        }
    }
    let read: Value = request(hub.http(), "GET", &path, Some(&token), None).await.json();
    assert_eq!(read["minutes"], 1440, "{read}");
    assert_eq!(read["tier"], "ok");
    assert_eq!(read["dueInSeconds"], Value::Null, "nobody on the mat");
    assert_eq!(
        (read["unloadedForSeconds"].clone(), read["offloadSeconds"].as_u64()),
        (Value::Null, Some(900)),
        "at rest, not a patient up: {read}"
    );
    assert_eq!((read["minMinutes"].as_i64(), read["maxMinutes"].as_i64()), (Some(15), Some(1440)), "the form reads the limits");
    let reset = request(hub.http(), "PUT", &path, Some(&token), Some(r#"{"minutes": null}"#)).await;
    assert_eq!(reset.json::<Value>()["minutes"], 120);
    // A Force Mat has no repositioning clock.
    let force = request(hub.http(), "GET", &format!("/api/device/{}/repositioning", hub.devices[1].id), Some(&token), None).await;
    assert_eq!(force.status, 404, "{}", force.body);
    hub.hub.shutdown().await;
}

#[tokio::test]
async fn with_the_demo_time_scale_a_still_patient_raises_ulcer_risk_within_seconds() {
    let hub = common::start_with(&["Mattress Mat IoT"], |mut config| {
        config.demo_repositioning_time_scale = 60;
        config
    })
    .await;
    let device = hub.devices[0].clone();
    let token = hub.login().await;
    let path = format!("/api/device/{}/repositioning", device.id);
    // 15 minutes, the shortest interval the API takes, runs as 15 s on the scaled clock.
    let set = request(hub.http(), "PUT", &path, Some(&token), Some(r#"{"minutes": 15}"#)).await;
    assert_eq!(set.status, 200, "{}", set.body);
    let (mut spec, transport) = hub.quic_device(&device);
    spec.scenario = Scenario::BedOccupant(BedScript { empty: SECOND, lie_down: SECOND, supine: 120 * SECOND, ..BedScript::default() });
    spec.rate = Rate::Fixed { hz: 5.0 };
    let (stop, _stats) = hub.run_device(spec, transport);

    // While the patient lies still the page reads the time left, in wall-clock seconds.
    let mut countdown = None;
    for _ in 0..40 {
        let read: Value = request(hub.http(), "GET", &path, Some(&token), None).await.json();
        if let Some(left) = read["dueInSeconds"].as_u64() {
            countdown = Some(left);
            assert_eq!(read["minutes"], 15, "the interval reads back as set: {read}");
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let left = countdown.expect("a countdown once the patient lies down");
    assert!(left <= 15, "15 min at 60× is 15 s, {left} s left");

    let alarms = format!("/api/iotAlarms/{}", device.id);
    let mut raised = false;
    for _ in 0..120 {
        let list: Value = request(hub.http(), "GET", &alarms, Some(&token), None).await.json();
        if list.as_array().is_some_and(|a| a.iter().any(|x| x["kind"] == "Ulcer Risk")) {
            raised = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    assert!(raised, "an Ulcer Risk alarm within 30 s");
    let read: Value = request(hub.http(), "GET", &path, Some(&token), None).await.json();
    assert!(matches!(read["tier"].as_str(), Some("due" | "overdue")), "{read}");
    assert_eq!(read["dueInSeconds"], 0);
    let _ = stop.send(true);
    hub.hub.shutdown().await;
}
