//! The measuring window shared by hub and broker runs: the target's CPU and RSS each second, the
//! generator's own CPU and schedule keeping, and a progress line.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use simulator::{SimStats, StatsSnapshot};

use crate::procstat;
use crate::saturation::{self, GeneratorReport, Limits};
use crate::schedule::GeneratorStats;
use crate::viewer::{ViewerHistograms, ViewerShared};

/// What the window observed.
pub struct Observed {
    pub window_start_unix_ms: u64,
    pub window_secs: f64,
    pub sim_before: StatsSnapshot,
    pub sim_after: StatsSnapshot,
    pub target_cpu_percent_avg: Option<f64>,
    pub target_cpu_percent_max: Option<f64>,
    pub target_cpu_seconds: Option<f64>,
    pub target_rss_kib: Vec<u64>,
    pub generator: GeneratorReport,
}

/// Measures for `duration`: `target_pid`'s CPU and memory, the fleet's counters, and the
/// generator (its schedules from now on, and its CPU over the window against `generator_cpus`).
#[allow(clippy::too_many_arguments)]
pub async fn measure(
    duration: Duration,
    quiet: bool,
    target_pid: Option<u32>,
    stats: &SimStats,
    viewers: &ViewerShared,
    histograms: &[Arc<Mutex<ViewerHistograms>>],
    schedule: &GeneratorStats,
    generator_cpus: usize,
) -> Observed {
    let clk = procstat::clock_ticks_per_second();
    let own = std::process::id();
    schedule.reset();
    let gen_before = procstat::sample(own).ok();
    let target_before = target_pid.and_then(|pid| procstat::sample(pid).ok());
    let sim_before = stats.snapshot();
    let window_start_unix_ms = crate::latency::unix_us() / 1_000;
    let started = tokio::time::Instant::now();
    viewers.measuring.store(true, Ordering::Relaxed);

    let secs = duration.as_secs_f64().ceil().max(1.0) as u64;
    let bar = if quiet { ProgressBar::hidden() } else { ProgressBar::new(secs) };
    bar.set_style(
        ProgressStyle::with_template("{bar:30.cyan/blue} {pos:>3}/{len}s {msg}").unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut cpu_max: Option<f64> = None;
    let mut rss = Vec::new();
    let mut last = target_before;
    let mut last_tick = started;
    let mut last_counts = (sim_before.frames_sent, 0u64);
    let end = started + duration;
    loop {
        let now = tokio::time::Instant::now();
        if now >= end {
            break;
        }
        tokio::time::sleep_until((now + Duration::from_secs(1)).min(end)).await;
        let now = tokio::time::Instant::now();
        let dt = now.duration_since(last_tick).as_secs_f64().max(1e-3);
        last_tick = now;
        if let Some(sample) = target_pid.and_then(|pid| procstat::sample(pid).ok()) {
            if let Some(prev) = last {
                let pct = sample.ticks.saturating_sub(prev.ticks) as f64 / clk as f64 / dt * 100.0;
                cpu_max = Some(cpu_max.map_or(pct, |m: f64| m.max(pct)));
            }
            rss.push(sample.rss_kib);
            last = Some(sample);
        }
        let sent = stats.snapshot().frames_sent;
        let maps = viewers.counters.maps.load(Ordering::Relaxed);
        let p99 = histograms.iter().filter_map(|h| h.lock().ok().map(|h| h.end_to_end_us.value_at_quantile(0.99))).max().unwrap_or(0);
        bar.set_position(now.duration_since(started).as_secs().min(secs));
        bar.set_message(format!(
            "sent {:.0}/s · delivered {:.0}/s · p99 ≤ {:.1} ms · connected {}",
            sent.saturating_sub(last_counts.0) as f64 / dt,
            maps.saturating_sub(last_counts.1) as f64 / dt,
            p99 as f64 / 1_000.0,
            stats.snapshot().connected,
        ));
        last_counts = (sent, maps);
    }
    viewers.measuring.store(false, Ordering::Relaxed);
    let window_secs = started.elapsed().as_secs_f64();
    let sim_after = stats.snapshot();
    let target_after = target_pid.and_then(|pid| procstat::sample(pid).ok());
    let gen_after = procstat::sample(own).ok();
    bar.finish_and_clear();

    let cpu_seconds = |a: Option<procstat::Sample>, b: Option<procstat::Sample>| match (a, b) {
        (Some(a), Some(b)) => Some(b.ticks.saturating_sub(a.ticks) as f64 / clk as f64),
        _ => None,
    };
    let target_cpu_seconds = cpu_seconds(target_before, target_after);
    let generator_cpu_percent = cpu_seconds(gen_before, gen_after).map(|s| s / window_secs * 100.0);
    let generator = saturation::judge(schedule.snapshot(), generator_cpus, generator_cpu_percent, Limits::default());
    Observed {
        window_start_unix_ms,
        window_secs,
        sim_before,
        sim_after,
        target_cpu_percent_avg: target_cpu_seconds.map(|s| s / window_secs * 100.0),
        target_cpu_percent_max: cpu_max,
        target_cpu_seconds,
        target_rss_kib: rss,
        generator,
    }
}
