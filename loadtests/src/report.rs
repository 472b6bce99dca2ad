//! The load-test report: JSON for machines, a table for people.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;
use simulator::StatsSnapshot;

use crate::cluster_report::ClusterReport;
use crate::latency::Summary;
use crate::pinning::PinningReport;
use crate::saturation::GeneratorReport;

/// Everything a run measured, with the parameters and the exact command line.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The exact command line.
    pub command_line: Vec<String>,
    /// The run's parameters.
    pub parameters: Parameters,
    /// When the measuring window started, Unix ms.
    pub window_start_unix_ms: u64,
    /// Length of the measuring window, seconds.
    pub window_secs: f64,
    /// The simulated devices, during the window.
    pub devices: DevicesReport,
    /// The hub, during the window.
    pub hub: HubReport,
    /// The viewer sessions, during the window.
    pub viewers: ViewersReport,
    /// Device write → browser receive, microseconds.
    pub latency_us: Summary,
    /// `hubTimeMs` → browser receive, microseconds (millisecond resolution).
    pub hub_to_browser_us: Summary,
    /// `deviceTimeMs` → `hubTimeMs`, microseconds (millisecond resolution).
    pub device_to_hub_us: Summary,
    /// Frames the target failed to take: sent by the mats since they started minus received by
    /// the hub (plus those it dropped at ingest), or, for the broker, expected deliveries minus
    /// deliveries, counted after the mats stopped and in-flight frames had time to land.
    pub frames_lost: Option<u64>,
    /// Where the target and the generator ran.
    pub pinning: PinningReport,
    /// The generator's schedule keeping and CPU, and whether it saturated.
    pub generator: GeneratorReport,
    /// False when the generator saturated: the latencies then measure the generator.
    pub latencies_are_target_figures: bool,
    /// `--target hub-cluster`: the cluster's other processes and NATS over the window.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster: Option<ClusterReport>,
    /// Things that went wrong or look suspicious.
    pub warnings: Vec<String>,
}

/// The run's parameters.
#[derive(Debug, Clone, Serialize)]
pub struct Parameters {
    /// `hub`, `hub-cluster` (hub A of a cluster), `mosquitto` or `mosquitto-tls`.
    pub target: String,
    pub mode: String,
    pub hub_url: String,
    pub transport: String,
    pub mats: usize,
    pub rate_hz: f64,
    pub rows: u16,
    pub cols: u16,
    pub device_type: String,
    pub viewers: usize,
    pub devices_per_viewer: usize,
    pub warmup_secs: f64,
    pub duration_secs: f64,
    pub ramp_secs: f64,
}

/// The simulated devices.
#[derive(Debug, Clone, Serialize)]
pub struct DevicesReport {
    /// Counter increases over the window (`connected` at its end).
    #[serde(flatten)]
    pub stats: StatsSnapshot,
    /// Frames sent per second.
    pub frames_per_sec: f64,
    /// Devices that stopped with an error (refusals), with the first messages.
    pub failed: usize,
    /// Up to five error messages.
    pub failures: Vec<String>,
}

/// The hub.
#[derive(Debug, Clone, Serialize)]
pub struct HubReport {
    /// Process id, if known.
    pub pid: Option<u32>,
    /// Counter increases over the window from `/metrics` (names as the hub exposes them).
    pub counters: BTreeMap<String, u64>,
    /// Gauges at the end of the window.
    pub gauges: BTreeMap<String, f64>,
    /// `hub_frames_received_total` increase.
    pub frames_received: Option<u64>,
    /// `hub_frames_processed_total` increase.
    pub frames_processed: Option<u64>,
    /// `hub_frames_delivered_total` increase.
    pub frames_delivered: Option<u64>,
    /// `hub_frames_conflated_total` increase.
    pub frames_conflated: Option<u64>,
    /// CPU used over the window, percent of one core.
    pub cpu_percent_avg: Option<f64>,
    /// Highest one-second CPU sample, percent of one core.
    pub cpu_percent_max: Option<f64>,
    /// Target CPU time per frame the mats sent during the window, µs.
    pub cpu_us_per_frame: Option<f64>,
    /// Mean resident memory over the window, MiB.
    pub rss_mib_avg: Option<f64>,
    /// Highest resident memory, MiB.
    pub rss_mib_max: Option<f64>,
}

/// The viewers.
#[derive(Debug, Clone, Serialize)]
pub struct ViewersReport {
    pub sessions: usize,
    pub ready: u64,
    pub dropped: u64,
    pub maps_delivered: u64,
    pub maps_per_sec: f64,
    pub presence_maps: u64,
    pub blank_maps: u64,
    pub device_conf_events: u64,
    pub error_events: u64,
    pub bad_maps: u64,
    /// Seqs skipped between consecutive maps of a device on a socket (conflated or lost).
    pub seq_gaps: u64,
    /// Maps timed from `deviceTimeMs` (ms resolution) because the send time was unknown.
    pub approximate_latencies: u64,
}

