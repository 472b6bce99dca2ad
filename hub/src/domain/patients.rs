//! Patients beyond their form (issue 22): the patient at a device's bedside, a patient's deletion
//! and a patient's data as one file.
//!
//! - A bed, seat or room set (the device-type table's `bedside_patient`) has its own patient,
//!   assigned and released by staff on its page; the device's alarm, device and presence log rows
//!   name the patient assigned when they were written (storage sets them). A clinician's
//!   selection stays per user (spec §7) and drives captures on the plates.
//! - Deleting a patient erases their analyses, releases their devices, clears every selection and
//!   log row naming them and records the audit entry, in one storage transaction.
//! - A patient's data file: their fields, analyses, bedside rows and the devices they are at.

use actors::catalog::DeviceInfo;
use serde::Serialize;
use storage::model::{AlarmLog, AnalysisFilter, Device, DeviceLog, NewAuditEntry, PatientFields, PresenceLog};
use storage::{CompanyStore, StoreError};

use super::error::DomainError;

/// Assigns `patient_id` to `device` as its patient at the bedside, or releases it (`None`).
/// Refused with `noBedsidePatient` for a type whose captures follow the user's selection.
pub async fn set_bedside(store: CompanyStore<'_>, device: &DeviceInfo, patient_id: Option<&str>) -> Result<(), DomainError> {
    if !device.device_type.has_bedside_patient() {
        return Err(DomainError::refused(
            "noBedsidePatient",
            format!("a {} has no patient of its own: select a patient for the capture", device.device_type.name()),
        ));
    }
    store.devices().set_current_patient(&device.id, patient_id).await.map_err(|error| match error {
        storage::StoreError::NotFound => DomainError::NotFound("patient"),
        error => DomainError::internal(error),
    })
}

/// The patient at `device`'s bedside: its own, or the room set's it belongs to. One rule for
/// every reader (alarm reports, captures).
pub async fn bedside_patient_id(store: &CompanyStore<'_>, device: &Device) -> Result<Option<String>, StoreError> {
    if device.current_patient.is_some() {
        return Ok(device.current_patient.clone());
    }
    match &device.parent_id {
        Some(parent) => Ok(store.devices().get(parent).await?.and_then(|set| set.current_patient)),
        None => Ok(None),
    }
}

/// Deletes a patient of the company with everything that names them, and `audit`, in one
/// transaction. `NotFound` for another company's patient.
pub async fn delete(store: CompanyStore<'_>, patient_id: &str, audit: &NewAuditEntry) -> Result<(), DomainError> {
    store.patients().delete(patient_id, audit).await.map_err(|error| match error {
        storage::StoreError::NotFound => DomainError::NotFound("patient"),
        error => DomainError::internal(error),
    })
}

/// The audit summary of a patient's deletion: the name (who was erased) and how many analyses
/// went with them; no clinical data.
pub fn deletion_summary(name: &str, analyses: u64) -> String {
    format!("patient {name:?} deleted with {analyses} analyses; their devices released")
}

/// A patient's data, as one JSON file (the privacy promise of the login page).
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PatientDataFile {
    /// Unix ms when the file was made.
    pub exported_at_ms: i64,
    pub patient_id: String,
    /// Unix seconds of registration.
    pub created_at: i64,
    pub patient: PatientFields,
    /// The devices this patient is at now (name and serial).
    pub bedside_devices: Vec<BedsideDevice>,
    pub analyses: Vec<PatientAnalysis>,
    /// Alarms raised while the patient was at a bedside (Unix seconds).
    pub alarms: Vec<PatientAlarm>,
    /// Device log entries written while the patient was at a bedside.
    pub device_logs: Vec<PatientDeviceLog>,
    /// Entrances ('1') and exits ('0').
    pub presence: Vec<PatientPresence>,
}

/// A device a patient is assigned to.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BedsideDevice {
    pub device_id: String,
    pub name: String,
    pub hardware_serial: String,
}

