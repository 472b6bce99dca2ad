//! Connection scale and the reconnect storm (issue 13 §4): a fleet of mats at a monitoring rate
//! connects to a spawned hub; the hub's resident memory per connected mat is read; then the hub
//! is ended (SIGKILL by default) and started again on the same data and ports, and the time until
//! every mat is back — counted by the new process itself (`hub_devices_connected`) — is measured.
//! The mats reconnect with the device protocol's backoff (`simulator::policy::Backoff`).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use serde::Serialize;
use simulator::{DeviceSpec, QuicClient, SimStats, Trust, load_devices};
use tokio::sync::watch;
use tokio::task::JoinSet;
use tokio::time::Instant;

use crate::frames::Framing;
use crate::generator::{Connector, Fleet, MatPlan, Phase, run_mat};
use crate::http::BaseUrl;
use crate::hub::{self, Ending};
use crate::latency::SendLog;
use crate::pinning::{self, PinningReport};
use crate::schedule::GeneratorStats;
use crate::{hub_run, parse_duration, procstat};

/// The shares of the fleet whose return is timed.
const MILESTONES: [f64; 4] = [0.5, 0.9, 0.99, 1.0];
/// How often the hub's connection gauge is read while mats come back.
const POLL: Duration = Duration::from_millis(100);

#[derive(Debug, Clone, clap::Args)]
pub struct StormArgs {
    /// The hub binary (a release build for figures worth keeping); the storm always spawns it.
    #[arg(long)]
    pub hub_bin: PathBuf,
    /// Mats connected at once.
    #[arg(long, default_value_t = 5_000)]
    pub mats: usize,
    /// Frames per second per mat (2 Hz is the monitoring rate).
    #[arg(long, default_value_t = 2.0)]
    pub rate: f64,
    /// Device type of the provisioned mats.
    #[arg(long, default_value = "Mattress Mat IoT")]
    pub device_type: String,
    /// Time over which the mats' first connections are spread.
    #[arg(long, value_parser = parse_duration, default_value = "10s")]
    pub ramp: Duration,
    /// Time with every mat connected and streaming before memory is read.
    #[arg(long, value_parser = parse_duration, default_value = "20s")]
    pub settle: Duration,
    /// How the hub is ended before its restart.
    #[arg(long, value_enum, default_value = "kill")]
    pub ending: Ending,
    /// Give up waiting for the fleet (first connection, or return after the restart) after this.
    #[arg(long, value_parser = parse_duration, default_value = "180s")]
    pub timeout: Duration,
    /// Core of the hub.
    #[arg(long, default_value_t = 0)]
    pub hub_cpu: usize,
    /// Core of this generator.
    #[arg(long, default_value_t = 1)]
    pub generator_cpu: usize,
    /// Do not pin.
    #[arg(long)]
    pub no_pin: bool,
    /// Write the report as JSON here.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Keep the hub's temporary data directory.
    #[arg(long)]
    pub keep_data: bool,
}

impl StormArgs {
    /// Whether this storm pins (the two cores named exist and differ).
    pub fn pins(&self) -> bool {
        let online = pinning::online_cpus();
        !self.no_pin && self.hub_cpu != self.generator_cpu && online.contains(&self.hub_cpu) && online.contains(&self.generator_cpu)
    }
}

/// When a share of the fleet was connected, seconds from the moment measured from.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Milestone {
    pub share: f64,
    pub mats: usize,
    pub secs: Option<f64>,
}

/// The storm's figures.
#[derive(Debug, Clone, Serialize)]
pub struct StormReport {
    pub command_line: Vec<String>,
    pub mats: usize,
    pub rate_hz: f64,
    pub device_type: String,
    pub ending: Ending,
    pub ramp_secs: f64,
    pub settle_secs: f64,
    pub pinning: PinningReport,
    /// From the first mat's start to the hub counting them all (the ramp included).
    pub first_connection: Vec<Milestone>,
    /// The hub's resident memory before any mat connected, MiB.
    pub hub_rss_before_mats_mib: f64,
    /// The hub's resident memory after `settle` with every mat connected and streaming, MiB.
    pub hub_rss_with_mats_mib: f64,
    /// (with − before) ÷ mats, KiB: what one connected, streaming mat costs the hub.
    pub rss_per_mat_kib: f64,
    /// The hub's CPU over the settle window, percent of one core.
    pub hub_cpu_percent_settled: f64,
    /// From the end of the old process to the new one printing where it listens.
    pub restart_serving_secs: f64,
    /// From the end of the old process to the new one counting a share of the fleet.
    pub reconnection: Vec<Milestone>,
    pub warnings: Vec<String>,
}

