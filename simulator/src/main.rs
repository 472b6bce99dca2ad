//! `simulator`: runs one or many simulated mats against a hub, with a live status line.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};
use mat_protocol::FrameEncoding;
use simulator::cli::parse_duration;
use simulator::{
    DeviceSpec, QuicClient, Rate, RunOptions, Scenario, SimError, SimStats, Transport, Trust, load_devices, preset, run_device_with,
};
use tokio::task::JoinSet;

/// Simulated pressure mats for the hub: QUIC or WebSocket, one device or a provisioned fleet.
#[derive(Debug, Parser)]
#[command(name = "simulator", version, about)]
struct Args {
    /// The hub's QUIC address (HOST:PORT).
    #[arg(long, env = "SIM_HUB_QUIC", conflicts_with = "hub_ws", required_unless_present = "hub_ws")]
    hub_quic: Option<String>,
    /// PEM certificate to trust for QUIC (the hub writes it to <data>/tls/cert.pem).
    #[arg(long, env = "SIM_CA", requires = "hub_quic", conflicts_with = "insecure")]
    ca: Option<PathBuf>,
    /// Accept any QUIC server certificate (testing only).
    #[arg(long, requires = "hub_quic")]
    insecure: bool,
    /// TLS server name for QUIC.
    #[arg(long, default_value = "localhost")]
    server_name: String,
    /// The hub's WebSocket ingest URL (ws://HOST:PORT/ingest).
    #[arg(long, env = "SIM_HUB_WS")]
    hub_ws: Option<String>,
    /// JSON array of provisioned devices ([{serial, secret, deviceType, rows, cols, deviceId}],
    /// as written by `hub provision`).
    #[arg(long, conflicts_with_all = ["serial", "secret"], required_unless_present = "serial")]
    devices: Option<PathBuf>,
    /// Use only the first N devices of the file.
    #[arg(long, requires = "devices")]
    limit: Option<usize>,
    /// Serial of a single device.
    #[arg(long, env = "SIM_SERIAL", requires = "secret")]
    serial: Option<String>,
    /// Secret of the single device.
    #[arg(long, env = "SIM_SECRET")]
    secret: Option<String>,
    /// Device type of the single device (spec §3 names).
    #[arg(long, default_value = "Mattress Mat IoT")]
    device_type: String,
    /// Override the rows of every device.
    #[arg(long)]
    rows: Option<u16>,
    /// Override the columns of every device.
    #[arg(long)]
    cols: Option<u16>,
    /// Override the scenario: bed, seated, feet, force or empty.
    #[arg(long, value_parser = parse_scenario)]
    scenario: Option<Scenario>,
    /// Send at this fixed rate (Hz), ignoring stream commands. Default: follow the hub's stream
    /// commands, at --monitor-hz normally and --live-hz while streaming.
    #[arg(long)]
    rate: Option<f64>,
    /// Frames per second while monitoring (follow mode; default per type: 1, force channels 2).
    #[arg(long)]
    monitor_hz: Option<f64>,
    /// Frames per second while streaming live (follow mode; default 10).
    #[arg(long)]
    live_hz: Option<f64>,
    /// Stop after this long (500ms, 30s, 5m); default: until Ctrl-C.
    #[arg(long, value_parser = parse_duration)]
    duration: Option<Duration>,
    /// Spread device start-up over this long (avoids a connection storm with many devices).
    #[arg(long, value_parser = parse_duration, default_value = "0s")]
    ramp: Duration,
    /// Start every scenario at the beginning of its cycle instead of spreading them.
    #[arg(long)]
    sync_start: bool,
    /// Mean idle level added to every cell, in the device's steps (other makes of mat idle a few
    /// steps above zero; each cell gets 0.6–1.4 times it). 0: none.
    #[arg(long, default_value_t = 0.0)]
    idle_level: f32,
    /// No status line (for logs and CI).
    #[arg(long)]
    quiet: bool,
    /// How frames carry their cells: `runs` (zero runs, protocol version 2) or `dense` (every
    /// cell, version 1, as older devices send them).
    #[arg(long, default_value = "runs", value_parser = parse_encoding)]
    frame_encoding: FrameEncoding,
}

fn parse_scenario(name: &str) -> Result<Scenario, String> {
    Scenario::from_name(name).ok_or_else(|| format!("unknown scenario {name:?}; one of {}", Scenario::NAMES.join(", ")))
}

fn specs(args: &Args) -> Result<Vec<DeviceSpec>> {
    let mut specs = if let Some(path) = &args.devices {
        let devices = load_devices(path)?;
        let take = args.limit.unwrap_or(devices.len());
        devices.iter().take(take).map(|d| d.to_spec()).collect::<Result<Vec<_>, SimError>>()?
    } else {
        let (Some(serial), Some(secret)) = (&args.serial, &args.secret) else {
            bail!("give --devices FILE, or --serial and --secret");
        };
        if preset(&args.device_type).is_none() {
            bail!("unknown device type {:?}; one of: {}", args.device_type, simulator::DEVICE_TYPES.join(", "));
        }
        vec![DeviceSpec::new(serial.clone(), secret.clone(), &args.device_type)?]
    };
    if specs.is_empty() {
        bail!("no devices to simulate");
    }
    for spec in &mut specs {
        if let Some(rows) = args.rows {
            spec.rows = rows;
        }
        if let Some(cols) = args.cols {
            spec.cols = cols;
        }
        if let Some(scenario) = &args.scenario {
            spec.scenario = scenario.clone();
        }
        spec.rate = match (args.rate, spec.rate) {
            (Some(hz), _) => Rate::Fixed { hz },
            (None, Rate::Follow { monitor_hz, live_hz }) => {
                Rate::Follow { monitor_hz: args.monitor_hz.unwrap_or(monitor_hz), live_hz: args.live_hz.unwrap_or(live_hz) }
            }
            (None, Rate::Fixed { hz }) => Rate::Follow { monitor_hz: args.monitor_hz.unwrap_or(hz), live_hz: args.live_hz.unwrap_or(10.0) },
        };
        if args.sync_start {
            spec.time_offset = Duration::ZERO;
        }
        spec.idle_level_steps = args.idle_level;
    }
    Ok(specs)
}

