//! Rows as the repositories return them. Ids are the key part of the record id (`device:⟨key⟩`).

use surrealdb::types::SurrealValue;

/// A company.
#[derive(Debug, Clone, PartialEq, SurrealValue)]
pub struct Company {
    pub id: String,
    pub company_name: String,
    pub address: String,
    pub logo: Option<String>,
    pub page_color: String,
    pub layout_number: i64,
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
    pub current_patient: Option<String>,
    pub number_of_subdevices: i64,
    pub parent_id: Option<String>,
    pub member_index: Option<i64>,
    pub member_ids: Vec<String>,
    pub secret_hash: String,
}

/// What creating a device takes.
#[derive(Debug, Clone, PartialEq, Default)]
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
}

/// A status change to persist.
#[derive(Debug, Clone, PartialEq)]
pub struct StatusUpdate {
    pub device_id: String,
    pub device_functional: bool,
    pub patient_status: String,
}
