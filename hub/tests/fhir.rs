//! FHIR R4 under `/fhir/r4` (issue 24, item 4) against the real hub over a real in-memory
//! SurrealDB, with a simulated bed whose patient lies, turns and leaves (presence, postures,
//! pressures, a turn, Missing alarms), a captured analysis stored as the hub stores one, a
//! room set's members and a force mat:
//! - every resource the hub serves (the CapabilityStatement, each type read by id and searched,
//!   the searchsets, the OperationOutcomes) is validated by an independent validator: the PyPI
//!   `fhir.resources` models of FHIR 4.0.1 (`hub/tests/fhir/validate.py`), in a virtual
//!   environment made on first use under Cargo's test directory, as `hub/tests/alarm_manager.rs`
//!   does for `hl7`;
//! - company isolation: another company's token finds nothing, and its reads by id answer 404;
//! - paging: `_count=2` walks every page through the `next` links, each match once;
//! - the search parameters (patient, device, date, code) and the refusals (401, 400, 404, 405);
//! - every turn a nurse recorded (`GET /api/device/{id}/turns`) is an Observation, with when, the
//!   new position, who, on time or late, the device and the patient.
#![allow(clippy::unwrap_used)] // A test's helpers may unwrap: the panic is the failure it reports.

mod common;

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use actors::actor::record::CaptureRecord;
use common::{PASSWORD, Response, SeededDevice, eventually_async, login, request_raw, seed_company, try_request};
use mat_core::analysis::AnalysisParams;
use mat_core::machine::capture::{CaptureKind, CapturedFrame};
use mat_protocol::device_type::DeviceType;
use serde_json::{Value, json};
use simulator::synth::BedScript;
use simulator::{Rate, Scenario};
use storage::Store;
use storage::model::NewDevice;

const SECOND: Duration = Duration::from_secs(1);
/// fhir.resources 6.1.0 is FHIR 4.0.1 (R4; 6.2 and later are R4B/R5); it needs pydantic 1.
const FHIR_RESOURCES: &str = "6.1.0";
const PYDANTIC: &str = "1.10.13";

/// The validator's python, in a venv made once per test run.
fn python() -> PathBuf {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    PYTHON
        .get_or_init(|| {
            let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fhir-venv");
            let python = venv.join("bin/python");
            let check = format!(
                "import importlib.metadata as m; assert m.version('fhir.resources') == '{FHIR_RESOURCES}' and m.version('pydantic') == '{PYDANTIC}'"
            );
            if !Command::new(&python).args(["-c", &check]).status().is_ok_and(|s| s.success()) {
                let made = Command::new("python3").args(["-m", "venv"]).arg(&venv).status().expect("python3 runs");
                assert!(made.success(), "python3 -m venv failed");
                let pip = Command::new(venv.join("bin/pip"))
                    .args(["install", "--quiet", "--disable-pip-version-check"])
                    .arg(format!("fhir.resources=={FHIR_RESOURCES}"))
                    .arg(format!("pydantic=={PYDANTIC}"))
                    .status()
                    .expect("pip runs");
                assert!(pip.success(), "pip install fhir.resources failed");
            }
            python
        })
        .clone()
}

/// Each resource's validation: (resourceType, id, errors).
fn validate(resources: &[Value]) -> Vec<(String, String, Vec<String>)> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fhir/validate.py");
    let mut child = Command::new(python()).arg(script).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("the validator starts");
    let mut input = child.stdin.take().unwrap();
    let lines: String = resources.iter().map(|r| format!("{r}\n")).collect();
    let writer = std::thread::spawn(move || input.write_all(lines.as_bytes()));
    let verdicts: Vec<(String, String, Vec<String>)> = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(|line| {
            let v: Value = serde_json::from_str(&line.unwrap()).unwrap();
            let errors = v["errors"].as_array().unwrap().iter().map(|e| e.as_str().unwrap().to_owned()).collect();
            (v["resourceType"].as_str().unwrap_or("?").to_owned(), v["id"].as_str().unwrap_or("").to_owned(), errors)
        })
        .collect();
    writer.join().unwrap().unwrap();
    assert!(child.wait().unwrap().success());
    assert_eq!(verdicts.len(), resources.len(), "one verdict per resource");
    verdicts
}

struct World {
    hub: hub::app::RunningHub,
    token: String,
    other: String,
    /// The company user's e-mail and account id (who records the turns).
    email: String,
    user: String,
    bed: SeededDevice,
    force: SeededDevice,
    room_set: String,
    members: Vec<String>,
    patient: String,
    analysis: String,
    _data: tempfile::TempDir,
}

