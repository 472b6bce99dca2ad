//! One company's clinical records as an export reads them (the FHIR interface, `hub::fhir`): every
//! device log, presence, alarm and recorded-turn row with its id and the patient at the bedside
//! when it was written, and every analysis without its frames. Newest first, at most [`EXPORT_ROW_LIMIT`] rows
//! of each table; read-only.

use surrealdb::Surreal;
use surrealdb::engine::any::Any;
use surrealdb::types::SurrealValue;

use crate::StoreError;

/// How many rows of each table an export reads at most, newest first.
pub const EXPORT_ROW_LIMIT: i64 = 20_000;

/// A device log row with its id and patient.
#[derive(Debug, Clone, PartialEq, SurrealValue)]
pub struct DeviceLogRow {
    pub id: String,
    pub device_id: String,
    /// The patient at the bedside when the row was written (none when nobody was assigned).
    pub patient_id: Option<String>,
    /// Unix seconds.
    pub creation_date: i64,
    /// Highest cell of the full map, in the device's cell steps (after the tare).
    pub max_pressure: i64,
    /// The posture's name (empty when none was read).
    pub position: String,
    pub confidence: f64,
    /// JSON text of the downsampled map (block means, the device's cell steps).
    pub pressure_map: String,
}

/// A presence row: `log_id` '1' entrance, '0' exit.
#[derive(Debug, Clone, PartialEq, SurrealValue)]
pub struct PresenceRow {
    pub id: String,
    pub device_id: String,
    pub patient_id: Option<String>,
    /// Unix seconds.
    pub creation_date: i64,
    pub log_id: String,
}

/// An alarm row with its patient.
#[derive(Debug, Clone, PartialEq, SurrealValue)]
pub struct AlarmRow {
    pub id: String,
    pub device_id: String,
    pub patient_id: Option<String>,
    /// `Missing`, `Ulcer Risk` or `Alarm`.
    pub kind: String,
    /// Unix seconds.
    pub creation_date: i64,
    pub has_been_attended: bool,
    /// Unix seconds.
    pub attended_time: Option<i64>,
    /// The e-mail of the account that attended it.
    pub attended_by: Option<String>,
}

/// A turn a nurse recorded (`turn_log`, not the turns the repositioning clock detected, which
/// the log keeps beside them for turn compliance) with its patient and who recorded it.
#[derive(Debug, Clone, PartialEq, SurrealValue)]
pub struct TurnRow {
    /// `device-recordedAtMs`, the row's key.
    pub id: String,
    pub device_id: String,
    pub patient_id: Option<String>,
    /// When the patient was turned, Unix ms.
    pub at_ms: i64,
    /// When it was recorded, Unix ms.
    pub recorded_at_ms: i64,
    /// The new position (a posture's name), when given.
    pub position: Option<String>,
    /// The account that recorded it (none once the account is gone).
    pub by_id: Option<String>,
    /// That account's e-mail.
    pub by_email: Option<String>,
    /// The repositioning tier before the turn (`ok`, `dueSoon`, `due`, `overdue`).
    pub tier_before: String,
    /// The longest load episode before the turn, ms.
    pub loaded_ms: i64,
    /// The repositioning interval then, ms.
    pub interval_ms: i64,
}

/// An analysis without its frames (`map_preview`).
#[derive(Debug, Clone, PartialEq, SurrealValue)]
pub struct AnalysisRow {
    pub id: String,
    pub patient_id: String,
    pub device: Option<String>,
    pub analysis_type: String,
    /// Unix seconds.
    pub creation_date: i64,
    /// JSON text: the stored named parameters (`hub::domain::analysis_format`).
    pub additional_parameters: String,
}

/// Everything an export reads of one company.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ClinicalRows {
    pub device_logs: Vec<DeviceLogRow>,
    pub presence: Vec<PresenceRow>,
    pub alarms: Vec<AlarmRow>,
    pub analyses: Vec<AnalysisRow>,
    pub turns: Vec<TurnRow>,
}

/// One company's clinical records, read-only.
pub struct ClinicalRecords<'a> {
    pub(crate) db: &'a Surreal<Any>,
    pub(crate) company: &'a str,
}

impl ClinicalRecords<'_> {
    /// The company's device logs, presence entries, alarms, analyses and recorded turns, newest
    /// first, at most
    /// [`EXPORT_ROW_LIMIT`] of each.
    pub async fn all(&self) -> Result<ClinicalRows, StoreError> {
        let mut response = self
            .db
            .query(
                "LET $company_ref = type::record('company', $company);
                 SELECT record::id(id) AS id, record::id(device) AS device_id, patient AS patient_id, creation_date, max_pressure,
                    position, confidence, pressure_map
                    FROM device_log WHERE company = $company_ref ORDER BY creation_date DESC LIMIT $limit;
                 SELECT record::id(id) AS id, record::id(device) AS device_id, patient AS patient_id, creation_date, log_id
                    FROM presence_log WHERE company = $company_ref ORDER BY creation_date DESC LIMIT $limit;
                 SELECT record::id(id) AS id, record::id(device) AS device_id, patient AS patient_id, kind, creation_date,
                    has_been_attended, attended_time, attended_by.email AS attended_by
                    FROM alarm_log WHERE company = $company_ref ORDER BY creation_date DESC LIMIT $limit;
                 SELECT record::id(id) AS id, record::id(patient) AS patient_id, device, analysis_type, creation_date,
                    additional_parameters
                    FROM analysis WHERE company = $company_ref ORDER BY creation_date DESC LIMIT $limit;
                 SELECT record::id(id) AS id, record::id(device) AS device_id, patient AS patient_id, at_ms, recorded_at_ms, position,
                    IF by = NONE THEN NONE ELSE record::id(by) END AS by_id, by.email AS by_email, tier_before, loaded_ms, interval_ms
                    FROM turn_log WHERE company = $company_ref AND detected != true ORDER BY at_ms DESC LIMIT $limit;",
            )
            .bind(("company", self.company.to_owned()))
            .bind(("limit", EXPORT_ROW_LIMIT))
            .await?;
        Ok(ClinicalRows {
            device_logs: response.take(1)?,
            presence: response.take(2)?,
            alarms: response.take(3)?,
            analyses: response.take(4)?,
            turns: response.take(5)?,
        })
    }
}
