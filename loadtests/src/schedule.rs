//! The send schedule of one simulated mat or publisher, and how far the generator kept to it.
//!
//! Every connection sends on a fixed grid `start + k × interval`. Each frame is stamped with its
//! slot's time (not the moment it was written), so device → browser latency includes any wait
//! the target imposed (coordinated omission is not hidden). How late the generator *woke* for a
//! slot is recorded separately: a late wake-up is the generator's fault (its core is busy), a
//! write still blocked when the next slot came is the target's (flow control, full buffers).

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use hdrhistogram::Histogram;
use tokio::time::Instant;

use crate::latency::Summary;

/// A schedule this far behind skips its missed slots instead of bursting them out.
pub const MAX_BEHIND: Duration = Duration::from_secs(1);

/// Where connection `index`'s first slot falls within one interval: spread by the golden ratio so
/// that any number of connections send evenly rather than all at once.
pub fn first_slot_offset(index: usize, interval: Duration) -> Duration {
    interval.mul_f64((index as f64 * 0.618_033_988_75).fract())
}

/// A fixed grid of send slots.
#[derive(Debug, Clone)]
pub struct Schedule {
    start: Instant,
    interval: Duration,
    next: u64,
}

impl Schedule {
    /// Slot 0 is due at `start`.
    pub fn new(start: Instant, interval: Duration) -> Self {
        Self { start, interval, next: 0 }
    }

    /// When the next slot is due.
    pub fn due(&self) -> Instant {
        self.start + self.interval.mul_f64(self.next as f64)
    }

    /// The next slot was used at `now`: moves on, skipping slots that are more than
    /// [`MAX_BEHIND`] in the past. Returns how many slots were skipped.
    pub fn advance(&mut self, now: Instant) -> u64 {
        self.next += 1;
        let mut skipped = 0;
        while now.saturating_duration_since(self.due()) > MAX_BEHIND {
            self.next += 1;
            skipped += 1;
        }
        skipped
    }
}

/// How the generator kept its schedules (shared by every connection of a run).
pub struct GeneratorStats {
    /// Slots whose send started on time, or late by the generator's own doing.
    pub on_schedule: AtomicU64,
    /// Slots woken later than the threshold with no write pending: the generator was late.
    pub late_wakeups: AtomicU64,
    /// Slots that came while the previous write was still blocked: the target pushed back.
    pub backpressured: AtomicU64,
    /// Slots skipped because the connection was more than [`MAX_BEHIND`] behind.
    pub skipped: AtomicU64,
    /// Wake-up lateness of slots not held up by the target, µs.
    wake_lateness_us: Mutex<Histogram<u64>>,
    late_threshold: Duration,
}

impl GeneratorStats {
    /// Counts a wake-up later than `late_threshold` as late.
    pub fn new(late_threshold: Duration) -> Self {
        Self {
            on_schedule: AtomicU64::new(0),
            late_wakeups: AtomicU64::new(0),
            backpressured: AtomicU64::new(0),
            skipped: AtomicU64::new(0),
            wake_lateness_us: Mutex::new(Histogram::new_with_bounds(1, 600_000_000, 2).expect("constant histogram bounds are valid")),
            late_threshold,
        }
    }

    /// A slot due at `due` was woken at `woke`; the previous write on that connection finished
    /// at `previous_write_done`.
    pub fn record_slot(&self, due: Instant, woke: Instant, previous_write_done: Instant) {
        if previous_write_done > due {
            self.backpressured.fetch_add(1, Ordering::Relaxed);
            return;
        }
        let late = woke.saturating_duration_since(due);
        if late > self.late_threshold {
            self.late_wakeups.fetch_add(1, Ordering::Relaxed);
        } else {
            self.on_schedule.fetch_add(1, Ordering::Relaxed);
        }
        if let Ok(mut h) = self.wake_lateness_us.lock() {
            h.saturating_record((late.as_micros() as u64).max(1));
        }
    }

