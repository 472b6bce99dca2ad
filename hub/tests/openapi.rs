//! The OpenAPI document (`GET /api/openapi.json`): every operation documents its successful
//! answers with schemas derived from the Rust types, every reference resolves, and the client's
//! copy (`client/src/api/openapi.json`, from which `client/src/api/schema.ts` is generated) is
//! exactly what the hub serves. `UPDATE_CLIENT_FIXTURES=1` rewrites the copy.

mod common;

use common::request;
use serde_json::Value;

async fn served_document() -> Value {
    let hub = common::start(&["Mattress Mat IoT"]).await;
    let response = request(hub.http(), "GET", "/api/openapi.json", None, None).await;
    assert_eq!(response.status, 200, "{}", response.body);
    let document = response.json();
    hub.hub.shutdown().await;
    document
}

fn operations(document: &Value) -> Vec<(String, String, &Value)> {
    let mut found = Vec::new();
    for (path, methods) in document["paths"].as_object().expect("paths") {
        for (method, operation) in methods.as_object().expect("methods") {
            found.push((method.to_uppercase(), path.clone(), operation));
        }
    }
    found
}

fn references(value: &Value, into: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get("$ref") {
                into.push(reference.clone());
            }
            map.values().for_each(|v| references(v, into));
        }
        Value::Array(items) => items.iter().for_each(|v| references(v, into)),
        _ => {}
    }
}

#[tokio::test]
async fn every_operation_documents_typed_answers_errors_and_bodies() {
    let document = served_document().await;
    for (method, path, operation) in operations(&document) {
        let responses = operation["responses"].as_object().expect("responses");
        assert!(responses.keys().any(|status| status.starts_with('2')), "{method} {path} documents no successful answer");
        for (status, success) in responses.iter().filter(|(status, _)| status.starts_with('2')) {
            if status == "204" {
                assert!(success.get("content").is_none(), "{method} {path}: 204 has no body");
                continue;
            }
            let content = success["content"].as_object().expect("content");
            for (media, body) in content {
                assert!(body["schema"].is_object() || body["schema"] == Value::Bool(true), "{method} {path} {media} has no schema");
            }
        }
        for (status, response) in responses.iter().filter(|(status, _)| !status.starts_with('2')) {
            assert_eq!(response["$ref"], "#/components/responses/Error", "{method} {path} {status} answers the error shape");
        }
        // Public: sign-in, and a wall screen's pairing with a one-time code.
        if path != "/api/auth/login" && path != "/api/wardScreens/pair" {
            assert_eq!(operation["security"], serde_json::json!([{"bearer": []}]), "{method} {path} needs the bearer token");
            assert!(responses.contains_key("401"), "{method} {path} documents 401");
        }
        if matches!(method.as_str(), "POST" | "PUT") && operation.get("requestBody").is_some() {
            let schema = &operation["requestBody"]["content"]["application/json"]["schema"];
            assert!(schema["$ref"].is_string(), "{method} {path}: the body is a named type");
            assert!(responses.contains_key("400"), "{method} {path} documents 400 for a body that is not the type");
        }
        let templated = path.matches('{').count();
        assert_eq!(operation["parameters"].as_array().map(Vec::len), Some(templated), "{method} {path} documents each path parameter");
    }
    // A few types as the client reads them.
    let schemas = &document["components"]["schemas"];
    assert_eq!(schemas["LoginResponse"]["required"].as_array().map(Vec::len), Some(7), "{}", schemas["LoginResponse"]);
    assert_eq!(schemas["DeviceType"]["enum"].as_array().map(Vec::len), Some(21), "the device-type table's names");
    assert_eq!(schemas["PatientStatus"]["enum"], serde_json::json!(["Missing", "Absent", "Ulcer Risk", "Correct", "Offline"]));
    let registration = &schemas["RegistrationInput"]["properties"]["deviceType"]["enum"];
    assert!(
        !registration.as_array().expect("registrable types").contains(&Value::from("Sensing Horse Subdevice")),
        "sub-devices come with their parent"
    );
    for (name, schema) in schemas.as_object().expect("schemas") {
        for required in schema["required"].as_array().into_iter().flatten() {
            assert!(
                schema["properties"].get(required.as_str().unwrap_or_default()).is_some(),
                "{name} requires {required}, which it does not have"
            );
        }
    }
    let mut refs = Vec::new();
    references(&document, &mut refs);
    for reference in refs {
        let pointer = reference.strip_prefix('#').expect("local reference");
        assert!(document.pointer(pointer).is_some(), "{reference} does not resolve");
    }
}

/// The client generates its API types from `client/src/api/openapi.json`; it must be exactly
/// what the hub serves.
#[tokio::test]
async fn the_clients_copy_of_the_document_is_current() {
    let document = served_document().await;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../client/src/api/openapi.json");
    if std::env::var_os("UPDATE_CLIENT_FIXTURES").is_some() {
        std::fs::create_dir_all(path.parent().expect("parent")).expect("client/src/api");
        std::fs::write(&path, serde_json::to_string_pretty(&document).expect("json") + "\n").expect("write");
    }
    let stored: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap_or_default()).unwrap_or(Value::Null);
    assert_eq!(
        stored, document,
        "client/src/api/openapi.json is out of date: run `UPDATE_CLIENT_FIXTURES=1 cargo test -p hub --test openapi`, then `npm run api:types` in client/"
    );
}
