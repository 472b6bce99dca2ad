//! Every hub sees every device (issue 25 item 4, docs/scale-out.md "Events and commands"):
//! three hubs in this process on one real `nats-server` and one shared store, a simulated mat
//! connected to hub A over QUIC, browsers on B and C.
#![allow(clippy::unwrap_used)]

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use common::nats::NatsServer;
use common::*;
use futures_util::StreamExt;
use hub::app::RunningHub;
use hub::cluster::NodeName;
use serde_json::{Value, json};
use simulator::synth::BedScript;
use simulator::{Rate, Scenario};

const SECOND: Duration = Duration::from_secs(1);

/// Three hubs, `hub-a`, `hub-b`, `hub-c`, on one NATS server and one store with a company whose
/// devices are `types`.
struct Fleet {
    nats: NatsServer,
    store: storage::Store,
    hubs: Vec<RunningHub>,
    company: String,
    email: String,
    devices: Vec<SeededDevice>,
    _data: Vec<tempfile::TempDir>,
}

impl Fleet {
    async fn start(types: &[&str], absence_delay_secs: u64) -> Fleet {
        let store = storage::Store::memory().await.unwrap();
        let (company, email, devices) = seed_company(&store, "F", types).await;
        Fleet::start_on(store, company, email, devices, absence_delay_secs).await
    }

    /// The three hubs on a store already seeded with `company`, `email` and `devices`.
    async fn start_on(store: storage::Store, company: String, email: String, devices: Vec<SeededDevice>, absence_delay_secs: u64) -> Fleet {
        let nats = NatsServer::start().await;
        let mut hubs = Vec::new();
        let mut data = Vec::new();
        for node in ["hub-a", "hub-b", "hub-c"] {
            let dir = tempfile::tempdir().unwrap();
            let mut config = config(dir.path());
            config.nats = Some(nats.url());
            config.node = Some(NodeName::parse(node).unwrap());
            config.absence_delay_secs = absence_delay_secs;
            hubs.push(hub::app::start_with_store(config, store.clone()).await.unwrap());
            data.push(dir);
        }
        Fleet { nats, store, hubs, company, email, devices, _data: data }
    }

    fn http(&self, hub: usize) -> SocketAddr {
        self.hubs[hub].http_addr
    }

    /// Runs a simulated device connected to hub `hub` until the sender is dropped or set.
    fn run_device(
        &self,
        hub: usize,
        device: &SeededDevice,
        adjust: impl FnOnce(&mut simulator::DeviceSpec),
    ) -> tokio::sync::watch::Sender<bool> {
        let mut spec = simulator::DeviceSpec::new(device.serial.clone(), device.secret.clone(), &device.device_type).unwrap();
        adjust(&mut spec);
        let transport = simulator::Transport::Quic {
            addr: self.hubs[hub].quic_addr,
            server_name: "localhost".into(),
            trust: simulator::Trust::PemFile(self.hubs[hub].cert_path.clone()),
        };
        let (stop, shutdown) = tokio::sync::watch::channel(false);
        let stats = std::sync::Arc::new(simulator::SimStats::default());
        tokio::spawn(async move {
            let _ = simulator::run_device(spec, transport, stats, shutdown).await;
        });
        stop
    }

    async fn stop(self) {
        for hub in self.hubs {
            hub.shutdown().await;
        }
    }
}

/// A browser on `addr` that joined its company.
async fn company_browser(addr: SocketAddr, email: &str) -> Browser {
    let token = common::login(addr, email, PASSWORD).await;
    let mut browser = Browser::authenticated(addr, &token).await;
    browser.send("joinCompany", json!({})).await;
    browser
}

/// Waits for a `deviceConf` of `device` that satisfies `check`.
async fn wait_for_status(browser: &mut Browser, device: &str, limit: Duration, check: impl Fn(&rmpv::Value) -> bool) -> bool {
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let Some(event) = browser.wait_for("deviceConf", left).await else { return false };
        if field(&event.data, "deviceId").as_str() == Some(device) && check(&event.data) {
            return true;
        }
    }
}

/// The board's status of a device over REST on one hub.
async fn rest_status(addr: SocketAddr, token: &str, device: &str) -> Value {
    let response = request(addr, "GET", &format!("/api/deviceConfiguration/{device}"), Some(token), None).await;
    assert_eq!(response.status, 200, "{}", response.body);
    response.json()
}

fn unix_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis() as u64
}

