//! The mat actor with tokio's paused clock: a stream and a pending alarm survive a restart, and the
//! records reach the writer.

use std::sync::{Arc, Mutex};

use tokio::sync::mpsc;
use tokio::time::{Duration, advance};

use super::*;
use crate::actor::storage_writer::{StatusStore, StorageWriter, StoreFuture};
use crate::fanout::{Outbox, Viewer};
use mat_core::machine::status::PatientStatus;
use mat_core::test_maps::body;
use mat_protocol::CommandEnvelope;
use mat_protocol::device_type::DeviceType;

/// A store that keeps what it is given.
#[derive(Default)]
struct MemoryStore {
    records: Mutex<Vec<Record>>,
}

impl StatusStore for MemoryStore {
    fn save_statuses(&self, _batch: Vec<StatusRecord>) -> StoreFuture<'_> {
        Box::pin(async { Ok(()) })
    }

    fn save_records(&self, batch: Vec<Record>) -> StoreFuture<'_> {
        self.records.lock().unwrap_or_else(|p| p.into_inner()).extend(batch);
        Box::pin(async { Ok(()) })
    }
}

fn info() -> Arc<DeviceInfo> {
    Arc::new(DeviceInfo {
        id: "bed-1".into(),
        serial: "SN-1".into(),
        company_id: "c1".into(),
        device_type: DeviceType::MattressMatIoT,
        name: "Bed 1".into(),
        parent: None,
        members: Vec::new(),
        secret_hash: String::new(),
        functional: false,
        patient_status: PatientStatus::Correct,
    })
}

/// A bed mat's actor arguments with a 30 s absence delay and a board of its own.
fn mat_args(link: DeviceLink, bus: Arc<Bus>, writer: Option<ActorRef<WriterMsg>>) -> MatArgs {
    MatArgs {
        info: info(),
        link: Some(link),
        bus,
        board: LiveBoard::new(),
        writer,
        parent: None,
        metrics: Arc::new(HubMetrics::default()),
        absence_delay: Duration::from_secs(30),
        inflight: Arc::new(AtomicUsize::new(0)),
        snapshot: SnapshotSlot::default(),
        share_snapshots: false,
        behaviour: BehaviourConfig::default(),
    }
}

fn frame(cells: Vec<u8>) -> MatMsg {
    MatMsg::Frame(FrameIn { seq: 0, device_time_ms: 0, rows: 48, cols: 48, format: CellFormat::U8, cells })
}

/// Streams of seconds the device was told, in order.
fn stream_commands(rx: &mut mpsc::Receiver<HubMessage>) -> Vec<u32> {
    let mut out = Vec::new();
    while let Ok(message) = rx.try_recv() {
        if let HubMessage::Command(CommandEnvelope { command: Command::Stream { seconds }, .. }) = message {
            out.push(seconds);
        }
    }
    out
}

/// Events the company's sessions received, by name.
fn company_events(viewer: &Viewer) -> Vec<String> {
    #[derive(serde::Deserialize)]
    struct Named {
        event: String,
    }
    std::iter::from_fn(|| viewer.outbox.try_recv().ok().flatten())
        .filter_map(|bytes| rmp_serde::from_slice::<Named>(&bytes).ok())
        .map(|n| n.event)
        .collect()
}

/// Lets the actors handle what was sent to them.
async fn settle() {
    for _ in 0..20 {
        tokio::task::yield_now().await;
    }
}

/// The restart tests' mat actor: a storage writer on a memory store, a viewer of company c1, a
/// device link, alarms numbered from 100.
struct RestartableMat {
    store: Arc<MemoryStore>,
    writer: ActorRef<WriterMsg>,
    viewer: Viewer,
    rx: mpsc::Receiver<HubMessage>,
    args: MatArgs,
    actor: ActorRef<MatMsg>,
    handle: tokio::task::JoinHandle<()>,
}

async fn restartable_mat() -> RestartableMat {
    let store = Arc::new(MemoryStore::default());
    let (writer, _) = Actor::spawn(None, StorageWriter, (store.clone() as Arc<dyn StatusStore>, Arc::default())).await.expect("writer");
    let bus = Bus::new();
    let viewer = Viewer::new(1, Outbox::new(Arc::new(HubMetrics::default())));
    bus.company("c1").join(viewer.clone());
    let (link, rx) = DeviceLink::new(1);
    let mut args = mat_args(link, bus.clone(), Some(writer.clone()));
    args.behaviour = BehaviourConfig { first_alarm_id: 100, ..BehaviourConfig::default() };
    let (actor, handle) = Actor::spawn(None, MatActor, args.clone()).await.expect("mat actor");
    RestartableMat { store, writer, viewer, rx, args, actor, handle }
}

