//! `loadtests`: drives N simulated mats at R Hz plus M viewer sessions against a hub and reports
//! frames sent, processed, delivered and conflated, device → browser latency percentiles (HDR
//! histogram) and the hub's CPU and RSS, as a table and as JSON.

mod http;
mod hub;
mod latency;
mod procstat;
mod prom;
mod report;
mod viewer;

use std::collections::{BTreeMap, HashMap};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use simulator::cli::parse_duration;
use simulator::{DeviceSpec, FrameObserver, QuicClient, Rate, RunOptions, SimStats, Transport, Trust, load_devices, run_device_with};
use tokio::task::JoinSet;

use crate::http::BaseUrl;
use crate::latency::{SendLog, Summary};
use crate::report::{DevicesReport, HubReport, Parameters, Report, ViewersReport};
use crate::viewer::{ViewerCounters, ViewerHistograms, ViewerShared};

/// Load tests for the hub.
#[derive(Debug, Parser)]
#[command(name = "loadtests", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run mats and viewers against a hub (spawned with --hub-bin, or attached with --hub-url).
    Run(RunArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum TransportKind {
    Quic,
    Ws,
}

#[derive(Debug, clap::Args)]
struct RunArgs {
    /// Spawn mode: the hub binary to provision and start (in a temporary data directory).
    #[arg(long, conflicts_with_all = ["hub_url", "devices", "hub_pid"], required_unless_present = "hub_url")]
    hub_bin: Option<PathBuf>,
    /// Attach mode: the running hub's HTTP base URL (http://HOST:PORT).
    #[arg(long, requires = "devices")]
    hub_url: Option<String>,
    /// Attach mode: the hub's QUIC address (needed with --transport quic).
    #[arg(long)]
    hub_quic: Option<String>,
    /// Attach mode: the hub's certificate (PEM) for QUIC.
    #[arg(long)]
    ca: Option<PathBuf>,
    /// Attach mode: accept any QUIC certificate instead of --ca.
    #[arg(long)]
    insecure: bool,
    /// Attach mode: the provisioned devices (`hub provision --out FILE`).
    #[arg(long)]
    devices: Option<PathBuf>,
    /// Attach mode: the hub's process id, for CPU and RSS.
    #[arg(long)]
    hub_pid: Option<u32>,
    /// Number of simulated mats.
    #[arg(long, default_value_t = 500)]
    mats: usize,
    /// Frames per second per mat.
    #[arg(long, default_value_t = 10.0)]
    rate: f64,
    /// Rows per frame (default: as provisioned, 48 for Mattress Mat IoT).
    #[arg(long)]
    rows: Option<u16>,
    /// Columns per frame (default: as provisioned).
    #[arg(long)]
    cols: Option<u16>,
    /// Device type to provision (spawn mode).
    #[arg(long, default_value = "Mattress Mat IoT")]
    device_type: String,
    /// Number of viewer sessions (browser sockets).
    #[arg(long, default_value_t = 50)]
    viewers: usize,
    /// Devices each viewer subscribes to (default: enough that every mat has one viewer).
    #[arg(long)]
    devices_per_viewer: Option<usize>,
    /// Time to connect and settle before measuring.
    #[arg(long, value_parser = parse_duration, default_value = "5s")]
    warmup: Duration,
    /// Measuring window.
    #[arg(long, value_parser = parse_duration, default_value = "30s")]
    duration: Duration,
    /// Spread device start-up over this long.
    #[arg(long, value_parser = parse_duration, default_value = "2s")]
    ramp: Duration,
    /// Device transport.
    #[arg(long, value_enum, default_value = "quic")]
    transport: TransportKind,
    /// Write the report as JSON here.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Viewer login e-mail.
    #[arg(long, default_value = "demo@example.com")]
    email: String,
    /// Viewer login password.
    #[arg(long, default_value = "demo1234")]
    password: String,
    /// Spawn mode: keep the temporary data directory (database, devices.json, hub logs).
    #[arg(long)]
    keep_data: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

#[tokio::main]
async fn main() {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()))
        .with_writer(std::io::stderr)
        .init();
    let Command::Run(args) = Cli::parse().command;
    if let Err(e) = run(args).await {
        eprintln!("loadtests: {e:#}");
        std::process::exit(1);
    }
}

