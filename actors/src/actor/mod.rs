//! Thin ractor shells around the machines: they feed inputs, drain outputs and forward them.
//!
//! Tree: `HubSupervisor` → `DeviceRegistry` (→ `MatActor` per device, `RoomSetActor` per set),
//! `SessionSupervisor` (→ `SessionActor` per browser socket), `StorageWriter`.

pub mod hub;
pub mod link;
pub mod mat;
pub mod registry;
pub mod room_set;
pub mod session;
pub mod storage_writer;

use std::time::{SystemTime, UNIX_EPOCH};

/// Wall-clock milliseconds since the Unix epoch, for `hubTimeMs`.
pub(crate) fn unix_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}
