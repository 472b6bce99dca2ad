//! One owner per device across hubs (issue 25 items 2 and 3), with a real `nats-server` and two
//! hubs in this process on one shared store: the newest connection takes the device's lease and
//! the old owner stops its actor and closes its connection; a stale hub (cut off from the NATS
//! the cluster uses while another hub took its device) writes none of the device's rows after
//! the new owner began; a device that moves keeps its repositioning clock's due time and its open
//! alarm, not raised twice. The lease rules themselves are `hub::cluster::lease`'s unit tests
//! (simulated clock); the fences' SurrealQL is `storage`'s `fence_tests`.
#![allow(clippy::unwrap_used)] // A test's helpers may unwrap: the panic is the failure it reports.

mod common;

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use actors::actor::mat::MatMsg;
use actors::actor::registry::{MatHandle, RegistryMsg};
use actors::actor::storage_writer::WriterMsg;
use common::nats::NatsServer;
use common::raw_quic::RawQuic;
use common::*;
use hub::app::RunningHub;
use hub::cluster::NodeName;
use hub::cluster::lease::LeaseState;
use hub::cluster::lease_keeper::Acquisition;
use mat_core::machine::status::PatientStatus;
use mat_protocol::{DeviceMessage, ErrorCode, Frame, HubMessage};
use ractor::rpc::CallResult;
use simulator::synth::BedScript;
use simulator::{Rate, Scenario};
use storage::Store;

const WAIT: Option<Duration> = Some(Duration::from_secs(5));
const SECOND: Duration = Duration::from_secs(1);

/// A hub of the cluster on `store`, joined to `nats` as `node`: a patient is Missing after 1 s
/// of an empty bed, and the repositioning clock runs 60 times faster (a 30 min interval is 30 s).
async fn cluster_hub(store: &Store, nats: &str, node: &str) -> (RunningHub, tempfile::TempDir) {
    // The hubs' warnings show with a failure (`cargo test` keeps them otherwise).
    let _ = tracing_subscriber::fmt().with_env_filter("warn").with_test_writer().try_init();
    let data = tempfile::tempdir().unwrap();
    let mut config = config(data.path());
    config.nats = Some(nats.to_owned());
    config.node = Some(NodeName::parse(node).unwrap());
    config.absence_delay_secs = 1;
    config.demo_repositioning_time_scale = 60;
    let hub = hub::app::start_with_store(config, store.clone()).await.unwrap();
    (hub, data)
}

fn held_fence(hub: &RunningHub, device: &str) -> u64 {
    match hub.leases.as_ref().unwrap().lease_state(device) {
        Some(LeaseState::Held { fence, .. }) => fence,
        other => panic!("{device}'s lease is not held: {other:?}"),
    }
}

async fn flush(hub: &RunningHub) {
    assert!(matches!(hub.actors.writer.call(WriterMsg::Flush, WAIT).await.unwrap(), CallResult::Success(Ok(()))));
}

async fn actor(hub: &RunningHub, device_id: &str) -> MatHandle {
    let device_id: Arc<str> = Arc::from(device_id);
    match hub.actors.registry.call(|reply| RegistryMsg::Resolve { device_id, reply }, WAIT).await.unwrap() {
        CallResult::Success(Ok(handle)) => handle,
        _ => panic!("no actor for the device"),
    }
}

/// When the device's next turn is due, as its actor on `hub` reads the clock (`None`: nobody on
/// the mat yet).
async fn turn_due_at(hub: &RunningHub, device_id: &str) -> Option<Instant> {
    let handle = actor(hub, device_id).await;
    let view = match handle.actor.call(MatMsg::GetRepositioning, WAIT).await.unwrap() {
        CallResult::Success(view) => view,
        _ => panic!("the actor did not answer"),
    };
    view.and_then(|v| v.due_in).map(|due_in| Instant::now() + due_in)
}

/// Cluster tests' part of the raw device connection.
impl RawQuic {
    /// Says hello as `device` and expects the welcome.
    async fn hello(&mut self, device: &SeededDevice) {
        self.send(&hello(device, &device.secret)).await;
        match self.recv().await {
            Some(HubMessage::Welcome(w)) => assert_eq!(w.device_id, device.id),
            other => panic!("expected a welcome, got {other:?}"),
        }
    }
}