/// The hub under test, however it was found.
struct Target {
    base: BaseUrl,
    hub_url: String,
    quic: Option<(SocketAddr, Trust)>,
    devices_file: PathBuf,
    pid: Option<u32>,
    spawned: Option<hub::SpawnedHub>,
    mode: &'static str,
}

async fn target(args: &RunArgs) -> Result<Target> {
    if let Some(hub_bin) = &args.hub_bin {
        let spawned = hub::spawn(hub_bin, args.mats, &args.device_type, args.keep_data).await?;
        if args.keep_data {
            eprintln!("hub data directory: {}", spawned.data_dir.display());
        }
        let listening = spawned.listening.clone();
        return Ok(Target {
            base: BaseUrl::parse(&listening.http)?,
            hub_url: listening.http,
            quic: Some((listening.quic, Trust::PemFile(listening.cert))),
            devices_file: spawned.devices_file.clone(),
            pid: Some(spawned.pid),
            spawned: Some(spawned),
            mode: "spawn",
        });
    }
    let hub_url = args.hub_url.clone().context("give --hub-bin PATH, or --hub-url URL with --devices FILE")?;
    let devices_file = args.devices.clone().context("attach mode needs --devices FILE")?;
    let quic = match &args.hub_quic {
        Some(target) => {
            let addr = tokio::net::lookup_host(target).await?.next().with_context(|| format!("{target} resolves to no address"))?;
            let trust = match (&args.ca, args.insecure) {
                (Some(pem), _) => Trust::PemFile(pem.clone()),
                (None, true) => Trust::InsecureSkipVerify,
                (None, false) => bail!("QUIC needs --ca PEM (the hub's <data>/tls/cert.pem) or --insecure"),
            };
            Some((addr, trust))
        }
        None => None,
    };
    if args.transport == TransportKind::Quic && quic.is_none() {
        bail!("--transport quic in attach mode needs --hub-quic ADDR");
    }
    Ok(Target { base: BaseUrl::parse(&hub_url)?, hub_url, quic, devices_file, pid: args.hub_pid, spawned: None, mode: "attach" })
}

async fn scrape(base: &BaseUrl) -> Option<prom::Metrics> {
    match http::request(base, "GET", "/metrics", None).await {
        Ok(r) if r.status == 200 => Some(prom::parse(&String::from_utf8_lossy(&r.body))),
        Ok(r) => {
            tracing::warn!(status = r.status, "GET /metrics failed");
            None
        }
        Err(e) => {
            tracing::warn!("GET /metrics: {e:#}");
            None
        }
    }
}

async fn run(args: RunArgs) -> Result<()> {
    if args.mats == 0 {
        bail!("--mats must be at least 1");
    }
    let command_line: Vec<String> = std::env::args().collect();
    let mut target = target(&args).await?;
    let outcome = drive(&args, &target, command_line).await;
    if let Some(spawned) = target.spawned.take() {
        spawned.stop().await.context("stopping the hub")?;
    }
    let report = outcome?;
    println!("{}", report.table());
    if let Some(path) = &args.json {
        let json = serde_json::to_string_pretty(&report)?;
        std::fs::write(path, json).with_context(|| format!("writing {}", path.display()))?;
        println!("report written to {}", path.display());
    }
    Ok(())
}

