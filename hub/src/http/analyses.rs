//! Analysis records: `POST /api/podometryAnalysis/{patientId}` and
//! `POST /api/seatingAnalysis/{patientId}` store one; `PUT` (notes) and `DELETE
//! /api/podometryAnalysis/specific/{id}`; history pages of 10 and counts, for the company or one
//! patient, filtered by type (`all` for every type).

use schemars::generate::SchemaGenerator;
use schemars::{json_schema, Schema};
use serde::{Deserialize, Serialize};
use storage::model::{Analysis, AnalysisFilter, NewAnalysis};
use warp::http::StatusCode;

use super::call::path_segment;
use super::caller::Caller;
use super::error::ApiError;
use super::json::{created, ok, Oid};
use mat_api::char_len;

/// History page size (spec §9).
pub const PAGE_SIZE: u64 = 10;
/// Analysis notes limit (spec §5).
pub const NOTES_MAX: usize = 1100;
/// Types stored through `podometryAnalysis`.
pub const PODOMETRY_TYPES: [&str; 5] = ["Static", "Balance", "Dynamic", "Fitting", "Rehab"];
/// The type stored through `seatingAnalysis`.
pub const SEATING_TYPE: &str = "seatingDynamic";

/// An analysis as the client sends it.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", default)]
#[schemars(extend("required" = ["analysisType"]))]
pub struct AnalysisInput {
    #[schemars(schema_with = "podometry_type")]
    pub analysis_type: Option<String>,
    #[schemars(length(max = NOTES_MAX))]
    pub notes: String,
    pub map_preview: serde_json::Value,
    /// Ordered named pairs: `[{ "name": …, "value": … }, …]` (or `[name, value]` pairs).
    pub additional_parameters: Vec<serde_json::Value>,
    /// Unix seconds; now when absent.
    #[schemars(range(min = 0))]
    pub creation_date: Option<i64>,
    pub device_id: Option<String>,
}

/// An analysis as the client reads it (spec §3).
#[derive(Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AnalysisJson {
    #[serde(rename = "_id")]
    pub id: Oid,
    pub patient_id: String,
    pub user_id: String,
    pub device_id: Option<String>,
    pub analysis_type: String,
    pub creation_date: i64,
    pub notes: String,
    pub map_preview: serde_json::Value,
    pub additional_parameters: serde_json::Value,
}

impl From<Analysis> for AnalysisJson {
    fn from(a: Analysis) -> Self {
        AnalysisJson {
            id: Oid::new(&a.id),
            patient_id: a.patient_id,
            user_id: a.user_id,
            device_id: a.device,
            analysis_type: a.analysis_type,
            creation_date: a.creation_date,
            notes: a.notes,
            map_preview: serde_json::from_str(&a.map_preview).unwrap_or(serde_json::Value::Null),
            additional_parameters: serde_json::from_str(&a.additional_parameters).unwrap_or(serde_json::Value::Null),
        }
    }
}

fn check_notes(notes: &str) -> Result<(), ApiError> {
    if char_len(notes) > NOTES_MAX {
        return Err(ApiError::new(StatusCode::BAD_REQUEST, "analysisNotes", format!("notes are at most {NOTES_MAX} characters")));
    }
    Ok(())
}

async fn store_analysis(patient_id: String, mut call: Caller, forced_type: Option<&str>) -> Result<warp::reply::Response, ApiError> {
    let input: AnalysisInput = call.json().await?;
    let analysis_type = match forced_type {
        Some(forced) => forced.to_owned(),
        None => {
            let given = input.analysis_type.clone().unwrap_or_default();
            if !PODOMETRY_TYPES.contains(&given.as_str()) {
                return Err(ApiError::new(StatusCode::BAD_REQUEST, "invalidAnalysisType", format!("analysisType is one of {}", PODOMETRY_TYPES.join(", "))));
            }
            given
        }
    };
    check_notes(&input.notes)?;
    if let Some(device) = &input.device_id {
        call.device(device)?;
    }
    let now = storage::unix_now();
    let creation_date = input.creation_date.unwrap_or(now);
    if creation_date > now + 60 || creation_date < 0 {
        return Err(ApiError::new(StatusCode::BAD_REQUEST, "invalidCreationDate", "creationDate is Unix seconds, not in the future"));
    }
    let record = NewAnalysis {
        patient_id,
        user_id: call.user_id().to_owned(),
        device: input.device_id,
        analysis_type,
        creation_date,
        notes: input.notes,
        map_preview: input.map_preview.to_string(),
        additional_parameters: serde_json::Value::Array(input.additional_parameters).to_string(),
    };
    let id = call.store().analyses().create(&record).await.map_err(|e| ApiError::store(e, "patient", "duplicate"))?;
    let stored = call.store().analyses().get(&id).await.map_err(ApiError::internal)?.ok_or_else(|| ApiError::not_found("analysis"))?;
    Ok(created(&AnalysisJson::from(stored)))
}

