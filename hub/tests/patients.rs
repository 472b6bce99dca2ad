//! The patient at the bedside, deleting a patient and a patient's data file (issue 22), through
//! the real hub's REST API over a real in-memory SurrealDB.
#![allow(clippy::unwrap_used)] // A test's helpers may unwrap: the panic is the failure it reports.

mod common;

use common::{PASSWORD, login, request, request_raw, seed_company};
use serde_json::{Value, json};
use storage::Store;
use storage::model::{AnalysisFilter, NewAnalysis};

const ADMIN_EMAIL: &str = "admin@clinic-a.example.com";
/// A bed, a plate, a seat.
const TYPES: [&str; 3] = ["Mattress Mat IoT", "Podology IoT", "Seating Mat IoT"];

struct World {
    hub: hub::app::RunningHub,
    store: Store,
    company: String,
    nurse: String,
    nurse_id: String,
    admin: String,
    other: String,
    devices: Vec<common::SeededDevice>,
    _data: tempfile::TempDir,
}

async fn world() -> World {
    let data = tempfile::tempdir().unwrap();
    let store = Store::memory().await.unwrap();
    let (company, email, devices) = seed_company(&store, "A", &TYPES).await;
    let (_, other_email, _) = seed_company(&store, "B", &TYPES).await;
    store.hub_wide().accounts().create(ADMIN_EMAIL, PASSWORD, hub::auth::roles::ROLE_ADMIN, &company).await.unwrap();
    let hub = hub::app::start_with_store(common::config(data.path()), store.clone()).await.unwrap();
    let nurse = login(hub.http_addr, &email, PASSWORD).await;
    let nurse_id = store.hub_wide().accounts().credentials(&email).await.unwrap().unwrap().id;
    let admin = login(hub.http_addr, ADMIN_EMAIL, PASSWORD).await;
    let other = login(hub.http_addr, &other_email, PASSWORD).await;
    World { hub, store, company, nurse, nurse_id, admin, other, devices, _data: data }
}

impl World {
    async fn call(&self, method: &str, path: &str, token: &str, body: Value) -> common::Response {
        let body = if body.is_null() { None } else { Some(body.to_string()) };
        request(self.hub.http_addr, method, path, Some(token), body.as_deref()).await
    }

    async fn new_patient(&self, name: &str) -> String {
        let body = json!({ "name": name, "weight": 70, "height": 170, "agreeDataTreatment": true });
        let response = self.call("POST", &format!("/api/podometry/patients/{}", self.nurse_id), &self.nurse, body).await;
        assert_eq!(response.status, 201, "{}", response.body);
        response.json::<Value>()["_id"]["$oid"].as_str().unwrap().to_owned()
    }

    async fn device_json(&self, id: &str) -> Value {
        let devices: Vec<Value> = self.call("GET", "/api/userDevices", &self.nurse, Value::Null).await.json();
        devices.into_iter().find(|d| d["_id"]["$oid"] == id).expect("the device is listed")
    }
}

#[tokio::test]
async fn a_bed_has_its_own_patient_while_a_clinician_selects_another_for_the_plate() {
    let w = world().await;
    let (bed, plate) = (&w.devices[0].id, &w.devices[1].id);
    let ana = w.new_patient("Ana Bed").await;
    let bea = w.new_patient("Bea Plate").await;
    // The clinician selects Bea (for the plate); the bed stays free.
    let selected = w.call("PUT", &format!("/api/podometry/patient/select/{}", w.nurse_id), &w.nurse, json!({ "patientId": bea })).await;
    assert_eq!(selected.status, 200, "{}", selected.body);
    assert_eq!(w.device_json(bed).await["currentPatient"], Value::Null, "a user's selection is not the bed's patient");

    // The nurse puts Ana in the bed.
    let assigned = w.call("PUT", &format!("/api/device/{bed}/patient"), &w.nurse, json!({ "patientId": ana })).await;
    assert_eq!(assigned.status, 200, "{}", assigned.body);
    assert_eq!(assigned.json::<Value>()["currentPatientName"], "Ana Bed");
    let listed = w.device_json(bed).await;
    assert_eq!((listed["currentPatient"].as_str(), listed["currentPatientName"].as_str()), (Some(ana.as_str()), Some("Ana Bed")));
    let still: Value = w.call("GET", &format!("/api/podometry/patient/select/{}", w.nurse_id), &w.nurse, Value::Null).await.json();
    assert_eq!(still["patient"]["_id"]["$oid"], bea.as_str(), "assigning a bed leaves the clinician's selection alone");
    assert_eq!(w.device_json(plate).await["currentPatient"], Value::Null);

    // A plate has no patient of its own; another company can neither assign nor see.
    let refused = w.call("PUT", &format!("/api/device/{plate}/patient"), &w.nurse, json!({ "patientId": ana })).await;
    assert_eq!((refused.status, refused.error_code().as_str()), (400, "noBedsidePatient"), "{}", refused.body);
    assert_eq!(w.call("PUT", &format!("/api/device/{bed}/patient"), &w.other, json!({ "patientId": null })).await.status, 404);
    let foreign = w.call("PUT", &format!("/api/device/{bed}/patient"), &w.nurse, json!({ "patientId": "not-ours" })).await;
    assert_eq!(foreign.status, 404, "{}", foreign.body);
    assert_eq!(w.device_json(bed).await["currentPatient"].as_str(), Some(ana.as_str()), "refusals change nothing");

    // Released.
    let released = w.call("PUT", &format!("/api/device/{bed}/patient"), &w.nurse, json!({ "patientId": null })).await;
    assert_eq!(released.status, 200, "{}", released.body);
    assert_eq!(w.device_json(bed).await["currentPatient"], Value::Null);
}

