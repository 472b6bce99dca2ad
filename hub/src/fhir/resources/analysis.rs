//! An analysis's key figures as FHIR `Observation`s, one per figure, with its unit (UCUM) and code:
//! the pressures in mmHg, shares in %, areas in cm², durations in s. The figures are the engine's
//! stored result (`domain::analysis_format::stored_result`); a record without one (a client's
//! own analysis, or frames the engine could not analyse) has none. Pure.

use mat_core::analysis::units::at_full_scale;
use mat_core::analysis::{AnalysisResult, NamedParameter};
use mat_protocol::device_type::DeviceType;
use mat_protocol::scale::{units_per_cell, units_to_mmhg};
use serde_json::{Value, json};
use storage::repo::AnalysisRow;

use super::{Entry, reference};
use crate::domain::analysis_format::{default_device_type, stored_result};
use crate::fhir::codes::{self, Code};
use crate::fhir::search::Keys;
use crate::fhir::time;

/// A figure: its code and value as a UCUM quantity.
type Figure = (Code, Value);

fn percent(v: f64) -> Value {
    codes::quantity(codes::round1(v), "%", "%")
}

fn cm2(v: f64) -> Value {
    codes::quantity(codes::round1(v), "cm²", "cm2")
}

fn seconds(v: f64) -> Value {
    codes::quantity(codes::round1(v), "s", "s")
}

fn cm(v: f64) -> Value {
    codes::quantity(codes::round1(v), "cm", "cm")
}

/// The key figures of a result from a device of `device_type`.
pub fn key_figures(result: &AnalysisResult, device_type: DeviceType) -> Vec<Figure> {
    // A weighed patient's static capture reads through the calibration stored with it (spec §9),
    // as the browser and the PDF read it; everything else through the device's scale.
    let mmhg_per_step = result.weight_calibration().map_or_else(|| units_to_mmhg(units_per_cell(device_type)), |c| c.mmhg_per_step());
    let cell_mmhg = |cells: f64| codes::mmhg(cells * mmhg_per_step);
    match result {
        AnalysisResult::Static(r) => vec![
            (codes::PEAK_PRESSURE, codes::reading(cell_mmhg(f64::from(r.max_pressure)), at_full_scale(device_type, r.max_pressure))),
            (codes::MEAN_PRESSURE, cell_mmhg(r.avg_pressure)),
            (codes::LEFT_FOOT_LOAD, percent(r.left_percentage)),
            (codes::RIGHT_FOOT_LOAD, percent(r.right_percentage)),
            (codes::LEFT_FOOT_AREA, cm2(r.left_global_surface)),
            (codes::RIGHT_FOOT_AREA, cm2(r.right_global_surface)),
        ],
        AnalysisResult::SeatingStatic(r) => vec![
            (codes::PEAK_PRESSURE, codes::reading(codes::mmhg(r.max_pressure_mmhg), r.max_at_full_scale)),
            (codes::MEAN_PRESSURE, codes::mmhg(r.mean_pressure_mmhg)),
            (codes::PEAK_PRESSURE_INDEX, codes::mmhg(r.peak_pressure_index_mmhg)),
            (codes::DISPERSION_INDEX, percent(r.dispersion_index)),
            (codes::LEFT_LOAD, percent(r.left_load_percent)),
            (codes::RIGHT_LOAD, percent(r.right_load_percent)),
            (codes::CONTACT_AREA, cm2(r.contact_area_cm2)),
        ],
        AnalysisResult::BedStatic(r) => {
            vec![
                (codes::PEAK_PRESSURE, codes::reading(codes::mmhg(r.max_pressure_mmhg), r.max_at_full_scale)),
                (codes::MEAN_PRESSURE, codes::mmhg(r.mean_pressure_mmhg)),
            ]
        }
        AnalysisResult::Dynamic(r) => vec![
            (codes::DURATION, seconds(r.duration_s)),
            (codes::LEFT_FOOT_STEPS, codes::quantity(r.left.stances.len() as f64, "steps", "{steps}")),
            (codes::RIGHT_FOOT_STEPS, codes::quantity(r.right.stances.len() as f64, "steps", "{steps}")),
        ],
        AnalysisResult::Balance(r) => vec![
            (codes::DURATION, seconds(r.duration_s)),
            (codes::SWAY_PATH, cm(r.sway_path_length_cm)),
            (codes::SWAY_VELOCITY, codes::quantity(codes::round1(r.mean_velocity_cm_s), "cm/s", "cm/s")),
            (codes::SWAY_AREA, cm2(r.confidence_ellipse_area_cm2)),
        ],
        AnalysisResult::SeatingDynamic(r) => {
            let dispersion = r.dispersion_index_on(device_type).map(|d| (codes::DISPERSION_INDEX, percent(d)));
            std::iter::once((codes::DURATION, seconds(r.duration_s))).chain(dispersion).collect()
        }
        AnalysisResult::Fitting(r) | AnalysisResult::Rehab(r) => vec![(codes::CENTRE_DISTANCE, cm(r.distance_cm))],
    }
}