#[tokio::test(start_paused = true)]
async fn a_restarted_mat_actor_resumes_its_stream_and_keeps_its_pending_alarm() {
    let RestartableMat { store, writer, viewer, mut rx, args, actor, handle } = restartable_mat().await;
    actor.cast(frame(body())).expect("frame");
    settle().await;
    let started = actor.call(|reply| MatMsg::StartStreaming { seconds: 60, reply }, None).await.expect("answered");
    assert!(matches!(started, ractor::rpc::CallResult::Success(Ok(()))));
    settle().await;
    assert_eq!(stream_commands(&mut rx), vec![65]);

    // The patient leaves; 31 s of empty frames raise a Missing alarm, pushed once to the company.
    for _ in 0..=31 {
        advance(Duration::from_secs(1)).await;
        actor.cast(frame(vec![0; 48 * 48])).expect("frame");
        settle().await;
    }
    let events = company_events(&viewer);
    assert_eq!(events.iter().filter(|e| *e == "alarmOn").count(), 1, "{events:?}");

    // The actor dies 32 s into its 65 s stream; a new one starts from the same arguments.
    actor.kill();
    handle.await.expect("stopped");
    let (actor, _handle) = Actor::spawn(None, MatActor, args.clone()).await.expect("restarted");
    settle().await;
    assert_eq!(stream_commands(&mut rx), vec![33], "the device resumes with the remaining seconds");
    let remaining = actor.call(MatMsg::StreamingRemaining, None).await.expect("answered");
    assert!(matches!(remaining, ractor::rpc::CallResult::Success(33)));
    assert!(board_status(&actor, &args).await.unattended_alarm, "the card keeps its Attend button");
    assert_eq!(args.snapshot.load().map(|s| s.alarms.pending.len()), Some(1), "iotCheckAlarms stays True");

    // Still absent after the restart: the pending alarm is not raised a second time.
    for _ in 0..40 {
        advance(Duration::from_secs(1)).await;
        actor.cast(frame(vec![0; 48 * 48])).expect("frame");
        settle().await;
    }
    assert!(!company_events(&viewer).iter().any(|e| e == "alarmOn"));

    // The stream ends on time, then a nurse attends the alarm.
    assert_eq!(stream_commands(&mut rx), vec![0]);
    let attended = actor.call(|reply| MatMsg::AttendAlarm { alarm: None, by: None, reply }, None).await.expect("answered");
    assert!(matches!(attended, ractor::rpc::CallResult::Success(Ok(1))));
    settle().await;
    assert!(company_events(&viewer).iter().any(|e| e == "alarmAttended"));

    let flushed = writer.call(WriterMsg::Flush, None).await.expect("answered");
    assert!(matches!(flushed, ractor::rpc::CallResult::Success(Ok(()))));
    let records = store.records.lock().unwrap_or_else(|p| p.into_inner()).clone();
    let raised: Vec<u64> =
        records.iter().filter_map(|r| if let Record::AlarmRaised { alarm_id, .. } = r { Some(*alarm_id) } else { None }).collect();
    assert_eq!(raised, vec![100]);
    assert!(
        records.iter().any(|r| matches!(r, Record::AlarmAttended { alarm_id: 100, time_to_attend_ms, .. } if *time_to_attend_ms >= 40_000))
    );
    let ends: Vec<bool> = records
        .iter()
        .filter_map(|r| if let Record::StreamingEnd { ends_at_ms, .. } = r { Some(ends_at_ms.is_some()) } else { None })
        .collect();
    assert_eq!(ends, vec![true, false], "set when started, cleared when it ended");
}

#[tokio::test(start_paused = true)]
async fn the_repositioning_clock_survives_a_restart() {
    let bus = Bus::new();
    let viewer = Viewer::new(1, Outbox::new(Arc::new(HubMetrics::default())));
    bus.company("c1").join(viewer.clone());
    let (link, _rx) = DeviceLink::new(1);
    let args = mat_args(link, bus.clone(), None);
    // 1 h 40 min lying still, a frame every 10 s.
    let (actor, handle) = Actor::spawn(None, MatActor, args.clone()).await.expect("mat actor");
    for _ in 0..600 {
        actor.cast(frame(body())).expect("frame");
        settle().await;
        advance(Duration::from_secs(10)).await;
    }
    actor.kill();
    handle.await.expect("stopped");
    // The restarted actor continues the clock: the alarm comes at 2 h, not 2 h after the restart.
    let (actor, _handle) = Actor::spawn(None, MatActor, args.clone()).await.expect("restarted");
    for _ in 0..150 {
        actor.cast(frame(body())).expect("frame");
        settle().await;
        advance(Duration::from_secs(10)).await;
    }
    let status = board_status(&actor, &args).await;
    assert_eq!(status.patient_status, PatientStatus::UlcerRisk, "{status:?}");
    assert_eq!(company_events(&viewer).iter().filter(|e| *e == "alarmOn").count(), 1);
}

