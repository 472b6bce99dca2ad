//! The real-scale print follows the device-type table: a record of a podology plate prints its
//! feet at 1:1; a bed's record is refused with a clear error (a whole body at 1:1 is dozens of
//! pages), whatever page it is asked from.

#![allow(clippy::unwrap_used)] // A test's helpers may unwrap: the panic is the failure it reports.

mod common;

use std::sync::Arc;

use actors::actor::record::CaptureRecord;
use common::*;
use hub::domain::analyses::record_capture;
use mat_core::machine::capture::{CaptureKind, CapturedFrame};
use mat_protocol::device_type::DeviceType;
use storage::model::{AnalysisFilter, PatientFields};

/// A patient's shape on a 48 × 48 map: two feet, or a body along a bed.
fn loaded(cells_of: impl Fn(usize, usize) -> u16) -> Vec<u16> {
    (0..48 * 48).map(|i| cells_of(i / 48, i % 48)).collect()
}

#[tokio::test]
async fn a_bed_has_no_real_scale_print_and_a_plate_has_one() {
    let hub = start(&["Podology IoT", "Mattress Mat IoT"]).await;
    let token = hub.login().await;
    let company = hub.hub.store.company(&hub.company_id);
    let patient = PatientFields { name: "Ana Scale".into(), weight: 60.0, height: 165.0, ..Default::default() };
    let user = hub.hub.store.hub_wide().accounts().credentials(&hub.email).await.unwrap().unwrap().id;
    let patient_id = company.patients().create(&user, &patient).await.unwrap();
    let feet = loaded(|r, c| if (14..27).contains(&r) && ((14..19).contains(&c) || (28..33).contains(&c)) { 120 } else { 0 });
    let body = loaded(|r, c| if (16..32).contains(&r) && (4..44).contains(&c) { 60 } else { 0 });
    for (device, device_type, cells) in
        [(&hub.devices[0], DeviceType::PodologyIoT, feet), (&hub.devices[1], DeviceType::MattressMatIoT, body)]
    {
        let capture = CaptureRecord {
            device_id: Arc::from(device.id.as_str()),
            patient_id: patient_id.clone(),
            user_id: user.clone(),
            kind: CaptureKind::Static,
            requested_at_ms: 1_764_171_060_000,
            seconds: 0,
            frames: vec![CapturedFrame { offset_ms: 0, rows: 48, cols: 48, cells }],
            dropped_frames: 0,
        };
        record_capture(hub.hub.store.company(&hub.company_id), Some(device_type), Arc::new(capture)).await.unwrap();
    }
    let record_of = |device: &SeededDevice| {
        let company = hub.hub.store.company(&hub.company_id);
        let filter = AnalysisFilter { device_id: Some(device.id.clone()), ..AnalysisFilter::default() };
        async move { company.analyses().page(&filter, 0, 1).await.unwrap()[0].id.clone() }
    };
    let plate_record = record_of(&hub.devices[0]).await;
    let bed_record = record_of(&hub.devices[1]).await;
    let addr = hub.http();
    let print = |id: String| {
        let token = token.clone();
        async move { request_raw(addr, "POST", &format!("/api/downloadRealScalePDF/{id}"), Some(&token), r#"{"layout": "A3"}"#).await }
    };
    let plate = print(plate_record).await;
    assert_eq!(plate.status, 200, "{}", String::from_utf8_lossy(&plate.body));
    assert!(plate.body.starts_with(b"%PDF"));
    let bed = print(bed_record).await;
    assert_eq!(bed.status, 422, "{}", String::from_utf8_lossy(&bed.body));
    let error: serde_json::Value = serde_json::from_slice(&bed.body).unwrap();
    assert_eq!(error["error"], "toastErrorRaw.realScaleNotOffered");
    // The table says so to the client.
    let types: serde_json::Value = request(hub.http(), "GET", "/api/deviceTypes", Some(&token), None).await.json();
    let flag = |name: &str| types.as_array().unwrap().iter().find(|t| t["name"] == name).unwrap()["realScalePrint"].clone();
    assert_eq!((flag("Mattress Mat IoT"), flag("Podology IoT")), (serde_json::json!(false), serde_json::json!(true)));
}
