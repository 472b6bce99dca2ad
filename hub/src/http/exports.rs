//! `GET /api/analysisExport/{id}/{kind}`: the raw-data export of a stored analysis (spec §3),
//! `processed` (version 2.0) or `unprocessed` (version 1.0), as the JSON file the client saves,
//! named `type_kind_analysis_YYYY-MM-DD.json` through `Content-Disposition`. Built by
//! `mat_core::analysis::export`; refused with `toastErrorRaw.noAnalysisData` when there is nothing
//! to export. The stored record is read back by `crate::domain::analyses::export`.

use mat_core::analysis::export::ExportKind;
use warp::Reply;
use warp::http::StatusCode;

use super::caller::Caller;
use super::error::ApiError;
use crate::domain::analyses;

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
    let file = analyses::export(call.store(), &call.state.catalog, &id, kind, storage::unix_now() * 1000).await?;
    let mut response = warp::reply::with_header(file.json, "content-type", "application/json").into_response();
    if let Ok(value) = warp::http::HeaderValue::from_str(&format!("attachment; filename=\"{}\"", file.file_name)) {
        response.headers_mut().insert("content-disposition", value);
    }
    Ok(response)
}
