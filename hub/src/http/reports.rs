//! PDF reports of stored analyses: `POST /api/downloadAnalysisPDF/{id}/{x}` (the report, with
//! the user's widgets, language and palette) and `POST /api/downloadRealScalePDF/{id}` (the map at
//! real scale on A3 or A4), named through `Content-Disposition`. Rendering is in the `reports`
//! crate; this file turns a stored record into its input.

use mat_core::analysis::{analyse, AnalysisKind, AnalysisParams, Capture, PressureFrame};
use mat_protocol::device_type::DeviceType;
use reports::{AnalysisReportInput, Language, LayoutOptions, Palette, PaperSize, PatientSummary, PdfKind, RealScaleInput, ReportError, ReportMap};
use serde::Deserialize;
use serde_json::Value;
use storage::model::Analysis;
use warp::http::StatusCode;
use warp::Reply;

use super::caller::Caller;
use super::error::ApiError;
use super::preview::preview_frames;

/// A stored `mapPreview` as a map: a 2-D array of numbers, or frames (a 3-D array, drawn as their
/// per-cell mean). `None` when it is neither, or the frames differ in shape.
pub fn map_from_preview(preview: &Value) -> Option<ReportMap> {
    let frames = preview_frames(preview)?;
    let (rows, cols, _) = *frames.first()?;
    if rows == 0 || cols == 0 || frames.iter().any(|(r, c, _)| (*r, *c) != (rows, cols)) {
        return None;
    }
    let mut sums = vec![0u64; usize::from(rows) * usize::from(cols)];
    for (_, _, cells) in &frames {
        for (sum, &cell) in sums.iter_mut().zip(cells) {
            *sum += u64::from(cell);
        }
    }
    let count = frames.len() as u64;
    Some(ReportMap { rows, cols, cells: sums.into_iter().map(|s| (s / count) as u16).collect() })
}

/// The device type an analysis without a device is drawn as.
pub fn default_device_type(kind: AnalysisKind) -> DeviceType {
    match kind {
        AnalysisKind::SeatingDynamic => DeviceType::SeatingMatIoT,
        AnalysisKind::Fitting | AnalysisKind::Rehab => DeviceType::RehabMat,
        AnalysisKind::Static | AnalysisKind::Dynamic | AnalysisKind::Balance => DeviceType::PodologyIoT,
    }
}

struct Loaded {
    record: Analysis,
    kind: AnalysisKind,
    map: ReportMap,
    device_type: DeviceType,
    device_name: String,
    patient: Option<PatientSummary>,
}

async fn load(call: &Caller, id: &str) -> Result<Loaded, ApiError> {
    let store = call.store();
    let record = store.analyses().get(id).await.map_err(ApiError::internal)?.ok_or_else(|| ApiError::not_found("analysis"))?;
    let kind: AnalysisKind = serde_json::from_value(Value::String(record.analysis_type.clone())).map_err(ApiError::internal)?;
    let preview: Value = serde_json::from_str(&record.map_preview).unwrap_or(Value::Null);
    let map = map_from_preview(&preview)
        .ok_or_else(|| ApiError::new(StatusCode::BAD_REQUEST, "toastErrorRaw.noAnalysisData", "the analysis has no pressure map to print"))?;
    let device = record.device.as_deref().and_then(|d| call.device(d).ok());
    let device_type = device.as_ref().map(|d| d.device_type).unwrap_or_else(|| default_device_type(kind));
    let device_name = device.map(|d| d.name.clone()).unwrap_or_default();
    let patient = store.patients().get(&record.patient_id).await.map_err(ApiError::internal)?;
    let patient = patient.map(|p| PatientSummary { name: p.fields.name, height_cm: Some(p.fields.height), weight_kg: Some(p.fields.weight) });
    Ok(Loaded { record, kind, map, device_type, device_name, patient })
}

/// The static result of a single map, so the report prints its figures.
fn static_result(loaded: &Loaded) -> Option<mat_core::analysis::AnalysisResult> {
    if loaded.kind != AnalysisKind::Static {
        return None;
    }
    let mut capture = Capture::new(loaded.device_type, loaded.map.rows, loaded.map.cols);
    capture.push(0, PressureFrame::new(loaded.map.rows, loaded.map.cols, loaded.map.cells.clone()).ok()?).ok()?;
    let params = AnalysisParams { weight_kg: loaded.patient.as_ref().and_then(|p| p.weight_kg), height_cm: loaded.patient.as_ref().and_then(|p| p.height_cm) };
    analyse(AnalysisKind::Static, &capture, &params).ok()
}

