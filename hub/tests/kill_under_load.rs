//! `kill -9` under load: the real hub binary on the embedded SurrealKV store of a temporary
//! directory, simulated mats streaming over QUIC through a bed cycle that raises Missing alarms,
//! a nurse listing and attending alarms, clients writing patients, analyses and repositioning
//! intervals through the API — and the hub killed with SIGKILL at random moments (seeded), then
//! started again on the same data and ports. After each restart:
//!
//! - every write the API acknowledged (2xx) is there, and deleted stays deleted;
//! - every alarm the hub showed is there, pending if nobody attended it, attended if someone did;
//! - a patient stored as Missing has its Missing alarm;
//! - the hub serves again, every mat reconnects, and a viewer receives maps from every mat.
//!
//! The small configuration runs in CI. Environment (all optional):
//!
//! | variable | default | meaning |
//! |---|---|---|
//! | `DURABILITY_MATS` | 20 | simulated mats |
//! | `DURABILITY_KILLS` | 3 | kills (and restarts) |
//! | `DURABILITY_RATE_HZ` | 5 | frames per second per mat |
//! | `DURABILITY_WRITERS` | 2 | concurrent API writers |
//! | `DURABILITY_UPTIME_MS` | 2000-8000 | uptime under full load before each kill, drawn from this range |
//! | `DURABILITY_SEED` | random | the seed of the kill moments and the clients' choices (printed) |
//! | `DURABILITY_HUB_BIN` | the test build's `hub` | another hub binary (a release build) |
//! | `DURABILITY_REPORT` | — | also write the figures as JSON to this file |
//!
//! Full configuration: `DURABILITY_MATS=200 DURABILITY_KILLS=20 cargo test -p hub --test
//! kill_under_load -- --nocapture`.
#![allow(clippy::unwrap_used)] // A test's helpers may unwrap: the panic is the failure it reports.

mod common;
#[path = "kill_under_load/ledger.rs"]
mod ledger;
#[path = "kill_under_load/load.rs"]
mod load;

use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

#[allow(unused_imports)] // `load` reads the HTTP client's response type from here.
use common::Response;
use common::process::{HUB_BIN, HubProcess, metric, parse_listening, provision};
use common::{Browser, field, try_request};
use load::{Mat, Shared, login_when_serving, nurse, verify, writer};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::json;
use simulator::synth::BedScript;
use simulator::{QuicClient, Rate, Scenario, SimStats, Transport, Trust, load_devices};

const SECOND: Duration = Duration::from_secs(1);
/// Absence after which a patient is Missing (the bed cycle's empty phase is longer).
const ABSENCE_DELAY_SECS: &str = "2";
/// How long the mats may take to come back after a restart: a restarted hub resets the old
/// connections at once, and a mat that missed the reset notices at its QUIC idle timeout
/// (`simulator::QUIC_IDLE_TIMEOUT`, 3 s) — the rest is the restart itself on a loaded machine.
const RECONNECT_LIMIT: Duration = Duration::from_secs(90);

