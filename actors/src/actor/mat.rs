//! `MatActor`: one per device. Feeds frames, timers and user requests (streaming, captures,
//! patient selection, alarm attendance) to its [`MatMachine`], keeps its latest map and status on
//! the [`LiveBoard`] and publishes them (live maps to its viewers, status changes to its company),
//! alarms and capture events to its company, commands to its device, and statuses
//! and records (logs, alarms, stream end, raw captures) to the storage writer.
//!
//! What a restart must not forget is one [`MatSnapshot`] of the machine (its doc comment lists
//! what it keeps and drops), kept in a [`SnapshotSlot`] shared with the registry. The actor
//! refreshes it at every step that produced outputs or came from a user (before the outputs go
//! out), and at most [`SNAPSHOT_INTERVAL`] apart otherwise (the clocks and a running capture's
//! frames move with every frame). A restarted actor restores its machine from it: the stream resumes with the
//! remaining seconds, the repositioning clock keeps counting, a running capture goes on, and no
//! alarm is raised twice. After a hub restart the registry fills the slots from storage (see
//! `hub::snapshots`).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort};

use super::link::DeviceLink;
use super::publish::{publish_blank, publish_map, publish_status};
use super::record::{CaptureRecord, DeviceLogRecord, Record};
use super::room_set::RoomSetMsg;
use super::storage_writer::{DeviceSnapshot, StatusRecord, WriterMsg};
use super::{TimerSlot, instant_to_unix_ms, machine_now, snapshot_unix_ms, unix_ms};
use crate::browser::{AlarmAttendedEvent, AlarmOnEvent, CaptureEvent, DeviceConfEvent, encode_event, events};
use crate::catalog::DeviceInfo;
use crate::fanout::{Bus, CompanyChannel, DeviceChannel};
use crate::live_board::{DeviceLive, LiveBoard, LiveMap};
use crate::metrics::HubMetrics;
use mat_core::machine::alarm::{AlarmId, AlarmOutput, AttendError};
use mat_core::machine::capture::{CaptureOutput, CaptureRefusal, CaptureRequest};
use mat_core::machine::device_log::LogOutput;
use mat_core::machine::mat::{
    BehaviourConfig, DeviceStatus, MatConfig, MatMachine, MatOutput, RecordedTurn, RepositioningView, TurnRefusal,
};
use mat_core::machine::posture::{Posture, PostureReading};
use mat_core::machine::presence::Presence;
use mat_core::machine::streaming::StreamRefusal;
use mat_core::machine::tare::{Tare, TareRefusal};
use mat_core::machine::wall_clock::WallClock;
use mat_protocol::{CellFormat, Command, ErrorCode, HubMessage, ProtocolErrorMessage};

/// Frames that may wait in one mat actor's mailbox; ingest drops newer ones beyond this.
pub const MAX_INFLIGHT_FRAMES: usize = 8;

/// One decoded frame on its way to the actor.
#[derive(Debug)]
pub struct FrameIn {
    pub seq: u64,
    pub device_time_ms: u64,
    pub rows: u16,
    pub cols: u16,
    pub format: CellFormat,
    pub cells: Vec<u8>,
}

