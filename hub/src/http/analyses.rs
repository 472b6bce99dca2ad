//! Analysis records: `POST /api/podometryAnalysis/{patientId}` and
//! `POST /api/seatingAnalysis/{patientId}` store one; `PUT` (notes) and `DELETE
//! /api/podometryAnalysis/specific/{id}`; history pages of 10 and counts, for the company or one
//! patient, filtered by type (`all` for every type). The operations and the stored format are
//! `crate::domain::analyses`'s and `crate::domain::analysis_format`'s.

use schemars::generate::SchemaGenerator;
use schemars::{Schema, json_schema};
use serde::{Deserialize, Serialize};
use storage::model::{Analysis, AnalysisFilter, AnalysisTotals};

use super::audit::Audit;
use super::call::path_segment;
use super::caller::Caller;
use super::error::ApiError;
use super::json::{Oid, created, ok};
use crate::domain::analyses::{self, MAX_PAGE, PAGE_SIZE, PODOMETRY_TYPES, PostedKind, SEATING_TYPE};
pub use crate::domain::analyses::{AnalysisInput, NOTES_MAX};
use crate::domain::analysis_format::{parameters_json, preview_json};

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
        let (map_preview, additional_parameters) = (preview_json(&a), parameters_json(&a));
        AnalysisJson {
            id: Oid::new(&a.id),
            patient_id: a.patient_id,
            user_id: a.user_id,
            device_id: a.device,
            analysis_type: a.analysis_type,
            creation_date: a.creation_date,
            notes: a.notes,
            map_preview,
            additional_parameters,
        }
    }
}

async fn store_analysis(patient_id: String, mut call: Caller, kind: PostedKind) -> Result<warp::reply::Response, ApiError> {
    let input: AnalysisInput = call.json().await?;
    let stored =
        analyses::store_posted(call.store(), &call.state.catalog, call.user_id(), &patient_id, kind, input, storage::unix_now()).await?;
    Ok(created(&AnalysisJson::from(stored)))
}

/// Stores a podology, balance, fitting or rehab analysis for a patient.
pub async fn create_podometry(patient_id: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    store_analysis(patient_id, call, PostedKind::Podometry).await
}

/// Stores a seating analysis for a patient.
pub async fn create_seating(patient_id: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    store_analysis(patient_id, call, PostedKind::Seating).await
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
    let audit = Audit {
        company_id: &call.claims().company_id,
        action: "analysis.notes",
        entity_type: "analysis",
        entity_id: &id,
        summary: format!("notes edited ({} characters)", request.notes.chars().count()),
    };
    let entry = audit.entry(&call).await;
    let stored = analyses::update_notes(call.store(), &id, &request.notes, &entry).await?;
    Ok(ok(&AnalysisJson::from(stored)))
}

