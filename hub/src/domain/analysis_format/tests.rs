use std::sync::Arc;

use mat_core::analysis::export::{ExportKind, ExportMetadata, export_raw};
use mat_core::machine::capture::CapturedFrame;
use serde_json::json;

use super::*;

/// Two feet standing still on a 48 × 48 plate.
fn feet() -> Vec<u16> {
    let mut cells = vec![0u16; 48 * 48];
    for r in 10..30 {
        for c in (12..18).chain(30..36) {
            cells[r * 48 + c] = 120;
        }
    }
    cells
}

fn capture(kind: CaptureKind, frames: u32) -> CaptureRecord {
    let cells = feet();
    CaptureRecord {
        device_id: Arc::from("plate"),
        patient_id: "p1".into(),
        user_id: "u1".into(),
        kind,
        requested_at_ms: 1_700_000_000_000,
        seconds: 5,
        frames: (0..frames).map(|i| CapturedFrame { offset_ms: i * 100, rows: 48, cols: 48, cells: cells.clone() }).collect(),
        dropped_frames: 0,
    }
}

/// A written record as storage hands it back.
fn stored(new: NewAnalysis) -> Analysis {
    let size_bytes = (new.map_preview.len() + new.additional_parameters.len()) as i64;
    Analysis {
        id: "a1".into(),
        company_id: "c1".into(),
        patient_id: new.patient_id,
        user_id: new.user_id,
        device: new.device,
        analysis_type: new.analysis_type,
        creation_date: new.creation_date,
        notes: new.notes,
        map_preview: new.map_preview,
        additional_parameters: new.additional_parameters,
        size_bytes,
    }
}

#[test]
fn a_stored_capture_keeps_the_engines_figures_after_the_ordered_parameters() {
    let stored = capture_analysis(Some(DeviceType::PodologyIoT), &capture(CaptureKind::Balance, 10), &AnalysisParams::default());
    let parameters: Vec<NamedParameter> = serde_json::from_str(&stored.additional_parameters).expect("the parameters are JSON");
    let names: Vec<&str> = parameters.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names[names.len() - 2..], [ANALYSIS_RESULT_PARAMETER, FRAME_TIMES_PARAMETER], "{names:?}");
    let ParameterValue::Other(figures) = &parameters[names.len() - 2].value else { panic!("figures as JSON") };
    assert_eq!(figures["analysisType"], "Balance");
    assert!(figures["result"].is_object() && figures["result"].get("additionalParameters").is_none(), "{figures}");
}

#[test]
fn a_capture_of_an_unknown_device_is_kept_raw_with_the_reason() {
    let stored = capture_analysis(None, &capture(CaptureKind::Static, 1), &AnalysisParams::default());
    let parameters: Vec<NamedParameter> = serde_json::from_str(&stored.additional_parameters).expect("the parameters are JSON");
    let names: Vec<&str> = parameters.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, [ANALYSIS_ERROR_PARAMETER, FRAME_TIMES_PARAMETER]);
    assert_eq!(
        preview_frames(&serde_json::from_str(&stored.map_preview).expect("the preview is JSON")).expect("frames"),
        vec![(48, 48, feet())]
    );
}

#[test]
fn a_written_static_capture_reads_back_through_every_reader() {
    let new = capture_analysis(Some(DeviceType::PodologyIoT), &capture(CaptureKind::Static, 1), &AnalysisParams::default());
    assert_eq!((new.analysis_type.as_str(), new.creation_date, new.device.as_deref()), ("Static", 1_700_000_000, Some("plate")));
    let record = stored(new);
    assert_eq!(kind(&record), Some(AnalysisKind::Static));
    // The history's JSON: one map, rows of cells; the parameters as named pairs.
    let preview = preview_json(&record);
    assert_eq!(preview.as_array().map(Vec::len), Some(48), "a static capture is stored as one map");
    assert_eq!(preview[10][12], json!(120));
    assert!(parameters_json(&record).as_array().is_some_and(|list| list.iter().all(|p| p["name"].is_string())));
    // The report's map is that map.
    let map = report_map(&preview, AnalysisKind::Static).expect("a map");
    assert_eq!((map.rows, map.cols, map.cells), (48, 48, feet()));
    // The raw export rebuilds the capture: one frame, dated when the capture was made.
    let parameters = named_parameters(&record);
    let rebuilt = export_capture(&record, &parameters, DeviceType::PodologyIoT).expect("the capture is rebuilt");
    assert_eq!(rebuilt.frames().len(), 1);
    assert_eq!((rebuilt.frames()[0].timestamp_ms, rebuilt.frames()[0].frame.cells()), (1_700_000_000_000, feet().as_slice()));
    let stored_count = parameters.len();
    let series = export_series(parameters);
    assert_eq!(series.len(), stored_count - 2, "the hub's two parameters are left out");
    assert!(series.iter().all(|p| p.name != FRAME_TIMES_PARAMETER && p.name != ANALYSIS_RESULT_PARAMETER));
}

