//! A turn a nurse recorded (`turn_log`, `POST /api/device/{id}/turns`) as a FHIR R4
//! `Observation` (docs/interfaces.md, "FHIR R4"): code `recorded-turn`, when the patient was
//! turned (`effectiveDateTime`) and when it was recorded (`issued`), the new position (SNOMED CT,
//! as the posture observations), who recorded it (`performer`: the account as a logical
//! Practitioner reference, its id and e-mail, since the hub serves no Practitioner), whether it
//! was on time or late and by how much (components), the device and the patient at the bedside
//! when it was recorded. Pure.

use mat_core::machine::pressure_ulcer::RepositioningTier;
use serde_json::{Value, json};
use storage::repo::TurnRow;

use super::{Entry, reference};
use crate::fhir::codes::{self, Code};
use crate::fhir::search::Keys;
use crate::fhir::time;

/// The id of a recorded turn's Observation.
pub fn recorded_turn_id(row: &TurnRow) -> String {
    format!("turn-{}", row.id)
}

/// Whether the turn came late: the clock before it had reached `due` or `overdue` (the turns
/// panel's rule, `RepositioningTier::at_risk`). `None` for a tier the hub does not know.
pub fn late(tier_before: &str) -> Option<bool> {
    serde_json::from_value::<RepositioningTier>(json!(tier_before)).ok().map(RepositioningTier::at_risk)
}

/// Milliseconds as a UCUM quantity of minutes, to one decimal.
fn minutes(ms: i64) -> Value {
    codes::quantity(codes::round1(ms as f64 / 60_000.0), "min", "min")
}

/// The recorded turn's Observation.
pub fn recorded_turn_observation(row: &TurnRow) -> Entry {
    let id = recorded_turn_id(row);
    let secs = row.at_ms.div_euclid(1000);
    let mut resource = json!({
        "resourceType": "Observation",
        "id": id,
        "status": "final",
        "category": [codes::ACTIVITY.concept()],
        "code": codes::RECORDED_TURN.concept(),
        "effectiveDateTime": time::instant(secs),
        "issued": time::instant(row.recorded_at_ms.div_euclid(1000)),
        "device": reference("Device", &row.device_id, None),
    });
    if let Some(patient) = &row.patient_id {
        resource["subject"] = reference("Patient", patient, None);
    }
    if row.by_id.is_some() || row.by_email.is_some() {
        let mut performer = json!({ "type": "Practitioner" });
        if let Some(user) = &row.by_id {
            performer["identifier"] = json!({ "system": codes::USER, "value": user });
        }
        if let Some(email) = &row.by_email {
            performer["display"] = json!(email);
        }
        resource["performer"] = json!([performer]);
    }
    match row.position.as_deref().and_then(codes::posture) {
        Some(posture) => resource["valueCodeableConcept"] = posture.concept(),
        None => {
            resource["dataAbsentReason"] =
                json!({ "coding": [{ "system": codes::DATA_ABSENT_REASON, "code": "unknown", "display": "Unknown" }] })
        }
    }
    let mut components = Vec::new();
    if let Some(late) = late(&row.tier_before) {
        let verdict: Code = if late { codes::TURN_LATE } else { codes::TURN_ON_TIME };
        components.push(json!({ "code": codes::TURN_TIMELINESS.concept(), "valueCodeableConcept": verdict.concept() }));
    }
    components.push(json!({ "code": codes::LOAD_BEFORE_TURN.concept(), "valueQuantity": minutes(row.loaded_ms) }));
    components.push(json!({ "code": codes::REPOSITIONING_INTERVAL.concept(), "valueQuantity": minutes(row.interval_ms) }));
    resource["component"] = json!(components);
    let keys = Keys {
        id,
        patient: row.patient_id.clone(),
        device: Some(row.device_id.clone()),
        date: Some(secs),
        codes: vec![codes::RECORDED_TURN.pair()],
        categories: vec![codes::ACTIVITY.pair()],
    };
    Entry { resource, keys }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(tier_before: &str) -> TurnRow {
        TurnRow {
            id: "d1-1795725300000".into(),
            device_id: "d1".into(),
            patient_id: Some("p1".into()),
            at_ms: 1_795_725_000_000,
            recorded_at_ms: 1_795_725_300_000,
            position: Some("Left Lateral".into()),
            by_id: Some("u7".into()),
            by_email: Some("ana@ward3.example".into()),
            tier_before: tier_before.into(),
            loaded_ms: 8_130_000,
            interval_ms: 7_200_000,
        }
    }

    #[test]
    fn a_recorded_turn_says_when_to_what_by_whom_and_whether_late() {
        let entry = recorded_turn_observation(&row("overdue"));
        let o = &entry.resource;
        assert_eq!(o["id"], "turn-d1-1795725300000");
        assert_eq!(o["code"]["coding"][0]["code"], "recorded-turn");
        assert_eq!((o["effectiveDateTime"].as_str(), o["issued"].as_str()), (Some("2026-11-26T20:30:00Z"), Some("2026-11-26T20:35:00Z")));
        assert_eq!(o["valueCodeableConcept"]["coding"][0]["code"], "102536004", "left lateral");
        assert_eq!(
            o["performer"][0],
            json!({ "type": "Practitioner", "identifier": { "system": codes::USER, "value": "u7" }, "display": "ana@ward3.example" })
        );
        assert_eq!((o["subject"]["reference"].as_str(), o["device"]["reference"].as_str()), (Some("Patient/p1"), Some("Device/d1")));
        assert_eq!(o["component"][0]["valueCodeableConcept"]["coding"][0]["code"], "turn-late");
        assert_eq!(o["component"][1]["valueQuantity"]["value"], 135.5, "8130 s of load");
        assert_eq!(o["component"][2]["valueQuantity"]["value"], 120.0);
        assert_eq!(entry.keys.codes, [codes::RECORDED_TURN.pair()]);
        assert_eq!((entry.keys.patient.as_deref(), entry.keys.device.as_deref()), (Some("p1"), Some("d1")));
        assert_eq!(entry.keys.date, Some(1_795_725_000));
    }

    #[test]
    fn on_time_is_before_the_interval_ended() {
        for (tier, late_turn) in [("ok", Some(false)), ("dueSoon", Some(false)), ("due", Some(true)), ("overdue", Some(true)), ("x", None)]
        {
            assert_eq!(late(tier), late_turn, "{tier}");
        }
        let on_time = recorded_turn_observation(&row("dueSoon"));
        assert_eq!(on_time.resource["component"][0]["valueCodeableConcept"]["coding"][0]["code"], "turn-on-time");
    }

    #[test]
    fn a_turn_without_position_patient_or_account_says_so() {
        let bare = TurnRow { position: None, patient_id: None, by_id: None, by_email: None, ..row("ok") };
        let o = recorded_turn_observation(&bare).resource;
        assert!(o.get("valueCodeableConcept").is_none() && o["dataAbsentReason"]["coding"][0]["code"] == "unknown");
        assert!(o.get("subject").is_none() && o.get("performer").is_none());
    }
}
