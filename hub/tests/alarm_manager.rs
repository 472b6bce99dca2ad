//! IHE PCD-04 end to end: the real hub binary reports its alarms to an independent alarm manager
//! (`hub/tests/alarm_manager/manager.py`, a Python MLLP listener parsing every report with the
//! PyPI `hl7` package, written apart from the hub's code), which checks each message's segments
//! and facets and answers AA, AE, AR, nothing, or closes the socket as the test tells it.
//!
//! - delivery, retries (AE, a closed socket, silence), the dead letter (AR) and its resend through
//!   the administrators' API, the end report when a nurse attends;
//! - no loss and no unexplained duplicate across `kill -9` of the hub with alarms in flight;
//! - the `continue` phase every interval while an alarm is unattended, and the `end` when it is
//!   attended, also when the device is offline after a restart (no alarm machine holds it); an
//!   Ulcer Risk alarm's continue reports escalate to medium priority once repositioning is overdue;
//! - MLLP over TLS (the manager behind Python's `ssl` with a certificate the test makes with
//!   rcgen): delivered when the company's CA signed it, a handshake failure and the link down
//!   with the reason when another CA did; the hub-wide default over TLS (`mllps://`,
//!   `--alarm-manager-ca`), and the PCD-05 listener over mutual TLS, refusing a manager without a
//!   client certificate of the configured CA;
//! - PCD-05: the manager reports an alarm's status back (delivered, accepted by a named nurse) to
//!   the hub's status listener with the `hl7` package's MLLP client: AA and stored on the alarm,
//!   AE for an alarm the hub never reported, AR for what is not a status report;
//! - PCD-05 reports stored at once, repeated and distinct, on the embedded engine: each stored
//!   once, none answered with an error (`storage::retry`).
//!
//! The manager runs in a virtual environment made on first use under Cargo's test directory
//! (`python3 -m venv`, `pip install hl7==0.4.5`), as `scripts/api-fuzz.sh` does for schemathesis.
#![allow(clippy::unwrap_used)] // A test's helpers may unwrap: the panic is the failure it reports.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use common::process::{HUB_BIN, HubProcess, metric, provision};
use common::{Response, try_request};
use serde_json::{Value, json};
use simulator::synth::BedScript;
use simulator::{QuicClient, Rate, Scenario, SimStats, Transport, Trust, load_devices};

const SECOND: Duration = Duration::from_secs(1);
const HL7_VERSION: &str = "0.4.5";

/// The venv's python, made once per test run.
fn python() -> PathBuf {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    PYTHON
        .get_or_init(|| {
            let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join("alarm-manager-venv");
            let python = venv.join("bin/python");
            let ready = Command::new(&python)
                .args(["-c", &format!("import hl7, importlib.metadata as m; assert m.version('hl7') == '{HL7_VERSION}'")])
                .status();
            if !ready.is_ok_and(|s| s.success()) {
                let made = Command::new("python3").args(["-m", "venv"]).arg(&venv).status().expect("python3 runs");
                assert!(made.success(), "python3 -m venv failed");
                let pip = Command::new(venv.join("bin/pip"))
                    .args(["install", "--quiet", "--disable-pip-version-check", &format!("hl7=={HL7_VERSION}")])
                    .status()
                    .expect("pip runs");
                assert!(pip.success(), "pip install hl7 failed");
            }
            python
        })
        .clone()
}

/// The independent alarm manager.
struct Manager {
    child: Child,
    port: u16,
    reports: Arc<Mutex<Vec<Value>>>,
    /// Its PCD-05 commands (stdin) and what the hub answered them.
    stdin: Mutex<std::process::ChildStdin>,
    answers: Arc<Mutex<Vec<Value>>>,
}

impl Manager {
    /// Starts it (port 0: any) answering `answers` in turn, then `default`.
    fn start(port: u16, answers: &str, default: &str) -> Manager {
        Manager::start_with(port, answers, default, &[])
    }