/// Stores a podology, balance, fitting or rehab analysis for a patient.
pub async fn create_podometry(patient_id: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    store_analysis(patient_id, call, None).await
}

/// Stores a seating analysis for a patient.
pub async fn create_seating(patient_id: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    store_analysis(patient_id, call, Some(SEATING_TYPE)).await
}

/// `PUT …/specific/{id}` body.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct NotesRequest {
    #[schemars(length(max = NOTES_MAX))]
    pub notes: String,
}

/// Replaces an analysis's notes.
pub async fn update_notes(id: String, mut call: Caller) -> Result<warp::reply::Response, ApiError> {
    let request: NotesRequest = call.json().await?;
    check_notes(&request.notes)?;
    call.store().analyses().set_notes(&id, &request.notes).await.map_err(|e| ApiError::store(e, "analysis", "duplicate"))?;
    let stored = call.store().analyses().get(&id).await.map_err(ApiError::internal)?.ok_or_else(|| ApiError::not_found("analysis"))?;
    Ok(ok(&AnalysisJson::from(stored)))
}

/// Deletes an analysis.
pub async fn delete(id: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    call.store().analyses().delete(&id).await.map_err(|e| ApiError::store(e, "analysis", "duplicate"))?;
    Ok(ok(&Deleted { deleted: id }))
}

/// Totals of a filter as the history shows them.
#[derive(Debug, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HistoryTotals {
    pub total_analysis: u64,
    pub total_pages: u64,
    /// Megabytes, 2 decimals.
    pub total_size: f64,
}

/// A history page of 10 and the totals of the whole history.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HistoryPage {
    pub analyses: Vec<AnalysisJson>,
    pub current_page_count: u64,
    #[serde(flatten)]
    pub totals: HistoryTotals,
}

/// `DELETE /api/podometryAnalysis/specific/{id}`: the deleted analysis's id.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Deleted {
    pub deleted: String,
}

/// `analysisType` of a podology analysis: one of [`PODOMETRY_TYPES`].
fn podometry_type(_: &mut SchemaGenerator) -> Schema {
    json_schema!({ "type": "string", "enum": PODOMETRY_TYPES })
}

/// `{analysisType}` of the history calls: a podology type, [`SEATING_TYPE`] or `all`.
pub fn history_type(_: &mut SchemaGenerator) -> Schema {
    let types: Vec<&str> = PODOMETRY_TYPES.into_iter().chain([SEATING_TYPE, "all"]).collect();
    json_schema!({ "type": "string", "enum": types })
}

/// `{page}` of the history calls: from 1.
pub fn page_number_schema(_: &mut SchemaGenerator) -> Schema {
    json_schema!({ "type": "integer", "minimum": 1, "maximum": MAX_PAGE })
}

/// The last page the history calls accept: beyond it the offset would not fit storage's integer.
pub const MAX_PAGE: u64 = i64::MAX as u64 / PAGE_SIZE;

fn totals(count: u64, bytes: u64) -> HistoryTotals {
    HistoryTotals { total_analysis: count, total_pages: count.div_ceil(PAGE_SIZE), total_size: (bytes as f64 / 1_048_576.0 * 100.0).round() / 100.0 }
}

fn filter(patient_id: Option<String>, analysis_type: &str) -> Result<AnalysisFilter, ApiError> {
    let analysis_type = match analysis_type {
        "all" => None,
        t if PODOMETRY_TYPES.contains(&t) || t == SEATING_TYPE => Some(t.to_owned()),
        other => return Err(ApiError::new(StatusCode::BAD_REQUEST, "invalidAnalysisType", format!("'{other}' is not an analysis type (or 'all')"))),
    };
    Ok(AnalysisFilter { patient_id, analysis_type })
}