fn opt<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map(|v| v.to_string()).unwrap_or_else(|| "n/a".to_owned())
}

fn ms(us: u64) -> String {
    format!("{:.2}", us as f64 / 1_000.0)
}

impl Report {
    /// A human-readable summary table.
    pub fn table(&self) -> String {
        let p = &self.parameters;
        let d = &self.devices;
        let h = &self.hub;
        let v = &self.viewers;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "load test of {}: {} mats × {} Hz ({}×{} {}, {}), {} viewers × {} devices, {:.1} s window",
            p.target, p.mats, p.rate_hz, p.rows, p.cols, p.device_type, p.transport, p.viewers, p.devices_per_viewer, self.window_secs
        );
        let g = &self.generator;
        if g.saturated {
            let _ = writeln!(out, "  GENERATOR SATURATED: {}", g.reasons.join("; "));
            let _ = writeln!(out, "  (the latencies measure the load generator, not the {}: they are not printed)", p.target);
        }
        let pin = |cpus: &Option<Vec<usize>>| cpus.as_ref().map(|c| format!("{c:?}")).unwrap_or_else(|| "unknown".to_owned());
        let _ = writeln!(
            out,
            "  {:<34} {:>14}",
            "CPUs target / generator",
            format!(
                "{} / {:?}{}",
                pin(&self.pinning.target_cpus),
                self.pinning.generator_cpus,
                if self.pinning.separated { "" } else { " SHARED" }
            )
        );
        let _ = writeln!(out, "  {:<34} {:>14}", "frames sent (devices)", d.stats.frames_sent);
        let _ = writeln!(out, "  {:<34} {:>14.1}", "  per second", d.frames_per_sec);
        if p.target.starts_with("hub") {
            let _ = writeln!(out, "  {:<34} {:>14}", "frames received (hub)", opt(h.frames_received));
            let _ = writeln!(out, "  {:<34} {:>14}", "frames processed (hub)", opt(h.frames_processed));
            let _ = writeln!(out, "  {:<34} {:>14}", "frames delivered (hub)", opt(h.frames_delivered));
            let _ = writeln!(out, "  {:<34} {:>14}", "frames conflated (hub)", opt(h.frames_conflated));
        }
        let _ = writeln!(out, "  {:<34} {:>14}", "frames lost", opt(self.frames_lost));
        let _ = writeln!(out, "  {:<34} {:>14}", "maps received (viewers)", v.maps_delivered);
        let _ = writeln!(out, "  {:<34} {:>14.1}", "  per second", v.maps_per_sec);
        let _ = writeln!(out, "  {:<34} {:>14}", "seq gaps seen by viewers", v.seq_gaps);
        let _ = writeln!(out, "  {:<34} {:>14}", "deviceConf events", v.device_conf_events);
        let _ = writeln!(out, "  {:<34} {:>14}", "devices connected / refused", format!("{} / {}", d.stats.connected, d.failed));
        let _ = writeln!(out, "  {:<34} {:>14}", "viewers ready / dropped", format!("{} / {}", v.ready, v.dropped));
        if self.latencies_are_target_figures {
            let l = &self.latency_us;
            let _ = writeln!(
                out,
                "  device → browser latency (ms)      p50 {}  p99 {}  p99.9 {}  max {}  (n = {})",
                ms(l.p50),
                ms(l.p99),
                ms(l.p999),
                ms(l.max),
                l.count
            );
            if p.target.starts_with("hub") {
                let l = &self.device_to_hub_us;
                let _ = writeln!(out, "  device → hub (ms, ±1)              p50 {}  p99 {}  p99.9 {}", ms(l.p50), ms(l.p99), ms(l.p999));
                let l = &self.hub_to_browser_us;
                let _ = writeln!(out, "  hub → browser (ms, ±1)             p50 {}  p99 {}  p99.9 {}", ms(l.p50), ms(l.p99), ms(l.p999));
            }
        }
        let s = &g.schedule;
        let _ = writeln!(
            out,
            "  generator: slots {} · late wake-ups {} · held by the target {} · skipped {} · CPU {}",
            s.slots(),
            s.late_wakeups,
            s.backpressured,
            s.skipped,
            g.cpu_percent.map(|c| format!("{c:.0} %")).unwrap_or_else(|| "n/a".to_owned())
        );
        let cpu = match (h.cpu_percent_avg, h.cpu_percent_max) {
            (Some(a), Some(m)) => format!("{a:.1} % avg, {m:.1} % max"),
            _ => "n/a".to_owned(),
        };
        let rss = match (h.rss_mib_avg, h.rss_mib_max) {
            (Some(a), Some(m)) => format!("{a:.1} MiB avg, {m:.1} MiB max"),
            _ => "n/a".to_owned(),
        };
        let _ = writeln!(out, "  {:<34} {cpu}", format!("{} CPU", p.target));
        let _ = writeln!(
            out,
            "  {:<34} {}",
            format!("{} CPU per frame", p.target),
            h.cpu_us_per_frame.map(|u| format!("{u:.1} µs")).unwrap_or_else(|| "n/a".to_owned())
        );
        let _ = writeln!(out, "  {:<34} {rss}", format!("{} RSS", p.target));
        if let Some(cluster) = &self.cluster {
            out.push_str(&cluster.table_lines());
        }
        for w in &self.warnings {
            let _ = writeln!(out, "  warning: {w}");
        }
        out
    }
}

