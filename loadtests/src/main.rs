//! `loadtests`: drives N simulated mats at R Hz plus M viewer sessions against a hub and reports
//! frames sent, processed, delivered, conflated and lost, device → browser latency percentiles
//! (HDR histogram) and the hub's CPU and RSS, as a table and as JSON.
//!
//! It measures the hub, not itself: the hub runs pinned to one core and the generator to another,
//! frames are pre-rendered ([`frames`]), and a generator that falls behind its schedule or runs
//! out of CPU says so instead of printing latencies ([`saturation`]). `sweep` raises the mats until
//! the knee and plots it; `--target mosquitto[-tls]` runs the same load through Mosquitto;
//! `storm` connects a large fleet at a monitoring rate, reads the hub's memory per mat, restarts
//! the hub and times the fleet's return.

mod broker_run;
mod cluster;
mod cluster_cost;
mod cluster_plan;
mod cluster_report;
mod cluster_summary;
mod frames;
mod generator;
mod http;
mod hub;
mod hub_run;
mod latency;
mod mosquitto;
mod mqtt;
mod pinning;
mod procstat;
mod prom;
mod report;
mod saturation;
mod schedule;
mod storm;
mod svg;
mod sweep;
mod viewer;
mod window;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use simulator::cli::parse_duration;
use simulator::{SimStats, Trust};
use tokio::task::JoinSet;

use crate::http::BaseUrl;
use crate::pinning::PinningReport;
use crate::report::{Report, ViewersReport};
use crate::viewer::ViewerCounters;

/// Load tests for the hub.
#[derive(Debug, Parser)]
#[command(name = "loadtests", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run mats and viewers against a hub (spawned with --hub-bin, or attached with --hub-url), or
    /// the same load through Mosquitto (--target mosquitto | mosquitto-tls).
    Run(RunArgs),
    /// Capacity sweep: mats from --from upward by --step until the knee, for each target; writes
    /// the points as JSON and a plot as SVG next to it.
    Sweep(sweep::SweepArgs),
    /// Connection scale: a fleet at a monitoring rate connects, the hub's memory per mat is read,
    /// then the hub is ended and restarted and the fleet's return is timed.
    Storm(storm::StormArgs),
    /// The cost of cluster mode: the same load, alternating, on a single hub, on hub A of a
    /// cluster watched on A, and on hub A watched from hub B (`--rounds` times); one JSON with
    /// every run and the comparison (issue 25).
    ClusterCost(cluster_cost::ClusterCostArgs),
    /// Redraw the SVG plot of a sweep's JSON (written next to it).
    Plot {
        /// The sweep's JSON report.
        json: PathBuf,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TransportKind {
    Quic,
    Ws,
}

/// How the mats send their cells (docs/device-protocol.md §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FrameEncodingArg {
    /// Every cell (`cells`), protocol version 1.
    Dense,
    /// Zero runs (`runs`), protocol version 2.
    Runs,
}

impl From<FrameEncodingArg> for mat_protocol::FrameEncoding {
    fn from(arg: FrameEncodingArg) -> Self {
        match arg {
            FrameEncodingArg::Dense => mat_protocol::FrameEncoding::Dense,
            FrameEncodingArg::Runs => mat_protocol::FrameEncoding::Runs,
        }
    }
}

/// What receives the load.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TargetKind {
    /// The hub (see --transport).
    Hub,
    /// Mosquitto relaying the frames over plain MQTT.
    Mosquitto,
    /// Mosquitto relaying the frames over MQTT with TLS.
    MosquittoTls,
    /// Hub A of a two-hub cluster this run starts (nats-server, the SurrealDB server, hubs A and
    /// B): the mats connect to A, pinned as a single hub; see --viewers-on.
    HubCluster,
}

