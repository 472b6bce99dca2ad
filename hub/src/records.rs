//! Persisting the device records the actors emit (`actors::actor::record::Record`): device and
//! presence logs, alarm episodes, stream end times, and finished captures, which go through the
//! analysis engine and become analysis records of the selected patient.
//!
//! A record that can never be written (its device or patient was deleted, a value the schema
//! refuses) is logged and skipped so it cannot block the records behind it; a database failure
//! fails the batch, which the writer retries.

use actors::actor::record::{CaptureRecord, DeviceLogRecord, Record};
use mat_core::analysis::{analyse, AnalysisKind, AnalysisParams, AnalysisResult, Capture, NamedParameter, ParameterValue, PressureFrame};
use actors::catalog::Catalog;
use mat_core::machine::capture::CaptureKind;
use storage::model::{DeviceLog, NewAnalysis, PresenceLog};
use storage::{Store, StoreError};

/// The named parameter holding a captured analysis's frame times (ms from the request), appended
/// after the engine's parameters so the raw export can rebuild the capture.
pub const FRAME_TIMES_PARAMETER: &str = "frameTimesMs";

/// The stored key of a device actor's alarm: `device-number`.
pub fn alarm_key(device_id: &str, alarm_id: u64) -> String {
    format!("{device_id}-{alarm_id}")
}

/// The device actor's number of a stored alarm key, when the key is `device-number`.
pub fn alarm_number(device_id: &str, key: &str) -> Option<u64> {
    key.strip_prefix(device_id)?.strip_prefix('-')?.parse().ok()
}

/// Unix ms as the Unix seconds the tables keep.
fn seconds(ms: u64) -> i64 {
    (ms / 1000) as i64
}

/// A device log record as a row: the preview as a JSON grid, the posture's name as `position`.
pub fn device_log_row(record: &DeviceLogRecord) -> DeviceLog {
    let cols = usize::from(record.preview.cols.max(1));
    let grid: Vec<&[u16]> = record.preview.cells.chunks(cols).collect();
    DeviceLog {
        device_id: record.device_id.to_string(),
        creation_date: seconds(record.at_ms),
        max_pressure: i64::from(record.max_pressure),
        position: record.posture_name.unwrap_or("").to_owned(),
        posture: record.posture_id.map(|id| id.to_string()).unwrap_or_default(),
        confidence: f64::from(record.confidence.unwrap_or(0.0)),
        pressure_map: serde_json::to_string(&grid).unwrap_or_else(|_| "[]".into()),
    }
}

/// The analysis kind of a capture kind.
fn analysis_kind(kind: CaptureKind) -> AnalysisKind {
    match kind {
        CaptureKind::Static => AnalysisKind::Static,
        CaptureKind::Dynamic => AnalysisKind::Dynamic,
        CaptureKind::Fitting => AnalysisKind::Fitting,
        CaptureKind::Balance => AnalysisKind::Balance,
    }
}