async fn fhir(world: &World, token: Option<&str>, path: &str) -> (u16, Value) {
    let response: Response = try_request(world.hub.http_addr, "GET", path, token, None).await.expect("the hub answers");
    let body = serde_json::from_str(&response.body).unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {}", response.body));
    (response.status, body)
}

async fn search(world: &World, path: &str) -> Value {
    let (status, bundle) = fhir(world, Some(&world.token), path).await;
    assert_eq!(status, 200, "{path}: {bundle}");
    assert_eq!((bundle["resourceType"].as_str(), bundle["type"].as_str()), (Some("Bundle"), Some("searchset")), "{path}");
    bundle
}

fn resources(bundle: &Value) -> Vec<Value> {
    bundle["entry"].as_array().map(|e| e.iter().map(|x| x["resource"].clone()).collect()).unwrap_or_default()
}

fn codes(bundle: &Value) -> BTreeSet<String> {
    resources(bundle).iter().map(|r| r["code"]["coding"][0]["code"].as_str().unwrap_or("").to_owned()).collect()
}

/// A capture of two feet on a plate, analysed and stored as `hub::records` stores a finished one.
async fn stored_analysis(store: &Store, company: &str, patient: &str, user: &str, device: &str) -> String {
    let mut cells = vec![0u16; 48 * 48];
    for r in 10..30 {
        for c in (12..18).chain(30..36) {
            cells[r * 48 + c] = 120;
        }
    }
    let capture = CaptureRecord {
        device_id: Arc::from(device),
        patient_id: patient.into(),
        user_id: user.into(),
        kind: CaptureKind::Static,
        requested_at_ms: 1_795_725_255_000,
        seconds: 0,
        frames: vec![CapturedFrame { offset_ms: 0, rows: 48, cols: 48, cells }],
        dropped_frames: 0,
    };
    let new = hub::domain::analysis_format::capture_analysis(Some(DeviceType::PodologyIoT), &capture, &AnalysisParams::default());
    store.company(company).analyses().create(&new).await.unwrap()
}

/// Company A: a bed whose patient lies, turns and leaves (Missing after 2 s), a force mat, a room
/// set of three sensors, a podology plate with a stored analysis. Company B: a bed of its own.
async fn world() -> World {
    let data = tempfile::tempdir().unwrap();
    let store = Store::memory().await.unwrap();
    let (company, email, devices) = seed_company(&store, "A", &["Mattress Mat IoT", "Force Mat", "Podology IoT"]).await;
    let (_, other_email, _) = seed_company(&store, "B", &["Mattress Mat IoT"]).await;
    let member = |suffix: &str| NewDevice {
        name: format!("A set {suffix}"),
        device_type: "Force Mat".into(),
        hardware_serial: format!("A-SET-{suffix}"),
        company_id: company.clone(),
        secret_hash: storage::device_secret::hash("s"),
        ..NewDevice::default()
    };
    let parent = NewDevice {
        name: "A set".into(),
        device_type: "Room Set".into(),
        hardware_serial: "A-SET".into(),
        company_id: company.clone(),
        room: "12".into(),
        ..NewDevice::default()
    };
    let family = store.hub_wide().devices().create_family(&parent, &[member("BED"), member("SEAT"), member("FLOOR")]).await.unwrap();
    let mut config = common::config(data.path());
    config.absence_delay_secs = 2;
    let hub = hub::app::start_with_store(config, store.clone()).await.unwrap();
    let token = login(hub.http_addr, &email, PASSWORD).await;
    let other = login(hub.http_addr, &other_email, PASSWORD).await;
    let user = store.hub_wide().accounts().credentials(&email).await.unwrap().unwrap().id;

    let body = json!({ "name": "Ana Ruiz", "weight": 64, "height": 162, "gender": "Female", "agreeDataTreatment": true }).to_string();
    let created = try_request(hub.http_addr, "POST", &format!("/api/podometry/patients/{user}"), Some(&token), Some(&body)).await.unwrap();
    assert_eq!(created.status, 201, "{}", created.body);
    let patient = created.json::<Value>()["_id"]["$oid"].as_str().unwrap().to_owned();
    let bed = devices[0].clone();
    let settings = json!({ "name": "Bed 3", "room": "12", "bed": "3" }).to_string();
    let renamed = try_request(hub.http_addr, "PUT", &format!("/api/device/{}", bed.id), Some(&token), Some(&settings)).await.unwrap();
    assert_eq!(renamed.status, 200, "{}", renamed.body);
    let assign = json!({ "patientId": patient }).to_string();
    let assigned =
        try_request(hub.http_addr, "PUT", &format!("/api/device/{}/patient", bed.id), Some(&token), Some(&assign)).await.unwrap();
    assert_eq!(assigned.status, 200, "{}", assigned.body);
    let analysis = stored_analysis(&store, &company, &patient, &user, &devices[2].id).await;
    World {
        hub,
        token,
        other,
        email,
        user,
        force: devices[1].clone(),
        bed,
        room_set: family.parent_id,
        members: family.member_ids,
        patient,
        analysis,
        _data: data,
    }
}

