//! The capacity sweep: for each target, mats from `--from` upward by `--step` until the knee
//! (p99 over the limit, frames lost, mats or viewers not connected), one fresh target per point;
//! then the capacity of each target and the hub ÷ Mosquitto ratios, as JSON and an SVG plot.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::ValueEnum;
use serde::{Deserialize, Serialize};

use crate::report::Report;
use crate::{RunArgs, TargetKind, TransportKind};

/// What the hub does that the broker does not, said beside every ratio.
pub const WORK_NOTE: &str = "The broker only relays; the hub also decodes every frame, checks presence and posture, \
runs the alarm clocks and conflates per viewer.";

/// One target of the sweep.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SweepTarget {
    HubQuic,
    HubWs,
    Mosquitto,
    MosquittoTls,
}

impl SweepTarget {
    pub fn name(self) -> &'static str {
        match self {
            SweepTarget::HubQuic => "hub-quic",
            SweepTarget::HubWs => "hub-ws",
            SweepTarget::Mosquitto => "mosquitto",
            SweepTarget::MosquittoTls => "mosquitto-tls",
        }
    }

    fn is_hub(self) -> bool {
        matches!(self, SweepTarget::HubQuic | SweepTarget::HubWs)
    }

    fn apply(self, args: &mut RunArgs) {
        let (target, transport) = match self {
            SweepTarget::HubQuic => (TargetKind::Hub, TransportKind::Quic),
            SweepTarget::HubWs => (TargetKind::Hub, TransportKind::Ws),
            SweepTarget::Mosquitto => (TargetKind::Mosquitto, args.transport),
            SweepTarget::MosquittoTls => (TargetKind::MosquittoTls, args.transport),
        };
        args.target = target;
        args.transport = transport;
    }
}

#[derive(Debug, clap::Args)]
pub struct SweepArgs {
    /// Everything a run takes (--mats and --viewers are set per point; --json is the sweep's).
    #[command(flatten)]
    pub run: RunArgs,
    /// Targets, in order.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "hub-quic,hub-ws,mosquitto,mosquitto-tls")]
    targets: Vec<SweepTarget>,
    /// Mats at the first point.
    #[arg(long, default_value_t = 250)]
    from: usize,
    /// Mats added per point.
    #[arg(long, default_value_t = 250)]
    step: usize,
    /// Stop here even without a knee.
    #[arg(long, default_value_t = 5_000)]
    max: usize,
    /// One viewer per this many mats (at least one viewer).
    #[arg(long, default_value_t = 10)]
    mats_per_viewer: usize,
    /// The latency limit of the knee, ms (p99, device → browser).
    #[arg(long, default_value_t = 50.0)]
    p99_limit_ms: f64,
}

/// How a point went.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "verdict", content = "reasons", rename_all = "snake_case")]
pub enum Verdict {
    /// Within every limit.
    Held,
    /// The target's knee: these limits were broken.
    Knee(Vec<String>),
    /// The generator could not produce the load: the point says nothing about the target.
    GeneratorSaturated(Vec<String>),
}

/// One point of the sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Point {
    pub target: String,
    pub mats: usize,
    pub viewers: usize,
    /// Frames per second asked of the mats.
    pub offered_fps: f64,
    /// Frames per second the mats sent.
    pub sent_fps: f64,
    /// Frames (maps) per second the viewers received.
    pub delivered_fps: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub p999_ms: f64,
    /// Target CPU per frame sent, µs.
    pub cpu_us_per_frame: Option<f64>,
    /// Target CPU, percent of one core.
    pub cpu_percent: Option<f64>,
    /// Target resident memory (max over the window), MiB.
    pub rss_mib: Option<f64>,
    pub frames_lost: Option<u64>,
    /// Mats connected at the end of the window.
    pub connected: u64,
    pub verdict: Verdict,
}

/// Judges a run against the knee's limits.
pub fn assess(report: &Report, p99_limit_ms: f64) -> Verdict {
    if report.generator.saturated {
        return Verdict::GeneratorSaturated(report.generator.reasons.clone());
    }
    let mut broken = Vec::new();
    let p = &report.parameters;
    let p99_ms = report.latency_us.p99 as f64 / 1_000.0;
    if p.viewers > 0 && report.latency_us.count == 0 {
        broken.push("no frame reached a viewer".to_owned());
    } else if p99_ms > p99_limit_ms {
        broken.push(format!("p99 {p99_ms:.1} ms > {p99_limit_ms} ms"));
    }
    match report.frames_lost {
        Some(0) => {}
        Some(n) => broken.push(format!("{n} frames lost")),
        None => broken.push("frames lost unknown (no counters)".to_owned()),
    }
    if (report.devices.stats.connected as usize) < p.mats || report.devices.failed > 0 {
        broken.push(format!("{} of {} mats connected", report.devices.stats.connected, p.mats));
    }
    if (report.viewers.ready as usize) < p.viewers || report.viewers.dropped > 0 {
        broken.push(format!("{} of {} viewers ready, {} dropped", report.viewers.ready, p.viewers, report.viewers.dropped));
    }
    if broken.is_empty() { Verdict::Held } else { Verdict::Knee(broken) }
}