impl StormReport {
    /// A human summary.
    pub fn table(&self) -> String {
        let milestones = |list: &[Milestone]| {
            list.iter()
                .map(|m| format!("{:.0} % ({}) {}", m.share * 100.0, m.mats, m.secs.map_or("never".to_owned(), |s| format!("{s:.1} s"))))
                .collect::<Vec<_>>()
                .join(" · ")
        };
        let mut out = format!(
            "storm: {} × {} at {} Hz, hub ended by {:?}\n\
             first connection: {}\n\
             hub RSS {:.1} MiB before mats, {:.1} MiB with them: {:.1} KiB per connected mat; hub CPU {:.0} %\n\
             restart: serving after {:.1} s; mats back: {}\n",
            self.mats,
            self.device_type,
            self.rate_hz,
            self.ending,
            milestones(&self.first_connection),
            self.hub_rss_before_mats_mib,
            self.hub_rss_with_mats_mib,
            self.rss_per_mat_kib,
            self.hub_cpu_percent_settled,
            self.restart_serving_secs,
            milestones(&self.reconnection),
        );
        for warning in &self.warnings {
            out.push_str(&format!("warning: {warning}\n"));
        }
        out
    }
}

/// Counts mats as a gauge rises: records the first time each milestone share is reached.
#[derive(Debug, Clone)]
pub struct MilestoneClock {
    milestones: Vec<Milestone>,
}

impl MilestoneClock {
    /// The milestones of a fleet of `mats`.
    pub fn new(mats: usize) -> Self {
        let milestones = MILESTONES
            .iter()
            .map(|&share| Milestone { share, mats: ((mats as f64 * share).ceil() as usize).clamp(1, mats.max(1)), secs: None })
            .collect();
        Self { milestones }
    }

    /// Records that `connected` mats were counted `secs` after the start.
    pub fn observe(&mut self, connected: usize, secs: f64) {
        for m in &mut self.milestones {
            if m.secs.is_none() && connected >= m.mats {
                m.secs = Some(secs);
            }
        }
    }

    /// Whether the whole fleet was counted.
    pub fn complete(&self) -> bool {
        self.milestones.iter().all(|m| m.secs.is_some())
    }

    pub fn into_milestones(self) -> Vec<Milestone> {
        self.milestones
    }
}

async fn hub_connected(base: &BaseUrl) -> Option<usize> {
    hub_run::scrape(base).await.and_then(|m| m.get("hub_devices_connected").copied()).map(|v| v as usize)
}

/// Polls the hub's gauge from `since` until every mat is counted or `timeout` passes.
async fn time_fleet(base: &BaseUrl, mats: usize, since: Instant, timeout: Duration) -> Vec<Milestone> {
    let mut clock = MilestoneClock::new(mats);
    while since.elapsed() < timeout {
        if let Some(connected) = hub_connected(base).await {
            clock.observe(connected, since.elapsed().as_secs_f64());
            if clock.complete() {
                break;
            }
        }
        tokio::time::sleep(POLL).await;
    }
    clock.into_milestones()
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1_024.0
}

/// Runs the storm and prints (and writes) its report.
pub async fn run(args: StormArgs) -> Result<()> {
    if args.mats == 0 {
        bail!("--mats must be at least 1");
    }
    if args.rate.is_nan() || args.rate <= 0.0 {
        bail!("--rate must be above 0");
    }
    let command_line: Vec<String> = std::env::args().collect();
    let mut spawned = hub::spawn(&args.hub_bin, args.pins().then_some(args.hub_cpu), args.mats, &args.device_type, args.keep_data).await?;
    if args.keep_data {
        eprintln!("hub data directory: {}", spawned.data_dir.display());
    }
    let outcome = storm(&args, &mut spawned, command_line).await;
    spawned.stop().await.context("stopping the hub")?;
    let report = outcome?;
    println!("{}", report.table());
    if let Some(path) = &args.json {
        std::fs::write(path, serde_json::to_string_pretty(&report)?).with_context(|| format!("writing {}", path.display()))?;
        println!("report written to {}", path.display());
    }
    Ok(())
}

