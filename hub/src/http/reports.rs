//! PDF reports of stored analyses: `POST /api/downloadAnalysisPDF/{id}/{x}` (the report, with
//! the user's widgets, language and palette) and `POST /api/downloadRealScalePDF/{id}` (the map at
//! real scale on A3 or A4), named through `Content-Disposition`. Rendering is in the `reports`
//! crate; the stored record is read back by `crate::domain::analyses::report_source`.

use reports::{AnalysisReportInput, Language, LayoutOptions, Palette, PaperSize, PdfKind, RealScaleInput, ReportClock, ReportError};
use serde::Deserialize;
use warp::Reply;
use warp::http::StatusCode;

use super::caller::Caller;
use super::error::ApiError;
use crate::domain::analyses::{ReportSource, report_source};

/// The caller's company's analysis `id`, read back for a report.
async fn load(call: &Caller, id: &str) -> Result<ReportSource, ApiError> {
    Ok(report_source(call.store(), &call.state.catalog, id).await?)
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
        ReportError::ShapeMismatch { .. } | ReportError::EmptyMap => {
            ApiError::new(StatusCode::BAD_REQUEST, "toastErrorRaw.noAnalysisData", error.to_string())
        }
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

/// The user's clock, refused with 400 when out of range.
fn checked_clock(clock: &ReportClock) -> Result<(), ApiError> {
    clock.check().map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "toastErrorRaw.downloadError", e.to_string()))
}

/// The download's name: patient, analysis, and date and time on the user's clock.
fn file_name(kind: PdfKind, loaded: &ReportSource, clock: &ReportClock) -> String {
    let patient = loaded.patient.as_ref().map(|p| p.name.as_str());
    reports::pdf_file_name(kind, patient, loaded.kind, loaded.device_type, loaded.record.creation_date, clock)
}

/// The analysis report.
pub async fn analysis_pdf(id: String, _x: String, mut call: Caller) -> Result<warp::reply::Response, ApiError> {
    let request: AnalysisPdfRequest = call.json().await?;
    checked_clock(&request.layout_options.clock)?;
    let loaded = load(&call, &id).await?;
    let file_name = file_name(PdfKind::Analysis, &loaded, &request.layout_options.clock);
    let input = AnalysisReportInput {
        analysis_type: loaded.kind,
        device_type: loaded.device_type,
        device_name: loaded.device_name,
        creation_date_s: loaded.record.creation_date,
        branding: loaded.branding,
        patient: loaded.patient,
        notes: loaded.record.notes,
        map: loaded.map,
        result: loaded.result,
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
    /// The user's clock for the printed date and the file name.
    #[serde(flatten)]
    pub clock: ReportClock,
}

/// The map at real scale; refused (422 `toastErrorRaw.realScaleNotOffered`) for a type the
/// device-type table gives no real-scale print (beds).
pub async fn real_scale_pdf(id: String, mut call: Caller) -> Result<warp::reply::Response, ApiError> {
    let request: RealScaleRequest = call.json().await?;
    checked_clock(&request.clock)?;
    let loaded = load(&call, &id).await?;
    if !loaded.device_type.real_scale_print() {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "toastErrorRaw.realScaleNotOffered",
            format!("a {} offers no real-scale print", loaded.device_type.name()),
        ));
    }
    let file_name = file_name(PdfKind::RealScale(request.layout), &loaded, &request.clock);
    let input = RealScaleInput {
        device_type: loaded.device_type,
        device_name: loaded.device_name,
        creation_date_s: loaded.record.creation_date,
        patient_name: loaded.patient.map(|p| p.name),
        company_name: loaded.branding.company_name,
        map: loaded.map,
        language: request.language,
        palette: request.palette,
        clock: request.clock,
    };
    let paper = request.layout;
    let bytes = render(move || reports::real_scale_pdf(&input, paper)).await?;
    Ok(pdf_response(bytes, &file_name))
}
