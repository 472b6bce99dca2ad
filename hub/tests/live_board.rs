//! REST answers what the live board holds (`actors::live_board`): device configurations with
//! their live status, Force Mat channels and the latest pressure map, each company its own.
//! The board is written here as a device's actors write it; no actor runs for these devices
//! (none connects and REST does not start one), so nothing else writes their entries.

mod common;

use std::sync::Arc;

use actors::browser::DeviceConfEvent;
use actors::live_board::LiveMap;
use common::*;
use mat_core::machine::mat::DeviceStatus;
use mat_core::machine::status::PatientStatus;
use mat_protocol::CellFormat;
use mat_protocol::device_type::DeviceType;
use serde_json::{Value, json};

#[tokio::test]
async fn rest_reads_statuses_and_maps_from_the_live_board() {
    let data = tempfile::tempdir().unwrap();
    let store = storage::Store::memory().await.unwrap();
    let (company, email, devices) = seed_company(&store, "L", &["Mattress Mat IoT", "Force Mat"]).await;
    let (_other_company, other_email, _) = seed_company(&store, "O", &["Mattress Mat IoT"]).await;
    let hub = hub::app::start_with_store(config(data.path()), store).await.unwrap();
    let (bed, force) = (&devices[0], &devices[1]);
    let token = login(hub.http_addr, &email, PASSWORD).await;
    let other_token = login(hub.http_addr, &other_email, PASSWORD).await;
    let get = |path: String, token: String| async move { request(hub.http_addr, "GET", &path, Some(&token), None).await };

    // At start the registry shows every device offline, with no map.
    let conf: Value = get(format!("/api/deviceConfiguration/{}", bed.id), token.clone()).await.json();
    assert_eq!((conf["deviceFunctional"].clone(), conf["patientStatus"].clone()), (json!(false), json!("Correct")), "{conf}");
    let log: Value = get(format!("/api/standard/pressureMapLogs/{}", bed.serial), token.clone()).await.json();
    assert_eq!(log, json!({ "creationDate": null, "pressureMap": null, "pressures": 0 }));

    // The bed's patient is Missing with an alarm waiting; a 48×48 map with two loaded cells.
    let info = hub.catalog.get(&bed.id).expect("in the catalogue");
    let status = DeviceStatus { unattended_alarm: true, ..DeviceStatus::offline(DeviceType::MattressMatIoT, PatientStatus::Missing) };
    let live = hub.board.device(&company, &bed.id);
    live.set_status(DeviceConfEvent::new(&info.identity(), &status, Vec::new()));
    let mut cells = vec![0u8; 48 * 48];
    cells[0] = 7;
    cells[48 * 47 + 47] = 200;
    let mut map = LiveMap::new(48, 48, CellFormat::U8, cells).unwrap();
    map.hub_time_ms = 1_763_779_200_123;
    live.set_map(Arc::new(map));

    let conf: Value = get(format!("/api/deviceConfiguration/{}", bed.id), token.clone()).await.json();
    assert_eq!(
        (conf["patientStatus"].clone(), conf["unattendedAlarm"].clone(), conf["hardwareSerial"].clone()),
        (json!("Missing"), json!(true), json!(bed.serial)),
        "{conf}"
    );
    let confs: Vec<Value> = get("/api/deviceConfCompany".to_owned(), token.clone()).await.json();
    let listed = confs.iter().find(|c| c["deviceId"]["$oid"] == json!(bed.id)).unwrap_or_else(|| panic!("{confs:?}"));
    assert_eq!(listed["patientStatus"], json!("Missing"));
    let log: Value = get(format!("/api/standard/pressureMapLogs/{}", bed.serial), token.clone()).await.json();
    assert_eq!(log["creationDate"], json!({ "$date": 1_763_779_200_123u64 }));
    assert_eq!(log["pressures"], json!(207));
    let rows = log["pressureMap"].as_array().expect("rows");
    assert_eq!(
        (rows.len(), rows[0].as_array().map(Vec::len), rows[0][0].clone(), rows[47][47].clone()),
        (48, Some(48), json!(7), json!(200))
    );

    // A Force Mat's four channels, as its frames carry them (two bytes each).
    let (rows, cols, _) = DeviceType::ForceMat.frame_shape().expect("a force mat streams");
    let channels: Vec<u8> = [4095u16, 10, 0, 300].iter().flat_map(|v| v.to_le_bytes()).collect();
    let mut reading = LiveMap::new(rows, cols, CellFormat::U16Le, channels).unwrap();
    reading.hub_time_ms = 42;
    hub.board.device(&company, &force.id).set_map(Arc::new(reading));
    let values: Value = get(format!("/api/ForceDeviceApi/{}", force.id), token.clone()).await.json();
    assert_eq!(values, json!({ "presureValue": [4095, 10, 0, 300], "total": 4405, "hubTimeMs": 42 }));

    // Another company sees none of it.
    let others: Vec<Value> = get("/api/deviceConfCompany".to_owned(), other_token.clone()).await.json();
    assert!(!others.iter().any(|c| c["deviceId"]["$oid"] == json!(bed.id)), "{others:?}");
    assert_eq!(others.len(), 1, "its own bed only: {others:?}");
    assert_eq!(get(format!("/api/standard/pressureMapLogs/{}", bed.serial), other_token.clone()).await.status, 404);

    // A blanked map is no map.
    live.clear_map();
    let log: Value = get(format!("/api/standard/pressureMapLogs/{}", bed.serial), token.clone()).await.json();
    assert_eq!(log["pressureMap"], Value::Null);
    hub.shutdown().await;
}
