//! Operations on stored analyses: a finished capture becomes an analysis of its patient, a
//! client's analysis is checked and stored, notes change, analyses are deleted and listed in
//! history pages, and a stored analysis is read back for its PDF report and its raw export. The
//! format itself is [`super::analysis_format`]'s.

use std::sync::Arc;

use actors::actor::record::CaptureRecord;
use actors::catalog::Catalog;
use mat_api::char_len;
use mat_core::analysis::export::{ExportError, ExportFile, ExportKind, ExportMetadata, export_raw};
use mat_core::analysis::{AnalysisKind, AnalysisParams, AnalysisResult, analyse};
use mat_protocol::device_type::DeviceType;
use reports::{PatientSummary, ReportBranding, ReportMap};
use serde::Deserialize;
use storage::model::{Analysis, AnalysisFilter, AnalysisTotals, NewAnalysis, NewAuditEntry};
use storage::{CompanyStore, StoreError};

use super::analysis_format::{
    self, capture_analysis, encode_posted, export_capture, export_series, named_parameters, preview_json, report_map,
};
use super::error::DomainError;

/// History page size (spec §9).
pub const PAGE_SIZE: u64 = 10;
/// Analysis notes limit (spec §5).
pub const NOTES_MAX: usize = 1100;
/// Types stored through `podometryAnalysis`.
pub const PODOMETRY_TYPES: [&str; 5] = ["Static", "Balance", "Dynamic", "Fitting", "Rehab"];
/// The type stored through `seatingAnalysis`.
pub const SEATING_TYPE: &str = "seatingDynamic";
/// The last history page: beyond it the offset would not fit storage's integer.
pub const MAX_PAGE: u64 = i64::MAX as u64 / PAGE_SIZE;
/// The i18n key of "there is nothing in this analysis to print or export".
const NO_DATA: &str = "toastErrorRaw.noAnalysisData";

/// Stores a finished capture as an analysis of its patient in `store`'s company (the capturing
/// device's), with the patient's weight and height
/// as the engine's parameters. The engine runs on a blocking thread (it is CPU-heavy for a long
/// capture), so it never holds up the runtime's other tasks. An engine that panicked on the capture
/// would panic again on every retry: that is `StoreError::Invalid`, a record that can never be
/// written (the storage writer's records log and skip it).
pub async fn record_capture(
    store: CompanyStore<'_>,
    device_type: Option<DeviceType>,
    capture: Arc<CaptureRecord>,
) -> Result<(), StoreError> {
    let capture = with_capture_patient(&store, device_type, capture).await?;
    let patient = store.patients().get(&capture.patient_id).await?;
    let params =
        AnalysisParams { weight_kg: patient.as_ref().map(|p| p.fields.weight), height_cm: patient.as_ref().map(|p| p.fields.height) };
    let analysis = tokio::task::spawn_blocking(move || capture_analysis(device_type, &capture, &params)).await.map_err(|error| {
        if error.is_panic() {
            StoreError::Invalid("the analysis engine panicked on the capture".to_owned())
        } else {
            StoreError::Database(format!("the analysis of a capture did not finish: {error}"))
        }
    })?;
    store.analyses().create(&analysis).await.map(|_| ())
}

/// The capture with the patient it belongs to: on a bed, seat or room set with a patient
/// assigned, that patient — whoever was selected in the browser that asked (issue 22: the
/// bedside's records are its patient's); otherwise the patient selected for it.
async fn with_capture_patient(
    store: &CompanyStore<'_>,
    device_type: Option<DeviceType>,
    capture: Arc<CaptureRecord>,
) -> Result<Arc<CaptureRecord>, StoreError> {
    if !device_type.is_some_and(DeviceType::has_bedside_patient) {
        return Ok(capture);
    }
    let Some(device) = store.devices().get(&capture.device_id).await? else { return Ok(capture) };
    match super::patients::bedside_patient_id(store, &device).await? {
        Some(bedside) if bedside != capture.patient_id => {
            let mut owned = Arc::unwrap_or_clone(capture);
            owned.patient_id = bedside;
            Ok(Arc::new(owned))
        }
        _ => Ok(capture),
    }
}

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
    /// Unix seconds; now when absent. Not after the hub's clock (60 s of slack): a later one is
    /// 400 `invalidCreationDate` (a rule of the clock, which no static schema can state).
    #[schemars(range(min = 0))]
    pub creation_date: Option<i64>,
    pub device_id: Option<String>,
}