/// The point of a run.
pub fn point(target: SweepTarget, report: &Report, p99_limit_ms: f64) -> Point {
    let p = &report.parameters;
    let ms = |us: u64| us as f64 / 1_000.0;
    Point {
        target: target.name().to_owned(),
        mats: p.mats,
        viewers: p.viewers,
        offered_fps: p.mats as f64 * p.rate_hz,
        sent_fps: report.devices.frames_per_sec,
        delivered_fps: report.viewers.maps_per_sec,
        p50_ms: ms(report.latency_us.p50),
        p99_ms: ms(report.latency_us.p99),
        p999_ms: ms(report.latency_us.p999),
        cpu_us_per_frame: report.hub.cpu_us_per_frame,
        cpu_percent: report.hub.cpu_percent_avg,
        rss_mib: report.hub.rss_mib_max,
        frames_lost: report.frames_lost,
        connected: report.devices.stats.connected,
        verdict: assess(report, p99_limit_ms),
    }
}

/// A target's capacity: its highest sending rate that held every limit.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Capacity {
    pub target: String,
    /// Frames/s at the best point that held (none when no point held).
    pub frames_per_sec: Option<f64>,
    /// Target CPU per frame at that point, µs.
    pub cpu_us_per_frame: Option<f64>,
    /// Whether the sweep of this target ended at a knee (rather than at --max or saturation).
    pub knee_found: bool,
    /// Whether the generator saturated before the target's knee.
    pub generator_saturated: bool,
}

pub fn capacity(target: &str, points: &[Point]) -> Capacity {
    let mine: Vec<&Point> = points.iter().filter(|p| p.target == target).collect();
    let best = mine.iter().filter(|p| p.verdict == Verdict::Held).max_by(|a, b| a.sent_fps.total_cmp(&b.sent_fps));
    Capacity {
        target: target.to_owned(),
        frames_per_sec: best.map(|p| p.sent_fps),
        cpu_us_per_frame: best.and_then(|p| p.cpu_us_per_frame),
        knee_found: mine.iter().any(|p| matches!(p.verdict, Verdict::Knee(_))),
        generator_saturated: mine.iter().any(|p| matches!(p.verdict, Verdict::GeneratorSaturated(_))),
    }
}

/// Hub ÷ broker for one pair of targets.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ratio {
    pub hub: String,
    pub broker: String,
    /// Hub frames/s at p99 within the limit ÷ the broker's (≥ 1 means the hub carries more).
    pub frames_per_sec: Option<f64>,
    /// Hub CPU per frame ÷ the broker's (≤ 1 means the hub is cheaper per frame).
    pub cpu_per_frame: Option<f64>,
}

pub fn ratios(capacities: &[Capacity]) -> Vec<Ratio> {
    let div = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => Some(a / b),
        _ => None,
    };
    let mut out = Vec::new();
    for hub in capacities.iter().filter(|c| c.target.starts_with("hub")) {
        for broker in capacities.iter().filter(|c| c.target.starts_with("mosquitto")) {
            out.push(Ratio {
                hub: hub.target.clone(),
                broker: broker.target.clone(),
                frames_per_sec: div(hub.frames_per_sec, broker.frames_per_sec),
                cpu_per_frame: div(hub.cpu_us_per_frame, broker.cpu_us_per_frame),
            });
        }
    }
    out
}

/// The comparison as a Markdown table.
pub fn table(capacities: &[Capacity], ratios: &[Ratio], p99_limit_ms: f64) -> String {
    let f = |v: Option<f64>, digits: usize| v.map(|v| format!("{v:.digits$}")).unwrap_or_else(|| "—".to_owned());
    let mut out = format!("| target | frames/s at p99 < {p99_limit_ms} ms | CPU per frame (µs) | ended at |\n|---|---|---|---|\n");
    for c in capacities {
        let ended = if c.knee_found {
            "knee"
        } else if c.generator_saturated {
            "generator saturated"
        } else {
            "--max"
        };
        out.push_str(&format!("| {} | {} | {} | {ended} |\n", c.target, f(c.frames_per_sec, 0), f(c.cpu_us_per_frame, 1)));
    }
    if !ratios.is_empty() {
        out.push_str("\n| hub ÷ broker | frames/s | CPU per frame |\n|---|---|---|\n");
        for r in ratios {
            out.push_str(&format!("| {} ÷ {} | {} × | {} × |\n", r.hub, r.broker, f(r.frames_per_sec, 2), f(r.cpu_per_frame, 2)));
        }
        out.push_str(&format!("\n{WORK_NOTE}\n"));
    }
    out
}