/// The Observations of an analysis's key figures; `device_type` is its device's, when the hub
/// still knows it.
pub fn analysis_observations(row: &AnalysisRow, device_type: Option<DeviceType>) -> Vec<Entry> {
    let parameters: Vec<NamedParameter> = serde_json::from_str(&row.additional_parameters).unwrap_or_default();
    let Some(result) = stored_result(&parameters) else { return Vec::new() };
    let device_type = device_type.unwrap_or_else(|| default_device_type(result.kind()));
    key_figures(&result, device_type)
        .into_iter()
        .map(|(code, value)| {
            let id = format!("analysis-{}-{}", row.id, code.code);
            let mut resource = json!({
                "resourceType": "Observation",
                "id": id,
                "status": "final",
                "category": [codes::EXAM.concept()],
                "code": code.concept(),
                "subject": reference("Patient", &row.patient_id, None),
                "effectiveDateTime": time::instant(row.creation_date),
                "valueQuantity": value,
                "note": [{ "text": format!("{} analysis {}", row.analysis_type, row.id) }],
            });
            if let Some(device) = &row.device {
                resource["device"] = reference("Device", device, None);
            }
            let keys = Keys {
                id,
                patient: Some(row.patient_id.clone()),
                device: row.device.clone(),
                date: Some(row.creation_date),
                codes: vec![code.pair()],
                categories: vec![codes::EXAM.pair()],
            };
            Entry { resource, keys }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use actors::actor::record::CaptureRecord;
    use mat_core::analysis::AnalysisParams;
    use mat_core::machine::capture::{CaptureKind, CapturedFrame};

    use super::*;
    use crate::domain::analysis_format::capture_analysis;

    /// A capture of two feet standing on a 48 × 48 plate, stored as the hub stores it.
    fn stored_capture(kind: CaptureKind, frames: u32) -> AnalysisRow {
        stored_feet(kind, frames, 120)
    }

    /// [`stored_capture`] with every loaded cell at `level` steps.
    fn stored_feet(kind: CaptureKind, frames: u32, level: u16) -> AnalysisRow {
        let mut cells = vec![0u16; 48 * 48];
        for r in 10..30 {
            for c in (12..18).chain(30..36) {
                cells[r * 48 + c] = level;
            }
        }
        let capture = CaptureRecord {
            device_id: Arc::from("plate"),
            patient_id: "p1".into(),
            user_id: "u1".into(),
            kind,
            requested_at_ms: 1_795_725_255_000,
            seconds: 5,
            frames: (0..frames).map(|i| CapturedFrame { offset_ms: i * 100, rows: 48, cols: 48, cells: cells.clone() }).collect(),
            dropped_frames: 0,
        };
        let new = capture_analysis(Some(DeviceType::PodologyIoT), &capture, &AnalysisParams::default());
        AnalysisRow {
            id: "a1".into(),
            patient_id: new.patient_id,
            device: Some("plate".into()),
            analysis_type: new.analysis_type,
            creation_date: new.creation_date,
            additional_parameters: new.additional_parameters,
        }
    }

    #[test]
    fn a_static_capture_gives_its_key_figures_with_units() {
        let out = analysis_observations(&stored_capture(CaptureKind::Static, 1), Some(DeviceType::PodologyIoT));
        let figure = |code: &str| {
            out.iter().find(|e| e.resource["code"]["coding"][0]["code"] == code).unwrap_or_else(|| panic!("{code}")).resource.clone()
        };
        let peak = figure("peak-interface-pressure");
        assert_eq!(peak["valueQuantity"]["code"], "mm[Hg]");
        assert_eq!(peak["valueQuantity"]["value"], 900.1, "120 steps of the plate's documented 1 kPa: 120 × 7.50062 mmHg");
        assert_eq!(figure("left-foot-load")["valueQuantity"], json!({ "value": 50.0, "unit": "%", "system": codes::UCUM, "code": "%" }));
        assert_eq!(figure("left-foot-contact-area")["valueQuantity"]["code"], "cm2");
        assert_eq!(peak["subject"]["reference"], "Patient/p1");
        assert_eq!(peak["effectiveDateTime"], "2026-11-26T20:34:15Z");
        assert!(out.iter().all(|e| e.keys.id.starts_with("analysis-a1-") && e.keys.id.len() <= 64));
    }

    /// A peak at the sensor's full scale is "that or more": FHIR's `comparator` says so; a peak
    /// below it and the mean carry none.
    #[test]
    fn a_saturated_peak_carries_the_at_least_comparator() {
        let peak_of = |row: &AnalysisRow| {
            let out = analysis_observations(row, Some(DeviceType::PodologyIoT));
            let value = |code: &str| {
                out.iter().find(|e| e.resource["code"]["coding"][0]["code"] == code).unwrap().resource["valueQuantity"].clone()
            };
            (value("peak-interface-pressure"), value("mean-interface-pressure"))
        };
        let (peak, mean) = peak_of(&stored_feet(CaptureKind::Static, 1, 255));
        assert_eq!(peak["comparator"], ">=", "{peak}");
        assert!(mean.get("comparator").is_none(), "{mean}");
        let (peak, _) = peak_of(&stored_feet(CaptureKind::Static, 1, 254));
        assert!(peak.get("comparator").is_none(), "{peak}");
    }

    /// A bed's pressure over time has no dispersion index to give (no ischial windows lying down).
    #[test]
    fn a_bed_s_dynamic_capture_gives_no_dispersion_index() {
        use mat_core::analysis::frame::{Capture, PressureFrame};
        use mat_core::analysis::{AnalysisKind, analyse};
        let result_of = |device: DeviceType, rows: u16, cols: u16| {
            let mut capture = Capture::new(device, rows, cols);
            let cells = vec![40u16; usize::from(rows) * usize::from(cols)];
            for i in 0..3 {
                capture.push(i * 500, PressureFrame::new(rows, cols, cells.clone()).unwrap()).unwrap();
            }
            analyse(AnalysisKind::SeatingDynamic, &capture, &AnalysisParams::default()).unwrap()
        };
        let codes_of = |result: &AnalysisResult, device: DeviceType| {
            key_figures(result, device).into_iter().map(|(code, _)| code.code).collect::<Vec<_>>()
        };
        assert_eq!(codes_of(&result_of(DeviceType::MattressMatIoT, 48, 48), DeviceType::MattressMatIoT), ["capture-duration"]);
        let seat = result_of(DeviceType::SeatingMatIoT, 16, 16);
        assert_eq!(codes_of(&seat, DeviceType::SeatingMatIoT), ["capture-duration", "dispersion-index"]);
        // A bed's record stored before beds were read lying carries a dispersion index: none is given.
        assert_eq!(codes_of(&seat, DeviceType::MattressMatIoT), ["capture-duration"]);
    }

    /// A seat's and a bed's peaks read the engine's flag.
    #[test]
    fn a_seat_s_and_a_bed_s_saturated_peak_carry_the_comparator() {
        use mat_core::analysis::bed_static::bed_static;
        use mat_core::analysis::frame::PressureFrame;
        use mat_core::analysis::seating_static::seating_static;
        let mut seat = vec![0u16; 16 * 16];
        seat[10 * 16 + 10] = 255;
        seat[10 * 16 + 5] = 100;
        let seat = PressureFrame::new(16, 16, seat).unwrap();
        let result = AnalysisResult::SeatingStatic(Box::new(seating_static(&seat, DeviceType::SeatingMatIoT, None)));
        let figures = key_figures(&result, DeviceType::SeatingMatIoT);
        assert_eq!(figures[0].1["comparator"], ">=");
        assert!(figures[1..].iter().all(|(_, v)| v.get("comparator").is_none()));
        for (hips, comparator) in [(255, Some(">=")), (254, None)] {
            let mut bed = vec![0u16; 48 * 48];
            bed[20 * 48 + 20] = hips;
            let result = AnalysisResult::BedStatic(Box::new(bed_static(
                &PressureFrame::new(48, 48, bed).unwrap(),
                DeviceType::MattressMatIoT,
                None,
                None,
            )));
            assert_eq!(key_figures(&result, DeviceType::MattressMatIoT)[0].1["comparator"].as_str(), comparator, "{hips} steps");
        }
    }

    #[test]
    fn a_balance_capture_gives_its_sway_and_a_record_without_results_none() {
        let out = analysis_observations(&stored_capture(CaptureKind::Balance, 10), None);
        let codes: Vec<String> = out.iter().map(|e| e.keys.codes[0].1.clone()).collect();
        assert_eq!(codes, ["capture-duration", "sway-path-length", "sway-mean-velocity", "sway-ellipse-area"]);
        let mut posted = stored_capture(CaptureKind::Static, 1);
        posted.additional_parameters = "[]".into();
        assert!(analysis_observations(&posted, None).is_empty());
    }
}
