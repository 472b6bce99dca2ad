//! `GET /api/wardBoard` on a real hub: a signed-in user of the company only, its own devices with
//! the repositioning clock only (never another company's, never a type without the clock), and a
//! simulated patient's posture with its confidence and the countdown to the next turn.
#![allow(clippy::unwrap_used)] // A test's helpers may unwrap: the panic is the failure it reports.

mod common;

use std::time::Duration;

use common::{PASSWORD, eventually_async as eventually, get_json as get, login, request};
use serde_json::Value;
use simulator::synth::BedScript;
use simulator::{Rate, Scenario};
use storage::Store;

const SECOND: Duration = Duration::from_secs(1);

fn ids(list: &Value) -> Vec<String> {
    list.as_array().unwrap().iter().map(|c| c["deviceId"]["$oid"].as_str().unwrap().to_owned()).collect()
}

#[tokio::test]
async fn the_board_reads_its_own_companys_clocks_and_postures() {
    let data = tempfile::tempdir().unwrap();
    let store = Store::memory().await.unwrap();
    let (_, email_a, devices_a) = common::seed_company(&store, "A", &["Mattress Mat IoT", "Podology IoT"]).await;
    let (_, email_b, devices_b) = common::seed_company(&store, "B", &["Mattress Mat IoT"]).await;
    let running = hub::app::start_with_store(common::config(data.path()), store).await.unwrap();
    let hub = common::TestHub { hub: running, company_id: String::new(), email: email_a.clone(), devices: devices_a.clone(), _data: data };

    let anonymous = request(hub.http(), "GET", "/api/wardBoard", None, None).await;
    assert_eq!(anonymous.status, 401, "{}", anonymous.body);

    let token_a = login(hub.http(), &email_a, PASSWORD).await;
    let token_b = login(hub.http(), &email_b, PASSWORD).await;
    let bed = devices_a[0].clone();

    // Before the bed has connected: its clock, with nobody on the mat, and nothing of company B's
    // or of the podology plate (no clock).
    let before = get(&hub, &token_a, "/api/wardBoard").await;
    assert_eq!(ids(&before), vec![bed.id.clone()], "{before}");
    let clock = &before[0];
    assert_eq!(clock["intervalMinutes"], 120, "{clock}");
    assert_eq!(clock["tier"], "ok", "{clock}");
    assert!(clock["dueInSeconds"].is_null() && clock["posture"].is_null() && clock["postureConfidence"].is_null(), "{clock}");
    let page = get(&hub, &token_a, &format!("/api/device/{}/repositioning", bed.id)).await;
    assert!(
        page["posture"].is_null() && page["postureConfidence"].is_null() && page["postureCertain"].is_null(),
        "nobody on the mat: {page}"
    );
    assert_eq!(ids(&get(&hub, &token_b, "/api/wardBoard").await), vec![devices_b[0].id.clone()]);

    // A patient lies down on the mat, supine: the board reads the posture, its confidence and
    // the time left until the next turn (the interval set: 60 min).
    let interval =
        request(hub.http(), "PUT", &format!("/api/device/{}/repositioning", bed.id), Some(&token_a), Some(r#"{"minutes": 60}"#)).await;
    assert_eq!(interval.status, 200, "{}", interval.body);
    let (mut spec, transport) = hub.quic_device(&bed);
    spec.scenario = Scenario::BedOccupant(BedScript {
        empty: SECOND,
        lie_down: SECOND,
        supine: 600 * SECOND,
        turn: SECOND,
        left_lateral: SECOND,
        right_lateral: SECOND,
        prone: SECOND,
        leave: SECOND,
    });
    spec.rate = Rate::Fixed { hz: 5.0 };
    let (stop, _stats) = hub.run_device(spec, transport);
    let lying = eventually(30 * SECOND, || async {
        let board = get(&hub, &token_a, "/api/wardBoard").await;
        board[0]["posture"] == "Supine" && board[0]["dueInSeconds"].is_u64()
    })
    .await;
    let board = get(&hub, &token_a, "/api/wardBoard").await;
    assert!(lying, "a supine patient with a countdown: {board}");
    let clock = &board[0];
    assert_eq!(clock["intervalMinutes"], 60, "{clock}");
    let due_in = clock["dueInSeconds"].as_u64().unwrap();
    assert!((3000..=3600).contains(&due_in), "the turn is due within the hour: {clock}");
    // Someone lies on it: the mat is not empty; it would need 15 min empty to end the episode.
    assert_eq!((clock["unloadedForSeconds"].clone(), clock["offloadSeconds"].as_u64()), (Value::Null, Some(900)), "{clock}");
    let confidence = clock["postureConfidence"].as_f64().unwrap();
    assert!(confidence > 0.0 && confidence <= 1.0, "{clock}");
    // The hub's verdict on it, from the classifier's one threshold (issue 28).
    let certain = confidence >= f64::from(mat_core::machine::posture::CONFIDENT);
    assert_eq!(clock["postureCertain"].as_bool(), Some(certain), "{clock}");
    // The device page's clock states the same posture (one mapping, `ward::PostureNow`).
    let page = get(&hub, &token_a, &format!("/api/device/{}/repositioning", bed.id)).await;
    assert_eq!(page["posture"], "Supine", "{page}");
    let page_confidence = page["postureConfidence"].as_f64().unwrap();
    assert!(page_confidence > 0.0 && page_confidence <= 1.0, "{page}");
    assert_eq!(page["postureCertain"].as_bool(), Some(page_confidence >= f64::from(mat_core::machine::posture::CONFIDENT)), "{page}");
    // Company B still sees only its own bed.
    assert_eq!(ids(&get(&hub, &token_b, "/api/wardBoard").await), vec![devices_b[0].id.clone()]);
    let _ = stop.send(true);
}

#[tokio::test]
async fn patients_initials_are_a_company_setting_its_administrators_set() {
    let data = tempfile::tempdir().unwrap();
    let store = Store::memory().await.unwrap();
    let (company_a, email_a, _) = common::seed_company(&store, "A", &["Mattress Mat IoT"]).await;
    let (_, email_b, _) = common::seed_company(&store, "B", &["Mattress Mat IoT"]).await;
    store.hub_wide().accounts().create("admin-a@example.com", PASSWORD, 1, &company_a).await.unwrap();
    let running = hub::app::start_with_store(common::config(data.path()), store).await.unwrap();
    let addr = running.http_addr;
    let staff_a = login(addr, &email_a, PASSWORD).await;
    let admin_a = login(addr, "admin-a@example.com", PASSWORD).await;
    let staff_b = login(addr, &email_b, PASSWORD).await;
    let read = |token: String| async move { request(addr, "GET", "/api/wardSettings", Some(&token), None).await };

    let first = read(staff_a.clone()).await;
    assert_eq!((first.status, first.json::<Value>()), (200, serde_json::json!({ "patientInitials": false })), "{}", first.body);
    assert_eq!(request(addr, "GET", "/api/wardSettings", None, None).await.status, 401);
    let refused = request(addr, "PUT", "/api/wardSettings", Some(&staff_a), Some(r#"{"patientInitials": true}"#)).await;
    assert_eq!((refused.status, refused.error_code()), (403, "forbidden".to_owned()), "{}", refused.body);
    let unknown = request(addr, "PUT", "/api/wardSettings", Some(&admin_a), Some(r#"{"patientInitials": true, "x": 1}"#)).await;
    assert_eq!(unknown.status, 400, "{}", unknown.body);
    let set = request(addr, "PUT", "/api/wardSettings", Some(&admin_a), Some(r#"{"patientInitials": true}"#)).await;
    assert_eq!((set.status, set.json::<Value>()["patientInitials"].as_bool()), (200, Some(true)), "{}", set.body);
    assert_eq!(read(staff_a.clone()).await.json::<Value>()["patientInitials"], true);
    // Company B's board is not changed.
    assert_eq!(read(staff_b).await.json::<Value>()["patientInitials"], false);
    // The change is in the company's audit log.
    let audit = request(addr, "GET", "/api/auditLog/1", Some(&admin_a), None).await.json::<Value>();
    let entry = audit["entries"].as_array().unwrap().iter().find(|e| e["action"] == "company.wardSettings").cloned();
    assert!(entry.is_some_and(|e| e["summary"].as_str().unwrap().contains("as initials")), "{audit}");
}