async fn storm(args: &StormArgs, spawned: &mut hub::SpawnedHub, command_line: Vec<String>) -> Result<StormReport> {
    let base = BaseUrl::parse(&spawned.listening.http)?;
    let provisioned = load_devices(&spawned.devices_file)?;
    let specs: Vec<DeviceSpec> = provisioned.iter().take(args.mats).map(|d| d.to_spec()).collect::<Result<_, _>>()?;
    let first = specs.first().context("no provisioned mats")?;
    let plans: Vec<MatPlan> = specs.iter().map(MatPlan::of).collect();
    let trust = Trust::PemFile(spawned.listening.cert.clone());
    let client = QuicClient::for_server(&trust, spawned.listening.quic).context("setting up the QUIC endpoint")?;
    let connector = Connector::Quic { client, addr: spawned.listening.quic };
    let interval = Duration::from_secs_f64(1.0 / args.rate);
    let stats = Arc::new(SimStats::default());
    let fleet = Arc::new(Fleet {
        pool: Arc::new(hub_run::pool_for(first, args.rate, Framing::LengthPrefixed, mat_protocol::FrameEncoding::default())),
        interval,
        stats: stats.clone(),
        schedule: Arc::new(GeneratorStats::new(Duration::from_millis(10))),
        anchor_unix_us: crate::latency::unix_us(),
        anchor: Instant::now(),
    });
    let pinning = PinningReport::of(pinning::allowed_cpus(spawned.pid).ok(), pinning::allowed_cpus(std::process::id()).unwrap_or_default());
    let mut warnings = Vec::new();
    if !pinning.separated {
        warnings.push("the hub and the generator share CPUs: the timings include the generator's own work".to_owned());
    }

    tokio::time::sleep(Duration::from_secs(1)).await;
    let before = procstat::sample(spawned.pid)?;
    // No viewer reads the send logs: one ring shared by every mat.
    let log = Arc::new(SendLog::default());
    let (phase_tx, phase) = watch::channel(Phase::Send);
    let mut mats = JoinSet::new();
    let stagger = args.ramp / args.mats as u32;
    let started = Instant::now();
    for (i, plan) in plans.into_iter().enumerate() {
        let (connector, fleet, log, phase) = (connector.clone(), fleet.clone(), log.clone(), phase.clone());
        let delay = stagger * i as u32;
        mats.spawn(async move {
            tokio::time::sleep(delay).await;
            run_mat(i, plan, connector, fleet, log, phase).await
        });
    }
    let first_connection = time_fleet(&base, args.mats, started, args.ramp + args.timeout).await;
    if first_connection.last().is_some_and(|m| m.secs.is_none()) {
        warnings.push(format!("not every mat connected within {} s of the ramp's end", args.timeout.as_secs()));
    }

    let settle_start = procstat::sample(spawned.pid)?;
    tokio::time::sleep(args.settle).await;
    let settled = procstat::sample(spawned.pid)?;
    let cpu_percent =
        settled.ticks.saturating_sub(settle_start.ticks) as f64 / procstat::clock_ticks_per_second() as f64 / args.settle.as_secs_f64()
            * 100.0;

    let ended = Instant::now();
    spawned.restart(args.ending).await?;
    let restart_serving = ended.elapsed();
    let reconnection = time_fleet(&base, args.mats, ended, args.timeout).await;
    if reconnection.last().is_some_and(|m| m.secs.is_none()) {
        warnings.push(format!("not every mat was back within {} s of the restart", args.timeout.as_secs()));
    }

    let _ = phase_tx.send(Phase::Stop);
    let failures = crate::collect_failures(&mut mats).await;
    if !failures.is_empty() {
        warnings.push(format!("{} mats stopped with an error, first: {}", failures.len(), failures[0]));
    }
    Ok(StormReport {
        command_line,
        mats: args.mats,
        rate_hz: args.rate,
        device_type: args.device_type.clone(),
        ending: args.ending,
        ramp_secs: args.ramp.as_secs_f64(),
        settle_secs: args.settle.as_secs_f64(),
        pinning,
        first_connection,
        hub_rss_before_mats_mib: mib(before.rss_kib),
        hub_rss_with_mats_mib: mib(settled.rss_kib),
        rss_per_mat_kib: settled.rss_kib.saturating_sub(before.rss_kib) as f64 / args.mats as f64,
        hub_cpu_percent_settled: cpu_percent,
        restart_serving_secs: restart_serving.as_secs_f64(),
        reconnection,
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn milestones_are_the_first_time_each_share_is_reached() {
        let mut clock = MilestoneClock::new(200);
        assert_eq!(clock.milestones.iter().map(|m| m.mats).collect::<Vec<_>>(), vec![100, 180, 198, 200]);
        clock.observe(99, 1.0);
        assert!(clock.milestones.iter().all(|m| m.secs.is_none()));
        clock.observe(185, 2.0);
        clock.observe(120, 2.5); // a dip does not undo a milestone
        clock.observe(200, 3.0);
        assert!(clock.complete());
        let secs: Vec<Option<f64>> = clock.into_milestones().iter().map(|m| m.secs).collect();
        assert_eq!(secs, vec![Some(2.0), Some(2.0), Some(3.0), Some(3.0)]);
    }

    #[test]
    fn a_tiny_fleet_still_needs_every_mat_for_the_last_milestone() {
        let clock = MilestoneClock::new(3);
        assert_eq!(clock.milestones.iter().map(|m| m.mats).collect::<Vec<_>>(), vec![2, 3, 3, 3]);
    }
}
