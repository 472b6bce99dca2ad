//! `GET /api/analysisExport/{id}/{kind}`: the raw-data export of a stored analysis (spec §3),
//! `processed` (version 2.0) or `unprocessed` (version 1.0), as the JSON file the client saves,
//! named `type_kind_analysis_YYYY-MM-DD.json` through `Content-Disposition`. Built by
//! `mat_core::analysis::export`; refused with `toastErrorRaw.noAnalysisData` when there is nothing
//! to export.

use mat_core::analysis::export::{export_raw, ExportError, ExportKind, ExportMetadata};
use mat_core::analysis::{AnalysisKind, Capture, NamedParameter, ParameterValue, PressureFrame};
use serde_json::Value;
use warp::http::StatusCode;
use warp::Reply;

use super::caller::Caller;
use super::error::ApiError;
use super::preview::preview_frames;
use super::reports::default_device_type;
use crate::records::{ANALYSIS_RESULT_PARAMETER, FRAME_TIMES_PARAMETER};

fn no_data(message: &str) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, "toastErrorRaw.noAnalysisData", message)
}

/// The capture's frame times, from the stored `frameTimesMs` parameter; a single map needs none.
fn frame_times(parameters: &[NamedParameter], frames: usize) -> Option<Vec<u64>> {
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

/// The kinds of export, named in the path by their `dataType`.
const EXPORT_KINDS: [ExportKind; 2] = [ExportKind::Processed, ExportKind::Unprocessed];

/// `{kind}`: `processed` or `unprocessed`.
pub fn export_kind_schema(_: &mut schemars::generate::SchemaGenerator) -> schemars::Schema {
    let names: Vec<&str> = EXPORT_KINDS.into_iter().map(ExportKind::data_type).collect();
    schemars::json_schema!({ "type": "string", "enum": names })
}

/// The export file of a stored analysis.
pub async fn export(id: String, kind: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    let Some(kind) = EXPORT_KINDS.into_iter().find(|k| k.data_type() == kind) else {
        return Err(ApiError::new(StatusCode::BAD_REQUEST, "invalidExportKind", "the export kind is processed or unprocessed"));
    };
    let record = call.store().analyses().get(&id).await.map_err(ApiError::internal)?.ok_or_else(|| ApiError::not_found("analysis"))?;
    let analysis_type: AnalysisKind = serde_json::from_value(Value::String(record.analysis_type.clone())).map_err(ApiError::internal)?;
    let parameters: Vec<NamedParameter> = serde_json::from_str(&record.additional_parameters).unwrap_or_default();
    let preview: Value = serde_json::from_str(&record.map_preview).unwrap_or(Value::Null);
    let frames = preview_frames(&preview).ok_or_else(|| no_data("the analysis has no frames"))?;
    let times = frame_times(&parameters, frames.len()).ok_or_else(|| no_data("the analysis's frames have no times"))?;
    let device_type = record
        .device
        .as_deref()
        .and_then(|d| call.device(d).ok())
        .map(|d| d.device_type)
        .unwrap_or_else(|| default_device_type(analysis_type));
    let (rows, cols, _) = frames[0];
    let mut capture = Capture::new(device_type, rows, cols);
    for ((rows, cols, cells), time) in frames.into_iter().zip(times) {
        let frame = PressureFrame::new(rows, cols, cells).map_err(|_| no_data("the frames differ in shape"))?;
        capture.push(time, frame).map_err(|_| no_data("the frames are out of order"))?;
    }
    let series: Vec<NamedParameter> = parameters.into_iter().filter(|p| p.name != FRAME_TIMES_PARAMETER && p.name != ANALYSIS_RESULT_PARAMETER).collect();
    let metadata = ExportMetadata { analysis_type, patient_id: &record.patient_id, creation_date_s: record.creation_date, export_date_ms: storage::unix_now() * 1000 };
    let file = export_raw(kind, &metadata, &capture, &series).map_err(|e| match e {
        ExportError::NoAnalysisData => no_data("there is nothing to export"),
        other => ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "toastErrorRaw.downloadError", other.to_string()),
    })?;
    let mut response = warp::reply::with_header(file.json, "content-type", "application/json").into_response();
    if let Ok(value) = warp::http::HeaderValue::from_str(&format!("attachment; filename=\"{}\"", file.file_name)) {
        response.headers_mut().insert("content-disposition", value);
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_come_from_the_parameter() {
        let times = vec![NamedParameter::new(FRAME_TIMES_PARAMETER, ParameterValue::Series(vec![0.0, 33.0]))];
        assert_eq!(frame_times(&times, 2), Some(vec![0, 33]));
        assert_eq!(frame_times(&times, 3), None, "times must match the frames");
        assert_eq!(frame_times(&[], 1), Some(vec![0]));
        assert_eq!(frame_times(&[], 2), None);
    }
}