fn page_number(page: &str) -> Result<u64, ApiError> {
    page.parse::<u64>().ok().filter(|p| (1..=MAX_PAGE).contains(p)).ok_or_else(|| ApiError::new(StatusCode::BAD_REQUEST, "invalidPage", "pages are numbered from 1"))
}

async fn history_page(call: Caller, user_id: String, patient_id: Option<String>, analysis_type: String, page: String) -> Result<warp::reply::Response, ApiError> {
    call.acts_as(&user_id)?;
    let filter = filter(patient_id, &path_segment(&analysis_type))?;
    let page = page_number(&page)?;
    if let Some(patient) = &filter.patient_id {
        call.store().patients().get(patient).await.map_err(ApiError::internal)?.ok_or_else(|| ApiError::not_found("patient"))?;
    }
    let analyses = call.store().analyses().page(&filter, page - 1, PAGE_SIZE).await.map_err(ApiError::internal)?;
    let sums = call.store().analyses().totals(&filter).await.map_err(ApiError::internal)?;
    let totals = totals(sums.count, sums.bytes);
    Ok(ok(&HistoryPage { analyses: analyses.into_iter().map(AnalysisJson::from).collect(), current_page_count: page, totals }))
}

async fn history_count(call: Caller, user_id: String, patient_id: Option<String>, analysis_type: String) -> Result<warp::reply::Response, ApiError> {
    call.acts_as(&user_id)?;
    let filter = filter(patient_id, &path_segment(&analysis_type))?;
    if let Some(patient) = &filter.patient_id {
        call.store().patients().get(patient).await.map_err(ApiError::internal)?.ok_or_else(|| ApiError::not_found("patient"))?;
    }
    let sums = call.store().analyses().totals(&filter).await.map_err(ApiError::internal)?;
    Ok(ok(&totals(sums.count, sums.bytes)))
}

/// `GET /api/podometryAnalysisPage/{userId}/{analysisType}/{page}`.
pub async fn page(user_id: String, analysis_type: String, page: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    history_page(call, user_id, None, analysis_type, page).await
}

/// `GET /api/podometryAnalysisCount/{userId}/{analysisType}`.
pub async fn count(user_id: String, analysis_type: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    history_count(call, user_id, None, analysis_type).await
}

/// `GET /api/podometryAnalysisPatient/{userId}/{patientId}/{analysisType}/{page}`.
pub async fn patient_page(user_id: String, patient_id: String, analysis_type: String, page: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    history_page(call, user_id, Some(patient_id), analysis_type, page).await
}

/// `GET /api/podometryAnalysisCountPatient/{userId}/{patientId}/{analysisType}`.
pub async fn patient_count(user_id: String, patient_id: String, analysis_type: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    history_count(call, user_id, Some(patient_id), analysis_type).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_round_pages_up_and_size_to_2_decimals() {
        assert_eq!(totals(0, 0), HistoryTotals { total_analysis: 0, total_pages: 0, total_size: 0.0 });
        assert_eq!(totals(10, 1_048_576).total_pages, 1);
        assert_eq!(totals(11, 0).total_pages, 2);
        assert_eq!(totals(1, 1_572_864).total_size, 1.5);
        assert_eq!(totals(1, 1_000_000).total_size, 0.95);
    }

    #[test]
    fn page_numbers_start_at_1_and_types_are_known() {
        assert!(page_number("0").is_err());
        assert_eq!(page_number("3").unwrap(), 3);
        assert!(page_number("x").is_err());
        assert_eq!(page_number(&MAX_PAGE.to_string()).ok(), Some(MAX_PAGE));
        assert!(page_number(&(MAX_PAGE + 1).to_string()).is_err(), "its offset would overflow storage's integer");
        assert!(filter(None, "all").unwrap().analysis_type.is_none());
        assert_eq!(filter(None, "seatingDynamic").unwrap().analysis_type.as_deref(), Some("seatingDynamic"));
        assert!(filter(None, "Walking").is_err());
    }
}
