//! A REST handler's command to a device, wherever its owner is (issue 25): on this hub's actor
//! when this hub owns the device (or runs alone, or no hub does), else on the owner's by the
//! cluster's route — the same `session_commands` a browser session runs.

use std::sync::Arc;

use actors::actor::session_commands::{CommandOutcome, DeviceCommand, execute};
use actors::fanout::RouteOutcome;

use crate::http::state::AppState;

/// Runs `command` on the device's owner.
pub async fn run(hub: &AppState, device_id: &Arc<str>, command: DeviceCommand) -> CommandOutcome {
    if let Some(route) = hub.bus.seam().route_for(device_id) {
        match route.send(device_id, command.clone()).await {
            RouteOutcome::Answered(outcome) => return outcome,
            RouteOutcome::NoOwner => {}
        }
    }
    execute(&hub.actors.registry, device_id.clone(), command).await
}
