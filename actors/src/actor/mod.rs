//! Thin ractor shells around the machines: they feed inputs, drain outputs and forward them.
//!
//! Tree: `HubSupervisor` → `DeviceRegistry` (→ `MatActor` per device, `RoomSetActor` per set),
//! `SessionSupervisor` (→ `SessionActor` per browser socket), `StorageWriter`.

pub mod hub;
pub mod link;
pub mod mat;
pub mod publish;
pub mod record;
pub mod registry;
pub mod room_set;
pub mod session;
pub mod session_commands;
pub mod storage_writer;

use std::sync::OnceLock;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use mat_core::machine::wall_clock::WallClock;

/// The machines' clock: `std::time::Instant`, read through tokio so that tests with paused time
/// (`tokio::time::pause`, `advance`) move the machines' deadlines and the actors' timers together.
/// In production it is the monotonic clock itself.
pub(crate) fn machine_now() -> Instant {
    tokio::time::Instant::now().into_std()
}

/// Wall-clock milliseconds since the Unix epoch, for `hubTimeMs`.
pub(crate) fn unix_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}

/// The Unix-ms wall-clock time of a machine `Instant`, taking `now` as the pair's anchor.
pub(crate) fn instant_to_unix_ms(at: Instant, now: Instant, now_unix_ms: u64) -> u64 {
    WallClock::new(now, now_unix_ms).unix_ms(at)
}

/// The wall-clock time of a machine `Instant` for snapshots: one anchor per process (taken at
/// the first call), so an `Instant` converts to the same Unix ms whenever it is converted (and
/// back to within a millisecond), and tests with paused time move it with the machines' clock. Across a process
/// restart it is the wall clock (give or take the monotonic clock's drift since the anchor).
pub(crate) fn snapshot_unix_ms(at: Instant) -> u64 {
    static ANCHOR: OnceLock<WallClock> = OnceLock::new();
    ANCHOR.get_or_init(|| WallClock::new(machine_now(), unix_ms())).unix_ms(at)
}

/// The one pending timer of an actor that drives a machine. After every message the actor asks
/// the machine for its next deadline; a timer is armed only when that deadline is earlier than the
/// one already armed, so a device streaming at 30 Hz does not schedule 30 timers a second.
#[derive(Debug, Default)]
pub(crate) struct TimerSlot(Option<Instant>);

impl TimerSlot {
    /// The delay to schedule for `deadline`, or `None` when an earlier or equal timer is armed.
    pub(crate) fn arm(&mut self, deadline: Instant, now: Instant) -> Option<Duration> {
        if self.0.is_some_and(|armed| armed <= deadline) {
            return None;
        }
        self.0 = Some(deadline);
        Some(deadline.saturating_duration_since(now))
    }

    /// The armed timer fired.
    pub(crate) fn fired(&mut self) {
        self.0 = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_earlier_deadline_arms_a_new_timer() {
        let t0 = Instant::now();
        let mut slot = TimerSlot::default();
        assert_eq!(slot.arm(t0 + Duration::from_secs(5), t0), Some(Duration::from_secs(5)));
        assert_eq!(slot.arm(t0 + Duration::from_secs(6), t0), None, "later deadline: the armed timer covers it");
        assert_eq!(slot.arm(t0 + Duration::from_secs(5), t0), None);
        assert_eq!(slot.arm(t0 + Duration::from_secs(2), t0 + Duration::from_secs(1)), Some(Duration::from_secs(1)));
        slot.fired();
        assert_eq!(slot.arm(t0 + Duration::from_secs(6), t0 + Duration::from_secs(2)), Some(Duration::from_secs(4)));
    }
}
