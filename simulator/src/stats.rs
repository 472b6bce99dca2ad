//! Counters shared by many simulated devices (lock-free; read them any time).

use std::sync::atomic::{AtomicU64, Ordering};

/// Counters of a fleet of simulated devices. Share one `Arc<SimStats>` between devices.
#[derive(Debug, Default)]
pub struct SimStats {
    /// Frames written to the transport.
    pub frames_sent: AtomicU64,
    /// Bytes of frame messages written (including the QUIC length prefix).
    pub bytes_sent: AtomicU64,
    /// Hellos answered with a welcome.
    pub connects: AtomicU64,
    /// Devices currently welcomed and connected (a gauge).
    pub connected: AtomicU64,
    /// Welcomed connections that ended other than by shutdown.
    pub disconnects: AtomicU64,
    /// Hellos answered with an error.
    pub refusals: AtomicU64,
    /// Devices that stopped for good because of a terminal refusal.
    pub fatal: AtomicU64,
    /// Commands received from the hub.
    pub commands: AtomicU64,
    /// Acks sent.
    pub acks: AtomicU64,
    /// Failed connection attempts, broken connections, malformed or non-fatal error messages
    /// from the hub.
    pub errors: AtomicU64,
}

/// A copy of the counters at one moment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct StatsSnapshot {
    /// See [`SimStats::frames_sent`].
    pub frames_sent: u64,
    /// See [`SimStats::bytes_sent`].
    pub bytes_sent: u64,
    /// See [`SimStats::connects`].
    pub connects: u64,
    /// See [`SimStats::connected`].
    pub connected: u64,
    /// See [`SimStats::disconnects`].
    pub disconnects: u64,
    /// See [`SimStats::refusals`].
    pub refusals: u64,
    /// See [`SimStats::fatal`].
    pub fatal: u64,
    /// See [`SimStats::commands`].
    pub commands: u64,
    /// See [`SimStats::acks`].
    pub acks: u64,
    /// See [`SimStats::errors`].
    pub errors: u64,
}

impl SimStats {
    /// Reads every counter (each atomically; the set is not one consistent cut, which is fine
    /// for monitoring).
    pub fn snapshot(&self) -> StatsSnapshot {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        StatsSnapshot {
            frames_sent: get(&self.frames_sent),
            bytes_sent: get(&self.bytes_sent),
            connects: get(&self.connects),
            connected: get(&self.connected),
            disconnects: get(&self.disconnects),
            refusals: get(&self.refusals),
            fatal: get(&self.fatal),
            commands: get(&self.commands),
            acks: get(&self.acks),
            errors: get(&self.errors),
        }
    }

    pub(crate) fn bump(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }
}

impl StatsSnapshot {
    /// Counter increases from `earlier` to `self` (the `connected` gauge is taken from `self`).
    pub fn since(&self, earlier: &StatsSnapshot) -> StatsSnapshot {
        StatsSnapshot {
            frames_sent: self.frames_sent.saturating_sub(earlier.frames_sent),
            bytes_sent: self.bytes_sent.saturating_sub(earlier.bytes_sent),
            connects: self.connects.saturating_sub(earlier.connects),
            connected: self.connected,
            disconnects: self.disconnects.saturating_sub(earlier.disconnects),
            refusals: self.refusals.saturating_sub(earlier.refusals),
            fatal: self.fatal.saturating_sub(earlier.fatal),
            commands: self.commands.saturating_sub(earlier.commands),
            acks: self.acks.saturating_sub(earlier.acks),
            errors: self.errors.saturating_sub(earlier.errors),
        }
    }
}

/// Keeps the `connected` gauge right however a session ends (including cancellation).
pub(crate) struct ConnectedGuard(std::sync::Arc<SimStats>);

impl ConnectedGuard {
    pub(crate) fn new(stats: std::sync::Arc<SimStats>) -> Self {
        stats.connected.fetch_add(1, Ordering::Relaxed);
        Self(stats)
    }
}

impl Drop for ConnectedGuard {
    fn drop(&mut self) {
        self.0.connected.fetch_sub(1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guard_tracks_the_gauge_and_snapshots_subtract() {
        let stats = std::sync::Arc::new(SimStats::default());
        let before = stats.snapshot();
        {
            let _g = ConnectedGuard::new(stats.clone());
            SimStats::bump(&stats.frames_sent);
            assert_eq!(stats.snapshot().connected, 1);
        }
        let after = stats.snapshot();
        assert_eq!(after.connected, 0);
        assert_eq!(after.since(&before).frames_sent, 1);
    }
}
