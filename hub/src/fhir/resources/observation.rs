//! What the mats observed as FHIR `Observation`s (docs/interfaces.md, "FHIR R4"), each with the
//! patient at the bedside when it was written (none when nobody was assigned) and the device:
//! - from each device log entry (a posture change, or every 5 min while someone is present): the
//!   posture (LOINC 8361-8 valued with SNOMED CT) with the classifier's confidence, the peak
//!   pressure and the mean of the loaded blocks of its downsampled map, in mmHg (`mat_protocol::scale`);
//! - a turn where an entry's posture differs from the device's previous entry's;
//! - presence: each entrance (true) and exit (false);
//! - each alarm's condition (the MDC code of `ihe_pcd::priority::Condition`) when it was raised:
//!   the Observation its `Communication` is about.
//!
//! Pure.

use std::collections::HashMap;

use mat_core::analysis::units::at_full_scale;
use mat_protocol::scale::{pressure_units_per_cell, units_to_mmhg};
use serde_json::{Value, json};
use storage::repo::{AlarmRow, DeviceLogRow, PresenceRow};

use super::{DeviceView, Entry, reference};
use crate::alarm_manager::reporter::condition;
use crate::fhir::codes::{self, Code};
use crate::fhir::search::Keys;
use crate::fhir::time;

/// An `Observation` with its common fields.
fn observation(id: String, code: Code, category: Code, device_id: &str, patient: Option<&String>, secs: i64) -> Entry {
    observed(id, code.concept(), code.pair(), category, device_id, patient, secs)
}

/// An `Observation` whose code is `concept`, searched as `pair`.
fn observed(
    id: String,
    concept: Value,
    pair: (String, String),
    category: Code,
    device_id: &str,
    patient: Option<&String>,
    secs: i64,
) -> Entry {
    let mut resource = json!({
        "resourceType": "Observation",
        "id": id,
        "status": "final",
        "category": [category.concept()],
        "code": concept,
        "effectiveDateTime": time::instant(secs),
        "device": reference("Device", device_id, None),
    });
    if let Some(patient) = patient {
        resource["subject"] = reference("Patient", patient, None);
    }
    let keys = Keys {
        id,
        patient: patient.cloned(),
        device: Some(device_id.to_owned()),
        date: Some(secs),
        codes: vec![pair],
        categories: vec![(category.system.to_owned(), category.code.to_owned())],
    };
    Entry { resource, keys }
}

/// The mean of the loaded blocks of a device log's downsampled map (block means of the device's
/// cell steps), if any block is loaded.
pub fn loaded_mean(pressure_map: &str) -> Option<f64> {
    let grid: Vec<Vec<f64>> = serde_json::from_str(pressure_map).ok()?;
    let loaded: Vec<f64> = grid.into_iter().flatten().filter(|v| *v > 0.0).collect();
    (!loaded.is_empty()).then(|| loaded.iter().sum::<f64>() / loaded.len() as f64)
}

