//! Issue 23: a turn a nurse records, and why an Ulcer Risk alarm was raised, end to end against the
//! real hub with a simulated bed (the demo time scale: a 15-minute interval is due after 15 s).
//! The alarm's reason is in the alarm log; `POST /api/device/{id}/turns` restarts the clock,
//! attends the alarm by the nurse and is listed by `GET`; it is refused for another
//! company's device, for a type without the clock, beyond 12 hours, and without a token.

mod common;

use std::time::Duration;

use common::{request, seed_company};
use serde_json::Value;
use simulator::synth::BedScript;
use simulator::{Rate, Scenario};

const SECOND: Duration = Duration::from_secs(1);

async fn poll<T>(mut read: impl AsyncFnMut() -> Option<T>) -> Option<T> {
    for _ in 0..160 {
        if let Some(found) = read().await {
            return Some(found);
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    None
}

#[tokio::test]
async fn a_still_patients_alarm_says_why_and_a_recorded_turn_restarts_the_clock_and_attends_it() {
    let hub = common::start_with(&["Mattress Mat IoT", "Podology IoT"], |mut config| {
        config.demo_repositioning_time_scale = 60;
        config
    })
    .await;
    let device = hub.devices[0].clone();
    let token = hub.login().await;
    let clock = format!("/api/device/{}/repositioning", device.id);
    assert_eq!(request(hub.http(), "PUT", &clock, Some(&token), Some(r#"{"minutes": 15}"#)).await.status, 200);
    let (mut spec, transport) = hub.quic_device(&device);
    spec.scenario = Scenario::BedOccupant(BedScript { empty: SECOND, lie_down: SECOND, supine: 600 * SECOND, ..BedScript::default() });
    spec.rate = Rate::Fixed { hz: 5.0 };
    let (stop, _stats) = hub.run_device(spec, transport);

    // The alarm, with its reason in wall-clock seconds (the time scale multiplied back).
    let alarms = format!("/api/iotAlarms/{}", device.id);
    let alarm = poll(async || {
        let list: Value = request(hub.http(), "GET", &alarms, Some(&token), None).await.json();
        list.as_array()?.iter().find(|a| a["kind"] == "Ulcer Risk").cloned()
    })
    .await
    .expect("an Ulcer Risk alarm within 40 s");
    let reason = &alarm["reason"];
    assert_eq!(reason["region"], "pelvis", "{alarm}");
    let loaded = reason["loadedSeconds"].as_u64().unwrap();
    assert!((900..=960).contains(&loaded), "{alarm}");
    assert_eq!((reason["offloadSeconds"].as_u64(), reason["intervalSeconds"].as_u64()), (Some(900), Some(900)));
    assert_eq!(alarm["hasBeenAttended"], false);

    // The nurse records the turn: the clock restarts, the alarm is attended by them.
    let turns = format!("/api/device/{}/turns", device.id);
    let recorded = request(hub.http(), "POST", &turns, Some(&token), Some(r#"{"position": "Left Lateral"}"#)).await;
    assert_eq!(recorded.status, 200, "{}", recorded.body);
    let recorded: Value = recorded.json();
    assert!(matches!(recorded["tierBefore"].as_str(), Some("due" | "overdue")), "{recorded}");
    let read: Value = request(hub.http(), "GET", &clock, Some(&token), None).await.json();
    // Ok: the clock restarted, and a 15 min interval is due soon only in its last quarter.
    assert_eq!(read["tier"], "ok", "{read}");
    assert!(read["dueInSeconds"].as_u64().is_some_and(|s| s >= 13), "the clock restarted: {read}");
    let list: Value = request(hub.http(), "GET", &alarms, Some(&token), None).await.json();
    let attended = list.as_array().unwrap().iter().find(|a| a["_id"] == alarm["_id"]).unwrap();
    assert_eq!(
        (attended["hasBeenAttended"].as_bool(), attended["attendedBy"].as_str()),
        (Some(true), Some(hub.email.as_str())),
        "{attended}"
    );
    let log: Value = request(hub.http(), "GET", &turns, Some(&token), None).await.json();
    let log = log.as_array().unwrap();
    assert_eq!(log.len(), 1, "{log:?}");
    assert_eq!((log[0]["position"].as_str(), log[0]["by"].as_str()), (Some("Left Lateral"), Some(hub.email.as_str())));
    assert_eq!(log[0]["intervalSeconds"], 900);
    assert!(log[0]["loadedSeconds"].as_i64().unwrap() >= 900, "{log:?}");
    // Audited once, by the nurse, with the turn (the storage writer's one transaction).
    hub.hub.store.hub_wide().accounts().create("admin-a@example.com", common::PASSWORD, 1, &hub.company_id).await.unwrap();
    let admin = common::login(hub.http(), "admin-a@example.com", common::PASSWORD).await;
    let audit: Value = request(hub.http(), "GET", "/api/auditLog/1", Some(&admin), None).await.json();
    let turned: Vec<&Value> = audit["entries"].as_array().unwrap().iter().filter(|e| e["action"] == "device.turn").collect();
    assert_eq!(turned.len(), 1, "{audit}");
    assert_eq!((turned[0]["userEmail"].as_str(), turned[0]["entityId"].as_str()), (Some(hub.email.as_str()), Some(device.id.as_str())));
    assert!(turned[0]["summary"].as_str().is_some_and(|s| s.ends_with("patient turned to Left Lateral")), "{audit}");

    // Refusals: beyond 12 hours, an unknown position, a plate, no token.
    let old = format!(r#"{{"position": "Supine", "atMs": {}}}"#, 1_000);
    let refused = request(hub.http(), "POST", &turns, Some(&token), Some(&old)).await;
    assert_eq!((refused.status, refused.error_code()), (400, "invalidTurn".to_owned()));
    let refused = request(hub.http(), "POST", &turns, Some(&token), Some(r#"{"position": "Standing"}"#)).await;
    assert_eq!(refused.status, 400, "{}", refused.body);
    let plate = format!("/api/device/{}/turns", hub.devices[1].id);
    let refused = request(hub.http(), "POST", &plate, Some(&token), Some(r#"{"position": "Supine"}"#)).await;
    assert_eq!((refused.status, refused.error_code()), (400, "noRepositioningClock".to_owned()));
    assert_eq!(request(hub.http(), "POST", &turns, None, Some(r#"{"position": "Supine"}"#)).await.status, 401);
    let _ = stop.send(true);
    hub.hub.shutdown().await;
}

#[tokio::test]
async fn another_companys_bed_cannot_be_turned_or_read() {
    let data = tempfile::tempdir().unwrap();
    let store = storage::Store::memory().await.unwrap();
    let (_a, email_a, devices_a) = seed_company(&store, "A", &["Mattress Mat IoT"]).await;
    let (_b, email_b, devices_b) = seed_company(&store, "B", &["Mattress Mat IoT"]).await;
    let hub = hub::app::start_with_store(common::config(data.path()), store).await.unwrap();
    let token_a = common::login(hub.http_addr, &email_a, common::PASSWORD).await;
    let token_b = common::login(hub.http_addr, &email_b, common::PASSWORD).await;
    let theirs = format!("/api/device/{}/turns", devices_b[0].id);
    let refused = request(hub.http_addr, "POST", &theirs, Some(&token_a), Some(r#"{"position": "Supine"}"#)).await;
    assert_eq!(refused.status, 404, "{}", refused.body);
    assert_eq!(request(hub.http_addr, "GET", &theirs, Some(&token_a), None).await.status, 404);
    // B's own bed, offline: the turn is still recorded (the clock stands still while offline).
    let recorded = request(hub.http_addr, "POST", &theirs, Some(&token_b), Some(r#"{"position": "Prone"}"#)).await;
    assert_eq!(recorded.status, 200, "{}", recorded.body);
    let log: Value = request(hub.http_addr, "GET", &theirs, Some(&token_b), None).await.json();
    assert_eq!(log.as_array().map(Vec::len), Some(1));
    assert!(
        request(hub.http_addr, "GET", &format!("/api/device/{}/turns", devices_a[0].id), Some(&token_a), None)
            .await
            .json::<Value>()
            .as_array()
            .unwrap()
            .is_empty()
    );
    hub.shutdown().await;
}
