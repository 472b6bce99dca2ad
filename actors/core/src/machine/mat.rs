//! Everything one mat decides, composed: liveness, presence, patient status, card status,
//! streaming, posture, the repositioning clock, alarms, log cadence and captures. This is the
//! machine a `MatActor` drives.
//!
//! Inputs: [`MatMachine::handle_frame`] (returns the frame's presence at once, since every live
//! map carries it), [`MatMachine::handle_disconnect`], [`MatMachine::handle_timeout`],
//! [`MatMachine::start_streaming`], [`MatMachine::select_patient`],
//! [`MatMachine::request_capture`], [`MatMachine::remote_activation`],
//! [`MatMachine::start_series`], [`MatMachine::attend_alarm`], [`MatMachine::attend_all_alarms`],
//! [`MatMachine::set_repositioning_interval`], [`MatMachine::record_turn`]. Outputs, drained with
//! [`MatMachine::poll_output`]: [`MatOutput`]. [`MatMachine::poll_timeout`] is the earliest
//! deadline of the parts.
//!
//! The patient status combines two machines: Missing (absence past the delay) outranks Ulcer Risk
//! (the repositioning clock at Due or later), which outranks the presence verdict's Correct.
//! Posture is read on bed mats only, at most once a second; the repositioning clock runs on bed and
//! IoT seating mats.
//! While the device is not functional the absence and repositioning clocks stand still: a
//! disconnected mat says nothing about the patient.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use super::alarm::{AlarmId, AlarmKind, AlarmMachine, AlarmOutput, AlarmReason, AttendError};
use super::body_regions::BodyBand;
use super::capture::{CaptureKind, CaptureMachine, CaptureOutput, CaptureRefusal, CaptureRequest};
use super::device_log::{DeviceLogMachine, LogConfig, LogOutput};
use super::live_map::{LiveMap, LiveOutput};
use super::patient_status::PatientStatusMachine;
use super::posture::{Orientation, POSTURE_INTERVAL, Posture, PostureClassifier, PostureReading};
use super::presence::{Presence, PresenceDetector, PresenceScale, reading_presence};
use super::pressure_map::PressureMap;
use super::pressure_ulcer::{RepositioningTier, UlcerConfig, UlcerRiskMachine};
use super::status::{CardInputs, CardStatus, PatientStatus, StateCode, card_status, state_code};
use super::streaming::{StreamGate, StreamOutput, StreamRefusal, Streaming};
use super::tare::{Tare, TareMachine, TareRefusal};
use mat_protocol::CellFormat;
use mat_protocol::device_type::DeviceType;

/// A device's status as cards and the REST API show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeviceStatus {
    /// `deviceFunctional`.
    pub functional: bool,
    /// `patientStatus`.
    pub patient_status: PatientStatus,
    /// State code of spec §4 (`None` offline).
    pub state_code: StateCode,
    /// The card's status.
    pub card: CardStatus,
    /// How urgent repositioning is (the escalation tier on the device page and card).
    pub repositioning: RepositioningTier,
    /// An alarm waits to be attended (the card's Attend button; `iotCheckAlarms` is 'True').
    pub unattended_alarm: bool,
}

impl DeviceStatus {
    /// A status with no repositioning urgency and no pending alarm.
    pub fn new(functional: bool, patient_status: PatientStatus, state_code: StateCode, card: CardStatus) -> Self {
        DeviceStatus { functional, patient_status, state_code, card, repositioning: RepositioningTier::Ok, unattended_alarm: false }
    }

    /// The status of a device of this type that is not connected.
    pub fn offline(device_type: DeviceType, patient_status: PatientStatus) -> Self {
        let code = state_code(false, patient_status);
        DeviceStatus::new(false, patient_status, code, card_status(device_type, false, code, CardInputs::default()))
    }
}