/// The `q` quantile of sorted samples.
fn quantile(sorted: &[u64], q: f64) -> u64 {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

/// A viewer on hub C sees the status of a mat connected to hub A, starts its live stream (a
/// command that goes to A by request/reply) and sees its maps; REST on B and C answers A's
/// status and latest map; maps stop crossing once nobody on C watches.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_viewer_on_hub_c_sees_the_status_and_live_map_of_a_mat_on_hub_a() {
    let fleet = Fleet::start(&["Mattress Mat IoT"], 30).await;
    let mat = fleet.devices[0].clone();
    let mut on_c = company_browser(fleet.http(2), &fleet.email).await;
    assert!(wait_for_status(&mut on_c, &mat.id, 5 * SECOND, |s| field(s, "deviceFunctional").as_bool() == Some(false)).await);

    let _device = fleet.run_device(0, &mat, |spec| spec.rate = Rate::Fixed { hz: 10.0 });
    assert!(
        wait_for_status(&mut on_c, &mat.id, 15 * SECOND, |s| field(s, "deviceFunctional").as_bool() == Some(true)).await,
        "C's browser saw the mat connect to A"
    );
    let token_b = common::login(fleet.http(1), &fleet.email, PASSWORD).await;
    let on_b = rest_status(fleet.http(1), &token_b, &mat.id).await;
    assert_eq!(on_b["deviceFunctional"], json!(true), "B's live board answers for A's mat: {on_b}");

    // Live maps: C watches and starts the stream; the command runs on A, the maps come back.
    on_c.send("joinUser", json!({ "deviceId": mat.id })).await;
    on_c.send("startStreaming", json!({ "deviceId": mat.id, "seconds": 60 })).await;
    let mut maps = 0;
    let deadline = tokio::time::Instant::now() + 20 * SECOND;
    while maps < 5 {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let event = on_c.next_event(left).await.unwrap_or_else(|| panic!("{maps} maps reached C"));
        assert_ne!(event.event, "error", "{event:?}");
        if event.event == "pressureMap_SAToFront" && field(&event.data, "deviceId").as_str() == Some(mat.id.as_str()) {
            assert_eq!(field(&event.data, "rows").as_u64(), Some(48));
            maps += 1;
        }
    }
    // The map is on C's board too (REST's latest pressure map).
    let token_c = common::login(fleet.http(2), &fleet.email, PASSWORD).await;
    let log: Value =
        request(fleet.http(2), "GET", &format!("/api/standard/pressureMapLogs/{}", mat.serial), Some(&token_c), None).await.json();
    assert!(log["pressureMap"].is_array(), "C's board holds A's latest map: {log}");
    // C's browser asks A how long the stream has left, through NATS.
    on_c.send("streamingRemaining", json!({ "deviceId": mat.id })).await;
    let remaining = on_c.wait_for("streamingRemaining", 5 * SECOND).await.expect("an answer from A");
    assert!(field(&remaining.data, "seconds").as_u64().is_some_and(|s| s > 0), "{remaining:?}");

    // Nobody on C watches any more: within the watch's life the maps stop crossing.
    on_c.send("leaveUser", json!({ "deviceId": mat.id })).await;
    let observer = async_nats::connect(fleet.nats.url()).await.unwrap();
    let mut live = observer.subscribe(format!("pmat.device.{}.live", mat.id)).await.unwrap();
    observer.flush().await.unwrap();
    let mut while_watched = 0;
    let expired = tokio::time::Instant::now() + hub::cluster::live_watch::TTL + SECOND;
    while let Ok(Some(_)) = tokio::time::timeout_at(expired, live.next()).await {
        while_watched += 1;
    }
    assert!(while_watched > 0, "maps crossed while C's watch was fresh");
    let mut after = 0;
    while tokio::time::timeout(Duration::from_millis(1500), live.next()).await.is_ok_and(|m| m.is_some()) {
        after += 1;
    }
    assert_eq!(after, 0, "maps still published on NATS after the last watch expired");
    fleet.stop().await;
}

