//! Hostile browsers and clients (issue 14 §4), each against a real hub on loopback with a streaming
//! simulated mat and a healthy viewer watching it: a flood of `joinUser` for every id, megabyte
//! messages, a token of another company, and (on the real binary, in its own process) 10,000
//! sockets opened and left idle. In every case the healthy viewer keeps receiving its maps, the
//! attacker gets nothing of another company, and the hub's memory and descriptors stay bounded.
//! (A socket that never reads is `browser.rs::a_stalled_viewer_does_not_slow_the_hub_or_other_viewers`.)
#![allow(clippy::unwrap_used)] // A test's helpers may unwrap: the panic is the failure it reports.

mod common;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{Browser, PASSWORD, SeededDevice, field, login, seed_company};
use futures_util::{SinkExt, StreamExt};
use storage::Store;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

const MAT: &str = "Mattress Mat IoT";
/// The longest a healthy viewer of a 20 Hz mat may wait for a map while another client attacks
/// (generous: the tests share two cores with the rest of the suite).
const MAX_GAP: Duration = Duration::from_millis(2_500);

/// Two companies on one hub; A's first mat streams at 20 Hz.
struct TwoCompanies {
    hub: hub::app::RunningHub,
    a: (String, Vec<SeededDevice>),
    b: (String, Vec<SeededDevice>),
    _stop: tokio::sync::watch::Sender<bool>,
    _data: tempfile::TempDir,
}

async fn two_companies() -> TwoCompanies {
    let data = tempfile::tempdir().unwrap();
    let store = Store::memory().await.unwrap();
    let (_, email_a, devices_a) = seed_company(&store, "A", &[MAT, MAT]).await;
    let (_, email_b, devices_b) = seed_company(&store, "B", &[MAT, MAT]).await;
    let hub = hub::app::start_with_store(common::config(data.path()), store).await.unwrap();
    let device = &devices_a[0];
    let mut spec = simulator::DeviceSpec::new(device.serial.clone(), device.secret.clone(), MAT).unwrap();
    spec.rate = simulator::Rate::Fixed { hz: 20.0 };
    let transport = simulator::Transport::Quic {
        addr: hub.quic_addr,
        server_name: "localhost".into(),
        trust: simulator::Trust::PemFile(hub.cert_path.clone()),
    };
    let (stop, shutdown) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        let _ = simulator::run_device(spec, transport, Arc::new(simulator::SimStats::default()), shutdown).await;
    });
    TwoCompanies { hub, a: (email_a, devices_a), b: (email_b, devices_b), _stop: stop, _data: data }
}