/// A writer that only notes what the mat actor sends it, in order.
struct WriterProbe;

impl Actor for WriterProbe {
    type Msg = WriterMsg;
    type State = Arc<std::sync::Mutex<Vec<String>>>;
    type Arguments = Arc<std::sync::Mutex<Vec<String>>>;

    async fn pre_start(&self, _myself: ActorRef<WriterMsg>, log: Self::Arguments) -> Result<Self::State, ActorProcessingErr> {
        Ok(log)
    }

    async fn handle(&self, _myself: ActorRef<WriterMsg>, message: WriterMsg, log: &mut Self::State) -> Result<(), ActorProcessingErr> {
        let entry = match message {
            WriterMsg::Save(status) => format!("status {:?}", status.patient_status),
            WriterMsg::Record(Record::AlarmRaised { kind, .. }) => format!("alarm {kind:?}"),
            WriterMsg::Record(_) => "record".to_owned(),
            WriterMsg::Snapshot(shared) => {
                let pending = shared.snapshot.alarms.pending.iter().map(|a| format!("{:?}", a.kind)).collect::<Vec<_>>().join(",");
                format!("snapshot [{pending}]")
            }
            WriterMsg::FlushDue => return Ok(()),
            WriterMsg::Flush(reply) => {
                log.lock().unwrap_or_else(|p| p.into_inner()).push("flush".to_owned());
                let _ = reply.send(Ok(()));
                return Ok(());
            }
        };
        log.lock().unwrap_or_else(|p| p.into_inner()).push(entry);
        Ok(())
    }
}

#[tokio::test(start_paused = true)]
async fn the_missing_alarm_is_sent_to_the_writer_before_the_missing_status() {
    // A hub killed between the two writes must restart with the alarm, not with a Missing patient
    // and no alarm (hub/tests/kill_under_load.rs): the writer keeps the order it receives.
    let log = writer_log_of_a_patient_leaving(|args| args).await;
    let alarm = log.iter().position(|e| e == "alarm Missing").unwrap_or_else(|| panic!("no Missing alarm: {log:?}"));
    let status = log.iter().position(|e| e == "status Missing").unwrap_or_else(|| panic!("no Missing status: {log:?}"));
    assert!(alarm < status, "{log:?}");
}

/// What the storage writer receives while a patient lies on the bed, leaves it and stays away
/// 32 s (past the 30 s absence delay: a Missing alarm), in the order it receives it.
async fn writer_log_of_a_patient_leaving(adjust: impl FnOnce(MatArgs) -> MatArgs) -> Vec<String> {
    let log = Arc::new(std::sync::Mutex::new(Vec::new()));
    let (writer, _) = Actor::spawn(None, WriterProbe, log.clone()).await.expect("probe");
    let (link, _rx) = DeviceLink::new(1);
    let args = adjust(mat_args(link, Bus::new(), Some(writer)));
    let (actor, _handle) = Actor::spawn(None, MatActor, args).await.expect("mat actor");
    actor.cast(frame(body())).expect("frame");
    settle().await;
    for _ in 0..=31 {
        advance(Duration::from_secs(1)).await;
        actor.cast(frame(vec![0; 48 * 48])).expect("frame");
        settle().await;
    }
    log.lock().unwrap_or_else(|p| p.into_inner()).clone()
}

#[tokio::test(start_paused = true)]
async fn in_cluster_mode_the_snapshot_with_the_alarm_goes_to_the_writer_after_the_alarm_and_its_status() {
    // The writer writes what it holds in batches; a snapshot with the alarm pending must never be
    // in shared storage without the alarm's row (the next owner would not raise it, and nobody
    // would have stored it).
    let log = writer_log_of_a_patient_leaving(|args| MatArgs { share_snapshots: true, ..args }).await;
    let alarm = log.iter().position(|e| e == "alarm Missing").unwrap_or_else(|| panic!("no Missing alarm: {log:?}"));
    let status = log.iter().position(|e| e == "status Missing").unwrap_or_else(|| panic!("no Missing status: {log:?}"));
    let snapshot = log.iter().position(|e| e == "snapshot [Missing]").unwrap_or_else(|| panic!("no snapshot with the alarm: {log:?}"));
    assert!(alarm < status && status < snapshot, "{log:?}");
    assert!(log.iter().filter(|e| e.starts_with("snapshot")).count() >= 30, "about one snapshot a second: {log:?}");
}

