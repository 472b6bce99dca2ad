//! Snapshot tests: analyses of captures rendered by the simulator's scenarios (standing feet on
//! a podology plate, a seated person on a seating mat), summarised to two decimals and compared
//! with `tests/snapshots/simulator.json`. A change in any analysis shows up here as a diff; after
//! checking that the new numbers are right, regenerate with
//! `UPDATE_SNAPSHOTS=1 cargo test -p reports --test simulator_snapshots`.
#![allow(clippy::unwrap_used)]

use std::time::Duration;

use mat_core::analysis::{AnalysisKind, AnalysisParams, AnalysisResult, Capture, analyse};
use mat_core::machine::pressure_map::PressureMap;
use mat_protocol::CellFormat;
use mat_protocol::device_type::DeviceType;
use serde_json::{Value, json};
use simulator::{MapSynth, Scenario};

const SNAPSHOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/snapshots/simulator.json");

/// `seconds` of `scenario` from `start_s` at `hz`, rendered with a fixed noise seed.
fn simulated(device: DeviceType, scenario: &str, start_s: f64, seconds: f64, hz: f64) -> Capture {
    let (rows, cols, _) = device.frame_shape().unwrap();
    let mut synth = MapSynth::new(rows, cols, CellFormat::U8, Scenario::from_name(scenario).unwrap(), 7);
    let mut capture = Capture::new(device, rows, cols);
    for i in 0..(seconds * hz) as u64 {
        let t = start_s + i as f64 / hz;
        let cells = synth.render(Duration::from_secs_f64(t));
        let map = PressureMap::new(rows, cols, CellFormat::U8, &cells).unwrap();
        capture.push_map((t * 1000.0).round() as u64, &map).unwrap();
    }
    capture
}

fn r2(v: f64) -> Value {
    json!(format!("{v:.2}"))
}

fn point(p: Option<[f64; 2]>) -> Value {
    p.map_or(Value::Null, |[x, y]| json!([r2(x), r2(y)]))
}

fn summaries() -> Value {
    let params = AnalysisParams::default();
    // Standing still from 20 s (the feet script stands from 12 s to 72 s).
    let standing = simulated(DeviceType::PodologyIoT, "feet", 20.0, 5.0, 10.0);
    let AnalysisResult::Static(st) = analyse(AnalysisKind::Static, &standing, &params).unwrap() else { panic!() };
    let AnalysisResult::Balance(b) = analyse(AnalysisKind::Balance, &standing, &params).unwrap() else { panic!() };
    // Seated from 30 s; then across the stand-up at 107 s and the empty seat after it.
    let seated = simulated(DeviceType::SeatingMatIoT, "seated", 30.0, 30.0, 5.0);
    let AnalysisResult::SeatingDynamic(s) = analyse(AnalysisKind::SeatingDynamic, &seated, &params).unwrap() else { panic!() };
    let leaving = simulated(DeviceType::SeatingMatIoT, "seated", 95.0, 20.0, 5.0);
    let AnalysisResult::SeatingDynamic(l) = analyse(AnalysisKind::SeatingDynamic, &leaving, &params).unwrap() else { panic!() };
    let AnalysisResult::Rehab(rehab) = analyse(AnalysisKind::Rehab, &standing, &params).unwrap() else { panic!() };
    json!({
        "static_feet": {
            "feetSeparated": st.feet_separated,
            "leftPercentage": r2(st.left_percentage),
            "rightPercentage": r2(st.right_percentage),
            "LeftFrontPressureDistribution": r2(st.left_front_pressure_distribution),
            "RightBackPressureDistribution": r2(st.right_back_pressure_distribution),
            "LeftCenterOfPressure": point(st.left_center_of_pressure),
            "RightCenterOfPressure": point(st.right_center_of_pressure),
            "activePointsTotal": st.active_points_total,
            "maxPressure": st.max_pressure,
            "medianPressure": r2(st.median_pressure),
            "footprintEdgeWarning": st.footprint_edge_warning,
            "histogram": st.histogram.counts,
        },
        "balance_feet": {
            "frames": b.body_scatter.len(),
            "swayPathLengthCm": r2(b.sway_path_length_cm),
            "meanVelocityCmS": r2(b.mean_velocity_cm_s),
            "confidenceEllipseAreaCm2": r2(b.confidence_ellipse_area_cm2),
        },
        "rehab_feet": { "distanceCm": r2(rehab.distance_cm), "quality": rehab.quality, "rings": rehab.rings.iter().map(|r| r2(r.share)).collect::<Vec<_>>() },
        "seating_seated": {
            "peakPressureIndex": r2(s.peak_pressure_index),
            "dispersionIndex": s.dispersion_index.map(r2),
            "panels": s.panels.len(),
            "pushUps": s.push_ups.as_ref().map_or(0, Vec::len),
        },
        "seating_leaving": {
            "panels": l.panels.len(),
            "pushUps": l.push_ups.as_ref().map(|p| p.iter().map(|e| json!([r2(e.start_s), r2(e.duration_s)])).collect::<Vec<_>>()),
        },
    })
}

#[test]
fn simulator_captures_match_their_snapshot() {
    let actual = summaries();
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::create_dir_all(std::path::Path::new(SNAPSHOT).parent().unwrap()).unwrap();
        std::fs::write(SNAPSHOT, serde_json::to_string_pretty(&actual).unwrap() + "\n").unwrap();
    }
    let expected: Value = serde_json::from_str(&std::fs::read_to_string(SNAPSHOT).unwrap()).unwrap();
    assert_eq!(actual, expected, "analysis of the simulator captures changed:\n{}", serde_json::to_string_pretty(&actual).unwrap());
}