/// An alarm raised on A reaches browsers on B and C; a nurse on B attends it (the command goes
/// to A); it clears on A's board, B's and C's; a turn recorded on C is recorded by A. Every status and event crosses NATS once, from A
/// (no echo: B and C never publish A's facts).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_alarm_raised_on_a_is_attended_from_b_and_clears_everywhere_without_echo() {
    let fleet = Fleet::start(&["Mattress Mat IoT"], 2).await;
    let mat = fleet.devices[0].clone();
    let observer = async_nats::connect(fleet.nats.url()).await.unwrap();
    let mut statuses = observer.subscribe(format!("pmat.company.{}.status", fleet.company)).await.unwrap();
    let mut events = observer.subscribe(format!("pmat.company.{}.events", fleet.company)).await.unwrap();
    observer.flush().await.unwrap();
    let mut on_b = company_browser(fleet.http(1), &fleet.email).await;
    let mut on_c = company_browser(fleet.http(2), &fleet.email).await;

    // In bed, then out of it: Missing after the 2 s absence delay, with its alarm.
    let _device = fleet.run_device(0, &mat, |spec| {
        spec.scenario = Scenario::BedOccupant(BedScript {
            empty: 30 * SECOND,
            lie_down: SECOND,
            supine: 2 * SECOND,
            turn: SECOND,
            left_lateral: SECOND,
            right_lateral: SECOND,
            prone: SECOND,
            leave: SECOND,
        });
        spec.rate = Rate::Fixed { hz: 10.0 };
        spec.time_offset = 29 * SECOND;
    });
    let alarm_b = on_b.wait_for("alarmOn", 40 * SECOND).await.expect("B's browser hears A's alarm");
    assert_eq!(field(&alarm_b.data, "deviceId").as_str(), Some(mat.id.as_str()));
    let alarm_c = on_c.wait_for("alarmOn", 10 * SECOND).await.expect("C's browser hears A's alarm");
    assert_eq!(field(&alarm_c.data, "alarmId"), field(&alarm_b.data, "alarmId"));
    let tokens: Vec<String> = futures_util::future::join_all((0..3).map(|i| common::login(fleet.http(i), &fleet.email, PASSWORD))).await;
    for (i, token) in tokens.iter().enumerate() {
        let pending =
            eventually_async(5 * SECOND, || async { rest_status(fleet.http(i), token, &mat.id).await["unattendedAlarm"] == json!(true) })
                .await;
        assert!(pending, "hub {i}'s board shows the alarm pending");
    }

    on_b.send("attendAlarm", json!({ "deviceId": mat.id, "alarmId": field(&alarm_b.data, "alarmId").as_u64() })).await;
    let attended = on_c.wait_for("alarmAttended", 10 * SECOND).await.expect("C hears the attendance done on A for B");
    assert_eq!(field(&attended.data, "alarmId"), field(&alarm_b.data, "alarmId"));
    for (i, token) in tokens.iter().enumerate() {
        let cleared =
            eventually_async(5 * SECOND, || async { rest_status(fleet.http(i), token, &mat.id).await["unattendedAlarm"] == json!(false) })
                .await;
        assert!(cleared, "hub {i}'s board shows the alarm attended");
    }

    // A turn recorded through C's REST API runs on A's actor and is stored before C answers.
    let turns = format!("/api/device/{}/turns", mat.id);
    let turned = request(fleet.http(2), "POST", &turns, Some(&tokens[2]), Some(r#"{"position": "Left Lateral"}"#)).await;
    assert_eq!(turned.status, 200, "{}", turned.body);
    let log: Value = request(fleet.http(2), "GET", &turns, Some(&tokens[2]), None).await.json();
    assert_eq!(log.as_array().map(Vec::len), Some(1), "the turn A recorded is in the shared log when C answers: {log}");

    // No echo: every message on the company's subjects came from A, and the traffic stops when
    // A says nothing new (a loop would go on). The mat's bed stays empty from here.
    let _ = on_b.send("leaveUser", json!({ "deviceId": mat.id })).await;
    tokio::time::sleep(SECOND).await;
    let mut origins = Vec::new();
    let mut kinds = Vec::new();
    while let Ok(Some(message)) = tokio::time::timeout(Duration::from_millis(300), statuses.next()).await {
        origins.push(rmp_serde::from_slice::<hub::cluster::events_wire::StatusMessage>(&message.payload).unwrap().origin);
    }
    while let Ok(Some(message)) = tokio::time::timeout(Duration::from_millis(300), events.next()).await {
        let event = rmp_serde::from_slice::<hub::cluster::events_wire::EventMessage>(&message.payload).unwrap();
        let named: Incoming = rmp_serde::from_slice(&event.browser_message).unwrap();
        origins.push(event.origin);
        kinds.push(named.event);
    }
    assert!(!origins.is_empty());
    assert!(origins.iter().all(|o| o == "hub-a"), "only the owner publishes its facts: {origins:?}");
    assert_eq!(kinds.iter().filter(|k| *k == "alarmOn").count(), 1, "the alarm crossed once: {kinds:?}");
    assert_eq!(kinds.iter().filter(|k| *k == "alarmAttended").count(), 1, "the attendance crossed once: {kinds:?}");
    // Quiet now: nothing more on the status subject for two seconds.
    let quiet = tokio::time::timeout(2 * SECOND, statuses.next()).await;
    assert!(quiet.is_err(), "statuses keep flowing with nothing new to say: {:?}", quiet.map(|m| m.map(|m| m.subject)));
    fleet.stop().await;
}

/// REST's readings of a device's actor — the tare and the administrator's "zero the empty mat",
/// the repositioning clock, the ward board's clocks and postures — are the owner's on any hub
/// (issue 25): B zeroes A's empty mat (only A's actor has its frames) and C reads the clock and
/// posture of the patient lying on it (C's own actor of the mat would say nobody lies there).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn rest_readings_of_a_mat_on_hub_a_are_answered_by_a_on_every_hub() {
    let fleet = Fleet::start(&["Mattress Mat IoT"], 30).await;
    let mat = fleet.devices[0].clone();
    let admin_email = "admin-f@example.com";
    fleet.store.hub_wide().accounts().create(admin_email, PASSWORD, 1, &fleet.company).await.unwrap();
    let _device = fleet.run_device(0, &mat, |spec| {
        spec.scenario =
            Scenario::BedOccupant(BedScript { empty: 6 * SECOND, lie_down: SECOND, supine: 120 * SECOND, ..BedScript::default() });
        spec.rate = Rate::Fixed { hz: 10.0 };
        spec.time_offset = Duration::ZERO;
    });
    let (admin_b, nurse_c) =
        tokio::join!(common::login(fleet.http(1), admin_email, PASSWORD), common::login(fleet.http(2), &fleet.email, PASSWORD));
    let tare = format!("/api/device/{}/tare", mat.id);
    let zeroed =
        eventually_async(6 * SECOND, || async { request(fleet.http(1), "POST", &tare, Some(&admin_b), None).await.status == 200 }).await;
    assert!(zeroed, "B zeroed A's empty mat: {}", request(fleet.http(1), "POST", &tare, Some(&admin_b), None).await.body);
    let read: Value = request(fleet.http(2), "GET", &tare, Some(&nurse_c), None).await.json();
    assert_eq!((read["set"].as_bool(), read["source"].as_str()), (Some(true), Some("zeroed")), "C reads A's tare: {read}");

    // The patient lies down on A's mat: C's REST reads A's clock running and A's posture.
    let clock = format!("/api/device/{}/repositioning", mat.id);
    let running = eventually_async(15 * SECOND, || async {
        request(fleet.http(2), "GET", &clock, Some(&nurse_c), None).await.json::<Value>()["dueInSeconds"].is_u64()
    })
    .await;
    assert!(running, "C reads A's running clock: {}", request(fleet.http(2), "GET", &clock, Some(&nurse_c), None).await.body);
    let on_the_board = eventually_async(10 * SECOND, || async {
        let board: Value = request(fleet.http(2), "GET", "/api/wardBoard", Some(&nurse_c), None).await.json();
        board.as_array().is_some_and(|tiles| {
            tiles.iter().any(|t| t["deviceId"]["$oid"] == json!(mat.id) && t["dueInSeconds"].is_u64() && t["posture"].is_string())
        })
    })
    .await;
    assert!(
        on_the_board,
        "C's ward board shows A's clock and posture: {}",
        request(fleet.http(2), "GET", "/api/wardBoard", Some(&nurse_c), None).await.body
    );
    fleet.stop().await;
}