/// Calls the actor and returns its answer.
async fn ask<T: Send + 'static>(actor: &ActorRef<MatMsg>, message: impl FnOnce(RpcReplyPort<T>) -> MatMsg) -> T {
    match actor.call(message, None).await.expect("answered") {
        ractor::rpc::CallResult::Success(answer) => answer,
        _ => panic!("the actor did not answer"),
    }
}

/// The device's status as the live board shows it, once the actor has handled everything sent to
/// it before (a call is answered in mailbox order, after the earlier steps' outputs went out).
async fn board_status(actor: &ActorRef<MatMsg>, args: &MatArgs) -> DeviceConfEvent {
    ask(actor, MatMsg::StreamingRemaining).await;
    args.board.status(&args.info.company_id, &args.info.id).expect("the actor published a status")
}

#[tokio::test(start_paused = true)]
async fn every_field_of_the_snapshot_survives_an_actor_restart() {
    use mat_core::machine::capture::{CaptureKind, CaptureOrigin};
    use mat_core::machine::pressure_ulcer::RepositioningTier;
    let RestartableMat { store, writer, viewer, mut rx, args, actor, handle } = restartable_mat().await;
    actor.cast(MatMsg::SelectPatient(Some("p1".into()))).expect("select");
    actor.cast(MatMsg::SetRepositioningInterval(Duration::from_secs(10 * 60))).expect("interval");
    // 11 min lying still past the 10 min interval: the Ulcer Risk alarm.
    for _ in 0..=66 {
        actor.cast(frame(body())).expect("frame");
        settle().await;
        advance(Duration::from_secs(10)).await;
    }
    assert!(matches!(ask(&actor, |reply| MatMsg::StartStreaming { seconds: 180, reply }).await, Ok(())));
    let request = CaptureRequest { kind: CaptureKind::Dynamic, seconds: 60, origin: CaptureOrigin::User("u1".into()) };
    assert_eq!(ask(&actor, |reply| MatMsg::RequestCapture { request, reply }).await, Ok(()));
    // The patient leaves: Missing after 30 s, while the capture collects its frames.
    for _ in 0..32 {
        advance(Duration::from_secs(1)).await;
        actor.cast(frame(vec![0; 48 * 48])).expect("frame");
        settle().await;
    }
    let before = args.snapshot.load().expect("the actor keeps a snapshot");
    assert_eq!(before.patient.status, PatientStatus::Missing);
    assert_eq!(before.alarms.pending.len(), 2);
    assert_eq!(before.capture.running.as_ref().map(|r| r.frames.len()), Some(32));
    assert_eq!(before.capture.patient_id.as_deref(), Some("p1"));
    assert!(before.repositioning_clock.as_ref().is_some_and(|c| c.tier.at_risk()));
    assert_eq!(before.repositioning_interval, Some(Duration::from_secs(600)));
    assert!(before.stream_ends_at_ms.is_some());
    stream_commands(&mut rx);
    company_events(&viewer);

    actor.kill();
    handle.await.expect("stopped");
    let (actor, _handle) = Actor::spawn(None, MatActor, args.clone()).await.expect("restarted");
    settle().await;
    assert_eq!(args.snapshot.load(), Some(before), "the restarted actor holds every field it left with");
    assert_eq!(stream_commands(&mut rx), vec![185 - 32], "the device resumes the stream");
    let status = board_status(&actor, &args).await;
    assert_eq!((status.device_functional, status.patient_status, status.unattended_alarm), (true, PatientStatus::Missing, true));
    let view = ask(&actor, MatMsg::GetRepositioning).await.expect("a bed mat has the clock");
    assert_eq!(view.interval, Duration::from_secs(600));

    // The patient returns: still at risk (the clock kept counting), the capture loads with every
    // frame from before and after the restart, no alarm is raised again.
    for _ in 0..40 {
        advance(Duration::from_secs(1)).await;
        actor.cast(frame(body())).expect("frame");
        settle().await;
    }
    let status = board_status(&actor, &args).await;
    assert_eq!((status.patient_status, status.repositioning), (PatientStatus::UlcerRisk, RepositioningTier::Due), "{status:?}");
    assert!(!company_events(&viewer).iter().any(|e| e == "alarmOn"));
    assert_eq!(ask(&actor, |reply| MatMsg::AttendAlarm { alarm: None, by: None, reply }).await, Ok(2));
    let flushed = writer.call(WriterMsg::Flush, None).await.expect("answered");
    assert!(matches!(flushed, ractor::rpc::CallResult::Success(Ok(()))));
    let records = store.records.lock().unwrap_or_else(|p| p.into_inner()).clone();
    let raised: Vec<u64> =
        records.iter().filter_map(|r| if let Record::AlarmRaised { alarm_id, .. } = r { Some(*alarm_id) } else { None }).collect();
    assert_eq!(raised, vec![100, 101]);
    let captures: Vec<(usize, &str)> = records
        .iter()
        .filter_map(|r| if let Record::CaptureStored(c) = r { Some((c.frames.len(), c.patient_id.as_str())) } else { None })
        .collect();
    assert_eq!(captures, vec![(60, "p1")], "one capture, one frame a second for 60 s, of the selected patient");
}

