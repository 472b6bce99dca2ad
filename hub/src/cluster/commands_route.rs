//! What a command sent to another hub became, pure (issue 25): the owner's answer, "nobody owns
//! it" (run it here: a device connected nowhere is refused as a single hub refuses it), the
//! device moving between hubs (nobody answers yet a lease is held: 503, try again), or the owner
//! gone silent (`deviceUnavailable`; 503 over REST).

use std::time::Duration;

use actors::actor::session_commands::CommandOutcome;
use actors::fanout::RouteOutcome;

use super::commands_wire::{CommandReply, decode};
use super::lease::Observed;

/// How long a hub waits for a device's owner: longer than the owner waits for its actor
/// (`session_commands::CALL_TIMEOUT`, 2 s), so an actor's own timeout comes back as its answer.
pub const COMMAND_TIMEOUT: Duration = Duration::from_secs(4);

/// The reason a browser reads when the owner did not answer in time.
pub const OWNER_SILENT: &str = "the hub that holds the device did not answer in time";

/// The reason a browser reads when a command finds the device between two hubs.
pub const MOVING: &str = "the device is moving to another hub; try again in a few seconds";

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

/// Nobody answered on the device's command subject; `lease` is what the lease bucket holds for
/// it (`None` when NATS could not say). A held lease means the device is between hubs: its owner
/// died and the lease has not expired yet, or a hub is taking it over and does not answer yet (it
/// has read the device's rows and not yet subscribed). Running the command here then would act on
/// an idle actor whose writes are fenced, and a storage write made beside it (an attendance) would
/// land after the new owner read the rows: its machine would keep an alarm the store calls
/// attended and raise none for the patient's next absence (docs/reliability.md §6). So it is
/// refused, to be asked again. No lease (or no answer from NATS): connected nowhere, run here.
pub fn unanswered(lease: Option<&Observed>) -> RouteOutcome {
    match lease {
        Some(Observed::Held { .. }) => RouteOutcome::Answered(CommandOutcome::Unavailable { reason: MOVING.into() }),
        Some(Observed::Absent) | None => RouteOutcome::NoOwner,
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

    #[test]
    fn a_device_nobody_answers_for_is_run_here_only_when_no_lease_is_held() {
        use crate::cluster::lease::LeaseValue;
        let held = Observed::Held { revision: 7, value: LeaseValue { node: "hub-b".into(), connection_ms: 1 } };
        assert_eq!(
            unanswered(Some(&held)),
            RouteOutcome::Answered(CommandOutcome::Unavailable { reason: MOVING.into() }),
            "a lease held (a dead owner's not expired yet, or a new owner not answering yet): moving, try again"
        );
        assert_eq!(unanswered(Some(&Observed::Absent)), RouteOutcome::NoOwner, "connected nowhere: run here");
        assert_eq!(unanswered(None), RouteOutcome::NoOwner, "NATS cannot say: as before, run here");
    }
}
