//! Patients (company-wide) and each user's selected patient:
//! `GET` and `POST /api/podometry/patients/{userId}`, `GET` and `PUT
//! /api/podometry/patient/select/{userId}`, `PUT /api/podometry/patient/{patientId}`.
//!
//! `{userId}` must be the caller: one user cannot act as another (404 otherwise).
//!
//! And `PUT /api/device/{id}/patient` (a bed, seat or room set's own patient), `DELETE
//! /api/podometry/patient/{patientId}` (administrators; audited in the deletion's transaction)
//! and `GET /api/podometry/patient/{patientId}/data` (the patient's data as one JSON file), all
//! through `crate::domain::patients`.

use serde::{Deserialize, Serialize};
use storage::model::{Patient, PatientFields};

use super::audit::Audit;
use super::caller::{Admin, Caller};
use super::error::ApiError;
use super::json::{Oid, created, ok};
use mat_api::patient::{PatientInput, PatientMode, validate_patient};

/// The message when no patient is selected (spec §7).
/// The caller's selected patient: `patient: null` with [`NO_PATIENT_SELECTED`] when none.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct SelectedPatient {
    pub patient: Option<PatientJson>,
    pub message: Option<String>,
}

pub const NO_PATIENT_SELECTED: &str = "No patient is currently selected.";

/// A patient as the client reads it (spec §3): `_id` and the stored fields. Unset phone, phone2
/// and postalCode are '-1', unset size -1; the client shows them blank.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct PatientJson {
    #[serde(rename = "_id")]
    pub id: Oid,
    #[serde(flatten)]
    pub fields: PatientFields,
}

impl From<Patient> for PatientJson {
    fn from(patient: Patient) -> Self {
        PatientJson { id: Oid::new(&patient.id), fields: patient.fields }
    }
}

/// The company's patients, by name.
pub async fn list(user_id: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    call.acts_as(&user_id)?;
    let patients = call.store().patients().list().await.map_err(ApiError::internal)?;
    Ok(ok(&patients.into_iter().map(PatientJson::from).collect::<Vec<_>>()))
}

/// Registers a patient (the data-treatment agreement is required).
pub async fn create(user_id: String, mut call: Caller) -> Result<warp::reply::Response, ApiError> {
    call.acts_as(&user_id)?;
    let input: PatientInput = call.json().await?;
    let fields = validate_patient(&input, PatientMode::Create, storage::unix_now())?;
    let audit = Audit {
        company_id: &call.claims().company_id,
        action: "patient.create",
        entity_type: "patient",
        entity_id: "",
        summary: format!("patient {:?} registered", fields.name),
    };
    let entry = audit.entry(&call).await;
    let id = call
        .store()
        .patients()
        .create_audited(call.user_id(), &fields, &entry)
        .await
        .map_err(|e| ApiError::store(e, "patient", "duplicate"))?;
    let patient = call.store().patients().get(&id).await.map_err(ApiError::internal)?.ok_or_else(|| ApiError::not_found("patient"))?;
    Ok(created(&PatientJson::from(patient)))
}

/// Edits a patient of the company.
pub async fn update(patient_id: String, mut call: Caller) -> Result<warp::reply::Response, ApiError> {
    let input: PatientInput = call.json().await?;
    let fields = validate_patient(&input, PatientMode::Update, storage::unix_now())?;
    let audit = Audit {
        company_id: &call.claims().company_id,
        action: "patient.update",
        entity_type: "patient",
        entity_id: &patient_id,
        summary: format!("patient {:?} edited", fields.name),
    };
    let entry = audit.entry(&call).await;
    call.store().patients().update_audited(&patient_id, &fields, &entry).await.map_err(|e| ApiError::store(e, "patient", "duplicate"))?;
    let patient =
        call.store().patients().get(&patient_id).await.map_err(ApiError::internal)?.ok_or_else(|| ApiError::not_found("patient"))?;
    Ok(ok(&PatientJson::from(patient)))
}