async fn transport(args: &Args) -> Result<Transport> {
    if let Some(url) = &args.hub_ws {
        return Ok(Transport::WebSocket { url: url.clone() });
    }
    let Some(target) = &args.hub_quic else { bail!("give --hub-quic ADDR or --hub-ws URL") };
    let addr: SocketAddr = tokio::net::lookup_host(target)
        .await
        .with_context(|| format!("resolving {target}"))?
        .next()
        .with_context(|| format!("{target} resolves to no address"))?;
    let trust = match (&args.ca, args.insecure) {
        (Some(pem), _) => Trust::PemFile(pem.clone()),
        (None, true) => Trust::InsecureSkipVerify,
        (None, false) => bail!("QUIC needs --ca PEM (the hub's <data>/tls/cert.pem) or --insecure"),
    };
    let client = QuicClient::for_server(&trust, addr).context("setting up QUIC")?;
    Ok(Transport::QuicShared { client, addr, server_name: args.server_name.clone() })
}

#[tokio::main]
async fn main() {
    match run(Args::parse()).await {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("simulator: {e:#}");
            std::process::exit(1);
        }
    }
}

/// Runs the fleet; returns the process exit code (0 fine, 2 some device refused).
async fn run(args: Args) -> Result<i32> {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn,simulator::device=error".into()))
        .with_writer(std::io::stderr)
        .init();
    let specs = specs(&args)?;
    let transport = transport(&args).await?;
    let total = specs.len();
    let stats = Arc::new(SimStats::default());
    let (stop, shutdown) = tokio::sync::watch::channel(false);

    let mut devices = JoinSet::new();
    let stagger = if total > 1 { args.ramp / total as u32 } else { Duration::ZERO };
    for (i, spec) in specs.into_iter().enumerate() {
        let serial = spec.serial.clone();
        let (transport, stats, shutdown) = (transport.clone(), stats.clone(), shutdown.clone());
        let delay = stagger * i as u32;
        let options = RunOptions { encoding: args.frame_encoding, ..RunOptions::default() };
        devices.spawn(async move {
            tokio::time::sleep(delay).await;
            (serial, run_device_with(spec, transport, stats, shutdown, options).await)
        });
    }

    let bar = if args.quiet { ProgressBar::hidden() } else { ProgressBar::new_spinner() };
    bar.set_style(ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}").unwrap_or_else(|_| ProgressStyle::default_spinner()));
    bar.enable_steady_tick(Duration::from_millis(200));

    let deadline = args.duration.map(|d| tokio::time::Instant::now() + d);
    let mut ticker = tokio::time::interval(Duration::from_millis(500));
    let mut last = (tokio::time::Instant::now(), 0u64);
    let mut refused = Vec::new();
    let ctrl_c = tokio::signal::ctrl_c();
    tokio::pin!(ctrl_c);
    loop {
        tokio::select! {
            _ = &mut ctrl_c => break,
            () = async { if let Some(d) = deadline { tokio::time::sleep_until(d).await } else { std::future::pending().await } } => break,
            done = devices.join_next() => match done {
                None => break,
                Some(Ok((_, Ok(())))) => {}
                Some(Ok((serial, Err(e)))) => {
                    bar.println(format!("device {serial}: {e}"));
                    refused.push((serial, e));
                }
                Some(Err(e)) => bar.println(format!("a device task failed: {e}")),
            },
            _ = ticker.tick() => {
                let s = stats.snapshot();
                let now = tokio::time::Instant::now();
                let fps = (s.frames_sent - last.1) as f64 / now.duration_since(last.0).as_secs_f64().max(1e-3);
                last = (now, s.frames_sent);
                bar.set_message(format!(
                    "connected {}/{total} · frames {} · {fps:.1} frames/s · refusals {} · errors {} · commands {}",
                    s.connected, s.frames_sent, s.refusals, s.errors, s.commands
                ));
            }
        }
    }
    let _ = stop.send(true);
    let drain = async {
        while let Some(done) = devices.join_next().await {
            if let Ok((serial, Err(e))) = done {
                refused.push((serial, e));
            }
        }
    };
    if tokio::time::timeout(Duration::from_secs(5), drain).await.is_err() {
        devices.abort_all();
    }
    bar.finish_and_clear();
    let s = stats.snapshot();
    println!(
        "devices {total} · frames sent {} · connects {} · refusals {} · errors {} · commands {} · acks {}",
        s.frames_sent, s.connects, s.refusals, s.errors, s.commands, s.acks
    );
    if refused.is_empty() {
        return Ok(0);
    }
    for (serial, e) in &refused {
        eprintln!("simulator: device {serial} stopped: {e}");
    }
    eprintln!("simulator: {} of {total} devices stopped by the hub or by a setup error", refused.len());
    Ok(2)
}

fn parse_encoding(name: &str) -> Result<FrameEncoding, String> {
    FrameEncoding::from_name(name).ok_or_else(|| format!("unknown frame encoding {name:?}: dense or runs"))
}