/// Messages of the mat actor.
pub enum MatMsg {
    /// A frame from the device (shape already checked by ingest).
    Frame(FrameIn),
    /// A new connection of the device.
    Attach(DeviceLink),
    /// The connection closed.
    Detach { connection_id: u64 },
    /// A viewer asks for live streaming.
    StartStreaming { seconds: u32, reply: RpcReplyPort<Result<(), StreamRefusal>> },
    /// Whole seconds left of the live stream (a reconnecting browser resumes its countdown).
    StreamingRemaining(RpcReplyPort<u32>),
    /// The patient selected on this device changed (`None`: none).
    SelectPatient(Option<String>),
    /// A user asks for a capture.
    RequestCapture { request: CaptureRequest, reply: RpcReplyPort<Result<(), CaptureRefusal>> },
    /// Remote activation (`startDynamicCapture`) by this user.
    RemoteActivation { user_id: String, reply: RpcReplyPort<Result<(), CaptureRefusal>> },
    /// A static series (`set24h` / `startAnalysisTimer`: 3,600,000 ms × 24).
    StartSeries { user_id: String, period: Duration, repetitions: u32, reply: RpcReplyPort<Result<(), CaptureRefusal>> },
    /// Attend one alarm, or every pending alarm of the device (`None`), by a user (kept in the
    /// alarm log); replies how many.
    AttendAlarm { alarm: Option<AlarmId>, by: Option<Arc<str>>, reply: RpcReplyPort<Result<usize, AttendError>> },
    /// A nurse (`by`) recorded a turn done at `at_ms` (Unix ms) to `position`: the repositioning
    /// clock restarts, the turn is logged and an unattended Ulcer Risk alarm is attended.
    RecordTurn { at_ms: u64, position: Option<Posture>, by: Arc<str>, reply: RpcReplyPort<Result<TurnRecorded, TurnRefusal>> },
    /// The repositioning interval of the patient on this device.
    SetRepositioningInterval(Duration),
    /// The repositioning clock as the device page shows it (`None`: the type has none).
    GetRepositioning(RpcReplyPort<Option<RepositioningView>>),
    /// The latest posture reading (`None`: nobody present, or the type reads none); the ward board.
    GetPosture(RpcReplyPort<Option<PostureReading>>),
    /// The tare subtracted from the mat's frames (`None`: none yet, or no maps).
    GetTare(RpcReplyPort<Option<Tare>>),
    /// An administrator zeroes the empty mat.
    ZeroTare(RpcReplyPort<Result<Tare, TareRefusal>>),
    /// The parent set's actor was restarted: report to this one from now on.
    SetParent(ActorRef<RoomSetMsg>),
    /// A machine deadline may be due.
    Tick,
    /// Panics on purpose, for supervision tests.
    #[cfg(feature = "fault-injection")]
    InjectPanic,
}

/// Everything a mat actor starts from. Kept by the registry so a restart rebuilds the same actor.
#[derive(Clone)]
pub struct MatArgs {
    pub info: Arc<DeviceInfo>,
    pub link: Option<DeviceLink>,
    pub bus: Arc<Bus>,
    /// Where the device's status and latest map are kept for REST.
    pub board: Arc<LiveBoard>,
    pub writer: Option<ActorRef<WriterMsg>>,
    pub parent: Option<ActorRef<RoomSetMsg>>,
    pub metrics: Arc<HubMetrics>,
    pub absence_delay: Duration,
    /// Frames cast to this actor and not yet handled; shared with ingest.
    pub inflight: Arc<AtomicUsize>,
    /// The machine's latest snapshot, shared with the registry: a restart resumes from it.
    pub snapshot: SnapshotSlot,
    /// Cluster mode: each snapshot also goes to the storage writer, which keeps the latest in
    /// shared storage for the hub that takes the device over (issue 25).
    pub share_snapshots: bool,
    /// Tuning of the behaviour machines.
    pub behaviour: BehaviourConfig,
}

/// How long a mat actor may go without refreshing its snapshot while only frames and timers
/// arrive: a restart loses at most this much of the clocks and of a running capture's frames
/// (frames keep arriving, so the clocks catch up at once).
pub const SNAPSHOT_INTERVAL: Duration = Duration::from_secs(1);

/// The actor's state.
pub struct MatState {
    args: MatArgs,
    machine: MatMachine,
    device: Arc<DeviceChannel>,
    company: Arc<CompanyChannel>,
    live: Arc<DeviceLive>,
    next_command_id: u32,
    timer: TimerSlot,
    last_presence: Option<Presence>,
    last_snapshot: Option<Instant>,
    /// Cluster mode: the step's snapshot, for the storage writer once the step's outputs went.
    shared_snapshot: Option<DeviceSnapshot>,
    /// The user attending alarms in the step being applied, for the alarm log.
    attending: Option<Arc<str>>,
    /// The user recording a turn in the step being applied, for the turn log.
    turned_by: Option<Arc<str>>,
}

/// A recorded turn as its caller is told of it: wall-clock times.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TurnRecorded {
    /// When the patient was turned, Unix ms.
    pub at_ms: u64,
    /// The tier before the turn.
    pub tier_before: mat_core::machine::pressure_ulcer::RepositioningTier,
    /// How long the longest load had lasted, ms.
    pub loaded_ms: u64,
}

