//! A ward screen on a wall (issue 23, role 3) against a real hub: an administrator's one-time
//! pairing code gives the screen a board token that reads only its unit's devices, clocks and
//! maps, is refused by every other route (every write among them) and by another company's data,
//! expires, renews while used, survives a restart, and stops at once when the screen is unpaired
//! (its socket closes). Pairing and unpairing are in the audit log.
#![allow(clippy::unwrap_used)] // A test's helpers may unwrap: the panic is the failure it reports.

mod common;

use std::time::Duration;

use common::{Browser, PASSWORD, field, login, request};
use hub::auth::board::BOARD_TOKEN_TTL_SECS;
use hub::auth::roles::ROLE_BOARD;
use hub::auth::token::{Claims, TokenSigner, unix_now};
use serde_json::{Value, json};
use storage::Store;
use storage::model::NewDevice;

const UNIT: &str = "North · 2";

struct Seeded {
    company: String,
    admin: String,
    nurse: String,
    /// North · 2: a bed and a seat.
    in_unit: Vec<String>,
    /// North · 3: a bed.
    other_unit: String,
}

async fn device(store: &Store, company: &str, serial: &str, device_type: &str, building: &str, floor: &str) -> String {
    let new = NewDevice {
        name: serial.into(),
        device_type: device_type.into(),
        hardware_serial: serial.into(),
        company_id: company.into(),
        building: building.into(),
        floor: floor.into(),
        room: "1".into(),
        bed: "1".into(),
        number_of_subdevices: 2,
        secret_hash: storage::device_secret::hash("secret"),
        ..NewDevice::default()
    };
    store.hub_wide().devices().create(&new).await.unwrap()
}

async fn seed(store: &Store, tag: &str) -> Seeded {
    let company = store.hub_wide().companies().create(&format!("Clinic {tag}"), "").await.unwrap();
    let admin = format!("admin-{}@example.com", tag.to_lowercase());
    let nurse = format!("nurse-{}@example.com", tag.to_lowercase());
    store.hub_wide().accounts().create(&admin, PASSWORD, 1, &company).await.unwrap();
    store.hub_wide().accounts().create(&nurse, PASSWORD, 2, &company).await.unwrap();
    let bed = device(store, &company, &format!("{tag}-BED-1"), "Mattress Mat IoT", "North", "2").await;
    let seat = device(store, &company, &format!("{tag}-SEAT-1"), "Seating Mat IoT", " North ", "2").await;
    let other_unit = device(store, &company, &format!("{tag}-BED-2"), "Mattress Mat IoT", "North", "3").await;
    Seeded { company, admin, nurse, in_unit: vec![bed, seat], other_unit }
}

fn device_ids(list: &Value, key: &str) -> Vec<String> {
    let mut ids: Vec<String> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d[key].as_str().map(str::to_owned).unwrap_or_else(|| d[key]["$oid"].as_str().unwrap().to_owned()))
        .collect();
    ids.sort();
    ids
}

fn sorted(mut ids: Vec<String>) -> Vec<String> {
    ids.sort();
    ids
}

async fn get(addr: std::net::SocketAddr, token: &str, path: &str) -> (u16, Value) {
    let response = request(addr, "GET", path, Some(token), None).await;
    let body = serde_json::from_str(&response.body).unwrap_or(Value::Null);
    (response.status, body)
}

/// An administrator's pairing code for `unit`, claimed by a screen: its board session.
async fn pair_screen(addr: std::net::SocketAddr, admin_token: &str, unit: &str) -> Value {
    let code = request(addr, "POST", "/api/wardScreens", Some(admin_token), Some(&json!({ "unit": unit }).to_string())).await;
    assert_eq!(code.status, 201, "{}", code.body);
    let code: Value = code.json();
    let paired = request(addr, "POST", "/api/wardScreens/pair", None, Some(&json!({ "code": code["code"] }).to_string())).await;
    assert_eq!(paired.status, 200, "{}", paired.body);
    paired.json()
}

