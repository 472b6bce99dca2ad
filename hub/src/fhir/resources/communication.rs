//! An alarm as a FHIR R4 `Communication` of category `alert`, `about` the Observation of its
//! condition and `sent` by its device, with the fields of R6's `DeviceAlert` as extensions so a
//! later R6 export is a mapping (docs/interfaces.md, "FHIR R4"):
//! - `condition`: the alarm's IEEE 11073 event code (`ihe_pcd::priority::Condition`, the code
//!   PCD-04 sends);
//! - `priority`: IEC 60601-1-8 `high`, `medium`, `low` (`Condition::priority`, PCD-04's); the R4
//!   `priority` carries it too: high `stat`, medium `asap`, low `routine`;
//! - `presence`: whether the alarm still waits (the hub's alarm episode is open until attended);
//! - `acknowledged`: whether a nurse attended it, with who (`acknowledgedBy`, the account's
//!   e-mail) and when (`acknowledgedTime`).
//!
//! The R4 `status` is `in-progress` while it waits and `completed` once attended. Pure.

use ihe_pcd::priority::Priority;
use serde_json::{Value, json};
use storage::repo::AlarmRow;

use super::observation::{alarm_condition, alarm_observation_id};
use super::{Entry, reference};
use crate::alarm_manager::reporter::condition;
use crate::fhir::codes;
use crate::fhir::search::Keys;
use crate::fhir::time;

/// The `DeviceAlert.priority` code and the R4 `Communication.priority` of an IEC priority.
fn priorities(priority: Priority) -> (&'static str, &'static str) {
    match priority {
        Priority::High => ("high", "stat"),
        Priority::Medium => ("medium", "asap"),
        Priority::Low => ("low", "routine"),
    }
}

/// The alarm's `Communication`.
pub fn communication(row: &AlarmRow) -> Entry {
    let (concept, _) = alarm_condition(&row.kind);
    let known = condition(&row.kind);
    let text = known.map_or("Device alarm", |c| c.text());
    let mut extensions: Vec<Value> = vec![codes::extension("device-alert-condition", "valueCodeableConcept", concept)];
    if let Some(c) = known {
        extensions.push(codes::extension("device-alert-priority", "valueCode", json!(priorities(c.priority()).0)));
    }
    extensions.push(codes::extension("device-alert-presence", "valueBoolean", json!(!row.has_been_attended)));
    extensions.push(codes::extension("device-alert-acknowledged", "valueBoolean", json!(row.has_been_attended)));
    if let Some(by) = &row.attended_by {
        extensions.push(codes::extension("device-alert-acknowledged-by", "valueString", json!(by)));
    }
    if let Some(at) = row.attended_time.filter(|_| row.has_been_attended) {
        extensions.push(codes::extension("device-alert-acknowledged-time", "valueDateTime", json!(time::instant(at))));
    }
    let id = format!("alarm-{}", row.id);
    let mut resource = json!({
        "resourceType": "Communication",
        "id": id,
        "extension": extensions,
        "status": if row.has_been_attended { "completed" } else { "in-progress" },
        "category": [codes::ALERT.concept()],
        "about": [reference("Observation", &alarm_observation_id(&row.id), None)],
        "sender": reference("Device", &row.device_id, None),
        "sent": time::instant(row.creation_date),
        "payload": [{ "contentString": text }],
    });
    if let Some(c) = known {
        resource["priority"] = json!(priorities(c.priority()).1);
    }
    if let Some(patient) = &row.patient_id {
        resource["subject"] = reference("Patient", patient, None);
    }
    let keys = Keys {
        id,
        patient: row.patient_id.clone(),
        device: Some(row.device_id.clone()),
        date: Some(row.creation_date),
        codes: Vec::new(),
        categories: vec![codes::ALERT.pair()],
    };
    Entry { resource, keys }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alarm(kind: &str, attended: bool) -> AlarmRow {
        AlarmRow {
            id: "d1-7".into(),
            device_id: "d1".into(),
            patient_id: Some("p1".into()),
            kind: kind.into(),
            creation_date: 1_795_725_255,
            has_been_attended: attended,
            attended_time: attended.then_some(1_795_725_315),
            attended_by: attended.then(|| "nurse@example.com".into()),
        }
    }

    fn extension<'a>(resource: &'a Value, name: &str) -> Option<&'a Value> {
        resource["extension"].as_array().unwrap().iter().find(|e| e["url"] == format!("{}{name}", codes::EXTENSION))
    }

    #[test]
    fn a_waiting_missing_alarm_is_a_high_priority_alert_about_its_observation() {
        let r = communication(&alarm("Missing", false)).resource;
        assert_eq!(r["status"], "in-progress");
        assert_eq!(r["priority"], "stat");
        assert_eq!(r["category"][0]["coding"][0]["code"], "alert");
        assert_eq!(r["about"][0]["reference"], "Observation/alarm-d1-7");
        assert_eq!(r["sender"]["reference"], "Device/d1");
        assert_eq!(extension(&r, "device-alert-priority").unwrap()["valueCode"], "high");
        assert_eq!(extension(&r, "device-alert-presence").unwrap()["valueBoolean"], true);
        assert_eq!(extension(&r, "device-alert-acknowledged").unwrap()["valueBoolean"], false);
        let (code, _) = ihe_pcd::priority::Condition::PatientMissing.code();
        assert_eq!(extension(&r, "device-alert-condition").unwrap()["valueCodeableConcept"]["coding"][0]["code"], code.to_string());
        assert!(extension(&r, "device-alert-acknowledged-by").is_none());
    }

    #[test]
    fn an_attended_repositioning_alarm_says_who_and_when() {
        let r = communication(&alarm("Ulcer Risk", true)).resource;
        assert_eq!(r["status"], "completed");
        assert_eq!(r["priority"], "routine", "repositioning due is IEC low");
        assert_eq!(extension(&r, "device-alert-acknowledged-by").unwrap()["valueString"], "nurse@example.com");
        assert_eq!(extension(&r, "device-alert-acknowledged-time").unwrap()["valueDateTime"], "2026-11-26T20:35:15Z");
        assert_eq!(extension(&r, "device-alert-presence").unwrap()["valueBoolean"], false);
    }
}
