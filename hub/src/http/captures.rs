//! `POST /api/iotRequests/{serial}`: starts an analysis on a device (spec §7), the same remote
//! activation a browser sends as `ActivateRemote` — a dynamic capture of the default recognition
//! time for the caller's selected patient, through the device's capture machine and its rules.

use actors::actor::mat::MatMsg;
use ractor::rpc::CallResult;
use warp::http::StatusCode;

use super::caller::Caller;
use super::error::ApiError;
use super::json::ok;
use super::state::ACTOR_TIMEOUT;

/// `POST /api/iotRequests/{serial}`: the capture started for this patient.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CaptureStarted {
    pub started: bool,
    pub patient_id: String,
}

fn unavailable() -> ApiError {
    ApiError::new(StatusCode::CONFLICT, "connectDevice", "the device is not available")
}

/// Starts a remote capture; 409 with the capture machine's refusal key (`patientSelected`,
/// `connectDevice`, `onGoing`, …) when it cannot start.
pub async fn start(serial: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    let device = call.device_by_serial(&serial)?;
    if device.device_type.frame_shape().is_none() {
        return Err(ApiError::new(StatusCode::BAD_REQUEST, "notACaptureDevice", "this device captures nothing itself"));
    }
    let patient = call.store().patients().selected(call.user_id()).await.map_err(ApiError::internal)?;
    let Some(patient) = patient else {
        return Err(ApiError::new(StatusCode::CONFLICT, "patientSelected", "select a patient first"));
    };
    let handle = call.state.device_actor(&device.id).await.ok_or_else(unavailable)?;
    handle.actor.cast(MatMsg::SelectPatient(Some(patient.id.clone()))).map_err(|_| unavailable())?;
    let user_id = call.user_id().to_owned();
    match handle.actor.call(|reply| MatMsg::RemoteActivation { user_id, reply }, Some(ACTOR_TIMEOUT)).await {
        Ok(CallResult::Success(Ok(()))) => Ok(ok(&CaptureStarted { started: true, patient_id: patient.id })),
        Ok(CallResult::Success(Err(refusal))) => {
            Err(ApiError::new(StatusCode::CONFLICT, refusal.code(), format!("the capture cannot start: {}", refusal.code())))
        }
        _ => Err(unavailable()),
    }
}
