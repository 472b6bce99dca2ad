//! Issue 14 §5, black-box over loopback: HTTPS for the REST API and the browser socket, the
//! plain-HTTP rule, tokens revoked at logout, device secret rotation, and the audit log.
#![allow(clippy::unwrap_used)] // A test's helpers may unwrap: the panic is the failure it reports.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::*;
use futures_util::{SinkExt, StreamExt};
use mat_protocol::{self as protocol, ErrorCode, HubMessage};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use serde_json::{Value, json};
use storage::Store;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

const ADMIN_EMAIL: &str = "admin-a@example.com";
const ADMIN_B_EMAIL: &str = "admin-b@example.com";

/// A TLS client that trusts only the hub's certificate.
fn tls_connector(hub: &TestHub) -> tokio_rustls::TlsConnector {
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_file_iter(&hub.hub.cert_path).unwrap() {
        roots.add(cert.unwrap()).unwrap();
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    tokio_rustls::TlsConnector::from(Arc::new(config))
}

async fn tls_stream(hub: &TestHub) -> tokio_rustls::client::TlsStream<tokio::net::TcpStream> {
    let tcp = tokio::net::TcpStream::connect(hub.http()).await.unwrap();
    tls_connector(hub).connect(ServerName::try_from("localhost").unwrap(), tcp).await.expect("a TLS handshake with the hub's certificate")
}

/// One HTTPS/1.1 request with `Connection: close`: (status, body).
async fn https_request(hub: &TestHub, method: &str, path: &str, token: Option<&str>, body: &str) -> (u16, String) {
    let mut stream = tls_stream(hub).await;
    let head = request_head("localhost", method, path, token, body);
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    // A peer that closes without close_notify is fine for this test: keep what arrived.
    let _ = stream.read_to_end(&mut raw).await;
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, body.to_owned())
}

async fn start_https() -> TestHub {
    start_with(&["Mattress Mat IoT"], |mut config| {
        config.https = true;
        config
    })
    .await
}

#[tokio::test]
async fn rest_and_the_browser_socket_work_over_https_with_the_hub_certificate() {
    let hub = start_https().await;
    assert_eq!(hub.hub.http_scheme, hub::config::HttpScheme::Https);
    let login = json!({ "email": hub.email, "password": PASSWORD }).to_string();
    let (status, body) = https_request(&hub, "POST", "/api/auth/login", None, &login).await;
    assert_eq!(status, 200, "{body}");
    let token = serde_json::from_str::<Value>(&body).unwrap()["token"].as_str().unwrap().to_owned();
    let (status, body) = https_request(&hub, "GET", "/api/userDevices", Some(&token), "").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap()[0]["hardwareSerial"], hub.devices[0].serial);

    // The browser socket over wss://, authenticated by its first message.
    let (mut socket, _) =
        tokio_tungstenite::client_async(format!("wss://localhost:{}/ws", hub.http().port()), tls_stream(&hub).await).await.unwrap();
    let hello = rmp_serde::to_vec_named(&Outgoing { event: "authenticate", data: json!({ "token": token }) }).unwrap();
    socket.send(Message::binary(hello)).await.unwrap();
    let first = loop {
        match tokio::time::timeout(Duration::from_secs(5), socket.next()).await.unwrap().unwrap().unwrap() {
            Message::Binary(bytes) => break rmp_serde::from_slice::<Incoming>(&bytes).unwrap(),
            _ => continue,
        }
    };
    assert_eq!(first.event, "authenticated");

    // Plain HTTP on the HTTPS port gets no HTTP answer.
    let plain = try_request(hub.http(), "GET", "/api/deviceTypes", None, None).await;
    assert!(plain.is_err(), "a plain request must not be served: {:?}", plain.map(|r| (r.status, r.body)));
}

#[tokio::test]
async fn device_websocket_ingest_works_over_https() {
    let hub = start_https().await;
    let device = &hub.devices[0];
    let (mut socket, _) =
        tokio_tungstenite::client_async(format!("wss://localhost:{}/ingest", hub.http().port()), tls_stream(&hub).await).await.unwrap();
    socket.send(Message::binary(protocol::encode(&hello(device, &device.secret)))).await.unwrap();
    assert!(matches!(ws_recv(&mut socket).await, Some(HubMessage::Welcome(_))));
}