#[derive(Debug, Clone, clap::Args)]
pub struct RunArgs {
    /// What receives the load.
    #[arg(long, value_enum, default_value = "hub")]
    target: TargetKind,
    /// Spawn mode: the hub binary to provision and start (in a temporary data directory).
    #[arg(long, conflicts_with_all = ["hub_url", "devices", "hub_pid"])]
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
    /// Attach mode: the hub's process id, for CPU, RSS and the pinning check.
    #[arg(long)]
    hub_pid: Option<u32>,
    /// --target hub-cluster: where the viewers watch A's mats, on A itself (`a`) or on hub B
    /// (`b`: every map crosses NATS). Default `a`.
    #[arg(long, value_enum)]
    viewers_on: Option<cluster_plan::ViewersOn>,
    /// --target hub-cluster: the SurrealDB server binary (default: `dbserver` beside --hub-bin).
    #[arg(long)]
    dbserver_bin: Option<PathBuf>,
    /// --target hub-cluster: the NATS server binary.
    #[arg(long, default_value = cluster::DEFAULT_NATS_SERVER_BIN)]
    nats_server_bin: PathBuf,
    /// The Mosquitto binary for --target mosquitto[-tls].
    #[arg(long, default_value = mosquitto::DEFAULT_BIN)]
    mosquitto_bin: PathBuf,
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
    /// Number of viewer sessions (browser sockets, or MQTT subscribers).
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
    /// Device transport to the hub.
    #[arg(long, value_enum, default_value = "quic")]
    transport: TransportKind,
    /// How the mats send their cells: `runs` (protocol version 2) or `dense` (version 1, the
    /// frames of the measurements before 2026-11-29).
    #[arg(long, value_enum, default_value = "runs")]
    frame_encoding: FrameEncodingArg,
    /// The core the target (hub or broker) runs on.
    #[arg(long, default_value_t = 0)]
    hub_cpu: usize,
    /// The core this generator runs on.
    #[arg(long, default_value_t = 1)]
    generator_cpu: usize,
    /// Do not pin (the run then warns that target and generator share cores).
    #[arg(long)]
    no_pin: bool,
    /// A send slot woken later than this counts as late (generator saturation).
    #[arg(long, value_parser = parse_duration, default_value = "10ms")]
    late_threshold: Duration,
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

impl RunArgs {
    /// Whether this run pins: asked for, and the machine has the two cores named (online CPUs, not
    /// this process's own set, which pinning narrows).
    fn pins(&self) -> bool {
        let online = pinning::online_cpus();
        !self.no_pin && self.hub_cpu != self.generator_cpu && online.contains(&self.hub_cpu) && online.contains(&self.generator_cpu)
    }

    /// The core a spawned target is pinned to.
    fn target_cpu(&self) -> Option<usize> {
        self.pins().then_some(self.hub_cpu)
    }

    /// Whether the arguments fit together (`cluster_plan::check`).
    fn check(&self) -> Result<()> {
        cluster_plan::check(self.target == TargetKind::HubCluster, self.viewers_on, self.hub_bin.is_some(), self.viewers)
            .map_err(anyhow::Error::msg)
    }

    /// Devices per viewer (default: every mat has one viewer).
    fn per_viewer(&self) -> usize {
        self.devices_per_viewer.unwrap_or_else(|| self.mats.div_ceil(self.viewers.max(1))).clamp(1, self.mats.max(1))
    }
}

fn main() {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()))
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    let generator_cpu = match &cli.command {
        Command::Run(args) => args.pins().then_some(args.generator_cpu),
        Command::Sweep(sweep) => sweep.run.pins().then_some(sweep.run.generator_cpu),
        Command::Storm(storm) => storm.pins().then_some(storm.generator_cpu),
        Command::ClusterCost(cost) => cost.run.pins().then_some(cost.run.generator_cpu),
        Command::Plot { json } => match sweep::replot(json) {
            Ok(svg) => {
                println!("plot written to {}", svg.display());
                return;
            }
            Err(e) => {
                eprintln!("loadtests: {e:#}");
                std::process::exit(1);
            }
        },
    };
    // Pin before the runtime starts its threads: they inherit this process's CPU set (and the
    // runtime sizes itself to it).
    if let Some(cpu) = generator_cpu
        && let Err(e) = pinning::pin_self(cpu)
    {
        eprintln!("loadtests: {e:#}");
        std::process::exit(1);
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("loadtests: starting the runtime: {e}");
            std::process::exit(1);
        }
    };
    let outcome = runtime.block_on(async {
        match cli.command {
            Command::Run(args) => run(args).await,
            Command::Sweep(args) => sweep::run(args).await,
            Command::Storm(args) => storm::run(args).await,
            Command::ClusterCost(args) => cluster_cost::run(args).await,
            Command::Plot { .. } => Ok(()),
        }
    });
    if let Err(e) = outcome {
        eprintln!("loadtests: {e:#}");
        std::process::exit(1);
    }
}