async fn drive(args: &RunArgs, target: &Target, command_line: Vec<String>) -> Result<Report> {
    let provisioned = load_devices(&target.devices_file)?;
    if provisioned.len() < args.mats {
        bail!("{} lists {} devices, fewer than --mats {}", target.devices_file.display(), provisioned.len(), args.mats);
    }
    let provisioned = &provisioned[..args.mats];
    let mut specs = Vec::with_capacity(args.mats);
    for device in provisioned {
        let mut spec: DeviceSpec = device.to_spec()?;
        if let Some(rows) = args.rows {
            spec.rows = rows;
        }
        if let Some(cols) = args.cols {
            spec.cols = cols;
        }
        spec.rate = Rate::Fixed { hz: args.rate };
        specs.push(spec);
    }
    let mut index = HashMap::new();
    for (i, device) in provisioned.iter().enumerate() {
        match &device.device_id {
            Some(id) => {
                index.insert(id.clone(), i);
            }
            None if args.viewers > 0 => bail!("{}: device {} has no deviceId to subscribe to", target.devices_file.display(), device.serial),
            None => {}
        }
    }
    let device_ids: Vec<String> = provisioned.iter().map(|d| d.device_id.clone().unwrap_or_default()).collect();
    let (rows, cols) = specs.first().map(|s| (s.rows, s.cols)).unwrap_or_default();
    let device_type = specs.first().map(|s| s.device_type.clone()).unwrap_or_default();
    let per_viewer = args.devices_per_viewer.unwrap_or_else(|| args.mats.div_ceil(args.viewers.max(1))).clamp(1, args.mats);

    let transport = match (args.transport, &target.quic) {
        (TransportKind::Quic, Some((addr, trust))) => {
            let client = QuicClient::for_server(trust, *addr).context("setting up the QUIC endpoint")?;
            Transport::QuicShared { client, addr: *addr, server_name: "localhost".into() }
        }
        (TransportKind::Quic, None) => bail!("no QUIC address for the hub"),
        (TransportKind::Ws, _) => Transport::WebSocket { url: target.base.ws("/ingest") },
    };

    let logs: Vec<Arc<SendLog>> = (0..args.mats).map(|_| Arc::new(SendLog::default())).collect();
    let stats = Arc::new(SimStats::default());
    let (stop, shutdown) = tokio::sync::watch::channel(false);
    let mut devices = JoinSet::new();
    let stagger = args.ramp / args.mats as u32;
    for (i, spec) in specs.into_iter().enumerate() {
        let serial = spec.serial.clone();
        let (transport, stats, shutdown) = (transport.clone(), stats.clone(), shutdown.clone());
        let observer: Arc<dyn FrameObserver> = logs[i].clone();
        let delay = stagger * i as u32;
        devices.spawn(async move {
            tokio::time::sleep(delay).await;
            let options = RunOptions { observer: Some(observer) };
            (serial, run_device_with(spec, transport, stats, shutdown, options).await)
        });
    }

    let shared = Arc::new(ViewerShared { counters: ViewerCounters::default(), measuring: AtomicBool::new(false), logs, index: Arc::new(index) });
    let mut viewers = JoinSet::new();
    let mut histograms = Vec::new();
    if args.viewers > 0 {
        let token = viewer::login(&target.base, &args.email, &args.password).await?;
        for v in 0..args.viewers {
            let ids: Vec<String> = viewer::assignment(v, per_viewer, args.mats).into_iter().map(|i| device_ids[i].clone()).collect();
            let h = Arc::new(Mutex::new(ViewerHistograms::default()));
            histograms.push(h.clone());
            viewers.spawn(viewer::run_viewer(target.base.ws("/ws"), token.clone(), ids, shared.clone(), h, shutdown.clone()));
        }
    }

    let bar = if args.quiet { ProgressBar::hidden() } else { ProgressBar::new_spinner() };
    bar.set_style(ProgressStyle::with_template("{spinner} warm-up {elapsed} {msg}").unwrap_or_else(|_| ProgressStyle::default_spinner()));
    bar.enable_steady_tick(Duration::from_millis(200));
    let warm_end = tokio::time::Instant::now() + args.warmup;
    while tokio::time::Instant::now() < warm_end {
        let s = stats.snapshot();
        bar.set_message(format!(
            "devices {}/{} · viewers {}/{} · frames {} · refusals {}",
            s.connected,
            args.mats,
            shared.counters.ready.load(Ordering::Relaxed),
            args.viewers,
            s.frames_sent,
            s.refusals
        ));
        if s.fatal as usize == args.mats {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250).min(warm_end.saturating_duration_since(tokio::time::Instant::now()))).await;
    }
    bar.finish_and_clear();
    let mut warnings = Vec::new();
    let warm = stats.snapshot();
    if warm.fatal as usize == args.mats {
        let _ = stop.send(true);
        let failures = collect_failures(&mut devices).await;
        bail!("every device was refused by the hub: {}", failures.first().cloned().unwrap_or_default());
    }
    if (warm.connected as usize) < args.mats {
        warnings.push(format!("only {} of {} devices connected after the warm-up", warm.connected, args.mats));
    }
    let ready = shared.counters.ready.load(Ordering::Relaxed) as usize;
    if ready < args.viewers {
        warnings.push(format!("only {ready} of {} viewers were ready after the warm-up", args.viewers));
    }

    // The measuring window.
    let clk = procstat::clock_ticks_per_second();
    let metrics_before = scrape(&target.base).await;
    let proc_before = target.pid.and_then(|pid| procstat::sample(pid).ok());
    let sim_before = stats.snapshot();
    let window_start_unix_ms = latency::unix_us() / 1_000;
    let started = tokio::time::Instant::now();
    shared.measuring.store(true, Ordering::Relaxed);

    let secs = args.duration.as_secs_f64().ceil().max(1.0) as u64;
    let bar = if args.quiet { ProgressBar::hidden() } else { ProgressBar::new(secs) };
    bar.set_style(
        ProgressStyle::with_template("{bar:30.cyan/blue} {pos:>3}/{len}s {msg}").unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut cpu_max: Option<f64> = None;
    let mut rss: Vec<u64> = Vec::new();
    let mut last_proc = proc_before;
    let mut last_tick = started;
    let mut last_counts = (sim_before.frames_sent, 0u64);
    let end = started + args.duration;
    let mut ticker = tokio::time::interval(Duration::from_secs(1));
    ticker.tick().await;
    loop {
        let now = tokio::time::Instant::now();
        if now >= end {
            break;
        }
        tokio::time::sleep_until((now + Duration::from_secs(1)).min(end)).await;
        let now = tokio::time::Instant::now();
        let dt = now.duration_since(last_tick).as_secs_f64().max(1e-3);
        last_tick = now;
        if let Some(sample) = target.pid.and_then(|pid| procstat::sample(pid).ok()) {
            if let Some(prev) = last_proc {
                let pct = sample.ticks.saturating_sub(prev.ticks) as f64 / clk as f64 / dt * 100.0;
                cpu_max = Some(cpu_max.map_or(pct, |m: f64| m.max(pct)));
            }
            rss.push(sample.rss_kib);
            last_proc = Some(sample);
        }
        let sent = stats.snapshot().frames_sent;
        let maps = shared.counters.maps.load(Ordering::Relaxed);
        let p99 = histograms.iter().filter_map(|h| h.lock().ok().map(|h| h.end_to_end_us.value_at_quantile(0.99))).max().unwrap_or(0);
        bar.set_position(now.duration_since(started).as_secs().min(secs));
        bar.set_message(format!(
            "sent {:.0}/s · delivered {:.0}/s · p99 ≤ {:.1} ms · devices {} · viewers {}",
            (sent - last_counts.0) as f64 / dt,
            (maps - last_counts.1) as f64 / dt,
            p99 as f64 / 1_000.0,
            stats.snapshot().connected,
            shared.counters.ready.load(Ordering::Relaxed) - shared.counters.dropped.load(Ordering::Relaxed),
        ));
        last_counts = (sent, maps);
    }
    shared.measuring.store(false, Ordering::Relaxed);
    let window_secs = started.elapsed().as_secs_f64();
    let sim_after = stats.snapshot();
    let proc_after = target.pid.and_then(|pid| procstat::sample(pid).ok());
    let metrics_after = scrape(&target.base).await;
    bar.finish_and_clear();

    let _ = stop.send(true);
    let failures = collect_failures(&mut devices).await;
    let mut viewer_failures = Vec::new();
    let drain = async {
        while let Some(done) = viewers.join_next().await {
            if let Ok(Err(e)) = done {
                viewer_failures.push(format!("{e:#}"));
            }
        }
    };
    if tokio::time::timeout(Duration::from_secs(5), drain).await.is_err() {
        viewers.abort_all();
    }
    for f in viewer_failures.iter().take(3) {
        warnings.push(format!("viewer: {f}"));
    }

    let mut merged = ViewerHistograms::default();
    for h in &histograms {
        if let Ok(h) = h.lock() {
            merged.merge(&h);
        }
    }
    let devices_report = DevicesReport {
        stats: sim_after.since(&sim_before),
        frames_per_sec: sim_after.frames_sent.saturating_sub(sim_before.frames_sent) as f64 / window_secs,
        failed: failures.len(),
        failures: failures.iter().take(5).cloned().collect(),
    };
    let hub_report = hub_report(target.pid, metrics_before.as_ref(), metrics_after.as_ref(), proc_before, proc_after, clk, window_secs, cpu_max, &rss);
    if metrics_before.is_none() || metrics_after.is_none() {
        warnings.push(format!("GET {}/metrics failed: no hub counters", target.hub_url));
    }
    let c = &shared.counters;
    let maps = c.maps.load(Ordering::Relaxed);
    let viewers_report = ViewersReport {
        sessions: args.viewers,
        ready: c.ready.load(Ordering::Relaxed),
        dropped: c.dropped.load(Ordering::Relaxed),
        maps_delivered: maps,
        maps_per_sec: maps as f64 / window_secs,
        presence_maps: c.presence_maps.load(Ordering::Relaxed),
        blank_maps: c.blank_maps.load(Ordering::Relaxed),
        device_conf_events: c.device_confs.load(Ordering::Relaxed),
        error_events: c.errors.load(Ordering::Relaxed),
        bad_maps: c.bad_maps.load(Ordering::Relaxed),
        seq_gaps: c.seq_gaps.load(Ordering::Relaxed),
        approximate_latencies: c.approximate.load(Ordering::Relaxed),
    };
    if args.viewers > 0 && maps == 0 {
        warnings.push("viewers received no live maps during the window".to_owned());
    }
    if viewers_report.bad_maps > 0 {
        warnings.push(format!("{} maps had cells that do not match rows × cols × bytesPerCell", viewers_report.bad_maps));
    }
    Ok(Report {
        command_line,
        parameters: Parameters {
            mode: target.mode.to_owned(),
            hub_url: target.hub_url.clone(),
            transport: match args.transport {
                TransportKind::Quic => "quic".to_owned(),
                TransportKind::Ws => "ws".to_owned(),
            },
            mats: args.mats,
            rate_hz: args.rate,
            rows,
            cols,
            device_type,
            viewers: args.viewers,
            devices_per_viewer: if args.viewers > 0 { per_viewer } else { 0 },
            warmup_secs: args.warmup.as_secs_f64(),
            duration_secs: args.duration.as_secs_f64(),
            ramp_secs: args.ramp.as_secs_f64(),
        },
        window_start_unix_ms,
        window_secs,
        devices: devices_report,
        hub: hub_report,
        viewers: viewers_report,
        latency_us: Summary::of(&merged.end_to_end_us),
        hub_to_browser_us: Summary::of(&merged.hub_to_browser_us),
        device_to_hub_us: Summary::of(&merged.device_to_hub_us),
        warnings,
    })
}

