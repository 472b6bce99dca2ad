//! The server's `CapabilityStatement` (`GET /fhir/r4/metadata`): exactly the resource types,
//! interactions and search parameters served, read from the same table the searches use
//! (`super::search`). Pure.

use serde_json::{Value, json};

use super::search::{DEFAULT_COUNT, MAX_COUNT, ResourceType};

/// When this statement last changed (`CapabilityStatement.date`).
pub const STATEMENT_DATE: &str = "2026-11-26";

/// The statement; `base` is the server's base URL.
pub fn capability_statement(base: &str) -> Value {
    let resources: Vec<Value> = ResourceType::ALL
        .into_iter()
        .map(|resource_type| {
            let params: Vec<Value> = resource_type
                .search_params()
                .iter()
                .map(|p| json!({ "name": p.name, "type": p.kind.name(), "documentation": p.doc }))
                .collect();
            json!({
                "type": resource_type.name(),
                "interaction": [{ "code": "read" }, { "code": "search-type" }],
                "searchParam": params,
            })
        })
        .collect();
    json!({
        "resourceType": "CapabilityStatement",
        "id": "pmat-hub",
        "status": "active",
        "date": STATEMENT_DATE,
        "publisher": "pressure-mat hub",
        "kind": "instance",
        "software": { "name": "pressure-mat hub", "version": env!("CARGO_PKG_VERSION") },
        "implementation": { "description": "Pressure-mat hub: patients, mats, their observations and alarms, read-only", "url": base },
        "fhirVersion": "4.0.1",
        "format": ["application/fhir+json", "json"],
        "rest": [{
            "mode": "server",
            "documentation": format!(
                "Read-only. Searches page with _count (default {DEFAULT_COUNT}, at most {MAX_COUNT}) and _offset (the next link carries it); an unknown parameter is refused with 400. docs/interfaces.md, \"FHIR R4\"."
            ),
            "security": {
                "cors": false,
                "description": "Authorization: Bearer <token> from POST /api/auth/login (the REST API's); a token reads its own company's records only. This statement is public.",
            },
            "resource": resources,
        }],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_statement_lists_every_type_and_its_parameters() {
        let statement = capability_statement("http://h/fhir/r4");
        let resources = statement["rest"][0]["resource"].as_array().unwrap();
        let types: Vec<&str> = resources.iter().map(|r| r["type"].as_str().unwrap()).collect();
        assert_eq!(types, ["Patient", "Device", "DeviceMetric", "Observation", "Communication"]);
        let observation = &resources[3];
        let names: Vec<&str> = observation["searchParam"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["_id", "patient", "subject", "device", "date", "code", "category"]);
        assert_eq!(statement["fhirVersion"], "4.0.1");
    }
}
