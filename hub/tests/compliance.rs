//! Turn compliance on a real hub (issue 23, item 4): `GET /api/compliance/{from}/{to}` and its PDF
//! for a signed-in user of the company only, over that company's turns and alarms only; the shift
//! settings read by its users and set by its administrators only, checked and audited, and the
//! figures following the shifts and time zone they set.
#![allow(clippy::unwrap_used)] // A test's helpers may unwrap: the panic is the failure it reports.

mod common;

use common::{PASSWORD, login, request};
use serde_json::Value;
use storage::Store;
use storage::model::{NewDevice, TurnLog};

const MIN: i64 = 60_000;
const HOUR: i64 = 60 * MIN;
/// 2026-11-27 00:00 UTC.
const DAY: i64 = 1_795_737_600_000;

/// A bed of `company` in `building`, `floor`.
async fn bed(store: &Store, company: &str, serial: &str, building: &str, floor: &str) -> String {
    let device = NewDevice {
        name: serial.to_owned(),
        device_type: "Mattress Mat IoT".into(),
        hardware_serial: serial.to_owned(),
        company_id: company.to_owned(),
        building: building.to_owned(),
        floor: floor.to_owned(),
        ..NewDevice::default()
    };
    store.hub_wide().devices().create(&device).await.unwrap()
}

async fn turn(store: &Store, company: &str, device: &str, at_ms: i64, loaded_min: i64) {
    let turn = TurnLog {
        device_id: device.to_owned(),
        at_ms,
        recorded_at_ms: at_ms + 1,
        position: None,
        by: None,
        tier_before: if loaded_min < 120 { "ok" } else { "due" }.into(),
        loaded_ms: loaded_min * MIN,
        interval_ms: 120 * MIN,
        detected: true,
    };
    store.company(company).logs().add_turn(&turn).await.unwrap();
}

async fn alarm(store: &Store, company: &str, device: &str, key: &str, raised_ms: i64, attended_after_s: Option<i64>) {
    let logs = store.company(company).logs();
    logs.raise_alarm_keyed(device, key, "Ulcer Risk", raised_ms / 1000).await.unwrap();
    if let Some(after) = attended_after_s {
        assert!(logs.attend_keyed(key, raised_ms / 1000 + after, None).await.unwrap());
    }
}

fn row<'a>(body: &'a Value, unit: &str, shift: u64) -> &'a Value {
    body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["unit"] == unit && r["shift"] == shift)
        .unwrap_or_else(|| panic!("{unit} {shift}: {body}"))
}