#[test]
fn a_written_capture_of_frames_reads_back_through_every_reader() {
    let new = capture_analysis(Some(DeviceType::PodologyIoT), &capture(CaptureKind::Balance, 10), &AnalysisParams::default());
    let record = stored(new);
    assert_eq!(kind(&record), Some(AnalysisKind::Balance));
    let preview = preview_json(&record);
    let frames = preview_frames(&preview).expect("frames");
    assert_eq!(frames.len(), 10);
    assert!(frames.iter().all(|frame| *frame == (48, 48, feet())));
    let map = report_map(&preview, AnalysisKind::Balance).expect("a map");
    assert_eq!(map.cells, feet(), "the report draws the frames' mean");
    let parameters = named_parameters(&record);
    let rebuilt = export_capture(&record, &parameters, DeviceType::PodologyIoT).expect("the capture is rebuilt");
    let times: Vec<u64> = rebuilt.frames().iter().map(|f| f.timestamp_ms).collect();
    let start = u64::try_from(record.creation_date).unwrap() * 1000;
    assert_eq!(times, (0..10).map(|i| start + i * 100).collect::<Vec<u64>>(), "the frames keep their times, from the capture's date");
    let metadata = ExportMetadata {
        analysis_type: AnalysisKind::Balance,
        patient_id: &record.patient_id,
        creation_date_s: record.creation_date,
        export_date_ms: 1_700_000_100_000,
    };
    let file = export_raw(ExportKind::Processed, &metadata, &rebuilt, &export_series(parameters.clone())).expect("an export file");
    assert!(!file.json.is_empty());
    // Issue 22: the unprocessed export's records carry real dates, not offsets from 1970.
    let file = export_raw(ExportKind::Unprocessed, &metadata, &rebuilt, &export_series(parameters)).expect("an export file");
    let json: Value = serde_json::from_slice(&file.json).unwrap();
    let first = json["records"][0]["dateTime"].as_str().unwrap();
    let created = mat_core::analysis::export::iso_8601_utc(record.creation_date * 1000);
    assert_eq!(first, created, "the first frame is dated when the capture was made");
    assert_eq!(json["records"][1]["dateTime"].as_str().unwrap()[..19], created[..19]);
    assert!(json["records"][9]["dateTime"].as_str().unwrap().ends_with(".900Z"));
}

#[test]
fn a_posted_analysis_reads_back_as_sent() {
    let preview = json!([[1, 2], [3, 4]]);
    let parameters = vec![json!({ "name": "load", "value": 5 })];
    let (map_preview, additional_parameters) = encode_posted(&preview, parameters.clone());
    let record = stored(NewAnalysis { analysis_type: "Static".into(), map_preview, additional_parameters, ..NewAnalysis::default() });
    assert_eq!(preview_json(&record), preview);
    assert_eq!(parameters_json(&record), Value::Array(parameters));
    assert_eq!(report_map(&preview_json(&record), AnalysisKind::Static).map(|m| m.cells), Some(vec![1, 2, 3, 4]));
}

#[test]
fn maps_and_frames_read_back() {
    assert_eq!(preview_frames(&json!([[1, 2], [3, 4]])).expect("frames"), vec![(2, 2, vec![1, 2, 3, 4])]);
    assert_eq!(preview_frames(&json!([[[1]], [[2]]])).expect("frames").len(), 2);
    for bad in
        [json!(null), json!([]), json!([[]]), json!([[1, 2], [3]]), json!([["a"]]), json!([[-1]]), json!([[70000]]), json!({"rows": 1})]
    {
        assert!(preview_frames(&bad).is_none(), "{bad}");
    }
}

#[test]
fn a_2d_preview_is_the_map_and_frames_are_averaged() {
    let map = report_map(&json!([[0, 5, 10], [20, 30, 40]]), AnalysisKind::Static).expect("a map");
    assert_eq!((map.rows, map.cols, map.cells.clone()), (2, 3, vec![0, 5, 10, 20, 30, 40]));
    for kind in [AnalysisKind::Static, AnalysisKind::Balance, AnalysisKind::SeatingDynamic] {
        let frames = report_map(&json!([[[0, 10]], [[4, 20]]]), kind).expect("a map");
        assert_eq!((frames.rows, frames.cols, frames.cells), (1, 2, vec![2, 15]), "{kind:?}");
    }
}

