//! The load-test report: JSON for machines, a table for people.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;
use simulator::StatsSnapshot;

use crate::latency::Summary;

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
    /// Things that went wrong or look suspicious.
    pub warnings: Vec<String>,
}

/// The run's parameters.
#[derive(Debug, Clone, Serialize)]
pub struct Parameters {
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
        let _ = writeln!(out, "load test: {} mats × {} Hz ({}×{} {}, {}), {} viewers × {} devices, {:.1} s window", p.mats, p.rate_hz, p.rows, p.cols, p.device_type, p.transport, p.viewers, p.devices_per_viewer, self.window_secs);
        let _ = writeln!(out, "  {:<34} {:>14}", "frames sent (devices)", d.stats.frames_sent);
        let _ = writeln!(out, "  {:<34} {:>14.1}", "  per second", d.frames_per_sec);
        let _ = writeln!(out, "  {:<34} {:>14}", "frames received (hub)", opt(h.frames_received));
        let _ = writeln!(out, "  {:<34} {:>14}", "frames processed (hub)", opt(h.frames_processed));
        let _ = writeln!(out, "  {:<34} {:>14}", "frames delivered (hub)", opt(h.frames_delivered));
        let _ = writeln!(out, "  {:<34} {:>14}", "frames conflated (hub)", opt(h.frames_conflated));
        let _ = writeln!(out, "  {:<34} {:>14}", "maps received (viewers)", v.maps_delivered);
        let _ = writeln!(out, "  {:<34} {:>14.1}", "  per second", v.maps_per_sec);
        let _ = writeln!(out, "  {:<34} {:>14}", "seq gaps seen by viewers", v.seq_gaps);
        let _ = writeln!(out, "  {:<34} {:>14}", "deviceConf events", v.device_conf_events);
        let _ = writeln!(out, "  {:<34} {:>14}", "devices connected / refused", format!("{} / {}", d.stats.connected, d.failed));
        let _ = writeln!(out, "  {:<34} {:>14}", "viewers ready / dropped", format!("{} / {}", v.ready, v.dropped));
        let l = &self.latency_us;
        let _ = writeln!(out, "  device → browser latency (ms)      p50 {}  p99 {}  p99.9 {}  max {}  (n = {})", ms(l.p50), ms(l.p99), ms(l.p999), ms(l.max), l.count);
        let l = &self.device_to_hub_us;
        let _ = writeln!(out, "  device → hub (ms, ±1)              p50 {}  p99 {}  p99.9 {}", ms(l.p50), ms(l.p99), ms(l.p999));
        let l = &self.hub_to_browser_us;
        let _ = writeln!(out, "  hub → browser (ms, ±1)             p50 {}  p99 {}  p99.9 {}", ms(l.p50), ms(l.p99), ms(l.p999));
        let cpu = match (h.cpu_percent_avg, h.cpu_percent_max) {
            (Some(a), Some(m)) => format!("{a:.1} % avg, {m:.1} % max"),
            _ => "n/a".to_owned(),
        };
        let rss = match (h.rss_mib_avg, h.rss_mib_max) {
            (Some(a), Some(m)) => format!("{a:.1} MiB avg, {m:.1} MiB max"),
            _ => "n/a".to_owned(),
        };
        let _ = writeln!(out, "  hub CPU                            {cpu}");
        let _ = writeln!(out, "  hub RSS                            {rss}");
        for w in &self.warnings {
            let _ = writeln!(out, "  warning: {w}");
        }
        out
    }
}
