//! The hub's records as FHIR R4 resources, one file per resource type; each resource comes with
//! the [`Keys`] a search tests. Pure: the records are read by `super::source`.

pub mod analysis;
pub mod communication;
pub mod device;
pub mod device_metric;
pub mod observation;
pub mod patient;
pub mod recorded_turn;

use std::collections::HashMap;

use mat_protocol::device_type::DeviceType;
use serde_json::{Value, json};
use storage::model::{Device, Patient};
use storage::repo::ClinicalRows;

use super::search::{Keys, ResourceType};

/// A resource and what a search tests of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub resource: Value,
    pub keys: Keys,
}

/// A device with what its resources say of its state.
#[derive(Debug, Clone, PartialEq)]
pub struct DeviceView {
    pub device: Device,
    /// Its type, when the hub knows the stored name.
    pub device_type: Option<DeviceType>,
    /// Whether it is functional (its live status, else the stored one).
    pub functional: bool,
    /// Whether its tare (the empty mat's idle level) is set.
    pub tared: bool,
}

/// What a request reads of a company (only what its resource type needs is filled).
#[derive(Debug, Clone, Default)]
pub struct Records {
    pub patients: Vec<Patient>,
    pub devices: Vec<DeviceView>,
    pub rows: ClinicalRows,
}

/// A `Reference` to `Type/id`, with a display when one is given.
pub fn reference(resource_type: &str, id: &str, display: Option<&str>) -> Value {
    let mut value = json!({ "reference": format!("{resource_type}/{id}") });
    if let Some(display) = display.filter(|d| !d.is_empty()) {
        value["display"] = json!(display);
    }
    value
}

/// Every resource of a type the records hold, in the searchset's order: patients, devices and
/// channels by id; observations and alarms by date, then id.
pub fn entries(resource_type: ResourceType, records: &Records) -> Vec<Entry> {
    let mut entries: Vec<Entry> = match resource_type {
        ResourceType::Patient => records.patients.iter().map(patient::patient).collect(),
        ResourceType::Device => records.devices.iter().map(device::device).collect(),
        ResourceType::DeviceMetric => records.devices.iter().filter_map(device_metric::device_metric).collect(),
        ResourceType::Observation => {
            let devices: HashMap<String, DeviceView> = records.devices.iter().map(|d| (d.device.id.clone(), d.clone())).collect();
            let mut all = observation::device_log_observations(&records.rows.device_logs, &devices);
            all.extend(records.rows.presence.iter().map(observation::presence_observation));
            all.extend(records.rows.alarms.iter().map(observation::alarm_observation));
            all.extend(records.rows.turns.iter().map(recorded_turn::recorded_turn_observation));
            for row in &records.rows.analyses {
                let device_type = row.device.as_ref().and_then(|id| devices.get(id)).and_then(|d| d.device_type);
                all.extend(analysis::analysis_observations(row, device_type));
            }
            all
        }
        ResourceType::Communication => records.rows.alarms.iter().map(communication::communication).collect(),
    };
    entries.sort_by(|a, b| (a.keys.date, &a.keys.id).cmp(&(b.keys.date, &b.keys.id)));
    entries
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A registered device of this type with nothing set.
    pub fn device_view(id: &str, device_type: &str) -> DeviceView {
        DeviceView {
            device: Device {
                id: id.into(),
                name: format!("{device_type} {id}"),
                bed: String::new(),
                room: String::new(),
                building: String::new(),
                floor: String::new(),
                health_system: String::new(),
                device_type: device_type.into(),
                hardware_serial: format!("SN-{id}"),
                company_id: "c1".into(),
                current_patient: None,
                current_patient_name: None,
                number_of_subdevices: 0,
                parent_id: None,
                member_index: None,
                member_ids: Vec::new(),
                secret_hash: String::new(),
            },
            device_type: DeviceType::from_name(device_type),
            functional: false,
            tared: false,
        }
    }
}
