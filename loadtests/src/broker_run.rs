//! One baseline run: Mosquitto relaying the same pre-rendered frames, on the same schedule, from
//! one publisher per mat to one subscriber per viewer (each on the mats a hub viewer would watch).
//! The broker only relays; the hub also decodes, checks presence and posture, runs the alarm
//! clocks and conflates per viewer.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use simulator::{DeviceSpec, SimStats};
use tokio::sync::watch;
use tokio::task::JoinSet;

use crate::RunArgs;
use crate::frames::Framing;
use crate::generator::{Fleet, Phase};
use crate::hub_run::{DRAIN, devices_report, hub_report, pool_for};
use crate::latency::{SendLog, Summary};
use crate::mosquitto;
use crate::mqtt::{BrokerAddress, Totals, run_publisher, run_subscriber};
use crate::pinning::{self, PinningReport};
use crate::report::{Parameters, Report};
use crate::schedule::GeneratorStats;
use crate::viewer::{self, ViewerCounters, ViewerHistograms, ViewerShared};
use crate::window;

/// How long subscribers may take to be subscribed.
const SUBSCRIBE_TIMEOUT: Duration = Duration::from_secs(20);

pub async fn drive(args: &RunArgs, tls: bool, generator_cpus: Vec<usize>, command_line: Vec<String>) -> Result<Report> {
    let broker = mosquitto::start(&args.mosquitto_bin, args.target_cpu(), tls).await?;
    let pinning = PinningReport::of(pinning::allowed_cpus(broker.pid).ok(), generator_cpus);
    let outcome = relay(args, tls, &broker, pinning, command_line).await;
    broker.stop().await?;
    outcome
}