/// A viewer of one device that records when each map arrived.
struct Watcher {
    received: Arc<Mutex<Vec<(Instant, u64)>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Watcher {
    async fn start(addr: SocketAddr, token: &str, device_id: &str) -> Watcher {
        let mut browser = Browser::authenticated(addr, token).await;
        browser.send("joinUser", serde_json::json!({ "deviceId": device_id })).await;
        let received = Arc::new(Mutex::new(Vec::new()));
        let sink = received.clone();
        let task = tokio::spawn(async move {
            while let Some(event) = browser.wait_for("pressureMap_SAToFront", Duration::from_secs(30)).await {
                if let Some(seq) = field(&event.data, "seq").as_u64() {
                    sink.lock().unwrap().push((Instant::now(), seq));
                }
            }
        });
        Watcher { received, task }
    }

    async fn wait_first_map(&self) {
        assert!(
            common::eventually(Duration::from_secs(30), || !self.received.lock().unwrap().is_empty()).await,
            "the healthy viewer never got a map"
        );
    }

    /// Maps received at or after `from`, as (arrival, seq).
    fn since(&self, from: Instant) -> Vec<(Instant, u64)> {
        self.received.lock().unwrap().iter().copied().filter(|(t, _)| *t >= from).collect()
    }

    /// The viewer kept receiving through `[from, from + seconds)`: no gap between maps (or from the
    /// window's edges) longer than `MAX_GAP`, and at least half of the maps the device sent in that
    /// time (the rest would be conflation in its own outbox).
    fn assert_undisturbed(&self, from: Instant, seconds: u64, what: &str) {
        let window = self.since(from);
        let end = from + Duration::from_secs(seconds);
        let mut edges: Vec<Instant> = vec![from];
        edges.extend(window.iter().map(|(t, _)| *t).filter(|t| *t <= end));
        edges.push(end.min(Instant::now()));
        let gap = edges.windows(2).map(|w| w[1].saturating_duration_since(w[0])).max().unwrap_or_default();
        assert!(gap <= MAX_GAP, "{what}: the healthy viewer waited {gap:?} for a map");
        let (first, last) = (window.first().map_or(0, |w| w.1), window.last().map_or(0, |w| w.1));
        let span = last.saturating_sub(first) + 1;
        assert!(window.len() as u64 * 2 >= span, "{what}: the healthy viewer got {} of {span} maps", window.len());
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.task.abort();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_join_user_for_every_id_gets_refusals_and_disturbs_no_one() {
    let hub = two_companies().await;
    let addr = hub.hub.http_addr;
    let token_a = login(addr, &hub.a.0, PASSWORD).await;
    let token_b = login(addr, &hub.b.0, PASSWORD).await;
    let watcher = Watcher::start(addr, &token_a, &hub.a.1[0].id).await;
    watcher.wait_first_map().await;

    // B's user asks for every id it can think of: A's real devices, made-up ids, its own.
    let (mut sink, mut stream) = Browser::authenticated(addr, &token_b).await.socket.split();
    let mut ids: Vec<String> = hub.a.1.iter().map(|d| d.id.clone()).collect();
    ids.extend((0..5_000).map(|i| format!("device:{i:020}")));
    ids.extend(hub.b.1.iter().map(|d| d.id.clone()));
    let foreign = ids.len() - hub.b.1.len();
    let reader = tokio::spawn(async move {
        let (mut refused, mut maps_of_a, mut other) = (0usize, 0usize, Vec::new());
        while let Ok(Some(Ok(message))) = tokio::time::timeout(Duration::from_secs(3), stream.next()).await {
            let Message::Binary(bytes) = message else { continue };
            let event: common::Incoming = rmp_serde::from_slice(&bytes).unwrap();
            match event.event.as_str() {
                "error" if field(&event.data, "error").as_str() == Some("deviceNotFound") => refused += 1,
                "pressureMap_SAToFront" => maps_of_a += 1,
                name => other.push(name.to_owned()),
            }
        }
        (refused, maps_of_a, other)
    });
    let from = Instant::now();
    for id in &ids {
        let bytes = rmp_serde::to_vec_named(&common::Outgoing { event: "joinUser", data: serde_json::json!({ "deviceId": id }) }).unwrap();
        sink.send(Message::binary(bytes)).await.unwrap();
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    let seconds = from.elapsed().as_secs().max(1);
    let (refused, maps, other) = reader.await.unwrap();
    assert_eq!(refused, foreign, "every id outside B's company refused, once each (other events: {other:?})");
    assert_eq!(maps, 0, "B's user received maps: only A's device streams");
    watcher.assert_undisturbed(from, seconds, "joinUser flood");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn megabyte_messages_close_only_the_sender() {
    let hub = two_companies().await;
    let addr = hub.hub.http_addr;
    let token = login(addr, &hub.a.0, PASSWORD).await;
    let watcher = Watcher::start(addr, &token, &hub.a.1[0].id).await;
    watcher.wait_first_map().await;
    let from = Instant::now();
    let megabyte = vec![0x91u8; 1 << 20];

    // Before authenticating, as binary; after authenticating, as binary and as text.
    let mut cases = Vec::new();
    for (authenticate, text) in [(false, false), (true, false), (true, true)] {
        let mut browser = if authenticate { Browser::authenticated(addr, &token).await } else { Browser::connect(addr).await };
        let message = if text { Message::text("x".repeat(1 << 20)) } else { Message::binary(megabyte.clone()) };
        let _ = browser.socket.send(message).await;
        // The hub drops the connection: the next read ends (an error event may come first).
        let closed = tokio::time::timeout(Duration::from_secs(10), async {
            loop {
                match browser.socket.next().await {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return true,
                    Some(Ok(_)) => continue,
                }
            }
        })
        .await
        .unwrap_or(false);
        cases.push(((authenticate, text), closed));
    }
    assert!(cases.iter().all(|(_, closed)| *closed), "sockets left open after a 1 MB message: {cases:?}");
    // The hub serves new sockets and the healthy viewer never noticed.
    let _fresh = Browser::authenticated(addr, &token).await;
    // Watch the healthy viewer for a few seconds after the attack as well.
    tokio::time::sleep(Duration::from_secs(3)).await;
    watcher.assert_undisturbed(from, from.elapsed().as_secs().max(1), "1 MB messages");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_of_another_company_reaches_nothing_of_this_one() {
    let hub = two_companies().await;
    let addr = hub.hub.http_addr;
    let token_b = login(addr, &hub.b.0, PASSWORD).await;
    let a_device = hub.a.1[0].id.clone();
    let mut browser = Browser::authenticated(addr, &token_b).await;
    let attempts = [
        ("joinUser", serde_json::json!({ "deviceId": a_device })),
        ("startStreaming", serde_json::json!({ "deviceId": a_device, "seconds": 180 })),
        ("streamingRemaining", serde_json::json!({ "deviceId": a_device })),
        ("startCapture", serde_json::json!({ "deviceId": a_device, "analysisType": "Static" })),
        ("ActivateRemote", serde_json::json!({ "deviceId": a_device, "action": "startDynamicCapture" })),
        ("startAnalysisTimer", serde_json::json!({ "deviceId": a_device, "period": 3_600_000u64, "count": 24 })),
        ("attendAlarm", serde_json::json!({ "deviceId": a_device })),
    ];
    for (event, data) in &attempts {
        browser.send(event, data).await;
        let answer = browser.wait_for("error", Duration::from_secs(5)).await.unwrap_or_else(|| panic!("{event}: no refusal"));
        assert_eq!(field(&answer.data, "error").as_str(), Some("deviceNotFound"), "{event}");
    }
    // Joining the company channel shows B's devices only, and no map of A's streaming mat arrives.
    browser.send("joinCompany", serde_json::json!({})).await;
    let until = Instant::now() + Duration::from_secs(3);
    let own: Vec<&str> = hub.b.1.iter().map(|d| d.id.as_str()).collect();
    while let Some(event) = browser.next_event(until.saturating_duration_since(Instant::now())).await {
        assert_ne!(event.event, "pressureMap_SAToFront", "a map reached another company");
        if event.event == "deviceConf" {
            let id = field(&event.data, "deviceId").as_str().unwrap_or_default().to_owned();
            assert!(own.contains(&id.as_str()), "B saw the status of {id}");
        }
    }
}

// ---- 10,000 idle sockets, against the real binary in its own process -------------------------

const HUB: &str = env!("CARGO_BIN_EXE_hub");
const IDLE_SOCKETS: usize = 10_000;
/// What one idle authenticated browser may cost the hub (debug build), all included: the
/// WebSocket's buffers, the session actor and its outbox (issue 26 §3). Measured 157 KiB with
/// tungstenite's default 128 KiB read buffer; see docs/performance.md for the figure now.
const BYTES_PER_IDLE_SOCKET: u64 = 32 * 1024;

struct HubProcess {
    child: Child,
    addr: SocketAddr,
    quic: SocketAddr,
    cert: std::path::PathBuf,
}

impl Drop for HubProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn spawn_hub(data: &std::path::Path) -> HubProcess {
    let mut child = Command::new(HUB)
        .arg("--data")
        .arg(data)
        .args(["--http", "127.0.0.1:0", "--quic", "127.0.0.1:0", "--client-dir"])
        .arg(data.join("no-client"))
        .env("HUB_LOG", "error")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the hub binary starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let part = |prefix: &str| line.split_whitespace().find_map(|p| p.strip_prefix(prefix).map(str::to_owned));
    let addr = part("http=http://").unwrap_or_else(|| panic!("no address in {line:?}")).parse().unwrap();
    let quic = part("quic=").unwrap_or_else(|| panic!("no QUIC address in {line:?}")).parse().unwrap();
    let cert = part("cert=").unwrap_or_else(|| panic!("no certificate in {line:?}")).into();
    HubProcess { child, addr, quic, cert }
}

fn rss_bytes(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kb: u64 = status.lines().find_map(|l| l.strip_prefix("VmRSS:")).and_then(|v| v.split_whitespace().next()).unwrap().parse().unwrap();
    kb * 1024
}

fn open_fds(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd")).map(|d| d.count()).unwrap_or(0)
}

/// Raises this process's descriptor limit to its hard limit (10,000 client sockets need it).
fn raise_fd_limit(needed: u64) {
    let (soft, hard) = (rlimit_nofile(false), rlimit_nofile(true));
    assert!(hard >= needed, "the hard limit on open files is {hard}: this test needs {needed}");
    if soft < needed {
        let status = Command::new("prlimit").arg(format!("--pid={}", std::process::id())).arg(format!("--nofile={hard}:{hard}")).status();
        assert!(matches!(status, Ok(s) if s.success()), "could not raise the open-file limit to {hard} (prlimit)");
    }
}

fn rlimit_nofile(hard: bool) -> u64 {
    let limits = std::fs::read_to_string("/proc/self/limits").unwrap();
    let line = limits.lines().find(|l| l.starts_with("Max open files")).unwrap();
    let fields: Vec<&str> = line.split_whitespace().collect();
    let value = fields[if hard { 4 } else { 3 }];
    value.parse().unwrap_or(u64::MAX)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_idle_sockets_cost_little_and_disturb_no_one() {
    raise_fd_limit(IDLE_SOCKETS as u64 + 500);
    let data = tempfile::tempdir().unwrap();
    let secrets = data.path().join("secrets.json");
    let provisioned = Command::new(HUB)
        .arg("--data")
        .arg(data.path())
        .args(["provision", "--count", "1", "--device-type", MAT, "--prefix", "IDLE", "--out"])
        .arg(&secrets)
        .output()
        .expect("provision runs");
    assert!(provisioned.status.success(), "{}", String::from_utf8_lossy(&provisioned.stderr));
    let device = simulator::load_devices(&secrets).unwrap().remove(0);
    let hub = spawn_hub(data.path());
    let pid = hub.child.id();
    let token = login(hub.addr, "demo@example.com", "demo1234").await;
    let device_id: String = {
        let listed = common::request(hub.addr, "GET", "/api/userDevices", Some(&token), None).await;
        let devices: serde_json::Value = listed.json();
        devices[0]["_id"]["$oid"].as_str().unwrap().to_owned()
    };
    let mut spec = simulator::DeviceSpec::new(device.serial.clone(), device.secret.clone(), MAT).unwrap();
    spec.rate = simulator::Rate::Fixed { hz: 10.0 };
    let (_stop, shutdown) = tokio::sync::watch::channel(false);
    let transport =
        simulator::Transport::Quic { addr: hub.quic, server_name: "localhost".into(), trust: simulator::Trust::PemFile(hub.cert.clone()) };
    tokio::spawn(async move {
        let _ = simulator::run_device(spec, transport, Arc::new(simulator::SimStats::default()), shutdown).await;
    });
    let watcher = Watcher::start(hub.addr, &token, &device_id).await;
    watcher.wait_first_map().await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (rss_before, fds_before) = (rss_bytes(pid), open_fds(pid));

    // Half authenticate and then idle; half never say a word (the hub must drop those after 5 s).
    let from = Instant::now();
    let mut idle = Vec::with_capacity(IDLE_SOCKETS);
    for batch in 0..IDLE_SOCKETS / 250 {
        let opened = futures_util::future::join_all((0..250).map(|i| {
            let token = token.clone();
            let addr = hub.addr;
            async move {
                let (mut socket, _) =
                    tokio_tungstenite::connect_async(format!("ws://{addr}/ws")).await.expect("the hub accepts the socket");
                if (batch * 250 + i) % 2 == 0 {
                    let hello =
                        rmp_serde::to_vec_named(&common::Outgoing { event: "authenticate", data: serde_json::json!({ "token": token }) })
                            .unwrap();
                    socket.send(Message::binary(hello)).await.unwrap();
                }
                socket
            }
        }))
        .await;
        idle.extend(opened);
    }
    let opening = from.elapsed();
    tokio::time::sleep(Duration::from_secs(7)).await;
    let (rss_during, fds_during) = (rss_bytes(pid), open_fds(pid));
    let authenticated = IDLE_SOCKETS / 2;
    let per_socket = rss_during.saturating_sub(rss_before) / authenticated as u64;
    eprintln!(
        "{IDLE_SOCKETS} sockets opened in {opening:?}; hub RSS {} → {} MiB ({per_socket} B per authenticated idle socket); open fds {fds_before} → {fds_during}",
        rss_before >> 20,
        rss_during >> 20
    );
    assert!(per_socket <= BYTES_PER_IDLE_SOCKET, "{per_socket} B per idle socket (bound {BYTES_PER_IDLE_SOCKET})");
    watcher.assert_undisturbed(from, from.elapsed().as_secs().max(1), "10,000 idle sockets");
    // The silent half was dropped after the 5 s authentication limit; the authenticated half stays.
    assert!(fds_during <= fds_before + authenticated + 200, "the hub holds {fds_during} descriptors (was {fds_before})");
    assert!(fds_during >= fds_before + authenticated - 200, "authenticated idle sockets were dropped ({fds_during})");
    drop(idle);
    let released = common::eventually(Duration::from_secs(20), || open_fds(pid) <= fds_before + 50).await;
    assert!(released, "the hub still holds {} descriptors after the sockets closed (was {fds_before})", open_fds(pid));
}