#[cfg(test)]
pub mod tests {
    use super::*;
    use crate::saturation::{Limits, judge};
    use crate::schedule::ScheduleCounts;

    /// A report of `mats` mats with the given generator verdict inputs.
    pub fn example(late_wakeups: u64, generator_cpu: f64) -> Report {
        let schedule = ScheduleCounts { on_schedule: 1_000, late_wakeups, late_threshold_us: 10_000, ..ScheduleCounts::default() };
        let generator = judge(schedule, 1, Some(generator_cpu), Limits::default());
        let latencies_are_target_figures = !generator.saturated;
        Report {
            command_line: vec!["loadtests".into()],
            parameters: Parameters {
                target: "hub".into(),
                mode: "spawn".into(),
                hub_url: "http://127.0.0.1:1".into(),
                transport: "quic".into(),
                mats: 10,
                rate_hz: 10.0,
                rows: 48,
                cols: 48,
                device_type: "Mattress Mat IoT".into(),
                viewers: 1,
                devices_per_viewer: 10,
                warmup_secs: 1.0,
                duration_secs: 1.0,
                ramp_secs: 0.0,
            },
            window_start_unix_ms: 0,
            window_secs: 1.0,
            devices: DevicesReport {
                stats: StatsSnapshot { connected: 10, ..StatsSnapshot::default() },
                frames_per_sec: 100.0,
                failed: 0,
                failures: vec![],
            },
            hub: HubReport {
                pid: Some(1),
                counters: BTreeMap::new(),
                gauges: BTreeMap::new(),
                frames_received: Some(100),
                frames_processed: Some(100),
                frames_delivered: Some(100),
                frames_conflated: Some(0),
                cpu_percent_avg: Some(10.0),
                cpu_percent_max: Some(12.0),
                cpu_us_per_frame: Some(1_000.0),
                rss_mib_avg: Some(50.0),
                rss_mib_max: Some(51.0),
            },
            viewers: ViewersReport {
                sessions: 1,
                ready: 1,
                dropped: 0,
                maps_delivered: 100,
                maps_per_sec: 100.0,
                presence_maps: 0,
                blank_maps: 0,
                device_conf_events: 0,
                error_events: 0,
                bad_maps: 0,
                seq_gaps: 0,
                approximate_latencies: 0,
            },
            latency_us: Summary { count: 100, min: 1_000, p50: 2_000, p90: 3_000, p99: 4_000, p999: 5_000, max: 6_000, mean: 2_000.0 },
            hub_to_browser_us: Summary::default(),
            device_to_hub_us: Summary::default(),
            frames_lost: Some(0),
            pinning: PinningReport::of(Some(vec![0]), vec![1]),
            generator,
            latencies_are_target_figures,
            cluster: None,
            warnings: vec![],
        }
    }

    #[test]
    fn the_table_prints_latencies_only_when_the_generator_kept_up() {
        let fine = example(0, 50.0).table();
        assert!(fine.contains("device → browser latency (ms)      p50 2.00  p99 4.00"), "{fine}");
        assert!(!fine.contains("SATURATED"));
        assert!(fine.contains("hub CPU per frame                  1000.0 µs"), "{fine}");
        assert!(fine.contains("frames received (hub)"), "{fine}");
        let mut broker = example(0, 50.0);
        broker.parameters.target = "mosquitto".into();
        let broker = broker.table();
        assert!(broker.contains("mosquitto CPU per frame            1000.0 µs"), "{broker}");
        assert!(!broker.contains("(hub)") && !broker.contains("device → hub"), "no hub counters for a broker: {broker}");
        let saturated = example(500, 50.0).table();
        assert!(saturated.contains("GENERATOR SATURATED: "), "{saturated}");
        assert!(!saturated.contains("device → browser latency"), "{saturated}");
        let busy = example(0, 97.0);
        assert!(!busy.latencies_are_target_figures);
        assert!(busy.table().contains("CPU use was 97 %"));
    }
}