/// What the mat machine wants done.
#[derive(Debug, Clone, PartialEq)]
pub enum MatOutput {
    /// The status changed: tell the company's sessions and persist it.
    Status(DeviceStatus),
    /// Clear the live map on every viewer.
    Blank,
    /// Send a stream command to the device (seconds, margin included; 0 stops).
    Stream(u32),
    /// Persist the live stream's end time (`None` clears it), so a restart or a reconnecting
    /// browser resumes the countdown.
    StreamingEnd(Option<Instant>),
    /// A capture event: announce, store the completed capture, tell that results are due…
    /// (`CaptureOutput::Stream` never appears here: it becomes [`MatOutput::Stream`]).
    Capture(CaptureOutput),
    /// An alarm was raised or attended: persist it and tell the company's sessions.
    Alarm(AlarmOutput),
    /// A device or presence log entry to persist.
    Log(LogOutput),
    /// A new tare (learnt or zeroed) to persist.
    Tare(Tare),
    /// A nurse recorded a turn, or the clock detected one: persist it in the turn log.
    Turn(RecordedTurn),
}

/// A turn a nurse recorded or the clock detected, as the turn log keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordedTurn {
    /// When the patient was turned (not after the recording).
    pub at: Instant,
    /// When it was recorded.
    pub recorded_at: Instant,
    /// The position the patient was turned to, as the nurse gave it.
    pub position: Option<Posture>,
    /// The tier the clock stood at before the turn (a turn at `Ok` or `DueSoon` is on time).
    pub tier_before: RepositioningTier,
    /// How long the longest load episode had lasted at the turn, wall clock.
    pub loaded_for: Duration,
    /// The repositioning interval then (as set, not scaled).
    pub interval: Duration,
    /// The clock detected it (a posture change or load shift held): no one recorded it, and it is
    /// not care given (FHIR keeps it apart from a nurse's recorded turn).
    pub detected: bool,
}

/// Why a turn could not be recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error, serde::Serialize, serde::Deserialize)]
pub enum TurnRefusal {
    /// The device's type has no repositioning clock (a plate, a Force Mat…).
    #[error("this device has no repositioning clock")]
    NoRepositioningClock,
}

/// Configuration a mat machine starts from.
#[derive(Debug, Clone, Copy)]
pub struct MatConfig {
    /// The device's type.
    pub device_type: DeviceType,
    /// Stored `deviceFunctional`.
    pub functional: bool,
    /// Stored `patientStatus`.
    pub patient_status: PatientStatus,
    /// Absence longer than this makes the patient Missing.
    pub absence_delay: Duration,
}

/// Tuning of the behaviour machines; the defaults are the documented ones.
#[derive(Debug, Clone, Copy, Default)]
pub struct BehaviourConfig {
    /// The repositioning clock.
    pub ulcer: UlcerConfig,
    /// The log cadence.
    pub log: LogConfig,
    /// How bodies lie on the mat.
    pub orientation: Orientation,
    /// The number of the first alarm raised (the shell continues the stored numbering).
    pub first_alarm_id: u64,
    /// Demo and test only: the repositioning clock runs this many times faster than the wall
    /// clock (every duration of [`UlcerConfig`] but the sampling, and every interval set later,
    /// divided by it). 0 and 1 mean real time, the default.
    pub repositioning_time_scale: u32,
}

impl BehaviourConfig {
    fn time_scale(&self) -> u32 {
        self.repositioning_time_scale.max(1)
    }

    /// The repositioning clock's tuning on the scaled clock.
    fn scaled_ulcer(&self) -> UlcerConfig {
        let k = self.time_scale();
        let u = self.ulcer;
        UlcerConfig {
            interval: u.interval / k,
            offload: u.offload / k,
            due_soon: u.due_soon / k,
            overdue_after: u.overdue_after / k,
            turn_confirmation: u.turn_confirmation / k,
            ..u
        }
    }
}

/// The repositioning clock as a nurse reads it on the device page (crosses hubs in a cluster,
/// hence serde).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RepositioningView {
    /// The interval set for the patient on this device (as set, not scaled).
    pub interval: Duration,
    /// The escalation tier.
    pub tier: RepositioningTier,
    /// Wall-clock time until the next turn is due (zero once due); `None` while nobody lies on
    /// the mat.
    pub due_in: Option<Duration>,
    /// How long nothing has loaded the mat while the episode lives on (the patient is up, for
    /// less than `offload`): the countdown runs on, and the mat is empty
    /// ([`super::pressure_ulcer::UlcerRiskMachine::unloaded_for`]); `None` while the last frame
    /// finds someone present, their weight on no region yet. Defaulted for a hub of the
    /// previous version in a cluster.
    #[serde(default)]
    pub unloaded_for: Option<Duration>,
    /// How long the mat must carry no load for the episode to end (wall-clock, the machine's
    /// [`UlcerConfig::offload`]).
    #[serde(default)]
    pub offload: Duration,
}