/// The Observations of a company's device log entries (any order), with the turns between them.
pub fn device_log_observations(rows: &[DeviceLogRow], devices: &HashMap<String, DeviceView>) -> Vec<Entry> {
    let mut ordered: Vec<&DeviceLogRow> = rows.iter().collect();
    ordered.sort_by(|a, b| (a.creation_date, &a.id).cmp(&(b.creation_date, &b.id)));
    let mut last_posture: HashMap<&str, Code> = HashMap::new();
    let mut out = Vec::new();
    for row in ordered {
        let patient = row.patient_id.as_ref();
        let at = row.creation_date;
        if let Some(posture) = codes::posture(&row.position) {
            let mut posture_obs =
                observation(format!("log-{}-posture", row.id), codes::BODY_POSITION, codes::ACTIVITY, &row.device_id, patient, at);
            posture_obs.resource["valueCodeableConcept"] = posture.concept();
            posture_obs.resource["component"] = json!([{
                "code": codes::POSTURE_CONFIDENCE.concept(),
                "valueQuantity": codes::quantity(codes::round1(row.confidence * 100.0), "%", "%"),
            }]);
            out.push(posture_obs);
            if let Some(before) = last_posture.insert(row.device_id.as_str(), posture).filter(|before| *before != posture) {
                let mut turn = observation(format!("log-{}-turn", row.id), codes::TURN, codes::ACTIVITY, &row.device_id, patient, at);
                turn.resource["valueCodeableConcept"] = posture.concept();
                turn.resource["component"] = json!([{ "code": codes::TURN_FROM.concept(), "valueCodeableConcept": before.concept() }]);
                out.push(turn);
            }
        }
        let Some(device_type) = devices.get(&row.device_id).and_then(|d| d.device_type) else { continue };
        let Some(units) = pressure_units_per_cell(device_type) else { continue };
        let mut peak = observation(format!("log-{}-peak", row.id), codes::PEAK_PRESSURE, codes::EXAM, &row.device_id, patient, at);
        let saturated = at_full_scale(device_type, u16::try_from(row.max_pressure.max(0)).unwrap_or(u16::MAX));
        peak.resource["valueQuantity"] = codes::reading(codes::mmhg(units_to_mmhg(row.max_pressure as f64 * units)), saturated);
        out.push(peak);
        if let Some(mean) = loaded_mean(&row.pressure_map) {
            let mut mean_obs =
                observation(format!("log-{}-mean", row.id), codes::BLOCK_MEAN_PRESSURE, codes::EXAM, &row.device_id, patient, at);
            mean_obs.resource["valueQuantity"] = codes::mmhg(units_to_mmhg(mean * units));
            out.push(mean_obs);
        }
    }
    out
}

/// The Observation of an entrance (true) or exit (false).
pub fn presence_observation(row: &PresenceRow) -> Entry {
    let mut entry = observation(
        format!("presence-{}", row.id),
        codes::PRESENCE,
        codes::ACTIVITY,
        &row.device_id,
        row.patient_id.as_ref(),
        row.creation_date,
    );
    entry.resource["valueBoolean"] = json!(row.log_id == "1");
    entry
}

/// The code of an alarm's condition (its IEEE 11073 private `MDCX_` event code, `ihe_pcd`'s)
/// and the (system, code) a search tests.
pub fn alarm_condition(kind: &str) -> (Value, (String, String)) {
    match condition(kind) {
        Some(c) => {
            let (number, name) = c.code();
            let coding = json!({ "coding": [{ "system": codes::MDC, "code": number.to_string(), "display": name }], "text": c.text() });
            (coding, (codes::MDC.to_owned(), number.to_string()))
        }
        None => (codes::OTHER_ALARM.concept(), codes::OTHER_ALARM.pair()),
    }
}

/// The id of the Observation an alarm's Communication is about.
pub fn alarm_observation_id(alarm_id: &str) -> String {
    format!("alarm-{alarm_id}")
}

