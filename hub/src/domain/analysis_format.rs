//! The stored-analysis format, its one owner: how an analysis record keeps a capture and its
//! results, written from a finished capture ([`capture_analysis`]) or from a client's analysis
//! ([`encode_posted`]), and read back by the history ([`preview_json`], [`parameters_json`]), the
//! PDF reports ([`report_map`]) and the raw export ([`export_capture`]).
//!
//! A record keeps:
//! - `mapPreview`: a JSON grid of cells (one map: a static capture) or an array of grids (the
//!   frames of any other capture); see [`preview_frames`];
//! - `additionalParameters`: a JSON array of `{ name, value }`, the engine's ordered parameters of
//!   spec §3, then [`ANALYSIS_RESULT_PARAMETER`] (the engine's figures), then
//!   [`FRAME_TIMES_PARAMETER`] (each frame's time), so the raw export can rebuild the capture.
//!   When the engine cannot analyse the frames, `analysisError` takes the parameters' place.
//!
//! Pure: no storage, no clock.

use actors::actor::record::CaptureRecord;
use mat_core::analysis::{AnalysisKind, AnalysisParams, AnalysisResult, Capture, NamedParameter, ParameterValue, PressureFrame, analyse};
use mat_core::machine::capture::CaptureKind;
use mat_protocol::device_type::DeviceType;
use reports::{FramesDrawn, ReportMap};
use serde_json::Value;
use storage::model::{Analysis, NewAnalysis};

/// The named parameter holding a captured analysis's frame times (ms from the request), appended
/// after the engine's parameters so the raw export can rebuild the capture.
pub const FRAME_TIMES_PARAMETER: &str = "frameTimesMs";

/// The name of the parameter holding the engine's result (`{ analysisType, result }`, without the
/// ordered parameters it repeats); the client's result views read it.
pub const ANALYSIS_RESULT_PARAMETER: &str = "analysisResult";

/// The name of the parameter holding the patient's height and weight on the capture day
/// (`{ heightCm, weightKg }`), so a report printed later shows those, not today's.
pub const PATIENT_AT_CAPTURE_PARAMETER: &str = "patientAtCapture";

/// The parameter kept instead of the results when the engine could not analyse a capture.
pub const ANALYSIS_ERROR_PARAMETER: &str = "analysisError";

/// One stored frame: rows, columns and cells in row order.
pub type StoredFrame = (u16, u16, Vec<u16>);

/// Unix ms as the Unix seconds the tables keep.
fn seconds(ms: u64) -> i64 {
    (ms / 1000) as i64
}

/// The analysis kind of a capture kind on a device of `device_type` (the device-type table's
/// analysis family decides: [`AnalysisKind::of_capture`]); an unknown device keeps the capture's
/// own name.
pub fn analysis_kind(device_type: Option<DeviceType>, kind: CaptureKind) -> AnalysisKind {
    match device_type {
        Some(device) => AnalysisKind::of_capture(device, kind),
        None => match kind {
            CaptureKind::Static => AnalysisKind::Static,
            CaptureKind::Dynamic => AnalysisKind::Dynamic,
            CaptureKind::Fitting => AnalysisKind::Fitting,
            CaptureKind::Balance => AnalysisKind::Balance,
        },
    }
}

/// A finished capture as an analysis record of its patient: the frames as `mapPreview` (one map
/// for a static capture, frames otherwise) and the engine's named results as
/// `additionalParameters`. `device_type` is the capturing device's (`None` when the hub no longer
/// knows it: the raw capture is kept with an `analysisError` parameter, as when the engine cannot
/// analyse the frames). This runs the analysis engine: CPU-heavy for a long capture.
pub fn capture_analysis(device_type: Option<DeviceType>, capture: &CaptureRecord, params: &AnalysisParams) -> NewAnalysis {
    let kind = analysis_kind(device_type, capture.kind);
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
        Err(reason) => vec![NamedParameter::new(ANALYSIS_ERROR_PARAMETER, ParameterValue::Other(Value::String(reason.into())))],
    };
    let times = capture.frames.iter().map(|f| f64::from(f.offset_ms)).collect();
    parameters.push(NamedParameter::new(FRAME_TIMES_PARAMETER, ParameterValue::Series(times)));
    if params.height_cm.is_some() || params.weight_kg.is_some() {
        let body = serde_json::json!({ "heightCm": params.height_cm, "weightKg": params.weight_kg });
        parameters.push(NamedParameter::new(PATIENT_AT_CAPTURE_PARAMETER, ParameterValue::Other(body)));
    }
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

