//! Converting the machines' `Instant`s to wall-clock time (Unix ms) and back, around one anchor:
//! an `Instant` and the Unix ms it stands for. Records and snapshots carry wall-clock times so
//! they mean the same after a process restart; the machines keep `Instant`s. The caller reads
//! both clocks; this type only does the arithmetic.

use std::time::{Duration, Instant};

/// A pair of readings of the monotonic and the wall clock taken together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WallClock {
    /// The monotonic reading.
    pub now: Instant,
    /// The wall-clock reading at `now`, in ms since the Unix epoch.
    pub now_unix_ms: u64,
}

impl WallClock {
    /// The anchor `now` ↔ `now_unix_ms`.
    pub fn new(now: Instant, now_unix_ms: u64) -> Self {
        WallClock { now, now_unix_ms }
    }

    /// The Unix ms of `at` (sub-millisecond parts are dropped).
    pub fn unix_ms(&self, at: Instant) -> u64 {
        if at >= self.now {
            self.now_unix_ms.saturating_add(millis(at.duration_since(self.now)))
        } else {
            self.now_unix_ms.saturating_sub(millis(self.now.duration_since(at)))
        }
    }

    /// The `Instant` of a Unix-ms time. A time before the monotonic clock's origin (older than
    /// the machine's uptime) becomes the earliest `Instant` this anchor can express, `now`
    /// at worst, so it is never in the future.
    pub fn instant(&self, unix_ms: u64) -> Instant {
        if unix_ms >= self.now_unix_ms {
            self.now + Duration::from_millis(unix_ms - self.now_unix_ms)
        } else {
            let back = Duration::from_millis(self.now_unix_ms - unix_ms);
            self.now.checked_sub(back).unwrap_or(self.now)
        }
    }

    /// [`Self::unix_ms`] of an optional time.
    pub fn unix_ms_opt(&self, at: Option<Instant>) -> Option<u64> {
        at.map(|at| self.unix_ms(at))
    }

    /// [`Self::instant`] of an optional time.
    pub fn instant_opt(&self, unix_ms: Option<u64>) -> Option<Instant> {
        unix_ms.map(|ms| self.instant(ms))
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instants_convert_to_wall_clock_around_the_anchor_and_back() {
        let now = Instant::now();
        let clock = WallClock::new(now, 10_000);
        assert_eq!(clock.unix_ms(now + Duration::from_millis(1_500)), 11_500);
        assert_eq!(clock.unix_ms(now), 10_000);
        assert_eq!(clock.instant(11_500), now + Duration::from_millis(1_500));
        if let Some(before) = now.checked_sub(Duration::from_secs(2)) {
            assert_eq!(clock.unix_ms(before), 8_000);
            assert_eq!(clock.instant(8_000), before);
        }
        // Another anchor, later on both clocks: the same instants map to the same wall times.
        let later = WallClock::new(now + Duration::from_secs(60), 70_000);
        assert_eq!(later.instant(11_500), now + Duration::from_millis(1_500));
    }

    #[test]
    fn a_time_before_the_monotonic_origin_is_never_in_the_future() {
        let now = Instant::now();
        let clock = WallClock::new(now, u64::MAX / 2);
        assert!(clock.instant(0) <= now);
    }
}
