//! Rows as the repositories return them. Ids are the key part of the record id (`device:⟨key⟩`).

use surrealdb::types::SurrealValue;

// The checked values of the REST bodies are stored as they are: their types are owned by the API
// crate (with its `surreal` feature for the database's derive), re-exported here for the repositories.
pub use mat_api::company::CompanyBranding;
pub use mat_api::device::DeviceSettings;
pub use mat_api::layout::LayoutSettings;
pub use mat_api::patient::PatientFields;

/// A company.
#[derive(Debug, Clone, PartialEq, SurrealValue)]
pub struct Company {
    pub id: String,
    pub company_name: String,
    pub address: String,
    pub logo: Option<String>,
    pub page_color: String,
    pub layout_number: i64,
    pub variants: CompanyVariants,
}

/// A company's variants (spec §1, §6): settings of the company, all off by default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, SurrealValue)]
pub struct CompanyVariants {
    /// Hide the global centre-of-pressure marker and value.
    pub hide_centre_of_pressure: bool,
    /// Pressures × 0.06 shown in kPa, and the 24 h static analysis button.
    pub fitness: bool,
    /// 'Sit' instead of the bed label, and no company line on device cards.
    pub seating_labels: bool,
}

/// The ward board's settings of a company (issue 23), set by its administrators.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, SurrealValue)]
pub struct WardSettings {
    /// Patients are named by their initials on the board ("A. M. L."), not in full.
    pub patient_initials: bool,
}

/// What login needs about a user.
#[derive(Debug, Clone, PartialEq, SurrealValue)]
pub struct UserCredentials {
    pub id: String,
    pub email: String,
    pub password_hash: String,
    pub role: i64,
    pub company_id: String,
}

/// A user without secrets.
#[derive(Debug, Clone, PartialEq, SurrealValue)]
pub struct User {
    pub id: String,
    pub email: String,
    pub role: i64,
    pub company_id: String,
}

/// A device (spec §3) joined with what the hub needs to run it.
#[derive(Debug, Clone, PartialEq, SurrealValue)]
pub struct Device {
    pub id: String,
    pub name: String,
    pub bed: String,
    pub room: String,
    pub building: String,
    pub floor: String,
    pub health_system: String,
    pub device_type: String,
    pub hardware_serial: String,
    pub company_id: String,
    /// The id of the patient at the bedside (beds, seats, room sets), if one is assigned.
    pub current_patient: Option<String>,
    /// That patient's name.
    pub current_patient_name: Option<String>,
    pub number_of_subdevices: i64,
    pub parent_id: Option<String>,
    pub member_index: Option<i64>,
    pub member_ids: Vec<String>,
    pub secret_hash: String,
}

/// What creating a device takes.
#[derive(Debug, Clone, PartialEq, Default, SurrealValue)]
pub struct NewDevice {
    pub name: String,
    pub bed: String,
    pub room: String,
    pub building: String,
    pub floor: String,
    pub health_system: String,
    pub device_type: String,
    pub hardware_serial: String,
    pub company_id: String,
    pub number_of_subdevices: i64,
    /// SHA-256 of the device secret (see `device_secret`); empty for parents that never connect.
    pub secret_hash: String,
}

/// A device configuration (spec §3).
#[derive(Debug, Clone, PartialEq, SurrealValue)]
pub struct DeviceConf {
    pub device_id: String,
    pub company_id: String,
    pub device_functional: bool,
    pub patient_status: String,
    pub image_saved: bool,
    /// When the device's live stream ends, Unix ms (none when it is not streaming).
    pub streaming_end_ms: Option<i64>,
    /// The repositioning interval set for the device, minutes (none: the default).
    pub repositioning_minutes: Option<i64>,
    /// The mat's tare as JSON (`mat_core::machine::tare::Tare`; none until one is set).
    pub tare_json: Option<String>,
}

/// A status change to persist.
#[derive(Debug, Clone, PartialEq)]
pub struct StatusUpdate {
    pub device_id: String,
    pub device_functional: bool,
    pub patient_status: String,
}

/// A patient (spec §3): its id, company and registration time, and its fields.
#[derive(Debug, Clone, PartialEq, SurrealValue)]
pub struct Patient {
    pub id: String,
    pub company_id: String,
    pub created_at: i64,
    pub fields: PatientFields,
}

/// An analysis record (spec §3). `map_preview` and `additional_parameters` are JSON text.
#[derive(Debug, Clone, PartialEq, SurrealValue)]
pub struct Analysis {
    pub id: String,
    pub company_id: String,
    pub patient_id: String,
    pub user_id: String,
    pub device: Option<String>,
    pub analysis_type: String,
    pub creation_date: i64,
    pub notes: String,
    pub map_preview: String,
    pub additional_parameters: String,
    pub size_bytes: i64,
}