/// The per-device machine.
#[derive(Debug)]
pub struct MatMachine {
    device_type: DeviceType,
    live: LiveMap,
    presence: PresenceDetector,
    /// The idle level subtracted from every frame (map devices).
    tare: Option<TareMachine>,
    patient: PatientStatusMachine,
    streaming: Streaming,
    posture: Option<PostureClassifier>,
    last_posture: Option<PostureReading>,
    /// The last frame's presence verdict: a mat someone is on is not empty, whatever its
    /// regions' load says ([`MatMachine::repositioning`]).
    last_presence: Presence,
    /// When the posture was last read (it is read at most once per [`POSTURE_INTERVAL`]).
    posture_read_at: Option<Instant>,
    ulcer: Option<UlcerRiskMachine>,
    alarms: AlarmMachine,
    logs: Option<DeviceLogMachine>,
    capture: CaptureMachine,
    /// While a capture streams: until when it needs the device streaming.
    capture_stream_until: Option<Instant>,
    force_values: [u16; 4],
    last_status: DeviceStatus,
    outputs: VecDeque<MatOutput>,
    /// Demo/test speed-up of the repositioning clock (1: real time).
    repositioning_time_scale: u32,
    /// The head lies at the far end of the long axis (for naming a loaded region).
    head_at_far_end: bool,
    /// The repositioning interval set for this device (as set, not scaled; `None`: the default).
    repositioning_interval: Option<Duration>,
}

/// Whether a dynamic capture on `device_type` is a walk across a plate (its analysis is the gait
/// engine's), which the capture keeps from the first empty plate.
pub(crate) fn dynamic_is_walk(device_type: DeviceType) -> bool {
    crate::analysis::AnalysisKind::of_capture(device_type, CaptureKind::Dynamic) == crate::analysis::AnalysisKind::Dynamic
}

impl MatMachine {
    /// A machine in the stored state, with the default behaviour tuning.
    pub fn new(config: MatConfig) -> Self {
        Self::with_behaviour(config, BehaviourConfig::default())
    }

    /// A machine in the stored state with this behaviour tuning.
    pub fn with_behaviour(config: MatConfig, behaviour: BehaviourConfig) -> Self {
        let device_type = config.device_type;
        let map_device = !device_type.uses_reading_presence();
        let mut capture = CaptureMachine::new();
        capture.set_functional(config.functional);
        capture.set_dynamic_is_walk(dynamic_is_walk(device_type));
        let mut machine = MatMachine {
            device_type,
            live: LiveMap::new(config.functional),
            presence: PresenceDetector::with_scale(PresenceScale::for_device(device_type)),
            tare: map_device.then(|| TareMachine::new(PresenceScale::for_device(device_type).units_per_cell(), None)),
            patient: PatientStatusMachine::new(config.patient_status, config.absence_delay),
            streaming: Streaming::new(),
            posture: device_type.posture_scheme().map(|scheme| PostureClassifier::new(scheme, behaviour.orientation)),
            last_posture: None,
            last_presence: Presence::Absent,
            posture_read_at: None,
            ulcer: device_type.watches_repositioning().then(|| UlcerRiskMachine::new(behaviour.scaled_ulcer())),
            alarms: AlarmMachine::new(behaviour.first_alarm_id),
            logs: map_device.then(|| DeviceLogMachine::new(behaviour.log)),
            capture,
            capture_stream_until: None,
            force_values: [0; 4],
            last_status: DeviceStatus::new(config.functional, config.patient_status, None, CardStatus::Offline),
            outputs: VecDeque::new(),
            repositioning_time_scale: behaviour.time_scale(),
            head_at_far_end: behaviour.orientation.head_at_far_end,
            repositioning_interval: None,
        };
        // A patient stored as Missing had their alarm raised before this machine existed.
        machine.alarms.assume_conditions(config.patient_status == PatientStatus::Missing, false);
        machine.last_status = machine.compute_status();
        machine
    }