/// The run's parameters.
#[derive(Debug, Clone, serde::Serialize)]
struct Params {
    mats: usize,
    kills: usize,
    rate_hz: f64,
    writers: usize,
    uptime_ms: (u64, u64),
    seed: u64,
    hub_bin: PathBuf,
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

impl Params {
    fn from_env() -> Params {
        let uptime = std::env::var("DURABILITY_UPTIME_MS").unwrap_or_else(|_| "2000-8000".into());
        let (low, high) = uptime.split_once('-').map(|(a, b)| (a.parse().unwrap(), b.parse().unwrap())).unwrap_or((2000, 8000));
        Params {
            mats: env_or("DURABILITY_MATS", 20),
            kills: env_or("DURABILITY_KILLS", 3),
            rate_hz: env_or("DURABILITY_RATE_HZ", 5.0),
            writers: env_or("DURABILITY_WRITERS", 2),
            uptime_ms: (low, high.max(low)),
            seed: env_or("DURABILITY_SEED", rand::random()),
            hub_bin: std::env::var_os("DURABILITY_HUB_BIN").map(PathBuf::from).unwrap_or_else(|| PathBuf::from(HUB_BIN)),
        }
    }
}

/// Copies the hub's data directory (store, certificates, `hub.stderr.log`) out of the temporary
/// directory a failed run would delete, so the store can be opened and the log read afterwards.
fn keep_evidence(data: &std::path::Path, seed: u64, kill: usize) -> std::path::PathBuf {
    let target = std::env::temp_dir().join(format!("kill-under-load-{seed}-kill{kill}"));
    let _ = std::fs::remove_dir_all(&target);
    let copied = std::process::Command::new("cp").arg("-a").arg(data).arg(&target).status();
    if !copied.is_ok_and(|status| status.success()) {
        eprintln!("could not copy {} to {}", data.display(), target.display());
    }
    target
}

/// Waits until the hub counts every mat connected; returns when.
async fn all_mats_connected(http: SocketAddr, mats: usize) -> Instant {
    let deadline = Instant::now() + RECONNECT_LIMIT;
    loop {
        if let Ok(response) = try_request(http, "GET", "/metrics", None, None).await
            && metric(&response.body, "hub_devices_connected").is_some_and(|n| n as usize >= mats)
        {
            return Instant::now();
        }
        assert!(Instant::now() < deadline, "not every mat reconnected within {RECONNECT_LIMIT:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A viewer joins every mat and waits for a map from each; returns when the last one came.
async fn maps_from_every_mat(shared: &Shared) -> Instant {
    let mut viewer = Browser::authenticated(shared.http, &shared.token()).await;
    for mat in &shared.mats {
        viewer.send("joinUser", json!({ "deviceId": mat.id })).await;
    }
    let mut waiting: BTreeSet<&str> = shared.mats.iter().map(|m| m.id.as_str()).collect();
    let deadline = tokio::time::Instant::now() + RECONNECT_LIMIT;
    while !waiting.is_empty() {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let map = viewer.wait_for("pressureMap_SAToFront", left).await;
        let map = map.unwrap_or_else(|| panic!("no maps from {} mats: {waiting:?}", waiting.len()));
        if let Some(device) = field(&map.data, "deviceId").as_str() {
            waiting.remove(device);
        }
    }
    Instant::now()
}

/// p50 and max of durations, in ms.
fn p50_max(samples: &[Duration]) -> (u128, u128) {
    let mut ms: Vec<u128> = samples.iter().map(Duration::as_millis).collect();
    ms.sort_unstable();
    (ms.get(ms.len().saturating_sub(1) / 2).copied().unwrap_or(0), ms.last().copied().unwrap_or(0))
}

#[derive(Debug, serde::Serialize)]
struct Figures {
    params: Params,
    counts: ledger::Counts,
    kills: usize,
    rest_ms_p50: u128,
    rest_ms_max: u128,
    mats_ms_p50: u128,
    mats_ms_max: u128,
    maps_ms_p50: u128,
    maps_ms_max: u128,
    frames_sent: u64,
    device_reconnects: u64,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn acknowledged_writes_and_alarms_survive_kill_9_under_load() {
    let params = Params::from_env();
    eprintln!(
        "kill_under_load: seed {} (DURABILITY_SEED={} reproduces the kill moments and choices), {params:?}",
        params.seed, params.seed
    );
    let mut rng = StdRng::seed_from_u64(params.seed);
    let data = tempfile::tempdir().unwrap();
    let devices_file = provision(&params.hub_bin, data.path(), params.mats);
    let extra = ["--absence-delay-secs", ABSENCE_DELAY_SECS];
    let mut hub = HubProcess::start(&params.hub_bin, data.path(), &extra);
    let http = hub.listening.http;
    let (token, user) = login_when_serving(http, RECONNECT_LIMIT).await;

    // The fleet: every mat runs a short bed cycle (empty longer than the absence delay, so each
    // cycle makes the patient Missing and raises an alarm unless one is pending), from a random
    // point of it.
    let script = BedScript {
        empty: 6 * SECOND,
        lie_down: SECOND,
        supine: 4 * SECOND,
        turn: SECOND,
        left_lateral: 2 * SECOND,
        right_lateral: 2 * SECOND,
        prone: 2 * SECOND,
        leave: SECOND,
    };
    let provisioned = load_devices(&devices_file).expect("the provisioned devices");
    let client = QuicClient::new(Trust::PemFile(hub.listening.cert.clone())).expect("a QUIC client");
    let (stop_devices, shutdown) = tokio::sync::watch::channel(false);
    let stats = Arc::new(SimStats::default());
    let mut mats = Vec::new();
    for device in &provisioned {
        let mut spec = device.to_spec().expect("a device spec");
        spec.scenario = Scenario::BedOccupant(script.clone());
        spec.rate = Rate::Fixed { hz: params.rate_hz };
        spec.time_offset = Duration::from_millis(rng.random_range(0..20_000));
        let transport = Transport::QuicShared { client: client.clone(), addr: hub.listening.quic, server_name: "localhost".into() };
        tokio::spawn(simulator::run_device(spec, transport, stats.clone(), shutdown.clone()));
        mats.push(Mat { id: device.device_id.clone().expect("a device id"), serial: device.serial.clone() });
    }
    let shared = Arc::new(Shared::new(http, Box::new(move |_| http), user, token, mats));
    all_mats_connected(http, params.mats).await;
    maps_from_every_mat(&shared).await;
    let mut tasks = Vec::new();
    for index in 0..params.writers {
        tasks.push(tokio::spawn(writer(shared.clone(), index, params.writers, rng.random())));
    }
    tasks.push(tokio::spawn(nurse(shared.clone(), rng.random())));

    let (mut rest, mut connected, mut maps) = (Vec::new(), Vec::new(), Vec::new());
    for kill in 1..=params.kills {
        let uptime = Duration::from_millis(rng.random_range(params.uptime_ms.0..=params.uptime_ms.1));
        tokio::time::sleep(uptime).await;
        hub.kill_9();
        let quiet = shared.gate.write().await;
        let began = hub.restart();
        // The mats come back while the store is checked: their return is timed alongside.
        let all_connected = tokio::spawn(all_mats_connected(http, params.mats));
        let (token, _) = login_when_serving(http, RECONNECT_LIMIT).await;
        rest.push(began.elapsed());
        *shared.token.write().unwrap() = token;
        let all_mapped = tokio::spawn({
            let shared = shared.clone();
            async move { maps_from_every_mat(&shared).await }
        });
        let mut wrong = verify(&shared).await;
        wrong.extend(shared.wrong.lock().unwrap().drain(..));
        if !wrong.is_empty() {
            let evidence = keep_evidence(data.path(), params.seed, kill);
            panic!(
                "after kill {kill} (seed {}): {} contradictions:\n{}\nthe data directory and the hub's log are kept in {}",
                params.seed,
                wrong.len(),
                wrong.join("\n"),
                evidence.display()
            );
        }
        drop(quiet);
        connected.push(all_connected.await.expect("every mat reconnected") - began);
        maps.push(all_mapped.await.expect("a map from every mat") - began);
        let counts = shared.ledger.lock().unwrap().counts;
        eprintln!(
            "kill {kill}/{}: after {uptime:?} up; serving in {:?}, all mats in {:?}, maps from all in {:?}; {counts:?}",
            params.kills,
            rest.last().unwrap(),
            connected.last().unwrap(),
            maps.last().unwrap()
        );
    }
    shared.stop.store(true, Ordering::Relaxed);
    for task in tasks {
        let _ = task.await;
    }
    let _ = stop_devices.send(true);

    let counts = shared.ledger.lock().unwrap().counts;
    let ((rest_ms_p50, rest_ms_max), (mats_ms_p50, mats_ms_max), (maps_ms_p50, maps_ms_max)) =
        (p50_max(&rest), p50_max(&connected), p50_max(&maps));
    let snapshot = stats.snapshot();
    let figures = Figures {
        params: params.clone(),
        counts,
        kills: params.kills,
        rest_ms_p50,
        rest_ms_max,
        mats_ms_p50,
        mats_ms_max,
        maps_ms_p50,
        maps_ms_max,
        frames_sent: snapshot.frames_sent,
        device_reconnects: snapshot.connects.saturating_sub(params.mats as u64),
    };
    let json = serde_json::to_string_pretty(&figures).unwrap();
    eprintln!("kill_under_load figures:\n{json}");
    if let Ok(path) = std::env::var("DURABILITY_REPORT") {
        std::fs::write(path, &json).expect("the report is written");
    }
    assert!(counts.acknowledged > 0 && counts.alarms_seen > 0, "the load wrote and alarmed: {counts:?}");
    assert!(counts.alarms_attended > 0, "alarms were attended: {counts:?}");
    drop(hub);
}

#[test]
fn the_listening_line_gives_the_addresses() {
    let line = "listening http=http://127.0.0.1:41234 quic=127.0.0.1:45678 cert=/tmp/x/tls/cert.pem\n";
    let listening = parse_listening(line).expect("parsed");
    assert_eq!((listening.http.port(), listening.quic.port()), (41234, 45678));
    assert_eq!(listening.cert, PathBuf::from("/tmp/x/tls/cert.pem"));
    assert_eq!(parse_listening("demo: open http://…"), None);
    assert_eq!(metric("# HELP hub_devices_connected x\nhub_devices_connected 17\n", "hub_devices_connected"), Some(17.0));
}

/// The mats' QUIC idle timeout in this test: without a reset they notice a dead hub only after
/// it. Longer than the simulator's own (3 s, about as long as a restart takes here), so that a
/// return well before it can only be the reset's doing.
const MAT_IDLE_TIMEOUT: Duration = Duration::from_secs(20);
/// Their keep-alive in this test (a packet that meets the new hub and its reset).
const MAT_KEEP_ALIVE: Duration = Duration::from_secs(5);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_hub_resets_the_killed_ones_connections_so_mats_come_back_at_once() {
    // The new process knows the old one's stateless-reset key (DATA/tls/quic-reset.key), so the
    // mats' next packets are answered with a reset they accept, and they reconnect well before
    // their idle timeout would have told them.
    let data = tempfile::tempdir().unwrap();
    let bin = PathBuf::from(HUB_BIN);
    let devices_file = provision(&bin, data.path(), 3);
    let mut hub = HubProcess::start(&bin, data.path(), &[]);
    let http = hub.listening.http;
    let client =
        QuicClient::new(Trust::PemFile(hub.listening.cert.clone())).expect("a QUIC client").with_liveness(MAT_KEEP_ALIVE, MAT_IDLE_TIMEOUT);
    let (stop_devices, shutdown) = tokio::sync::watch::channel(false);
    let stats = Arc::new(SimStats::default());
    for device in load_devices(&devices_file).expect("the provisioned devices") {
        let mut spec = device.to_spec().expect("a device spec");
        spec.rate = Rate::Fixed { hz: 5.0 };
        let transport = Transport::QuicShared { client: client.clone(), addr: hub.listening.quic, server_name: "localhost".into() };
        tokio::spawn(simulator::run_device(spec, transport, stats.clone(), shutdown.clone()));
    }
    all_mats_connected(http, 3).await;
    hub.kill_9();
    let began = hub.restart();
    let back = all_mats_connected(http, 3).await - began;
    eprintln!("mats back {back:?} after the restart began");
    let _ = stop_devices.send(true);
    assert!(
        back < MAT_IDLE_TIMEOUT / 2,
        "the mats came back after {back:?}: reset by the new hub, not by their {MAT_IDLE_TIMEOUT:?} idle timeout"
    );
}