/// The hub under test, however it was found.
pub struct Target {
    base: BaseUrl,
    /// Where the viewers' sockets go: the hub under test, or in a cluster the hub --viewers-on
    /// names.
    viewers_base: BaseUrl,
    hub_url: String,
    quic: Option<(SocketAddr, Trust)>,
    devices_file: PathBuf,
    pid: Option<u32>,
    spawned: Option<hub::SpawnedHub>,
    /// The cluster this run started (`--target hub-cluster`); the measured hub is its hub A.
    cluster: Option<cluster::SpawnedCluster>,
    mode: &'static str,
}

async fn target(args: &RunArgs) -> Result<Target> {
    if let Some(hub_bin) = &args.hub_bin {
        let spawned = hub::spawn(hub_bin, args.target_cpu(), args.mats, &args.device_type, args.keep_data).await?;
        if args.keep_data {
            eprintln!("hub data directory: {}", spawned.data_dir.display());
        }
        let listening = spawned.listening.clone();
        return Ok(Target {
            base: BaseUrl::parse(&listening.http)?,
            viewers_base: BaseUrl::parse(&listening.http)?,
            hub_url: listening.http,
            quic: Some((listening.quic, Trust::PemFile(listening.cert))),
            devices_file: spawned.devices_file.clone(),
            pid: Some(spawned.pid),
            spawned: Some(spawned),
            cluster: None,
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
    Ok(Target {
        base: BaseUrl::parse(&hub_url)?,
        viewers_base: BaseUrl::parse(&hub_url)?,
        hub_url,
        quic,
        devices_file,
        pid: args.hub_pid,
        spawned: None,
        cluster: None,
        mode: "attach",
    })
}

/// `--target hub-cluster`: starts the cluster; the target is its hub A.
async fn cluster_target(args: &RunArgs) -> Result<Target> {
    let hub_bin = args.hub_bin.as_deref().context("--target hub-cluster needs --hub-bin")?;
    let dbserver_bin = args.dbserver_bin.clone().unwrap_or_else(|| hub_bin.with_file_name("dbserver"));
    let cluster = cluster::spawn(cluster::ClusterSpec {
        hub_bin,
        dbserver_bin: &dbserver_bin,
        nats_server_bin: &args.nats_server_bin,
        target_cpu: args.target_cpu(),
        side_cpu: args.pins().then_some(args.generator_cpu),
        mats: args.mats,
        device_type: &args.device_type,
        viewers_on: args.viewers_on.unwrap_or(cluster_plan::ViewersOn::A),
        keep_data: args.keep_data,
    })
    .await?;
    if args.keep_data {
        eprintln!("cluster data directory: {}", cluster.dir.display());
    }
    let listening = cluster.a.listening.clone();
    Ok(Target {
        base: BaseUrl::parse(&listening.http)?,
        viewers_base: BaseUrl::parse(&cluster.viewers_hub().listening.http)?,
        hub_url: listening.http,
        quic: Some((listening.quic, Trust::PemFile(listening.cert))),
        devices_file: cluster.a.devices_file.clone(),
        pid: Some(cluster.a.pid),
        spawned: None,
        cluster: Some(cluster),
        mode: "spawn",
    })
}

/// The CPUs this process may run on (after any pinning).
fn generator_cpus() -> Vec<usize> {
    pinning::allowed_cpus(std::process::id()).unwrap_or_default()
}

/// One run against the target the arguments name; the report, or why there is none.
pub async fn run_once(args: &RunArgs, command_line: Vec<String>) -> Result<Report> {
    if args.mats == 0 {
        bail!("--mats must be at least 1");
    }
    if args.rate.is_nan() || args.rate <= 0.0 {
        bail!("--rate must be above 0");
    }
    args.check()?;
    let mut report = match args.target {
        TargetKind::Hub | TargetKind::HubCluster => {
            let mut target = if args.target == TargetKind::HubCluster { cluster_target(args).await? } else { target(args).await? };
            let pinning = PinningReport::of(target.pid.and_then(|pid| pinning::allowed_cpus(pid).ok()), generator_cpus());
            if !pinning.separated && target.mode == "attach" {
                eprintln!("loadtests: {}", pinning::attach_advice(target.pid, args.hub_cpu, args.generator_cpu));
            }
            let outcome = hub_run::drive(args, &target, pinning, command_line).await;
            if let Some(spawned) = target.spawned.take() {
                spawned.stop().await.context("stopping the hub")?;
            }
            if let Some(cluster) = target.cluster.take() {
                cluster.stop().await.context("stopping the cluster")?;
            }
            let mut report = outcome?;
            if !report.pinning.separated {
                let advice = if target.mode == "attach" {
                    pinning::attach_advice(target.pid, args.hub_cpu, args.generator_cpu)
                } else {
                    "run without --no-pin on a machine with two cores".to_owned()
                };
                report.warnings.push(format!("the hub and the generator share CPUs: {advice}"));
            }
            report
        }
        TargetKind::Mosquitto | TargetKind::MosquittoTls => {
            broker_run::drive(args, args.target == TargetKind::MosquittoTls, generator_cpus(), command_line).await?
        }
    };
    if report.pinning.separated || matches!(args.target, TargetKind::Hub | TargetKind::HubCluster) {
        return Ok(report);
    }
    report.warnings.push("the broker and the generator share CPUs".to_owned());
    Ok(report)
}

async fn run(args: RunArgs) -> Result<()> {
    let command_line: Vec<String> = std::env::args().collect();
    let report = run_once(&args, command_line).await?;
    println!("{}", report.table());
    if let Some(path) = &args.json {
        let json = serde_json::to_string_pretty(&report)?;
        std::fs::write(path, json).with_context(|| format!("writing {}", path.display()))?;
        println!("report written to {}", path.display());
    }
    Ok(())
}

/// Waits out the warm-up with a progress line; ends early when every mat was refused.
pub async fn warm_up(args: &RunArgs, stats: &SimStats, viewers: &ViewerCounters) {
    let bar = if args.quiet { ProgressBar::hidden() } else { ProgressBar::new_spinner() };
    bar.set_style(ProgressStyle::with_template("{spinner} warm-up {elapsed} {msg}").unwrap_or_else(|_| ProgressStyle::default_spinner()));
    bar.enable_steady_tick(Duration::from_millis(200));
    let warm_end = tokio::time::Instant::now() + args.warmup;
    while tokio::time::Instant::now() < warm_end {
        let s = stats.snapshot();
        bar.set_message(format!(
            "mats {}/{} · viewers {}/{} · frames {} · refusals {}",
            s.connected,
            args.mats,
            viewers.ready.load(Ordering::Relaxed),
            args.viewers,
            s.frames_sent,
            s.fatal
        ));
        if s.fatal as usize == args.mats {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250).min(warm_end.saturating_duration_since(tokio::time::Instant::now()))).await;
    }
    bar.finish_and_clear();
}

/// The viewers' counters over a window.
pub fn viewers_report(sessions: usize, c: &ViewerCounters, window_secs: f64) -> ViewersReport {
    let maps = c.maps.load(Ordering::Relaxed);
    ViewersReport {
        sessions,
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
    }
}

/// Waits (briefly) for the mat tasks and returns the errors of those that failed.
pub async fn collect_failures(tasks: &mut JoinSet<Result<()>>) -> Vec<String> {
    let mut failures = Vec::new();
    let drain = async {
        while let Some(done) = tasks.join_next().await {
            match done {
                Ok(Err(e)) => failures.push(format!("{e:#}")),
                Ok(Ok(())) => {}
                Err(e) => failures.push(format!("mat task: {e}")),
            }
        }
    };
    if tokio::time::timeout(Duration::from_secs(5), drain).await.is_err() {
        tasks.abort_all();
    }
    failures
}
