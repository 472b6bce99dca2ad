//! The registry's supervision of set actors: a restarted room set hears from its members at once.

use std::sync::Arc;
use std::time::Duration;

use super::*;
use crate::fanout::{Outbox, Viewer};
use mat_core::machine::status::PatientStatus;
use mat_core::test_maps::body;
use mat_protocol::CellFormat;
use mat_protocol::device_type::DeviceType;

use crate::actor::mat::FrameIn;
use mat_core::machine::capture::{CaptureKind, CaptureOrigin, CaptureRefusal, CaptureRequest};
use mat_core::machine::mat::StoredMatState;

fn device(id: &str, device_type: DeviceType, parent: Option<(&str, usize)>, members: &[&str]) -> DeviceInfo {
    DeviceInfo {
        id: id.into(),
        serial: format!("SN-{id}"),
        company_id: "c1".into(),
        device_type,
        name: id.to_owned(),
        parent: parent.map(|(p, i)| (Arc::from(p), i)),
        members: members.iter().map(|m| Arc::from(*m)).collect(),
        secret_hash: String::new(),
        functional: false,
        patient_status: PatientStatus::Correct,
    }
}

/// The room set's `deviceFunctional` in every `deviceConf` the viewer received so far, in order.
fn room_history(viewer: &Viewer, seen: &mut Vec<bool>) -> Vec<bool> {
    #[derive(serde::Deserialize)]
    struct Envelope {
        data: DeviceConfEvent,
    }
    while let Ok(Some(bytes)) = viewer.outbox.try_recv() {
        if let Ok(e) = rmp_serde::from_slice::<Envelope>(&bytes)
            && e.data.device_id == "room"
        {
            seen.push(e.data.device_functional);
        }
    }
    seen.clone()
}