/// `analysisType` of a podology analysis: one of [`PODOMETRY_TYPES`].
fn podometry_type(_: &mut schemars::generate::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "type": "string", "enum": PODOMETRY_TYPES })
}

/// Which route stored an analysis: `podometryAnalysis` (the body names a podology type) or
/// `seatingAnalysis` (always [`SEATING_TYPE`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PostedKind {
    Podometry,
    Seating,
}

/// Refuses notes longer than [`NOTES_MAX`] characters.
pub fn check_notes(notes: &str) -> Result<(), DomainError> {
    if char_len(notes) > NOTES_MAX {
        return Err(DomainError::refused("analysisNotes", format!("notes are at most {NOTES_MAX} characters")));
    }
    Ok(())
}

/// Checks and stores a client's analysis of `user_id` for a patient of `store`'s company at `now`
/// (Unix seconds); answers it as stored. Its device, when named, must be one of the company's.
pub async fn store_posted(
    store: CompanyStore<'_>,
    catalog: &Catalog,
    user_id: &str,
    patient_id: &str,
    kind: PostedKind,
    input: AnalysisInput,
    now: i64,
) -> Result<Analysis, DomainError> {
    let analysis_type = match kind {
        PostedKind::Seating => SEATING_TYPE.to_owned(),
        PostedKind::Podometry => {
            let given = input.analysis_type.clone().unwrap_or_default();
            if !PODOMETRY_TYPES.contains(&given.as_str()) {
                return Err(DomainError::refused("invalidAnalysisType", format!("analysisType is one of {}", PODOMETRY_TYPES.join(", "))));
            }
            given
        }
    };
    check_notes(&input.notes)?;
    if let Some(device) = &input.device_id {
        catalog.get_in_company(device, store.company_id()).ok_or(DomainError::NotFound("device"))?;
    }
    let creation_date = input.creation_date.unwrap_or(now);
    if creation_date > now + 60 || creation_date < 0 {
        return Err(DomainError::refused("invalidCreationDate", "creationDate is Unix seconds, not in the future"));
    }
    let (map_preview, additional_parameters) = encode_posted(&input.map_preview, input.additional_parameters);
    let record = NewAnalysis {
        patient_id: patient_id.to_owned(),
        user_id: user_id.to_owned(),
        device: input.device_id,
        analysis_type,
        creation_date,
        notes: input.notes,
        map_preview,
        additional_parameters,
    };
    let id = store.analyses().create(&record).await.map_err(DomainError::store("patient", "duplicate"))?;
    get(store, &id).await
}

/// An analysis of the company.
pub async fn get(store: CompanyStore<'_>, id: &str) -> Result<Analysis, DomainError> {
    store.analyses().get(id).await.map_err(DomainError::internal)?.ok_or(DomainError::NotFound("analysis"))
}

/// Replaces an analysis's notes, with its audit entry in the same transaction; answers it.
pub async fn update_notes(store: CompanyStore<'_>, id: &str, notes: &str, audit: &NewAuditEntry) -> Result<Analysis, DomainError> {
    check_notes(notes)?;
    store.analyses().set_notes_audited(id, notes, audit).await.map_err(DomainError::store("analysis", "duplicate"))?;
    get(store, id).await
}

/// Deletes an analysis of the company, with its audit entry in the same transaction.
pub async fn delete(store: CompanyStore<'_>, id: &str, audit: &NewAuditEntry) -> Result<(), DomainError> {
    store.analyses().delete_audited(id, audit).await.map_err(DomainError::store("analysis", "duplicate"))
}