/// A one-frame static capture on `device` asked for `patient_id` (the browser's selection).
fn static_capture(
    device_id: &str,
    patient_id: &str,
    user_id: &str,
    rows: u16,
    cols: u16,
) -> std::sync::Arc<actors::actor::record::CaptureRecord> {
    use actors::actor::record::CaptureRecord;
    use mat_core::machine::capture::CapturedFrame;
    let cells = vec![40u16; usize::from(rows) * usize::from(cols)];
    std::sync::Arc::new(CaptureRecord {
        device_id: device_id.into(),
        patient_id: patient_id.to_owned(),
        user_id: user_id.to_owned(),
        kind: mat_core::machine::capture::CaptureKind::Static,
        requested_at_ms: 1_764_000_000_000,
        seconds: 0,
        frames: vec![CapturedFrame { offset_ms: 0, rows, cols, cells }],
        dropped_frames: 0,
    })
}

#[tokio::test]
async fn a_capture_on_a_bed_is_its_patients_whoever_the_browser_selected_and_never_another_companys() {
    use hub::domain::analyses::record_capture;
    use mat_protocol::device_type::DeviceType;
    let w = world().await;
    let (bed, plate) = (&w.devices[0].id, &w.devices[1].id);
    let ana = w.new_patient("Ana Bed").await;
    let bea = w.new_patient("Bea Plate").await;
    let assigned = w.call("PUT", &format!("/api/device/{bed}/patient"), &w.nurse, json!({ "patientId": ana })).await;
    assert_eq!(assigned.status, 200, "{}", assigned.body);
    let company = w.store.company(&w.company);
    let stored_for = |device: String| {
        let company = w.store.company(&w.company);
        async move {
            let filter = AnalysisFilter { device_id: Some(device), ..AnalysisFilter::default() };
            company.analyses().page(&filter, 0, 10).await.unwrap().into_iter().map(|a| a.patient_id).collect::<Vec<_>>()
        }
    };
    // The clinician's browser names Bea (its selection); the bed's record is Ana's.
    record_capture(company, Some(DeviceType::MattressMatIoT), static_capture(bed, &bea, &w.nurse_id, 48, 48)).await.unwrap();
    assert_eq!(stored_for(bed.clone()).await, vec![ana.clone()]);
    // A plate's capture follows the selection.
    record_capture(company, Some(DeviceType::PodologyIoT), static_capture(plate, &bea, &w.nurse_id, 48, 48)).await.unwrap();
    assert_eq!(stored_for(plate.clone()).await, vec![bea.clone()]);
    // A patient id that is not the company's gets no record (storage refuses it; the writer
    // logs and skips a record that can never be written).
    let foreign = record_capture(company, Some(DeviceType::PodologyIoT), static_capture(plate, "not-ours", &w.nurse_id, 48, 48)).await;
    assert!(matches!(foreign, Err(storage::StoreError::NotFound)), "{foreign:?}");
    assert_eq!(stored_for(plate.clone()).await.len(), 1);
}