/// The sweep's JSON document.
#[derive(Debug, Serialize)]
struct SweepReport<'a> {
    command_line: Vec<String>,
    rate_hz: f64,
    p99_limit_ms: f64,
    mats_per_viewer: usize,
    note: &'static str,
    plot: String,
    points: &'a [Point],
    capacities: &'a [Capacity],
    ratios: &'a [Ratio],
    runs: &'a [Report],
}

/// The plot's path: the JSON's, with `.svg`.
pub fn svg_path(json: &Path) -> PathBuf {
    json.with_extension("svg")
}

/// The parts of a sweep's JSON the plot needs.
#[derive(Debug, Deserialize)]
struct Plotted {
    rate_hz: f64,
    p99_limit_ms: f64,
    points: Vec<Point>,
}

/// Redraws the plot of a sweep's JSON (next to it); returns the SVG's path.
pub fn replot(json: &Path) -> Result<PathBuf> {
    let text = std::fs::read_to_string(json).with_context(|| format!("reading {}", json.display()))?;
    let sweep: Plotted = serde_json::from_str(&text).with_context(|| format!("{} is not a sweep report", json.display()))?;
    let svg = svg_path(json);
    std::fs::write(&svg, crate::svg::plot(&sweep.points, sweep.p99_limit_ms, sweep.rate_hz))
        .with_context(|| format!("writing {}", svg.display()))?;
    Ok(svg)
}