async fn eventually(mut check: impl FnMut() -> bool) -> bool {
    for _ in 0..100 {
        if check() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    false
}

/// The registry's arguments in these tests: no storage writer, a 30 s absence delay, real time.
fn args_without_writer(catalog: Arc<Catalog>, bus: Arc<Bus>, board: Arc<LiveBoard>, metrics: Arc<HubMetrics>) -> RegistryArgs {
    RegistryArgs {
        catalog,
        bus,
        board,
        writer: None,
        metrics,
        absence_delay: Duration::from_secs(30),
        repositioning_time_scale: 1,
        share_snapshots: false,
    }
}

#[tokio::test]
async fn members_report_to_a_restarted_room_set_without_waiting_for_a_change() {
    let catalog = Catalog::new([
        device("room", DeviceType::RoomSet, None, &["bed", "seat", "floor"]),
        device("bed", DeviceType::ForceMat, Some(("room", 0)), &[]),
        device("seat", DeviceType::ForceMat, Some(("room", 1)), &[]),
        device("floor", DeviceType::ForceMat, Some(("room", 2)), &[]),
    ]);
    let bus = Bus::new();
    let board = LiveBoard::new();
    let metrics = Arc::new(HubMetrics::default());
    let viewer = Viewer::new(1, Outbox::new(metrics.clone()));
    bus.company("c1").join(viewer.clone());
    let mut seen = Vec::new();
    let args = args_without_writer(catalog, bus.clone(), board.clone(), metrics);
    let (registry, _) = Actor::spawn(None, DeviceRegistry, args).await.expect("registry");

    let (link, _rx) = DeviceLink::new(1);
    let connected = registry.call(|reply| RegistryMsg::Connect { device_id: "bed".into(), link, reply }, None).await.expect("answered");
    let ractor::rpc::CallResult::Success(Ok(bed)) = connected else { panic!("bed not connected") };
    let cells: Vec<u8> = [300u16, 0, 0, 0].iter().flat_map(|v| v.to_le_bytes()).collect();
    bed.actor
        .cast(MatMsg::Frame(FrameIn { seq: 1, device_time_ms: 0, rows: 1, cols: 4, format: CellFormat::U16Le, cells }))
        .expect("frame");
    assert!(eventually(|| room_history(&viewer, &mut seen).last() == Some(&true)).await, "the room set follows its bed sensor");
    let before = seen.len();

    // The set actor dies; the registry restarts it, and the new one starts with every member
    // offline. The bed sends nothing new, yet the set must learn that it is functional.
    let set = registry.get_children().into_iter().find(|child| child.get_id() != bed.actor.get_id()).expect("the set actor");
    set.kill();
    assert!(
        eventually(|| room_history(&viewer, &mut seen)[before..] == [false, true]).await,
        "the restarted set starts offline, then the bed tells it where it stands: {seen:?}"
    );
    registry.stop(None);
}

fn stream_commands(rx: &mut tokio::sync::mpsc::Receiver<mat_protocol::HubMessage>) -> Vec<u32> {
    use mat_protocol::{Command, CommandEnvelope, HubMessage};
    let mut out = Vec::new();
    while let Ok(message) = rx.try_recv() {
        if let HubMessage::Command(CommandEnvelope { command: Command::Stream { seconds }, .. }) = message {
            out.push(seconds);
        }
    }
    out
}

#[tokio::test]
async fn a_mat_actor_killed_mid_stream_resumes_its_stream_and_no_other_device_notices() {
    let catalog = Catalog::new([device("a", DeviceType::MattressMatIoT, None, &[]), device("b", DeviceType::MattressMatIoT, None, &[])]);
    let bus = Bus::new();
    let board = LiveBoard::new();
    let metrics = Arc::new(HubMetrics::default());
    let args = args_without_writer(catalog, bus.clone(), board.clone(), metrics.clone());
    let (registry, _) = Actor::spawn(None, DeviceRegistry, args).await.expect("registry");
    let mut handles = Vec::new();
    let mut receivers = Vec::new();
    for (n, id) in ["a", "b"].into_iter().enumerate() {
        let (link, rx) = DeviceLink::new(n as u64 + 1);
        let connected = registry.call(|reply| RegistryMsg::Connect { device_id: id.into(), link, reply }, None).await.expect("answered");
        let ractor::rpc::CallResult::Success(Ok(handle)) = connected else { panic!("{id} not connected") };
        handle
            .actor
            .cast(MatMsg::Frame(FrameIn { seq: 1, device_time_ms: 0, rows: 48, cols: 48, format: CellFormat::U8, cells: body() }))
            .expect("frame");
        handles.push(handle);
        receivers.push(rx);
    }
    let started = handles[0].actor.call(|reply| MatMsg::StartStreaming { seconds: 60, reply }, None).await.expect("answered");
    assert!(matches!(started, ractor::rpc::CallResult::Success(Ok(()))));
    assert_eq!(stream_commands(&mut receivers[0]), vec![65]);
    let viewer = Viewer::new(9, Outbox::new(metrics));
    bus.company("c1").join(viewer.clone());
    while viewer.outbox.try_recv().ok().flatten().is_some() {}

    handles[0].actor.kill();
    let (a_rx, b_rx) = receivers.split_at_mut(1);
    let mut resumed = Vec::new();
    assert!(
        eventually(|| {
            resumed.extend(stream_commands(&mut a_rx[0]));
            !resumed.is_empty()
        })
        .await
    );
    assert!(resumed[0] > 60 && resumed[0] <= 65, "the device resumes with the remaining seconds: {resumed:?}");
    // The other device neither received a command nor changed status, and still answers.
    assert_eq!(stream_commands(&mut b_rx[0]), Vec::<u32>::new());
    let b_answers = handles[1].actor.call(MatMsg::StreamingRemaining, None).await.expect("answered");
    assert!(matches!(b_answers, ractor::rpc::CallResult::Success(0)), "b still answers, streaming nothing");
    let b_status = board.status("c1", "b").expect("b's status");
    assert!(b_status.device_functional, "{b_status:?}");
    #[derive(serde::Deserialize)]
    struct Envelope {
        data: DeviceConfEvent,
    }
    let changed: Vec<String> = std::iter::from_fn(|| viewer.outbox.try_recv().ok().flatten())
        .filter_map(|bytes| rmp_serde::from_slice::<Envelope>(&bytes).ok())
        .map(|e| e.data.device_id)
        .collect();
    assert!(!changed.iter().any(|id| id == "b"), "{changed:?}");
    registry.stop(None);
}

#[tokio::test]
async fn a_mat_actor_killed_mid_capture_resumes_the_capture() {
    let catalog = Catalog::new([device("a", DeviceType::MattressMatIoT, None, &[])]);
    let bus = Bus::new();
    let board = LiveBoard::new();
    let metrics = Arc::new(HubMetrics::default());
    let args = args_without_writer(catalog, bus.clone(), board.clone(), metrics.clone());
    let (registry, _) = Actor::spawn(None, DeviceRegistry, args).await.expect("registry");
    let (link, _rx) = DeviceLink::new(1);
    let connected = registry.call(|reply| RegistryMsg::Connect { device_id: "a".into(), link, reply }, None).await.expect("answered");
    let ractor::rpc::CallResult::Success(Ok(handle)) = connected else { panic!("not connected") };
    let frame = || MatMsg::Frame(FrameIn { seq: 1, device_time_ms: 0, rows: 48, cols: 48, format: CellFormat::U8, cells: body() });
    handle.actor.cast(frame()).expect("frame");
    handle.actor.cast(MatMsg::SelectPatient(Some("p1".into()))).expect("patient");
    let request = || CaptureRequest { kind: CaptureKind::Dynamic, seconds: 15, origin: CaptureOrigin::User("u1".into()) };
    let started = handle.actor.call(|reply| MatMsg::RequestCapture { request: request(), reply }, None).await.expect("answered");
    assert!(matches!(started, ractor::rpc::CallResult::Success(Ok(()))), "{started:?}");

    handle.actor.kill();
    // Ask the restarted actor (the registry respawns it) for another capture.
    let mut refusal = None;
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(10)).await;
        let device_id: Arc<str> = "a".into();
        let Ok(ractor::rpc::CallResult::Success(Ok(current))) =
            registry.call(|reply| RegistryMsg::Resolve { device_id, reply }, None).await
        else {
            continue;
        };
        if current.actor.get_id() == handle.actor.get_id() {
            continue;
        }
        if let Ok(ractor::rpc::CallResult::Success(result)) =
            current.actor.call(|reply| MatMsg::RequestCapture { request: request(), reply }, None).await
        {
            refusal = Some(result);
            break;
        }
    }
    assert_eq!(refusal, Some(Err(CaptureRefusal::DynamicOngoing)), "the restarted actor still runs the capture");
    registry.stop(None);
}