#[tokio::test]
async fn an_administrator_deletes_a_patient_with_their_analyses_and_the_audit_log_says_so() {
    let w = world().await;
    let bed = &w.devices[0].id;
    let ana = w.new_patient("Ana Erased").await;
    let bea = w.new_patient("Bea Kept").await;
    for (patient, at) in [(&ana, 1), (&ana, 2), (&bea, 3)] {
        let analysis = NewAnalysis {
            patient_id: patient.clone(),
            user_id: w.nurse_id.clone(),
            analysis_type: "Static".into(),
            creation_date: at,
            map_preview: "[[1]]".into(),
            additional_parameters: "[]".into(),
            ..NewAnalysis::default()
        };
        w.store.company(&w.company).analyses().create(&analysis).await.unwrap();
    }
    assert_eq!(w.call("PUT", &format!("/api/device/{bed}/patient"), &w.nurse, json!({ "patientId": ana })).await.status, 200);

    // Her data as one file first.
    let file = request_raw(w.hub.http_addr, "GET", &format!("/api/podometry/patient/{ana}/data"), Some(&w.nurse), "").await;
    assert_eq!(file.status, 200, "{}", String::from_utf8_lossy(&file.body));
    assert!(
        file.header("content-disposition").is_some_and(|h| h.contains("attachment") && h.contains("patient_Ana_Erased_")),
        "{:?}",
        file.header("content-disposition")
    );
    let data: Value = serde_json::from_slice(&file.body).unwrap();
    assert_eq!(data["patient"]["name"], "Ana Erased");
    assert_eq!(data["analyses"].as_array().map(Vec::len), Some(2));
    assert_eq!(data["bedsideDevices"][0]["deviceId"], bed.as_str());
    assert_eq!(
        w.call("GET", &format!("/api/podometry/patient/{ana}/data"), &w.other, Value::Null).await.status,
        404,
        "not another company's"
    );

    // Staff may not delete; another company's administrator cannot reach her.
    let staff = w.call("DELETE", &format!("/api/podometry/patient/{ana}"), &w.nurse, Value::Null).await;
    assert_eq!(staff.status, 403, "{}", staff.body);
    let deleted = w.call("DELETE", &format!("/api/podometry/patient/{ana}"), &w.admin, Value::Null).await;
    assert_eq!(deleted.status, 200, "{}", deleted.body);
    assert_eq!(deleted.json::<Value>()["analyses"], 2);

    let patients: Vec<Value> = w.call("GET", &format!("/api/podometry/patients/{}", w.nurse_id), &w.nurse, Value::Null).await.json();
    assert_eq!(patients.iter().map(|p| p["name"].as_str().unwrap()).collect::<Vec<_>>(), ["Bea Kept"]);
    let of_ana = AnalysisFilter { patient_id: Some(ana.clone()), analysis_type: None, device_id: None };
    assert_eq!(w.store.company(&w.company).analyses().totals(&of_ana).await.unwrap().count, 0, "her analyses are erased");
    assert_eq!(w.store.company(&w.company).analyses().totals(&AnalysisFilter::default()).await.unwrap().count, 1, "Bea's stay");
    assert_eq!(w.device_json(bed).await["currentPatient"], Value::Null, "the bed is released");

    let audit: Value = w.call("GET", "/api/auditLog/1", &w.admin, Value::Null).await.json();
    let entry = audit["entries"].as_array().unwrap().iter().find(|e| e["action"] == "patient.delete").expect("an audit entry");
    assert_eq!((entry["entityId"].as_str(), entry["userEmail"].as_str()), (Some(ana.as_str()), Some(ADMIN_EMAIL)));
    assert!(entry["summary"].as_str().unwrap().contains("Ana Erased"));
    assert_eq!(w.call("DELETE", &format!("/api/podometry/patient/{ana}"), &w.admin, Value::Null).await.status, 404, "once");
}

#[tokio::test]
async fn patient_and_analysis_changes_are_in_the_audit_log() {
    let w = world().await;
    let ana = w.new_patient("Ana Audited").await;
    let edited = w
        .call("PUT", &format!("/api/podometry/patient/{ana}"), &w.nurse, json!({ "name": "Ana Audited B", "weight": 70, "height": 170 }))
        .await;
    assert_eq!(edited.status, 200, "{}", edited.body);
    let analysis = NewAnalysis {
        patient_id: ana.clone(),
        user_id: w.nurse_id.clone(),
        analysis_type: "Static".into(),
        creation_date: 1,
        map_preview: "[[1]]".into(),
        additional_parameters: "[]".into(),
        ..NewAnalysis::default()
    };
    let id = w.store.company(&w.company).analyses().create(&analysis).await.unwrap();
    let notes = w.call("PUT", &format!("/api/podometryAnalysis/specific/{id}"), &w.nurse, json!({ "notes": "heel pain" })).await;
    assert_eq!(notes.status, 200, "{}", notes.body);
    let deleted = w.call("DELETE", &format!("/api/podometryAnalysis/specific/{id}"), &w.nurse, Value::Null).await;
    assert_eq!(deleted.status, 200, "{}", deleted.body);
    let audit: Value = w.call("GET", "/api/auditLog/1", &w.admin, Value::Null).await.json();
    let entries = audit["entries"].as_array().unwrap();
    let find = |action: &str| entries.iter().find(|e| e["action"] == action).unwrap_or_else(|| panic!("no {action} entry in {entries:?}"));
    assert_eq!(find("patient.create")["entityId"], ana.as_str());
    assert_eq!(find("patient.update")["entityId"], ana.as_str());
    assert_eq!(find("analysis.notes")["entityId"], id.as_str());
    assert_eq!(find("analysis.delete")["entityId"], id.as_str());
    assert!(entries.iter().all(|e| e["summary"].as_str().is_some_and(|s| !s.contains("heel pain"))), "notes stay out of the audit log");
}
