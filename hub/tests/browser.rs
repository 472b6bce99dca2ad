//! The REST calls of this slice and the browser socket, on loopback against a real hub.

mod common;

use std::sync::atomic::Ordering;
use std::time::Duration;

use actors::fanout::LIVE_FLUSH_INTERVAL;
use common::*;
use serde_json::Value;

#[tokio::test]
async fn login_gives_an_expiring_token_and_wrong_credentials_a_401() {
    let hub = start(&["Mattress Mat IoT"]).await;
    let body = serde_json::json!({ "email": hub.email, "password": PASSWORD }).to_string();
    let response = request(hub.http(), "POST", "/api/auth/login", None, Some(&body)).await;
    assert_eq!(response.status, 200);
    let value: Value = response.json();
    assert!(value["token"].as_str().is_some_and(|t| t.len() > 20));
    assert!(value["userId"].as_str().is_some());
    assert_eq!(value["companyName"], "Clinic A");
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let expires = value["expiresAt"].as_u64().unwrap();
    assert!(expires > now + 11 * 3600 && expires <= now + 12 * 3600 + 5);

    let wrong = serde_json::json!({ "email": hub.email, "password": "wrong-password" }).to_string();
    let response = request(hub.http(), "POST", "/api/auth/login", None, Some(&wrong)).await;
    assert_eq!((response.status, response.error_code().as_str()), (401, "incorrectCredentials"));
    let unknown = serde_json::json!({ "email": "nobody@example.com", "password": PASSWORD }).to_string();
    let response = request(hub.http(), "POST", "/api/auth/login", None, Some(&unknown)).await;
    assert_eq!((response.status, response.error_code().as_str()), (401, "incorrectCredentials"));
}

#[tokio::test]
async fn bad_bodies_are_400_and_huge_ones_413_never_500() {
    let hub = start(&[]).await;
    let response = request(hub.http(), "POST", "/api/auth/login", None, Some("{not json")).await;
    assert_eq!((response.status, response.error_code().as_str()), (400, "invalidBody"));
    let huge = format!("{{\"email\":\"{}\",\"password\":\"x\"}}", "a".repeat(20_000));
    let response = request(hub.http(), "POST", "/api/auth/login", None, Some(&huge)).await;
    assert_eq!((response.status, response.error_code().as_str()), (413, "payloadTooLarge"));
    let response = request(hub.http(), "GET", "/api/noSuchCall", None, None).await;
    assert_eq!((response.status, response.error_code().as_str()), (404, "notFound"));
}

#[tokio::test]
async fn device_calls_need_a_valid_token() {
    let hub = start(&["Mattress Mat IoT"]).await;
    for path in ["/api/userDevices", "/api/deviceConfCompany"] {
        let response = request(hub.http(), "GET", path, None, None).await;
        assert_eq!((response.status, response.error_code().as_str()), (401, "unauthorized"), "{path} without a token");
        let response = request(hub.http(), "GET", path, Some("forged.token"), None).await;
        assert_eq!(response.status, 401, "{path} with a forged token");
    }
}

#[tokio::test]
async fn expired_tokens_are_refused() {
    let hub = start_with(&["Mattress Mat IoT"], |mut c| {
        c.token_hours = 0;
        c
    })
    .await;
    let token = hub.login().await;
    let response = request(hub.http(), "GET", "/api/userDevices", Some(&token), None).await;
    assert_eq!(response.status, 401);
    assert!(response.body.contains("expired"), "{}", response.body);
}

#[tokio::test]
async fn devices_and_statuses_are_listed_for_the_callers_company_only() {
    let data = tempfile::tempdir().unwrap();
    let store = storage::Store::memory().await.unwrap();
    let (_, email_a, devices_a) = seed_company(&store, "A", &["Mattress Mat IoT", "Seating Mat IoT"]).await;
    let (_, email_b, devices_b) = seed_company(&store, "B", &["Floor Mat"]).await;
    let hub = hub::app::start_with_store(config(data.path()), store).await.unwrap();
    let token_a = login(hub.http_addr, &email_a, PASSWORD).await;
    let token_b = login(hub.http_addr, &email_b, PASSWORD).await;

    let devices: Value = request(hub.http_addr, "GET", "/api/userDevices", Some(&token_a), None).await.json();
    let ids: Vec<&str> = devices.as_array().unwrap().iter().map(|d| d["_id"]["$oid"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), 2);
    assert!(devices_a.iter().all(|d| ids.contains(&d.id.as_str())));
    assert!(!ids.contains(&devices_b[0].id.as_str()));
    assert_eq!(devices[0]["company"], "Clinic A");

    let confs: Value = request(hub.http_addr, "GET", "/api/deviceConfCompany", Some(&token_b), None).await.json();
    let confs = confs.as_array().unwrap();
    assert_eq!(confs.len(), 1);
    assert_eq!(confs[0]["deviceId"]["$oid"], devices_b[0].id.as_str());
    assert_eq!(confs[0]["cardStatus"], "Offline");
    assert_eq!(confs[0]["deviceFunctional"], false);
    hub.shutdown().await;
}

