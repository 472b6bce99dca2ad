//! `MatActor`: one per device. Feeds frames and timers to its [`MatMachine`], publishes live maps
//! to its viewers, status changes to its company, commands to its device, and statuses to the
//! storage writer.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort};

use super::link::DeviceLink;
use super::room_set::RoomSetMsg;
use super::record::Record;
use super::storage_writer::{StatusRecord, WriterMsg};
use super::{instant_to_unix_ms, unix_ms, TimerSlot};
use crate::browser::{encode_event, events, DeviceConfEvent, PressureMapEvent};
use crate::catalog::DeviceInfo;
use crate::fanout::{Bus, CompanyChannel, DeviceChannel};
use crate::machine::mat::{DeviceStatus, MatConfig, MatMachine, MatOutput};
use crate::machine::presence::Presence;
use crate::machine::pressure_map::PressureMap;
use crate::machine::streaming::StreamRefusal;
use crate::metrics::HubMetrics;
use crate::protocol::{CellFormat, Command, ErrorCode, HubMessage, ProtocolErrorMessage};

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
    /// The current status.
    GetStatus(RpcReplyPort<DeviceStatus>),
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
    pub writer: Option<ActorRef<WriterMsg>>,
    pub parent: Option<ActorRef<RoomSetMsg>>,
    pub metrics: Arc<HubMetrics>,
    pub absence_delay: Duration,
    /// Frames cast to this actor and not yet handled; shared with ingest.
    pub inflight: Arc<AtomicUsize>,
    /// The last status this device had, shared with the registry so a restart resumes from it.
    pub last_status: Arc<Mutex<Option<DeviceStatus>>>,
}

/// The actor's state.
pub struct MatState {
    args: MatArgs,
    machine: MatMachine,
    device: Arc<DeviceChannel>,
    company: Arc<CompanyChannel>,
    next_command_id: u32,
    timer: TimerSlot,
    last_presence: Option<Presence>,
}

/// The mat actor.
pub struct MatActor;

impl Actor for MatActor {
    type Msg = MatMsg;
    type State = MatState;
    type Arguments = MatArgs;

    async fn pre_start(&self, myself: ActorRef<MatMsg>, args: MatArgs) -> Result<MatState, ActorProcessingErr> {
        let info = &args.info;
        let resumed = *args.last_status.lock().unwrap_or_else(|p| p.into_inner());
        let (functional, patient_status) =
            resumed.map(|s| (s.functional, s.patient_status)).unwrap_or((info.functional, info.patient_status));
        let machine = MatMachine::new(MatConfig {
            device_type: info.device_type,
            // A device without a live connection cannot be functional, whatever was stored.
            functional: functional && args.link.is_some(),
            patient_status,
            absence_delay: args.absence_delay,
        });
        let device = args.bus.device(&info.id, &info.company_id);
        let company = args.bus.company(&info.company_id);
        let mut state = MatState {
            machine,
            device,
            company,
            args,
            next_command_id: 1,
            timer: TimerSlot::default(),
            last_presence: None,
        };
        // A restarted actor may start in another state than it left (its link is gone, say);
        // a fresh one starts offline, which the registry already announced.
        if resumed.is_some_and(|r| r != state.machine.status()) {
            state.publish_status(state.machine.status());
        }
        state.schedule(&myself);
        Ok(state)
    }

    async fn handle(&self, myself: ActorRef<MatMsg>, message: MatMsg, state: &mut MatState) -> Result<(), ActorProcessingErr> {
        let now = Instant::now();
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
            MatMsg::GetStatus(reply) => {
                let _ = reply.send(state.machine.status());
            }
            MatMsg::Tick => {
                state.timer.fired();
                state.machine.handle_timeout(now);
            }
            #[cfg(feature = "fault-injection")]
            MatMsg::InjectPanic => panic!("fault injection: mat actor {} panics on purpose", state.args.info.serial),
        }
        state.apply_outputs();
        state.schedule(&myself);
        Ok(())
    }
}

impl MatState {
    fn handle_frame(&mut self, now: Instant, frame: FrameIn) {
        let Ok(map) = PressureMap::new(frame.rows, frame.cols, frame.format, &frame.cells) else {
            // Ingest checks shapes; a mismatch here is a bug upstream, not a reason to crash.
            tracing::warn!(device = %self.args.info.serial, "frame with a mismatched shape reached the actor");
            return;
        };
        let presence = self.machine.handle_frame(now, &map);
        HubMetrics::inc(&self.args.metrics.frames_processed);
        let message = encode_event(
            events::PRESSURE_MAP,
            PressureMapEvent {
                device_id: &self.args.info.id,
                seq: frame.seq,
                device_time_ms: frame.device_time_ms,
                hub_time_ms: unix_ms(),
                rows: frame.rows,
                cols: frame.cols,
                bytes_per_cell: frame.format.bytes_per_cell() as u8,
                cells: &frame.cells,
                presence,
                blank: false,
            },
        );
        self.device.publish(message);
        if self.last_presence != Some(presence) {
            self.last_presence = Some(presence);
            self.notify_parent();
        }
    }

    fn apply_outputs(&mut self) {
        while let Some(output) = self.machine.poll_output() {
            match output {
                MatOutput::Status(status) => {
                    self.publish_status(status);
                    if let Some(writer) = &self.args.writer {
                        let record = StatusRecord {
                            device_id: self.args.info.id.clone(),
                            functional: status.functional,
                            patient_status: status.patient_status,
                        };
                        let _ = writer.cast(WriterMsg::Save(record));
                    }
                    self.notify_parent();
                }
                MatOutput::Blank => {
                    let (rows, cols) = (0, 0);
                    let message = encode_event(
                        events::PRESSURE_MAP,
                        PressureMapEvent {
                            device_id: &self.args.info.id,
                            seq: 0,
                            device_time_ms: 0,
                            hub_time_ms: unix_ms(),
                            rows,
                            cols,
                            bytes_per_cell: 1,
                            cells: &[],
                            presence: Presence::Absent,
                            blank: true,
                        },
                    );
                    self.device.publish(message);
                }
                MatOutput::StreamingEnd(end) => {
                    let ends_at_ms = end.map(|at| instant_to_unix_ms(at, Instant::now(), unix_ms()));
                    self.save(Record::StreamingEnd { device_id: self.args.info.id.clone(), ends_at_ms });
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
    }

    fn save(&self, record: Record) {
        if let Some(writer) = &self.args.writer {
            let _ = writer.cast(WriterMsg::Record(record));
        }
    }

    fn publish_status(&mut self, status: DeviceStatus) {
        *self.args.last_status.lock().unwrap_or_else(|p| p.into_inner()) = Some(status);
        let event = DeviceConfEvent::new(&self.args.info.identity(), &status, Vec::new());
        self.company.publish(&self.args.info.id, encode_event(events::DEVICE_CONF, event));
    }

    fn notify_parent(&self) {
        if let (Some(parent), Some((_, index))) = (&self.args.parent, &self.args.info.parent) {
            let _ = parent.cast(RoomSetMsg::Member {
                index: *index,
                status: self.machine.status(),
                presence: self.last_presence.unwrap_or(Presence::Absent),
            });
        }
    }

    /// Arms one timer for the machine's next deadline, unless an earlier one is armed already.
    fn schedule(&mut self, myself: &ActorRef<MatMsg>) {
        if let Some(delay) = self.machine.poll_timeout().and_then(|deadline| self.timer.arm(deadline, Instant::now())) {
            myself.send_after(delay, || MatMsg::Tick);
        }
    }
}