    /// [`Manager::start`] with more arguments of manager.py (`--tls-cert`, `--tls-key`).
    fn start_with(port: u16, answers: &str, default: &str, more: &[&str]) -> Manager {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/alarm_manager/manager.py");
        let mut child = Command::new(python())
            .arg(script)
            .args(["--port", &port.to_string(), "--answers", answers, "--default", default])
            .args(more)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the manager starts");
        let stdin = Mutex::new(child.stdin.take().unwrap());
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let first = lines.next().expect("a first line").expect("readable");
        let port: u16 = first.strip_prefix("listening ").and_then(|p| p.parse().ok()).unwrap_or_else(|| panic!("{first}"));
        let reports = Arc::new(Mutex::new(Vec::new()));
        let answers = Arc::new(Mutex::new(Vec::new()));
        let (sink, answer_sink) = (reports.clone(), answers.clone());
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                let value: Value = serde_json::from_str(&line).unwrap_or_else(|_| json!({ "unreadable": line }));
                match value.get("pcd05") {
                    Some(answer) => answer_sink.lock().unwrap().push(answer.clone()),
                    None => sink.lock().unwrap().push(value),
                }
            }
        });
        Manager { child, port, reports, stdin, answers }
    }

    /// Sends the hub's status listener `command` (a PCD-05 command of manager.py) and returns the
    /// hub's ACK as the manager read it.
    async fn pcd05(&self, command: Value) -> Value {
        use std::io::Write;
        let before = self.answers.lock().unwrap().len();
        writeln!(self.stdin.lock().unwrap(), "{command}").expect("the manager reads its commands");
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(answer) = self.answers.lock().unwrap().get(before) {
                return answer.clone();
            }
            assert!(Instant::now() < deadline, "no answer to {command}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    fn url(&self) -> String {
        format!("mllp://127.0.0.1:{}", self.port)
    }

    fn reports(&self) -> Vec<Value> {
        self.reports.lock().unwrap().clone()
    }

    /// Waits until `check` holds on the reports received so far.
    async fn wait_for(&self, limit: Duration, what: &str, check: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        let deadline = Instant::now() + limit;
        loop {
            let reports = self.reports();
            if check(&reports) {
                return reports;
            }
            assert!(Instant::now() < deadline, "{what}: not within {limit:?}; the manager received {reports:#?}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    fn stop(mut self) -> Vec<Value> {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.reports()
    }
}

impl Drop for Manager {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Every report the manager found valid.
fn assert_all_valid(reports: &[Value]) {
    for report in reports {
        assert_eq!(report["problems"], json!([]), "the manager found problems in {report}");
    }
}

async fn call(http: SocketAddr, token: &str, method: &str, path: &str, body: Option<Value>) -> Response {
    let body = body.map(|b| b.to_string());
    try_request(http, method, path, Some(token), body.as_deref()).await.expect("the hub answers")
}

async fn login_when_serving(http: SocketAddr, email: &str, password: &str) -> String {
    let body = json!({ "email": email, "password": password }).to_string();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Ok(response) = try_request(http, "POST", "/api/auth/login", None, Some(&body)).await
            && response.status == 200
        {
            return response.json::<Value>()["token"].as_str().unwrap().to_owned();
        }
        assert!(Instant::now() < deadline, "the hub does not serve REST calls");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn mats_connected(http: SocketAddr, mats: usize) {
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        if let Ok(response) = try_request(http, "GET", "/metrics", None, None).await
            && metric(&response.body, "hub_devices_connected").is_some_and(|n| n as usize >= mats)
        {
            return;
        }
        assert!(Instant::now() < deadline, "the mats did not connect");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Simulated mats whose patient leaves the bed longer than the absence delay in every cycle.
struct Mats {
    ids: Vec<String>,
    stop: tokio::sync::watch::Sender<bool>,
}

fn run_mats(devices_file: &Path, hub: &HubProcess, empty: Duration) -> Mats {
    let script = BedScript {
        empty,
        lie_down: SECOND,
        supine: 2 * SECOND,
        turn: SECOND,
        left_lateral: SECOND,
        right_lateral: SECOND,
        prone: SECOND,
        leave: SECOND,
    };
    run_mats_with(devices_file, hub, script)
}

/// Simulated mats following `script`.
fn run_mats_with(devices_file: &Path, hub: &HubProcess, script: BedScript) -> Mats {
    let client = QuicClient::new(Trust::PemFile(hub.listening.cert.clone())).expect("a QUIC client");
    let (stop, shutdown) = tokio::sync::watch::channel(false);
    let stats = Arc::new(SimStats::default());
    let mut ids = Vec::new();
    for (i, device) in load_devices(devices_file).expect("the provisioned devices").into_iter().enumerate() {
        let mut spec = device.to_spec().expect("a device spec");
        spec.scenario = Scenario::BedOccupant(script.clone());
        spec.rate = Rate::Fixed { hz: 5.0 };
        spec.time_offset = Duration::from_millis(700 * i as u64);
        let transport = Transport::QuicShared { client: client.clone(), addr: hub.listening.quic, server_name: "localhost".into() };
        tokio::spawn(simulator::run_device(spec, transport, stats.clone(), shutdown.clone()));
        ids.push(device.device_id.clone().expect("a device id"));
    }
    Mats { ids, stop }
}

/// A device's alarms as the hub lists them: (key, attended).
/// `GET /health` once its `problems` pass `check` (within 60 s: the sender reads its queue at
/// least every 30 s), whatever its status.
async fn health_until(http: SocketAddr, check: impl Fn(&[Value]) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let health: Value = common::request(http, "GET", "/health", None, None).await.json();
        if health["problems"].as_array().is_some_and(|p| check(p)) {
            return health;
        }
        assert!(Instant::now() < deadline, "/health never said so: {health}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn alarms(http: SocketAddr, token: &str, device_id: &str) -> Vec<(String, bool)> {
    let listed = call(http, token, "GET", &format!("/api/iotAlarms/{device_id}"), None).await;
    assert_eq!(listed.status, 200, "{}", listed.body);
    listed
        .json::<Vec<Value>>()
        .iter()
        .map(|a| (a["_id"]["$oid"].as_str().unwrap().to_owned(), a["hasBeenAttended"].as_bool().unwrap()))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn reports_are_retried_dead_lettered_resent_and_ended() {
    // The first attempt is answered AE, the second by closing the socket, the third by silence,
    // the fourth AR; everything after AA.
    let manager = Manager::start(0, "AE,CLOSE,NONE,AR", "AA");
    let data = tempfile::tempdir().unwrap();
    let bin = PathBuf::from(HUB_BIN);
    let devices_file = provision(&bin, data.path(), 1);
    let url = manager.url();
    let hub = HubProcess::start(&bin, data.path(), &["--absence-delay-secs", "1", "--alarm-manager", &url]);
    let http = hub.listening.http;
    let admin = login_when_serving(http, hub::demo::ADMIN_EMAIL, hub::demo::ADMIN_PASSWORD).await;
    let nurse = login_when_serving(http, hub::demo::DEMO_EMAIL, hub::demo::DEMO_PASSWORD).await;

    let view = call(http, &admin, "GET", "/api/alarmManager", None).await;
    assert_eq!(view.status, 200, "{}", view.body);
    let view: Value = view.json();
    assert_eq!(
        (view["hubDefault"].as_str(), view["destination"].as_str(), &view["settings"]),
        (Some(url.as_str()), Some(url.as_str()), &Value::Null)
    );

    let mats = run_mats(&devices_file, &hub, 3 * SECOND);
    mats_connected(http, 1).await;
    // One Missing alarm (none other while it is pending): four attempts of its start report.
    let reports = manager.wait_for(Duration::from_secs(60), "four attempts", |r| r.len() >= 4).await;
    assert_all_valid(&reports);
    let control_id = reports[0]["controlId"].as_str().unwrap().to_owned();
    assert!(reports[..4].iter().all(|r| r["controlId"] == control_id.as_str()), "the same report, the same control id: {reports:#?}");
    assert_eq!(reports[0]["phase"], "start");
    assert_eq!((reports[0]["event"].as_str(), reports[0]["priority"].as_str()), (Some("MDCX_EVT_PMAT_PATIENT_MISSING"), Some("PH")));
    let alarm = reports[0]["alarm"].as_str().unwrap().to_owned();
    assert_eq!(control_id, format!("{alarm}-start"));
    assert_eq!(alarms(http, &nurse, &mats.ids[0]).await, [(alarm.clone(), false)], "the report is the hub's pending alarm");

    // AR: a dead letter, shown to administrators (not to staff).
    let deadline = Instant::now() + Duration::from_secs(10);
    let letters = loop {
        let letters: Vec<Value> = call(http, &admin, "GET", "/api/alarmManager/deadLetters", None).await.json();
        if !letters.is_empty() || Instant::now() > deadline {
            break letters;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(letters.len(), 1, "{letters:#?}");
    assert_eq!((letters[0]["controlId"].as_str(), letters[0]["attempts"].as_i64()), (Some(control_id.as_str()), Some(4)));
    assert!(letters[0]["lastError"].as_str().unwrap().starts_with("AR"), "{}", letters[0]);
    assert_eq!(call(http, &nurse, "GET", "/api/alarmManager/deadLetters", None).await.status, 403);
    let view: Value = call(http, &admin, "GET", "/api/alarmManager", None).await.json();
    assert_eq!((view["pending"].as_u64(), view["deadLetters"].as_u64()), (Some(0), Some(1)));
    assert_eq!(view["link"]["state"], "up", "the manager answered: {view}");
    assert_eq!(manager.reports().len(), 4, "a dead letter is not retried");
    // The IT team's view of the same, on `/metrics`: three attempts to retry, one dead letter
    // waiting for an administrator, nothing else waiting, the manager reachable.
    let figures = |names: &'static [&'static str]| async move {
        let text = common::request(http, "GET", "/metrics", None, None).await.body;
        names.iter().map(|name| metric(&text, name).unwrap_or(-1.0)).collect::<Vec<f64>>()
    };
    const QUEUE: &[&str] = &[
        "hub_alarm_reports_retried_total",
        "hub_alarm_reports_dead_lettered_total",
        "hub_alarm_reports_dead_letters",
        "hub_alarm_reports_pending",
        "hub_alarm_manager_links_down",
    ];
    let deadline = Instant::now() + Duration::from_secs(15);
    let mut seen = figures(QUEUE).await;
    while seen != [3.0, 1.0, 1.0, 0.0, 0.0] && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(250)).await;
        seen = figures(QUEUE).await;
    }
    assert_eq!(seen, [3.0, 1.0, 1.0, 0.0, 0.0], "{QUEUE:?}");

    // Resent by an administrator: delivered (AA), audited.
    assert_eq!(call(http, &nurse, "POST", &format!("/api/alarmManager/deadLetters/{control_id}/resend"), None).await.status, 403);
    assert_eq!(call(http, &admin, "POST", "/api/alarmManager/deadLetters/nope/resend", None).await.status, 404);
    let resent = call(http, &admin, "POST", &format!("/api/alarmManager/deadLetters/{control_id}/resend"), None).await;
    assert_eq!(resent.status, 204, "{}", resent.body);
    let reports = manager.wait_for(Duration::from_secs(10), "the resend", |r| r.len() >= 5).await;
    assert_eq!((reports[4]["controlId"].as_str(), reports[4]["answer"].as_str()), (Some(control_id.as_str()), Some("AA")));
    let audit: Value = call(http, &admin, "GET", "/api/auditLog/1", None).await.json();
    assert!(audit["entries"].as_array().unwrap().iter().any(|e| e["action"] == "alarmManager.resend"), "{audit}");

    // A nurse attends: the end report of the same alarm.
    let attended = call(http, &nurse, "PUT", &format!("/api/iotAlarms/{}", mats.ids[0]), None).await;
    assert_eq!(attended.status, 200, "{}", attended.body);
    let reports = manager.wait_for(Duration::from_secs(10), "the end report", |r| r.iter().any(|r| r["phase"] == "end")).await;
    let end = reports.iter().find(|r| r["phase"] == "end").unwrap();
    assert_eq!((end["alarm"].as_str(), end["controlId"].as_str()), (Some(alarm.as_str()), Some(format!("{alarm}-end").as_str())));
    assert_eq!((end["state"].as_str(), end["inactivation"].as_str()), (Some("inactive"), Some("alert-acknowledged")));
    // Delivered: the resent start and the end; no dead letter left.
    const DELIVERED: &[&str] =
        &["hub_alarm_reports_delivered_total", "hub_alarm_reports_dead_letters", "hub_alarm_reports_oldest_pending_age_seconds"];
    let deadline = Instant::now() + Duration::from_secs(15);
    let mut seen = figures(DELIVERED).await;
    while !(seen[0] >= 2.0 && seen[1] == 0.0) && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(250)).await;
        seen = figures(DELIVERED).await;
    }
    assert!(seen[0] >= 2.0 && seen[1] == 0.0, "{DELIVERED:?}: {seen:?}");
    let _ = mats.stop.send(true);
    assert_all_valid(&manager.stop());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_companys_own_manager_is_set_by_administrators_and_audited() {
    let own = Manager::start(0, "", "AA");
    let data = tempfile::tempdir().unwrap();
    let bin = PathBuf::from(HUB_BIN);
    let devices_file = provision(&bin, data.path(), 1);
    let hub = HubProcess::start(&bin, data.path(), &["--absence-delay-secs", "1"]);
    let http = hub.listening.http;
    let admin = login_when_serving(http, hub::demo::ADMIN_EMAIL, hub::demo::ADMIN_PASSWORD).await;
    let nurse = login_when_serving(http, hub::demo::DEMO_EMAIL, hub::demo::DEMO_PASSWORD).await;
    let view: Value = call(http, &admin, "GET", "/api/alarmManager", None).await.json();
    assert_eq!((&view["destination"], &view["hubDefault"]), (&Value::Null, &Value::Null), "no manager: nothing goes out");

    let settings = json!({
        "enabled": true, "host": "127.0.0.1", "port": own.port, "sendingApplication": "PMAT_WARD3",
        "sendingFacility": "ST_MARY", "receivingApplication": "AM", "receivingFacility": "", "kinds": ["Missing"],
        "tls": false, "caPem": ""
    });
    assert_eq!(call(http, &nurse, "PUT", "/api/alarmManager", Some(settings.clone())).await.status, 403);
    let mut bad = settings.clone();
    bad["port"] = json!(0);
    let refused = call(http, &admin, "PUT", "/api/alarmManager", Some(bad)).await;
    assert_eq!((refused.status, refused.json::<Value>()["error"].as_str()), (400, Some("invalidAlarmManager")));
    let set = call(http, &admin, "PUT", "/api/alarmManager", Some(settings.clone())).await;
    assert_eq!(set.status, 200, "{}", set.body);
    let view: Value = set.json();
    assert_eq!(view["settings"], settings);
    assert_eq!(view["destination"], format!("mllp://127.0.0.1:{}", own.port));
    let audit: Value = call(http, &admin, "GET", "/api/auditLog/1", None).await.json();
    assert!(audit["entries"].as_array().unwrap().iter().any(|e| e["action"] == "alarmManager.update"), "{audit}");

    let mats = run_mats(&devices_file, &hub, 3 * SECOND);
    let reports = own.wait_for(Duration::from_secs(60), "the start report", |r| !r.is_empty()).await;
    assert_all_valid(&reports);
    assert_eq!(reports[0]["phase"], "start");
    let view: Value = call(http, &admin, "GET", "/api/alarmManager", None).await.json();
    assert_eq!(view["link"]["state"], "up", "{view}");
    let _ = mats.stop.send(true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn no_report_is_lost_or_duplicated_unexplained_across_kill_9() {
    let manager = Manager::start(0, "", "AA");
    let data = tempfile::tempdir().unwrap();
    let bin = PathBuf::from(HUB_BIN);
    let devices_file = provision(&bin, data.path(), 4);
    let url = manager.url();
    let mut hub = HubProcess::start(&bin, data.path(), &["--absence-delay-secs", "1", "--alarm-manager", &url]);
    let http = hub.listening.http;
    let mut nurse = login_when_serving(http, hub::demo::DEMO_EMAIL, hub::demo::DEMO_PASSWORD).await;
    let mats = run_mats(&devices_file, &hub, 2 * SECOND);
    mats_connected(http, 4).await;

    // A nurse attends every pending alarm twice a second, so alarms keep being raised and ended;
    // the hub is killed twice while reports are in flight.
    let mut kills = Vec::new();
    for round in 0..3 {
        let until = Instant::now() + Duration::from_millis(6_000 + 1_300 * round);
        while Instant::now() < until {
            for id in &mats.ids {
                let _ = try_request(http, "PUT", &format!("/api/iotAlarms/{id}"), Some(&nurse), None).await;
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        if round < 2 {
            let at = now_ms();
            hub.kill_9();
            hub.restart();
            kills.push((at, now_ms()));
            nurse = login_when_serving(http, hub::demo::DEMO_EMAIL, hub::demo::DEMO_PASSWORD).await;
        }
    }
    let _ = mats.stop.send(true);
    tokio::time::sleep(2 * SECOND).await;
    for id in &mats.ids {
        let _ = call(http, &nurse, "PUT", &format!("/api/iotAlarms/{id}"), None).await;
    }
    // Everything the hub stored is reported: a start for every alarm, an end for every attended one.
    let mut expected = BTreeSet::new();
    for id in &mats.ids {
        for (key, attended) in alarms(http, &nurse, id).await {
            expected.insert(format!("{key}-start"));
            if attended {
                expected.insert(format!("{key}-end"));
            }
        }
    }
    assert!(expected.len() >= 8, "the run raised too few alarms to prove anything: {expected:?}");
    let reports = manager
        .wait_for(Duration::from_secs(60), "every stored alarm reported", |r| {
            let seen: BTreeSet<&str> = r.iter().filter_map(|r| r["controlId"].as_str()).collect();
            expected.iter().all(|id| seen.contains(id.as_str()))
        })
        .await;
    assert_all_valid(&reports);
    let mut receipts: BTreeMap<&str, Vec<i64>> = BTreeMap::new();
    for report in &reports {
        receipts.entry(report["controlId"].as_str().unwrap()).or_default().push(report["receivedMs"].as_i64().unwrap());
    }
    for (control_id, times) in &receipts {
        assert!(expected.contains(*control_id), "{control_id} was reported but the hub has no such alarm (phase)");
        // At least once: a report is sent again only if a kill came between its first receipt and
        // the hub storing the ACK.
        for pair in times.windows(2) {
            let explained = kills.iter().any(|(killed, restarted)| pair[0] <= *killed + 50 && pair[1] >= *restarted - 50);
            assert!(explained, "{control_id} received at {times:?}, not across a kill {kills:?}");
        }
    }
    let duplicates = receipts.values().filter(|t| t.len() > 1).count();
    eprintln!("kill -9 ×2: {} reports of {} alarm phases, {duplicates} sent again across a kill", reports.len(), expected.len());
    manager.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_managers_status_reports_are_acked_stored_on_the_alarm_and_listed() {
    let manager = Manager::start(0, "", "AA");
    let data = tempfile::tempdir().unwrap();
    let bin = PathBuf::from(HUB_BIN);
    let devices_file = provision(&bin, data.path(), 1);
    let url = manager.url();
    let hub = HubProcess::start(
        &bin,
        data.path(),
        &["--absence-delay-secs", "1", "--alarm-manager", &url, "--alarm-status-listen", "127.0.0.1:0"],
    );
    let http = hub.listening.http;
    let admin = login_when_serving(http, hub::demo::ADMIN_EMAIL, hub::demo::ADMIN_PASSWORD).await;
    let nurse = login_when_serving(http, hub::demo::DEMO_EMAIL, hub::demo::DEMO_PASSWORD).await;
    let view: Value = call(http, &admin, "GET", "/api/alarmManager", None).await.json();
    let listener = view["statusListener"].as_str().expect("the listener's address is shown to administrators").to_owned();
    let to = listener.strip_prefix("mllp://").unwrap().to_owned();
    assert!(to.starts_with("127.0.0.1:") && !to.ends_with(":0"), "{listener}");

    let mats = run_mats(&devices_file, &hub, 3 * SECOND);
    let reports = manager.wait_for(Duration::from_secs(60), "the start report", |r| r.iter().any(|r| r["phase"] == "start")).await;
    let alarm = reports.iter().find(|r| r["phase"] == "start").unwrap()["alarm"].as_str().unwrap().to_owned();
    let status = |value: &str, who: &str, control_id: &str| json!({ "status": { "to": to, "alarm": alarm, "value": value, "who": who, "controlId": control_id } });

    // Delivered to a phone, then accepted by a named nurse: AA each, the second sent twice.
    let delivered = manager.pcd05(status("delivered", "", "st-1")).await;
    assert_eq!((delivered["ack"].as_str(), delivered["ackControlId"].as_str()), (Some("AA"), Some("st-1")), "{delivered}");
    for _ in 0..2 {
        let accepted = manager.pcd05(status("accepted", "N42^Okafor^Grace", "st-2")).await;
        assert_eq!((accepted["ack"].as_str(), accepted["ackControlId"].as_str()), (Some("AA"), Some("st-2")), "{accepted}");
    }
    // An alarm the hub never reported: AE. Not a status report: AR, with its control id if it has one.
    let unknown = manager.pcd05(json!({ "status": { "to": to, "alarm": "nope-1", "value": "read", "controlId": "st-3" } })).await;
    assert_eq!(
        (unknown["ack"].as_str(), unknown["ackControlId"].as_str(), unknown["ackText"].as_str()),
        (Some("AE"), Some("st-3"), Some("unknown alarm"))
    );
    let garbage = manager.pcd05(json!({ "raw": { "to": to, "text": "hello, hub" } })).await;
    assert_eq!(garbage["ack"].as_str(), Some("AR"), "{garbage}");
    let wrong = "MSH|^~\\&|AM|WARD|PMAT_HUB||20261126120000||ORU^R40^ORU_R40|st-4|P|2.6\r";
    let wrong_kind = manager.pcd05(json!({ "raw": { "to": to, "text": wrong } })).await;
    assert_eq!((wrong_kind["ack"].as_str(), wrong_kind["ackControlId"].as_str()), (Some("AR"), Some("st-4")), "{wrong_kind}");

    // Stored on the alarm, once per report, listed with the alarm's history (staff see it).
    let device = &mats.ids[0];
    let listed: Vec<Value> = call(http, &nurse, "GET", &format!("/api/iotAlarms/{device}"), None).await.json();
    let entry = listed.iter().find(|a| a["_id"]["$oid"] == alarm.as_str()).expect("the alarm is listed");
    let statuses = entry["managerStatuses"].as_array().unwrap();
    let seen: Vec<(&str, Option<&str>)> = statuses.iter().map(|s| (s["status"].as_str().unwrap(), s["who"].as_str())).collect();
    assert_eq!(seen, [("delivered", None), ("accepted", Some("Grace Okafor"))], "{entry}");
    let at = statuses[1]["atMs"].as_i64().unwrap();
    assert!((at - now_ms()).abs() < 120_000, "the manager's OBX-14 time, read as Unix ms: {at}");
    let _ = mats.stop.send(true);
    manager.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn continue_reports_follow_an_unattended_alarm_and_its_end_stops_them_even_with_the_device_offline() {
    let manager = Manager::start(0, "", "AA");
    let data = tempfile::tempdir().unwrap();
    let bin = PathBuf::from(HUB_BIN);
    let devices_file = provision(&bin, data.path(), 1);
    let url = manager.url();
    let mut hub =
        HubProcess::start(&bin, data.path(), &["--absence-delay-secs", "1", "--alarm-manager", &url, "--alarm-continue-secs", "2"]);
    let http = hub.listening.http;
    let mats = run_mats(&devices_file, &hub, 60 * SECOND);
    let reports = manager.wait_for(Duration::from_secs(60), "the start report", |r| r.iter().any(|r| r["phase"] == "start")).await;
    // The patient stays away and the mat goes offline: the alarm waits, unattended.
    let _ = mats.stop.send(true);
    let alarm = reports.iter().find(|r| r["phase"] == "start").unwrap()["alarm"].as_str().unwrap().to_owned();
    let of_alarm = |r: &Value| r["alarm"] == alarm.as_str();
    let reports = manager
        .wait_for(Duration::from_secs(20), "two continue reports", |r| {
            r.iter().filter(|r| of_alarm(r) && r["phase"] == "continue").count() >= 2
        })
        .await;
    assert_all_valid(&reports);
    let continues: Vec<&Value> = reports.iter().filter(|r| of_alarm(r) && r["phase"] == "continue").collect();
    let number =
        |r: &Value| r["controlId"].as_str().unwrap().rsplit_once("-continue-").map(|(a, n)| (a.to_owned(), n.parse::<i64>().unwrap()));
    assert_eq!(number(continues[0]), Some((alarm.clone(), 1)), "the first interval's report first");
    let (_, second) = number(continues[1]).unwrap();
    assert!(second >= 2, "numbered on: {continues:#?}");
    assert_eq!((continues[0]["state"].as_str(), continues[0]["inactivation"].as_str()), (Some("active"), Some("enabled")));
    // The schedule is read every 500 ms: a report is seldom skipped, and one is never early.
    let gap = continues[1]["receivedMs"].as_i64().unwrap() - continues[0]["receivedMs"].as_i64().unwrap();
    let intervals = (second - 1) * 2_000;
    assert!((intervals - 1_500..=intervals + 2_500).contains(&gap), "{} interval(s) of 2 s apart: {gap} ms", second - 1);

    // A kill and a restart: the device stays offline, so no alarm machine holds the alarm; a nurse
    // attends it through the API and the manager still gets its end, and no continue after it.
    let killed_at = now_ms();
    hub.kill_9();
    hub.restart();
    let nurse = login_when_serving(http, hub::demo::DEMO_EMAIL, hub::demo::DEMO_PASSWORD).await;
    let attended = call(http, &nurse, "PUT", &format!("/api/iotAlarms/{}", mats.ids[0]), None).await;
    assert_eq!(attended.status, 200, "{}", attended.body);
    let reports =
        manager.wait_for(Duration::from_secs(20), "the end report", |r| r.iter().any(|r| of_alarm(r) && r["phase"] == "end")).await;
    let end_at = reports.iter().find(|r| of_alarm(r) && r["phase"] == "end").unwrap()["receivedMs"].as_i64().unwrap();
    tokio::time::sleep(5 * SECOND).await;
    let reports = manager.stop();
    assert_all_valid(&reports);
    let late: Vec<&Value> =
        reports.iter().filter(|r| of_alarm(r) && r["phase"] == "continue" && r["receivedMs"].as_i64().unwrap() > end_at).collect();
    assert!(late.is_empty(), "continue reports after the end: {late:#?}");
    let before_kill = |r: &&Value| r["receivedMs"].as_i64().unwrap() < killed_at - 50;
    let numbers: Vec<&str> = reports
        .iter()
        .filter(|r| of_alarm(r) && r["phase"] == "continue")
        .filter(before_kill)
        .filter_map(|r| r["controlId"].as_str())
        .collect();
    let unique: BTreeSet<&str> = numbers.iter().copied().collect();
    assert_eq!(unique.len(), numbers.len(), "each continue report once before the kill (all answered AA): {numbers:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_ulcer_risk_alarm_escalates_to_medium_priority_once_repositioning_is_overdue() {
    // 60 times real time: a 15-minute interval is due after 15 s, overdue 30 minutes later (45 s).
    let manager = Manager::start(0, "", "AA");
    let data = tempfile::tempdir().unwrap();
    let bin = PathBuf::from(HUB_BIN);
    let devices_file = provision(&bin, data.path(), 1);
    let url = manager.url();
    let hub = HubProcess::start(
        &bin,
        data.path(),
        &["--alarm-manager", &url, "--alarm-continue-secs", "2", "--demo-repositioning-time-scale", "60"],
    );
    let http = hub.listening.http;
    let nurse = login_when_serving(http, hub::demo::DEMO_EMAIL, hub::demo::DEMO_PASSWORD).await;
    let device = load_devices(&devices_file).unwrap()[0].device_id.clone().unwrap();
    let clock = call(http, &nurse, "PUT", &format!("/api/device/{device}/repositioning"), Some(json!({ "minutes": 15 }))).await;
    assert_eq!(clock.status, 200, "{}", clock.body);
    let lying = BedScript { empty: SECOND, lie_down: SECOND, supine: 600 * SECOND, ..BedScript::default() };
    let mats = run_mats_with(&devices_file, &hub, lying);
    let reports = manager
        .wait_for(Duration::from_secs(150), "an escalated continue report", |r| {
            r.iter().any(|r| r["event"] == "MDCX_EVT_PMAT_REPOSITION_OVERDUE")
        })
        .await;
    assert_all_valid(&reports);
    let start = reports.iter().find(|r| r["phase"] == "start").expect("the start report");
    assert_eq!((start["event"].as_str(), start["priority"].as_str()), (Some("MDCX_EVT_PMAT_REPOSITION_DUE"), Some("PL")), "{start}");
    let escalated = reports.iter().find(|r| r["event"] == "MDCX_EVT_PMAT_REPOSITION_OVERDUE").unwrap();
    assert_eq!((escalated["phase"].as_str(), escalated["priority"].as_str()), (Some("continue"), Some("PM")), "{escalated}");
    assert_eq!(escalated["alarm"], start["alarm"], "the same alarm, escalated");
    let before: Vec<&Value> = reports.iter().take_while(|r| r["event"] != "MDCX_EVT_PMAT_REPOSITION_OVERDUE").collect();
    assert!(before.iter().all(|r| r["priority"] == "PL"), "low until overdue: {before:#?}");
    let _ = mats.stop.send(true);
    manager.stop();
}

/// A certificate authority and a manager certificate it signed for `127.0.0.1` and `localhost`,
/// made by the test with rcgen: (CA PEM, certificate PEM, key PEM).
fn test_ca(name: &str) -> (String, String, String) {
    let (ca, mut issued) = test_ca_issuing(name, 1);
    let (cert, key) = issued.remove(0);
    (ca, cert, key)
}

/// A certificate authority and `count` certificates it signed, each for `127.0.0.1` and
/// `localhost` (a server's or a client's): (CA PEM, [(certificate PEM, key PEM)]).
fn test_ca_issuing(name: &str, count: usize) -> (String, Vec<(String, String)>) {
    let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    params.distinguished_name.push(rcgen::DnType::CommonName, name);
    let ca = rcgen::CertifiedIssuer::self_signed(params, rcgen::KeyPair::generate().unwrap()).unwrap();
    let issued = (0..count)
        .map(|_| {
            let key = rcgen::KeyPair::generate().unwrap();
            let cert =
                rcgen::CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()]).unwrap().signed_by(&key, &ca).unwrap();
            (cert.pem(), key.serialize_pem())
        })
        .collect();
    (ca.pem(), issued)
}

/// Writes `text` to `dir/name` and returns the path as text.
fn written(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_default_manager_and_the_status_listener_speak_tls_and_mutual_tls_refuses_strangers() {
    // The hospital's CA signed the manager's server certificate, the hub's listener certificate
    // and the manager's client certificate; a stranger's CA signed another client certificate.
    let certs = tempfile::tempdir().unwrap();
    let dir = certs.path();
    let (ca, issued) = test_ca_issuing("St Mary test CA", 3);
    let (stranger_ca, stranger) = test_ca_issuing("Someone else's CA", 1);
    let ca_file = written(dir, "ca.pem", &ca);
    let (am_cert, am_key) = (written(dir, "am.pem", &issued[0].0), written(dir, "am.key", &issued[0].1));
    let (hub_cert, hub_key) = (written(dir, "hub.pem", &issued[1].0), written(dir, "hub.key", &issued[1].1));
    let (client_cert, client_key) = (written(dir, "client.pem", &issued[2].0), written(dir, "client.key", &issued[2].1));
    let stranger_ca_file = written(dir, "stranger-ca.pem", &stranger_ca);
    let (stranger_cert, stranger_key) = (written(dir, "stranger.pem", &stranger[0].0), written(dir, "stranger.key", &stranger[0].1));
    let manager = Manager::start_with(0, "", "AA", &["--tls-cert", &am_cert, "--tls-key", &am_key]);
    let data = tempfile::tempdir().unwrap();
    let bin = PathBuf::from(HUB_BIN);
    let devices_file = provision(&bin, data.path(), 1);
    let url = format!("mllps://127.0.0.1:{}", manager.port);
    let hub = HubProcess::start(
        &bin,
        data.path(),
        &[
            "--absence-delay-secs",
            "1",
            "--alarm-manager",
            &url,
            "--alarm-manager-ca",
            &ca_file,
            "--alarm-status-listen",
            "127.0.0.1:0",
            "--alarm-status-tls-cert",
            &hub_cert,
            "--alarm-status-tls-key",
            &hub_key,
            "--alarm-status-client-ca",
            &ca_file,
        ],
    );
    let http = hub.listening.http;
    let admin = login_when_serving(http, hub::demo::ADMIN_EMAIL, hub::demo::ADMIN_PASSWORD).await;
    let nurse = login_when_serving(http, hub::demo::DEMO_EMAIL, hub::demo::DEMO_PASSWORD).await;
    let view: Value = call(http, &admin, "GET", "/api/alarmManager", None).await.json();
    assert_eq!((view["hubDefault"].as_str(), view["destination"].as_str()), (Some(url.as_str()), Some(url.as_str())), "{view}");
    let listener = view["statusListener"].as_str().unwrap().to_owned();
    let to = listener.strip_prefix("mllps://").unwrap_or_else(|| panic!("the listener is shown as TLS: {listener}")).to_owned();

    // PCD-04 to the default destination over TLS: delivered, valid, the link up.
    let mats = run_mats(&devices_file, &hub, 3 * SECOND);
    let reports = manager.wait_for(Duration::from_secs(90), "the start report over TLS", |r| r.iter().any(|r| r["phase"] == "start")).await;
    assert!(reports.iter().all(|r| r.get("tlsError").is_none()), "every handshake succeeded: {reports:#?}");
    assert_all_valid(&reports);
    let alarm = reports.iter().find(|r| r["phase"] == "start").unwrap()["alarm"].as_str().unwrap().to_owned();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let view: Value = call(http, &admin, "GET", "/api/alarmManager", None).await.json();
        if view["link"]["state"] == "up" && view["pending"] == 0 {
            break;
        }
        assert!(Instant::now() < deadline, "the default link is not up after a delivery over TLS: {view}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // PCD-05 over mutual TLS: the manager's certificate of the hospital's CA is accepted (AA).
    let status = |control_id: &str, tls: Value| json!({ "status": { "to": to, "alarm": alarm, "value": "accepted", "who": "N42^Okafor^Grace", "controlId": control_id, "tls": tls } });
    let good = json!({ "ca": ca_file, "cert": client_cert, "key": client_key });
    let accepted = manager.pcd05(status("st-tls-1", good)).await;
    assert_eq!((accepted["ack"].as_str(), accepted["ackControlId"].as_str()), (Some("AA"), Some("st-tls-1")), "{accepted}");

    // Refused in the handshake: no client certificate, one of another CA, plain MLLP; and a
    // manager that does not trust the hub's CA refuses the hub.
    for (control_id, tls) in [
        ("st-tls-2", json!({ "ca": ca_file })),
        ("st-tls-3", json!({ "ca": ca_file, "cert": stranger_cert, "key": stranger_key })),
        ("st-tls-4", Value::Null),
        ("st-tls-5", json!({ "ca": stranger_ca_file, "cert": client_cert, "key": client_key })),
    ] {
        let mut command = status(control_id, tls.clone());
        if tls.is_null() {
            command["status"].as_object_mut().unwrap().remove("tls");
        }
        let refused = manager.pcd05(command).await;
        assert!(refused.get("ack").is_none() && refused.get("error").is_some(), "{control_id} {tls}: {refused}");
    }

    // Only the accepted report is stored on the alarm.
    let device = &mats.ids[0];
    let listed: Vec<Value> = call(http, &nurse, "GET", &format!("/api/iotAlarms/{device}"), None).await.json();
    let entry = listed.iter().find(|a| a["_id"]["$oid"] == alarm.as_str()).expect("the alarm is listed");
    let statuses: Vec<&str> = entry["managerStatuses"].as_array().unwrap().iter().map(|s| s["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["accepted"], "{entry}");
    let _ = mats.stop.send(true);
    manager.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn alarms_go_over_tls_to_a_manager_whose_certificate_the_companys_ca_signed() {
    let certs = tempfile::tempdir().unwrap();
    let (ca, cert, key) = test_ca("St Mary test CA");
    let (other_ca, _, _) = test_ca("Someone else's CA");
    let (cert_path, key_path) = (certs.path().join("am.pem"), certs.path().join("am.key"));
    std::fs::write(&cert_path, cert).unwrap();
    std::fs::write(&key_path, key).unwrap();
    let manager = Manager::start_with(0, "", "AA", &["--tls-cert", cert_path.to_str().unwrap(), "--tls-key", key_path.to_str().unwrap()]);
    let data = tempfile::tempdir().unwrap();
    let bin = PathBuf::from(HUB_BIN);
    let devices_file = provision(&bin, data.path(), 1);
    let hub = HubProcess::start(&bin, data.path(), &["--absence-delay-secs", "1"]);
    let http = hub.listening.http;
    let admin = login_when_serving(http, hub::demo::ADMIN_EMAIL, hub::demo::ADMIN_PASSWORD).await;
    let settings = |tls: bool, ca_pem: &str| {
        json!({ "enabled": true, "host": "127.0.0.1", "port": manager.port, "sendingApplication": "PMAT_WARD3",
            "sendingFacility": "ST_MARY", "receivingApplication": "AM", "receivingFacility": "", "kinds": ["Missing"],
            "tls": tls, "caPem": ca_pem })
    };

    // TLS needs a readable CA: text that is no certificate is refused by the hub.
    for bad in ["", "my CA", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"] {
        let refused = call(http, &admin, "PUT", "/api/alarmManager", Some(settings(true, bad))).await;
        assert_eq!(
            (refused.status, refused.json::<Value>()["error"].as_str()),
            (400, Some("invalidAlarmManager")),
            "{bad:?}: {}",
            refused.body
        );
    }

    // Another CA: the handshake fails, the link is down with the reason, nothing is delivered.
    let set = call(http, &admin, "PUT", "/api/alarmManager", Some(settings(true, &other_ca))).await;
    assert_eq!(set.status, 200, "{}", set.body);
    assert_eq!(set.json::<Value>()["destination"], format!("mllps://127.0.0.1:{}", manager.port));
    let mats = run_mats(&devices_file, &hub, 3 * SECOND);
    let deadline = Instant::now() + Duration::from_secs(90);
    let down = loop {
        let view: Value = call(http, &admin, "GET", "/api/alarmManager", None).await.json();
        if view["link"]["state"] == "down" && view["pending"].as_u64() > Some(0) {
            break view;
        }
        assert!(Instant::now() < deadline, "the link never went down: {view}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let why = down["link"]["lastError"].as_str().unwrap();
    assert!(why.contains("TLS") && why.to_lowercase().contains("certificate"), "{why}");
    assert!(manager.reports().iter().all(|r| r.get("tlsError").is_some()), "only failed handshakes: {:#?}", manager.reports());
    // The IT team's monitoring sees it too: the hub is degraded while its alarms cannot reach the ward.
    let unreachable = health_until(http, |problems| problems.contains(&json!("alarmManagerUnreachable"))).await;
    assert!(unreachable["alarmReports"]["linksDown"] == 1 && unreachable["alarmReports"]["pending"].as_u64() > Some(0), "{unreachable}");

    // The company's CA: the report arrives over TLS, valid.
    let set = call(http, &admin, "PUT", "/api/alarmManager", Some(settings(true, &ca))).await;
    assert_eq!(set.status, 200, "{}", set.body);
    assert_eq!(set.json::<Value>()["settings"], settings(true, &ca));
    let reports = manager.wait_for(Duration::from_secs(90), "the start report over TLS", |r| r.iter().any(|r| r["phase"] == "start")).await;
    let delivered: Vec<&Value> = reports.iter().filter(|r| r.get("tlsError").is_none()).collect();
    assert!(delivered.iter().all(|r| r["problems"] == json!([])), "{delivered:#?}");
    // The manager prints a report before it answers: the hub marks the link up on the ACK.
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let view: Value = call(http, &admin, "GET", "/api/alarmManager", None).await.json();
        if view["link"]["state"] == "up" && view["pending"] == 0 {
            break;
        }
        assert!(Instant::now() < deadline, "the link is not up after a delivery over TLS: {view}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    health_until(http, |problems| !problems.contains(&json!("alarmManagerUnreachable"))).await;
    let _ = mats.stop.send(true);
}

fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64
}

/// The queue and the settings on a real in-memory SurrealDB (storage's `alarm_outbox` repository).
mod store {
    use storage::model::NewAuditEntry;
    use storage::repo::{AlarmManagerSettings, AlarmStatus, NewOutboxEntry, OutboxCounts};
    use storage::{Store, StoreError};

    /// An administrator's audit entry for `action` in `company`.
    fn audit(company: &str, action: &str) -> NewAuditEntry {
        NewAuditEntry {
            company_id: company.into(),
            actor_user_id: "admin-1".into(),
            actor_email: "admin@a.example".into(),
            action: action.into(),
            entity_type: "company".into(),
            entity_id: company.into(),
            summary: action.into(),
        }
    }

    /// The company's audit actions, oldest first.
    async fn audited(store: &Store, company: &str) -> Vec<String> {
        let page = store.company(company).audit().page(0, 100).await.unwrap();
        page.entries.into_iter().rev().map(|e| e.action).collect()
    }

    async fn two_companies() -> (Store, String, String) {
        let store = Store::memory().await.unwrap();
        let a = store.hub_wide().companies().create("Clinic A", "1 Main St").await.unwrap();
        let b = store.hub_wide().companies().create("Clinic B", "2 Main St").await.unwrap();
        (store, a, b)
    }

    fn entry(id: &str, created_ms: i64) -> NewOutboxEntry {
        NewOutboxEntry { control_id: id.into(), alarm: "dev-1".into(), phase: "start".into(), message: format!("MSH|{id}"), created_ms }
    }

    #[tokio::test]
    async fn a_report_is_queued_once_and_leaves_pending_only_by_an_answer() {
        let (store, a, _) = two_companies().await;
        let outbox = store.company(&a).alarm_outbox();
        assert!(outbox.enqueue(&entry("m1", 1_000)).await.unwrap());
        assert!(!outbox.enqueue(&entry("m1", 2_000)).await.unwrap(), "the same control id again is a no-op");
        assert!(outbox.enqueue(&NewOutboxEntry { alarm: "dev-2".into(), ..entry("m2", 1_500) }).await.unwrap());
        let hub = store.hub_wide().alarm_outbox();
        let due: Vec<String> = hub.due(1_500, 10).await.unwrap().into_iter().map(|e| e.control_id).collect();
        assert_eq!(due, ["m1", "m2"], "oldest first");
        assert_eq!(hub.due(1_200, 10).await.unwrap().len(), 1);

        hub.mark_retry("m1", 5_000, "AE: busy").await.unwrap();
        assert_eq!(hub.due(4_999, 10).await.unwrap().iter().map(|e| e.control_id.as_str()).collect::<Vec<_>>(), ["m2"]);
        assert_eq!(hub.next_due_ms().await.unwrap(), Some(1_500));
        hub.mark_delivered("m2", 2_000).await.unwrap();
        hub.mark_dead("m1", "AR: unknown").await.unwrap();
        assert!(hub.due(i64::MAX, 10).await.unwrap().is_empty());
        assert_eq!(outbox.counts().await.unwrap(), OutboxCounts { pending: 0, dead: 1 });
        let dead = outbox.dead_letters().await.unwrap();
        assert_eq!((dead[0].control_id.as_str(), dead[0].attempts, dead[0].last_error.as_deref()), ("m1", 2, Some("AR: unknown")));

        outbox.resend("m1", 9_000, &audit(&a, "alarmManager.resend")).await.unwrap();
        let again = hub.due(9_000, 10).await.unwrap();
        assert_eq!((again[0].control_id.as_str(), again[0].attempts, again[0].state.as_str()), ("m1", 0, "pending"));
        assert!(
            matches!(outbox.resend("m2", 9_000, &audit(&a, "alarmManager.resend")).await, Err(StoreError::NotFound)),
            "only a dead letter is resent"
        );
        assert_eq!(audited(&store, &a).await, ["alarmManager.resend"], "the resend with its entry, the refused one without");
        let mut started = hub.started_not_ended().await.unwrap();
        started.sort();
        assert_eq!(started, [(a.clone(), "dev-1".to_owned()), (a.clone(), "dev-2".to_owned())]);
        let end = NewOutboxEntry { control_id: "m3".into(), phase: "end".into(), ..entry("m3", 9_500) };
        outbox.enqueue(&end).await.unwrap();
        assert_eq!(hub.started_not_ended().await.unwrap(), [(a.clone(), "dev-2".to_owned())], "dev-1 has its end");
        let of_alarm = outbox.of_alarm("dev-1").await.unwrap();
        assert_eq!(
            of_alarm.iter().map(|e| (e.control_id.as_str(), e.state.as_str())).collect::<Vec<_>>(),
            [("m1", "pending"), ("m3", "pending")]
        );
    }

    #[tokio::test]
    async fn a_managers_status_is_stored_once_and_read_only_by_its_company() {
        let (store, a, b) = two_companies().await;
        let accepted = AlarmStatus {
            alarm: "dev-1".into(),
            device: "dev".into(),
            status: "accepted".into(),
            who: Some("Grace Okafor".into()),
            at_ms: Some(5),
            received_ms: 10,
            control_id: "st-1".into(),
        };
        let mine = store.company(&a).alarm_statuses();
        assert!(mine.add(&accepted).await.unwrap());
        assert!(!mine.add(&accepted).await.unwrap(), "the same report again is stored once");
        let escalated = AlarmStatus {
            status: "escalated".into(),
            who: None,
            at_ms: None,
            received_ms: 20,
            control_id: "st-2".into(),
            ..accepted.clone()
        };
        assert!(mine.add(&escalated).await.unwrap());
        assert_eq!(mine.of_devices(&["dev".into()]).await.unwrap(), [accepted.clone(), escalated], "oldest first");
        assert!(mine.of_devices(&["other".into()]).await.unwrap().is_empty());
        assert!(store.company(&b).alarm_statuses().of_devices(&["dev".into()]).await.unwrap().is_empty(), "another company's");
        let snoozed = AlarmStatus { status: "snoozed".into(), control_id: "st-3".into(), ..accepted.clone() };
        assert!(mine.add(&snoozed).await.is_err(), "the schema keeps the statuses PCD-05 knows");

        // A manager names only the alarm: the company is the one whose report it was.
        let hub = store.hub_wide().alarm_outbox();
        assert_eq!(hub.company_of_alarm("dev-1").await.unwrap(), None, "never reported");
        store.company(&a).alarm_outbox().enqueue(&entry("dev-1-start", 1)).await.unwrap();
        assert_eq!(hub.company_of_alarm("dev-1").await.unwrap(), Some(a.clone()));
    }

    #[tokio::test]
    async fn a_company_sees_and_resends_only_its_own_reports_and_settings() {
        let (store, a, b) = two_companies().await;
        store.company(&a).alarm_outbox().enqueue(&entry("a1", 1)).await.unwrap();
        store.hub_wide().alarm_outbox().mark_dead("a1", "AR").await.unwrap();
        let other = store.company(&b).alarm_outbox();
        assert!(other.dead_letters().await.unwrap().is_empty());
        assert!(matches!(other.resend("a1", 2, &audit(&b, "alarmManager.resend")).await, Err(StoreError::NotFound)));
        assert!(audited(&store, &b).await.is_empty(), "a refused resend writes no entry");
        assert_eq!(other.counts().await.unwrap(), OutboxCounts::default());
        assert!(other.of_alarm("dev-1").await.unwrap().is_empty());

        let settings = AlarmManagerSettings {
            enabled: true,
            host: "am.example".into(),
            port: 2575,
            sending_application: "PMAT_HUB".into(),
            sending_facility: "Ward 3".into(),
            receiving_application: "AM".into(),
            receiving_facility: "".into(),
            kinds: vec!["Missing".into()],
            tls: false,
            ca_pem: "".into(),
        };
        let mine = store.company(&a).alarm_outbox();
        assert_eq!(mine.settings().await.unwrap(), None);
        mine.set_settings(&settings, &audit(&a, "alarmManager.update")).await.unwrap();
        mine.set_settings(&AlarmManagerSettings { port: 2576, ..settings.clone() }, &audit(&a, "alarmManager.update")).await.unwrap();
        assert_eq!(audited(&store, &a).await, ["alarmManager.update", "alarmManager.update"], "each change with its entry");
        // Both or neither: a change the schema refuses writes no entry, an entry it refuses no change.
        let refused = AlarmManagerSettings { port: 70_000, ..settings.clone() };
        assert!(mine.set_settings(&refused, &audit(&a, "alarmManager.update")).await.is_err());
        assert_eq!(audited(&store, &a).await.len(), 2, "no entry for a refused change");
        assert!(mine.set_settings(&AlarmManagerSettings { port: 2577, ..settings.clone() }, &audit(&a, "")).await.is_err());
        assert_eq!(mine.settings().await.unwrap().map(|s| s.port), Some(2576), "no change without its entry");
        assert_eq!(mine.settings().await.unwrap().map(|s| s.port), Some(2576));
        assert_eq!(store.hub_wide().alarm_outbox().settings(&a).await.unwrap().map(|s| s.host), Some("am.example".into()));
        assert_eq!(other.settings().await.unwrap(), None);
        assert_eq!(store.hub_wide().alarm_outbox().settings(&b).await.unwrap(), None);
    }

    /// PCD-05: a manager that sends one status report several times at once (its retry before the
    /// first ACK arrived), and several statuses of one alarm at once, on the embedded engine the hub
    /// runs on: every store answers (no conflict and no "already exists" reaches the listener, which
    /// would answer AE), the same report is stored once, and every distinct report is kept.
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn simultaneous_alarm_status_reports_are_stored_once_each_without_errors() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_dir(dir.path()).await.unwrap();
        let company = store.hub_wide().companies().create("Ward 3", "").await.unwrap();
        let status = |control_id: &str, status: &str| AlarmStatus {
            alarm: "dev1-7".into(),
            device: "dev1".into(),
            status: status.into(),
            who: Some("Ana Ruiz".into()),
            at_ms: Some(1_000),
            received_ms: 2_000,
            control_id: control_id.into(),
        };
        for round in 0..4 {
            let same = status(&format!("st-{round}"), "accepted");
            let writes = (0..12).map(|i| {
                let (store, company) = (store.clone(), company.clone());
                // Half of them the same report, half distinct reports of the same alarm.
                let report = if i % 2 == 0 { same.clone() } else { status(&format!("st-{round}-{i}"), "delivered") };
                tokio::spawn(async move { store.company(&company).alarm_statuses().add(&report).await })
            });
            let results: Vec<_> = futures_util::future::join_all(writes).await.into_iter().map(|joined| joined.unwrap()).collect();
            let stored_same = results.iter().enumerate().filter(|(i, r)| i % 2 == 0 && matches!(r, Ok(true))).count();
            assert!(results.iter().all(Result::is_ok), "round {round}: {results:?}");
            assert_eq!(stored_same, 1, "round {round}: the repeated report is stored once: {results:?}");
            assert!(results.iter().enumerate().all(|(i, r)| i % 2 == 0 || matches!(r, Ok(true))), "round {round}: {results:?}");
        }
        let kept = store.company(&company).alarm_statuses().of_devices(&["dev1".into()]).await.unwrap();
        assert_eq!(kept.len(), 4 * (1 + 6), "one per distinct report");
    }
}