/// A finished capture as an analysis record: the frames as `mapPreview` (one map for a static
/// capture, frames otherwise) and the engine's named results as `additionalParameters`. When the
/// engine cannot analyse the frames, the raw capture is kept with an `analysisError` parameter.
pub fn capture_analysis(catalog: &Catalog, capture: &CaptureRecord, params: &AnalysisParams) -> NewAnalysis {
    let kind = analysis_kind(capture.kind);
    let device_type = catalog.get(&capture.device_id).map(|d| d.device_type);
    let grids: Vec<Vec<&[u16]>> =
        capture.frames.iter().map(|f| f.cells.chunks(usize::from(f.cols.max(1))).take(usize::from(f.rows)).collect()).collect();
    let map_preview = match (capture.kind, grids.last()) {
        (CaptureKind::Static, Some(last)) => serde_json::to_string(last),
        _ => serde_json::to_string(&grids),
    }
    .unwrap_or_else(|_| "null".into());
    let analysed = device_type.zip(capture.frames.first()).ok_or("no frames").and_then(|(device_type, first)| {
        let mut engine_capture = Capture::new(device_type, first.rows, first.cols);
        for frame in &capture.frames {
            let pressure = PressureFrame::new(frame.rows, frame.cols, frame.cells.clone()).map_err(|_| "a frame of another shape")?;
            engine_capture.push(u64::from(frame.offset_ms), pressure).map_err(|_| "frames out of order")?;
        }
        analyse(kind, &engine_capture, params).map_err(|_| "the engine could not analyse the frames")
    });
    let mut parameters: Vec<NamedParameter> = match analysed {
        Ok(result) => {
            let mut list = result.additional_parameters().to_vec();
            // The engine's figures (centres of pressure, distributions, sway, rockers, grades) for
            // the result views, after the spec's ordered parameters so their positions stay.
            list.extend(engine_figures(&result).map(|v| NamedParameter::new(ANALYSIS_RESULT_PARAMETER, ParameterValue::Other(v))));
            list
        }
        Err(reason) => vec![NamedParameter::new("analysisError", ParameterValue::Other(serde_json::Value::String(reason.into())))],
    };
    let times = capture.frames.iter().map(|f| f64::from(f.offset_ms)).collect();
    parameters.push(NamedParameter::new(FRAME_TIMES_PARAMETER, ParameterValue::Series(times)));
    let additional_parameters = serde_json::to_string(&parameters).unwrap_or_else(|_| "[]".into());
    NewAnalysis {
        patient_id: capture.patient_id.clone(),
        user_id: capture.user_id.clone(),
        device: Some(capture.device_id.to_string()),
        analysis_type: kind.name().to_owned(),
        creation_date: seconds(capture.requested_at_ms),
        notes: String::new(),
        map_preview,
        additional_parameters,
    }
}

/// The name of the parameter holding the engine's result (`{ analysisType, result }`, without the
/// ordered parameters it repeats); the client's result views read it.
pub const ANALYSIS_RESULT_PARAMETER: &str = "analysisResult";

/// The analysis result as JSON, less its `additionalParameters` (stored beside it already).
fn engine_figures(result: &AnalysisResult) -> Option<serde_json::Value> {
    let mut value = serde_json::to_value(result).ok()?;
    if let Some(inner) = value.get_mut("result").and_then(serde_json::Value::as_object_mut) {
        inner.remove("additionalParameters");
    }
    Some(value)
}