    /// The current status.
    pub fn status(&self) -> DeviceStatus {
        self.last_status
    }

    /// When the running stream ends.
    pub fn streaming_ends_at(&self) -> Option<Instant> {
        self.streaming.ends_at()
    }

    /// Rebuilds the live stream from a stored end time (after a restart): a future end time
    /// resumes with the remaining seconds, a past one is cleared.
    pub fn resume_streaming(&mut self, now: Instant, stored_end: Option<Instant>) {
        self.streaming = Streaming::resume(now, stored_end);
        self.collect(now);
    }

    /// Whole seconds left of the live stream, for a viewer that reconnects.
    pub fn streaming_remaining_secs(&self, now: Instant) -> u32 {
        self.streaming.remaining_secs(now)
    }

    /// The latest posture reading (bed mats, someone present).
    pub fn posture(&self) -> Option<PostureReading> {
        self.last_posture
    }

    /// The alarms not attended yet.
    pub fn pending_alarms(&self) -> &[super::alarm::Alarm] {
        self.alarms.pending()
    }

    /// The number the next alarm will get.
    pub fn next_alarm_id(&self) -> u64 {
        self.alarms.next_id()
    }

    /// Whether an alarm waits to be attended (`iotCheckAlarms`).
    pub fn has_unattended_alarm(&self) -> bool {
        self.alarms.has_unattended()
    }

    /// The latest reading of a Force Mat or room-set sensor: its four channels (0–4095) and their
    /// sum (`presureValue`, which the client polls every 500 ms). `None` for map devices.
    pub fn reading(&self) -> Option<([u16; 4], u32)> {
        self.device_type.uses_reading_presence().then(|| (self.force_values, self.force_values.iter().map(|&v| u32::from(v)).sum()))
    }

    /// Whether a capture is running.
    pub fn is_capturing(&self) -> bool {
        self.capture.is_capturing()
    }

    /// A frame's raw cells arrive (before [`MatMachine::handle_frame`]): the tare machine may sample
    /// them, then the tare is subtracted from them in place, so everything that reads the frame
    /// afterwards (presence, posture, the repositioning clock, captures, the live map) reads it
    /// tared. `now_unix_ms` is `now` on the wall clock. Devices read by their channels' sum are left
    /// as they are.
    pub fn tare_frame(&mut self, now: Instant, now_unix_ms: u64, rows: u16, cols: u16, format: CellFormat, cells: &mut [u8]) {
        if let Some(tare) = &mut self.tare {
            tare.handle_frame(now, now_unix_ms, rows, cols, format, cells);
        }
    }

    /// The tare subtracted from this mat's frames (`None`: none, or a device without maps).
    pub fn tare(&self) -> Option<&Tare> {
        self.tare.as_ref().and_then(|t| t.tare())
    }

    /// An administrator zeroes the empty mat: refused while someone lies on it, or before an
    /// empty frame has arrived.
    pub fn zero_tare(&mut self, now: Instant, now_unix_ms: u64) -> Result<Tare, TareRefusal> {
        let Some(tare) = &mut self.tare else { return Err(TareRefusal::NoEmptyFrame) };
        if !self.live.functional() {
            return Err(TareRefusal::NoEmptyFrame);
        }
        let result = tare.zero(now_unix_ms).cloned();
        self.collect(now);
        result
    }

