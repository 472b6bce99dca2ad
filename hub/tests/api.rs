//! The REST API of spec §7 on loopback, against the real hub and a real in-memory SurrealDB:
//! every route, the validation rules at and across their limits, roles, company isolation,
//! tokens, throttling and body limits.
#![allow(clippy::unwrap_used)] // A test's helpers may unwrap: the panic is the failure it reports.

mod common;

use std::collections::BTreeSet;

use common::{PASSWORD, Response, login, request, request_raw, seed_company};
use hub::auth::token::{Claims, TokenSigner};
use serde_json::{Value, json};
use storage::Store;

const ADMIN_EMAIL: &str = "root@clinic-a.example.com";

/// Two companies, A (with an administrator) and B, each with a staff user and devices.
struct World {
    hub: hub::app::RunningHub,
    a: Side,
    b: Side,
    admin: String,
    _data: tempfile::TempDir,
}

struct Side {
    company: String,
    token: String,
    user: String,
    devices: Vec<common::SeededDevice>,
}

const TYPES: [&str; 3] = ["Mattress Mat IoT", "Force Mat", "Seating Mat IoT"];

async fn world() -> World {
    let data = tempfile::tempdir().unwrap();
    let store = Store::memory().await.unwrap();
    let (company_a, email_a, devices_a) = seed_company(&store, "A", &TYPES).await;
    let (company_b, email_b, devices_b) = seed_company(&store, "B", &TYPES).await;
    store.hub_wide().accounts().create(ADMIN_EMAIL, PASSWORD, hub::auth::roles::ROLE_ADMIN, &company_a).await.unwrap();
    let hub = hub::app::start_with_store(common::config(data.path()), store).await.unwrap();
    let side = |company: String, token: String, devices| {
        let user = user_of(&token);
        Side { company, token, user, devices }
    };
    let token_a = login(hub.http_addr, &email_a, PASSWORD).await;
    let token_b = login(hub.http_addr, &email_b, PASSWORD).await;
    let admin = login(hub.http_addr, ADMIN_EMAIL, PASSWORD).await;
    World { a: side(company_a, token_a, devices_a), b: side(company_b, token_b, devices_b), admin, hub, _data: data }
}

/// The user id inside a token (the payload is `v2|id|user|company|role|exp`).
fn user_of(token: &str) -> String {
    use base64::Engine;
    let payload = token.split('.').next().unwrap();
    let text = String::from_utf8(base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap();
    text.split('|').nth(2).unwrap().to_owned()
}

impl World {
    async fn call(&self, method: &str, path: &str, token: &str, body: Value) -> Response {
        let body = if body.is_null() { None } else { Some(body.to_string()) };
        request(self.hub.http_addr, method, path, Some(token), body.as_deref()).await
    }
}

fn expect(response: &Response, status: u16, error: &str) {
    assert_eq!(response.status, status, "{}", response.body);
    if !error.is_empty() {
        assert_eq!(response.error_code(), error, "{}", response.body);
    }
}

/// Every call spec §7 names, as (method, path template). Paths the spec leaves open are ours.
const SPEC_ROUTES: &[(&str, &str)] = &[
    ("POST", "/api/auth/login"),
    ("POST", "/api/auth/signup"),
    ("GET", "/api/auth/companies"),
    ("GET", "/api/auth/companiesname"),
    ("POST", "/api/auth/company/register"),
    ("PUT", "/api/device/{id}"),
    ("GET", "/api/device/obtainList/{company}/{type}/{x}"),
    ("GET", "/api/deviceConfCompany"),
    ("GET", "/api/userDevices"),
    ("GET", "/api/deviceConfiguration/{id}"),
    ("POST", "/api/deviceandconfRegistration"),
    ("POST", "/api/registerAll"),
    ("POST", "/api/quickRegistration"),
    ("GET", "/api/ForceDeviceApi/{id}"),
    ("GET", "/api/standard/pressureMapLogs/{serial}"),
    ("GET", "/api/iotCheckAlarms/{serial}"),
    ("GET", "/api/iotAlarms/{id}"),
    ("PUT", "/api/iotAlarms/{id}"),
    ("GET", "/api/iotLogs/{id}"),
    ("POST", "/api/iotRequests/{serial}"),
    ("PUT", "/api/attendAlarm/{serial}"),
    ("POST", "/api/podometryAnalysis/{patientId}"),
    ("POST", "/api/seatingAnalysis/{patientId}"),
    ("PUT", "/api/podometryAnalysis/specific/{id}"),
    ("DELETE", "/api/podometryAnalysis/specific/{id}"),
    ("GET", "/api/podometryAnalysisPage/{userId}/{analysisType}/{page}"),
    ("GET", "/api/podometryAnalysisCount/{userId}/{analysisType}"),
    ("GET", "/api/podometryAnalysisPatient/{userId}/{patientId}/{analysisType}/{page}"),
    ("GET", "/api/podometryAnalysisCountPatient/{userId}/{patientId}/{analysisType}"),
    ("GET", "/api/deviceAnalysisPage/{userId}/{deviceId}/{analysisType}/{page}"),
    ("GET", "/api/deviceAnalysisCount/{userId}/{deviceId}/{analysisType}"),
    ("GET", "/api/podometry/patients/{userId}"),
    ("POST", "/api/podometry/patients/{userId}"),
    ("GET", "/api/podometry/patient/select/{userId}"),
    ("PUT", "/api/podometry/patient/select/{userId}"),
    ("PUT", "/api/podometry/patient/{patientId}"),
    ("GET", "/api/LayoutSettings/{userId}"),
    ("PUT", "/api/LayoutSettings/{userId}"),
    ("POST", "/api/LayoutSettings/{userId}"),
    ("GET", "/api/companyUser"),
    ("PUT", "/api/companyUser"),
    ("POST", "/api/downloadAnalysisPDF/{id}/{x}"),
    ("POST", "/api/downloadRealScalePDF/{id}"),
    ("GET", "/api/analysisExport/{id}/{kind}"),
];

fn documented(document: &Value) -> BTreeSet<(String, String)> {
    let mut routes = BTreeSet::new();
    for (path, methods) in document["paths"].as_object().unwrap() {
        for method in methods.as_object().unwrap().keys() {
            routes.insert((method.to_uppercase(), path.clone()));
        }
    }
    routes
}

fn concrete(template: &str) -> String {
    template.split('/').map(|s| if s.starts_with('{') { "x1" } else { s }).collect::<Vec<_>>().join("/")
}

#[tokio::test]
async fn every_spec_call_is_in_the_openapi_document_and_every_documented_call_needs_a_token() {
    let w = world().await;
    let response = request(w.hub.http_addr, "GET", "/api/openapi.json", None, None).await;
    expect(&response, 200, "");
    let document: Value = response.json();
    assert_eq!(document["openapi"], "3.1.0");
    let routes = documented(&document);
    for (method, path) in SPEC_ROUTES {
        assert!(routes.contains(&(method.to_string(), path.to_string())), "{method} {path} is not documented");
    }
    // Every documented route exists on that path and method and refuses an anonymous,
    // a forged and an expired caller.
    let key = w.hub.store.hub_wide().settings().get("token_key").await.unwrap().unwrap();
    let signer = TokenSigner::from_stored(&key).unwrap();
    let claims = |expires_at| Claims {
        token_id: "test-token".into(),
        user_id: w.a.user.clone(),
        company_id: w.a.company.clone(),
        role: 1,
        expires_at,
    };
    let expired = signer.issue(&claims(1));
    let forged = TokenSigner::new(b"not-the-hub-key-not-the-hub-key!".to_vec()).issue(&claims(u64::MAX));
    for (method, path) in &routes {
        let body = if method == "GET" || method == "DELETE" { None } else { Some("{}") };
        if path == "/api/auth/login" || path == "/api/wardScreens/pair" {
            continue;
        }
        let anonymous = request(w.hub.http_addr, method, &concrete(path), None, body).await;
        expect(&anonymous, 401, "unauthorized");
        for token in [&expired, &forged] {
            let refused = request(w.hub.http_addr, method, &concrete(path), Some(token), body).await;
            expect(&refused, 401, "unauthorized");
        }
    }
}

#[tokio::test]
async fn unknown_calls_are_404_and_wrong_methods_405() {
    let w = world().await;
    expect(&w.call("GET", "/api/nothing/here", &w.a.token, Value::Null).await, 404, "notFound");
    let wrong_method = w.call("GET", "/api/device/abc", &w.a.token, Value::Null).await;
    expect(&wrong_method, 405, "methodNotAllowed");
    expect(&w.call("DELETE", "/api/userDevices", &w.a.token, Value::Null).await, 405, "methodNotAllowed");
}

#[tokio::test]
async fn login_failures_are_throttled_per_account() {
    let w = world().await;
    let attempt = |password: &'static str| {
        let body = json!({ "email": "nurse-a@example.com", "password": password }).to_string();
        let addr = w.hub.http_addr;
        async move { request(addr, "POST", "/api/auth/login", None, Some(&body)).await }
    };
    for _ in 0..hub::auth::rate_limit::ACCOUNT_LIMIT {
        expect(&attempt("wrong-password").await, 401, "incorrectCredentials");
    }
    let blocked = attempt("wrong-password").await;
    expect(&blocked, 429, "tooManyAttempts");
    // Even the right password waits out the window: a guesser cannot tell when it hit.
    expect(&attempt(PASSWORD).await, 429, "tooManyAttempts");
    // Other accounts are not blocked (the address limit is higher).
    login(w.hub.http_addr, "nurse-b@example.com", PASSWORD).await;
}