/// One analysis in a patient's data file; `mapPreview` and `additionalParameters` as stored.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PatientAnalysis {
    pub id: String,
    pub analysis_type: String,
    /// Unix seconds.
    pub creation_date: i64,
    pub device: Option<String>,
    pub notes: String,
    pub map_preview: serde_json::Value,
    pub additional_parameters: serde_json::Value,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PatientAlarm {
    pub device_id: String,
    pub kind: String,
    pub creation_date: i64,
    pub has_been_attended: bool,
    pub attended_time: Option<i64>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PatientDeviceLog {
    pub device_id: String,
    pub creation_date: i64,
    pub max_pressure: i64,
    pub position: String,
    pub confidence: f64,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PatientPresence {
    pub device_id: String,
    pub creation_date: i64,
    pub log_id: String,
}

impl From<AlarmLog> for PatientAlarm {
    fn from(a: AlarmLog) -> Self {
        PatientAlarm {
            device_id: a.device_id,
            kind: a.kind,
            creation_date: a.creation_date,
            has_been_attended: a.has_been_attended,
            attended_time: a.attended_time,
        }
    }
}

impl From<DeviceLog> for PatientDeviceLog {
    fn from(l: DeviceLog) -> Self {
        PatientDeviceLog {
            device_id: l.device_id,
            creation_date: l.creation_date,
            max_pressure: l.max_pressure,
            position: l.position,
            confidence: l.confidence,
        }
    }
}

impl From<PresenceLog> for PatientPresence {
    fn from(p: PresenceLog) -> Self {
        PatientPresence { device_id: p.device_id, creation_date: p.creation_date, log_id: p.log_id }
    }
}

/// Stored JSON text as a value (`null` if it is not JSON).
fn stored_json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or(serde_json::Value::Null)
}

/// The data file of a patient of the company, made at `now_ms`.
pub async fn data_file(store: CompanyStore<'_>, patient_id: &str, now_ms: i64) -> Result<PatientDataFile, DomainError> {
    let patient = store.patients().get(patient_id).await.map_err(DomainError::internal)?.ok_or(DomainError::NotFound("patient"))?;
    let filter = AnalysisFilter { patient_id: Some(patient_id.to_owned()), analysis_type: None, device_id: None };
    let totals = store.analyses().totals(&filter).await.map_err(DomainError::internal)?;
    let analyses = store.analyses().page(&filter, 0, totals.count.max(1)).await.map_err(DomainError::internal)?;
    let logs = store.logs().of_patient(patient_id).await.map_err(DomainError::internal)?;
    let devices = store.devices().list().await.map_err(DomainError::internal)?;
    Ok(PatientDataFile {
        exported_at_ms: now_ms,
        patient_id: patient.id,
        created_at: patient.created_at,
        patient: patient.fields,
        bedside_devices: devices
            .into_iter()
            .filter(|d| d.current_patient.as_deref() == Some(patient_id))
            .map(|d| BedsideDevice { device_id: d.id, name: d.name, hardware_serial: d.hardware_serial })
            .collect(),
        analyses: analyses
            .into_iter()
            .map(|a| PatientAnalysis {
                id: a.id,
                analysis_type: a.analysis_type,
                creation_date: a.creation_date,
                device: a.device,
                notes: a.notes,
                map_preview: stored_json(&a.map_preview),
                additional_parameters: stored_json(&a.additional_parameters),
            })
            .collect(),
        alarms: logs.alarms.into_iter().map(PatientAlarm::from).collect(),
        device_logs: logs.device_logs.into_iter().map(PatientDeviceLog::from).collect(),
        presence: logs.presence.into_iter().map(PatientPresence::from).collect(),
    })
}

/// The data file's name: `patient_<name>_<id>.json`, the name reduced to ASCII letters, digits
/// and `-` (a header value is ASCII).
pub fn data_file_name(name: &str, id: &str) -> String {
    let safe: String = name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
    let safe_id: String = id.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    format!("patient_{safe}_{safe_id}.json")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_name_keeps_no_path_or_quote() {
        assert_eq!(data_file_name("Ana \"x\"/../y", "ab12"), "patient_Ana__x_____y_ab12.json");
        assert_eq!(data_file_name("José", "k9"), "patient_Jos__k9.json");
    }

    #[test]
    fn the_deletion_summary_names_the_patient_and_counts_analyses() {
        assert_eq!(deletion_summary("Ana", 3), "patient \"Ana\" deleted with 3 analyses; their devices released");
    }
}