/// A Sensing Horse whose sides are on different hubs (left on A, right on B): each hub's set
/// actor hears both sides (its own through its actor, the other's through the mirror), so the
/// horse is functional — both sides connected — on A, B and C alike, and offline everywhere when
/// one side leaves (issue 25, docs/scale-out.md "Room sets and Sensing Horses").
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_horse_with_its_sides_on_two_hubs_has_one_status_on_every_hub() {
    let store = storage::Store::memory().await.unwrap();
    let (company, email, horse_id, sides) = seed_horse(&store, "H").await;
    let fleet = Fleet::start_on(store, company.clone(), email, sides.clone(), 30).await;
    let horse_functional = |hub: usize| fleet.hubs[hub].board.status(&company, &horse_id).is_some_and(|s| s.device_functional);

    let _left = fleet.run_device(0, &sides[0], |spec| spec.rate = Rate::Fixed { hz: 5.0 });
    let right = fleet.run_device(1, &sides[1], |spec| spec.rate = Rate::Fixed { hz: 5.0 });
    for hub in 0..3 {
        assert!(
            eventually(15 * SECOND, || horse_functional(hub)).await,
            "hub {hub} shows the horse with both sides connected: {:?}",
            fleet.hubs[hub].board.status(&company, &horse_id)
        );
    }
    let sides_on_c = fleet.hubs[2].board.status(&company, &horse_id).unwrap().sides;
    assert_eq!(sides_on_c.len(), 2, "C shows both sides: {sides_on_c:?}");

    // The right side leaves B: the horse is not functional on any hub.
    let _ = right.send(true);
    for hub in 0..3 {
        assert!(
            eventually(15 * SECOND, || !horse_functional(hub)).await,
            "hub {hub} shows the horse without its right side: {:?}",
            fleet.hubs[hub].board.status(&company, &horse_id)
        );
    }
    fleet.stop().await;
}

/// An alarm manager's status (PCD-05 `alarmStatus`) received on B about a mat A owns reaches the
/// company's browsers on A and C as well as B's, once each.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_alarm_managers_status_received_on_b_reaches_every_hubs_browsers() {
    let fleet = Fleet::start(&["Mattress Mat IoT"], 30).await;
    let mat = fleet.devices[0].clone();
    let mut browsers = Vec::new();
    for hub in 0..3 {
        browsers.push(company_browser(fleet.http(hub), &fleet.email).await);
    }
    let _device = fleet.run_device(0, &mat, |spec| spec.rate = Rate::Fixed { hz: 5.0 });
    assert!(wait_for_status(&mut browsers[1], &mat.id, 15 * SECOND, |s| field(s, "deviceFunctional").as_bool() == Some(true)).await);

    // What the status listener does with a stored report (`status_listener::receive`).
    let event = actors::browser::AlarmStatusEvent {
        device_id: mat.id.clone(),
        alarm: format!("{}-1", mat.id),
        status: "accepted".into(),
        who: Some("Nurse Joy".into()),
        at_ms: unix_ms() as i64,
    };
    fleet.hubs[1]
        .bus
        .company(&fleet.company)
        .broadcast_received(&mat.id, actors::browser::encode_event(actors::browser::events::ALARM_STATUS, event));
    for (hub, browser) in browsers.iter_mut().enumerate() {
        let heard = browser.wait_for("alarmStatus", 5 * SECOND).await.unwrap_or_else(|| panic!("hub {hub}'s browser hears the status"));
        assert_eq!(field(&heard.data, "deviceId").as_str(), Some(mat.id.as_str()));
        assert!(browser.wait_for("alarmStatus", SECOND).await.is_none(), "hub {hub}'s browser heard it once");
    }
    fleet.stop().await;
}

/// A device whose owner no longer answers (its hub hangs: it still subscribes, it never replies):
/// the browser's command and the REST attendance answer `deviceUnavailable` (503) after the
/// command timeout, not the hub's own actor. A device connected nowhere is refused here as on a
/// single hub (`connectDevice`).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_command_to_a_device_whose_owner_is_gone_answers_unavailable() {
    let fleet = Fleet::start(&["Mattress Mat IoT"], 30).await;
    let mat = fleet.devices[0].clone();
    let mut on_b = company_browser(fleet.http(1), &fleet.email).await;

    // Connected nowhere: nobody answers on its subject, hub B refuses it itself.
    on_b.send("startStreaming", json!({ "deviceId": mat.id, "seconds": 30 })).await;
    let refused = on_b.wait_for("error", 5 * SECOND).await.expect("a refusal");
    assert_eq!(field(&refused.data, "error").as_str(), Some("connectDevice"), "{refused:?}");

    // The mat connects to A; then A is gone and a hung process holds its subject (it
    // subscribes, as a frozen owner still would, and never replies).
    let device = fleet.run_device(0, &mat, |spec| spec.rate = Rate::Fixed { hz: 5.0 });
    assert!(wait_for_status(&mut on_b, &mat.id, 15 * SECOND, |s| field(s, "deviceFunctional").as_bool() == Some(true)).await);
    let _ = device.send(true);
    // The device has stopped (A saw its connection close) before A goes: a device still running
    // when A shuts down would fail over to B, and B would then rightly answer for it itself.
    assert!(wait_for_status(&mut on_b, &mat.id, 15 * SECOND, |s| field(s, "deviceFunctional").as_bool() == Some(false)).await);
    let mut fleet = fleet;
    fleet.hubs.remove(0).shutdown().await;
    let hung = async_nats::connect(fleet.nats.url()).await.unwrap();
    // A is gone when nobody answers on the device's subject any more.
    let gone = eventually_async(10 * SECOND, || async {
        let probe = hung.request(format!("pmat.device.{}.command", mat.id), "".into()).await;
        probe.is_err_and(|e| e.kind() == async_nats::client::RequestErrorKind::NoResponders)
    })
    .await;
    assert!(gone, "hub A still answers for the mat after its shutdown");
    let _silent = hung.subscribe(format!("pmat.device.{}.command", mat.id)).await.unwrap();
    hung.flush().await.unwrap();

    // Nothing of before is taken for the answer: events already queued are set aside.
    let mut before = Vec::new();
    while let Some(event) = on_b.wait_for("error", Duration::from_millis(300)).await {
        before.push(event);
    }
    if !before.is_empty() {
        eprintln!("errors queued before the command, set aside: {before:?}");
    }
    let started = Instant::now();
    on_b.send("startStreaming", json!({ "deviceId": mat.id, "seconds": 30 })).await;
    let refused = on_b.wait_for("error", 10 * SECOND).await.expect("a refusal");
    assert_eq!(field(&refused.data, "error").as_str(), Some("deviceUnavailable"), "{refused:?} after {:?}", started.elapsed());
    assert!(
        started.elapsed() >= hub::cluster::commands_route::COMMAND_TIMEOUT - Duration::from_millis(100),
        "answered by the timeout, not after {:?}: {refused:?} (errors before the command: {before:?})",
        started.elapsed()
    );

    // REST's commands and readings alike: the owner's answer or 503, never B's own idle actor.
    let token = common::login(fleet.http(1), &fleet.email, PASSWORD).await;
    let (alarms, clock, tare) =
        (format!("/api/iotAlarms/{}", mat.id), format!("/api/device/{}/repositioning", mat.id), format!("/api/device/{}/tare", mat.id));
    let started = Instant::now();
    let answers = futures_util::future::join_all(
        [("PUT", &alarms), ("GET", &clock), ("GET", &tare)].map(|(method, path)| request(fleet.http(1), method, path, Some(&token), None)),
    )
    .await;
    for answer in answers {
        assert_eq!((answer.status, answer.error_code()), (503, "deviceUnavailable".to_owned()), "{}", answer.body);
    }
    assert!(started.elapsed() < 2 * hub::cluster::commands_route::COMMAND_TIMEOUT, "asked at once, one timeout");
    fleet.stop().await;
}

