//! Whether a run measured the target or the load generator: the verdict on the generator's own
//! schedule keeping and CPU use. A saturated run's latencies are not the target's figures.

use serde::Serialize;

use crate::schedule::ScheduleCounts;

/// When the generator counts as saturated.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Largest share of slots woken later than the threshold (0.01 = 1 %).
    pub late_share: f64,
    /// Largest CPU use, as a share of the cores the generator may run on (0.9 = 90 %).
    pub cpu_share: f64,
}

impl Default for Limits {
    fn default() -> Self {
        Self { late_share: 0.01, cpu_share: 0.9 }
    }
}

/// The generator during the measuring window.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GeneratorReport {
    /// How the schedules were kept.
    pub schedule: ScheduleCounts,
    /// CPUs the generator may run on.
    pub cpus: usize,
    /// Its CPU use, percent of one core (up to `100 × cpus`).
    pub cpu_percent: Option<f64>,
    /// The verdict: when set, the latencies measure the generator, not the target.
    pub saturated: bool,
    /// Why.
    pub reasons: Vec<String>,
}

/// Judges the generator: saturated when too many wake-ups were late, or when its CPU use reached
/// the limit of the cores it may use.
pub fn judge(schedule: ScheduleCounts, cpus: usize, cpu_percent: Option<f64>, limits: Limits) -> GeneratorReport {
    let mut reasons = Vec::new();
    let woken = schedule.on_schedule + schedule.late_wakeups;
    if woken > 0 {
        let share = schedule.late_wakeups as f64 / woken as f64;
        if share > limits.late_share {
            reasons.push(format!(
                "{:.1} % of send slots woke more than {:.1} ms late (limit {:.1} %; p99 wake-up lateness {:.1} ms)",
                share * 100.0,
                schedule.late_threshold_us as f64 / 1_000.0,
                limits.late_share * 100.0,
                schedule.wake_lateness_us.p99 as f64 / 1_000.0
            ));
        }
    }
    if let Some(cpu) = cpu_percent {
        let limit = limits.cpu_share * 100.0 * cpus.max(1) as f64;
        if cpu >= limit {
            reasons.push(format!("its CPU use was {cpu:.0} % of one core, at or above {limit:.0} % for {} core(s)", cpus.max(1)));
        }
    }
    GeneratorReport { schedule, cpus, cpu_percent, saturated: !reasons.is_empty(), reasons }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::latency::Summary;

    fn counts(on_schedule: u64, late_wakeups: u64, backpressured: u64) -> ScheduleCounts {
        ScheduleCounts {
            on_schedule,
            late_wakeups,
            backpressured,
            skipped: 0,
            wake_lateness_us: Summary::default(),
            late_threshold_us: 10_000,
        }
    }

    #[test]
    fn a_generator_on_schedule_with_spare_cpu_is_not_saturated() {
        let r = judge(counts(10_000, 50, 0), 1, Some(60.0), Limits::default());
        assert!(!r.saturated, "{r:?}");
        assert!(r.reasons.is_empty());
    }

    #[test]
    fn late_wakeups_above_the_share_saturate() {
        let r = judge(counts(9_800, 200, 0), 1, Some(60.0), Limits::default());
        assert!(r.saturated);
        assert!(r.reasons[0].contains("2.0 %"), "{:?}", r.reasons);
    }

    #[test]
    fn cpu_at_the_limit_of_its_cores_saturates() {
        assert!(judge(counts(10_000, 0, 0), 1, Some(95.0), Limits::default()).saturated);
        assert!(!judge(counts(10_000, 0, 0), 2, Some(95.0), Limits::default()).saturated, "95 % of two cores is half their capacity");
        assert!(judge(counts(10_000, 0, 0), 2, Some(185.0), Limits::default()).saturated);
    }

    #[test]
    fn a_target_that_pushes_back_does_not_saturate_the_generator() {
        let r = judge(counts(100, 0, 9_900), 1, Some(30.0), Limits::default());
        assert!(!r.saturated, "backpressure is the target's: {r:?}");
    }
}
