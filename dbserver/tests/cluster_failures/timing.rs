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

/// A repositioning clock read: when the request went and when the answer came (ms on the test's
/// clock), and the whole seconds until the turn is due it gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockRead {
    pub sent_ms: u64,
    pub at_ms: u64,
    pub due_in_seconds: u64,
}

impl ClockRead {
    /// When the turn may be due, ms on the test's clock, from the earliest to the latest: the
    /// hub read its clock between the request and the answer, and `dueInSeconds` is whole
    /// seconds (up to 1 s short).
    pub fn due_window_ms(&self) -> (u64, u64) {
        let due_in_ms = self.due_in_seconds * 1000;
        (self.sent_ms + due_in_ms, self.at_ms + due_in_ms + 1000)
    }
}

/// How far the due time moved at least between two reads (before and after a failover): the gap
/// between their windows, zero when they overlap. A slow answer widens a window instead of
/// moving the due time.
pub fn due_time_moved(before: ClockRead, after: ClockRead) -> Duration {
    let ((early_before, late_before), (early_after, late_after)) = (before.due_window_ms(), after.due_window_ms());
    Duration::from_millis(early_after.saturating_sub(late_before).max(early_before.saturating_sub(late_after)))
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
        let before = ClockRead { sent_ms: 9_990, at_ms: 10_000, due_in_seconds: 7_190 };
        let after = ClockRead { sent_ms: 17_390, at_ms: 17_400, due_in_seconds: 7_182 };
        assert_eq!(due_time_moved(before, after), Duration::ZERO, "windows 7,199.99–7,201 s and 7,199.39–7,200.4 s overlap");
        let later = ClockRead { sent_ms: 17_390, at_ms: 17_400, due_in_seconds: 7_185 };
        assert_eq!(due_time_moved(before, later), Duration::from_millis(1_390), "7,202.39 s is 1.39 s past 7,201 s");
        let slow = ClockRead { sent_ms: 14_000, at_ms: 17_400, due_in_seconds: 7_183 };
        assert_eq!(due_time_moved(before, slow), Duration::ZERO, "a slow answer widens its window");
        let restarted = ClockRead { sent_ms: 17_390, at_ms: 17_400, due_in_seconds: 7_200 };
        assert_eq!(due_time_moved(before, restarted), Duration::from_millis(16_390), "a clock that restarted");
        assert_eq!(due_time_moved(restarted, before), Duration::from_millis(16_390), "either way");
    }
}
