//! Fan-out from devices to browser sessions: per-session bounded outboxes, and the bus that
//! knows which session watches which device and company.
//!
//! Device ownership and session subscription sit behind [`Bus`]; in a cluster of hubs its
//! [`ClusterSeam`] says which devices this hub owns and relays their facts to the other hubs
//! (issue 25), without changing the actors.

mod bus;
mod outbox;
mod relay;
#[cfg(test)]
pub(crate) mod test_relay;

pub use bus::{Bus, CompanyChannel, DeviceChannel, DeviceScope, LivePicture, SessionId, Viewer};
pub use outbox::{CONTROL_CAPACITY, CloseReason, LIVE_FLUSH_INTERVAL, MAX_LIVE_DEVICES, Outbox};
pub use relay::{ClusterSeam, CommandRoute, Relay, RouteOutcome};
