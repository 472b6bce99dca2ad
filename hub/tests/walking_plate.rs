//! The demo's podology plate during a dynamic capture: the simulated patient walks across it
//! (issue 21), so a dynamic capture through the running hub yields a real gait result — whole
//! stances of both feet with their rockers, and no `dynamic.error`.

#![allow(clippy::unwrap_used)] // A test's helpers may unwrap: the panic is the failure it reports.

mod common;

use std::time::Duration;

use common::*;
use serde_json::{Value, json};

/// The user id inside a token (the payload is `v2|id|user|company|role|exp`).
fn user_of(token: &str) -> String {
    use base64::Engine;
    let payload = token.split('.').next().unwrap();
    let text = String::from_utf8(base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap();
    text.split('|').nth(2).unwrap().to_owned()
}

/// The stored engine result of an analysis record (`analysisResult` among its parameters).
fn engine_result(record: &Value) -> Option<Value> {
    let parameters = match &record["additionalParameters"] {
        Value::String(text) => serde_json::from_str::<Value>(text).ok()?,
        other => other.clone(),
    };
    let named = parameters.as_array()?.iter().find(|p| p["name"] == "analysisResult")?.clone();
    match &named["value"] {
        Value::String(text) => serde_json::from_str(text).ok(),
        other => Some(other.clone()),
    }
}

/// The foot of a dynamic result, wherever the result's tag puts it.
fn foot<'a>(result: &'a Value, side: &str) -> &'a Value {
    if result[side].is_object() {
        &result[side]
    } else {
        result.as_object().and_then(|m| m.values().find(|v| v[side].is_object())).map_or(&Value::Null, |v| &v[side])
    }
}

#[tokio::test]
async fn a_dynamic_capture_on_the_simulated_plate_is_a_walk_with_whole_steps_of_both_feet() {
    let hub = start(&["Podology IoT"]).await;
    let plate = hub.devices[0].clone();
    let (spec, transport) = hub.quic_device(&plate);
    let (_stop, _stats) = hub.run_device(spec, transport);
    let token = hub.login().await;
    let user = user_of(&token);
    let patient = json!({ "name": "Walker", "weight": 70, "height": "172", "agreeDataTreatment": true, "gender": "Male", "phone": "", "postalCode": "08001" });
    let created = request(hub.http(), "POST", &format!("/api/podometry/patients/{user}"), Some(&token), Some(&patient.to_string())).await;
    assert_eq!(created.status, 201, "{}", created.body);
    let patient_id = created.json::<Value>()["_id"]["$oid"].as_str().unwrap().to_owned();

    let mut browser = Browser::authenticated(hub.http(), &token).await;
    browser.send("joinUser", json!({ "deviceId": plate.id })).await;
    // The plate must be connected (functional) before a capture is accepted.
    assert!(
        eventually_async(Duration::from_secs(10), || async {
            let confs: Value = request(hub.http(), "GET", "/api/deviceConfCompany", Some(&token), None).await.json();
            confs.as_array().unwrap().iter().any(|c| c["deviceFunctional"] == true)
        })
        .await,
        "the simulated plate never connected"
    );
    browser.send("startCapture", json!({ "deviceId": plate.id, "analysisType": "Dynamic", "seconds": 15, "patientId": patient_id })).await;

    let page = format!("/api/deviceAnalysisPage/{user}/{}/all/1", plate.id);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(40);
    let record = loop {
        let listed: Value = request(hub.http(), "GET", &page, Some(&token), None).await.json();
        if let Some(first) = listed["analyses"].as_array().and_then(|a| a.first()) {
            break first.clone();
        }
        assert!(tokio::time::Instant::now() < deadline, "no dynamic analysis was stored");
        tokio::time::sleep(Duration::from_millis(500)).await;
    };
    assert_eq!(record["analysisType"], "Dynamic");
    let result = engine_result(&record).unwrap_or_else(|| panic!("no engine result in {record}"));
    for side in ["left", "right"] {
        let foot = foot(&result, side);
        let stances = foot["stances"].as_array().unwrap_or_else(|| panic!("{side}: no stances in {result}"));
        let whole = stances.iter().filter(|s| s["rockers"].is_object()).count();
        assert!(whole >= 2, "{side}: {whole} whole stances: {foot}");
        assert!(foot["error"].is_null(), "{side}: {}", foot["error"]);
        let share = foot["rockers"]["ankleRockerShare"].as_f64().unwrap();
        assert!(share > 0.0 && share < 100.0, "{side}: an ankle rocker of {share} %");
    }
}