/// The analysis result as JSON, less its `additionalParameters` (stored beside it already).
fn engine_figures(result: &AnalysisResult) -> Option<Value> {
    let mut value = serde_json::to_value(result).ok()?;
    if let Some(inner) = value.get_mut("result").and_then(Value::as_object_mut) {
        inner.remove("additionalParameters");
    }
    Some(value)
}

/// A client's analysis as stored: its `mapPreview` and its `additionalParameters` (ordered named
/// pairs), each kept as the JSON the client sent.
pub fn encode_posted(map_preview: &Value, additional_parameters: Vec<Value>) -> (String, String) {
    (map_preview.to_string(), Value::Array(additional_parameters).to_string())
}

/// The record's `mapPreview` as JSON (`null` when unreadable).
pub fn preview_json(record: &Analysis) -> Value {
    serde_json::from_str(&record.map_preview).unwrap_or(Value::Null)
}

/// The record's `additionalParameters` as JSON (`null` when unreadable).
pub fn parameters_json(record: &Analysis) -> Value {
    serde_json::from_str(&record.additional_parameters).unwrap_or(Value::Null)
}

/// The record's `additionalParameters` as named parameters (none when unreadable).
pub fn named_parameters(record: &Analysis) -> Vec<NamedParameter> {
    serde_json::from_str(&record.additional_parameters).unwrap_or_default()
}

/// The record's analysis kind; `None` for a type the engine does not know.
pub fn kind(record: &Analysis) -> Option<AnalysisKind> {
    serde_json::from_value(Value::String(record.analysis_type.clone())).ok()
}

/// The device type an analysis without a (known) device is drawn and exported as.
pub fn default_device_type(kind: AnalysisKind) -> DeviceType {
    match kind {
        AnalysisKind::SeatingDynamic => DeviceType::SeatingMatIoT,
        AnalysisKind::Fitting | AnalysisKind::Rehab => DeviceType::RehabMat,
        AnalysisKind::Static | AnalysisKind::Dynamic | AnalysisKind::Balance => DeviceType::PodologyIoT,
    }
}

/// A stored `mapPreview`'s frames (a 2-D map is one frame); `None` unless every frame is a
/// non-empty grid of numbers 0–65535.
pub fn preview_frames(preview: &Value) -> Option<Vec<StoredFrame>> {
    let outer = preview.as_array()?;
    let is_frames = outer.first()?.as_array()?.first().is_some_and(Value::is_array);
    let frames: Vec<&Value> = if is_frames { outer.iter().collect() } else { vec![preview] };
    frames
        .into_iter()
        .map(|frame| {
            let rows = frame.as_array()?;
            let cols = rows.first()?.as_array()?.len();
            if cols == 0 {
                return None;
            }
            let mut cells = Vec::with_capacity(rows.len() * cols);
            for row in rows {
                let row = row.as_array().filter(|r| r.len() == cols)?;
                for cell in row {
                    cells.push(cell.as_f64().filter(|v| *v >= 0.0 && *v <= f64::from(u16::MAX))? as u16);
                }
            }
            Some((u16::try_from(rows.len()).ok()?, u16::try_from(cols).ok()?, cells))
        })
        .collect()
}

/// A stored `mapPreview` of an analysis of `kind` as the one map a report draws: a 2-D array of
/// numbers, or frames (a 3-D array) drawn as [`FramesDrawn::of`] the kind says (a walk's as
/// each cell's highest value, any other capture's as their mean). `None` when it is neither, or
/// the frames differ in shape.
pub fn report_map(preview: &Value, kind: AnalysisKind) -> Option<ReportMap> {
    let frames = preview_frames(preview)?;
    let (rows, cols, _) = *frames.first()?;
    if rows == 0 || cols == 0 || frames.iter().any(|(r, c, _)| (*r, *c) != (rows, cols)) {
        return None;
    }
    let mut combined = vec![0u64; usize::from(rows) * usize::from(cols)];
    let peak = FramesDrawn::of(kind) == FramesDrawn::Peak;
    for (_, _, cells) in &frames {
        for (slot, &cell) in combined.iter_mut().zip(cells) {
            *slot = if peak { (*slot).max(u64::from(cell)) } else { *slot + u64::from(cell) };
        }
    }
    let count = if peak { 1 } else { frames.len() as u64 };
    Some(ReportMap { rows, cols, cells: combined.into_iter().map(|s| (s / count) as u16).collect() })
}