/// The bed's patient lies supine, turns to the left and leaves; the bed records it all.
async fn a_night_on_the_bed(world: &World) {
    let (mut spec, transport) = {
        let spec = simulator::DeviceSpec::new(world.bed.serial.clone(), world.bed.secret.clone(), &world.bed.device_type).unwrap();
        let transport = simulator::Transport::Quic {
            addr: world.hub.quic_addr,
            server_name: "localhost".into(),
            trust: simulator::Trust::PemFile(world.hub.cert_path.clone()),
        };
        (spec, transport)
    };
    spec.scenario = Scenario::BedOccupant(BedScript {
        empty: 8 * SECOND,
        lie_down: SECOND,
        supine: 14 * SECOND,
        turn: SECOND,
        left_lateral: 14 * SECOND,
        right_lateral: 2 * SECOND,
        prone: 2 * SECOND,
        leave: SECOND,
    });
    spec.rate = Rate::Fixed { hz: 10.0 };
    spec.time_offset = 7 * SECOND;
    let (stop, shutdown) = tokio::sync::watch::channel(false);
    tokio::spawn(simulator::run_device(spec, transport, Arc::new(simulator::SimStats::default()), shutdown));
    let path = format!("/fhir/r4/Observation?device={}&_count=1000", world.bed.id);
    let recorded = eventually_async(Duration::from_secs(90), || async {
        let found = codes(&search(world, &path).await);
        ["8361-8", "repositioning-turn", "peak-interface-pressure", "mean-block-pressure", "presence-on-mat"]
            .iter()
            .all(|c| found.contains(*c))
            && found.iter().any(|c| c.parse::<u32>().is_ok())
    })
    .await;
    // A nurse records two turns while the bed is connected: one now, one entered 10 minutes ago.
    let turns = format!("/api/device/{}/turns", world.bed.id);
    let ten_minutes_ago = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64 - 600_000;
    for body in [json!({ "position": "Left Lateral" }), json!({ "position": "Supine", "atMs": ten_minutes_ago })] {
        let turned = try_request(world.hub.http_addr, "POST", &turns, Some(&world.token), Some(&body.to_string())).await.unwrap();
        assert_eq!(turned.status, 200, "{}", turned.body);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let _ = stop.send(true);
    assert!(recorded, "the bed's observations: {:?}", codes(&search(world, &path).await));
    // Attend one alarm so both states are served; then let the writer store what is in flight.
    let attended =
        try_request(world.hub.http_addr, "PUT", &format!("/api/iotAlarms/{}", world.bed.id), Some(&world.token), None).await.unwrap();
    assert_eq!(attended.status, 200, "{}", attended.body);
    tokio::time::sleep(2 * SECOND).await;
}

#[tokio::test]
async fn fhir_r4_serves_valid_resources_to_its_company_only_with_paging() {
    let world = world().await;
    a_night_on_the_bed(&world).await;
    let mut served: Vec<Value> = Vec::new();

    // The statement: public, exactly what is served.
    let (status, statement) = fhir(&world, None, "/fhir/r4/metadata").await;
    assert_eq!(status, 200);
    let types: Vec<&str> = statement["rest"][0]["resource"].as_array().unwrap().iter().map(|r| r["type"].as_str().unwrap()).collect();
    assert_eq!(types, ["Patient", "Device", "DeviceMetric", "Observation", "Communication"]);
    served.push(statement.clone());

    // Every type, searched whole and read back by id.
    for resource_type in types {
        let bundle = search(&world, &format!("/fhir/r4/{resource_type}?_count=1000")).await;
        let found = resources(&bundle);
        assert!(!found.is_empty(), "no {resource_type}");
        assert_eq!(bundle["total"].as_u64(), Some(found.len() as u64));
        for resource in found.iter().take(40) {
            let id = resource["id"].as_str().unwrap();
            let (status, read) = fhir(&world, Some(&world.token), &format!("/fhir/r4/{resource_type}/{id}")).await;
            assert_eq!((status, &read), (200, resource), "{resource_type}/{id} reads as it searches");
        }
        served.extend(found);
        served.push(bundle);
    }

    // What the resources say.
    let (_, patient) = fhir(&world, Some(&world.token), &format!("/fhir/r4/Patient/{}", world.patient)).await;
    assert_eq!((patient["name"][0]["text"].as_str(), patient["gender"].as_str()), (Some("Ana Ruiz"), Some("female")));
    let (_, bed) = fhir(&world, Some(&world.token), &format!("/fhir/r4/Device/{}", world.bed.id)).await;
    assert_eq!(bed["serialNumber"], world.bed.serial.as_str());
    assert_eq!(bed["location"]["display"], "room 12, bed 3");
    assert_eq!(bed["patient"]["reference"], format!("Patient/{}", world.patient));
    for member in &world.members {
        let (_, device) = fhir(&world, Some(&world.token), &format!("/fhir/r4/Device/{member}")).await;
        assert_eq!(device["parent"]["reference"], format!("Device/{}", world.room_set), "a room set's member names its set");
    }
    let (_, channel) = fhir(&world, Some(&world.token), &format!("/fhir/r4/DeviceMetric/{}-channel", world.bed.id)).await;
    assert_eq!(channel["unit"]["coding"][0]["code"], "mm[Hg]");
    assert_eq!(channel["extension"][0]["valueQuantity"]["value"], 0.4);
    let (status, _) = fhir(&world, Some(&world.token), &format!("/fhir/r4/DeviceMetric/{}-channel", world.room_set)).await;
    assert_eq!(status, 404, "a room set sends nothing itself");
    let (_, force) = fhir(&world, Some(&world.token), &format!("/fhir/r4/DeviceMetric/{}-channel", world.force.id)).await;
    assert_eq!(force["unit"]["coding"][0]["code"], "{reading}");

    // Searches: patient, device, date, code, category.
    let of_patient = search(&world, &format!("/fhir/r4/Observation?patient=Patient/{}&_count=1000", world.patient)).await;
    let all = search(&world, "/fhir/r4/Observation?_count=1000").await;
    assert!(resources(&of_patient).iter().all(|o| o["subject"]["reference"] == format!("Patient/{}", world.patient)));
    assert!(codes(&of_patient).contains("8361-8") && codes(&of_patient).contains("left-foot-load"), "{:?}", codes(&of_patient));
    let postures = search(&world, "/fhir/r4/Observation?code=http://loinc.org%7C8361-8&_count=1000").await;
    assert!(
        resources(&postures)
            .iter()
            .all(|o| o["code"]["coding"][0]["code"] == "8361-8" && o["component"][0]["valueQuantity"]["unit"] == "%")
    );
    let supine = resources(&postures).iter().filter(|o| o["valueCodeableConcept"]["coding"][0]["code"] == "40199007").count();
    let left = resources(&postures).iter().filter(|o| o["valueCodeableConcept"]["coding"][0]["code"] == "102536004").count();
    assert!(supine > 0 && left > 0, "supine and left lateral: {:?}", resources(&postures));
    let peaks =
        search(&world, &format!("/fhir/r4/Observation?code=peak-interface-pressure&device=Device/{}&_count=1000", world.bed.id)).await;
    for peak in resources(&peaks) {
        let mmhg = peak["valueQuantity"]["value"].as_f64().unwrap();
        assert!(peak["valueQuantity"]["code"] == "mm[Hg]" && (1.0..=102.0).contains(&mmhg), "a bed's peak within its 0-102 mmHg: {peak}");
    }
    let dates: Vec<String> = resources(&all).iter().map(|o| o["effectiveDateTime"].as_str().unwrap().to_owned()).collect();
    let latest = dates.iter().max().unwrap().clone();
    let after = search(&world, &format!("/fhir/r4/Observation?date=ge{}&_count=1000", latest.replace('+', "%2B"))).await;
    assert!(resources(&after).iter().all(|o| o["effectiveDateTime"].as_str().unwrap() >= latest.as_str()));
    assert!(!resources(&after).is_empty());
    let before = search(&world, &format!("/fhir/r4/Observation?date=lt{latest}&_count=1000")).await;
    assert_eq!(
        before["total"].as_u64().unwrap() + after["total"].as_u64().unwrap(),
        all["total"].as_u64().unwrap(),
        "lt and ge split the whole"
    );
    let old = search(&world, "/fhir/r4/Observation?date=lt2026-11-27&date=ge2026-11-26&code=left-foot-load").await;
    assert_eq!(old["total"], 1, "the analysis of 2026-11-26: {old}");
    assert_eq!(resources(&old)[0]["id"], format!("analysis-{}-left-foot-load", world.analysis));

    // Recorded turns: every turn of the turn log is an Observation, found by patient, device,
    // code and date, with when, what, who and whether it was late.
    let log = try_request(world.hub.http_addr, "GET", &format!("/api/device/{}/turns", world.bed.id), Some(&world.token), None)
        .await
        .unwrap()
        .json::<Value>();
    let log = log.as_array().unwrap();
    assert_eq!(log.len(), 2, "{log:?}");
    let turn_search = format!(
        "/fhir/r4/Observation?code=urn:pmat-hub:fhir:CodeSystem:pmat%7Crecorded-turn&patient={}&device=Device/{}&_count=1000",
        world.patient, world.bed.id
    );
    let recorded_turns = resources(&search(&world, &turn_search).await);
    assert_eq!(recorded_turns.len(), log.len(), "one Observation per recorded turn: {recorded_turns:#?}");
    for turn in log {
        let (at_ms, recorded_ms) = (turn["atMs"].as_i64().unwrap(), turn["recordedAtMs"].as_i64().unwrap());
        let id = format!("turn-{}-{recorded_ms}", world.bed.id);
        let observation = recorded_turns.iter().find(|o| o["id"] == id.as_str()).unwrap_or_else(|| panic!("turn {turn} not served"));
        assert_eq!(observation["effectiveDateTime"], hub::fhir::time::instant(at_ms / 1000), "{observation}");
        assert_eq!(observation["issued"], hub::fhir::time::instant(recorded_ms / 1000));
        let position = hub::fhir::codes::posture(turn["position"].as_str().unwrap()).unwrap();
        assert_eq!(observation["valueCodeableConcept"]["coding"][0]["code"], position.code, "{observation}");
        assert_eq!(observation["performer"][0]["display"], world.email.as_str());
        assert_eq!(observation["performer"][0]["identifier"]["value"], world.user.as_str());
        assert_eq!(observation["subject"]["reference"], format!("Patient/{}", world.patient));
        let late = matches!(turn["tierBefore"].as_str(), Some("due" | "overdue"));
        let verdict = &observation["component"][0]["valueCodeableConcept"]["coding"][0]["code"];
        assert_eq!(verdict, if late { "turn-late" } else { "turn-on-time" }, "{turn} {observation}");
        let (_, read) = fhir(&world, Some(&world.token), &format!("/fhir/r4/Observation/{id}")).await;
        assert_eq!(&read, observation);
        let on_its_date =
            search(&world, &format!("/fhir/r4/Observation?code=recorded-turn&date={}", hub::fhir::time::instant(at_ms / 1000))).await;
        assert!(resources(&on_its_date).iter().any(|o| o["id"] == id.as_str()), "found by its date");
    }
    served.extend(recorded_turns);

    // Alarms: Communications about their Observations, sent by the bed, one attended.
    let alarms = search(&world, &format!("/fhir/r4/Communication?sender={}&category=alert", world.bed.id)).await;
    let alarms = resources(&alarms);
    assert!(!alarms.is_empty());
    for alarm in &alarms {
        let about = alarm["about"][0]["reference"].as_str().unwrap();
        let (status, observation) = fhir(&world, Some(&world.token), &format!("/fhir/r4/{about}")).await;
        assert_eq!(status, 200, "{about}");
        assert_eq!(observation["code"]["coding"][0]["system"], "urn:iso:std:iso:11073:10101");
        assert_eq!(alarm["sender"]["reference"], format!("Device/{}", world.bed.id));
    }
    assert!(alarms.iter().any(|a| a["status"] == "completed"), "the attended alarm");

    // Refusals: OperationOutcomes.
    let mut outcomes = Vec::new();
    for (token, path, expected) in [
        (None, "/fhir/r4/Patient", 401),
        (Some("not-a-token"), "/fhir/r4/Observation", 401),
        (Some(world.token.as_str()), "/fhir/r4/Observation?colour=red", 400),
        (Some(world.token.as_str()), "/fhir/r4/Observation?date=yesterday", 400),
        (Some(world.token.as_str()), "/fhir/r4/Medication", 404),
        (Some(world.token.as_str()), "/fhir/r4/Patient/nobody", 404),
    ] {
        let (status, outcome) = fhir(&world, token, path).await;
        assert_eq!((status, outcome["resourceType"].as_str()), (expected, Some("OperationOutcome")), "{path}: {outcome}");
        outcomes.push(outcome);
    }
    let refused = request_raw(world.hub.http_addr, "POST", "/fhir/r4/Patient", Some(&world.token), "{}").await;
    assert_eq!(refused.status, 405);
    let answer = request_raw(world.hub.http_addr, "GET", "/fhir/r4/Patient", Some(&world.token), "").await;
    assert_eq!(answer.header("content-type").as_deref(), Some("application/fhir+json; charset=utf-8"));
    assert_eq!(answer.header("cache-control").as_deref(), Some("no-store"), "patient data is never cached");
    served.extend(outcomes);

    // The independent validator: every resource served is valid FHIR R4, and it can fail.
    let verdicts = validate(&served);
    let invalid: Vec<_> = verdicts.iter().filter(|(_, _, errors)| !errors.is_empty()).collect();
    assert!(invalid.is_empty(), "invalid FHIR R4: {invalid:#?}");
    let validated: BTreeSet<&str> = verdicts.iter().map(|(t, _, _)| t.as_str()).collect();
    for expected in
        ["Bundle", "CapabilityStatement", "Communication", "Device", "DeviceMetric", "Observation", "OperationOutcome", "Patient"]
    {
        assert!(validated.contains(expected), "{expected} was validated");
    }
    let broken =
        validate(&[json!({ "resourceType": "Observation", "status": "final" }), json!({ "resourceType": "Device", "colour": "red" })]);
    assert!(broken.iter().all(|(_, _, errors)| !errors.is_empty()), "the validator refuses what is not R4: {broken:?}");

    // Company isolation: company B's token finds none of A's resources; its reads answer 404.
    for resource_type in ["Patient", "Device", "DeviceMetric", "Observation", "Communication"] {
        let (status, bundle) = fhir(&world, Some(&world.other), &format!("/fhir/r4/{resource_type}?_count=1000")).await;
        assert_eq!(status, 200);
        let ids: Vec<Value> = resources(&bundle).iter().map(|r| r["id"].clone()).collect();
        let ours = resources(&search(&world, &format!("/fhir/r4/{resource_type}?_count=1000")).await);
        assert!(ours.iter().all(|r| !ids.contains(&r["id"])), "{resource_type}: B sees A's {ids:?}");
        for resource in ours.iter().take(5) {
            let (status, outcome) =
                fhir(&world, Some(&world.other), &format!("/fhir/r4/{resource_type}/{}", resource["id"].as_str().unwrap())).await;
            assert_eq!((status, outcome["resourceType"].as_str()), (404, Some("OperationOutcome")));
        }
    }
    let (_, foreign) = fhir(&world, Some(&world.other), &format!("/fhir/r4/Observation?patient={}", world.patient)).await;
    assert_eq!(foreign["total"], 0);

    // Paging: _count=2 walks every page by its next link, each match exactly once.
    for resource_type in ["Observation", "Device", "Communication"] {
        let whole: Vec<String> = resources(&search(&world, &format!("/fhir/r4/{resource_type}?_count=1000")).await)
            .iter()
            .map(|r| r["id"].as_str().unwrap().to_owned())
            .collect();
        let mut walked: Vec<String> = Vec::new();
        let mut next = Some(format!("/fhir/r4/{resource_type}?_count=2"));
        let mut pages = 0;
        while let Some(path) = next {
            let page = search(&world, &path).await;
            assert_eq!(page["total"].as_u64(), Some(whole.len() as u64));
            let ids: Vec<String> = resources(&page).iter().map(|r| r["id"].as_str().unwrap().to_owned()).collect();
            assert!(ids.len() <= 2);
            walked.extend(ids);
            pages += 1;
            next = page["link"].as_array().unwrap().iter().find(|l| l["relation"] == "next").map(|l| {
                let url = l["url"].as_str().unwrap();
                url[url.find("/fhir/r4/").unwrap()..].to_owned()
            });
            assert!(pages <= whole.len(), "the links end");
        }
        assert_eq!(walked, whole, "{resource_type}: every match once, in order");
        assert_eq!(pages, whole.len().div_ceil(2));
    }
}