/// The mat actor.
pub struct MatActor;

impl Actor for MatActor {
    type Msg = MatMsg;
    type State = MatState;
    type Arguments = MatArgs;

    async fn pre_start(&self, myself: ActorRef<MatMsg>, args: MatArgs) -> Result<MatState, ActorProcessingErr> {
        let info = &args.info;
        let resumed = args.snapshot.load();
        let connected = args.link.is_some();
        let config = MatConfig {
            device_type: info.device_type,
            // A device without a live connection cannot be functional, whatever was stored.
            functional: connected && info.functional,
            patient_status: info.patient_status,
            absence_delay: args.absence_delay,
        };
        let now = machine_now();
        let machine = match &resumed {
            Some(snapshot) => {
                MatMachine::restore(MatConfig { functional: connected, ..config }, args.behaviour, snapshot, now, snapshot_unix_ms(now))
            }
            None => MatMachine::with_behaviour(config, args.behaviour),
        };
        let device = args.bus.device(&info.id, &info.company_id);
        let company = args.bus.company(&info.company_id);
        let live = args.board.device(&info.company_id, &info.id);
        let mut state = MatState {
            machine,
            device,
            company,
            live,
            args,
            next_command_id: 1,
            timer: TimerSlot::default(),
            last_presence: None,
            last_snapshot: None,
            shared_snapshot: None,
            attending: None,
            turned_by: None,
        };
        // What the board shows is what browsers were told: the previous actor's last status after
        // a restart, the registry's "offline" after a hub start. The new machine may stand
        // elsewhere (a restarted actor's link is gone; a device connecting to a restarted hub
        // starts functional from its stored status, which the registry announced offline — the
        // bed then showed Offline for as long as it streamed): publish where it stands.
        // Claimed first: the first status of a new connection is the owner's fact (issue 25).
        state.claim_if_connected();
        if !state.board_shows(state.machine.status()) {
            state.publish_status(state.machine.status());
            state.notify_parent();
        }
        state.refresh_snapshot(now, true);
        // The resumed stream's command goes to the device at once.
        state.apply_outputs();
        state.send_shared_snapshot();
        state.release_if_disconnected();
        state.schedule(&myself);
        Ok(state)
    }

    async fn post_stop(&self, _myself: ActorRef<MatMsg>, state: &mut MatState) -> Result<(), ActorProcessingErr> {
        state.company.seam().release(&state.args.info.company_id, &state.args.info.id);
        Ok(())
    }