/// A repositioning interval stored before a hub restart is applied to the device's new actor:
/// 15 minutes lying still are Ulcer Risk (`due`), where the 2 h default would still be `ok`.
#[tokio::test(start_paused = true)]
async fn a_resumed_repositioning_interval_applies_to_the_new_actor() {
    use mat_core::machine::pressure_ulcer::RepositioningTier;
    let catalog = Catalog::new([device("a", DeviceType::MattressMatIoT, None, &[])]);
    let board = LiveBoard::new();
    let args = args_without_writer(catalog, Bus::new(), board.clone(), Arc::new(HubMetrics::default()));
    let (registry, _) = Actor::spawn(None, DeviceRegistry, args).await.expect("registry");
    let stored = StoredMatState { repositioning_interval: Some(Duration::from_secs(15 * 60)), ..StoredMatState::default() };
    let snapshots = vec![("a".into(), MatSnapshot::from_stored(DeviceType::MattressMatIoT, PatientStatus::Correct, stored))];
    registry.call(|reply| RegistryMsg::Resume { snapshots, reply }, None).await.expect("resumed");
    let (link, _rx) = DeviceLink::new(1);
    let connected = registry.call(|reply| RegistryMsg::Connect { device_id: "a".into(), link, reply }, None).await.expect("answered");
    let ractor::rpc::CallResult::Success(Ok(handle)) = connected else { panic!("not connected") };
    for seq in 0..70u64 {
        let frame = FrameIn { seq, device_time_ms: seq * 15_000, rows: 48, cols: 48, format: CellFormat::U8, cells: body() };
        handle.actor.cast(MatMsg::Frame(frame)).expect("frame");
        tokio::time::advance(Duration::from_secs(15)).await;
    }
    // A call is answered after the frames sent before it were handled.
    let answered = handle.actor.call(MatMsg::StreamingRemaining, None).await.expect("answered");
    assert!(matches!(answered, ractor::rpc::CallResult::Success(_)));
    let status = board.status("c1", "a").expect("the device's status");
    assert!(matches!(status.repositioning, RepositioningTier::Due | RepositioningTier::Overdue), "{status:?}");
    registry.stop(None);
}

/// Cluster mode: an actor spawned for a command while its device was connected nowhere stops
/// when another hub is heard owning the device (it would show the device offline here after its
/// silence, over the owner's status); an actor holding the device's connection does not.
#[tokio::test]
async fn an_idle_actor_stops_when_another_hub_owns_its_device_and_a_connected_one_does_not() {
    let catalog =
        Catalog::new([device("idle", DeviceType::MattressMatIoT, None, &[]), device("here", DeviceType::MattressMatIoT, None, &[])]);
    let args = args_without_writer(catalog, Bus::new(), LiveBoard::new(), Arc::new(HubMetrics::default()));
    let (registry, _) = Actor::spawn(None, DeviceRegistry, args).await.expect("registry");
    let resolve = |id: &str| {
        let registry = registry.clone();
        let device_id: Arc<str> = id.into();
        let device_id_text = id.to_owned();
        async move {
            match registry.call(|reply| RegistryMsg::Resolve { device_id, reply }, None).await {
                Ok(ractor::rpc::CallResult::Success(Ok(handle))) => handle,
                _ => panic!("the registry did not resolve {device_id_text}"),
            }
        }
    };
    let idle = resolve("idle").await;
    let (link, _rx) = DeviceLink::new(1);
    let connected = registry.call(|reply| RegistryMsg::Connect { device_id: "here".into(), link, reply }, None).await.expect("answered");
    let ractor::rpc::CallResult::Success(Ok(here)) = connected else { panic!("not connected") };

    for id in ["idle", "here"] {
        registry.cast(RegistryMsg::OwnedElsewhere { device_id: id.into() }).expect("cast");
    }
    assert!(eventually(|| idle.actor.get_status() == ractor::ActorStatus::Stopped).await, "the idle actor stopped");
    assert_ne!(resolve("idle").await.actor.get_id(), idle.actor.get_id(), "a later command gets a new actor");
    assert_eq!(resolve("here").await.actor.get_id(), here.actor.get_id(), "the connected actor runs on");
    assert_ne!(here.actor.get_status(), ractor::ActorStatus::Stopped);
    registry.stop(None);
}