/// Writes one record. `Ok(false)` when it can never be written (logged and skipped).
pub async fn save_record(store: &Store, catalog: &Catalog, record: &Record) -> Result<bool, StoreError> {
    let Some(device) = catalog.get(record.device_id()) else {
        tracing::warn!(device = %record.device_id(), "a record of an unknown device was dropped");
        return Ok(false);
    };
    let company_id = device.company_id.to_string();
    let company = store.company(&company_id);
    let result = match record {
        Record::DeviceLog(entry) => company.logs().add_device_log(&device_log_row(entry)).await,
        Record::PresenceLog { device_id, at_ms, present } => {
            let entry = PresenceLog { device_id: device_id.to_string(), creation_date: seconds(*at_ms), log_id: if *present { "1" } else { "0" }.into() };
            company.logs().add_presence(&entry).await
        }
        Record::AlarmRaised { device_id, alarm_id, kind, raised_at_ms } => company
            .logs()
            .raise_alarm_keyed(device_id, &alarm_key(device_id, *alarm_id), kind.name(), seconds(*raised_at_ms))
            .await
            .map(|_| ()),
        Record::AlarmAttended { device_id, alarm_id, attended_at_ms, by, .. } => company
            .logs()
            .attend_keyed(&alarm_key(device_id, *alarm_id), seconds(*attended_at_ms), by.as_deref())
            .await
            .map(|_| ()),
        Record::StreamingEnd { device_id, ends_at_ms } => company.device_confs().set_streaming_end(device_id, ends_at_ms.map(|ms| ms as i64)).await,
        Record::CaptureStored(capture) => {
            let patient = company.patients().get(&capture.patient_id).await?;
            let params = AnalysisParams { weight_kg: patient.as_ref().map(|p| p.fields.weight), height_cm: patient.as_ref().map(|p| p.fields.height) };
            let analysis = capture_analysis(catalog, capture, &params);
            company.analyses().create(&analysis).await.map(|_| ())
        }
    };
    match result {
        Ok(()) => Ok(true),
        Err(error @ (StoreError::NotFound | StoreError::Invalid(_) | StoreError::QuotaExceeded | StoreError::Duplicate(_))) => {
            tracing::warn!(device = %device.serial, %error, "a device record could not be stored and was dropped");
            Ok(false)
        }
        Err(error) => Err(error),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use mat_core::machine::device_log::{LogReason, PreviewMap};

    use super::*;

    #[test]
    fn a_device_log_keeps_its_preview_as_a_grid() {
        let record = DeviceLogRecord {
            device_id: Arc::from("d1"),
            at_ms: 1_700_000_000_999,
            max_pressure: 900,
            posture_id: Some(0),
            posture_name: Some("Supine"),
            confidence: Some(0.75),
            preview: PreviewMap { rows: 2, cols: 3, cells: vec![1, 2, 3, 4, 5, 6] },
            reason: LogReason::Interval,
        };
        let row = device_log_row(&record);
        assert_eq!(row.creation_date, 1_700_000_000);
        assert_eq!(row.pressure_map, "[[1,2,3],[4,5,6]]");
        assert_eq!((row.position.as_str(), row.posture.as_str(), row.confidence), ("Supine", "0", 0.75));
    }

    #[test]
    fn a_stored_capture_keeps_the_engines_figures_after_the_ordered_parameters() {
        use actors::catalog::DeviceInfo;
        use mat_core::machine::capture::CapturedFrame;
        use mat_protocol::device_type::DeviceType;
        let device = DeviceInfo {
            id: Arc::from("plate"),
            serial: "P-1".into(),
            company_id: Arc::from("c1"),
            device_type: DeviceType::PodologyIoT,
            name: "Plate".into(),
            parent: None,
            members: Vec::new(),
            secret_hash: String::new(),
            functional: true,
            patient_status: mat_core::machine::status::PatientStatus::Correct,
        };
        let catalog = Catalog::new([device]);
        // Two feet standing still on a 48 × 48 plate.
        let mut cells = vec![0u16; 48 * 48];
        for r in 10..30 {
            for c in (12..18).chain(30..36) {
                cells[r * 48 + c] = 120;
            }
        }
        let frame = |offset_ms| CapturedFrame { offset_ms, rows: 48, cols: 48, cells: cells.clone() };
        let capture = CaptureRecord {
            device_id: Arc::from("plate"),
            patient_id: "p1".into(),
            user_id: "u1".into(),
            kind: CaptureKind::Balance,
            requested_at_ms: 1_700_000_000_000,
            seconds: 5,
            frames: (0..10).map(|i| frame(i * 100)).collect(),
            dropped_frames: 0,
        };
        let stored = capture_analysis(&catalog, &capture, &AnalysisParams::default());
        let parameters: Vec<NamedParameter> = serde_json::from_str(&stored.additional_parameters).unwrap();
        let names: Vec<&str> = parameters.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names[names.len() - 2..], [ANALYSIS_RESULT_PARAMETER, FRAME_TIMES_PARAMETER], "{names:?}");
        let ParameterValue::Other(figures) = &parameters[names.len() - 2].value else { panic!("figures as JSON") };
        assert_eq!(figures["analysisType"], "Balance");
        assert!(figures["result"].is_object() && figures["result"].get("additionalParameters").is_none(), "{figures}");
    }

    #[test]
    fn alarm_keys_join_device_and_number() {
        assert_eq!(alarm_key("abc", 42), "abc-42");
        assert_eq!(alarm_number("abc", "abc-42"), Some(42));
        assert_eq!(alarm_number("abc", "xyz-42"), None);
        assert_eq!(alarm_number("abc", "k3j2h4"), None, "alarms raised elsewhere have random keys");
    }
}