    async fn handle(&self, myself: ActorRef<MatMsg>, message: MatMsg, state: &mut MatState) -> Result<(), ActorProcessingErr> {
        let now = machine_now();
        // A user's request or a connection change is snapshot at once, whatever it changed.
        let user_step = !matches!(
            message,
            MatMsg::Frame(_)
                | MatMsg::Tick
                | MatMsg::StreamingRemaining(_)
                | MatMsg::GetRepositioning(_)
                | MatMsg::GetPosture(_)
                | MatMsg::GetTare(_)
                | MatMsg::SetParent(_)
        );
        // A command whose records the caller will have stored (an attendance, a turn: the REST
        // call flushes the writer when this answers) is answered after the step's outputs went to
        // the writer, so that flush finds them there.
        let mut answer_after_outputs: Option<Box<dyn FnOnce() + Send>> = None;
        match message {
            MatMsg::Frame(frame) => {
                state.args.inflight.fetch_sub(1, Ordering::Relaxed);
                state.handle_frame(now, frame);
            }
            MatMsg::Attach(link) => {
                if let Some(old) = state.args.link.replace(link) {
                    tracing::info!(device = %state.args.info.serial, old = old.connection_id, "device connection replaced");
                    old.send(HubMessage::Error(ProtocolErrorMessage {
                        code: ErrorCode::Replaced,
                        message: "a newer connection of this device took over".into(),
                        fatal: true,
                    }));
                }
            }
            MatMsg::Detach { connection_id } => {
                if state.args.link.as_ref().is_some_and(|l| l.connection_id == connection_id) {
                    state.args.link = None;
                    state.machine.handle_disconnect(now);
                }
            }
            MatMsg::StartStreaming { seconds, reply } => {
                let result = state.machine.start_streaming(now, seconds);
                let _ = reply.send(result);
            }
            MatMsg::StreamingRemaining(reply) => {
                let _ = reply.send(state.machine.streaming_remaining_secs(now));
            }
            MatMsg::SelectPatient(patient_id) => state.machine.select_patient(patient_id),
            MatMsg::RequestCapture { request, reply } => {
                let _ = reply.send(state.machine.request_capture(now, request));
            }
            MatMsg::RemoteActivation { user_id, reply } => {
                let _ = reply.send(state.machine.remote_activation(now, user_id));
            }
            MatMsg::StartSeries { user_id, period, repetitions, reply } => {
                let _ = reply.send(state.machine.start_series(now, user_id, period, repetitions));
            }
            MatMsg::AttendAlarm { alarm, by, reply } => {
                state.attending = by;
                let result = match alarm {
                    Some(id) => state.machine.attend_alarm(now, id).map(|_| 1),
                    None => Ok(state.machine.attend_all_alarms(now)),
                };
                answer_after_outputs = Some(Box::new(move || {
                    let _ = reply.send(result);
                }));
            }
            MatMsg::RecordTurn { at_ms, position, by, reply } => {
                state.attending = Some(by.clone());
                state.turned_by = Some(by);
                let at = WallClock::new(now, unix_ms()).instant(at_ms);
                let result = state.machine.record_turn(now, at, position).map(|turn| state.turn_recorded(&turn));
                answer_after_outputs = Some(Box::new(move || {
                    let _ = reply.send(result);
                }));
            }
            MatMsg::SetRepositioningInterval(interval) => state.machine.set_repositioning_interval(now, interval),
            MatMsg::GetRepositioning(reply) => {
                let _ = reply.send(state.machine.repositioning(now));
            }
            MatMsg::GetPosture(reply) => {
                let _ = reply.send(state.machine.posture());
            }
            MatMsg::GetTare(reply) => {
                let _ = reply.send(state.machine.tare().cloned());
            }
            MatMsg::ZeroTare(reply) => {
                let _ = reply.send(state.machine.zero_tare(now, unix_ms()));
            }
            MatMsg::SetParent(parent) => {
                state.args.parent = Some(parent);
                // The new parent starts with every member offline: tell it where this one stands.
                state.notify_parent();
            }
            MatMsg::Tick => {
                state.timer.fired();
                state.machine.handle_timeout(now);
            }
            #[cfg(feature = "fault-injection")]
            MatMsg::InjectPanic => panic!("fault injection: mat actor {} panics on purpose", state.args.info.serial),
        }
        // The snapshot is taken before the step's outputs go out: a record sent to the writer is
        // never newer than what a restarted actor resumes from (an alarm already raised is
        // pending in it, a capture already stored is no longer running).
        let forced = user_step || state.machine.has_pending_outputs();
        state.refresh_snapshot(now, forced);
        state.claim_if_connected();
        state.apply_outputs();
        if let Some(answer) = answer_after_outputs {
            answer();
        }
        state.send_shared_snapshot();
        state.release_if_disconnected();
        state.attending = None;
        state.turned_by = None;
        state.schedule(&myself);
        Ok(())
    }
}

impl MatState {
    fn handle_frame(&mut self, now: Instant, mut frame: FrameIn) {
        let hub_time_ms = unix_ms();
        // The tare is subtracted in place before anything reads the frame (the live map too).
        self.machine.tare_frame(now, hub_time_ms, frame.rows, frame.cols, frame.format, &mut frame.cells);
        // The frame's cells become the board's latest map as they are, not copied.
        let Ok(mut live_map) = LiveMap::new(frame.rows, frame.cols, frame.format, frame.cells) else {
            // Ingest checks shapes; a mismatch here is a bug upstream, not a reason to crash.
            tracing::warn!(device = %self.args.info.serial, "frame with a mismatched shape reached the actor");
            return;
        };
        let presence = self.machine.handle_frame(now, &live_map.pressure_map());
        HubMetrics::inc(&self.args.metrics.frames_processed);
        live_map.seq = frame.seq;
        live_map.device_time_ms = frame.device_time_ms;
        live_map.hub_time_ms = hub_time_ms;
        live_map.presence = presence;
        publish_map(&self.live, &self.device, live_map);
        if self.last_presence != Some(presence) {
            self.last_presence = Some(presence);
            self.notify_parent();
        }
    }