fn pdf_response(bytes: Vec<u8>, file_name: &str) -> warp::reply::Response {
    let mut response = warp::reply::with_header(bytes, "content-type", "application/pdf").into_response();
    if let Ok(value) = warp::http::HeaderValue::from_str(&reports::content_disposition(file_name)) {
        response.headers_mut().insert("content-disposition", value);
    }
    response
}

fn report_error(error: ReportError) -> ApiError {
    match error {
        ReportError::ShapeMismatch { .. } | ReportError::EmptyMap => ApiError::new(StatusCode::BAD_REQUEST, "toastErrorRaw.noAnalysisData", error.to_string()),
        ReportError::Font(_) => ApiError::internal(error),
    }
}

async fn render<F>(render: F) -> Result<Vec<u8>, ApiError>
where
    F: FnOnce() -> Result<Vec<u8>, ReportError> + Send + 'static,
{
    tokio::task::spawn_blocking(render).await.map_err(ApiError::internal)?.map_err(report_error)
}

/// `POST /api/downloadAnalysisPDF/{id}/{x}` body. `{x}` (the old client's view index) does not
/// change the report.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct AnalysisPdfRequest {
    pub layout_options: LayoutOptions,
}

/// The analysis report.
pub async fn analysis_pdf(id: String, _x: String, mut call: Caller) -> Result<warp::reply::Response, ApiError> {
    let request: AnalysisPdfRequest = call.json().await?;
    let loaded = load(&call, &id).await?;
    let result = static_result(&loaded);
    let file_name = reports::pdf_file_name(PdfKind::Analysis, loaded.kind, loaded.record.creation_date);
    let input = AnalysisReportInput {
        analysis_type: loaded.kind,
        device_type: loaded.device_type,
        device_name: loaded.device_name,
        creation_date_s: loaded.record.creation_date,
        patient: loaded.patient,
        notes: loaded.record.notes,
        map: loaded.map,
        result,
    };
    let options = request.layout_options;
    let bytes = render(move || reports::analysis_pdf(&input, &options)).await?;
    Ok(pdf_response(bytes, &file_name))
}

/// `POST /api/downloadRealScalePDF/{id}` body.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RealScaleRequest {
    /// `A3` or `A4`.
    pub layout: PaperSize,
    #[serde(default)]
    pub language: Language,
    #[serde(default)]
    pub palette: Palette,
}

/// The map at real scale.
pub async fn real_scale_pdf(id: String, mut call: Caller) -> Result<warp::reply::Response, ApiError> {
    let request: RealScaleRequest = call.json().await?;
    let loaded = load(&call, &id).await?;
    let file_name = reports::pdf_file_name(PdfKind::RealScale(request.layout), loaded.kind, loaded.record.creation_date);
    let input = RealScaleInput {
        device_type: loaded.device_type,
        device_name: loaded.device_name,
        creation_date_s: loaded.record.creation_date,
        patient_name: loaded.patient.map(|p| p.name),
        map: loaded.map,
        language: request.language,
        palette: request.palette,
    };
    let paper = request.layout;
    let bytes = render(move || reports::real_scale_pdf(&input, paper)).await?;
    Ok(pdf_response(bytes, &file_name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_2d_preview_is_the_map_and_frames_are_averaged() {
        let map = map_from_preview(&json!([[0, 5, 10], [20, 30, 40]])).unwrap();
        assert_eq!((map.rows, map.cols, map.cells.clone()), (2, 3, vec![0, 5, 10, 20, 30, 40]));
        let frames = map_from_preview(&json!([[[0, 10]], [[4, 20]]])).unwrap();
        assert_eq!((frames.rows, frames.cols, frames.cells), (1, 2, vec![2, 15]));
    }

    #[test]
    fn anything_else_is_no_map() {
        for bad in [json!(null), json!([]), json!([[]]), json!([[1, 2], [3]]), json!([["a"]]), json!([[-1]]), json!({"rows": 1})] {
            assert!(map_from_preview(&bad).is_none(), "{bad}");
        }
    }
}
