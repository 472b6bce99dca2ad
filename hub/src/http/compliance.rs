//! Turn compliance's routes (issue 23, item 4): `GET /api/compliance/{from}/{to}` (the figures
//! per unit and shift for the shifts starting on the days `from` to `to`), `GET
//! /api/compliancePdf/{from}/{to}/{language}` (the same as a PDF with the company's branding) and
//! `GET`/`PUT /api/complianceSettings` (the shifts and the company's time zone; set by its
//! administrators, audited in the same transaction). The operations are
//! `crate::domain::compliance`'s, the arithmetic `mat_core::compliance`'s.

use mat_core::compliance::{ComplianceRow, ShiftPlan};
use reports::{ComplianceReportInput, Language};
use serde::{Deserialize, Serialize};
use warp::Reply;

use super::audit::Audit;
use super::caller::{Admin, Caller};
use super::error::ApiError;
use super::json::ok;
use crate::domain::analyses::branding;
use crate::domain::compliance::{self, ComplianceReport, ShiftSetup};

/// A company's shifts and time zone.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ShiftSettingsJson {
    /// Each shift's start, minutes after local midnight (0–1439), increasing, 1 to 6 shifts of at
    /// least an hour; the last shift ends at the first's start the next day.
    #[schemars(length(min = 1, max = 6))]
    pub shift_starts: Vec<u16>,
    /// The company's IANA time zone (`Europe/Madrid`); the shifts' clock times are in it.
    #[schemars(length(min = 1, max = 64))]
    pub time_zone: String,
}

impl From<&ShiftSetup> for ShiftSettingsJson {
    fn from(setup: &ShiftSetup) -> Self {
        ShiftSettingsJson { shift_starts: setup.plan.starts.clone(), time_zone: setup.time_zone.clone() }
    }
}

/// One shift of the plan.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShiftJson {
    pub index: u32,
    /// `07:00–15:00` on the company's clock.
    pub label: String,
}

/// The figures of a date range.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ComplianceJson {
    /// First day, `YYYY-MM-DD`.
    pub from: String,
    /// Last day (its shifts included), `YYYY-MM-DD`.
    pub to: String,
    pub time_zone: String,
    pub shifts: Vec<ShiftJson>,
    /// One row per unit and shift; units in name order (the unit '' holds beds with no building
    /// and floor).
    pub rows: Vec<ComplianceRow>,
}

fn shifts_of(plan: &ShiftPlan) -> Vec<ShiftJson> {
    (0..plan.starts.len()).map(|i| ShiftJson { index: i as u32, label: plan.label(i) }).collect()
}

async fn load(call: &Caller, from: &str, to: &str) -> Result<ComplianceReport, ApiError> {
    let (from, to) = compliance::check_range(from, to)?;
    Ok(compliance::report(call.store(), from, to).await?)
}

/// `GET /api/compliance/{from}/{to}`.
pub async fn figures(from: String, to: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    let report = load(&call, &from, &to).await?;
    Ok(ok(&ComplianceJson {
        from: report.from.to_string(),
        to: report.to.to_string(),
        time_zone: report.setup.time_zone.clone(),
        shifts: shifts_of(&report.setup.plan),
        rows: report.rows,
    }))
}

/// `GET /api/compliancePdf/{from}/{to}/{language}`.
pub async fn pdf(from: String, to: String, language: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    let report = load(&call, &from, &to).await?;
    let input = ComplianceReportInput {
        branding: branding(call.store()).await?,
        from: report.from.to_string(),
        to: report.to.to_string(),
        time_zone: report.setup.time_zone.clone(),
        shifts: (0..report.setup.plan.starts.len()).map(|i| report.setup.plan.label(i)).collect(),
        rows: report.rows,
        language: Language::from_code(&language),
    };
    let file_name = reports::compliance_file_name(&input);
    let bytes = tokio::task::spawn_blocking(move || reports::compliance_pdf(&input))
        .await
        .map_err(ApiError::internal)?
        .map_err(ApiError::internal)?;
    let mut response = warp::reply::with_header(bytes, "content-type", "application/pdf").into_response();
    if let Ok(value) = warp::http::HeaderValue::from_str(&reports::content_disposition(&file_name)) {
        response.headers_mut().insert("content-disposition", value);
    }
    Ok(response)
}

/// `GET /api/complianceSettings`.
pub async fn settings(call: Caller) -> Result<warp::reply::Response, ApiError> {
    let setup = compliance::shift_setup(call.store()).await?;
    Ok(ok(&ShiftSettingsJson::from(&setup)))
}

/// `PUT /api/complianceSettings` (the company's administrators): checked, stored with its audit
/// entry in one transaction, answered.
pub async fn set_settings(mut call: Admin) -> Result<warp::reply::Response, ApiError> {
    let input: ShiftSettingsJson = call.json().await?;
    let setup = ShiftSetup { plan: ShiftPlan { starts: input.shift_starts.clone() }, time_zone: input.time_zone.clone() };
    compliance::check_setup(&setup)?;
    let labels: Vec<String> = (0..setup.plan.starts.len()).map(|i| setup.plan.label(i)).collect();
    let company_id = call.claims().company_id.clone();
    let summary = format!("turn compliance: shifts {} ({})", labels.join(", "), setup.time_zone);
    let entry =
        Audit { company_id: &company_id, action: "company.complianceSettings", entity_type: "company", entity_id: &company_id, summary }
            .entry(&call)
            .await;
    compliance::set_shift_setup(call.store(), &setup, &entry).await?;
    Ok(ok(&ShiftSettingsJson::from(&setup)))
}