/// What storing an analysis takes (in the company of the `CompanyStore` that stores it).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NewAnalysis {
    pub patient_id: String,
    pub user_id: String,
    pub device: Option<String>,
    pub analysis_type: String,
    pub creation_date: i64,
    pub notes: String,
    pub map_preview: String,
    pub additional_parameters: String,
}

/// Which analyses a history page shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AnalysisFilter {
    /// Only this patient's.
    pub patient_id: Option<String>,
    /// Only this type (`Static`, `Dynamic`, …).
    pub analysis_type: Option<String>,
    /// Only those made on this device (a device page's history).
    pub device_id: Option<String>,
}

/// How many analyses match a filter and how much they weigh.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct AnalysisTotals {
    pub count: u64,
    pub bytes: u64,
}

/// An alarm log entry (spec §3).
#[derive(Debug, Clone, PartialEq, SurrealValue)]
pub struct AlarmLog {
    pub id: String,
    pub device_id: String,
    pub kind: String,
    pub creation_date: i64,
    pub has_been_attended: bool,
    pub attended_time: Option<i64>,
    /// The e-mail of the account that attended it (accounts have no other name); `None` while
    /// unattended, for alarms attended before it was recorded, or once the account is gone.
    pub attended_by: Option<String>,
    /// An Ulcer Risk alarm's reason as JSON (`{region, loadedSeconds, offloadSeconds,
    /// intervalSeconds}`); `None` for Missing.
    pub reason_json: Option<String>,
}

/// A turn a nurse recorded (issue 23). Times in Unix ms.
#[derive(Debug, Clone, PartialEq, SurrealValue)]
pub struct TurnLog {
    pub device_id: String,
    /// When the patient was turned.
    pub at_ms: i64,
    /// When it was recorded.
    pub recorded_at_ms: i64,
    /// The new position (a posture's name), when given.
    pub position: Option<String>,
    /// Who recorded it: the account's e-mail (`None` once the account is gone); a user id when
    /// written.
    pub by: Option<String>,
    /// The repositioning tier before the turn (`ok`, `dueSoon`, `due`, `overdue`).
    pub tier_before: String,
    /// The longest load episode before the turn, ms.
    pub loaded_ms: i64,
    /// The repositioning interval then, ms.
    pub interval_ms: i64,
    /// The repositioning clock detected the turn (no one recorded it; `by` is then `None`).
    pub detected: bool,
}

/// A device log entry (spec §3). `pressure_map` is JSON text of a 2-D grid.
#[derive(Debug, Clone, PartialEq, SurrealValue)]
pub struct DeviceLog {
    pub device_id: String,
    pub creation_date: i64,
    pub max_pressure: i64,
    pub position: String,
    pub posture: String,
    pub confidence: f64,
    pub pressure_map: String,
}

/// A presence log entry: `log_id` '1' entrance, '0' exit.
#[derive(Debug, Clone, PartialEq, SurrealValue)]
pub struct PresenceLog {
    pub device_id: String,
    pub creation_date: i64,
    pub log_id: String,
}

/// An administrative action to record in the audit log. `company_id` is the company whose data
/// changed; the company of the user who acted is that of the `CompanyStore` recording it. `summary` is a short,
/// human-readable description of the change; it never holds a secret or a password hash.
#[derive(Debug, Clone, PartialEq, Default, SurrealValue)]
pub struct NewAuditEntry {
    pub company_id: String,
    pub actor_user_id: String,
    pub actor_email: String,
    /// What was done, `entity.verb` (for example `device.rotateSecret`).
    pub action: String,
    /// `company`, `user`, `device`.
    pub entity_type: String,
    pub entity_id: String,
    pub summary: String,
}

/// An audit log entry as read back.
#[derive(Debug, Clone, PartialEq, SurrealValue)]
pub struct AuditEntry {
    pub id: String,
    pub company_id: String,
    pub actor_user_id: String,
    pub actor_email: String,
    pub action: String,
    pub entity_type: String,
    pub entity_id: String,
    pub summary: String,
    /// Unix milliseconds.
    pub created_at_ms: i64,
}

/// One page of the audit log, newest first, and how many entries there are in all.
#[derive(Debug, Clone, PartialEq)]
pub struct AuditPage {
    pub entries: Vec<AuditEntry>,
    pub total: u64,
}