#[tokio::test]
async fn plain_http_on_a_reachable_address_refuses_to_start_without_the_flag() {
    let data = tempfile::tempdir().unwrap();
    let mut config = common::config(data.path());
    config.http = "0.0.0.0:0".parse().unwrap();
    let refused = hub::app::start_with_store(config, Store::memory().await.unwrap()).await;
    let message = refused.err().expect("the hub must refuse plain HTTP on 0.0.0.0").to_string();
    assert!(message.contains("refusing to serve plain HTTP") && message.contains("--https"), "{message}");
}

/// A company A with an administrator, staff and one bed mat; a company B with its own
/// administrator; the hub serving them.
struct World {
    hub: TestHub,
    admin: String,
    admin_b: String,
    staff: String,
    company_b: String,
}

async fn world() -> World {
    let data = tempfile::tempdir().unwrap();
    let store = Store::memory().await.unwrap();
    let (company_id, email, devices) = seed_company(&store, "A", &["Mattress Mat IoT"]).await;
    let (company_b, _, _) = seed_company(&store, "B", &["Mattress Mat IoT"]).await;
    store.hub_wide().accounts().create(ADMIN_EMAIL, PASSWORD, hub::auth::roles::ROLE_ADMIN, &company_id).await.unwrap();
    store.hub_wide().accounts().create(ADMIN_B_EMAIL, PASSWORD, hub::auth::roles::ROLE_ADMIN, &company_b).await.unwrap();
    let running = hub::app::start_with_store(common::config(data.path()), store).await.unwrap();
    let hub = TestHub { hub: running, company_id, email, devices, _data: data };
    let admin = login(hub.http(), ADMIN_EMAIL, PASSWORD).await;
    let admin_b = login(hub.http(), ADMIN_B_EMAIL, PASSWORD).await;
    let staff = hub.login().await;
    World { hub, admin, admin_b, staff, company_b }
}

async fn call(hub: &TestHub, method: &str, path: &str, token: &str, body: Value) -> Response {
    let body = if body.is_null() { None } else { Some(body.to_string()) };
    request(hub.http(), method, path, Some(token), body.as_deref()).await
}

fn expect(response: &Response, status: u16, error: &str) {
    assert_eq!(response.status, status, "{}", response.body);
    if !error.is_empty() {
        assert_eq!(response.error_code(), error, "{}", response.body);
    }
}

#[tokio::test]
async fn a_token_revoked_at_logout_is_refused_by_rest_and_the_socket_even_after_a_restart() {
    let w = world().await;
    let hub = &w.hub;
    let other_session = hub.login().await;
    expect(&call(hub, "POST", "/api/auth/logout", &w.staff, Value::Null).await, 204, "");
    // REST: 401 with the spec's error shape.
    let refused = call(hub, "GET", "/api/userDevices", &w.staff, Value::Null).await;
    expect(&refused, 401, "unauthorized");
    assert!(refused.json::<Value>()["message"].as_str().unwrap().contains("revoked"), "{}", refused.body);
    // The socket: authentication refused and the socket closed.
    let mut browser = Browser::connect(hub.http()).await;
    browser.send("authenticate", json!({ "token": w.staff })).await;
    let answer = browser.next_event(Duration::from_secs(5)).await.expect("an answer");
    assert_eq!((answer.event.as_str(), field(&answer.data, "error").as_str()), ("error", Some("unauthorized")), "{answer:?}");
    assert!(browser.next_event(Duration::from_secs(5)).await.is_none(), "the socket is closed");
    // Logging out twice with the revoked token is itself refused.
    expect(&call(hub, "POST", "/api/auth/logout", &w.staff, Value::Null).await, 401, "unauthorized");
    // The same user's other session is untouched.
    expect(&call(hub, "GET", "/api/userDevices", &other_session, Value::Null).await, 200, "");
    let _ = Browser::authenticated(hub.http(), &other_session).await;

    // A restart on the same database keeps the token revoked.
    let store = hub.hub.store.clone();
    let World { hub, staff, .. } = w;
    let TestHub { hub: running, _data: data, .. } = hub;
    running.shutdown().await;
    let restarted = hub::app::start_with_store(common::config(data.path()), store).await.unwrap();
    let refused = request(restarted.http_addr, "GET", "/api/userDevices", Some(&staff), None).await;
    expect(&refused, 401, "unauthorized");
    let fine = request(restarted.http_addr, "GET", "/api/userDevices", Some(&other_session), None).await;
    expect(&fine, 200, "");
}