fn empty_frame(seq: u64) -> DeviceMessage {
    DeviceMessage::Frame(Frame { seq, device_time_ms: seq * 100, cells: vec![0; 48 * 48] })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_newest_connection_takes_the_lease_and_the_old_owner_stops_the_device() {
    let nats = NatsServer::start().await;
    let store = Store::memory().await.unwrap();
    let (_company, _email, devices) = seed_company(&store, "N", &["Mattress Mat IoT"]).await;
    let device = &devices[0];
    let (a, _a_data) = cluster_hub(&store, &nats.url(), "hub-a").await;
    let (b, _b_data) = cluster_hub(&store, &nats.url(), "hub-b").await;

    let mut first = RawQuic::connect(a.quic_addr, &a.cert_path).await;
    first.hello(device).await;
    for seq in 0..5 {
        first.send(&empty_frame(seq)).await;
    }
    let a_metrics = a.metrics.clone();
    assert!(eventually(Duration::from_secs(5), || a_metrics.frames_processed.load(Ordering::Relaxed) == 5).await);
    let fence_a = held_fence(&a, &device.id);
    assert_eq!(store.hub_wide().device_fences().revision(&device.id).await.unwrap(), Some(fence_a as i64), "A raised the fence");

    // The device connects to B: B takes the lease; A stops the device and closes its connection.
    let mut second = RawQuic::connect(b.quic_addr, &b.cert_path).await;
    second.hello(device).await;
    match first.recv().await {
        Some(HubMessage::Error(e)) => assert_eq!((e.code, e.fatal), (ErrorCode::Replaced, true), "{e:?}"),
        other => panic!("the old connection was not told: {other:?}"),
    }
    assert!(first.recv().await.is_none(), "the old connection is closed");
    assert!(eventually(Duration::from_secs(5), || a_metrics.devices_connected.load(Ordering::Relaxed) == 0).await);
    let a_leases = a.leases.clone().unwrap();
    assert!(eventually(Duration::from_secs(5), || a_leases.lease_state(&device.id).is_none()).await, "A no longer holds it");
    assert_eq!(a.metrics.cluster.leases_lost.load(Ordering::Relaxed), 1);
    assert!(a.metrics.render().contains("\nhub_cluster_leases_lost_total 1\n"), "on A's /metrics");
    let fence_b = held_fence(&b, &device.id);
    assert!(fence_b > fence_a, "B's fence {fence_b} is above A's {fence_a}");
    assert_eq!(store.hub_wide().device_fences().revision(&device.id).await.unwrap(), Some(fence_b as i64));

    // B runs the device now.
    for seq in 5..10 {
        second.send(&empty_frame(seq)).await;
    }
    let b_metrics = b.metrics.clone();
    assert!(eventually(Duration::from_secs(5), || b_metrics.frames_processed.load(Ordering::Relaxed) == 5).await);
    assert_eq!(a_metrics.frames_processed.load(Ordering::Relaxed), 5, "nothing more reached A");

    // The lease is renewed while B holds it: still B's after two lease lifetimes.
    tokio::time::sleep(hub::cluster::lease::LEASE_TTL * 2).await;
    assert_eq!(held_fence(&b, &device.id), fence_b);
    a.shutdown().await;
    b.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_stale_hub_writes_none_of_the_devices_rows_after_the_new_owner_began() {
    // A partition: hub A keeps a NATS server of its own, the cluster (hub B) another one that has
    // seen more lease writes. A never hears that B took the device; only the fence stops it.
    let (nats_a, nats_b) = (NatsServer::start().await, NatsServer::start().await);
    let busy = async_nats::jetstream::new(async_nats::connect(nats_b.url()).await.unwrap());
    let bucket = hub::cluster::lease_keeper::open_bucket(&busy).await.unwrap();
    for i in 0..50 {
        bucket.put(format!("other-{i}"), "hub-c@0".into()).await.unwrap();
    }
    let store = Store::memory().await.unwrap();
    let (company, _email, devices) = seed_company(&store, "S", &["Mattress Mat IoT"]).await;
    let device = &devices[0];
    let (a, _a_data) = cluster_hub(&store, &nats_a.url(), "hub-a").await;
    let (b, _b_data) = cluster_hub(&store, &nats_b.url(), "hub-b").await;

    // A owns the device; its rows are written (its snapshot is in shared storage).
    let mut quic = RawQuic::connect(a.quic_addr, &a.cert_path).await;
    quic.hello(device).await;
    quic.send(&empty_frame(0)).await;
    flush(&a).await;
    let fence_a = held_fence(&a, &device.id);
    let snapshots = store.hub_wide().device_snapshots();
    assert!(
        eventually_async(Duration::from_secs(5), || async { snapshots.load(&device.id).await.unwrap().is_some() }).await,
        "the owner's snapshot is written"
    );
    assert_eq!(snapshots.load(&device.id).await.unwrap().unwrap().revision, fence_a as i64);

    // B takes the device (as its connection would) while A goes on.
    let device_id: Arc<str> = Arc::from(device.id.as_str());
    assert_eq!(b.leases.as_ref().unwrap().acquire(&device_id).await, Acquisition::Owned);
    let began_ms = i64::try_from(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis()).unwrap();
    let fence_b = held_fence(&b, &device.id);
    assert!(fence_b > fence_a);

    // A's bed stays empty: Missing after 1 s, an alarm raised on A, statuses, snapshots…
    for seq in 1..25 {
        quic.send(&empty_frame(seq)).await;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let on_a = a.board.status(&company, &device.id).expect("A shows the device");
    assert_eq!((on_a.patient_status, on_a.unattended_alarm), (PatientStatus::Missing, true), "A raised its alarm locally");
    flush(&a).await;
    assert_eq!(held_fence(&a, &device.id), fence_a, "A still believes it owns the device");

    // …none of which reached the store.
    assert!(store.company(&company).logs().alarms(&device.id).await.unwrap().is_empty(), "no alarm row from the stale hub");
    let conf = store.company(&company).device_confs().list().await.unwrap().into_iter().find(|c| c.device_id == device.id).unwrap();
    assert_eq!(conf.patient_status, "Correct", "no status from the stale hub");
    let stored = snapshots.load(&device.id).await.unwrap().unwrap();
    assert_eq!(stored.revision, fence_a as i64);
    assert!(stored.saved_at_ms <= began_ms, "no snapshot from the stale hub");
    assert!(a.metrics.cluster.fenced_writes.load(Ordering::Relaxed) > 0, "the fenced writes are counted");
    assert!(!a.metrics.render().contains("\nhub_cluster_fenced_writes_total 0\n"), "and on A's /metrics");
    a.shutdown().await;
    b.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_device_that_moves_keeps_its_turn_due_time_and_its_open_alarm() {
    let nats = NatsServer::start().await;
    let store = Store::memory().await.unwrap();
    let (company, email, devices) = seed_company(&store, "M", &["Mattress Mat IoT", "Mattress Mat IoT"]).await;
    let (bed, empty) = (&devices[0], &devices[1]);
    let (a, _a_data) = cluster_hub(&store, &nats.url(), "hub-a").await;
    let (b, _b_data) = cluster_hub(&store, &nats.url(), "hub-b").await;
    let token = login(a.http_addr, &email, PASSWORD).await;
    let path = format!("/api/device/{}/repositioning", bed.id);
    let set = request(a.http_addr, "PUT", &path, Some(&token), Some(r#"{"minutes": 30}"#)).await;
    assert_eq!(set.status, 200, "{}", set.body);

    // On A: a patient lies still on one mat (its turn clock runs), the other bed is empty
    // (Missing, one alarm).
    let lying = BedScript { empty: Duration::ZERO, lie_down: SECOND, supine: 600 * SECOND, ..BedScript::default() };
    let run = |hub: &RunningHub, device: &SeededDevice, scenario: Scenario| {
        let mut spec = simulator::DeviceSpec::new(device.serial.clone(), device.secret.clone(), &device.device_type).unwrap();
        spec.scenario = scenario;
        spec.rate = Rate::Fixed { hz: 5.0 };
        let transport = simulator::Transport::Quic {
            addr: hub.quic_addr,
            server_name: "localhost".into(),
            trust: simulator::Trust::PemFile(hub.cert_path.clone()),
        };
        let (stop, shutdown) = tokio::sync::watch::channel(false);
        let stats = Arc::new(simulator::SimStats::default());
        tokio::spawn(simulator::run_device(spec, transport, stats, shutdown));
        stop
    };
    let stop_bed = run(&a, bed, Scenario::BedOccupant(lying.clone()));
    let stop_empty = run(&a, empty, Scenario::Empty);
    let mut lay_down = None;
    for _ in 0..60 {
        if let Some(due) = turn_due_at(&a, &bed.id).await {
            lay_down = Some(due);
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(lay_down.is_some(), "the turn clock started on A");
    // The clock runs for a while on A (8 s: 8 minutes of the scaled clock).
    tokio::time::sleep(8 * SECOND).await;
    let due_on_a = turn_due_at(&a, &bed.id).await.expect("still lying");
    let missing = a.board.status(&company, &empty.id).expect("the empty bed's card");
    assert_eq!((missing.patient_status, missing.unattended_alarm), (PatientStatus::Missing, true));

    // A dies; the devices connect to B.
    let _ = stop_bed.send(true);
    let _ = stop_empty.send(true);
    a.shutdown().await;
    let _stop_bed = run(&b, bed, Scenario::BedOccupant(BedScript { lie_down: Duration::ZERO, ..lying }));
    let _stop_empty = run(&b, empty, Scenario::Empty);
    // Both devices are attached on B (taken over, resumed) before anything asks for an actor.
    let b_metrics = b.metrics.clone();
    assert!(eventually(Duration::from_secs(10), || b_metrics.devices_connected.load(Ordering::Relaxed) == 2).await);
    let mut due_on_b = None;
    for _ in 0..50 {
        if let Some(due) = turn_due_at(&b, &bed.id).await {
            due_on_b = Some(due);
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let due_on_b = due_on_b.expect("the turn clock runs on B");
    let apart = if due_on_b > due_on_a { due_on_b - due_on_a } else { due_on_a - due_on_b };
    assert!(apart < Duration::from_millis(2_500), "the turn due on A is due on B: {apart:?} apart");

    // The empty bed stays Missing on B with its alarm open, and no second alarm is raised.
    tokio::time::sleep(3 * SECOND).await;
    let on_b = b.board.status(&company, &empty.id).expect("B shows the empty bed");
    assert_eq!((on_b.patient_status, on_b.unattended_alarm), (PatientStatus::Missing, true), "{on_b:?}");
    flush(&b).await;
    let alarms = store.company(&company).logs().alarms(&empty.id).await.unwrap();
    assert_eq!(alarms.len(), 1, "one alarm across the move: {alarms:?}");
    assert!(!alarms[0].has_been_attended);
    b.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn while_nats_is_down_a_hub_keeps_raising_alarms_and_its_rows_follow_when_it_is_back() {
    let mut nats = NatsServer::start().await;
    let store = Store::memory().await.unwrap();
    let (company, _email, devices) = seed_company(&store, "D", &["Mattress Mat IoT", "Mattress Mat IoT"]).await;
    let (held, late) = (&devices[0], &devices[1]);
    let (a, _a_data) = cluster_hub(&store, &nats.url(), "hub-a").await;
    let mut first = RawQuic::connect(a.quic_addr, &a.cert_path).await;
    first.hello(held).await;
    let fence = held_fence(&a, &held.id);

    // NATS goes away; a device already here and one connecting now both raise their alarms.
    nats.kill();
    let mut second = RawQuic::connect(a.quic_addr, &a.cert_path).await;
    second.hello(late).await;
    assert_eq!(a.leases.as_ref().unwrap().lease_state(&late.id), Some(LeaseState::Pending));
    for seq in 0..25 {
        first.send(&empty_frame(seq)).await;
        second.send(&empty_frame(seq)).await;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    for device in [held, late] {
        let card = a.board.status(&company, &device.id).expect("a card");
        assert_eq!((card.patient_status, card.unattended_alarm), (PatientStatus::Missing, true), "raised locally: {card:?}");
    }
    flush(&a).await;
    let logs = store.company(&company);
    assert_eq!(logs.logs().alarms(&held.id).await.unwrap().len(), 1, "the held device's alarm is written under its fence");
    assert!(logs.logs().alarms(&late.id).await.unwrap().is_empty(), "the pending device's alarm waits for its lease");

    // NATS is back: the pending lease is acquired, its rows are written; the held one goes on.
    nats.restart().await;
    let leases = a.leases.clone().unwrap();
    assert!(
        eventually(Duration::from_secs(20), || matches!(leases.lease_state(&late.id), Some(LeaseState::Held { .. }))).await,
        "the pending lease is acquired when NATS is back"
    );
    for seq in 25..30 {
        second.send(&empty_frame(seq)).await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    flush(&a).await;
    assert_eq!(logs.logs().alarms(&late.id).await.unwrap().len(), 1, "the waiting alarm is written once");
    assert!(matches!(leases.lease_state(&held.id), Some(LeaseState::Held { .. })), "still held");
    assert!(held_fence(&a, &held.id) >= fence);
    a.shutdown().await;
}
