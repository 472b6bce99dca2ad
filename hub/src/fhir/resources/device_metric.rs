//! A device's measuring channel as a FHIR `DeviceMetric`: a mat's pressure map in mmHg with the
//! calibration `mat_protocol::scale` owns (each cell step's pressure) and its tare, a force mat's
//! or room-set sensor's raw reading; its operational status from the device's status. Parents
//! that send nothing themselves (room sets, the horse) have none. Pure.

use mat_protocol::scale::{pressure_units_per_cell, units_to_mmhg};
use serde_json::json;

use super::{DeviceView, Entry, reference};
use crate::fhir::codes;
use crate::fhir::search::Keys;

/// The id of a device's channel.
pub fn metric_id(device_id: &str) -> String {
    format!("{device_id}-channel")
}

/// The `DeviceMetric` of the device's channel, if it has one.
pub fn device_metric(view: &DeviceView) -> Option<Entry> {
    let device_type = view.device_type?;
    device_type.frame_shape()?;
    let id = metric_id(&view.device.id);
    let mut resource = json!({
        "resourceType": "DeviceMetric",
        "id": id,
        "source": reference("Device", &view.device.id, Some(&view.device.name)),
        "operationalStatus": if view.functional { "on" } else { "off" },
        "category": "measurement",
    });
    match pressure_units_per_cell(device_type) {
        Some(units) => {
            resource["type"] = codes::PRESSURE_CHANNEL.concept();
            resource["unit"] = json!({ "coding": [{ "system": codes::UCUM, "code": "mm[Hg]", "display": "mmHg" }], "text": "mmHg" });
            // The cell step's pressure is the gain (one owner: mat_protocol::scale); the tare,
            // the empty mat's idle level subtracted from every frame, is the offset.
            let step_mmhg = (units_to_mmhg(units) * 10_000.0).round() / 10_000.0;
            resource["extension"] =
                json!([codes::extension("cell-step-pressure", "valueQuantity", codes::quantity(step_mmhg, "mmHg", "mm[Hg]"))]);
            resource["calibration"] = json!([
                { "type": "gain", "state": "calibrated" },
                { "type": "offset", "state": if view.tared { "calibrated" } else { "not-calibrated" } },
            ]);
        }
        None => {
            resource["type"] = codes::READING_CHANNEL.concept();
            resource["unit"] =
                json!({ "coding": [{ "system": codes::UCUM, "code": "{reading}", "display": "reading" }], "text": "reading (0-4095)" });
            resource["calibration"] = json!([{ "type": "unspecified", "state": "not-calibrated" }]);
        }
    }
    Some(Entry { resource, keys: Keys { id, device: Some(view.device.id.clone()), ..Keys::default() } })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fhir::resources::tests::device_view;

    #[test]
    fn a_bed_mat_channel_is_in_mmhg_with_its_step_and_tare() {
        let mut view = device_view("d1", "Mattress Mat IoT");
        view.functional = true;
        view.tared = true;
        let r = device_metric(&view).unwrap().resource;
        assert_eq!(r["id"], "d1-channel");
        assert_eq!(r["operationalStatus"], "on");
        assert_eq!(r["unit"]["coding"][0]["code"], "mm[Hg]");
        assert_eq!(r["extension"][0]["valueQuantity"]["value"], 0.4, "bed mats: 0.4 mmHg a step");
        assert_eq!(r["calibration"][1], json!({ "type": "offset", "state": "calibrated" }));
    }

    #[test]
    fn a_plate_channel_reads_its_documented_step_and_force_channels_are_raw() {
        let podology = device_metric(&device_view("d2", "Podology IoT")).unwrap().resource;
        assert_eq!(podology["extension"][0]["valueQuantity"]["value"], 7.5006, "plates: 1 kPa a step, in mmHg");
        assert_eq!(podology["operationalStatus"], "off");
        assert_eq!(podology["calibration"][1]["state"], "not-calibrated");
        let force = device_metric(&device_view("d3", "Force Mat")).unwrap().resource;
        assert_eq!(force["unit"]["coding"][0]["code"], "{reading}");
        assert!(force.get("extension").is_none());
        assert!(device_metric(&device_view("d4", "Room Set")).is_none(), "a room set sends nothing itself");
    }
}