/// Cross-hub device → browser latency (a mat on A at 20 Hz, viewers on A and on C), printed as
/// p50/p99; docs/performance.md quotes it.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn cross_hub_device_to_browser_latency() {
    let fleet = Fleet::start(&["Mattress Mat IoT"], 30).await;
    let mat = fleet.devices[0].clone();
    let mut on_a = company_browser(fleet.http(0), &fleet.email).await;
    let mut on_c = company_browser(fleet.http(2), &fleet.email).await;
    let _device = fleet.run_device(0, &mat, |spec| spec.rate = Rate::Fixed { hz: 20.0 });
    assert!(wait_for_status(&mut on_c, &mat.id, 15 * SECOND, |s| field(s, "deviceFunctional").as_bool() == Some(true)).await);
    on_a.send("joinUser", json!({ "deviceId": mat.id })).await;
    on_c.send("joinUser", json!({ "deviceId": mat.id })).await;
    on_c.send("startStreaming", json!({ "deviceId": mat.id, "seconds": 120 })).await;

    let collect = |mut browser: Browser, device: String| async move {
        let mut device_to_browser = Vec::new();
        let mut hub_to_browser = Vec::new();
        let deadline = tokio::time::Instant::now() + 15 * SECOND;
        while device_to_browser.len() < 200 {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let Some(event) = browser.next_event(left).await else { break };
            if event.event != "pressureMap_SAToFront" || field(&event.data, "deviceId").as_str() != Some(device.as_str()) {
                continue;
            }
            let now = unix_ms();
            let (Some(device_ms), Some(hub_ms)) = (field(&event.data, "deviceTimeMs").as_u64(), field(&event.data, "hubTimeMs").as_u64())
            else {
                continue;
            };
            device_to_browser.push(now.saturating_sub(device_ms));
            hub_to_browser.push(now.saturating_sub(hub_ms));
        }
        device_to_browser.sort_unstable();
        hub_to_browser.sort_unstable();
        (device_to_browser, hub_to_browser)
    };
    let ((local, local_hub), (remote, remote_hub)) = tokio::join!(collect(on_a, mat.id.clone()), collect(on_c, mat.id.clone()));
    assert!(local.len() >= 100 && remote.len() >= 100, "maps reached both viewers: {} on A, {} on C", local.len(), remote.len());
    println!(
        "cross-hub latency (debug build, 20 Hz, 48×48): device→browser on A p50 {} ms p99 {} ms; on C p50 {} ms p99 {} ms; \
         owner's actor→browser on A p50 {} ms p99 {} ms; on C p50 {} ms p99 {} ms ({} and {} maps)",
        quantile(&local, 0.5),
        quantile(&local, 0.99),
        quantile(&remote, 0.5),
        quantile(&remote, 0.99),
        quantile(&local_hub, 0.5),
        quantile(&local_hub, 0.99),
        quantile(&remote_hub, 0.5),
        quantile(&remote_hub, 0.99),
        local.len(),
        remote.len()
    );
    assert!(quantile(&remote, 0.99) < 1000, "a map crosses hubs in under a second (p99)");
    fleet.stop().await;
}

