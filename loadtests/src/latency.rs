//! Send-time bookkeeping and latency summaries.
//!
//! Each simulated device records the exact microsecond at which it wrote each frame into a
//! small lock-free ring indexed by `seq`; a viewer that receives `(deviceId, seq)` looks the send
//! time up, so device → browser latency is measured in microseconds rather than from the
//! millisecond `deviceTimeMs` (which it falls back to when the lookup fails).

use std::sync::atomic::{AtomicU64, Ordering};

use hdrhistogram::Histogram;
use serde::Serialize;
use simulator::FrameObserver;

/// Frames remembered per device: at 10 Hz, 409 s of history.
const RING: usize = 4096;

/// Send times of one device's recent frames.
pub struct SendLog {
    seqs: Box<[AtomicU64]>,
    times: Box<[AtomicU64]>,
}

impl Default for SendLog {
    fn default() -> Self {
        Self { seqs: (0..RING).map(|_| AtomicU64::new(u64::MAX)).collect(), times: (0..RING).map(|_| AtomicU64::new(0)).collect() }
    }
}

impl SendLog {
    /// Records that `seq` was sent at `sent_unix_us`.
    pub fn record(&self, seq: u64, sent_unix_us: u64) {
        let slot = (seq % RING as u64) as usize;
        // Invalidate, write the time, then publish the seq: a reader that sees the seq sees the
        // time written before it.
        self.seqs[slot].store(u64::MAX, Ordering::Release);
        self.times[slot].store(sent_unix_us, Ordering::Release);
        self.seqs[slot].store(seq, Ordering::Release);
    }

    /// When `seq` was sent, if it is still remembered.
    pub fn sent_at(&self, seq: u64) -> Option<u64> {
        let slot = (seq % RING as u64) as usize;
        if self.seqs[slot].load(Ordering::Acquire) != seq {
            return None;
        }
        let time = self.times[slot].load(Ordering::Acquire);
        (self.seqs[slot].load(Ordering::Acquire) == seq).then_some(time)
    }
}

impl FrameObserver for SendLog {
    fn frame_sent(&self, seq: u64, _device_time_ms: u64, sent_unix_us: u64) {
        self.record(seq, sent_unix_us);
    }
}

/// A histogram of microseconds from 1 µs to 10 minutes, 3 significant digits.
pub fn new_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 600_000_000, 3).expect("constant histogram bounds are valid")
}

/// Percentiles of a histogram, in the histogram's unit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Summary {
    /// Samples.
    pub count: u64,
    /// Smallest.
    pub min: u64,
    /// Median.
    pub p50: u64,
    /// 90th percentile.
    pub p90: u64,
    /// 99th percentile.
    pub p99: u64,
    /// 99.9th percentile.
    pub p999: u64,
    /// Largest.
    pub max: u64,
    /// Mean.
    pub mean: f64,
}

impl Summary {
    /// Summarises a histogram (all zero when empty).
    pub fn of(h: &Histogram<u64>) -> Self {
        if h.is_empty() {
            return Self::default();
        }
        Self {
            count: h.len(),
            min: h.min(),
            p50: h.value_at_quantile(0.5),
            p90: h.value_at_quantile(0.9),
            p99: h.value_at_quantile(0.99),
            p999: h.value_at_quantile(0.999),
            max: h.max(),
            mean: h.mean(),
        }
    }
}

/// Microseconds since the Unix epoch.
pub fn unix_us() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_micros() as u64).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn send_log_remembers_recent_seqs_only() {
        let log = SendLog::default();
        log.record(5, 1_000);
        assert_eq!(log.sent_at(5), Some(1_000));
        assert_eq!(log.sent_at(6), None);
        log.record(5 + RING as u64, 2_000);
        assert_eq!(log.sent_at(5), None, "overwritten by a newer frame in the same slot");
        assert_eq!(log.sent_at(5 + RING as u64), Some(2_000));
    }

    #[test]
    fn summaries_of_known_values() {
        let mut h = new_histogram();
        for v in 1..=1000u64 {
            h.saturating_record(v * 10);
        }
        let s = Summary::of(&h);
        assert_eq!(s.count, 1000);
        assert!((4_990..=5_010).contains(&s.p50), "{s:?}");
        assert!((9_890..=9_910).contains(&s.p99), "{s:?}");
        assert_eq!(Summary::of(&new_histogram()), Summary::default());
    }
}