/// Waits (briefly) for the device tasks and returns the errors of those that failed.
async fn collect_failures(devices: &mut JoinSet<(String, Result<(), simulator::SimError>)>) -> Vec<String> {
    let mut failures = Vec::new();
    let drain = async {
        while let Some(done) = devices.join_next().await {
            match done {
                Ok((serial, Err(e))) => failures.push(format!("{serial}: {e}")),
                Ok(_) => {}
                Err(e) => failures.push(format!("device task: {e}")),
            }
        }
    };
    if tokio::time::timeout(Duration::from_secs(5), drain).await.is_err() {
        devices.abort_all();
    }
    failures
}

#[allow(clippy::too_many_arguments)]
fn hub_report(
    pid: Option<u32>,
    before: Option<&prom::Metrics>,
    after: Option<&prom::Metrics>,
    proc_before: Option<procstat::Sample>,
    proc_after: Option<procstat::Sample>,
    clk: u64,
    window_secs: f64,
    cpu_max: Option<f64>,
    rss: &[u64],
) -> HubReport {
    let mut counters = BTreeMap::new();
    let mut gauges = BTreeMap::new();
    if let (Some(before), Some(after)) = (before, after) {
        for (name, value) in after {
            if name.ends_with("_total") {
                counters.insert(name.clone(), prom::delta(before, after, name).unwrap_or(0));
            } else {
                gauges.insert(name.clone(), *value);
            }
        }
    }
    let get = |name: &str| counters.get(name).copied();
    let cpu_percent_avg = match (proc_before, proc_after) {
        (Some(b), Some(a)) => Some(a.ticks.saturating_sub(b.ticks) as f64 / clk as f64 / window_secs * 100.0),
        _ => None,
    };
    let mib = |kib: u64| kib as f64 / 1_024.0;
    HubReport {
        pid,
        frames_received: get("hub_frames_received_total"),
        frames_processed: get("hub_frames_processed_total"),
        frames_delivered: get("hub_frames_delivered_total"),
        frames_conflated: get("hub_frames_conflated_total"),
        counters,
        gauges,
        cpu_percent_avg,
        cpu_percent_max: cpu_max,
        rss_mib_avg: (!rss.is_empty()).then(|| mib(rss.iter().sum::<u64>()) / rss.len() as f64),
        rss_mib_max: rss.iter().max().map(|&k| mib(k)),
    }
}