/// The caller's selected patient: `{ patient, message }`, `patient` null and the spec's message
/// when none is selected.
pub async fn selected(user_id: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    call.acts_as(&user_id)?;
    let patient = call.store().patients().selected(call.user_id()).await.map_err(ApiError::internal)?;
    let body = match patient {
        Some(patient) => SelectedPatient { patient: Some(patient.into()), message: None },
        None => SelectedPatient { patient: None, message: Some(NO_PATIENT_SELECTED.to_owned()) },
    };
    Ok(ok(&body))
}

/// `PUT /api/podometry/patient/select/{userId}` body.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SelectRequest {
    pub patient_id: String,
}

/// Selects a patient of the company for the caller.
pub async fn select(user_id: String, mut call: Caller) -> Result<warp::reply::Response, ApiError> {
    call.acts_as(&user_id)?;
    let request: SelectRequest = call.json().await?;
    if request.patient_id.is_empty() {
        return Err(ApiError::not_found("patient"));
    }
    call.store().patients().select(call.user_id(), &request.patient_id).await.map_err(|e| ApiError::store(e, "patient", "duplicate"))?;
    let patient = call
        .store()
        .patients()
        .get(&request.patient_id)
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(|| ApiError::not_found("patient"))?;
    Ok(ok(&SelectedPatient { patient: Some(patient.into()), message: None }))
}

/// `PUT /api/device/{id}/patient` body: the patient to put at the bedside, `null` to release it.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BedsideRequest {
    pub patient_id: Option<String>,
}

/// A device's patient at the bedside after a change.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BedsidePatient {
    pub device_id: String,
    /// `null` when the device is free.
    pub current_patient: Option<String>,
    pub current_patient_name: Option<String>,
}

/// Assigns or releases the patient at a bed, seat or room set of the caller's company
/// (`noBedsidePatient` for the plates, whose captures follow each user's selection).
pub async fn set_bedside(id: String, mut call: Caller) -> Result<warp::reply::Response, ApiError> {
    let request: BedsideRequest = call.json().await?;
    let device = call.device(&id)?;
    let patient_id = request.patient_id.filter(|p| !p.is_empty());
    crate::domain::patients::set_bedside(call.store(), &device, patient_id.as_deref()).await?;
    let stored = call.store().devices().get(&device.id).await.map_err(ApiError::internal)?.ok_or_else(|| ApiError::not_found("device"))?;
    Ok(ok(&BedsidePatient {
        device_id: stored.id,
        current_patient: stored.current_patient,
        current_patient_name: stored.current_patient_name,
    }))
}

/// `DELETE /api/podometry/patient/{patientId}`: what was deleted.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PatientDeleted {
    pub deleted: String,
    /// How many of their analyses were erased with them.
    pub analyses: u64,
}

/// Deletes a patient of the company (administrators): their analyses are erased, their devices
/// released, and the audit entry written, in one transaction.
pub async fn delete(patient_id: String, call: Admin) -> Result<warp::reply::Response, ApiError> {
    let patient =
        call.store().patients().get(&patient_id).await.map_err(ApiError::internal)?.ok_or_else(|| ApiError::not_found("patient"))?;
    let filter = storage::model::AnalysisFilter { patient_id: Some(patient_id.clone()), analysis_type: None, device_id: None };
    let analyses = call.store().analyses().totals(&filter).await.map_err(ApiError::internal)?.count;
    let audit = Audit {
        company_id: &call.claims().company_id,
        action: "patient.delete",
        entity_type: "patient",
        entity_id: &patient_id,
        summary: crate::domain::patients::deletion_summary(&patient.fields.name, analyses),
    };
    let entry = audit.entry(&call).await;
    crate::domain::patients::delete(call.store(), &patient_id, &entry).await?;
    Ok(ok(&PatientDeleted { deleted: patient_id, analyses }))
}

/// `GET /api/podometry/patient/{patientId}/data`: the patient's data as one JSON file.
pub async fn data_file(patient_id: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    let file = crate::domain::patients::data_file(call.store(), &patient_id, storage::unix_now() * 1000).await?;
    let name = crate::domain::patients::data_file_name(&file.patient.name, &file.patient_id);
    let mut response = ok(&file);
    if let Ok(value) = warp::http::HeaderValue::from_str(&format!("attachment; filename=\"{name}\"")) {
        response.headers_mut().insert("content-disposition", value);
    }
    Ok(response)
}