#[tokio::test]
async fn an_unauthenticated_socket_gets_nothing_but_an_error() {
    let hub = start(&["Mattress Mat IoT"]).await;
    let mut browser = Browser::connect(hub.http()).await;
    browser.send("joinCompany", serde_json::json!({})).await;
    let answer = browser.next_event(Duration::from_secs(5)).await.expect("an error event");
    assert_eq!(answer.event, "error");
    assert_eq!(field(&answer.data, "error").as_str(), Some("unauthorized"));
    assert!(browser.next_event(Duration::from_secs(2)).await.is_none(), "closed after the error");

    let mut browser = Browser::connect(hub.http()).await;
    browser.send("authenticate", serde_json::json!({ "token": "forged.token" })).await;
    let answer = browser.next_event(Duration::from_secs(5)).await.unwrap();
    assert_eq!((answer.event.as_str(), field(&answer.data, "error").as_str()), ("error", Some("unauthorized")));
}

#[tokio::test]
async fn join_company_delivers_statuses_and_their_changes() {
    let hub = start(&["Mattress Mat IoT", "Seating Mat IoT"]).await;
    let token = hub.login().await;
    let mut browser = Browser::authenticated(hub.http(), &token).await;
    browser.send("joinCompany", serde_json::json!({})).await;
    let mut seen = Vec::new();
    for _ in 0..2 {
        let event = browser.wait_for("deviceConf", Duration::from_secs(5)).await.unwrap();
        assert_eq!(field(&event.data, "cardStatus").as_str(), Some("Offline"));
        seen.push(field(&event.data, "deviceId").as_str().unwrap().to_owned());
    }
    seen.sort();
    let mut expected: Vec<String> = hub.devices.iter().map(|d| d.id.clone()).collect();
    expected.sort();
    assert_eq!(seen, expected);
    // The mattress connects: its card turns functional.
    let (spec, transport) = hub.quic_device(&hub.devices[0]);
    let _device = hub.run_device(spec, transport);
    let change = browser.wait_for("deviceConf", Duration::from_secs(10)).await.expect("a status change");
    assert_eq!(field(&change.data, "deviceId").as_str(), Some(hub.devices[0].id.as_str()));
    assert_eq!(field(&change.data, "deviceFunctional").as_bool(), Some(true));
    assert_ne!(field(&change.data, "cardStatus").as_str(), Some("Offline"));
}

#[tokio::test]
async fn join_user_streams_live_maps_with_presence() {
    let hub = start(&["Mattress Mat IoT"]).await;
    let token = hub.login().await;
    let mut browser = Browser::authenticated(hub.http(), &token).await;
    browser.send("joinUser", serde_json::json!({ "deviceId": hub.devices[0].id })).await;
    let (spec, transport) = hub.quic_device(&hub.devices[0]);
    let _device = hub.run_device(spec, transport);
    let map = browser.wait_for("pressureMap_SAToFront", Duration::from_secs(10)).await.expect("a live map");
    assert_eq!(field(&map.data, "rows").as_u64(), Some(48));
    assert_eq!(field(&map.data, "cols").as_u64(), Some(48));
    assert_eq!(field(&map.data, "cells").as_slice().map(<[u8]>::len), Some(48 * 48));
    assert!(matches!(field(&map.data, "presence").as_str(), Some("PRESENCE" | "ABSENCE")));
    let first_seq = field(&map.data, "seq").as_u64().unwrap();
    let next = browser.wait_for("pressureMap_SAToFront", Duration::from_secs(10)).await.unwrap();
    assert!(field(&next.data, "seq").as_u64().unwrap() > first_seq);
    // Another company's device id, or an unknown one, is not found.
    browser.send("joinUser", serde_json::json!({ "deviceId": "not-a-device" })).await;
    let error = browser.wait_for("error", Duration::from_secs(5)).await.unwrap();
    assert_eq!(field(&error.data, "error").as_str(), Some("deviceNotFound"));
}

