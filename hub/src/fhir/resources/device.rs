//! A mat as a FHIR `Device`: its type, serial, name, location, the patient at its bedside and its
//! parent (a room set's members, a saddle's sides). Pure.

use mat_protocol::device_type::LocationKind;
use serde_json::json;

use super::{DeviceView, Entry, reference};
use crate::fhir::codes;
use crate::fhir::search::Keys;

/// Where the device is, as one line: building, floor, room and its place (bed, seat, floor…).
pub fn location_line(view: &DeviceView) -> Option<String> {
    let d = &view.device;
    let place = view.device_type.map_or("place", |t| match t.location() {
        LocationKind::Bed => "bed",
        LocationKind::Seat => "seat",
        LocationKind::Floor => "floor mat",
        LocationKind::Saddle => "saddle",
        LocationKind::Plate => "plate",
        LocationKind::Mat => "mat",
        LocationKind::Room => "room set",
    });
    let parts: Vec<String> =
        [("building", d.building.as_str()), ("floor", d.floor.as_str()), ("room", d.room.as_str()), (place, d.bed.as_str())]
            .into_iter()
            .filter(|(_, value)| !value.trim().is_empty())
            .map(|(label, value)| format!("{label} {}", value.trim()))
            .collect();
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// The `Device`.
pub fn device(view: &DeviceView) -> Entry {
    let d = &view.device;
    let mut resource = json!({
        "resourceType": "Device",
        "id": d.id,
        "identifier": [{ "system": codes::SERIAL, "value": d.hardware_serial }],
        "status": "active",
        "serialNumber": d.hardware_serial,
        "deviceName": [{ "name": d.name, "type": "user-friendly-name" }],
        "type": codes::device_type(&d.device_type),
    });
    if let Some(line) = location_line(view) {
        resource["location"] = json!({ "display": line });
    }
    if let Some(patient) = &d.current_patient {
        resource["patient"] = reference("Patient", patient, d.current_patient_name.as_deref());
    }
    if let Some(parent) = &d.parent_id {
        resource["parent"] = reference("Device", parent, None);
    }
    Entry { resource, keys: Keys { id: d.id.clone(), patient: d.current_patient.clone(), device: Some(d.id.clone()), ..Keys::default() } }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fhir::resources::tests::device_view;

    #[test]
    fn a_bed_names_its_place_patient_and_parent() {
        let mut view = device_view("d1", "Mattress Mat IoT");
        view.device.room = "12".into();
        view.device.bed = "3".into();
        view.device.floor = "2".into();
        view.device.current_patient = Some("p1".into());
        view.device.current_patient_name = Some("Ana Ruiz".into());
        view.device.parent_id = Some("set1".into());
        let r = device(&view).resource;
        assert_eq!(r["location"]["display"], "floor 2, room 12, bed 3");
        assert_eq!(r["patient"], json!({ "reference": "Patient/p1", "display": "Ana Ruiz" }));
        assert_eq!(r["parent"], json!({ "reference": "Device/set1" }));
        assert_eq!(r["serialNumber"], view.device.hardware_serial);
    }

    #[test]
    fn a_device_without_a_place_has_no_location() {
        let view = device_view("d2", "Podology IoT");
        let r = device(&view).resource;
        assert!(r.get("location").is_none() && r.get("parent").is_none() && r.get("patient").is_none());
    }
}
