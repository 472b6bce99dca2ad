//! `POST /api/iotRequests/{serial}`: starts an analysis on a device (spec §7), the same remote
//! activation a browser sends as `ActivateRemote` — a dynamic capture of the default recognition
//! time for the caller's selected patient, through the device's capture machine and its rules.

use actors::actor::session_commands::{CommandOutcome, DeviceCommand};
use warp::http::StatusCode;

use super::caller::Caller;
use super::error::ApiError;
use super::json::ok;
use crate::cluster::commands_route::OWNER_SILENT;
use crate::domain::device_commands;

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
    // On the device's owner: this hub's actor, or another hub's in a cluster (issue 25).
    let command = DeviceCommand::ActivateRemote { patient_id: Some(patient.id.clone()), user_id: call.user_id().to_owned() };
    match device_commands::run(&call.state, &device.id, command).await {
        CommandOutcome::Done => Ok(ok(&CaptureStarted { started: true, patient_id: patient.id })),
        CommandOutcome::CaptureRefused(refusal) => {
            Err(ApiError::new(StatusCode::CONFLICT, refusal.code(), format!("the capture cannot start: {}", refusal.code())))
        }
        CommandOutcome::Unavailable { reason } if reason == OWNER_SILENT => {
            Err(ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "deviceUnavailable", reason))
        }
        _ => Err(unavailable()),
    }
}