    /// A frame arrived (already tared, see [`MatMachine::tare_frame`]); returns its presence verdict.
    pub fn handle_frame(&mut self, now: Instant, map: &PressureMap<'_>) -> Presence {
        self.live.handle_frame(now);
        let presence = if self.device_type.uses_reading_presence() {
            for (slot, value) in self.force_values.iter_mut().zip(map.values()) {
                *slot = value;
            }
            reading_presence(map.total())
        } else {
            self.presence.check(map)
        };
        if let Some(tare) = &mut self.tare {
            tare.handle_presence(now, presence);
        }
        self.patient.handle_presence(now, presence);
        self.last_presence = presence;
        if !self.device_type.uses_reading_presence() {
            self.last_posture = match (&mut self.posture, presence) {
                (Some(classifier), Presence::Present) => {
                    if self.posture_read_at.is_none_or(|at| now >= at + POSTURE_INTERVAL) {
                        self.posture_read_at = Some(now);
                        classifier.classify(map)
                    } else {
                        self.last_posture
                    }
                }
                _ => {
                    self.posture_read_at = None;
                    None
                }
            };
            if let Some(ulcer) = &mut self.ulcer {
                ulcer.handle_map(now, map, self.last_posture);
            }
            if let Some(logs) = &mut self.logs {
                logs.handle_frame(now, map, presence, self.last_posture);
            }
            self.capture.set_functional(self.live.functional());
            self.capture.handle_frame(now, map, presence);
        }
        self.collect(now);
        presence
    }

    /// The device's connection closed.
    pub fn handle_disconnect(&mut self, now: Instant) {
        self.live.handle_disconnect(now);
        if let Some(tare) = &mut self.tare {
            tare.handle_disconnect();
        }
        self.streaming.stop();
        self.capture.set_functional(false);
        self.collect(now);
    }

    /// Acts on every deadline due at `now`.
    pub fn handle_timeout(&mut self, now: Instant) {
        self.live.handle_timeout(now);
        // Without frames there is no presence evidence; the absence and repositioning clocks only
        // run on frames and on these timeouts while the device is functional.
        if self.live.functional() {
            self.patient.handle_timeout(now);
            if let Some(ulcer) = &mut self.ulcer {
                ulcer.handle_timeout(now);
            }
        }
        self.streaming.handle_timeout(now);
        if !self.live.functional() {
            self.streaming.stop();
            self.capture.set_functional(false);
        }
        self.capture.handle_timeout(now);
        self.collect(now);
    }

    /// A viewer asks for `seconds` of live streaming (0 stops). Refused while a capture runs.
    pub fn start_streaming(&mut self, now: Instant, seconds: u32) -> Result<(), StreamRefusal> {
        let gate = StreamGate { functional: self.live.functional(), capture_running: self.capture.is_capturing() };
        let result = self.streaming.start(now, seconds, gate);
        self.collect(now);
        result
    }

    /// The patient selected on this device (`None`: none).
    pub fn select_patient(&mut self, patient_id: Option<String>) {
        self.capture.set_patient(patient_id);
    }

    /// A user asks for a capture.
    pub fn request_capture(&mut self, now: Instant, request: CaptureRequest) -> Result<(), CaptureRefusal> {
        let result = self.capture.request(now, request);
        self.collect(now);
        result
    }

    /// Remote activation (`startDynamicCapture`).
    pub fn remote_activation(&mut self, now: Instant, user_id: String) -> Result<(), CaptureRefusal> {
        let result = self.capture.remote_activation(now, user_id);
        self.collect(now);
        result
    }

    /// Starts a static series (the 24 h analysis: 3,600,000 ms × 24).
    pub fn start_series(&mut self, now: Instant, user_id: String, period: Duration, repetitions: u32) -> Result<(), CaptureRefusal> {
        let result = self.capture.start_series(now, user_id, period, repetitions);
        self.collect(now);
        result
    }

    /// Someone attends alarm `id`; returns its time to attend.
    pub fn attend_alarm(&mut self, now: Instant, id: AlarmId) -> Result<Duration, AttendError> {
        let result = self.alarms.attend(now, id);
        self.collect(now);
        result
    }

    /// Someone attends the device: every pending alarm. Returns how many.
    pub fn attend_all_alarms(&mut self, now: Instant) -> usize {
        let count = self.alarms.attend_all(now);
        self.collect(now);
        count
    }

    /// A new repositioning interval for the patient on this device.
    pub fn set_repositioning_interval(&mut self, now: Instant, interval: Duration) {
        self.repositioning_interval = Some(interval);
        if let Some(ulcer) = &mut self.ulcer {
            ulcer.set_interval(now, interval / self.repositioning_time_scale);
        }
        self.collect(now);
    }

