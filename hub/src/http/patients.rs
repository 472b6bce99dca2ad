//! Patients (company-wide) and each user's selected patient:
//! `GET` and `POST /api/podometry/patients/{userId}`, `GET` and `PUT
//! /api/podometry/patient/select/{userId}`, `PUT /api/podometry/patient/{patientId}`.
//!
//! `{userId}` must be the caller: one user cannot act as another (404 otherwise).

use serde::{Deserialize, Serialize};
use storage::model::{Patient, PatientFields};

use super::caller::Caller;
use super::error::ApiError;
use super::json::{created, ok, Oid};
use mat_api::patient::{validate_patient, PatientInput, PatientMode};

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
    let id = call.store().patients().create(call.user_id(), &fields).await.map_err(|e| ApiError::store(e, "patient", "duplicate"))?;
    let patient = call.store().patients().get(&id).await.map_err(ApiError::internal)?.ok_or_else(|| ApiError::not_found("patient"))?;
    Ok(created(&PatientJson::from(patient)))
}

/// Edits a patient of the company.
pub async fn update(patient_id: String, mut call: Caller) -> Result<warp::reply::Response, ApiError> {
    let input: PatientInput = call.json().await?;
    let fields = validate_patient(&input, PatientMode::Update, storage::unix_now())?;
    call.store().patients().update(&patient_id, &fields).await.map_err(|e| ApiError::store(e, "patient", "duplicate"))?;
    let patient = call.store().patients().get(&patient_id).await.map_err(ApiError::internal)?.ok_or_else(|| ApiError::not_found("patient"))?;
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
    let patient = call.store().patients().get(&request.patient_id).await.map_err(ApiError::internal)?.ok_or_else(|| ApiError::not_found("patient"))?;
    Ok(ok(&SelectedPatient { patient: Some(patient.into()), message: None }))
}