/// What a watched map costs its owner per frame: encoding it for NATS (on the actor's step) and
/// publishing it (on the publisher task), 48×48 one-byte cells, measured over 2,000 frames and
/// printed; docs/performance.md quotes it. A map nobody elsewhere watches costs one lookup.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn publishing_a_watched_map_costs() {
    use hub::cluster::events_wire::{LiveMessage, WirePicture, encode, live_subject};
    const FRAMES: u32 = 2_000;
    let nats = NatsServer::start().await;
    let client = async_nats::connect(nats.url()).await.unwrap();
    let mut map =
        actors::live_board::LiveMap::new(48, 48, mat_protocol::CellFormat::U8, (0..48 * 48).map(|i| (i % 251) as u8).collect()).unwrap();
    map.seq = 1;
    let picture = actors::fanout::LivePicture::Map(std::sync::Arc::new(map));
    let mut receiver = client.subscribe(live_subject("d1")).await.unwrap();
    client.flush().await.unwrap();

    let started = Instant::now();
    let mut encoded = Vec::with_capacity(FRAMES as usize);
    for _ in 0..FRAMES {
        let message =
            LiveMessage { origin: "hub-a".into(), company_id: "c1".into(), device_id: "d1".into(), picture: WirePicture::of(&picture) };
        encoded.push(encode(&message));
    }
    let encoding = started.elapsed() / FRAMES;
    let size = encoded[0].len();
    let started = Instant::now();
    for payload in encoded {
        client.publish(live_subject("d1"), payload).await.unwrap();
    }
    client.flush().await.unwrap();
    let publishing = started.elapsed() / FRAMES;
    let mut heard = 0;
    while heard < FRAMES {
        tokio::time::timeout(5 * SECOND, receiver.next()).await.expect("every frame arrives").unwrap();
        heard += 1;
    }
    println!("a watched map (debug build): encoding {encoding:?} per frame, publishing {publishing:?} per frame, {size} bytes on NATS");
    assert!(encoding < Duration::from_millis(2), "encoding a map for NATS takes {encoding:?}");
}

/// A hub that joins after a device connected elsewhere asks the others for their statuses
/// (`pmat.sync`): it shows the mat as its owner does at once, not offline until its next change.
#[tokio::test]
async fn a_hub_that_joins_later_sees_the_devices_already_connected_elsewhere() {
    let nats = NatsServer::start().await;
    let store = storage::Store::memory().await.unwrap();
    let (company, _email, devices) = seed_company(&store, "J", &["Mattress Mat IoT"]).await;
    let mat = &devices[0];
    let start = |node: &'static str, dir: &tempfile::TempDir| {
        let mut config = config(dir.path());
        config.nats = Some(nats.url());
        config.node = Some(NodeName::parse(node).unwrap());
        hub::app::start_with_store(config, store.clone())
    };
    let (dir_a, dir_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = start("hub-a", &dir_a).await.unwrap();
    let spec = simulator::DeviceSpec::new(mat.serial.clone(), mat.secret.clone(), &mat.device_type).unwrap();
    let transport = simulator::Transport::Quic {
        addr: a.quic_addr,
        server_name: "localhost".into(),
        trust: simulator::Trust::PemFile(a.cert_path.clone()),
    };
    let (stop, shutdown) = tokio::sync::watch::channel(false);
    tokio::spawn(simulator::run_device(spec, transport, std::sync::Arc::new(simulator::SimStats::default()), shutdown));
    assert!(
        eventually(10 * SECOND, || a.board.status(&company, &mat.id).is_some_and(|s| s.device_functional)).await,
        "the mat connected to A"
    );

    let b = start("hub-b", &dir_b).await.unwrap();
    assert!(
        eventually(5 * SECOND, || b.board.status(&company, &mat.id).is_some_and(|s| s.device_functional)).await,
        "B, started after the mat connected to A, shows it: {:?}",
        b.board.status(&company, &mat.id)
    );
    let _ = stop.send(true);
    b.shutdown().await;
    a.shutdown().await;
}

/// A company with a Sensing Horse of two sides, on `store`: (company, email, horse id, sides).
async fn seed_horse(store: &storage::Store, tag: &str) -> (String, String, String, Vec<SeededDevice>) {
    use mat_protocol::device_type::DeviceType;
    let (company, email, _) = seed_company(store, tag, &[]).await;
    let registration = mat_api::device::Registration {
        hardware_serial: format!("HORSE-{tag}"),
        name: "Saddle".into(),
        device_type: DeviceType::SensingHorse,
        number_of_subdevices: 2,
        health_system: String::new(),
        building: String::new(),
        floor: String::new(),
        room: String::new(),
        bed: String::new(),
    };
    let horse = hub::domain::registration::create(store.hub_wide(), &company, &registration).await.unwrap();
    let sides = horse
        .members
        .iter()
        .map(|m| SeededDevice {
            id: m.id.clone(),
            serial: m.hardware_serial.clone(),
            secret: m.device_secret.clone().unwrap(),
            device_type: m.device_type.name().to_owned(),
        })
        .collect();
    (company, email, horse.id, sides)
}

/// The hubs whose lease book holds `id`'s lease.
fn lease_holders(fleet: &Fleet, id: &str) -> Vec<usize> {
    use hub::cluster::lease::LeaseState;
    (0..fleet.hubs.len())
        .filter(|&i| matches!(fleet.hubs[i].leases.as_ref().unwrap().lease_state(id), Some(LeaseState::Held { .. })))
        .collect()
}

/// `deviceFunctional` as stored for `id`.
async fn stored_functional(store: &storage::Store, id: &str) -> Option<bool> {
    store.hub_wide().device_confs().of_device(id).await.unwrap().map(|conf| conf.device_functional)
}

/// `id`'s fence in the store: revision, the node that raised it, fenced writes so far.
async fn fence_of(store: &storage::Store, id: &str) -> (i64, String, i64) {
    store.hub_wide().device_fences().holder(id).await.unwrap().unwrap_or_else(|| panic!("{id} has no fence"))
}

/// Waits until `id`'s stored `deviceFunctional` is `functional`.
async fn wait_stored(store: &storage::Store, id: &str, functional: bool, limit: Duration) -> bool {
    eventually_async(limit, || async { stored_functional(store, id).await == Some(functional) }).await
}