    /// The repositioning clock for the device page: interval, tier and the time until the next
    /// turn is due. `None` for types without the clock.
    pub fn repositioning(&self, now: Instant) -> Option<RepositioningView> {
        let ulcer = self.ulcer.as_ref()?;
        let interval = ulcer.config().interval;
        let loaded = ulcer.longest_load(now);
        Some(RepositioningView {
            interval: interval * self.repositioning_time_scale,
            tier: ulcer.tier(),
            due_in: (loaded > Duration::ZERO).then(|| interval.saturating_sub(loaded)),
            // Someone getting into bed is present before their weight loads a region (the probe of
            // the demo's bed: 0.6 s of every lie-down): the bed is not empty then.
            unloaded_for: ulcer.unloaded_for(now).filter(|_| self.last_presence != Presence::Present),
            offload: ulcer.config().offload,
        })
    }

    /// A nurse recorded a turn by hand, done at `at` (a time after `now` is taken as now) to
    /// `position`: the repositioning clock restarts from then, the turn goes to the turn log, and
    /// an unattended Ulcer Risk alarm is attended by it (docs/decisions.md, "A recorded turn").
    pub fn record_turn(&mut self, now: Instant, at: Instant, position: Option<Posture>) -> Result<RecordedTurn, TurnRefusal> {
        let scale = self.repositioning_time_scale;
        let Some(ulcer) = &mut self.ulcer else { return Err(TurnRefusal::NoRepositioningClock) };
        let at = at.min(now);
        let turn = RecordedTurn {
            at,
            recorded_at: now,
            position,
            tier_before: ulcer.tier(),
            loaded_for: ulcer.longest_load(at) * scale,
            interval: ulcer.config().interval * scale,
            detected: false,
        };
        ulcer.record_turn(now, at);
        self.outputs.push_back(MatOutput::Turn(turn));
        self.alarms.attend_kind(now, AlarmKind::UlcerRisk);
        self.collect(now);
        Ok(turn)
    }

    /// The earliest instant at which `handle_timeout` has work.
    pub fn poll_timeout(&self) -> Option<Instant> {
        let functional = self.live.functional();
        let patient = if functional { self.patient.poll_timeout() } else { None };
        let ulcer = if functional { self.ulcer.as_ref().and_then(|u| u.poll_timeout()) } else { None };
        [self.live.poll_timeout(), patient, ulcer, self.streaming.poll_timeout(), self.capture.poll_timeout()].into_iter().flatten().min()
    }

    /// Next output.
    pub fn poll_output(&mut self) -> Option<MatOutput> {
        self.outputs.pop_front()
    }