#[tokio::test]
async fn bodies_over_the_limit_are_413_and_bad_json_400_never_500() {
    let w = world().await;
    let big = format!("{{\"email\": \"{}\", \"password\": \"x\"}}", "a".repeat(20 * 1024));
    expect(&request(w.hub.http_addr, "POST", "/api/auth/login", None, Some(&big)).await, 413, "payloadTooLarge");
    let huge = json!({ "name": "Ana", "notes": "n".repeat(3 * 1024 * 1024) });
    expect(&w.call("POST", &format!("/api/podometry/patients/{}", w.a.user), &w.a.token, huge).await, 413, "payloadTooLarge");
    // Garbage to every call that takes a body, as an administrator: a client error, never 500.
    let document: Value = request(w.hub.http_addr, "GET", "/api/openapi.json", None, None).await.json();
    for (method, path) in documented(&document) {
        // Logout takes no body and would revoke the token this loop goes on with.
        if method == "GET" || method == "DELETE" || path == "/api/auth/logout" {
            continue;
        }
        let path = path.replace("{userId}", &user_of(&w.admin)).replace(['{', '}'], "");
        for garbage in ["{not json", "[]", "null", "\"text\""] {
            let response = request(w.hub.http_addr, &method, &path, Some(&w.admin), Some(garbage)).await;
            assert!((400..500).contains(&response.status), "{method} {path} {garbage}: {} {}", response.status, response.body);
        }
        // Wrong types inside an object: refused or ignored (unknown fields), never a crash.
        let response =
            request(w.hub.http_addr, &method, &path, Some(&w.admin), Some(r#"{"email": 5, "name": {}, "weight": [], "notes": 1}"#)).await;
        assert!(response.status < 500, "{method} {path}: {} {}", response.status, response.body);
    }
}

/// The calls only administrators may make (spec §9 and the hub's own: audit log, secret
/// rotation), by method and documented path.
const ADMINISTRATOR_ROUTES: [(&str, &str); 22] = [
    ("POST", "/api/auth/signup"),
    ("GET", "/api/auth/companies"),
    ("GET", "/api/auth/companiesname"),
    ("POST", "/api/auth/company/register"),
    ("POST", "/api/deviceandconfRegistration"),
    ("POST", "/api/registerAll"),
    ("POST", "/api/quickRegistration"),
    ("PUT", "/api/companyUser"),
    ("PUT", "/api/companyVariants"),
    ("GET", "/api/auditLog/{page}"),
    ("POST", "/api/device/{id}/secret"),
    ("POST", "/api/device/{id}/tare"),
    ("DELETE", "/api/podometry/patient/{patientId}"),
    ("GET", "/api/alarmManager"),
    ("PUT", "/api/alarmManager"),
    ("GET", "/api/alarmManager/deadLetters"),
    ("POST", "/api/alarmManager/deadLetters/{id}/resend"),
    ("PUT", "/api/wardSettings"),
    ("POST", "/api/wardScreens"),
    ("GET", "/api/wardScreens"),
    ("DELETE", "/api/wardScreen/{id}"),
    ("PUT", "/api/complianceSettings"),
];

#[tokio::test]
async fn administrator_calls_refuse_staff() {
    let w = world().await;
    for (method, path) in ADMINISTRATOR_ROUTES {
        expect(&w.call(method, &concrete(path), &w.a.token, json!({})).await, 403, "forbidden");
    }
}

/// The route table's access, as served: every route the document marks for administrators
/// answers 403 to a staff token and every other non-public one lets it through the access
/// check, each before reading a body (a malformed one is never reported first), and the
/// administrator routes are exactly the ones this file refuses to staff by name.
#[tokio::test]
async fn the_route_table_decides_access_before_the_body_is_read() {
    let w = world().await;
    let document: Value = request(w.hub.http_addr, "GET", "/api/openapi.json", None, None).await.json();
    let mut administrator_routes = BTreeSet::new();
    for (path, methods) in document["paths"].as_object().unwrap() {
        for (method, operation) in methods.as_object().unwrap() {
            let method = method.to_uppercase();
            let body = if method == "GET" || method == "DELETE" { None } else { Some("{not json") };
            let public = operation.get("security").is_none();
            if public {
                // Sign-in, and a wall screen's pairing with a one-time code (docs/decisions.md).
                assert!(
                    [("POST", "/api/auth/login"), ("POST", "/api/wardScreens/pair")].contains(&(method.as_str(), path.as_str())),
                    "only sign-in and pairing are public: {method} {path}"
                );
                continue;
            }
            let anonymous = request(w.hub.http_addr, &method, &concrete(path), None, body).await;
            expect(&anonymous, 401, "unauthorized");
            if operation["x-role"] == "administrator (role 1)" {
                administrator_routes.insert((method.clone(), path.clone()));
                let staff = request(w.hub.http_addr, &method, &concrete(path), Some(&w.a.token), body).await;
                expect(&staff, 403, "forbidden");
            } else if path != "/api/auth/logout" && path != "/api/wardScreens/renew" {
                // (Renewal is a wall screen's own: a person's token is refused, ward_wall.rs.)
                let staff = request(w.hub.http_addr, &method, &concrete(path).replace("x1", &w.a.user), Some(&w.a.token), body).await;
                assert!(
                    ![401, 403].contains(&staff.status),
                    "{method} {path}: staff passes the access check ({} {})",
                    staff.status,
                    staff.body
                );
            }
        }
    }
    let by_name: BTreeSet<(String, String)> =
        ADMINISTRATOR_ROUTES.iter().map(|&(method, path)| (method.to_owned(), path.to_owned())).collect();
    assert_eq!(administrator_routes, by_name);
}

#[tokio::test]
async fn signup_applies_the_account_rules_and_creates_staff() {
    let w = world().await;
    let signup = |email: &str, password: &str, repeat: &str| json!({ "email": email, "password": password, "passwordRepeat": repeat, "company": "Clinic B", "role": 1 });
    for (body, error) in [
        (signup("", "secret1", "secret1"), "emptyEmail"),
        (signup("new@b.example.com", "", ""), "emptyEmail"),
        (signup("not-an-email", "secret1", "secret1"), "incorrectEmail"),
        (signup("new@b.example.com", "secret1", "secret2"), "passwordsUnmatch"),
        (signup("new@b.example.com", "five5", "five5"), "shortPassword"),
    ] {
        expect(&w.call("POST", "/api/auth/signup", &w.admin, body).await, 400, error);
    }
    let created = w.call("POST", "/api/auth/signup", &w.admin, signup("New@B.example.com", "sixsix", "sixsix")).await;
    expect(&created, 201, "");
    let user: Value = created.json();
    assert_eq!((user["role"].as_i64(), user["companyId"].as_str()), (Some(2), Some(w.b.company.as_str())), "role forced to 2");
    login(w.hub.http_addr, "new@b.example.com", "sixsix").await;
    expect(&w.call("POST", "/api/auth/signup", &w.admin, signup("new@b.example.com", "sixsix", "sixsix")).await, 409, "duplicateEmail");
    let unknown = json!({ "email": "x@y.example.com", "password": "sixsix", "company": "No Such Clinic" });
    expect(&w.call("POST", "/api/auth/signup", &w.admin, unknown).await, 404, "notFound");
}

fn png(size: usize) -> String {
    use base64::Engine;
    let mut bytes = vec![0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];
    bytes.resize(size, 7);
    format!("data:image/png;base64,{}", base64::engine::general_purpose::STANDARD.encode(bytes))
}

#[tokio::test]
async fn companies_are_created_with_defaults_and_branded_with_real_images() {
    let w = world().await;
    let created = w.call("POST", "/api/auth/company/register", &w.admin, json!({ "company": "Clínica Norte" })).await;
    expect(&created, 201, "");
    let company: Value = created.json();
    assert_eq!((company["pageColor"].as_str(), company["layoutNumber"].as_i64()), (Some("#f5f5f5"), Some(2)));
    expect(&w.call("POST", "/api/auth/company/register", &w.admin, json!({ "company": "Clínica Norte" })).await, 409, "duplicateCompany");
    expect(&w.call("POST", "/api/auth/company/register", &w.admin, json!({ "company": "n".repeat(26) })).await, 400, "companyNameTooLong");
    expect(&w.call("POST", "/api/auth/company/register", &w.admin, json!({ "company": "n".repeat(25) })).await, 201, "");
    let names: Value = w.call("GET", "/api/auth/companiesname", &w.admin, Value::Null).await.json();
    assert!(names["companies"].as_array().unwrap().iter().any(|n| n == "Clínica Norte"));

    // Branding of the administrator's own company.
    let save = |logo: String| json!({ "companyName": "Clinic A", "location": "1 Main St", "logo": logo });
    let saved = w.call("PUT", "/api/companyUser", &w.admin, save(png(1_048_576))).await;
    expect(&saved, 200, "");
    let own: Value = w.call("GET", "/api/companyUser", &w.a.token, Value::Null).await.json();
    assert_eq!(own[0]["location"], "1 Main St");
    assert!(own[0]["logo"].as_str().unwrap().starts_with("data:image/png;base64,"));
    expect(&w.call("PUT", "/api/companyUser", &w.admin, save(png(1_048_577))).await, 413, "logoTooLarge");
    let gif = {
        use base64::Engine;
        format!("data:image/png;base64,{}", base64::engine::general_purpose::STANDARD.encode(b"GIF89a-not-a-png"))
    };
    expect(&w.call("PUT", "/api/companyUser", &w.admin, save(gif)).await, 400, "logoNotImage");
    expect(
        &w.call("PUT", "/api/companyUser", &w.admin, json!({ "companyName": "A", "address": "x".repeat(201) })).await,
        400,
        "addressTooLong",
    );
    // B's branding is untouched and B never sees A.
    let b: Value = w.call("GET", "/api/companyUser", &w.b.token, Value::Null).await.json();
    assert_eq!(b.as_array().unwrap().len(), 1);
    assert_eq!(b[0]["companyName"], "Clinic B");
}

#[tokio::test]
async fn devices_are_renamed_listed_by_type_and_read_one_by_one() {
    let w = world().await;
    let mat = &w.a.devices[0];
    for body in [
        json!({ "name": "", "room": "1", "bed": "A" }),
        json!({ "name": "N", "room": " ", "bed": "A" }),
        json!({ "name": "N", "room": "1", "bed": "" }),
    ] {
        expect(&w.call("PUT", &format!("/api/device/{}", mat.id), &w.a.token, body).await, 400, "deviceParameters");
    }
    let renamed =
        w.call("PUT", &format!("/api/device/{}", mat.id), &w.a.token, json!({ "name": "Bed 7", "room": "207", "bed": "B" })).await;
    expect(&renamed, 200, "");
    let devices: Value = w.call("GET", "/api/userDevices", &w.a.token, Value::Null).await.json();
    let row = devices.as_array().unwrap().iter().find(|d| d["_id"]["$oid"] == mat.id.as_str()).unwrap().clone();
    assert_eq!((row["name"].as_str(), row["room"].as_str(), row["bed"].as_str()), (Some("Bed 7"), Some("207"), Some("B")));

    let list: Value = w.call("GET", &format!("/api/device/obtainList/{}/Force%20Mat/0", w.a.company), &w.a.token, Value::Null).await.json();
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(list[0]["deviceType"], "Force Mat");
    expect(
        &w.call("GET", &format!("/api/device/obtainList/{}/Toaster/0", w.a.company), &w.a.token, Value::Null).await,
        400,
        "invalidDeviceType",
    );

    let conf = w.call("GET", &format!("/api/deviceConfiguration/{}", mat.id), &w.a.token, Value::Null).await;
    expect(&conf, 200, "");
    let conf: Value = conf.json();
    assert_eq!((conf["deviceFunctional"].as_bool(), conf["cardStatus"].as_str()), (Some(false), Some("Offline")));

    let force = &w.a.devices[1];
    let values: Value = w.call("GET", &format!("/api/ForceDeviceApi/{}", force.id), &w.a.token, Value::Null).await.json();
    assert_eq!((values["presureValue"].clone(), values["total"].as_u64()), (json!([0, 0, 0, 0]), Some(0)));
    expect(&w.call("GET", &format!("/api/ForceDeviceApi/{}", mat.id), &w.a.token, Value::Null).await, 400, "notAForceDevice");
    let log: Value = w.call("GET", &format!("/api/standard/pressureMapLogs/{}", mat.serial), &w.a.token, Value::Null).await.json();
    assert!(log["pressureMap"].is_null(), "no frame yet");
}

#[tokio::test]
async fn a_registered_device_gets_a_one_time_secret_that_lets_it_stream_at_once() {
    let w = world().await;
    let registration = json!({ "hardwareSerial": "NEW-MAT-1", "hardwarePassword": "NEW-MAT-1", "name": "Bed 9", "deviceType": "Mattress Mat IoT", "room": 9, "bed": "A", "added_by": "Clinic B" });
    let created = w.call("POST", "/api/deviceandconfRegistration", &w.admin, registration.clone()).await;
    expect(&created, 201, "");
    let device: Value = created.json();
    let secret = device["deviceSecret"].as_str().unwrap().to_owned();
    assert_ne!(secret, "NEW-MAT-1", "the serial is not the secret");
    assert_eq!(secret.len(), 43);
    expect(&w.call("POST", "/api/deviceandconfRegistration", &w.admin, registration).await, 409, "duplicateSerial");
    for (body, error) in [
        (json!({ "name": "X", "deviceType": "Force Mat" }), "deviceParameters"),
        (json!({ "hardwareSerial": "S-2", "deviceType": "Force Mat" }), "deviceParameters"),
        (json!({ "hardwareSerial": "S-2", "name": "X", "deviceType": "Toaster" }), "invalidDeviceType"),
        (json!({ "hardwareSerial": "S-2", "name": "X", "deviceType": "Sensing Horse", "numberOfSubdevices": "many" }), "deviceParameters"),
    ] {
        expect(&w.call("POST", "/api/deviceandconfRegistration", &w.admin, body).await, 400, error);
    }
    // B sees it (offline) at once; A does not.
    let confs: Value = w.call("GET", "/api/deviceConfCompany", &w.b.token, Value::Null).await.json();
    assert!(confs.as_array().unwrap().iter().any(|c| c["deviceId"]["$oid"] == device["id"]));
    let confs_a: Value = w.call("GET", "/api/deviceConfCompany", &w.a.token, Value::Null).await.json();
    assert!(!confs_a.as_array().unwrap().iter().any(|c| c["deviceId"]["$oid"] == device["id"]));
    // The device connects with its secret and becomes functional without a restart.
    let spec = simulator::DeviceSpec::new("NEW-MAT-1", secret, "Mattress Mat IoT").unwrap();
    let transport = simulator::Transport::Quic {
        addr: w.hub.quic_addr,
        server_name: "localhost".into(),
        trust: simulator::Trust::PemFile(w.hub.cert_path.clone()),
    };
    let (stop, shutdown) = tokio::sync::watch::channel(false);
    tokio::spawn(simulator::run_device(spec, transport, std::sync::Arc::new(simulator::SimStats::default()), shutdown));
    let id = device["id"].as_str().unwrap().to_owned();
    let mut functional = false;
    for _ in 0..100 {
        let conf: Value = w.call("GET", &format!("/api/deviceConfiguration/{id}"), &w.b.token, Value::Null).await.json();
        if conf["deviceFunctional"] == true {
            functional = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let _ = stop.send(true);
    assert!(functional, "the new device streamed");
}

#[tokio::test]
async fn parents_register_with_members_and_register_all_and_quick_registration_create_logins() {
    let w = world().await;
    let horse = w
        .call(
            "POST",
            "/api/deviceandconfRegistration",
            &w.admin,
            json!({ "hardwareSerial": "HORSE-9", "name": "Saddle", "deviceType": "Sensing Horse", "numberOfSubdevices": "4" }),
        )
        .await;
    expect(&horse, 201, "");
    let horse: Value = horse.json();
    assert!(horse["deviceSecret"].is_null(), "a parent never connects");
    let members = horse["members"].as_array().unwrap();
    assert_eq!(members.len(), 4);
    assert!(
        members.iter().all(|m| m["deviceSecret"].as_str().is_some_and(|s| s.len() == 43) && m["deviceType"] == "Sensing Horse Subdevice")
    );
    let room = w
        .call(
            "POST",
            "/api/deviceandconfRegistration",
            &w.admin,
            json!({ "hardwareSerial": "ROOM-9", "name": "Room 9", "deviceType": "Room Set" }),
        )
        .await;
    let room: Value = room.json();
    let serials: Vec<&str> = room["members"].as_array().unwrap().iter().map(|m| m["hardwareSerial"].as_str().unwrap()).collect();
    assert_eq!(serials, ["ROOM-9-BED", "ROOM-9-SEAT", "ROOM-9-FLOOR"]);

    let all = json!({
        "company": { "company": "Clínica Este", "pageColor": "#ffffff", "layoutNumber": 3 },
        "user": { "email": "jefa@este.example.com", "password": "segura1", "passwordRepeat": "segura1" },
        "device": { "hardwareSerial": "ESTE-1", "name": "Cama 1", "deviceType": "Mattress Mat IoT" }
    });
    let created = w.call("POST", "/api/registerAll", &w.admin, all.clone()).await;
    expect(&created, 201, "");
    let created: Value = created.json();
    let token = login(w.hub.http_addr, "jefa@este.example.com", "segura1").await;
    let devices: Value = w.call("GET", "/api/userDevices", &token, Value::Null).await.json();
    assert_eq!(devices[0]["hardwareSerial"], "ESTE-1");
    assert_eq!(devices[0]["company"], "Clínica Este");
    assert_eq!(created["id"], created["company"]["_id"]["$oid"]);
    // Nothing is written when any part is refused.
    let mut clash = all.clone();
    clash["company"]["company"] = json!("Clínica Oeste");
    clash["user"]["email"] = json!("otro@oeste.example.com");
    expect(&w.call("POST", "/api/registerAll", &w.admin, clash).await, 409, "duplicateSerial");
    let names: Value = w.call("GET", "/api/auth/companiesname", &w.admin, Value::Null).await.json();
    assert!(!names["companies"].as_array().unwrap().iter().any(|n| n == "Clínica Oeste"));

    let quick =
        w.call("POST", "/api/quickRegistration", &w.admin, json!({ "hardwareSerial": "PLATE-77", "deviceType": "Podology IoT" })).await;
    expect(&quick, 201, "");
    let quick: Value = quick.json();
    let (email, password) = (quick["email"].as_str().unwrap(), quick["password"].as_str().unwrap());
    assert!(email.starts_with("admin.plate-77@"));
    assert_eq!(password.chars().count(), 12);
    let token = login(w.hub.http_addr, email, password).await;
    let devices: Value = w.call("GET", "/api/userDevices", &token, Value::Null).await.json();
    assert_eq!(devices[0]["hardwareSerial"], "PLATE-77");
    expect(
        &w.call("POST", "/api/quickRegistration", &w.admin, json!({ "hardwareSerial": "PLATE-77", "deviceType": "Podology IoT" })).await,
        409,
        "duplicateSerial",
    );
}

#[tokio::test]
async fn alarms_are_checked_attended_by_serial_and_logged() {
    let w = world().await;
    let mat = &w.a.devices[0];
    let check = |serial: String| {
        let (addr, token) = (w.hub.http_addr, w.a.token.clone());
        async move { request(addr, "GET", &format!("/api/iotCheckAlarms/{serial}"), Some(&token), None).await.json::<Value>() }
    };
    assert_eq!(check(mat.serial.clone()).await, "False");
    let now = storage::unix_now();
    w.hub.store.company(&w.a.company).logs().raise_alarm(&mat.id, "Missing", now - 90).await.unwrap();
    assert_eq!(check(mat.serial.clone()).await, "True");
    let attended = w.call("PUT", &format!("/api/attendAlarm/{}", mat.serial), &w.a.token, Value::Null).await;
    expect(&attended, 200, "");
    assert_eq!(attended.json::<Value>()["attended"], 1);
    assert_eq!(check(mat.serial.clone()).await, "False");
    let alarms: Value = w.call("GET", &format!("/api/iotAlarms/{}", mat.id), &w.a.token, Value::Null).await.json();
    assert_eq!(alarms[0]["hasBeenAttended"], true);
    assert!(alarms[0]["timeToAttend"].as_i64().unwrap() >= 90);
    w.hub.store.company(&w.a.company).logs().raise_alarm(&mat.id, "Ulcer Risk", now).await.unwrap();
    let attended: Value = w.call("PUT", &format!("/api/iotAlarms/{}", mat.id), &w.a.token, Value::Null).await.json();
    assert_eq!(attended["attended"], 1);

    let entry = storage::model::DeviceLog {
        device_id: mat.id.clone(),
        creation_date: now,
        max_pressure: 812,
        position: "bed".into(),
        posture: "Supine".into(),
        confidence: 0.92,
        pressure_map: "[[0,1],[2,3]]".into(),
    };
    w.hub.store.company(&w.a.company).logs().add_device_log(&entry).await.unwrap();
    let logs: Value = w.call("GET", &format!("/api/iotLogs/{}", mat.id), &w.a.token, Value::Null).await.json();
    assert_eq!(logs[0]["creationDate"][1], now);
    assert_eq!(logs[0]["posture"]["id"], "Supine");
    assert_eq!(logs[0]["pressureMap"], json!([[0, 1], [2, 3]]));
    w.hub
        .store
        .company(&w.a.company)
        .logs()
        .add_presence(&storage::model::PresenceLog { device_id: mat.id.clone(), creation_date: now, log_id: "1".into() })
        .await
        .unwrap();
    let presence: Value = w.call("GET", &format!("/api/presenceLogs/{}", mat.id), &w.a.token, Value::Null).await.json();
    assert_eq!(presence[0]["logId"], "1");
}

fn patient() -> Value {
    json!({ "name": "Ana López", "weight": 64.5, "height": "168", "agreeDataTreatment": true, "gender": "Female", "phone": "", "postalCode": "08001" })
}

#[tokio::test]
async fn patients_are_validated_created_selected_and_edited() {
    let w = world().await;
    let path = format!("/api/podometry/patients/{}", w.a.user);
    let with = |field: &str, value: Value| {
        let mut body = patient();
        body[field] = value;
        body
    };
    let tomorrow_plus = storage::unix_now() + 3 * 86_400;
    for (body, error) in [
        (with("agreeDataTreatment", json!(false)), "agreeDataTreatment"),
        (with("name", json!("A")), "patientName"),
        (with("weight", json!(1.5)), "patientWeight"),
        (with("weight", json!(451)), "patientWeight"),
        (with("height", json!("1,65")), "patientHeight"),
        (with("height", json!(251)), "patientHeight"),
        (with("email", json!("ana@")), "incorrectEmail"),
        (with("birthDate", json!(tomorrow_plus)), "invalidBirthDate"),
        (with("notes", json!("n".repeat(155))), "patientNotes"),
        (with("gender", json!("Other")), "patientGender"),
        (with("postalCode", json!("ABC")), "patientPostalCode"),
        (with("phone2", json!("call me")), "patientPhone2"),
    ] {
        expect(&w.call("POST", &path, &w.a.token, body).await, 400, error);
    }
    let created = w.call("POST", &path, &w.a.token, with("notes", json!("n".repeat(154)))).await;
    expect(&created, 201, "");
    let created: Value = created.json();
    assert_eq!((created["phone"].as_str(), created["phone2"].as_str(), created["size"].as_f64()), (Some("-1"), Some("-1"), Some(-1.0)));
    assert_eq!(
        (created["weight"].as_f64(), created["height"].as_f64(), created["postalCode"].as_str()),
        (Some(64.5), Some(168.0), Some("08001"))
    );
    let id = created["_id"]["$oid"].as_str().unwrap().to_owned();

    let select_path = format!("/api/podometry/patient/select/{}", w.a.user);
    let none: Value = w.call("GET", &select_path, &w.a.token, Value::Null).await.json();
    assert_eq!(none["message"], "No patient is currently selected.");
    expect(&w.call("PUT", &select_path, &w.a.token, json!({ "patientId": id })).await, 200, "");
    let selected: Value = w.call("GET", &select_path, &w.a.token, Value::Null).await.json();
    assert_eq!(selected["patient"]["_id"]["$oid"], id.as_str());

    let edit = w
        .call("PUT", &format!("/api/podometry/patient/{id}"), &w.a.token, json!({ "name": "Ana L.", "weight": "65", "height": 168 }))
        .await;
    expect(&edit, 200, "");
    assert_eq!(edit.json::<Value>()["name"], "Ana L.");
    expect(
        &w.call("PUT", &format!("/api/podometry/patient/{id}"), &w.a.token, json!({ "name": "Ana", "weight": "", "height": 168 })).await,
        400,
        "patientWeight",
    );
    let comma = w
        .call("PUT", &format!("/api/podometry/patient/{id}"), &w.a.token, json!({ "name": "Ana L.", "weight": "6,5", "height": "60,5" }))
        .await;
    expect(&comma, 200, "");
    assert_eq!(
        (comma.json::<Value>()["weight"].as_f64(), comma.json::<Value>()["height"].as_f64()),
        (Some(6.5), Some(60.5)),
        "an infant's weight, decimal commas"
    );
    let list: Value = w.call("GET", &path, &w.a.token, Value::Null).await.json();
    assert_eq!(list.as_array().unwrap().len(), 1);
    // A user cannot act as another user of the company.
    expect(&w.call("GET", &format!("/api/podometry/patients/{}", user_of(&w.admin)), &w.a.token, Value::Null).await, 404, "notFound");
}

#[tokio::test]
async fn analyses_are_stored_paged_counted_annotated_and_deleted() {
    let w = world().await;
    let patient: Value = w.call("POST", &format!("/api/podometry/patients/{}", w.a.user), &w.a.token, patient()).await.json();
    let other: Value = w
        .call(
            "POST",
            &format!("/api/podometry/patients/{}", w.a.user),
            &w.a.token,
            json!({ "name": "Bea", "weight": 50, "height": 150, "agreeDataTreatment": true }),
        )
        .await
        .json();
    let (p1, p2) = (patient["_id"]["$oid"].as_str().unwrap().to_owned(), other["_id"]["$oid"].as_str().unwrap().to_owned());
    let body = |kind: &str, at: i64| json!({ "analysisType": kind, "notes": "", "creationDate": at, "mapPreview": [[0, 5], [7, 0]], "additionalParameters": [{ "name": "activePoints", "value": 2 }] });
    for i in 0..12 {
        let response = w
            .call(
                "POST",
                &format!("/api/podometryAnalysis/{p1}"),
                &w.a.token,
                body(if i % 3 == 0 { "Static" } else { "Dynamic" }, 1_700_000_000 + i),
            )
            .await;
        expect(&response, 201, "");
    }
    let seating = w.call("POST", &format!("/api/seatingAnalysis/{p2}"), &w.a.token, body("Static", 1_700_000_100)).await;
    expect(&seating, 201, "");
    let seating: Value = seating.json();
    assert_eq!(seating["analysisType"], "seatingDynamic", "seating analyses are seatingDynamic");
    expect(&w.call("POST", &format!("/api/podometryAnalysis/{p1}"), &w.a.token, body("Walking", 1)).await, 400, "invalidAnalysisType");
    let mut long = body("Static", 1);
    long["notes"] = json!("n".repeat(1101));
    expect(&w.call("POST", &format!("/api/podometryAnalysis/{p1}"), &w.a.token, long).await, 400, "analysisNotes");
    expect(&w.call("POST", "/api/podometryAnalysis/no-such-patient", &w.a.token, body("Static", 1)).await, 404, "notFound");

    let user = &w.a.user;
    let first: Value = w.call("GET", &format!("/api/podometryAnalysisPage/{user}/all/1"), &w.a.token, Value::Null).await.json();
    assert_eq!(first["analyses"].as_array().unwrap().len(), 10);
    assert_eq!(
        (first["totalAnalysis"].as_u64(), first["totalPages"].as_u64(), first["currentPageCount"].as_u64()),
        (Some(13), Some(2), Some(1))
    );
    assert_eq!(first["analyses"][0]["analysisType"], "seatingDynamic", "newest first");
    assert_eq!(first["analyses"][1]["additionalParameters"][0]["name"], "activePoints");
    let second: Value = w.call("GET", &format!("/api/podometryAnalysisPage/{user}/all/2"), &w.a.token, Value::Null).await.json();
    assert_eq!(second["analyses"].as_array().unwrap().len(), 3);
    let statics: Value = w.call("GET", &format!("/api/podometryAnalysisCount/{user}/Static"), &w.a.token, Value::Null).await.json();
    assert_eq!(statics["totalAnalysis"], 4);
    let of_p1: Value = w.call("GET", &format!("/api/podometryAnalysisCountPatient/{user}/{p1}/all"), &w.a.token, Value::Null).await.json();
    assert_eq!((of_p1["totalAnalysis"].as_u64(), of_p1["totalPages"].as_u64()), (Some(12), Some(2)));
    let page: Value = w.call("GET", &format!("/api/podometryAnalysisPatient/{user}/{p2}/all/1"), &w.a.token, Value::Null).await.json();
    assert_eq!(page["analyses"].as_array().unwrap().len(), 1);
    expect(&w.call("GET", &format!("/api/podometryAnalysisPage/{user}/all/0"), &w.a.token, Value::Null).await, 400, "invalidPage");

    let id = seating["_id"]["$oid"].as_str().unwrap();
    let notes = w.call("PUT", &format!("/api/podometryAnalysis/specific/{id}"), &w.a.token, json!({ "notes": "n".repeat(1100) })).await;
    expect(&notes, 200, "");
    expect(
        &w.call("PUT", &format!("/api/podometryAnalysis/specific/{id}"), &w.a.token, json!({ "notes": "n".repeat(1101) })).await,
        400,
        "analysisNotes",
    );
    expect(&w.call("DELETE", &format!("/api/podometryAnalysis/specific/{id}"), &w.a.token, Value::Null).await, 200, "");
    expect(&w.call("DELETE", &format!("/api/podometryAnalysis/specific/{id}"), &w.a.token, Value::Null).await, 404, "notFound");
    let all: Value = w.call("GET", &format!("/api/podometryAnalysisCount/{user}/all"), &w.a.token, Value::Null).await.json();
    assert_eq!(all["totalAnalysis"], 12);
}

#[tokio::test]
async fn a_device_history_lists_the_analyses_made_on_that_device_only() {
    let w = world().await;
    let patient: Value = w.call("POST", &format!("/api/podometry/patients/{}", w.a.user), &w.a.token, patient()).await.json();
    let p1 = patient["_id"]["$oid"].as_str().unwrap().to_owned();
    let (mat, other) = (&w.a.devices[0], &w.a.devices[1]);
    for (device, at) in [(&mat.id, 1_700_000_001), (&other.id, 1_700_000_002), (&mat.id, 1_700_000_003)] {
        let body = json!({ "analysisType": "Static", "creationDate": at, "mapPreview": [[0, 5], [7, 0]], "additionalParameters": [], "deviceId": device });
        expect(&w.call("POST", &format!("/api/podometryAnalysis/{p1}"), &w.a.token, body).await, 201, "");
    }
    let user = &w.a.user;
    let page: Value = w.call("GET", &format!("/api/deviceAnalysisPage/{user}/{}/all/1", mat.id), &w.a.token, Value::Null).await.json();
    let listed: Vec<&str> = page["analyses"].as_array().unwrap().iter().map(|a| a["deviceId"].as_str().unwrap()).collect();
    assert_eq!(listed, [&*mat.id, &*mat.id]);
    assert_eq!(page["totalAnalysis"], 2);
    let count: Value = w.call("GET", &format!("/api/deviceAnalysisCount/{user}/{}/Static", other.id), &w.a.token, Value::Null).await.json();
    assert_eq!(count["totalAnalysis"], 1);
    // The patient's history still holds all three (the page's "other analyses" filter).
    let of_p1: Value = w.call("GET", &format!("/api/podometryAnalysisCountPatient/{user}/{p1}/all"), &w.a.token, Value::Null).await.json();
    assert_eq!(of_p1["totalAnalysis"], 3);
    expect(&w.call("GET", &format!("/api/deviceAnalysisPage/{user}/no-such-device/all/1"), &w.a.token, Value::Null).await, 404, "notFound");
}

#[tokio::test]
async fn layout_settings_default_then_create_then_update_and_stay_2d() {
    let w = world().await;
    let path = format!("/api/LayoutSettings/{}", w.a.user);
    let defaults: Value = w.call("GET", &path, &w.a.token, Value::Null).await.json();
    assert_eq!((defaults["manualScaleValue"].as_i64(), defaults["is3Dmode"].as_bool()), (Some(200), Some(false)));
    let settings = json!({ "mapColorIndex": 2, "smoothenIndex": 1, "thresholdValue": 15, "contoursEnabled": true, "is3Dmode": true, "manualScale": true, "manualScaleValue": 260,
        "cameraPosition": { "up": { "x": 0, "y": 0, "z": 1 }, "center": { "x": 0, "y": 0, "z": 0 }, "eye": { "x": 2, "y": 1, "z": 1 } } });
    let created = w.call("POST", &path, &w.a.token, settings.clone()).await;
    expect(&created, 201, "");
    let saved: Value = created.json();
    assert_eq!((saved["is3Dmode"].as_bool(), saved["manualScaleValue"].as_i64()), (Some(false), Some(250)));
    let mut changed = settings.clone();
    changed["manualScaleValue"] = Value::Null;
    expect(&w.call("PUT", &path, &w.a.token, changed).await, 200, "");
    let read: Value = w.call("GET", &path, &w.a.token, Value::Null).await.json();
    assert_eq!((read["manualScaleValue"].as_i64(), read["cameraPosition"]["eye"]["x"].as_f64()), (Some(200), Some(2.0)));
    let mut bad = settings;
    bad["thresholdValue"] = json!(80);
    expect(&w.call("PUT", &path, &w.a.token, bad).await, 400, "invalidLayoutSettings");
}

#[tokio::test]
async fn the_pressure_unit_is_saved_with_the_view_options() {
    let w = world().await;
    let path = format!("/api/LayoutSettings/{}", w.a.user);
    let defaults: Value = w.call("GET", &path, &w.a.token, Value::Null).await.json();
    assert_eq!(defaults["pressureUnit"], "mmHg", "mmHg until the user chooses");
    expect(&w.call("PUT", &path, &w.a.token, json!({ "pressureUnit": "kPa" })).await, 201, "");
    let read: Value = w.call("GET", &path, &w.a.token, Value::Null).await.json();
    assert_eq!(read["pressureUnit"], "kPa");
    let refused = w.call("PUT", &path, &w.a.token, json!({ "pressureUnit": "psi" })).await;
    assert_eq!(refused.status, 400, "{}", refused.body);
    let read: Value = w.call("GET", &path, &w.a.token, Value::Null).await.json();
    assert_eq!(read["pressureUnit"], "kPa", "a refused unit changes nothing");
}

/// Company B's user calls every call that takes an id with company A's ids: each is 404 and
/// changes nothing; B's lists never show A's rows.
fn variants(hide_centre_of_pressure: bool, fitness: bool, seating_labels: bool) -> Value {
    json!({ "hideCentreOfPressure": hide_centre_of_pressure, "fitness": fitness, "seatingLabels": seating_labels })
}

async fn login_body(w: &World, email: &str) -> Value {
    let body = json!({ "email": email, "password": PASSWORD }).to_string();
    let response = request(w.hub.http_addr, "POST", "/api/auth/login", None, Some(&body)).await;
    expect(&response, 200, "");
    response.json()
}

#[tokio::test]
async fn company_variants_are_off_by_default_and_switched_only_by_an_administrator_of_that_company() {
    let w = world().await;
    let off = variants(false, false, false);
    // Defaults: off in the dedicated call, the company record and the login response.
    expect(&w.call("GET", "/api/companyVariants", &w.a.token, Value::Null).await, 200, "");
    assert_eq!(w.call("GET", "/api/companyVariants", &w.a.token, Value::Null).await.json::<Value>(), off);
    assert_eq!(w.call("GET", "/api/companyUser", &w.a.token, Value::Null).await.json::<Value>()[0]["variants"], off);
    assert_eq!(login_body(&w, "nurse-a@example.com").await["variants"], off);
    // Staff (role 2) may read but not switch them.
    expect(&w.call("PUT", "/api/companyVariants", &w.a.token, variants(true, true, true)).await, 403, "forbidden");
    assert_eq!(w.call("GET", "/api/companyVariants", &w.a.token, Value::Null).await.json::<Value>(), off);
    // The whole setting is required, with booleans only.
    for bad in [
        json!({ "fitness": true }),
        json!({ "hideCentreOfPressure": "yes", "fitness": true, "seatingLabels": false }),
        json!({ "hideCentreOfPressure": true, "fitness": true, "seatingLabels": false, "companyId": w.b.company }),
    ] {
        expect(&w.call("PUT", "/api/companyVariants", &w.admin, bad).await, 400, "invalidBody");
    }
    // An administrator of company A switches A's variants: A's users see them everywhere...
    let switched = variants(true, false, true);
    let response = w.call("PUT", "/api/companyVariants", &w.admin, switched.clone()).await;
    expect(&response, 200, "");
    assert_eq!(response.json::<Value>(), switched);
    assert_eq!(w.call("GET", "/api/companyVariants", &w.a.token, Value::Null).await.json::<Value>(), switched);
    assert_eq!(w.call("GET", "/api/companyUser", &w.a.token, Value::Null).await.json::<Value>()[0]["variants"], switched);
    assert_eq!(login_body(&w, "nurse-a@example.com").await["variants"], switched);
    // ...and company B's stay off.
    assert_eq!(w.call("GET", "/api/companyVariants", &w.b.token, Value::Null).await.json::<Value>(), off);
    assert_eq!(w.call("GET", "/api/companyUser", &w.b.token, Value::Null).await.json::<Value>()[0]["variants"], off);
    assert_eq!(login_body(&w, "nurse-b@example.com").await["variants"], off);
    // A branding save keeps them; switching back turns them off.
    expect(&w.call("PUT", "/api/companyUser", &w.admin, json!({ "companyName": "Clinic A", "address": "" })).await, 200, "");
    assert_eq!(w.call("GET", "/api/companyVariants", &w.a.token, Value::Null).await.json::<Value>(), switched);
    expect(&w.call("PUT", "/api/companyVariants", &w.admin, variants(false, true, false)).await, 200, "");
    assert_eq!(w.call("GET", "/api/companyVariants", &w.a.token, Value::Null).await.json::<Value>(), variants(false, true, false));
}

#[tokio::test]
async fn company_isolation_matrix() {
    let w = world().await;
    let patient: Value = w.call("POST", &format!("/api/podometry/patients/{}", w.a.user), &w.a.token, patient()).await.json();
    let patient_id = patient["_id"]["$oid"].as_str().unwrap().to_owned();
    let analysis: Value = w
        .call("POST", &format!("/api/podometryAnalysis/{patient_id}"), &w.a.token, json!({ "analysisType": "Static", "mapPreview": [[1]] }))
        .await
        .json();
    let analysis_id = analysis["_id"]["$oid"].as_str().unwrap().to_owned();
    let (mat, force) = (&w.a.devices[0], &w.a.devices[1]);
    w.hub.store.company(&w.a.company).logs().raise_alarm(&mat.id, "Missing", storage::unix_now()).await.unwrap();
    let a_user = &w.a.user;
    let b_user = &w.b.user;
    let matrix: Vec<(&str, String, Value)> = vec![
        ("PUT", format!("/api/device/{}", mat.id), json!({ "name": "Mine", "room": "1", "bed": "A" })),
        ("GET", format!("/api/device/obtainList/{}/Mattress%20Mat%20IoT/0", w.a.company), Value::Null),
        ("GET", "/api/device/obtainList/Clinic%20A/Mattress%20Mat%20IoT/0".to_owned(), Value::Null),
        ("GET", format!("/api/deviceConfiguration/{}", mat.id), Value::Null),
        ("PUT", format!("/api/device/{}/repositioning", mat.id), json!({ "minutes": 60 })),
        ("GET", format!("/api/device/{}/repositioning", mat.id), Value::Null),
        ("GET", format!("/api/ForceDeviceApi/{}", force.id), Value::Null),
        ("GET", format!("/api/standard/pressureMapLogs/{}", mat.serial), Value::Null),
        ("GET", format!("/api/iotCheckAlarms/{}", mat.serial), Value::Null),
        ("GET", format!("/api/iotAlarms/{}", mat.id), Value::Null),
        ("PUT", format!("/api/iotAlarms/{}", mat.id), Value::Null),
        ("PUT", format!("/api/attendAlarm/{}", mat.serial), Value::Null),
        ("POST", format!("/api/iotRequests/{}", mat.serial), json!({})),
        ("GET", format!("/api/iotLogs/{}", mat.id), Value::Null),
        ("GET", format!("/api/presenceLogs/{}", mat.id), Value::Null),
        ("POST", format!("/api/podometryAnalysis/{patient_id}"), json!({ "analysisType": "Static" })),
        ("POST", format!("/api/seatingAnalysis/{patient_id}"), json!({})),
        ("PUT", format!("/api/podometryAnalysis/specific/{analysis_id}"), json!({ "notes": "mine" })),
        ("DELETE", format!("/api/podometryAnalysis/specific/{analysis_id}"), Value::Null),
        ("GET", format!("/api/podometryAnalysisPage/{a_user}/all/1"), Value::Null),
        ("GET", format!("/api/podometryAnalysisCount/{a_user}/all"), Value::Null),
        ("GET", format!("/api/podometryAnalysisPatient/{b_user}/{patient_id}/all/1"), Value::Null),
        ("GET", format!("/api/podometryAnalysisCountPatient/{b_user}/{patient_id}/all"), Value::Null),
        ("GET", format!("/api/deviceAnalysisPage/{}/{}/all/1", w.b.user, mat.id), Value::Null),
        ("GET", format!("/api/deviceAnalysisCount/{}/{}/all", w.b.user, mat.id), Value::Null),
        ("GET", format!("/api/podometry/patients/{a_user}"), Value::Null),
        ("POST", format!("/api/podometry/patients/{a_user}"), patient.clone()),
        ("GET", format!("/api/podometry/patient/select/{a_user}"), Value::Null),
        ("PUT", format!("/api/podometry/patient/select/{a_user}"), json!({ "patientId": patient_id })),
        ("PUT", format!("/api/podometry/patient/select/{b_user}"), json!({ "patientId": patient_id })),
        ("PUT", format!("/api/podometry/patient/{patient_id}"), json!({ "name": "Mine", "weight": 50, "height": 150 })),
        ("GET", format!("/api/LayoutSettings/{a_user}"), Value::Null),
        ("PUT", format!("/api/LayoutSettings/{a_user}"), json!({})),
        ("POST", format!("/api/LayoutSettings/{a_user}"), json!({})),
    ];
    for (method, path, body) in &matrix {
        let response = w.call(method, path, &w.b.token, body.clone()).await;
        expect(&response, 404, "notFound");
    }
    // Nothing of A changed.
    let devices: Value = w.call("GET", "/api/userDevices", &w.a.token, Value::Null).await.json();
    assert!(devices.as_array().unwrap().iter().all(|d| d["name"] != "Mine"));
    let analysis: Value = w.call("GET", &format!("/api/podometryAnalysisPage/{a_user}/all/1"), &w.a.token, Value::Null).await.json();
    assert_eq!(analysis["analyses"][0]["notes"], "");
    let alarm: Value = w.call("GET", &format!("/api/iotCheckAlarms/{}", mat.serial), &w.a.token, Value::Null).await.json();
    assert_eq!(alarm, "True", "B could not attend A's alarm");
    let selected: Value = w.call("GET", &format!("/api/podometry/patient/select/{b_user}"), &w.b.token, Value::Null).await.json();
    assert!(selected["patient"].is_null());
    // B's lists hold only B's rows.
    let a_ids: BTreeSet<String> = w.a.devices.iter().map(|d| d.id.clone()).collect();
    let devices: Value = w.call("GET", "/api/userDevices", &w.b.token, Value::Null).await.json();
    assert_eq!(devices.as_array().unwrap().len(), TYPES.len());
    assert!(devices.as_array().unwrap().iter().all(|d| !a_ids.contains(d["_id"]["$oid"].as_str().unwrap())));
    let confs: Value = w.call("GET", "/api/deviceConfCompany", &w.b.token, Value::Null).await.json();
    assert!(confs.as_array().unwrap().iter().all(|c| !a_ids.contains(c["deviceId"]["$oid"].as_str().unwrap())));
    let patients: Value = w.call("GET", &format!("/api/podometry/patients/{b_user}"), &w.b.token, Value::Null).await.json();
    assert!(patients.as_array().unwrap().is_empty());
    let history: Value = w.call("GET", &format!("/api/podometryAnalysisCount/{b_user}/all"), &w.b.token, Value::Null).await.json();
    assert_eq!(history["totalAnalysis"], 0);
    let company: Value = w.call("GET", "/api/companyUser", &w.b.token, Value::Null).await.json();
    assert_eq!(company[0]["companyName"], "Clinic B");
}

#[tokio::test]
async fn stored_analyses_download_as_named_pdfs_in_the_requested_language() {
    let w = world().await;
    let patient: Value = w.call("POST", &format!("/api/podometry/patients/{}", w.a.user), &w.a.token, patient()).await.json();
    let patient_id = patient["_id"]["$oid"].as_str().unwrap();
    // Two feet on a 12×12 map.
    let mut map = vec![vec![0u16; 12]; 12];
    for row in map.iter_mut().take(10).skip(2) {
        for c in [1usize, 2, 3, 8, 9, 10] {
            row[c] = 120;
        }
    }
    let stored = w
        .call(
            "POST",
            &format!("/api/podometryAnalysis/{patient_id}"),
            &w.a.token,
            json!({ "analysisType": "Static", "creationDate": 1_700_000_000, "notes": "Pie plano", "mapPreview": map }),
        )
        .await;
    expect(&stored, 201, "");
    let id = stored.json::<Value>()["_id"]["$oid"].as_str().unwrap().to_owned();

    let options = json!({ "layoutOptions": { "widgets": ["mainPage", "notes"], "language": "es", "palette": "jet", "utcOffsetMinutes": 60, "timeZone": "Europe/Madrid" } });
    let pdf =
        request_raw(w.hub.http_addr, "POST", &format!("/api/downloadAnalysisPDF/{id}/0"), Some(&w.a.token), &options.to_string()).await;
    assert_eq!(pdf.status, 200, "{}", String::from_utf8_lossy(&pdf.body));
    assert_eq!(pdf.header("content-type").as_deref(), Some("application/pdf"));
    // Named after the patient and the analysis, at the user's local time (22:13 UTC is 23:13 in Madrid).
    assert_eq!(pdf.header("content-disposition").as_deref(), Some("attachment; filename=\"ana-lopez_static_2023-11-14_2313.pdf\""));
    let document = lopdf::Document::load_mem(&pdf.body).expect("a PDF");
    let summary = document.extract_text(&[1]).unwrap();
    assert!(
        summary.contains("Ana López")
            && summary.contains("Clinic A")
            && summary.contains("2023-11-14 23:13 (Europe/Madrid)")
            && summary.contains("Pie plano"),
        "{summary}"
    );
    // A clock no zone has is refused.
    let far = json!({ "layoutOptions": { "utcOffsetMinutes": 900 } });
    expect(&w.call("POST", &format!("/api/downloadAnalysisPDF/{id}/0"), &w.a.token, far).await, 400, "toastErrorRaw.downloadError");

    let real =
        request_raw(w.hub.http_addr, "POST", &format!("/api/downloadRealScalePDF/{id}"), Some(&w.a.token), r#"{"layout": "A3"}"#).await;
    assert_eq!(real.status, 200, "{}", String::from_utf8_lossy(&real.body));
    assert!(real.header("content-disposition").unwrap().contains("ana-lopez_static_real-scale-a3_2023-11-14_2213.pdf"));
    let document = lopdf::Document::load_mem(&real.body).expect("a PDF");
    let page = *document.get_pages().values().next().unwrap();
    let media_box = document.get_object(page).unwrap().as_dict().unwrap().get(b"MediaBox").unwrap().as_array().unwrap().clone();
    let height = media_box[3].as_float().unwrap_or_else(|_| media_box[3].as_i64().unwrap() as f32);
    assert!((height - 1190.55).abs() < 0.5, "A3 portrait is 1190.55 pt high, got {height}");
    expect(&w.call("POST", &format!("/api/downloadRealScalePDF/{id}"), &w.a.token, json!({ "layout": "A5" })).await, 400, "invalidBody");
    // Every palette of the colour button prints (the client sends the user's own); others are refused.
    let hot = request_raw(
        w.hub.http_addr,
        "POST",
        &format!("/api/downloadRealScalePDF/{id}"),
        Some(&w.a.token),
        r#"{"layout": "A4", "palette": "hot"}"#,
    )
    .await;
    assert_eq!(hot.status, 200, "{}", String::from_utf8_lossy(&hot.body));
    let sepia = json!({ "layoutOptions": { "widgets": ["mainPage"], "palette": "sepia" } });
    expect(&w.call("POST", &format!("/api/downloadAnalysisPDF/{id}/0"), &w.a.token, sepia).await, 400, "invalidBody");

    // The raw export of the same analysis, both kinds, named for today.
    let today = &mat_core::analysis::export::iso_8601_utc(storage::unix_now() * 1000)[..10];
    for (kind, version) in [("unprocessed", "1.0"), ("processed", "2.0")] {
        let export = request_raw(w.hub.http_addr, "GET", &format!("/api/analysisExport/{id}/{kind}"), Some(&w.a.token), "").await;
        assert_eq!(export.status, 200, "{}", String::from_utf8_lossy(&export.body));
        assert_eq!(export.header("content-disposition").unwrap(), format!("attachment; filename=\"static_{kind}_analysis_{today}.json\""));
        let file: Value = serde_json::from_slice(&export.body).unwrap();
        assert_eq!((file["metadata"]["version"].as_str(), file["metadata"]["patientId"].as_str()), (Some(version), Some(patient_id)));
    }
    expect(&w.call("GET", &format!("/api/analysisExport/{id}/zipped"), &w.a.token, Value::Null).await, 400, "invalidExportKind");
    expect(&w.call("GET", &format!("/api/analysisExport/{id}/processed"), &w.b.token, Value::Null).await, 404, "notFound");

    // Another company's user cannot print it; an analysis without a map has nothing to print.
    expect(&w.call("POST", &format!("/api/downloadAnalysisPDF/{id}/0"), &w.b.token, json!({})).await, 404, "notFound");
    let empty: Value =
        w.call("POST", &format!("/api/podometryAnalysis/{patient_id}"), &w.a.token, json!({ "analysisType": "Dynamic" })).await.json();
    let empty_id = empty["_id"]["$oid"].as_str().unwrap();
    expect(
        &w.call("POST", &format!("/api/downloadAnalysisPDF/{empty_id}/0"), &w.a.token, json!({})).await,
        400,
        "toastErrorRaw.noAnalysisData",
    );
    expect(
        &w.call("GET", &format!("/api/analysisExport/{empty_id}/processed"), &w.a.token, Value::Null).await,
        400,
        "toastErrorRaw.noAnalysisData",
    );
}

#[tokio::test]
async fn a_remote_capture_needs_a_selected_patient_and_a_connected_device() {
    let w = world().await;
    let mat = &w.a.devices[0];
    let path = format!("/api/iotRequests/{}", mat.serial);
    expect(&w.call("POST", &path, &w.a.token, json!({})).await, 409, "patientSelected");
    let patient: Value = w.call("POST", &format!("/api/podometry/patients/{}", w.a.user), &w.a.token, patient()).await.json();
    let select = json!({ "patientId": patient["_id"]["$oid"] });
    expect(&w.call("PUT", &format!("/api/podometry/patient/select/{}", w.a.user), &w.a.token, select).await, 200, "");
    expect(&w.call("POST", &path, &w.a.token, json!({})).await, 409, "connectDevice");
}

/// A family's members as (serial less the parent's serial, name less the parent's name, type).
async fn family_shape(store: &Store, parent_serial: &str) -> Vec<(String, String, String)> {
    let parent = store.hub_wide().devices().by_serial(parent_serial).await.expect("the store answers").expect("the parent is stored");
    let mut shape = Vec::new();
    for (index, id) in parent.member_ids.iter().enumerate() {
        let member = store.company(&parent.company_id).devices().get(id).await.expect("the store answers").expect("the member is stored");
        assert_eq!((member.parent_id.as_deref(), member.member_index), (Some(parent.id.as_str()), Some(index as i64)));
        let serial = member.hardware_serial.strip_prefix(parent_serial).expect("a member's serial starts with its parent's").to_owned();
        let name = member.name.strip_prefix(&parent.name).expect("a member's name starts with its parent's").to_owned();
        shape.push((serial, name, member.device_type));
    }
    shape
}

#[tokio::test]
async fn a_family_whose_second_member_is_taken_leaves_nothing_behind() {
    let w = world().await;
    let single = w
        .call(
            "POST",
            "/api/deviceandconfRegistration",
            &w.admin,
            json!({ "hardwareSerial": "FAM-1", "name": "Bed", "deviceType": "Mattress Mat IoT" }),
        )
        .await;
    expect(&single, 201, "");
    let devices_before = w.hub.store.hub_wide().devices().list_all().await.expect("the store answers").len();
    let confs_before = w.hub.store.hub_wide().device_confs().list_all().await.expect("the store answers").len();
    // The horse's members are FAM-0 and FAM-1: the second is taken, after the parent and the
    // first member were written in the same transaction.
    let horse = w
        .call(
            "POST",
            "/api/deviceandconfRegistration",
            &w.admin,
            json!({ "hardwareSerial": "FAM", "name": "Saddle", "deviceType": "Sensing Horse", "numberOfSubdevices": 2 }),
        )
        .await;
    expect(&horse, 409, "duplicateSerial");
    for serial in ["FAM", "FAM-0"] {
        assert!(w.hub.store.hub_wide().devices().by_serial(serial).await.expect("the store answers").is_none(), "{serial} was left behind");
    }
    assert_eq!(w.hub.store.hub_wide().devices().list_all().await.expect("the store answers").len(), devices_before);
    assert_eq!(
        w.hub.store.hub_wide().device_confs().list_all().await.expect("the store answers").len(),
        confs_before,
        "no configuration was left behind"
    );
    assert!(
        w.hub.catalog.by_serial("FAM").is_none() && w.hub.catalog.by_serial("FAM-0").is_none(),
        "the running hub was not told of a device that does not exist"
    );
    // With the serial free, the same family registers whole.
    let horse = w
        .call(
            "POST",
            "/api/deviceandconfRegistration",
            &w.admin,
            json!({ "hardwareSerial": "FAM2", "name": "Saddle", "deviceType": "Sensing Horse", "numberOfSubdevices": 2 }),
        )
        .await;
    expect(&horse, 201, "");
    assert_eq!(family_shape(&w.hub.store, "FAM2").await.len(), 2);
}

#[tokio::test]
async fn families_are_named_alike_by_the_api_the_demo_and_provision() {
    let w = world().await;
    let demo = Store::memory().await.expect("an in-memory store");
    hub::demo::seed(&demo).await.expect("the demo seeds");
    for (demo_serial, body) in [
        (
            "DEMO-HORSE-01",
            json!({ "hardwareSerial": "API-HORSE", "name": "Saddle sensor", "deviceType": "Sensing Horse", "numberOfSubdevices": 2 }),
        ),
        ("DEMO-ROOM-01", json!({ "hardwareSerial": "API-ROOM", "name": "Room 105", "deviceType": "Room Set" })),
    ] {
        let registered = w.call("POST", "/api/deviceandconfRegistration", &w.admin, body.clone()).await;
        expect(&registered, 201, "");
        let api_shape = family_shape(&w.hub.store, body["hardwareSerial"].as_str().expect("a serial")).await;
        let demo_shape = family_shape(&demo, demo_serial).await;
        assert!(!api_shape.is_empty());
        assert_eq!(api_shape, demo_shape, "{demo_serial} is named as the API names its family");
        let demo_parent = demo.hub_wide().devices().by_serial(demo_serial).await.expect("the store answers").expect("it is stored");
        assert_eq!(demo_parent.name, body["name"]);
    }
    // provision registers through the same call: the device and its configuration, named as
    // asked, a member of no family.
    let provisioned = hub::provision::provision(&w.hub.store, mat_protocol::device_type::DeviceType::MattressMatIoT, "PROV", 2)
        .await
        .expect("provisioning succeeds");
    assert_eq!(provisioned.iter().map(|p| p.serial.as_str()).collect::<Vec<_>>(), ["PROV-00001", "PROV-00002"]);
    let confs = w.hub.store.hub_wide().device_confs().list_all().await.expect("the store answers");
    for device in &provisioned {
        let stored = w.hub.store.hub_wide().devices().by_serial(&device.serial).await.expect("the store answers").expect("it is stored");
        assert_eq!(stored.name, format!("PROV {}", &device.serial[device.serial.len() - 1..]));
        assert!(stored.member_ids.is_empty() && stored.parent_id.is_none());
        assert!(storage::device_secret::verify(&device.secret, &stored.secret_hash));
        assert!(confs.iter().any(|c| c.device_id == stored.id), "{} has its configuration", device.serial);
    }
    // Provisioning again keeps the devices and issues new secrets.
    let again = hub::provision::provision(&w.hub.store, mat_protocol::device_type::DeviceType::MattressMatIoT, "PROV", 2)
        .await
        .expect("provisioning succeeds");
    assert_eq!(again[0].device_id, provisioned[0].device_id);
    assert_ne!(again[0].secret, provisioned[0].secret);
}