/// Stops a hub as its crash looks to the others: its NATS connection closes first (nothing it
/// does afterwards crosses, its leases are no longer renewed), then it stops.
async fn die_silently(hub: RunningHub) {
    fall_silent(&hub.cluster.as_ref().unwrap().client).await;
    hub.shutdown().await;
}

/// Whether `device`'s snapshot in shared storage says it is functional.
async fn snapshot_says_live(store: &storage::Store, device: &str) -> bool {
    let stored = store.hub_wide().device_snapshots().load(device).await.ok().flatten();
    stored
        .and_then(|s| serde_json::from_str::<Value>(&s.snapshot_json).ok())
        .is_some_and(|snapshot| snapshot["status"]["functional"] == json!(true))
}

/// Closes a hub's NATS connection and waits until it is closed. `drain` only asks for it: what
/// the hub publishes until the connection closes still goes out, and a hub shut down at once
/// published its device's disconnection 50 ms after its "death" (a run of the dead-hub test
/// under `make test`'s load).
async fn fall_silent(client: &async_nats::Client) {
    client.drain().await.unwrap();
    // Every command fails once the connection is closed.
    assert!(eventually_async(10 * SECOND, || async { client.flush().await.is_err() }).await, "the NATS connection closed");
}

/// Issue 25: a room set's or horse's status is stored by one hub, the holder of the set's lease
/// (a hub owning one of its members; never C, which owns none), once per change on a
/// three-hub cluster; when that hub dies, the other member's hub takes the lease within a lease
/// time and stores the set's next change.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_sets_status_is_stored_once_per_change_and_by_another_hub_after_its_writer_dies() {
    let store = storage::Store::memory().await.unwrap();
    let (company, email, horse, sides) = seed_horse(&store, "S").await;
    let mut fleet = Fleet::start_on(store.clone(), company.clone(), email, sides.clone(), 600).await;
    let idle = |spec: &mut simulator::DeviceSpec| {
        spec.rate = Rate::Fixed { hz: 5.0 };
        spec.scenario = Scenario::Empty;
    };
    let horse_functional = |fleet: &Fleet, hub: usize| fleet.hubs[hub].board.status(&company, &horse).is_some_and(|s| s.device_functional);
    let left = fleet.run_device(0, &sides[0], idle);
    let right = fleet.run_device(1, &sides[1], idle);
    for hub in 0..3 {
        assert!(eventually(15 * SECOND, || horse_functional(&fleet, hub)).await, "hub {hub} shows the horse functional");
    }
    assert!(wait_stored(&store, &horse, true, 10 * SECOND).await, "the horse's status is stored in cluster mode");
    tokio::time::sleep(2 * SECOND).await;
    let holders = lease_holders(&fleet, &horse);
    assert_eq!(holders.len(), 1, "one hub holds the horse's lease: {holders:?}");
    let holder = holders[0];
    assert!(holder < 2, "the holder owns a side (A or B), not C");
    let names = ["hub-a", "hub-b", "hub-c"];
    let (_, node, before) = fence_of(&store, &horse).await;
    assert_eq!(node, names[holder]);

    // One change (the right side leaves B): one write, not one per hub.
    let _ = right.send(true);
    assert!(wait_stored(&store, &horse, false, 15 * SECOND).await, "the change is stored");
    tokio::time::sleep(2 * SECOND).await;
    assert_eq!(fence_of(&store, &horse).await.2, before + 1, "the change was written once on a three-hub cluster");
    let right = fleet.run_device(1, &sides[1], idle);
    assert!(wait_stored(&store, &horse, true, 15 * SECOND).await);
    tokio::time::sleep(2 * SECOND).await;
    let (fence, _, before) = fence_of(&store, &horse).await;

    // The holder dies; its side goes with it. The other side's hub takes the horse's lease.
    let dead = fleet.hubs.remove(holder);
    let (other, dead_side) = if holder == 0 { (names[1], &sides[0]) } else { (names[0], &sides[1]) };
    drop(if holder == 0 { left } else { right });
    die_silently(dead).await;
    // Hub 0 is now the other side's hub, hub 1 is C.
    assert!(
        eventually(20 * SECOND, || lease_holders(&fleet, &horse) == vec![0]).await,
        "{other} took the horse's lease: {:?}",
        lease_holders(&fleet, &horse)
    );
    // The lease is in the book before the fence is raised in the store (the raise follows it).
    let raised = eventually_async(5 * SECOND, || async {
        let (new_fence, node, _) = fence_of(&store, &horse).await;
        new_fence > fence && node == other
    })
    .await;
    let (new_fence, node, _) = fence_of(&store, &horse).await;
    assert!(raised, "{other} raised the horse's fence: {new_fence} {node}");
    // The dead hub's side is shown disconnected once its lease expired: the horse is not functional.
    assert!(
        eventually(20 * SECOND, || fleet.hubs[0].board.status(&company, &dead_side.id).is_some_and(|s| !s.device_functional)).await,
        "{other} shows the dead hub's side disconnected"
    );
    // Its set hears it too: from the dead hub's last member message, or, when the hub died
    // between its side's status and that message, once the side's lease expired (its key and
    // the horse's were renewed together until the hub died: the takeover above waited for that).
    assert!(eventually(10 * SECOND, || !horse_functional(&fleet, 0)).await, "{other} shows the horse not functional");
    assert!(wait_stored(&store, &horse, false, 15 * SECOND).await, "the horse is stored not functional");
    tokio::time::sleep(2 * SECOND).await;
    let (_, _, before_next) = fence_of(&store, &horse).await;
    assert!(before_next > before, "the change was stored");
    // The next change (the dead hub's side comes back on the other hub) is stored by it, once.
    let _back = fleet.run_device(0, dead_side, idle);
    assert!(wait_stored(&store, &horse, true, 20 * SECOND).await, "{other} stored the horse functional again");
    tokio::time::sleep(2 * SECOND).await;
    assert_eq!(fence_of(&store, &horse).await, (new_fence, other.to_owned(), before_next + 1));
    fleet.stop().await;
}

