//! The cluster failure test's measures, pure: each mat's way back after its hub was killed or
//! paused (from the kill to the first frame sent on a connection another hub welcomed),
//! percentiles, and how far a repositioning clock's due time moved.

use std::time::Duration;

/// One connection of a mat as the mat saw it: when the hub welcomed it, and when its first frame
/// on that connection was sent (ms on the test's clock; `None` before the first frame).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Welcome {
    pub at_ms: u64,
    pub first_frame_ms: Option<u64>,
}

/// How long the mat took to be back after a failure at `failed_ms`: from the failure to the
/// first frame of its first connection welcomed after it. `None` when it was not welcomed since
/// (a mat of another hub, or one not back yet) or sent no frame yet.
pub fn back_after(welcomes: &[Welcome], failed_ms: u64) -> Option<Duration> {
    let welcome = welcomes.iter().find(|w| w.at_ms >= failed_ms)?;
    Some(Duration::from_millis(welcome.first_frame_ms? - failed_ms))
}

/// Whether the mat was welcomed again after `failed_ms` (its connection moved).
pub fn moved_since(welcomes: &[Welcome], failed_ms: u64) -> bool {
    welcomes.iter().any(|w| w.at_ms >= failed_ms)
}

/// The `q`-quantile (0–1) of `samples` by nearest rank: the smallest sample with at least
/// `q` of them at or below it (p99 of fewer than 100 samples is their maximum).
pub fn quantile(samples: &[Duration], q: f64) -> Duration {
    let mut sorted = samples.to_vec();
    sorted.sort_unstable();
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// A repositioning clock read: when the answer came (ms on the test's clock) and the whole
/// seconds until the turn is due it gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockRead {
    pub at_ms: u64,
    pub due_in_seconds: u64,
}

impl ClockRead {
    /// When the turn is due, ms on the test's clock.
    pub fn due_at_ms(&self) -> u64 {
        self.at_ms + self.due_in_seconds * 1000
    }
}

/// How far the due time moved between two reads (before and after a failover).
pub fn due_time_moved(before: ClockRead, after: ClockRead) -> Duration {
    Duration::from_millis(before.due_at_ms().abs_diff(after.due_at_ms()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn w(at_ms: u64, first_frame_ms: Option<u64>) -> Welcome {
        Welcome { at_ms, first_frame_ms }
    }

    #[test]
    fn a_mat_is_back_at_the_first_frame_of_its_first_connection_after_the_failure() {
        let welcomes = [w(100, Some(150)), w(5_000, Some(5_040)), w(9_000, Some(9_010))];
        assert_eq!(back_after(&welcomes, 1_000), Some(Duration::from_millis(4_040)));
        assert_eq!(back_after(&welcomes, 10_000), None, "not welcomed since");
        assert_eq!(back_after(&[w(100, Some(150)), w(5_000, None)], 1_000), None, "welcomed, no frame yet");
        assert!(moved_since(&welcomes, 1_000));
        assert!(!moved_since(&welcomes, 9_001));
    }

    #[test]
    fn quantiles_by_nearest_rank() {
        let ms = |v: &[u64]| v.iter().map(|&m| Duration::from_millis(m)).collect::<Vec<_>>();
        let samples = ms(&[400, 100, 300, 200]);
        assert_eq!(quantile(&samples, 0.5), Duration::from_millis(200));
        assert_eq!(quantile(&samples, 0.99), Duration::from_millis(400), "p99 of four is the largest");
        let hundred: Vec<u64> = (1..=100).collect();
        assert_eq!(quantile(&ms(&hundred), 0.99), Duration::from_millis(99));
        assert_eq!(quantile(&[], 0.99), Duration::ZERO);
    }

    #[test]
    fn a_clock_due_at_the_same_time_has_not_moved() {
        let before = ClockRead { at_ms: 10_000, due_in_seconds: 7_190 };
        let after = ClockRead { at_ms: 17_400, due_in_seconds: 7_182 };
        assert_eq!(due_time_moved(before, after), Duration::from_millis(600));
        let restarted = ClockRead { at_ms: 17_400, due_in_seconds: 7_200 };
        assert_eq!(due_time_moved(before, restarted), Duration::from_millis(17_400), "a clock that restarted");
    }
}
