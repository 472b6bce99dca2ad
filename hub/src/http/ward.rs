//! The ward board's routes. `GET /api/wardBoard`: what the board needs beyond the cards'
//! statuses, in one call for the whole company — each repositioning clock (interval, tier, seconds
//! to the next turn) and the latest posture with its confidence, read from the devices' own
//! actors; a person's board filters by unit itself (a unit is a building and floor of the devices
//! it already lists), a paired ward screen is answered its unit's only. `GET`/`PUT /api/wardSettings`: the company's board settings (patients' names in
//! full or as initials), set by its administrators and audited.

use serde::{Deserialize, Serialize};
use storage::model::WardSettings;

use actors::actor::session_commands::{ClockReading, CommandOutcome, DeviceCommand, PostureSeen};
use mat_core::machine::posture::PostureReading;
use mat_core::machine::pressure_ulcer::RepositioningTier;

use super::audit::Audit;
use super::caller::{Admin, BoardReader};
use super::error::ApiError;
use super::json::{Oid, ok};
use crate::domain::device_commands;

/// One device's clock and posture, as a ward tile shows them.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WardClockJson {
    pub device_id: Oid,
    /// The repositioning interval set for the patient, minutes.
    pub interval_minutes: u64,
    pub tier: RepositioningTier,
    /// Whole seconds until the next turn is due (0 once due), `null` while nobody lies on the mat.
    pub due_in_seconds: Option<u64>,
    /// Whole seconds the mat has been empty while its load episode lives on (the patient is up
    /// for less than `offloadSeconds`: the countdown runs on); `null` while someone is on it or
    /// the clock is at rest.
    pub unloaded_for_seconds: Option<u64>,
    /// How long the mat must stay empty for the load episode to end, seconds.
    pub offload_seconds: u64,
    /// The latest posture (`Supine`, `Prone`, `Left Lateral`, `Right Lateral`, `Seated`,
    /// `No Supine`), `null` while nobody is present.
    pub posture: Option<String>,
    /// Calibrated probability, 0–1, that the posture is right.
    pub posture_confidence: Option<f32>,
    /// Whether the posture is certain (confidence at or above the classifier's threshold,
    /// `mat_core::machine::posture::CONFIDENT`); an uncertain one is shown as such and takes no
    /// turn decision. `null` while nobody is present.
    pub posture_certain: Option<bool>,
}

/// The latest posture as the board and the device page's clock state it (`posture`,
/// `postureConfidence`, `postureCertain`): `None` each while nobody is present.
pub struct PostureNow {
    pub posture: Option<String>,
    pub confidence: Option<f32>,
    pub certain: Option<bool>,
}

impl PostureNow {
    pub fn of(seen: Option<PostureSeen>) -> Self {
        let reading = seen.map(PostureReading::from);
        PostureNow {
            posture: reading.map(|p| p.posture.name().to_owned()),
            confidence: reading.map(|p| p.confidence),
            certain: reading.map(|p| p.is_certain()),
        }
    }
}

/// Every device of the caller's company that runs the repositioning clock (room sets' members
/// included), with its clock and posture, read on each device's owner. A device whose actor (or
/// owning hub) does not answer in time is left out of this answer rather than failing the whole
/// board.
/// A ward screen (role 3) reads its unit's only.
pub async fn clocks(call: BoardReader) -> Result<warp::reply::Response, ApiError> {
    let company = call.claims().company_id.clone();
    let scope = call.scope().await?;
    let mut devices: Vec<_> = call
        .state
        .catalog
        .all()
        .into_iter()
        .filter(|d| *d.company_id == *company && scope.as_ref().is_none_or(|scope| scope.contains(&d.id)))
        .collect();
    devices.sort_by(|a, b| a.id.cmp(&b.id));
    // Asked of every device's owner at once (issue 25: another hub's, by NATS, for the devices
    // it holds), so one silent owner costs the board one timeout, not one per device.
    let devices: Vec<_> = devices.into_iter().filter(|device| device.device_type.info().repositioning_clock).collect();
    let readings = futures_util::future::join_all(
        devices.iter().map(|device| device_commands::run(&call.state, &device.id, DeviceCommand::ReadClock)),
    )
    .await;
    let mut body = Vec::new();
    for (device, reading) in devices.iter().zip(readings) {
        let CommandOutcome::Clock(ClockReading { clock: Some(clock), posture }) = reading else { continue };
        let posture = PostureNow::of(posture);
        body.push(WardClockJson {
            device_id: Oid::new(&device.id),
            interval_minutes: clock.interval.as_secs() / 60,
            tier: clock.tier,
            due_in_seconds: clock.due_in.map(|d| d.as_secs()),
            unloaded_for_seconds: clock.unloaded_for.map(|d| d.as_secs()),
            offload_seconds: clock.offload.as_secs(),
            posture: posture.posture,
            posture_confidence: posture.confidence,
            posture_certain: posture.certain,
        });
    }
    Ok(ok(&body))
}

/// The company's ward board settings, as the board reads them and an administrator sends them.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WardSettingsJson {
    /// Patients are named by their initials on the board ("A. M. L."), not in full.
    pub patient_initials: bool,
}

/// `GET /api/wardSettings` (ward screens too: the board shows names as the company sets them).
pub async fn settings(call: BoardReader) -> Result<warp::reply::Response, ApiError> {
    let settings = call.store().profile().ward_settings().await.map_err(|e| ApiError::store(e, "company", "duplicateCompany"))?;
    Ok(ok(&WardSettingsJson { patient_initials: settings.patient_initials }))
}

/// `PUT /api/wardSettings` (the company's administrators): stored, audited, answered.
pub async fn set_settings(mut call: Admin) -> Result<warp::reply::Response, ApiError> {
    let input: WardSettingsJson = call.json().await?;
    call.store()
        .profile()
        .set_ward_settings(&WardSettings { patient_initials: input.patient_initials })
        .await
        .map_err(|e| ApiError::store(e, "company", "duplicateCompany"))?;
    let summary = format!("ward board: patients' names {}", if input.patient_initials { "as initials" } else { "in full" });
    let company_id = &call.claims().company_id;
    Audit { company_id, action: "company.wardSettings", entity_type: "company", entity_id: company_id, summary }.record(&call).await;
    Ok(ok(&input))
}