/// The capture's frame times, from the stored [`FRAME_TIMES_PARAMETER`]; a single map needs none.
pub fn frame_times(parameters: &[NamedParameter], frames: usize) -> Option<Vec<u64>> {
    let stored = parameters.iter().find(|p| p.name == FRAME_TIMES_PARAMETER).and_then(|p| match &p.value {
        ParameterValue::Series(times) => Some(times.iter().map(|t| *t as u64).collect::<Vec<u64>>()),
        _ => None,
    });
    match stored {
        Some(times) if times.len() == frames => Some(times),
        _ if frames == 1 => Some(vec![0]),
        _ => None,
    }
}

/// The ordered parameters of spec §3 a raw export carries: the stored ones less the hub's own
/// ([`FRAME_TIMES_PARAMETER`], [`ANALYSIS_RESULT_PARAMETER`], [`PATIENT_AT_CAPTURE_PARAMETER`]).
pub fn export_series(parameters: Vec<NamedParameter>) -> Vec<NamedParameter> {
    parameters
        .into_iter()
        .filter(|p| p.name != FRAME_TIMES_PARAMETER && p.name != ANALYSIS_RESULT_PARAMETER && p.name != PATIENT_AT_CAPTURE_PARAMETER)
        .collect()
}

/// The patient's height (cm) and weight (kg) stored with a capture, each when known; `None`
/// for a record without them (a client's analysis, or one stored before they were kept).
pub fn patient_at_capture(parameters: &[NamedParameter]) -> Option<(Option<f64>, Option<f64>)> {
    let body = parameters.iter().find(|p| p.name == PATIENT_AT_CAPTURE_PARAMETER).and_then(|p| match &p.value {
        ParameterValue::Other(v) => Some(v),
        _ => None,
    })?;
    Some((body.get("heightCm").and_then(Value::as_f64), body.get("weightKg").and_then(Value::as_f64)))
}

/// The engine's result stored with a capture ([`ANALYSIS_RESULT_PARAMETER`]), its ordered
/// parameters put back from beside it; `None` when the record has none or it no longer reads.
pub fn stored_result(parameters: &[NamedParameter]) -> Option<AnalysisResult> {
    let mut figures = parameters.iter().find(|p| p.name == ANALYSIS_RESULT_PARAMETER).and_then(|p| match &p.value {
        ParameterValue::Other(v) => Some(v.clone()),
        _ => None,
    })?;
    let inner = figures.get_mut("result")?.as_object_mut()?;
    let ordered = export_series(parameters.to_vec());
    inner.entry("additionalParameters").or_insert(serde_json::to_value(ordered).ok()?);
    serde_json::from_value(figures).ok()
}

/// Why a stored analysis could not be rebuilt as a capture (the message says which part).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoCaptureData(pub &'static str);

/// A stored analysis rebuilt as the capture it was made from, for the raw export: its frames at
/// real times (Unix ms), on a device of `device_type`. The stored times are offsets from the
/// capture's start; the record's creation date (when the capture was asked for) is that start,
/// so a frame is dated creation + offset (issue 22: exports were dated 1970-01-01T00:00:00.002Z).
pub fn export_capture(record: &Analysis, parameters: &[NamedParameter], device_type: DeviceType) -> Result<Capture, NoCaptureData> {
    let frames = preview_frames(&preview_json(record)).ok_or(NoCaptureData("the analysis has no frames"))?;
    let times = frame_times(parameters, frames.len()).ok_or(NoCaptureData("the analysis's frames have no times"))?;
    let start_ms = u64::try_from(record.creation_date.saturating_mul(1000)).unwrap_or(0);
    let (rows, cols, _) = frames[0];
    let mut capture = Capture::new(device_type, rows, cols);
    for ((rows, cols, cells), offset) in frames.into_iter().zip(times) {
        let time = start_ms.saturating_add(offset);
        let frame = PressureFrame::new(rows, cols, cells).map_err(|_| NoCaptureData("the frames differ in shape"))?;
        capture.push(time, frame).map_err(|_| NoCaptureData("the frames are out of order"))?;
    }
    Ok(capture)
}

#[cfg(test)]
mod tests;