async fn ws_recv<S>(socket: &mut tokio_tungstenite::WebSocketStream<S>) -> Option<HubMessage>
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    loop {
        match tokio::time::timeout(Duration::from_secs(5), socket.next()).await.ok()??.ok()? {
            Message::Binary(bytes) => return Some(protocol::decode(&bytes).unwrap()),
            Message::Close(_) => return None,
            _ => continue,
        }
    }
}

type PlainSocket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A device over the WebSocket transport: its hello's answer and the open socket.
async fn connect_device(hub: &TestHub, device: &SeededDevice, secret: &str) -> (Option<HubMessage>, PlainSocket) {
    let (mut socket, _) = tokio_tungstenite::connect_async(format!("ws://{}/ingest", hub.http())).await.unwrap();
    socket.send(Message::binary(protocol::encode(&hello(device, secret)))).await.unwrap();
    (ws_recv(&mut socket).await, socket)
}

fn bad_secret(message: Option<HubMessage>) -> bool {
    matches!(message, Some(HubMessage::Error(e)) if e.code == ErrorCode::BadSecret && e.fatal)
}

#[tokio::test]
async fn an_administrator_rotates_a_secret_the_old_one_stops_working_and_its_connection_is_closed() {
    let w = world().await;
    let hub = &w.hub;
    let device = hub.devices[0].clone();
    let path = format!("/api/device/{}/secret", device.id);
    // Staff may not; another company's administrator cannot even see the device.
    expect(&call(hub, "POST", &path, &w.staff, Value::Null).await, 403, "forbidden");
    expect(&call(hub, "POST", &path, &w.admin_b, Value::Null).await, 404, "notFound");
    // Refused rotations changed nothing: the device still connects with its secret (and stays).
    let (welcome, mut connected) = connect_device(hub, &device, &device.secret).await;
    assert!(matches!(welcome, Some(HubMessage::Welcome(_))), "{welcome:?}");

    let rotated = call(hub, "POST", &path, &w.admin, Value::Null).await;
    expect(&rotated, 200, "");
    let body: Value = rotated.json();
    let new_secret = body["deviceSecret"].as_str().unwrap().to_owned();
    assert_eq!(body["hardwareSerial"], device.serial);
    assert_ne!(new_secret, device.secret);
    assert!(new_secret.len() >= 40, "a 256-bit secret: {new_secret}");

    // The connection made with the old secret is closed with bad_secret.
    let mut closed = false;
    for _ in 0..20 {
        match ws_recv(&mut connected).await {
            Some(HubMessage::Error(e)) if e.code == ErrorCode::BadSecret && e.fatal => {
                closed = true;
                break;
            }
            Some(_) => continue,
            None => break,
        }
    }
    assert!(closed, "the device connected with the old secret is disconnected");
    // New connections: the old secret is refused, the new one welcomed.
    assert!(bad_secret(connect_device(hub, &device, &device.secret).await.0));
    let (welcome, _) = connect_device(hub, &device, &new_secret).await;
    assert!(matches!(welcome, Some(HubMessage::Welcome(_))), "{welcome:?}");

    // The audit log has the rotation, by whom, and never the secret.
    let log = call(hub, "GET", "/api/auditLog/1", &w.admin, Value::Null).await;
    expect(&log, 200, "");
    assert!(!log.body.contains(&new_secret) && !log.body.contains(&device.secret), "no secret in the audit log");
    let entry = &log.json::<Value>()["entries"][0];
    assert_eq!(
        (entry["action"].as_str(), entry["entityId"].as_str(), entry["userEmail"].as_str()),
        (Some("device.rotateSecret"), Some(device.id.as_str()), Some(ADMIN_EMAIL))
    );
}