/// The history's filter: a patient's (or every) analysis of a type (`all` for every type).
pub fn filter(patient_id: Option<String>, analysis_type: &str) -> Result<AnalysisFilter, DomainError> {
    let analysis_type = match analysis_type {
        "all" => None,
        t if PODOMETRY_TYPES.contains(&t) || t == SEATING_TYPE => Some(t.to_owned()),
        other => return Err(DomainError::refused("invalidAnalysisType", format!("'{other}' is not an analysis type (or 'all')"))),
    };
    Ok(AnalysisFilter { patient_id, analysis_type, device_id: None })
}

/// A history page number (from 1, at most [`MAX_PAGE`]).
pub fn page_number(page: &str) -> Result<u64, DomainError> {
    page.parse::<u64>()
        .ok()
        .filter(|p| (1..=MAX_PAGE).contains(p))
        .ok_or_else(|| DomainError::refused("invalidPage", "pages are numbered from 1"))
}

/// The totals of the company's history under `filter`; a patient filter names one of its
/// patients.
pub async fn history_totals(store: CompanyStore<'_>, filter: &AnalysisFilter) -> Result<AnalysisTotals, DomainError> {
    if let Some(patient) = &filter.patient_id {
        store.patients().get(patient).await.map_err(DomainError::internal)?.ok_or(DomainError::NotFound("patient"))?;
    }
    store.analyses().totals(filter).await.map_err(DomainError::internal)
}

/// Page `page` (from 1) of the company's history under `filter`, and the totals of all of it.
pub async fn history_page(
    store: CompanyStore<'_>,
    filter: &AnalysisFilter,
    page: u64,
) -> Result<(Vec<Analysis>, AnalysisTotals), DomainError> {
    if let Some(patient) = &filter.patient_id {
        store.patients().get(patient).await.map_err(DomainError::internal)?.ok_or(DomainError::NotFound("patient"))?;
    }
    let analyses = store.analyses().page(filter, page - 1, PAGE_SIZE).await.map_err(DomainError::internal)?;
    let totals = store.analyses().totals(filter).await.map_err(DomainError::internal)?;
    Ok((analyses, totals))
}

/// A stored analysis as its reports draw it.
pub struct ReportSource {
    /// The record as stored.
    pub record: Analysis,
    /// Its analysis kind.
    pub kind: AnalysisKind,
    /// The map (the mean of the frames of a capture of several).
    pub map: ReportMap,
    /// The device's type (the kind's usual device when the device is unknown).
    pub device_type: DeviceType,
    /// Empty when the device is unknown.
    pub device_name: String,
    /// The patient's name, and height and weight on the analysis day, when the patient still
    /// exists.
    pub patient: Option<PatientSummary>,
    /// The engine's result: the one stored with a capture, else computed again from the frames.
    pub result: Option<AnalysisResult>,
    /// The company's name, logo and variants.
    pub branding: ReportBranding,
}

/// The record's kind; a type the engine does not know is a storage inconsistency.
fn record_kind(record: &Analysis) -> Result<AnalysisKind, DomainError> {
    analysis_format::kind(record).ok_or_else(|| DomainError::internal(format!("unknown analysis type {:?}", record.analysis_type)))
}

/// The device an analysis was made on, when it is still one of the company's: its type and name.
fn analysis_device(catalog: &Catalog, company_id: &str, record: &Analysis) -> Option<(DeviceType, String)> {
    let device = catalog.get_in_company(record.device.as_deref()?, company_id)?;
    Some((device.device_type, device.name.clone()))
}

/// The bytes of a logo kept as a `data:` URL (mat-api checked it).
fn logo_bytes(logo: &str) -> Option<Vec<u8>> {
    use base64::Engine;
    let data = logo.split_once(";base64,").map_or(logo, |(_, data)| data);
    base64::engine::general_purpose::STANDARD.decode(data).ok()
}