pub async fn run(args: SweepArgs) -> Result<()> {
    let json = args.run.json.clone().context("sweep needs --json PATH (the plot is written next to it)")?;
    if args.from == 0 || args.step == 0 || args.mats_per_viewer == 0 {
        bail!("--from, --step and --mats-per-viewer must be at least 1");
    }
    let command_line: Vec<String> = std::env::args().collect();
    let mut points = Vec::new();
    let mut runs = Vec::new();
    for &target in &args.targets {
        let mut mats = args.from;
        while mats <= args.max {
            let mut run = args.run.clone();
            target.apply(&mut run);
            run.mats = mats;
            run.viewers = mats.div_ceil(args.mats_per_viewer).max(1);
            run.devices_per_viewer = None;
            eprintln!("sweep: {} with {} mats, {} viewers", target.name(), run.mats, run.viewers);
            let report = match crate::run_once(&run, command_line.clone()).await {
                Ok(report) => report,
                Err(e) if !target.is_hub() && e.to_string().contains("not found") => {
                    eprintln!("sweep: skipping {}: {e:#}", target.name());
                    break;
                }
                Err(e) => return Err(e.context(format!("{} with {mats} mats", target.name()))),
            };
            let p = point(target, &report, args.p99_limit_ms);
            eprintln!("sweep: {} mats → p99 {:.1} ms, {:?}", mats, p.p99_ms, p.verdict);
            let stop = p.verdict != Verdict::Held;
            points.push(p);
            runs.push(report);
            if stop {
                break;
            }
            mats += args.step;
        }
    }
    let capacities: Vec<Capacity> = args.targets.iter().map(|t| capacity(t.name(), &points)).collect();
    let ratios = ratios(&capacities);
    let svg = svg_path(&json);
    std::fs::write(&svg, crate::svg::plot(&points, args.p99_limit_ms, args.run.rate))
        .with_context(|| format!("writing {}", svg.display()))?;
    let doc = SweepReport {
        command_line,
        rate_hz: args.run.rate,
        p99_limit_ms: args.p99_limit_ms,
        mats_per_viewer: args.mats_per_viewer,
        note: WORK_NOTE,
        plot: svg.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
        points: &points,
        capacities: &capacities,
        ratios: &ratios,
        runs: &runs,
    };
    std::fs::write(&json, serde_json::to_string_pretty(&doc)?).with_context(|| format!("writing {}", json.display()))?;
    println!("{}", table(&capacities, &ratios, args.p99_limit_ms));
    println!("sweep written to {} and {}", json.display(), svg.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(target: &str, sent_fps: f64, cpu: f64, verdict: Verdict) -> Point {
        Point {
            target: target.to_owned(),
            mats: 0,
            viewers: 0,
            offered_fps: sent_fps,
            sent_fps,
            delivered_fps: sent_fps,
            p50_ms: 1.0,
            p99_ms: 10.0,
            p999_ms: 20.0,
            cpu_us_per_frame: Some(cpu),
            cpu_percent: None,
            rss_mib: None,
            frames_lost: Some(0),
            connected: 0,
            verdict,
        }
    }

    #[test]
    fn capacity_is_the_best_point_that_held_and_ratios_divide_it() {
        let knee = Verdict::Knee(vec!["p99".into()]);
        let points = vec![
            pt("hub-quic", 2_500.0, 80.0, Verdict::Held),
            pt("hub-quic", 5_000.0, 70.0, Verdict::Held),
            pt("hub-quic", 7_500.0, 60.0, knee.clone()),
            pt("mosquitto", 2_500.0, 20.0, Verdict::Held),
            pt("mosquitto", 5_000.0, 35.0, Verdict::GeneratorSaturated(vec!["cpu".into()])),
        ];
        let hub = capacity("hub-quic", &points);
        assert_eq!((hub.frames_per_sec, hub.cpu_us_per_frame, hub.knee_found), (Some(5_000.0), Some(70.0), true));
        let broker = capacity("mosquitto", &points);
        assert_eq!((broker.frames_per_sec, broker.knee_found, broker.generator_saturated), (Some(2_500.0), false, true));
        let r = ratios(&[hub, broker]);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].frames_per_sec, Some(2.0));
        assert_eq!(r[0].cpu_per_frame, Some(3.5));
        let t = table(&[capacity("hub-quic", &points), capacity("mosquitto", &points)], &r, 50.0);
        assert!(t.contains("| hub-quic ÷ mosquitto | 2.00 × | 3.50 × |"), "{t}");
        assert!(t.contains("| mosquitto | 2500 | 20.0 | generator saturated |"), "{t}");
        assert!(t.contains(WORK_NOTE));
        assert_eq!(capacity("absent", &points).frames_per_sec, None);
    }

    #[test]
    fn the_knee_is_latency_loss_or_missing_connections_and_saturation_is_no_knee() {
        let ok = crate::report::tests::example(0, 50.0);
        assert_eq!(assess(&ok, 50.0), Verdict::Held);
        let mut slow = ok.clone();
        slow.latency_us.p99 = 60_000;
        assert_eq!(assess(&slow, 50.0), Verdict::Knee(vec!["p99 60.0 ms > 50 ms".into()]));
        let mut lost = ok.clone();
        lost.frames_lost = Some(3);
        assert_eq!(assess(&lost, 50.0), Verdict::Knee(vec!["3 frames lost".into()]));
        let mut missing = ok.clone();
        missing.devices.stats.connected = 9;
        assert_eq!(assess(&missing, 50.0), Verdict::Knee(vec!["9 of 10 mats connected".into()]));
        let mut silent = ok.clone();
        silent.latency_us.count = 0;
        assert_eq!(assess(&silent, 50.0), Verdict::Knee(vec!["no frame reached a viewer".into()]));
        let mut saturated = crate::report::tests::example(500, 50.0);
        saturated.latency_us.p99 = 900_000;
        assert!(matches!(assess(&saturated, 50.0), Verdict::GeneratorSaturated(_)));
        let p = point(SweepTarget::HubWs, &ok, 50.0);
        assert_eq!((p.target.as_str(), p.offered_fps, p.p99_ms, p.verdict), ("hub-ws", 100.0, 4.0, Verdict::Held));
    }

    #[test]
    fn the_plot_sits_next_to_the_json_and_can_be_redrawn_from_it() {
        assert_eq!(svg_path(Path::new("docs/loadtests/sweep.json")), PathBuf::from("docs/loadtests/sweep.svg"));
        let dir = tempfile::tempdir().expect("dir");
        let json = dir.path().join("s.json");
        let points = vec![pt("hub-quic", 2_500.0, 80.0, Verdict::Held), pt("hub-quic", 5_000.0, 70.0, Verdict::Knee(vec!["p99".into()]))];
        let doc = serde_json::json!({"rate_hz": 10.0, "p99_limit_ms": 50.0, "points": points, "other": 1});
        std::fs::write(&json, doc.to_string()).expect("write");
        let svg = replot(&json).expect("replotted");
        assert_eq!(svg, dir.path().join("s.svg"));
        let text = std::fs::read_to_string(svg).expect("svg");
        assert_eq!(text, crate::svg::plot(&points, 50.0, 10.0));
        assert!(replot(&dir.path().join("missing.json")).is_err());
    }
}