/// The Observation of an alarm's condition when it was raised (the event the alarm is about).
pub fn alarm_observation(row: &AlarmRow) -> Entry {
    let (concept, pair) = alarm_condition(&row.kind);
    let mut entry =
        observed(alarm_observation_id(&row.id), concept, pair, codes::ACTIVITY, &row.device_id, row.patient_id.as_ref(), row.creation_date);
    entry.resource["valueBoolean"] = json!(true);
    entry
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fhir::resources::tests::device_view;

    fn log(id: &str, at: i64, position: &str, max: i64, map: &str) -> DeviceLogRow {
        DeviceLogRow {
            id: id.into(),
            device_id: "d1".into(),
            patient_id: Some("p1".into()),
            creation_date: at,
            max_pressure: max,
            position: position.into(),
            confidence: 0.874,
            pressure_map: map.into(),
        }
    }

    #[test]
    fn a_log_entry_gives_posture_peak_and_mean_in_mmhg_and_a_change_a_turn() {
        let devices = HashMap::from([("d1".to_owned(), device_view("d1", "Mattress Mat IoT"))]);
        let rows = [log("b", 200, "Left Lateral", 100, "[[0,50],[150,0]]"), log("a", 100, "Supine", 80, "[[0,0],[0,0]]")];
        let out = device_log_observations(&rows, &devices);
        let ids: Vec<&str> = out.iter().map(|e| e.keys.id.as_str()).collect();
        assert_eq!(ids, ["log-a-posture", "log-a-peak", "log-b-posture", "log-b-turn", "log-b-peak", "log-b-mean"]);
        let posture = &out[0].resource;
        assert_eq!(posture["valueCodeableConcept"]["coding"][0]["code"], "40199007");
        assert_eq!(posture["component"][0]["valueQuantity"]["value"], 87.4);
        assert_eq!(posture["subject"]["reference"], "Patient/p1");
        assert_eq!(
            out[1].resource["valueQuantity"],
            json!({ "value": 32.0, "unit": "mmHg", "system": codes::UCUM, "code": "mm[Hg]" }),
            "80 steps of 0.4 mmHg"
        );
        assert_eq!(
            out[3].resource["component"][0]["valueCodeableConcept"]["coding"][0]["code"], "40199007",
            "the turn names the posture before it"
        );
        assert_eq!(out[5].resource["valueQuantity"]["value"], 40.0, "the loaded blocks' mean: (50 + 150) / 2 steps of 0.4 mmHg");
    }

    #[test]
    fn a_logged_peak_at_the_sensor_s_full_scale_carries_the_at_least_comparator() {
        let devices = HashMap::from([("d1".to_owned(), device_view("d1", "Mattress Mat IoT"))]);
        let out = device_log_observations(&[log("a", 1, "Supine", 255, "[[255]]"), log("b", 2, "Supine", 254, "[[254]]")], &devices);
        let peak = |id: &str| out.iter().find(|e| e.keys.id == id).unwrap().resource["valueQuantity"].clone();
        assert_eq!(
            peak("log-a-peak"),
            json!({ "value": 102.0, "unit": "mmHg", "system": codes::UCUM, "code": "mm[Hg]", "comparator": ">=" })
        );
        assert!(peak("log-b-peak").get("comparator").is_none());
        assert!(peak("log-a-mean").get("comparator").is_none(), "a mean is not the highest cell");
    }

    #[test]
    fn force_channels_have_no_pressures() {
        let devices = HashMap::from([("d1".to_owned(), device_view("d1", "Force Mat"))]);
        let out = device_log_observations(&[log("a", 1, "", 4000, "[[4000]]")], &devices);
        assert!(out.is_empty());
    }

    #[test]
    fn alarms_are_observed_as_their_mdc_condition() {
        let row = AlarmRow {
            id: "d1-3".into(),
            device_id: "d1".into(),
            patient_id: None,
            kind: "Missing".into(),
            creation_date: 10,
            has_been_attended: false,
            attended_time: None,
            attended_by: None,
        };
        let entry = alarm_observation(&row);
        assert_eq!(entry.keys.id, "alarm-d1-3");
        let (number, name) = ihe_pcd::priority::Condition::PatientMissing.code();
        assert_eq!(entry.resource["code"]["coding"][0], json!({ "system": codes::MDC, "code": number.to_string(), "display": name }));
        assert_eq!(entry.keys.codes, [(codes::MDC.to_owned(), number.to_string())]);
        let due = ihe_pcd::priority::Condition::RepositioningDue;
        assert_eq!(alarm_condition("Ulcer Risk").1, (codes::MDC.to_owned(), due.code().0.to_string()));
        assert_eq!(alarm_condition("Alarm").1, codes::OTHER_ALARM.pair());
        assert!(entry.resource.get("subject").is_none());
    }
}