/// Issue 25: a hub dies and one of its two mats does not come back: once that mat's lease
/// expired with no new owner, the other hubs show it disconnected (browsers and REST), not as
/// last reported; the mat that reconnected to another hub within the lease time never flaps.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_dead_hubs_device_that_does_not_come_back_is_shown_disconnected_everywhere() {
    let mut fleet = Fleet::start(&["Mattress Mat IoT", "Mattress Mat IoT"], 600).await;
    let (lost, moved) = (fleet.devices[0].clone(), fleet.devices[1].clone());
    let company = fleet.company.clone();
    let steady = |spec: &mut simulator::DeviceSpec| spec.rate = Rate::Fixed { hz: 5.0 };
    let _lost_device = fleet.run_device(0, &lost, steady);
    let moved_on_a = fleet.run_device(0, &moved, steady);
    let mut on_c = company_browser(fleet.http(2), &fleet.email).await;
    for device in [&lost, &moved] {
        // A holds the mat first: before that, C's board may show the mat's stored status, and
        // a death then would be judged against a status A never sent (a run over in 0.9 s did).
        assert!(eventually(15 * SECOND, || fleet.hubs[0].bus.seam().owns(&device.id)).await, "A owns its mat");
        assert!(
            eventually(15 * SECOND, || fleet.hubs[2].board.status(&company, &device.id).is_some_and(|s| s.device_functional)).await,
            "C shows A's mat"
        );
        // A's snapshot of it in shared storage (written every second) says it is live: the hub
        // that takes a mat over resumes from the snapshot, and one taken before its first
        // snapshot starts afresh, offline until its first frame there (a run on a loaded machine
        // killed A 70 ms after the mats connected, and C saw the moved one offline a moment).
        assert!(eventually_async(15 * SECOND, || snapshot_says_live(&fleet.store, &device.id)).await, "A's snapshot of its mat");
    }

    // A dies: it falls silent on NATS, and the second mat reconnects to B at once, while A's
    // shutdown goes on (in CI it can take seconds: the move would not be "at once" after it).
    let died = Instant::now();
    let dead = fleet.hubs.remove(0);
    fall_silent(&dead.cluster.as_ref().unwrap().client).await;
    let _ = moved_on_a.send(true);
    let _moved_on_b = fleet.run_device(0, &moved, steady);
    let dead_stopped = tokio::spawn(dead.shutdown());
    // Hub 0 is B now, hub 1 is C. B owns the moved mat once it took its lease.
    let (mut moved_flapped, mut moved_taken, mut shown_lost) = (None, None, None);
    while died.elapsed() <= 20 * SECOND && (shown_lost.is_none() || moved_taken.is_none()) {
        let now = died.elapsed();
        if moved_taken.is_none() && fleet.hubs[0].bus.seam().owns(&moved.id) {
            moved_taken = Some(now);
        }
        if moved_flapped.is_none() && fleet.hubs[1].board.status(&company, &moved.id).is_some_and(|s| !s.device_functional) {
            moved_flapped = Some(now);
        }
        if shown_lost.is_none() && fleet.hubs[1].board.status(&company, &lost.id).is_some_and(|s| !s.device_functional) {
            shown_lost = Some(now);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let shown_lost = shown_lost.expect("C shows the mat whose hub died disconnected");
    assert!(shown_lost >= 4 * SECOND, "not before its lease could have expired: {shown_lost:?}");
    let moved_taken = moved_taken.expect("B took the moved mat's lease");
    // A lease lives 6 s from its last renewal, at most 2 s before A died: a move B took within
    // 4 s of the death was within the lease time, and C must never have shown that mat
    // disconnected. (A takeover slower than the lease, as on an overloaded machine, is rightly
    // shown disconnected until B takes it; the check then holds only after the takeover.)
    let within_lease = moved_taken < 4 * SECOND;
    if let Some(flapped) = moved_flapped {
        assert!(
            !within_lease && flapped < moved_taken,
            "the mat that moved to B {moved_taken:?} after A died was shown disconnected on C at {flapped:?}"
        );
        eprintln!("B took the moved mat only {moved_taken:?} after A died, past its lease: C showed it disconnected at {flapped:?}");
    }
    assert!(wait_for_status(&mut on_c, &lost.id, 5 * SECOND, |s| field(s, "deviceFunctional").as_bool() == Some(false)).await);
    let status = fleet.hubs[1].board.status(&company, &lost.id).unwrap();
    assert_eq!(status.card_status, mat_core::machine::status::CardStatus::Offline, "{status:?}");
    for hub in 0..2 {
        let token = common::login(fleet.http(hub), &fleet.email, PASSWORD).await;
        // Each hub judges by its own watch: one starved of its ticks watches a lease time again
        // before it judges (`lease_sightings`), so B may agree a few seconds after C.
        let (addr, token_ref, lost_id) = (fleet.http(hub), &token, lost.id.as_str());
        let agrees =
            eventually_async(
                10 * SECOND,
                || async move { rest_status(addr, token_ref, lost_id).await["deviceFunctional"] == json!(false) },
            )
            .await;
        let rest = rest_status(fleet.http(hub), &token, &lost.id).await;
        assert!(agrees, "REST on hub {hub} agrees: {rest}");
        let moved_rest = rest_status(fleet.http(hub), &token, &moved.id).await;
        assert_eq!(moved_rest["deviceFunctional"], json!(true), "the moved mat is live on hub {hub}: {moved_rest}");
    }
    dead_stopped.await.unwrap();
    fleet.stop().await;
}