    /// Slots skipped by [`Schedule::advance`].
    pub fn record_skipped(&self, slots: u64) {
        if slots > 0 {
            self.skipped.fetch_add(slots, Ordering::Relaxed);
        }
    }

    /// Forgets everything recorded so far (the end of the warm-up).
    pub fn reset(&self) {
        for counter in [&self.on_schedule, &self.late_wakeups, &self.backpressured, &self.skipped] {
            counter.store(0, Ordering::Relaxed);
        }
        if let Ok(mut h) = self.wake_lateness_us.lock() {
            h.reset();
        }
    }

    /// The counts so far.
    pub fn snapshot(&self) -> ScheduleCounts {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        let wake_lateness_us = self.wake_lateness_us.lock().map(|h| Summary::of(&h)).unwrap_or_default();
        ScheduleCounts {
            on_schedule: get(&self.on_schedule),
            late_wakeups: get(&self.late_wakeups),
            backpressured: get(&self.backpressured),
            skipped: get(&self.skipped),
            wake_lateness_us,
            late_threshold_us: self.late_threshold.as_micros() as u64,
        }
    }
}

/// What [`GeneratorStats`] counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct ScheduleCounts {
    pub on_schedule: u64,
    pub late_wakeups: u64,
    pub backpressured: u64,
    pub skipped: u64,
    /// Lateness of the generator's wake-ups (slots not held up by the target), µs.
    pub wake_lateness_us: Summary,
    /// A wake-up later than this counts as late, µs.
    pub late_threshold_us: u64,
}

impl ScheduleCounts {
    /// Slots the generator reached (sent or found held up), skipped ones excluded.
    pub fn slots(&self) -> u64 {
        self.on_schedule + self.late_wakeups + self.backpressured
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_follow_a_fixed_grid_and_skip_when_far_behind() {
        let start = Instant::now();
        let mut s = Schedule::new(start, Duration::from_millis(100));
        assert_eq!(s.due(), start);
        assert_eq!(s.advance(start + Duration::from_millis(30)), 0);
        assert_eq!(s.due(), start + Duration::from_millis(100), "no drift from a late send");
        // Woken 2.5 s after slot 1: slots more than 1 s old are skipped.
        let now = start + Duration::from_millis(2_600);
        let skipped = s.advance(now);
        assert_eq!(skipped, 14, "slots 2..=15 are more than 1 s behind {now:?}");
        assert!(now.saturating_duration_since(s.due()) <= MAX_BEHIND);
    }

    #[test]
    fn first_slots_spread_over_one_interval() {
        let interval = Duration::from_millis(100);
        let offsets: Vec<Duration> = (0..10).map(|i| first_slot_offset(i, interval)).collect();
        assert!(offsets.iter().all(|&o| o < interval));
        let mut sorted = offsets.clone();
        sorted.sort();
        assert!(sorted.windows(2).all(|w| w[1] - w[0] >= Duration::from_millis(5)), "{sorted:?}");
    }

    #[test]
    fn late_wakeups_blame_the_generator_and_blocked_writes_the_target() {
        let stats = GeneratorStats::new(Duration::from_millis(10));
        let due = Instant::now();
        let before = due - Duration::from_millis(50);
        stats.record_slot(due, due + Duration::from_millis(2), before);
        stats.record_slot(due, due + Duration::from_millis(25), before);
        stats.record_slot(due, due + Duration::from_millis(90), due + Duration::from_millis(80));
        stats.record_skipped(3);
        let c = stats.snapshot();
        assert_eq!((c.on_schedule, c.late_wakeups, c.backpressured, c.skipped), (1, 1, 1, 3));
        assert_eq!(c.slots(), 3);
        assert_eq!(c.wake_lateness_us.count, 2, "blocked slots are not generator lateness");
        assert!(c.wake_lateness_us.max >= 24_000, "{c:?}");
        stats.reset();
        assert_eq!(stats.snapshot().slots(), 0);
    }
}