    fn collect(&mut self, now: Instant) {
        if let Some(tare) = &mut self.tare {
            while let Some(out) = tare.poll_output() {
                self.outputs.push_back(MatOutput::Tare(out));
            }
        }
        while let Some(out) = self.live.poll_output() {
            if out == LiveOutput::Blank {
                self.outputs.push_back(MatOutput::Blank);
            }
        }
        while let Some(status) = self.patient.poll_output() {
            if self.device_type.raises_missing_alarms() {
                self.alarms.handle_patient_status(now, status);
            }
        }
        if let Some(ulcer) = &mut self.ulcer {
            while let Some(out) = ulcer.poll_output() {
                if let super::pressure_ulcer::UlcerOutput::Turned(reason) = out
                    && reason != super::pressure_ulcer::TurnReason::Manual
                    && let Some(moment) = ulcer.last_turn()
                {
                    // A turn the clock detected goes to the turn log too (turn compliance counts
                    // both); a recorded one was logged by `record_turn`.
                    let scale = self.repositioning_time_scale;
                    let position = match reason {
                        super::pressure_ulcer::TurnReason::Posture(_, to) => Some(to),
                        _ => None,
                    };
                    self.outputs.push_back(MatOutput::Turn(RecordedTurn {
                        at: moment.at,
                        recorded_at: now,
                        position,
                        tier_before: moment.tier_before,
                        loaded_for: moment.loaded_for * scale,
                        interval: ulcer.config().interval * scale,
                        detected: true,
                    }));
                }
                if let super::pressure_ulcer::UlcerOutput::Tier(tier) = out {
                    let scale = u64::from(self.repositioning_time_scale);
                    let head_at_far_end = self.head_at_far_end;
                    let whole_body = self.device_type.covers_a_whole_bed();
                    let reason = ulcer.reason(now).and_then(|r| {
                        let body = r.body.filter(|_| whole_body);
                        Some(AlarmReason {
                            region: BodyBand::most_at_risk(r.regions, body, head_at_far_end)?,
                            loaded_seconds: r.loaded_for.as_secs() * scale,
                            offload_seconds: r.offload.as_secs() * scale,
                            interval_seconds: r.interval.as_secs() * scale,
                        })
                    });
                    self.alarms.handle_tier_with_reason(now, tier, reason);
                }
            }
        }
        while let Some(out) = self.alarms.poll_output() {
            self.outputs.push_back(MatOutput::Alarm(out));
        }
        if let Some(logs) = &mut self.logs {
            while let Some(out) = logs.poll_output() {
                self.outputs.push_back(MatOutput::Log(out));
            }
        }
        while let Some(out) = self.capture.poll_output() {
            match out {
                CaptureOutput::Stream(seconds) => {
                    self.capture_stream_until = Some(now + Duration::from_secs(u64::from(seconds)));
                    // A live stream that outlasts the capture already has the device streaming.
                    if self.streaming.remaining_secs(now) < seconds {
                        self.outputs.push_back(MatOutput::Stream(seconds));
                    }
                }
                other => self.outputs.push_back(MatOutput::Capture(other)),
            }
        }
        while let Some(out) = self.streaming.poll_output() {
            self.outputs.push_back(match out {
                StreamOutput::Command(cmd) if cmd.seconds == 0 => {
                    // A live stream that ends while a capture still streams must not stop it.
                    let capturing = self.capture.is_capturing() && self.live.functional();
                    match self.capture_stream_until.filter(|until| *until > now && capturing) {
                        Some(until) => MatOutput::Stream(whole_seconds(until.saturating_duration_since(now))),
                        None => MatOutput::Stream(0),
                    }
                }
                StreamOutput::Command(cmd) => MatOutput::Stream(cmd.seconds),
                StreamOutput::EndTime(end) => MatOutput::StreamingEnd(end),
            });
        }
        let status = self.compute_status();
        if status != self.last_status {
            self.last_status = status;
            self.outputs.push_back(MatOutput::Status(status));
        }
    }

    fn compute_status(&self) -> DeviceStatus {
        let functional = self.live.functional();
        let repositioning = self.ulcer.as_ref().map_or(RepositioningTier::Ok, |u| u.tier());
        let patient_status = match self.patient.status() {
            PatientStatus::Missing => PatientStatus::Missing,
            // Ulcer Risk (orange, spec §4) while its alarm waits for someone: once attended, the
            // card is no longer an alarm, and the tier (due / overdue) says a turn is still owed
            // (docs/decisions.md, "An attended alarm is not an alarm").
            _ if repositioning.at_risk() && self.alarms.has_unattended_kind(AlarmKind::UlcerRisk) => PatientStatus::UlcerRisk,
            // A stored Ulcer Risk the clock no longer confirms (after a restart) is cleared by the
            // first present frame, as before.
            other => other,
        };
        let code = state_code(functional, patient_status);
        // Shapes' card follows the spec's alarm poll (`iotCheckAlarms`), which answers whether the
        // device has an unattended alarm: the same fact, read here where it is owned.
        let inputs = CardInputs { force_values: &self.force_values, alarm_poll: self.alarms.has_unattended() };
        DeviceStatus {
            functional,
            patient_status,
            state_code: code,
            card: card_status(self.device_type, functional, code, inputs),
            repositioning,
            unattended_alarm: self.alarms.has_unattended(),
        }
    }
}

fn whole_seconds(d: Duration) -> u32 {
    u32::try_from(d.as_secs() + u64::from(d.subsec_nanos() > 0)).unwrap_or(u32::MAX)
}

mod snapshot;
pub use snapshot::{MatSnapshot, StoredMatState};

#[cfg(test)]
mod tests;
