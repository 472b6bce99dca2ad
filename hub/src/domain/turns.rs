//! Turns a nurse records (issue 23): the device's actor restarts its repositioning clock from the
//! turn, logs it and attends an unattended Ulcer Risk alarm with it (docs/decisions.md, "A
//! recorded turn"); the turn log is read back from storage.

use actors::actor::mat::TurnRecorded;
use actors::actor::session_commands::{CommandOutcome, DeviceCommand};
use actors::catalog::DeviceInfo;
use mat_api::turn::CheckedTurn;
use mat_core::machine::mat::TurnRefusal;
use mat_core::machine::posture::Posture;
use storage::CompanyStore;
use storage::model::TurnLog;

use super::error::DomainError;
use super::{device_commands, records_stored};
use crate::cluster::commands_route::OWNER_SILENT;
use crate::http::state::AppState;

/// Records a turn of the patient on `device` (of the caller's company) by `user_id`: through the
/// device's actor, then written (a writer flush) before this answers, so the turn log read next
/// holds it. Refused (`noRepositioningClock`) on a device without a repositioning clock.
pub async fn record(hub: &AppState, device: &DeviceInfo, user_id: &str, turn: CheckedTurn) -> Result<TurnRecorded, DomainError> {
    let no_clock = || DomainError::refused("noRepositioningClock", "this device has no repositioning clock");
    if !device.device_type.watches_repositioning() {
        return Err(no_clock());
    }
    if device.device_type.frame_shape().is_none() {
        return Err(no_clock());
    }
    // On the device's owner: this hub's actor, or another hub's in a cluster (issue 25), whose
    // writer has stored the turn when it answers.
    let command = DeviceCommand::RecordTurn { at_ms: turn.at_ms, position: Posture::from_name(turn.position), by: user_id.to_owned() };
    let recorded = match device_commands::run(hub, &device.id, command).await {
        CommandOutcome::TurnRecorded(recorded) => recorded,
        CommandOutcome::TurnRefused(TurnRefusal::NoRepositioningClock) => return Err(no_clock()),
        CommandOutcome::Unavailable { reason } if reason == OWNER_SILENT => return Err(DomainError::unavailable(reason)),
        _ => return Err(DomainError::internal("the device's actor did not answer")),
    };
    records_stored::flushed(hub, "recorded turn").await?;
    Ok(recorded)
}

/// A device's recorded turns, newest first.
pub async fn turns(store: CompanyStore<'_>, device: &DeviceInfo) -> Result<Vec<TurnLog>, DomainError> {
    store.logs().turns(&device.id).await.map_err(DomainError::internal)
}