#[tokio::test]
async fn every_administrative_action_is_in_its_company_audit_log_and_only_there() {
    let w = world().await;
    let hub = &w.hub;
    let a = &hub.company_id;
    let device = &hub.devices[0];
    let steps = [
        (
            "POST",
            "/api/auth/company/register".to_owned(),
            json!({ "companyName": "Audited Clinic", "address": "1 Road" }),
            "company.create",
        ),
        (
            "POST",
            "/api/auth/signup".to_owned(),
            json!({ "email": "new.nurse@example.com", "password": "pass-word-1", "passwordRepeat": "pass-word-1", "company": a }),
            "user.create",
        ),
        (
            "POST",
            "/api/deviceandconfRegistration".to_owned(),
            json!({ "hardwareSerial": "AUD-1", "name": "Audit mat", "deviceType": "Mattress Mat IoT", "room": "1", "bed": "1" }),
            "device.create",
        ),
        ("PUT", format!("/api/device/{}", device.id), json!({ "name": "Renamed", "room": "12", "bed": "3" }), "device.update"),
        ("PUT", format!("/api/device/{}/repositioning", device.id), json!({ "minutes": 90 }), "device.repositioning"),
        ("PUT", "/api/companyUser".to_owned(), json!({ "companyName": "Clinic A", "address": "2 Street" }), "company.branding"),
        (
            "PUT",
            "/api/companyVariants".to_owned(),
            json!({ "hideCentreOfPressure": true, "fitness": false, "seatingLabels": false }),
            "company.variants",
        ),
        (
            "POST",
            "/api/quickRegistration".to_owned(),
            json!({ "hardwareSerial": "QUICK-1", "deviceType": "Mattress Mat IoT", "company": a }),
            "device.create",
        ),
    ];
    for (method, path, body, _) in &steps {
        let response = call(hub, method, path, &w.admin, body.clone()).await;
        assert!(response.status == 200 || response.status == 201, "{method} {path}: {} {}", response.status, response.body);
    }
    let mut entries: Vec<Value> = Vec::new();
    for page in 1..=3 {
        let body: Value = call(hub, "GET", &format!("/api/auditLog/{page}"), &w.admin, Value::Null).await.json();
        assert_eq!(body["perPage"], 20);
        entries.extend(body["entries"].as_array().unwrap().iter().cloned());
        if entries.len() as u64 >= body["total"].as_u64().unwrap() {
            break;
        }
    }
    let actions: Vec<&str> = entries.iter().map(|e| e["action"].as_str().unwrap()).collect();
    for (method, path, _, action) in &steps {
        assert!(actions.contains(action), "{method} {path} should write {action}: {actions:?}");
    }
    // The quick registration also created its user; newest first.
    assert_eq!(actions[0], "device.create", "{actions:?}");
    assert!(actions.iter().filter(|a| **a == "user.create").count() >= 2, "{actions:?}");
    for entry in &entries {
        assert_eq!(entry["userEmail"], ADMIN_EMAIL);
        assert!(entry["at"].as_i64().unwrap() > 1_600_000_000_000, "milliseconds: {entry}");
    }
    let all = serde_json::to_string(&entries).unwrap();
    assert!(!all.contains("pass-word-1") && !all.contains("argon2"), "no password or hash in the audit log");
    assert!(all.contains("Renamed"), "the change is summarised: {all}");

    // Company B's administrator sees none of it; staff may not read the log.
    let of_b: Value = call(hub, "GET", "/api/auditLog/1", &w.admin_b, Value::Null).await.json();
    assert_eq!(of_b["total"], 0, "{of_b}");
    expect(&call(hub, "GET", "/api/auditLog/1", &w.staff, Value::Null).await, 403, "forbidden");
    expect(&call(hub, "GET", "/api/auditLog/0", &w.admin, Value::Null).await, 400, "invalidPage");
    // An action of A's administrator on company B is in both logs.
    let signup_b =
        json!({ "email": "b.nurse@example.com", "password": "pass-word-2", "passwordRepeat": "pass-word-2", "company": w.company_b });
    expect(&call(hub, "POST", "/api/auth/signup", &w.admin, signup_b).await, 201, "");
    let of_b: Value = call(hub, "GET", "/api/auditLog/1", &w.admin_b, Value::Null).await.json();
    assert_eq!((of_b["total"].as_u64(), of_b["entries"][0]["action"].as_str()), (Some(1), Some("user.create")));
}
