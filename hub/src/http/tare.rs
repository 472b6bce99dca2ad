//! A mat's tare (its idle level, subtracted from every frame; `mat_core::machine::tare`):
//! `GET /api/device/{id}/tare` shows it on the device page, `POST /api/device/{id}/tare` is an
//! administrator's "zero the empty mat" (refused while someone lies on it; audited).

use actors::actor::session_commands::{CommandOutcome, DeviceCommand};
use mat_core::machine::tare::{IDLE_CEILING_MMHG, Tare, TareRefusal, TareSource};
use mat_protocol::device_type::DeviceType;
use mat_protocol::scale::{PASCAL_PER_MMHG, PASCAL_PER_UNIT, units_per_cell};
use serde::Serialize;
use warp::http::StatusCode;

use super::audit::Audit;
use super::caller::{Admin, Caller};
use super::error::ApiError;
use super::json::ok;
use crate::domain::device_commands;

/// `GET`/`POST /api/device/{id}/tare`: the idle level subtracted from the mat's frames.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TareJson {
    /// Whether a tare is set (learnt or zeroed); without one nothing is subtracted.
    pub set: bool,
    /// How it was set (`learnt` while the mat was empty, `zeroed` by an administrator).
    pub source: Option<TareSource>,
    /// When it was set, Unix ms.
    pub set_at_ms: Option<u64>,
    /// Mean idle level over the cells, mmHg.
    pub mean_mm_hg: f64,
    /// Largest idle level of a cell, mmHg.
    pub max_mm_hg: f64,
    /// Cells learnt automatically never exceed this, mmHg.
    pub ceiling_mm_hg: f64,
}

impl TareJson {
    fn new(device_type: DeviceType, tare: Option<&Tare>) -> Self {
        let mmhg_per_step = units_per_cell(device_type) * PASCAL_PER_UNIT / PASCAL_PER_MMHG;
        let round = |v: f64| (v * 100.0).round() / 100.0;
        TareJson {
            set: tare.is_some(),
            source: tare.map(|t| t.source),
            set_at_ms: tare.map(|t| t.set_at_ms),
            mean_mm_hg: round(tare.map_or(0.0, |t| t.mean_steps()) * mmhg_per_step),
            max_mm_hg: round(f64::from(tare.map_or(0, |t| t.max_steps())) * mmhg_per_step),
            ceiling_mm_hg: IDLE_CEILING_MMHG,
        }
    }
}

/// The tare of a company mat; `notFound` for devices without pressure maps (force channels, room
/// sets, parents).
pub async fn get(id: String, call: Caller) -> Result<warp::reply::Response, ApiError> {
    let device = call.device(&id)?;
    if device.device_type.uses_reading_presence() {
        return Err(ApiError::not_found("tare"));
    }
    // On the device's owner, whichever hub that is (issue 25).
    let tare = match device_commands::run(&call.state, &device.id, DeviceCommand::ReadTare).await {
        CommandOutcome::Tare(tare) => tare,
        CommandOutcome::NoDeviceActor => return Err(ApiError::not_found("tare")),
        other => return Err(ApiError::device_unavailable(&other)),
    };
    Ok(ok(&TareJson::new(device.device_type, tare.as_ref())))
}

/// Zeroes an empty mat: its latest empty frames become its idle level. `tareOccupied` (409) while
/// someone lies on it, `tareNoEmptyFrame` (409) before an empty frame has arrived.
pub async fn zero(id: String, call: Admin) -> Result<warp::reply::Response, ApiError> {
    let device = call.device(&id)?;
    if device.device_type.uses_reading_presence() {
        return Err(ApiError::not_found("tare"));
    }
    let tare = match device_commands::run(&call.state, &device.id, DeviceCommand::ZeroTare).await {
        CommandOutcome::TareZeroed(tare) => tare,
        CommandOutcome::TareRefused(refusal) => {
            let message = match refusal {
                TareRefusal::Occupied => "someone lies on the mat",
                TareRefusal::NoEmptyFrame => "no empty frame has arrived from the mat",
            };
            return Err(ApiError::new(StatusCode::CONFLICT, refusal.key(), message));
        }
        CommandOutcome::NoDeviceActor => return Err(ApiError::not_found("tare")),
        other => return Err(ApiError::device_unavailable(&other)),
    };
    let body = TareJson::new(device.device_type, Some(&tare));
    let summary =
        format!("{}: zeroed the empty mat (idle level {:.2} mmHg mean, {:.2} max)", device.serial, body.mean_mm_hg, body.max_mm_hg);
    Audit { company_id: &call.claims().company_id, action: "device.tare", entity_type: "device", entity_id: &device.id, summary }
        .record(&call)
        .await;
    Ok(ok(&body))
}