#[tokio::test(start_paused = true)]
async fn a_new_owner_tells_the_other_hubs_its_status_even_when_its_board_already_shows_it() {
    // This hub's board already shows the status the new actor will stand at (a mirror of the
    // previous owner's, or of an actor of this hub that stopped): no step publishes it.
    let bus = Bus::new();
    let (link, _rx) = DeviceLink::new(1);
    let args = mat_args(link, bus.clone(), None);
    let (first, handle) = Actor::spawn(None, MatActor, args.clone()).await.expect("mat actor");
    first.cast(frame(body())).expect("frame");
    let shown = board_status(&first, &args).await;
    assert!(shown.device_functional);
    first.stop(None);
    handle.await.expect("stopped");

    let relayed = Arc::new(crate::fanout::test_relay::Recorder::default());
    bus.seam().install(relayed.clone(), Arc::new(crate::fanout::test_relay::NoRoute));
    let (link, _rx) = DeviceLink::new(2);
    let args = MatArgs { link: Some(link), ..args };
    let (owner, _handle) = Actor::spawn(None, MatActor, args.clone()).await.expect("mat actor");
    assert_eq!(board_status(&owner, &args).await, shown, "the board showed it already");
    assert_eq!(relayed.statuses(), vec![shown.clone()], "the other hubs are told once, when this hub claims it");

    // Later steps relay only changes.
    owner.cast(frame(body())).expect("frame");
    assert_eq!(board_status(&owner, &args).await, shown);
    assert_eq!(relayed.statuses().len(), 1);
}

/// A REST call that records a turn or attends an alarm flushes the storage writer once the mat's
/// actor answers, and then answers itself: the record must be in the writer's mailbox before the
/// answer (hub/tests/cluster_events.rs once read an empty turn log right after the call). On the
/// multi-threaded runtime the caller runs as soon as the answer is sent, so an answer sent before
/// the step's outputs lets the flush overtake the record (this test failed so in its third round
/// before the fix). An attendance is answered the same way (`answer_after_outputs`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_recorded_turn_is_with_the_writer_before_the_actor_answers() {
    let log = Arc::new(std::sync::Mutex::new(Vec::new()));
    let (writer, _) = Actor::spawn(None, WriterProbe, log.clone()).await.expect("probe");
    let (link, _rx) = DeviceLink::new(1);
    let (actor, _handle) = Actor::spawn(None, MatActor, mat_args(link, Bus::new(), Some(writer.clone()))).await.expect("mat actor");
    actor.cast(frame(body())).expect("frame");
    for round in 0..200 {
        log.lock().unwrap_or_else(|p| p.into_inner()).clear();
        let recorded = ask(&actor, |reply| MatMsg::RecordTurn { at_ms: unix_ms(), position: None, by: Arc::from("nurse"), reply }).await;
        assert!(recorded.is_ok(), "{recorded:?}");
        let _ = writer.call(WriterMsg::Flush, None).await.expect("flushed");
        let seen = log.lock().unwrap_or_else(|p| p.into_inner()).clone();
        let (record, flush) = (seen.iter().position(|e| e == "record"), seen.iter().position(|e| e == "flush"));
        assert!(record.is_some() && record < flush, "round {round}: the flush overtook the turn's record: {seen:?}");
    }
}