/// The company's name, logo and variants, as its reports print them.
pub async fn branding(store: CompanyStore<'_>) -> Result<ReportBranding, DomainError> {
    let company = store.profile().get().await.map_err(DomainError::internal)?;
    Ok(company
        .map(|c| ReportBranding {
            company_name: c.company_name,
            logo: c.logo.as_deref().and_then(logo_bytes),
            fitness: c.variants.fitness,
            hide_centre_of_pressure: c.variants.hide_centre_of_pressure,
        })
        .unwrap_or_default())
}

/// A stored analysis of the company, read back for a PDF report. The patient's height and
/// weight are those stored with the capture (today's only for a record that has none: a
/// client's analysis, or one stored before they were kept).
pub async fn report_source(store: CompanyStore<'_>, catalog: &Catalog, id: &str) -> Result<ReportSource, DomainError> {
    let record = get(store, id).await?;
    let kind = record_kind(&record)?;
    let map = report_map(&preview_json(&record), kind)
        .ok_or_else(|| DomainError::refused(NO_DATA, "the analysis has no pressure map to print"))?;
    let (device_type, device_name) = analysis_device(catalog, store.company_id(), &record)
        .unwrap_or_else(|| (analysis_format::default_device_type(kind), String::new()));
    let parameters = named_parameters(&record);
    let at_capture = analysis_format::patient_at_capture(&parameters);
    let patient = store.patients().get(&record.patient_id).await.map_err(DomainError::internal)?;
    let patient = patient.map(|p| {
        let (height_cm, weight_kg) = at_capture.unwrap_or((Some(p.fields.height), Some(p.fields.weight)));
        PatientSummary { name: p.fields.name, height_cm, weight_kg }
    });
    let params =
        AnalysisParams { weight_kg: patient.as_ref().and_then(|p| p.weight_kg), height_cm: patient.as_ref().and_then(|p| p.height_cm) };
    let result = match analysis_format::stored_result(&parameters).filter(|r| r.kind() == kind) {
        Some(result) => Some(result),
        // A client's analysis: analysed again from its frames, off the runtime (CPU-heavy for a
        // long capture).
        None => match export_capture(&record, &parameters, device_type) {
            Ok(capture) => {
                tokio::task::spawn_blocking(move || analyse(kind, &capture, &params).ok()).await.map_err(DomainError::internal)?
            }
            Err(_) => None,
        },
    };
    let branding = branding(store).await?;
    Ok(ReportSource { record, kind, map, device_type, device_name, patient, result, branding })
}

/// The raw-data export of a stored analysis of the company at `now_ms` (Unix ms): refused with
/// `toastErrorRaw.noAnalysisData` when there is nothing to export (no frames, no times, too few
/// series).
pub async fn export(
    store: CompanyStore<'_>,
    catalog: &Catalog,
    id: &str,
    kind: ExportKind,
    now_ms: i64,
) -> Result<ExportFile, DomainError> {
    let record = get(store, id).await?;
    let analysis_type = record_kind(&record)?;
    let device_type = analysis_device(catalog, store.company_id(), &record)
        .map(|(device_type, _)| device_type)
        .unwrap_or_else(|| analysis_format::default_device_type(analysis_type));
    let parameters = named_parameters(&record);
    let capture = export_capture(&record, &parameters, device_type).map_err(|no_data| DomainError::refused(NO_DATA, no_data.0))?;
    let metadata =
        ExportMetadata { analysis_type, patient_id: &record.patient_id, creation_date_s: record.creation_date, export_date_ms: now_ms };
    export_raw(kind, &metadata, &capture, &export_series(parameters)).map_err(|e| match e {
        ExportError::NoAnalysisData => DomainError::refused(NO_DATA, "there is nothing to export"),
        other => DomainError::Failed { key: "toastErrorRaw.downloadError", message: other.to_string() },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