#[tokio::test]
async fn start_streaming_needs_a_connected_device() {
    let hub = start(&["Mattress Mat IoT"]).await;
    let token = hub.login().await;
    let mut browser = Browser::authenticated(hub.http(), &token).await;
    browser.send("startStreaming", serde_json::json!({ "deviceId": hub.devices[0].id, "seconds": 180 })).await;
    let error = browser.wait_for("error", Duration::from_secs(5)).await.unwrap();
    assert_eq!(field(&error.data, "error").as_str(), Some("connectDevice"));
}

#[tokio::test]
async fn a_stalled_viewer_does_not_slow_the_hub_or_other_viewers() {
    const DEVICES: usize = 8;
    let hub = start(&["Mattress Mat IoT"; DEVICES]).await;
    let token = hub.login().await;
    // The stalled viewer watches every device (about 2 MB/s of maps) and never reads again; its
    // socket's small receive buffer makes the hub's side back up within seconds.
    let mut stalled = Browser::connect_small_buffer(hub.http()).await.authenticate(&token).await;
    for device in &hub.devices {
        stalled.send("joinUser", serde_json::json!({ "deviceId": device.id })).await;
    }
    // The healthy viewer watches one device and reads everything, recording when each map came.
    let mut healthy = Browser::authenticated(hub.http(), &token).await;
    healthy.send("joinUser", serde_json::json!({ "deviceId": hub.devices[0].id })).await;
    let received = std::sync::Arc::new(std::sync::Mutex::new(Vec::<(tokio::time::Instant, u64)>::new()));
    let reader = {
        let received = received.clone();
        tokio::spawn(async move {
            while let Some(event) = healthy.wait_for("pressureMap_SAToFront", Duration::from_secs(30)).await {
                if let Some(seq) = field(&event.data, "seq").as_u64() {
                    received.lock().unwrap().push((tokio::time::Instant::now(), seq));
                }
            }
        })
    };
    let mut running = Vec::new();
    for device in &hub.devices {
        let (mut spec, transport) = hub.quic_device(device);
        spec.rate = simulator::Rate::Fixed { hz: 100.0 };
        running.push(hub.run_device(spec, transport));
    }
    let metrics = hub.hub.metrics.clone();
    // Phase 1: wait until the stall has reached the hub (maps are being conflated).
    assert!(
        eventually(Duration::from_secs(30), || metrics.frames_conflated.load(Ordering::Relaxed) > 100).await,
        "the stalled viewer never backed up into the hub"
    );
    // Phase 2: three more seconds with the stalled viewer still stalled.
    const WINDOW: Duration = Duration::from_secs(3);
    let window_start = tokio::time::Instant::now();
    let processed_before = metrics.frames_processed.load(Ordering::Relaxed);
    let dropped_before = metrics.frames_dropped_ingest.load(Ordering::Relaxed);
    tokio::time::sleep(WINDOW).await;
    let processed = metrics.frames_processed.load(Ordering::Relaxed) - processed_before;
    let dropped = metrics.frames_dropped_ingest.load(Ordering::Relaxed) - dropped_before;
    let conflated = metrics.frames_conflated.load(Ordering::Relaxed);
    reader.abort();
    let received = received.lock().unwrap().clone();
    let window: Vec<u64> = received.iter().filter(|(t, _)| *t >= window_start).map(|(_, seq)| *seq).collect();
    // The healthy viewer kept receiving in every second of the window…
    for second in 0..3 {
        let from = window_start + Duration::from_secs(second);
        let to = from + Duration::from_secs(1);
        assert!(received.iter().any(|(t, _)| *t >= from && *t < to), "no map for the healthy viewer in second {second}");
    }
    // …and most of the maps its socket's interval lets through (the 100 Hz device is seen at
    // about 60 Hz, one write per `LIVE_FLUSH_INTERVAL`): fewer would be its outbox backing up.
    let (first, last) = (window.first().copied().unwrap_or(0), window.last().copied().unwrap_or(0));
    let span = last.saturating_sub(first) + 1;
    let healthy_gaps = span.saturating_sub(window.len() as u64);
    let let_through = span.min(WINDOW.as_millis() as u64 / LIVE_FLUSH_INTERVAL.as_millis() as u64);
    assert!(window.len() as u64 * 2 >= let_through, "healthy viewer got {} of {span} maps ({let_through} let through)", window.len());
    // The conflation happened in the stalled viewer's outbox, not the healthy one's.
    assert!(conflated > healthy_gaps + 100, "conflated {conflated}, healthy gaps {healthy_gaps}");
    // The device path was not held back by the stalled socket.
    assert!(processed > 0 && dropped * 20 <= processed, "{dropped} frames dropped at ingest, {processed} processed");
    drop(stalled);
}
