//! A REST handler's command or reading of a device, wherever its owner is (issue 25): on this
//! hub's actor when this hub owns the device (or runs alone, or no hub does), else on the owner's
//! by the cluster's route — the same `session_commands::run_on_owner` a browser session takes.
//! Every REST handler that asks a device's actor comes through here.

use std::sync::Arc;

use actors::actor::session_commands::{CommandOutcome, DeviceCommand, run_on_owner};

use crate::http::state::AppState;

/// Runs `command` on the device's owner.
pub async fn run(hub: &AppState, device_id: &Arc<str>, command: DeviceCommand) -> CommandOutcome {
    run_on_owner(hub.bus.seam(), &hub.actors.registry, device_id, command).await
}