async fn relay(args: &RunArgs, tls: bool, broker: &mosquitto::Broker, pinning: PinningReport, command_line: Vec<String>) -> Result<Report> {
    let mut spec = DeviceSpec::new("BASELINE", "-", &args.device_type).context("--device-type")?;
    if let Some(rows) = args.rows {
        spec.rows = rows;
    }
    if let Some(cols) = args.cols {
        spec.cols = cols;
    }
    let pool = Arc::new(pool_for(&spec, args.rate, Framing::Bare, args.frame_encoding.into()));
    let address = BrokerAddress { addr: broker.addr, ca_pem: broker.ca_pem.clone() };
    let logs: Vec<Arc<SendLog>> = (0..args.mats).map(|_| Arc::new(SendLog::default())).collect();
    let totals = Arc::new(Totals::new(args.mats));
    let shared = Arc::new(ViewerShared {
        counters: ViewerCounters::default(),
        measuring: AtomicBool::new(false),
        logs: logs.clone(),
        index: Arc::default(),
    });
    let per_viewer = args.per_viewer();

    // Subscribers first, so that every frame published has its subscribers.
    let (stop, shutdown) = watch::channel(false);
    let mut subscribers = JoinSet::new();
    let mut histograms = Vec::new();
    let mut subscribers_of = vec![0u64; args.mats];
    for v in 0..args.viewers {
        let mats = viewer::assignment(v, per_viewer, args.mats);
        for &m in &mats {
            subscribers_of[m] += 1;
        }
        let h = Arc::new(Mutex::new(ViewerHistograms::default()));
        histograms.push(h.clone());
        subscribers.spawn(run_subscriber(v, mats, address.clone(), pool.clone(), shared.clone(), totals.clone(), h, shutdown.clone()));
    }
    let deadline = tokio::time::Instant::now() + SUBSCRIBE_TIMEOUT;
    while (shared.counters.ready.load(Ordering::Relaxed) as usize) < args.viewers && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut warnings = Vec::new();
    let ready = shared.counters.ready.load(Ordering::Relaxed) as usize;
    if ready < args.viewers {
        warnings.push(format!("only {ready} of {} subscribers were subscribed before publishing", args.viewers));
    }

    let stats = Arc::new(SimStats::default());
    let schedule = Arc::new(GeneratorStats::new(args.late_threshold));
    let fleet = Arc::new(Fleet {
        pool: pool.clone(),
        interval: Duration::from_secs_f64(1.0 / args.rate),
        stats: stats.clone(),
        schedule: schedule.clone(),
        anchor_unix_us: crate::latency::unix_us(),
        anchor: tokio::time::Instant::now(),
    });
    let (phase_tx, phase) = watch::channel(Phase::Send);
    let mut publishers = JoinSet::new();
    let stagger = args.ramp / args.mats as u32;
    for (i, log) in logs.iter().enumerate() {
        let (fleet, totals, log, phase, address) = (fleet.clone(), totals.clone(), log.clone(), phase.clone(), address.clone());
        let delay = stagger * i as u32;
        publishers.spawn(async move {
            tokio::time::sleep(delay).await;
            run_publisher(i, address, fleet, totals, log, phase).await
        });
    }
    crate::warm_up(args, &stats, &shared.counters).await;
    let warm = stats.snapshot();
    if warm.connected == 0 {
        let _ = phase_tx.send(Phase::Stop);
        let _ = stop.send(true);
        bail!("no publisher could connect to mosquitto at {}", broker.addr);
    }
    if (warm.connected as usize) < args.mats {
        warnings.push(format!("only {} of {} publishers connected after the warm-up", warm.connected, args.mats));
    }

    let observed =
        window::measure(args.duration, args.quiet, Some(broker.pid), &stats, &shared, &histograms, &schedule, pinning.generator_cpus.len())
            .await;
    let _ = phase_tx.send(Phase::Drain);
    tokio::time::sleep(DRAIN).await;
    let expected: u64 = totals.published.iter().zip(&subscribers_of).map(|(p, &s)| p.load(Ordering::Relaxed) * s).sum();
    let received = totals.received.load(Ordering::Relaxed);
    let _ = phase_tx.send(Phase::Stop);
    let _ = stop.send(true);
    let failures = crate::collect_failures(&mut publishers).await;
    let drain = async { while subscribers.join_next().await.is_some() {} };
    if tokio::time::timeout(Duration::from_secs(5), drain).await.is_err() {
        subscribers.abort_all();
    }
    let mut merged = ViewerHistograms::default();
    for h in &histograms {
        if let Ok(h) = h.lock() {
            merged.merge(&h);
        }
    }
    let viewers_report = crate::viewers_report(args.viewers, &shared.counters, observed.window_secs);
    if args.viewers > 0 && viewers_report.maps_delivered == 0 {
        warnings.push("subscribers received no frames during the window".to_owned());
    }
    let latencies_are_target_figures = !observed.generator.saturated;
    let name = if tls { "mosquitto-tls" } else { "mosquitto" };
    Ok(Report {
        command_line,
        parameters: Parameters {
            target: name.to_owned(),
            mode: "spawn".to_owned(),
            hub_url: format!("{}://{}", if tls { "mqtts" } else { "mqtt" }, broker.addr),
            transport: if tls { "mqtt+tls" } else { "mqtt" }.to_owned(),
            mats: args.mats,
            rate_hz: args.rate,
            rows: spec.rows,
            cols: spec.cols,
            device_type: spec.device_type.clone(),
            viewers: args.viewers,
            devices_per_viewer: if args.viewers > 0 { per_viewer } else { 0 },
            warmup_secs: args.warmup.as_secs_f64(),
            duration_secs: args.duration.as_secs_f64(),
            ramp_secs: args.ramp.as_secs_f64(),
        },
        window_start_unix_ms: observed.window_start_unix_ms,
        window_secs: observed.window_secs,
        devices: devices_report(&observed, &failures),
        hub: hub_report(Some(broker.pid), None, None, &observed),
        viewers: viewers_report,
        latency_us: Summary::of(&merged.end_to_end_us),
        hub_to_browser_us: Summary::default(),
        device_to_hub_us: Summary::default(),
        frames_lost: Some(expected.saturating_sub(received)),
        pinning,
        generator: observed.generator,
        latencies_are_target_figures,
        cluster: None,
        warnings,
    })
}
