//! Fan-out from devices to browser sessions: per-session bounded outboxes, and the bus that
//! knows which session watches which device and company.
//!
//! Device ownership and session subscription sit behind [`Bus`], so a later multi-hub version
//! can put a message bus between hubs without changing the actors.

mod bus;
mod outbox;

pub use bus::{Bus, CompanyChannel, DeviceChannel, DeviceScope, LivePicture, SessionId, Viewer};
pub use outbox::{CONTROL_CAPACITY, CloseReason, MAX_LIVE_DEVICES, Outbox};