/// Deletes an analysis.
pub async fn delete(id: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    let record = analyses::get(call.store(), &id).await?;
    let audit = Audit {
        company_id: &call.claims().company_id,
        action: "analysis.delete",
        entity_type: "analysis",
        entity_id: &id,
        summary: format!("{} analysis of patient {} deleted", record.analysis_type, record.patient_id),
    };
    let entry = audit.entry(&call).await;
    analyses::delete(call.store(), &id, &entry).await?;
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

/// `{analysisType}` of the history calls: a podology type, [`SEATING_TYPE`] or `all`.
pub fn history_type(_: &mut SchemaGenerator) -> Schema {
    let types: Vec<&str> = PODOMETRY_TYPES.into_iter().chain([SEATING_TYPE, "all"]).collect();
    json_schema!({ "type": "string", "enum": types })
}

/// `{page}` of the history calls: from 1.
pub fn page_number_schema(_: &mut SchemaGenerator) -> Schema {
    json_schema!({ "type": "integer", "minimum": 1, "maximum": MAX_PAGE })
}

fn totals(count: u64, bytes: u64) -> HistoryTotals {
    HistoryTotals {
        total_analysis: count,
        total_pages: count.div_ceil(PAGE_SIZE),
        total_size: (bytes as f64 / 1_048_576.0 * 100.0).round() / 100.0,
    }
}

impl From<AnalysisTotals> for HistoryTotals {
    fn from(sums: AnalysisTotals) -> Self {
        totals(sums.count, sums.bytes)
    }
}

/// Which history a call asks for: the company's, one patient's or one device's.
enum HistoryOf {
    Company,
    Patient(String),
    Device(String),
}

/// The filter of a history call; a device must be one of the caller's company's.
fn history_filter(call: &Caller, of: HistoryOf, analysis_type: &str) -> Result<AnalysisFilter, ApiError> {
    Ok(match of {
        HistoryOf::Company => analyses::filter(None, analysis_type)?,
        HistoryOf::Patient(patient) => analyses::filter(Some(patient), analysis_type)?,
        HistoryOf::Device(device) => {
            let device = call.device(&path_segment(&device))?;
            AnalysisFilter { device_id: Some(device.id.to_string()), ..analyses::filter(None, analysis_type)? }
        }
    })
}

async fn history_page(
    call: Caller,
    user_id: String,
    of: HistoryOf,
    analysis_type: String,
    page: String,
) -> Result<warp::reply::Response, ApiError> {
    call.acts_as(&user_id)?;
    let filter = history_filter(&call, of, &path_segment(&analysis_type))?;
    let page = analyses::page_number(&page)?;
    let (found, sums) = analyses::history_page(call.store(), &filter, page).await?;
    Ok(ok(&HistoryPage { analyses: found.into_iter().map(AnalysisJson::from).collect(), current_page_count: page, totals: sums.into() }))
}

async fn history_count(call: Caller, user_id: String, of: HistoryOf, analysis_type: String) -> Result<warp::reply::Response, ApiError> {
    call.acts_as(&user_id)?;
    let filter = history_filter(&call, of, &path_segment(&analysis_type))?;
    let sums = analyses::history_totals(call.store(), &filter).await?;
    Ok(ok(&HistoryTotals::from(sums)))
}

/// `GET /api/podometryAnalysisPage/{userId}/{analysisType}/{page}`.
pub async fn page(user_id: String, analysis_type: String, page: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    history_page(call, user_id, HistoryOf::Company, analysis_type, page).await
}

/// `GET /api/podometryAnalysisCount/{userId}/{analysisType}`.
pub async fn count(user_id: String, analysis_type: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    history_count(call, user_id, HistoryOf::Company, analysis_type).await
}

/// `GET /api/podometryAnalysisPatient/{userId}/{patientId}/{analysisType}/{page}`.
pub async fn patient_page(
    user_id: String,
    patient_id: String,
    analysis_type: String,
    page: String,
    call: Caller,
) -> Result<warp::reply::Response, ApiError> {
    history_page(call, user_id, HistoryOf::Patient(patient_id), analysis_type, page).await
}

/// `GET /api/podometryAnalysisCountPatient/{userId}/{patientId}/{analysisType}`.
pub async fn patient_count(
    user_id: String,
    patient_id: String,
    analysis_type: String,
    call: Caller,
) -> Result<warp::reply::Response, ApiError> {
    history_count(call, user_id, HistoryOf::Patient(patient_id), analysis_type).await
}

/// `GET /api/deviceAnalysisPage/{userId}/{deviceId}/{analysisType}/{page}`: the analyses made on
/// one device (a device page's history, issue 21).
pub async fn device_page(
    user_id: String,
    device_id: String,
    analysis_type: String,
    page: String,
    call: Caller,
) -> Result<warp::reply::Response, ApiError> {
    history_page(call, user_id, HistoryOf::Device(device_id), analysis_type, page).await
}

/// `GET /api/deviceAnalysisCount/{userId}/{deviceId}/{analysisType}`.
pub async fn device_count(
    user_id: String,
    device_id: String,
    analysis_type: String,
    call: Caller,
) -> Result<warp::reply::Response, ApiError> {
    history_count(call, user_id, HistoryOf::Device(device_id), analysis_type).await
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
}
