//! One load run against the hub: pre-rendered mats over QUIC or WebSocket ingest, viewer sockets,
//! a measuring window, then a drain so every frame in flight can land before the loss count.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use mat_protocol::FrameEncoding;
use simulator::{DeviceSpec, QuicClient, Scenario, SimStats, load_devices};
use tokio::sync::watch;
use tokio::task::JoinSet;

use crate::frames::{FramePool, Framing};
use crate::generator::{Connector, Fleet, MatPlan, Phase, run_mat};
use crate::http::{self, BaseUrl};
use crate::latency::{SendLog, Summary};
use crate::pinning::PinningReport;
use crate::report::{DevicesReport, HubReport, Parameters, Report};
use crate::schedule::GeneratorStats;
use crate::viewer::{self, ViewerCounters, ViewerHistograms, ViewerShared};
use crate::window::{self, Observed};
use crate::{RunArgs, Target, TransportKind, cluster_report, prom};

/// How long the mats stay connected but quiet after the window, for frames in flight to land.
pub const DRAIN: Duration = Duration::from_secs(2);

pub async fn scrape(base: &BaseUrl) -> Option<prom::Metrics> {
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

/// The mats' frame pool: one geometry per run (the first mat's).
pub fn pool_for(spec: &DeviceSpec, rate_hz: f64, framing: Framing, encoding: FrameEncoding) -> FramePool {
    let scenario =
        simulator::preset(&spec.device_type).map(|p| p.scenario).unwrap_or_else(|| Scenario::from_name("bed").unwrap_or(Scenario::Empty));
    FramePool::render(
        &spec.device_type,
        spec.rows,
        spec.cols,
        spec.cell_format,
        scenario,
        Duration::from_secs_f64(1.0 / rate_hz),
        framing,
        encoding,
    )
}

pub async fn drive(args: &RunArgs, target: &Target, pinning: PinningReport, command_line: Vec<String>) -> Result<Report> {
    let provisioned = load_devices(&target.devices_file)?;
    if provisioned.len() < args.mats {
        bail!("{} lists {} devices, fewer than --mats {}", target.devices_file.display(), provisioned.len(), args.mats);
    }
    let provisioned = &provisioned[..args.mats];
    let mut plans = Vec::with_capacity(args.mats);
    let mut first_spec = None;
    for device in provisioned {
        let mut spec: DeviceSpec = device.to_spec()?;
        if let Some(rows) = args.rows {
            spec.rows = rows;
        }
        if let Some(cols) = args.cols {
            spec.cols = cols;
        }
        plans.push(MatPlan::of(&spec));
        first_spec.get_or_insert(spec);
    }
    let first = first_spec.context("no mats")?;
    if plans
        .iter()
        .any(|p| (p.rows, p.cols, p.cell_format, &p.device_type) != (first.rows, first.cols, first.cell_format, &first.device_type))
    {
        bail!("the mats of one run must share a device type and geometry (one frame pool)");
    }
    let mut index = HashMap::new();
    for (i, device) in provisioned.iter().enumerate() {
        match &device.device_id {
            Some(id) => {
                index.insert(id.clone(), i);
            }
            None if args.viewers > 0 => {
                bail!("{}: device {} has no deviceId to subscribe to", target.devices_file.display(), device.serial)
            }
            None => {}
        }
    }
    let device_ids: Vec<String> = provisioned.iter().map(|d| d.device_id.clone().unwrap_or_default()).collect();
    let per_viewer = args.per_viewer();

    let (connector, framing) = match (args.transport, &target.quic) {
        (TransportKind::Quic, Some((addr, trust))) => {
            let client = QuicClient::for_server(trust, *addr).context("setting up the QUIC endpoint")?;
            (Connector::Quic { client, addr: *addr }, Framing::LengthPrefixed)
        }
        (TransportKind::Quic, None) => bail!("no QUIC address for the hub"),
        (TransportKind::Ws, _) => (Connector::Ws { url: target.base.ws("/ingest") }, Framing::Bare),
    };
    let pool = Arc::new(pool_for(&first, args.rate, framing, args.frame_encoding.into()));

    let logs: Vec<Arc<SendLog>> = (0..args.mats).map(|_| Arc::new(SendLog::default())).collect();
    let stats = Arc::new(SimStats::default());
    let schedule = Arc::new(GeneratorStats::new(args.late_threshold));
    let fleet = Arc::new(Fleet {
        pool,
        interval: Duration::from_secs_f64(1.0 / args.rate),
        stats: stats.clone(),
        schedule: schedule.clone(),
        anchor_unix_us: crate::latency::unix_us(),
        anchor: tokio::time::Instant::now(),
    });
    let metrics_start = scrape(&target.base).await;
    let (phase_tx, phase) = watch::channel(Phase::Send);
    let (stop, shutdown) = watch::channel(false);
    let mut mats = JoinSet::new();
    let stagger = args.ramp / args.mats as u32;
    for (i, plan) in plans.into_iter().enumerate() {
        let (connector, fleet, log, phase) = (connector.clone(), fleet.clone(), logs[i].clone(), phase.clone());
        let delay = stagger * i as u32;
        mats.spawn(async move {
            tokio::time::sleep(delay).await;
            run_mat(i, plan, connector, fleet, log, phase).await
        });
    }

    let shared =
        Arc::new(ViewerShared { counters: ViewerCounters::default(), measuring: AtomicBool::new(false), logs, index: Arc::new(index) });
    let mut viewers = JoinSet::new();
    let mut histograms = Vec::new();
    if args.viewers > 0 {
        let token = viewer::login(&target.viewers_base, &args.email, &args.password).await?;
        for v in 0..args.viewers {
            let ids: Vec<String> = viewer::assignment(v, per_viewer, args.mats).into_iter().map(|i| device_ids[i].clone()).collect();
            let h = Arc::new(Mutex::new(ViewerHistograms::default()));
            histograms.push(h.clone());
            viewers.spawn(viewer::run_viewer(target.viewers_base.ws("/ws"), token.clone(), ids, shared.clone(), h, shutdown.clone()));
        }
    }

    crate::warm_up(args, &stats, &shared.counters).await;
    let mut warnings = Vec::new();
    let warm = stats.snapshot();
    if warm.fatal as usize == args.mats {
        let _ = phase_tx.send(Phase::Stop);
        let _ = stop.send(true);
        let failures = crate::collect_failures(&mut mats).await;
        bail!("every mat was refused by the hub: {}", failures.first().cloned().unwrap_or_default());
    }
    if (warm.connected as usize) < args.mats {
        warnings.push(format!("only {} of {} mats connected after the warm-up", warm.connected, args.mats));
    }
    let ready = shared.counters.ready.load(std::sync::atomic::Ordering::Relaxed) as usize;
    if ready < args.viewers {
        warnings.push(format!("only {ready} of {} viewers were ready after the warm-up", args.viewers));
    }

    let metrics_before = scrape(&target.base).await;
    let cluster_before = match &target.cluster {
        Some(cluster) => Some(cluster.sample().await),
        None => None,
    };
    let observed =
        window::measure(args.duration, args.quiet, target.pid, &stats, &shared, &histograms, &schedule, pinning.generator_cpus.len()).await;
    let cluster_after = match &target.cluster {
        Some(cluster) => Some(cluster.sample().await),
        None => None,
    };
    let metrics_after = scrape(&target.base).await;
    let _ = phase_tx.send(Phase::Drain);
    tokio::time::sleep(DRAIN).await;
    let metrics_drained = scrape(&target.base).await;
    let sent_total = stats.snapshot().frames_sent;
    let _ = phase_tx.send(Phase::Stop);
    let _ = stop.send(true);
    let failures = crate::collect_failures(&mut mats).await;
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

    let frames_lost = match (&metrics_start, &metrics_drained) {
        (Some(start), Some(drained)) => {
            let received = prom::delta(start, drained, "hub_frames_received_total");
            let dropped = prom::delta(start, drained, "hub_frames_dropped_ingest_total").unwrap_or(0);
            received.map(|r| sent_total.saturating_sub(r) + dropped)
        }
        _ => None,
    };
    let mut merged = ViewerHistograms::default();
    for h in &histograms {
        if let Ok(h) = h.lock() {
            merged.merge(&h);
        }
    }
    if metrics_before.is_none() || metrics_after.is_none() {
        warnings.push(format!("GET {}/metrics failed: no hub counters", target.hub_url));
    }
    let viewers_report = crate::viewers_report(args.viewers, &shared.counters, observed.window_secs);
    if args.viewers > 0 && viewers_report.maps_delivered == 0 {
        warnings.push("viewers received no live maps during the window".to_owned());
    }
    if viewers_report.bad_maps > 0 {
        warnings.push(format!("{} maps had cells that do not match rows × cols × bytesPerCell", viewers_report.bad_maps));
    }
    let hub = hub_report(target.pid, metrics_before.as_ref(), metrics_after.as_ref(), &observed);
    let cluster = match (&target.cluster, cluster_before, cluster_after) {
        (Some(spawned), Some(before), Some(after)) => {
            let frames = observed.sim_after.frames_sent.saturating_sub(observed.sim_before.frames_sent);
            let clk = crate::procstat::clock_ticks_per_second();
            Some(cluster_report::between(&before, &after, frames, observed.window_secs, clk, spawned.viewers_on))
        }
        _ => None,
    };
    let latencies_are_target_figures = !observed.generator.saturated;
    Ok(Report {
        command_line,
        parameters: Parameters {
            target: if target.cluster.is_some() { "hub-cluster" } else { "hub" }.to_owned(),
            mode: target.mode.to_owned(),
            hub_url: target.hub_url.clone(),
            transport: match args.transport {
                TransportKind::Quic => "quic".to_owned(),
                TransportKind::Ws => "ws".to_owned(),
            },
            mats: args.mats,
            rate_hz: args.rate,
            rows: first.rows,
            cols: first.cols,
            device_type: first.device_type.clone(),
            viewers: args.viewers,
            devices_per_viewer: if args.viewers > 0 { per_viewer } else { 0 },
            warmup_secs: args.warmup.as_secs_f64(),
            duration_secs: args.duration.as_secs_f64(),
            ramp_secs: args.ramp.as_secs_f64(),
        },
        window_start_unix_ms: observed.window_start_unix_ms,
        window_secs: observed.window_secs,
        devices: devices_report(&observed, &failures),
        hub,
        viewers: viewers_report,
        latency_us: Summary::of(&merged.end_to_end_us),
        hub_to_browser_us: Summary::of(&merged.hub_to_browser_us),
        device_to_hub_us: Summary::of(&merged.device_to_hub_us),
        frames_lost,
        pinning,
        generator: observed.generator,
        latencies_are_target_figures,
        cluster,
        warnings,
    })
}

pub fn devices_report(observed: &Observed, failures: &[String]) -> DevicesReport {
    DevicesReport {
        stats: observed.sim_after.since(&observed.sim_before),
        frames_per_sec: observed.sim_after.frames_sent.saturating_sub(observed.sim_before.frames_sent) as f64 / observed.window_secs,
        failed: failures.len(),
        failures: failures.iter().take(5).cloned().collect(),
    }
}

/// The target process's figures over the window (counters from `/metrics` when given).
pub fn hub_report(pid: Option<u32>, before: Option<&prom::Metrics>, after: Option<&prom::Metrics>, observed: &Observed) -> HubReport {
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
    let frames = observed.sim_after.frames_sent.saturating_sub(observed.sim_before.frames_sent);
    let rss = &observed.target_rss_kib;
    let mib = |kib: u64| kib as f64 / 1_024.0;
    HubReport {
        pid,
        frames_received: get("hub_frames_received_total"),
        frames_processed: get("hub_frames_processed_total"),
        frames_delivered: get("hub_frames_delivered_total"),
        frames_conflated: get("hub_frames_conflated_total"),
        counters,
        gauges,
        cpu_percent_avg: observed.target_cpu_percent_avg,
        cpu_percent_max: observed.target_cpu_percent_max,
        cpu_us_per_frame: observed.target_cpu_seconds.filter(|_| frames > 0).map(|s| s * 1e6 / frames as f64),
        rss_mib_avg: (!rss.is_empty()).then(|| mib(rss.iter().sum::<u64>()) / rss.len() as f64),
        rss_mib_max: rss.iter().max().map(|&k| mib(k)),
    }
}
