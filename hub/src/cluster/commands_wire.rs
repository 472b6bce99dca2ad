//! The subject and messages of commands to a device's owner (issue 25, docs/scale-out.md
//! "Commands to the owner"), with their MessagePack encoding. Pure.
//!
//! `pmat.device.<device>.command`: request [`CommandRequest`] (the
//! [`DeviceCommand`](actors::actor::session_commands::DeviceCommand) a session or a REST handler
//! would have sent to the actor), reply [`CommandReply`] (its
//! [`CommandOutcome`](actors::actor::session_commands::CommandOutcome), with the refusal codes
//! the browser knows). Only the hub that owns the device subscribes.

use actors::actor::session_commands::{CommandOutcome, DeviceCommand};
use serde::{Deserialize, Serialize};

use super::events_wire::token;

/// The subject a device's owner answers commands on.
pub fn command_subject(device_id: &str) -> String {
    format!("pmat.device.{}.command", token(device_id))
}

/// A command for a device, from the hub the request came to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CommandRequest {
    pub origin: String,
    pub device_id: String,
    pub command: DeviceCommand,
}

/// The owner's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CommandReply {
    pub owner: String,
    pub outcome: CommandOutcome,
}

pub use super::events_wire::{decode, encode};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_and_its_refusal_cross_whole() {
        let request = CommandRequest {
            origin: "hub-b".into(),
            device_id: "d1".into(),
            command: DeviceCommand::AttendAlarm { alarm: Some(3), by: Some("u1".into()) },
        };
        assert_eq!(decode::<CommandRequest>(&encode(&request)), Some(request));
        let reply = CommandReply {
            owner: "hub-a".into(),
            outcome: CommandOutcome::CaptureRefused(mat_core::machine::capture::CaptureRefusal::DynamicOngoing),
        };
        assert_eq!(decode::<CommandReply>(&encode(&reply)), Some(reply.clone()));
        assert_eq!(reply.outcome.refusal().map(|(code, _)| code), Some("dynamicOngoing"), "the same i18n key as on the owner");
        assert_eq!(command_subject("d.1"), "pmat.device.d_1.command");
    }
}