    fn apply_outputs(&mut self) {
        // The step's status is saved after the step's records (an alarm raised with a Missing
        // status reaches the store first: see the storage writer's `flush`).
        let mut status_to_save = None;
        while let Some(output) = self.machine.poll_output() {
            match output {
                MatOutput::Status(status) => {
                    self.publish_status(status);
                    status_to_save = Some(StatusRecord {
                        device_id: self.args.info.id.clone(),
                        functional: status.functional,
                        patient_status: status.patient_status,
                    });
                    self.notify_parent();
                }
                MatOutput::Blank => publish_blank(&self.live, &self.device, unix_ms()),
                MatOutput::StreamingEnd(end) => {
                    let ends_at_ms = end.map(|at| self.unix_ms_of(at));
                    self.save(Record::StreamingEnd { device_id: self.args.info.id.clone(), ends_at_ms });
                }
                MatOutput::Alarm(alarm) => self.apply_alarm(alarm),
                MatOutput::Log(log) => self.apply_log(log),
                MatOutput::Capture(capture) => self.apply_capture(capture),
                MatOutput::Tare(tare) => self.save(Record::Tare { device_id: self.args.info.id.clone(), tare: Arc::new(tare) }),
                MatOutput::Turn(turn) => {
                    let record = Record::TurnRecorded {
                        device_id: self.args.info.id.clone(),
                        at_ms: self.unix_ms_of(turn.at),
                        recorded_at_ms: self.unix_ms_of(turn.recorded_at),
                        position: turn.position,
                        by: self.turned_by.clone(),
                        tier_before: turn.tier_before,
                        loaded_ms: u64::try_from(turn.loaded_for.as_millis()).unwrap_or(u64::MAX),
                        interval_ms: u64::try_from(turn.interval.as_millis()).unwrap_or(u64::MAX),
                        detected: turn.detected,
                    };
                    self.save(record);
                }
                MatOutput::Stream(seconds) => {
                    let id = self.next_command_id;
                    self.next_command_id = self.next_command_id.wrapping_add(1);
                    let sent = self.args.link.as_ref().is_some_and(|l| l.send_command(id, Command::Stream { seconds }));
                    if !sent {
                        tracing::warn!(device = %self.args.info.serial, seconds, "stream command could not be queued");
                    }
                }
            }
        }
        if let (Some(writer), Some(record)) = (&self.args.writer, status_to_save) {
            let _ = writer.cast(WriterMsg::Save(record));
        }
    }

    fn apply_alarm(&mut self, output: AlarmOutput) {
        let device_id = self.args.info.id.clone();
        match output {
            AlarmOutput::Raised(alarm) => {
                let raised_at_ms = self.unix_ms_of(alarm.raised_at);
                tracing::debug!(device = %device_id, alarm = alarm.id.0, kind = alarm.kind.name(), "alarm raised");
                self.save(Record::AlarmRaised {
                    device_id: device_id.clone(),
                    alarm_id: alarm.id.0,
                    kind: alarm.kind,
                    raised_at_ms,
                    reason: alarm.reason,
                });
                let event = AlarmOnEvent {
                    device_id: device_id.to_string(),
                    name: self.args.info.name.clone(),
                    alarm_id: alarm.id.0,
                    kind: alarm.kind.name().to_owned(),
                    raised_at_ms,
                    reason: alarm.reason,
                };
                self.company.broadcast(&self.args.info.id, encode_event(events::ALARM_ON, event));
            }
            AlarmOutput::Attended { alarm, attended_at, time_to_attend } => {
                let attended_at_ms = self.unix_ms_of(attended_at);
                let time_to_attend_ms = u64::try_from(time_to_attend.as_millis()).unwrap_or(u64::MAX);
                let by = self.attending.clone();
                tracing::debug!(device = %device_id, alarm = alarm.id.0, "alarm attended");
                self.save(Record::AlarmAttended {
                    device_id: device_id.clone(),
                    alarm_id: alarm.id.0,
                    attended_at_ms,
                    time_to_attend_ms,
                    by,
                });
                let event =
                    AlarmAttendedEvent { device_id: device_id.to_string(), alarm_id: alarm.id.0, attended_at_ms, time_to_attend_ms };
                self.company.broadcast(&self.args.info.id, encode_event(events::ALARM_ATTENDED, event));
            }
        }
    }

