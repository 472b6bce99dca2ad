//! What a command sent to another hub became, pure (issue 25): the owner's answer, "nobody owns
//! it" (run it here: a device connected nowhere is refused as a single hub refuses it), or the
//! owner gone silent (`deviceUnavailable`; 503 over REST).

use std::time::Duration;

use actors::actor::session_commands::CommandOutcome;
use actors::fanout::RouteOutcome;

use super::commands_wire::{CommandReply, decode};

/// How long a hub waits for a device's owner: longer than the owner waits for its actor
/// (`session_commands::CALL_TIMEOUT`, 2 s), so an actor's own timeout comes back as its answer.
pub const COMMAND_TIMEOUT: Duration = Duration::from_secs(4);

/// The reason a browser reads when the owner did not answer in time.
pub const OWNER_SILENT: &str = "the hub that holds the device did not answer in time";

/// How a request to the owner ended, as the NATS client says it.
#[derive(Debug, Clone, PartialEq)]
pub enum Delivery {
    /// The owner's reply payload.
    Replied(Vec<u8>),
    /// Nobody subscribes to the device's command subject.
    NoResponders,
    /// The subject has a subscriber that did not answer in time, or the connection failed.
    Failed(String),
}

/// The route's outcome of a delivery.
pub fn outcome_of(delivery: Delivery) -> RouteOutcome {
    match delivery {
        Delivery::Replied(payload) => match decode::<CommandReply>(&payload) {
            Some(reply) => RouteOutcome::Answered(reply.outcome),
            None => RouteOutcome::Answered(CommandOutcome::Unavailable { reason: "the device's hub sent an unreadable answer".into() }),
        },
        Delivery::NoResponders => RouteOutcome::NoOwner,
        Delivery::Failed(_) => RouteOutcome::Answered(CommandOutcome::Unavailable { reason: OWNER_SILENT.into() }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::commands_wire::encode;

    #[test]
    fn each_delivery_has_its_outcome() {
        let reply = CommandReply { owner: "a".into(), outcome: CommandOutcome::Attended(2) };
        assert_eq!(outcome_of(Delivery::Replied(encode(&reply).to_vec())), RouteOutcome::Answered(CommandOutcome::Attended(2)));
        assert_eq!(outcome_of(Delivery::NoResponders), RouteOutcome::NoOwner, "connected nowhere: refused here");
        assert_eq!(
            outcome_of(Delivery::Failed("timed out".into())),
            RouteOutcome::Answered(CommandOutcome::Unavailable { reason: OWNER_SILENT.into() })
        );
        assert!(matches!(outcome_of(Delivery::Replied(b"junk".to_vec())), RouteOutcome::Answered(CommandOutcome::Unavailable { .. })));
    }
}