/// A path with its `{params}` filled: a device of the screen's unit for ids, a plausible value
/// for the rest (the route must refuse before it looks at them).
fn concrete(template: &str, device: &str, company: &str) -> String {
    template
        .split('/')
        .map(|segment| match segment {
            "{id}" | "{serial}" | "{patientId}" | "{userId}" | "{deviceId}" => device.to_owned(),
            "{company}" => company.to_owned(),
            "{type}" => "Mattress%20Mat%20IoT".to_owned(),
            "{kind}" => "processed".to_owned(),
            "{analysisType}" => "Static".to_owned(),
            "{page}" | "{x}" => "1".to_owned(),
            other if other.starts_with('{') => "x".to_owned(),
            other => other.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[tokio::test]
async fn a_paired_screen_reads_its_unit_only_and_nothing_else() {
    let data = tempfile::tempdir().unwrap();
    let store = Store::memory().await.unwrap();
    let a = seed(&store, "A").await;
    let b = seed(&store, "B").await;
    let running = hub::app::start_with_store(common::config(data.path()), store).await.unwrap();
    let addr = running.http_addr;
    let admin = login(addr, &a.admin, PASSWORD).await;
    let nurse = login(addr, &a.nurse, PASSWORD).await;

    // Only administrators ask for codes; a code is used once; a wrong one is refused.
    let by_nurse = request(addr, "POST", "/api/wardScreens", Some(&nurse), Some(&json!({ "unit": UNIT }).to_string())).await;
    assert_eq!(by_nurse.status, 403, "{}", by_nurse.body);
    let blank = request(addr, "POST", "/api/wardScreens", Some(&admin), Some(r#"{"unit": "  "}"#)).await;
    assert_eq!((blank.status, blank.error_code()), (400, "invalidUnit".to_owned()));
    let code = request(addr, "POST", "/api/wardScreens", Some(&admin), Some(&json!({ "unit": UNIT }).to_string())).await;
    let code: Value = code.json();
    let wrong = request(addr, "POST", "/api/wardScreens/pair", None, Some(r#"{"code": "AAAA-AAAA"}"#)).await;
    assert_eq!((wrong.status, wrong.error_code()), (400, "invalidPairingCode".to_owned()));
    let typed = code["code"].as_str().unwrap().to_lowercase();
    let paired = request(addr, "POST", "/api/wardScreens/pair", None, Some(&json!({ "code": typed }).to_string())).await;
    assert_eq!(paired.status, 200, "{}", paired.body);
    let session: Value = paired.json();
    let again = request(addr, "POST", "/api/wardScreens/pair", None, Some(&json!({ "code": code["code"] }).to_string())).await;
    assert_eq!(again.status, 400, "a code pairs one screen");
    assert_eq!(session["role"], ROLE_BOARD);
    assert_eq!(session["unit"], UNIT);
    let now = unix_now();
    let expires = session["expiresAt"].as_u64().unwrap();
    assert!(expires >= now + BOARD_TOKEN_TTL_SECS - 5 && expires <= now + BOARD_TOKEN_TTL_SECS + 5, "{session}");
    assert!(session["renewAt"].as_u64().unwrap() < expires);
    let board = session["token"].as_str().unwrap().to_owned();

    // Its unit's devices, statuses and clocks only; never another unit's
    // or another company's.
    let (status, devices) = get(addr, &board, "/api/userDevices").await;
    assert_eq!(status, 200, "{devices}");
    assert_eq!(device_ids(&devices, "_id"), sorted(a.in_unit.clone()), "{devices}");
    let (_, confs) = get(addr, &board, "/api/deviceConfCompany").await;
    assert_eq!(device_ids(&confs, "deviceId"), sorted(a.in_unit.clone()), "{confs}");
    let (_, clocks) = get(addr, &board, "/api/wardBoard").await;
    let clocks = device_ids(&clocks, "deviceId");
    assert!(clocks.contains(&a.in_unit[0]) && clocks.iter().all(|id| a.in_unit.contains(id)), "{clocks:?}");
    let (_, everyones) = get(addr, &nurse, "/api/wardBoard").await;
    assert!(device_ids(&everyones, "deviceId").contains(&a.other_unit), "a person's board has the other unit's clock");
    for path in ["/api/wardSettings", "/api/deviceTypes", "/api/pressureScale"] {
        assert_eq!(get(addr, &board, path).await.0, 200, "{path}");
    }
    // A person still reads the whole company.
    let (_, all) = get(addr, &nurse, "/api/userDevices").await;
    assert_eq!(device_ids(&all, "_id").len(), 3);

    // Every other route refuses the screen: every write, every read beyond the board, another
    // company's device, the admin's routes.
    let (_, document) = get(addr, &admin, "/api/openapi.json").await;
    let mut checked = 0;
    for (template, operations) in document["paths"].as_object().unwrap() {
        for (method, operation) in operations.as_object().unwrap() {
            let board_read = operation["x-role"].as_str().is_some_and(|r| r.contains("ward screen"));
            if operation.get("security").is_none() || board_read {
                continue;
            }
            for device in [&a.in_unit[0], &b.in_unit[0]] {
                let path = concrete(template, device, &a.company);
                let body = if method == "get" || method == "delete" { None } else { Some("{}") };
                let refused = request(addr, &method.to_uppercase(), &path, Some(&board), body).await;
                assert_eq!((refused.status, refused.error_code()), (403, "boardReadOnly".to_owned()), "{method} {path}: {}", refused.body);
                checked += 1;
            }
        }
    }
    assert!(checked > 80, "every route was tried ({checked})");

    // The socket: its unit's maps only, and it attends nothing.
    let mut socket = Browser::authenticated(addr, &board).await;
    socket.send("joinUser", json!({ "deviceId": a.other_unit })).await;
    let refused = socket.wait_for("error", Duration::from_secs(5)).await.unwrap();
    assert_eq!(field(&refused.data, "error").as_str(), Some("deviceNotFound"));
    socket.send("joinUser", json!({ "deviceId": b.in_unit[0] })).await;
    let refused = socket.wait_for("error", Duration::from_secs(5)).await.unwrap();
    assert_eq!(field(&refused.data, "error").as_str(), Some("deviceNotFound"), "another company's device");
    socket.send("attendAlarm", json!({ "deviceId": a.in_unit[0], "alarmId": null })).await;
    let refused = socket.wait_for("error", Duration::from_secs(5)).await.unwrap();
    assert_eq!(field(&refused.data, "error").as_str(), Some("readOnly"));
    socket.send("joinCompany", json!({})).await;
    let mut statuses = Vec::new();
    while let Some(event) = socket.next_event(Duration::from_millis(500)).await {
        if event.event == "deviceConf" {
            statuses.push(field(&event.data, "deviceId").as_str().unwrap().to_owned());
        }
    }
    assert_eq!(sorted(statuses), sorted(a.in_unit.clone()), "the company's statuses, filtered to the unit");

    // Administrators list the screen; the audit log has its pairing.
    let (_, screens) = get(addr, &admin, "/api/wardScreens").await;
    assert_eq!(screens.as_array().unwrap().len(), 1, "{screens}");
    assert_eq!(screens[0]["unit"], UNIT);
    assert_eq!(screens[0]["pairedByEmail"], a.admin.as_str());
    assert_eq!(screens[0]["expired"], false);
    let admin_b = login(addr, &b.admin, PASSWORD).await;
    assert_eq!(get(addr, &admin_b, "/api/wardScreens").await.1, json!([]), "another company's administrators do not see it");
    let screen_id = screens[0]["id"].as_str().unwrap().to_owned();
    let (_, audit) = get(addr, &admin, "/api/auditLog/1").await;
    assert_eq!(audit["entries"][0]["action"], "boardScreen.pair", "{audit}");
    assert_eq!(audit["entries"][0]["entityId"], screen_id.as_str());
    assert_eq!(audit["entries"][0]["userEmail"], a.admin.as_str());

    // Another company's administrator cannot unpair it.
    let foreign = request(addr, "DELETE", &format!("/api/wardScreen/{screen_id}"), Some(&admin_b), None).await;
    assert_eq!(foreign.status, 404);

    // Unpaired: its token is refused at once, its socket closes, the audit log says so.
    let unpaired = request(addr, "DELETE", &format!("/api/wardScreen/{screen_id}"), Some(&admin), None).await;
    assert_eq!(unpaired.status, 204, "{}", unpaired.body);
    let refused = request(addr, "GET", "/api/userDevices", Some(&board), None).await;
    assert_eq!((refused.status, refused.error_code()), (401, "screenUnpaired".to_owned()));
    let renew = request(addr, "POST", "/api/wardScreens/renew", Some(&board), None).await;
    assert_eq!(renew.status, 401);
    let mut closed = false;
    for _ in 0..20 {
        if socket.next_event(Duration::from_millis(250)).await.is_none() {
            closed = true;
            break;
        }
    }
    assert!(closed, "the screen's socket closed");
    let (_, audit) = get(addr, &admin, "/api/auditLog/1").await;
    assert_eq!(audit["entries"][0]["action"], "boardScreen.unpair", "{audit}");
    assert!(audit["entries"][0]["summary"].as_str().unwrap().contains(UNIT));
    assert_eq!(get(addr, &admin, "/api/wardScreens").await.1, json!([]));
    running.shutdown().await;
}

#[tokio::test]
async fn a_board_token_expires_renews_while_used_and_survives_a_restart() {
    let data = tempfile::tempdir().unwrap();
    let store = Store::memory().await.unwrap();
    let a = seed(&store, "A").await;
    let running = hub::app::start_with_store(common::config(data.path()), store.clone()).await.unwrap();
    let addr = running.http_addr;
    let admin = login(addr, &a.admin, PASSWORD).await;
    let nurse = login(addr, &a.nurse, PASSWORD).await;
    let session = pair_screen(addr, &admin, UNIT).await;
    let screen = session["screenId"].as_str().unwrap().to_owned();

    // Tokens of this screen signed with the hub's own key: one expired, one about to.
    let key = store.hub_wide().settings().get_or_init("token_key", TokenSigner::generate_key).await.unwrap();
    let signer = TokenSigner::from_stored(&key).unwrap();
    let token = |expires_at| {
        signer.issue(&Claims {
            token_id: TokenSigner::new_token_id(),
            user_id: screen.clone(),
            company_id: a.company.clone(),
            role: ROLE_BOARD,
            expires_at,
        })
    };
    let expired = token(unix_now() - 1);
    let refused = request(addr, "GET", "/api/wardBoard", Some(&expired), None).await;
    assert_eq!(refused.status, 401, "{}", refused.body);
    assert!(refused.body.contains("expired"), "{}", refused.body);
    assert_eq!(request(addr, "POST", "/api/wardScreens/renew", Some(&expired), None).await.status, 401, "an expired token renews nothing");

    // A token in use renews: 30 more days, the new token reads the board.
    let ending = token(unix_now() + 60);
    let renewed = request(addr, "POST", "/api/wardScreens/renew", Some(&ending), None).await;
    assert_eq!(renewed.status, 200, "{}", renewed.body);
    let renewed: Value = renewed.json();
    assert_eq!(renewed["screenId"], screen.as_str());
    assert_eq!(renewed["unit"], UNIT);
    assert!(renewed["expiresAt"].as_u64().unwrap() >= unix_now() + BOARD_TOKEN_TTL_SECS - 5, "{renewed}");
    let fresh = renewed["token"].as_str().unwrap().to_owned();
    assert_eq!(get(addr, &fresh, "/api/userDevices").await.0, 200);
    // A person does not renew (people sign in).
    assert_eq!(request(addr, "POST", "/api/wardScreens/renew", Some(&nurse), None).await.status, 403);

    // A restart keeps the screen paired (and a token of an unpaired one refused).
    running.shutdown().await;
    let data2 = tempfile::tempdir().unwrap();
    let restarted = hub::app::start_with_store(common::config(data2.path()), store).await.unwrap();
    let (status, devices) = get(restarted.http_addr, &fresh, "/api/userDevices").await;
    assert_eq!(status, 200, "{devices}");
    assert_eq!(device_ids(&devices, "_id"), sorted(a.in_unit.clone()));
    let stranger = signer.issue(&Claims {
        token_id: TokenSigner::new_token_id(),
        user_id: "never-paired".into(),
        company_id: a.company.clone(),
        role: ROLE_BOARD,
        expires_at: unix_now() + 600,
    });
    let refused = request(restarted.http_addr, "GET", "/api/userDevices", Some(&stranger), None).await;
    assert_eq!((refused.status, refused.error_code()), (401, "screenUnpaired".to_owned()));
    restarted.shutdown().await;
}