    fn apply_log(&mut self, output: LogOutput) {
        let device_id = self.args.info.id.clone();
        let record = match output {
            LogOutput::Device(entry) => Record::DeviceLog(Box::new(DeviceLogRecord {
                device_id,
                at_ms: self.unix_ms_of(entry.at),
                max_pressure: entry.max_pressure,
                posture_id: entry.posture.map(|p| p.posture.id()),
                posture_name: entry.posture.map(|p| p.posture.name()),
                confidence: entry.posture.map(|p| p.confidence),
                preview: entry.preview,
                reason: entry.reason,
            })),
            LogOutput::Presence { at, present } => Record::PresenceLog { device_id, at_ms: self.unix_ms_of(at), present },
        };
        self.save(record);
    }

    fn apply_capture(&mut self, output: CaptureOutput) {
        let device_id = self.args.info.id.to_string();
        let event = |user_id: &str, phase: &str| CaptureEvent {
            device_id: device_id.clone(),
            user_id: user_id.to_owned(),
            phase: phase.to_owned(),
            kind: None,
            toast: None,
            repetition: None,
            refusal: None,
        };
        let event = match output {
            CaptureOutput::Complete(capture) => {
                let requested_at_ms = self.unix_ms_of(capture.requested_at);
                self.save(Record::CaptureStored(Arc::new(CaptureRecord {
                    device_id: self.args.info.id.clone(),
                    patient_id: capture.patient_id,
                    user_id: capture.origin.user_id().to_owned(),
                    kind: capture.kind,
                    requested_at_ms,
                    seconds: capture.seconds,
                    frames: capture.frames,
                    dropped_frames: capture.dropped_frames,
                })));
                return;
            }
            CaptureOutput::Announcement { kind, origin } => CaptureEvent {
                kind: Some(kind.name().to_owned()),
                toast: Some(kind.announcement_key().to_owned()),
                ..event(origin.user_id(), "announced")
            },
            CaptureOutput::Failed { kind, origin } => {
                CaptureEvent { kind: Some(kind.name().to_owned()), ..event(origin.user_id(), "failed") }
            }
            CaptureOutput::ResultsDue { kind, origin } => {
                CaptureEvent { kind: Some(kind.name().to_owned()), ..event(origin.user_id(), "resultsDue") }
            }
            CaptureOutput::SeriesRepetitionRefused { user_id, repetition, refusal } => CaptureEvent {
                repetition: Some(repetition),
                refusal: Some(refusal.code().to_owned()),
                ..event(&user_id, "seriesRepetitionRefused")
            },
            CaptureOutput::SeriesFinished { user_id } => event(&user_id, "seriesFinished"),
            // The machine turns stream requests into `MatOutput::Stream`.
            CaptureOutput::Stream(_) => return,
        };
        self.company.broadcast(&self.args.info.id, encode_event(events::CAPTURE, event));
    }

    /// Cluster mode: sends the step's snapshot to the storage writer after the step's records and
    /// status (so the writer never holds a snapshot newer than the rows cast before it).
    fn send_shared_snapshot(&mut self) {
        if let (Some(shared), Some(writer)) = (self.shared_snapshot.take(), &self.args.writer) {
            let _ = writer.cast(WriterMsg::Snapshot(shared));
        }
    }

    /// Keeps the machine's snapshot in the shared slot current: at once when `forced`, otherwise
    /// at most [`SNAPSHOT_INTERVAL`] apart.
    fn refresh_snapshot(&mut self, now: Instant, forced: bool) {
        if !forced && self.last_snapshot.is_some_and(|last| now < last + SNAPSHOT_INTERVAL) {
            return;
        }
        self.last_snapshot = Some(now);
        let taken_at_ms = snapshot_unix_ms(now);
        let snapshot = self.machine.snapshot(now, taken_at_ms);
        if self.args.share_snapshots && self.args.writer.is_some() {
            let shared = DeviceSnapshot { device_id: self.args.info.id.clone(), taken_at_ms, snapshot: Arc::new(snapshot.clone()) };
            self.shared_snapshot = Some(shared);
        }
        self.args.snapshot.save(snapshot);
    }