#[tokio::test]
async fn figures_are_the_callers_companys_per_unit_and_shift_and_follow_its_settings() {
    let data = tempfile::tempdir().unwrap();
    let store = Store::memory().await.unwrap();
    let (company_a, email_a, _) = common::seed_company(&store, "A", &[]).await;
    let (company_b, email_b, _) = common::seed_company(&store, "B", &[]).await;
    store.hub_wide().accounts().create("admin-a@example.com", PASSWORD, 1, &company_a).await.unwrap();
    let north_1 = bed(&store, &company_a, "A-N1", "North", "2").await;
    let north_2 = bed(&store, &company_a, "A-N2", "North", "2").await;
    let east = bed(&store, &company_a, "A-E1", "East", "1").await;
    let other = bed(&store, &company_b, "B-N1", "North", "2").await;
    let early = DAY + 7 * HOUR;
    // Company A's early shift on North · 2: four turns, one on time, 10 and 30 minutes over.
    turn(&store, &company_a, &north_1, early + HOUR, 90).await;
    turn(&store, &company_a, &north_1, early + 3 * HOUR, 150).await;
    turn(&store, &company_a, &north_2, early + 2 * HOUR, 130).await;
    turn(&store, &company_a, &north_2, early + 4 * HOUR, 120).await;
    alarm(&store, &company_a, &north_1, "a-1", early + HOUR, Some(60)).await;
    alarm(&store, &company_a, &north_2, "a-2", early + 2 * HOUR, Some(300)).await;
    alarm(&store, &company_a, &north_2, "a-3", early + 3 * HOUR, None).await;
    // A turn at 06:30 UTC: the night shift before the range in UTC.
    turn(&store, &company_a, &east, DAY + 6 * HOUR + 30 * MIN, 60).await;
    // Company B's own bed in a unit of the same name: never in A's figures.
    turn(&store, &company_b, &other, early + HOUR, 500).await;
    alarm(&store, &company_b, &other, "b-1", early + HOUR, Some(3600)).await;

    let running = hub::app::start_with_store(common::config(data.path()), store).await.unwrap();
    let addr = running.http_addr;
    let staff_a = login(addr, &email_a, PASSWORD).await;
    let admin_a = login(addr, "admin-a@example.com", PASSWORD).await;
    let staff_b = login(addr, &email_b, PASSWORD).await;
    let path = "/api/compliance/2026-11-27/2026-11-27";

    assert_eq!(request(addr, "GET", path, None, None).await.status, 401);
    let answer = request(addr, "GET", path, Some(&staff_a), None).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let body: Value = answer.json();
    assert_eq!(body["timeZone"], "UTC", "the default zone: {body}");
    assert_eq!(body["shifts"].as_array().unwrap().len(), 3);
    assert_eq!(body["rows"].as_array().unwrap().len(), 6, "two units × three shifts: {body}");
    let north_early = row(&body, "North · 2", 0);
    // The hub sends the unit's building and floor apart: the page and the PDF label it from them.
    assert_eq!((north_early["building"].as_str(), north_early["floor"].as_str()), (Some("North"), Some("2")));
    assert_eq!(north_early["shiftLabel"], "07:00–15:00");
    assert_eq!(
        (north_early["beds"].as_u64(), north_early["turns"].as_u64(), north_early["turnsOnTime"].as_u64()),
        (Some(2), Some(4), Some(1))
    );
    assert_eq!(north_early["onTimeShare"], 0.25);
    assert_eq!((north_early["alarms"].as_u64(), north_early["alarmsAttended"].as_u64()), (Some(3), Some(2)), "{north_early}");
    assert_eq!((north_early["attendMeanSeconds"].as_f64(), north_early["attendP90Seconds"].as_f64()), (Some(180.0), Some(300.0)));
    assert_eq!(north_early["minutesOverPerPatient"], 20.0, "(30 + 10 + 0) / 2 beds' patients: {north_early}");
    assert_eq!(north_early["alarmsPerBedDay"].as_f64().map(|v| (v * 1e9).round() / 1e9), Some(4.5), "3 / (2 × 8 h / 24 h)");
    assert_eq!(row(&body, "East · 1", 0)["turns"], 0, "06:30 UTC is before the range's first shift");

    // Company B reads only its own.
    let b: Value = request(addr, "GET", path, Some(&staff_b), None).await.json();
    assert_eq!(b["rows"].as_array().unwrap().len(), 3, "{b}");
    let b_early = row(&b, "North · 2", 0);
    assert_eq!(
        (b_early["beds"].as_u64(), b_early["turns"].as_u64(), b_early["attendMeanSeconds"].as_f64()),
        (Some(1), Some(1), Some(3600.0))
    );

    // Ranges and dates are checked.
    let backwards = request(addr, "GET", "/api/compliance/2026-11-27/2026-11-20", Some(&staff_a), None).await;
    assert_eq!((backwards.status, backwards.error_code()), (400, "invalidRange".to_owned()), "{}", backwards.body);
    let long = request(addr, "GET", "/api/compliance/2026-01-01/2026-12-31", Some(&staff_a), None).await;
    assert_eq!((long.status, long.error_code()), (400, "invalidRange".to_owned()));
    let not_a_date = request(addr, "GET", "/api/compliance/yesterday/2026-11-27", Some(&staff_a), None).await;
    assert_eq!((not_a_date.status, not_a_date.error_code()), (400, "invalidDate".to_owned()));

    // The PDF, for the company's users only.
    assert_eq!(request(addr, "GET", "/api/compliancePdf/2026-11-27/2026-11-27/es", None, None).await.status, 401);
    let pdf = common::request_raw(addr, "GET", "/api/compliancePdf/2026-11-27/2026-11-27/es", Some(&staff_a), "").await;
    assert_eq!(pdf.status, 200);
    assert_eq!(pdf.header("content-type").as_deref(), Some("application/pdf"));
    assert!(pdf.header("content-disposition").unwrap().contains("turn-compliance_2026-11-27_2026-11-27.pdf"));
    assert!(pdf.body.starts_with(b"%PDF"));

    // Settings: read by staff, set by administrators only, checked, audited.
    let settings = request(addr, "GET", "/api/complianceSettings", Some(&staff_a), None).await;
    assert_eq!(settings.json::<Value>(), serde_json::json!({ "shiftStarts": [420, 900, 1380], "timeZone": "UTC" }));
    let madrid = r#"{"shiftStarts": [360, 840, 1320], "timeZone": "Europe/Madrid"}"#;
    let refused = request(addr, "PUT", "/api/complianceSettings", Some(&staff_a), Some(madrid)).await;
    assert_eq!((refused.status, refused.error_code()), (403, "forbidden".to_owned()), "{}", refused.body);
    let bad_zone =
        request(addr, "PUT", "/api/complianceSettings", Some(&admin_a), Some(r#"{"shiftStarts": [420], "timeZone": "Mars/Olympus"}"#))
            .await;
    assert_eq!((bad_zone.status, bad_zone.error_code()), (400, "invalidTimeZone".to_owned()), "{}", bad_zone.body);
    let bad_shifts =
        request(addr, "PUT", "/api/complianceSettings", Some(&admin_a), Some(r#"{"shiftStarts": [420, 450], "timeZone": "UTC"}"#)).await;
    assert_eq!((bad_shifts.status, bad_shifts.error_code()), (400, "invalidShifts".to_owned()), "{}", bad_shifts.body);
    let set = request(addr, "PUT", "/api/complianceSettings", Some(&admin_a), Some(madrid)).await;
    assert_eq!(set.status, 200, "{}", set.body);
    assert_eq!(request(addr, "GET", "/api/complianceSettings", Some(&staff_a), None).await.json::<Value>()["timeZone"], "Europe/Madrid");
    assert_eq!(request(addr, "GET", "/api/complianceSettings", Some(&staff_b), None).await.json::<Value>()["timeZone"], "UTC", "B's own");
    let audit = request(addr, "GET", "/api/auditLog/1", Some(&admin_a), None).await.json::<Value>();
    let entry = audit["entries"].as_array().unwrap().iter().find(|e| e["action"] == "company.complianceSettings").cloned();
    assert!(
        entry.is_some_and(
            |e| e["summary"].as_str().unwrap().contains("06:00–14:00") && e["summary"].as_str().unwrap().contains("Europe/Madrid")
        ),
        "{audit}"
    );

    // In Madrid (UTC+1) the early shift starts at 06:00 local, 05:00 UTC: the East turn at 06:30
    // UTC is in it now, and North's 11:00 UTC turn (12:00 local) too.
    let madrid_body: Value = request(addr, "GET", path, Some(&staff_a), None).await.json();
    assert_eq!(madrid_body["timeZone"], "Europe/Madrid");
    let east_early = row(&madrid_body, "East · 1", 0);
    assert_eq!((east_early["shiftLabel"].as_str(), east_early["turns"].as_u64()), (Some("06:00–14:00"), Some(1)), "{east_early}");
    // North's turns at 08:00–11:00 UTC are 09:00–12:00 in Madrid: still the early shift.
    assert_eq!(row(&madrid_body, "North · 2", 0)["turns"], 4);
}