#[test]
fn a_walk_is_drawn_as_each_cell_s_highest_pressure() {
    // Two steps of one foot, each cell pressed in one frame: the mean would halve both prints.
    let walk = json!([[[0, 0, 90]], [[80, 0, 0]], [[0, 30, 10]]]);
    let map = report_map(&walk, AnalysisKind::Dynamic).expect("a map");
    assert_eq!((map.rows, map.cols, map.cells), (1, 3, vec![80, 30, 90]));
}

#[test]
fn anything_else_is_no_map() {
    for bad in [json!(null), json!([]), json!([[]]), json!([[1, 2], [3]]), json!([["a"]]), json!([[-1]]), json!({"rows": 1})] {
        assert!(report_map(&bad, AnalysisKind::Dynamic).is_none(), "{bad}");
    }
}

#[test]
fn times_come_from_the_parameter() {
    let times = vec![NamedParameter::new(FRAME_TIMES_PARAMETER, ParameterValue::Series(vec![0.0, 33.0]))];
    assert_eq!(frame_times(&times, 2), Some(vec![0, 33]));
    assert_eq!(frame_times(&times, 3), None, "times must match the frames");
    assert_eq!(frame_times(&[], 1), Some(vec![0]));
    assert_eq!(frame_times(&[], 2), None);
}

/// A capture of `frames` copies of a sitter on a 16 × 16 seat.
fn seated(kind: CaptureKind, frames: u32) -> CaptureRecord {
    let mut cells = vec![0u16; 256];
    for r in 9..13 {
        for c in (3..6).chain(10..13) {
            cells[r * 16 + c] = 70;
        }
    }
    CaptureRecord {
        frames: (0..frames).map(|i| CapturedFrame { offset_ms: i * 100, rows: 16, cols: 16, cells: cells.clone() }).collect(),
        ..capture(kind, 0)
    }
}

fn figures_type(new: &NewAnalysis) -> String {
    let parameters: Vec<NamedParameter> = serde_json::from_str(&new.additional_parameters).unwrap();
    let figures = parameters.iter().find(|p| p.name == ANALYSIS_RESULT_PARAMETER).expect("the engine's figures");
    let ParameterValue::Other(value) = &figures.value else { panic!("figures as JSON") };
    value["analysisType"].as_str().unwrap().to_owned()
}

#[test]
fn a_seat_capture_is_stored_as_a_seat_never_as_feet_or_gait() {
    let statics = capture_analysis(Some(DeviceType::SeatingMatIoT), &seated(CaptureKind::Static, 1), &AnalysisParams::default());
    assert_eq!((statics.analysis_type.as_str(), figures_type(&statics).as_str()), ("Static", "seatingStatic"));
    let dynamic = capture_analysis(Some(DeviceType::SeatingMatIoT), &seated(CaptureKind::Dynamic, 20), &AnalysisParams::default());
    assert_eq!((dynamic.analysis_type.as_str(), figures_type(&dynamic).as_str()), ("seatingDynamic", "seatingDynamic"));
    let plate = capture_analysis(Some(DeviceType::PodologyIoT), &capture(CaptureKind::Dynamic, 20), &AnalysisParams::default());
    assert_eq!(plate.analysis_type, "Dynamic");
    let rehab = capture_analysis(Some(DeviceType::RehabMat), &capture(CaptureKind::Dynamic, 20), &AnalysisParams::default());
    assert_eq!((rehab.analysis_type.as_str(), figures_type(&rehab).as_str()), ("Rehab", "Rehab"));
}

#[test]
fn the_patients_body_on_the_capture_day_and_the_engines_result_are_read_back() {
    let params = AnalysisParams { weight_kg: Some(64.5), height_cm: Some(171.0) };
    let new = capture_analysis(Some(DeviceType::PodologyIoT), &capture(CaptureKind::Dynamic, 10), &params);
    let record = stored(new);
    let parameters = named_parameters(&record);
    assert_eq!(patient_at_capture(&parameters), Some((Some(171.0), Some(64.5))));
    // Neither the body nor the result is an export series.
    assert!(
        export_series(parameters.clone()).iter().all(|p| p.name != PATIENT_AT_CAPTURE_PARAMETER && p.name != ANALYSIS_RESULT_PARAMETER)
    );
    let Some(AnalysisResult::Dynamic(result)) = stored_result(&parameters) else { panic!("the stored dynamic result") };
    assert_eq!(result.additional_parameters.len(), 14, "the ordered series are put back");
    // Without a patient nothing is stored, and nothing is read.
    let bare = stored(capture_analysis(Some(DeviceType::PodologyIoT), &capture(CaptureKind::Static, 1), &AnalysisParams::default()));
    assert_eq!(patient_at_capture(&named_parameters(&bare)), None);
    assert!(matches!(stored_result(&named_parameters(&bare)), Some(AnalysisResult::Static(_))));
}