    fn turn_recorded(&self, turn: &RecordedTurn) -> TurnRecorded {
        TurnRecorded {
            at_ms: self.unix_ms_of(turn.at),
            tier_before: turn.tier_before,
            loaded_ms: u64::try_from(turn.loaded_for.as_millis()).unwrap_or(u64::MAX),
        }
    }

    fn unix_ms_of(&self, at: Instant) -> u64 {
        instant_to_unix_ms(at, machine_now(), unix_ms())
    }

    fn save(&self, record: Record) {
        if let Some(writer) = &self.args.writer {
            let _ = writer.cast(WriterMsg::Record(record));
        }
    }

    /// Whether the live board already shows `status` for this device.
    fn board_shows(&self, status: DeviceStatus) -> bool {
        self.live.status().is_some_and(|shown| shown == DeviceConfEvent::new(&self.args.info.identity(), &status, Vec::new()))
    }

    /// This hub owns the device while this actor holds its connection (issue 25): claimed before
    /// a step's outputs go out (the first status of a new connection is the owner's fact)...
    ///
    /// A new owner tells the other hubs where the device stands at once, even when its own board
    /// already shows that status (then no step publishes it): while the lease moved, another hub
    /// may have shown the device disconnected (its lease had expired with no owner) and asked the
    /// owners for their devices' statuses before this actor claimed it, and a bed whose status
    /// does not change would have stayed Offline there (the 1,000-mat cluster run, 2026-11-30).
    fn claim_if_connected(&self) {
        if self.args.link.is_some()
            && self.company.seam().claim(&self.args.info.company_id, &self.args.info.id)
            && let Some(relay) = self.company.seam().relay_for_owned(&self.args.info.id)
        {
            let status = DeviceConfEvent::new(&self.args.info.identity(), &self.machine.status(), Vec::new());
            relay.status(&self.args.info.company_id, &status);
        }
    }

    /// ...and released after them: the offline status of a connection that just closed still
    /// goes out as the owner's fact before the hub lets go.
    fn release_if_disconnected(&self) {
        if self.args.link.is_none() {
            self.company.seam().release(&self.args.info.company_id, &self.args.info.id);
        }
    }

    fn publish_status(&mut self, status: DeviceStatus) {
        let event = DeviceConfEvent::new(&self.args.info.identity(), &status, Vec::new());
        publish_status(&self.live, &self.company, &self.args.info.id, event);
    }

    /// Tells the device's set (room set, horse) where this member stands. In a cluster only the
    /// owner's word counts (issue 25): it tells its own set actor and, through the relay, every
    /// other hub's (their mirror hands it to their set actors); a hub's actor of a member another
    /// hub owns says nothing, so a set split across hubs has the same members on every hub.
    fn notify_parent(&self) {
        let Some((_, index)) = &self.args.info.parent else { return };
        let seam = self.company.seam();
        if !seam.owns(&self.args.info.id) {
            return;
        }
        let (status, presence) = (self.machine.status(), self.last_presence.unwrap_or(Presence::Absent));
        if let Some(parent) = &self.args.parent {
            let _ = parent.cast(RoomSetMsg::Member { index: *index, status, presence });
        }
        if let Some(relay) = seam.relay_for_owned(&self.args.info.id) {
            relay.member(&self.args.info.company_id, &self.args.info.id, status, presence);
        }
    }

    /// Arms one timer for the machine's next deadline, unless an earlier one is armed already.
    fn schedule(&mut self, myself: &ActorRef<MatMsg>) {
        if let Some(delay) = self.machine.poll_timeout().and_then(|deadline| self.timer.arm(deadline, machine_now())) {
            myself.send_after(delay, || MatMsg::Tick);
        }
    }
}

mod snapshot_slot;
pub use snapshot_slot::SnapshotSlot;

#[cfg(test)]
mod tests;
