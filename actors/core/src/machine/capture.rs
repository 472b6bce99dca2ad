//! Analysis capture of one device (spec §4 "Analysis capture", §9 durations): one capture at a
//! time, the refusals the client shows, the timing of each kind, remote activation and the 24 h
//! static series.
//!
//! Timing, from the request at `t`:
//! - static: the map is taken at `t + 1 s` (the latest frame received since the request);
//! - dynamic and fitting: the device is told to stream for the chosen duration (15, 30, 45 or
//!   60 s; fitting also 120 s), frames are collected and the capture is loaded at
//!   `t + duration + 0.2 s`;
//! - balance: as dynamic with a fixed 5 s.
//!
//! The capture is over (another may start) once it is loaded: [`CaptureOutput::Complete`] carries
//! the frames. The user is told the results are ready ([`CaptureOutput::ResultsDue`]) at
//! `t + 1.5 × analysis time`, where the analysis time is the time from the request to the load.
//!
//! The machine keeps what the checks need: the selected patient ([`CaptureMachine::set_patient`]),
//! whether the device is functional ([`CaptureMachine::set_functional`]) and the latest
//! presence verdict (fed with every frame by [`CaptureMachine::handle_frame`]). Requests are
//! [`CaptureMachine::request`], [`CaptureMachine::remote_activation`] and
//! [`CaptureMachine::start_series`]; outputs are drained with [`CaptureMachine::poll_output`];
//! [`CaptureMachine::poll_timeout`] is the next load, results or series deadline.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use super::presence::Presence;
use super::pressure_map::PressureMap;
use super::wall_clock::WallClock;

/// Delay between a static request and the map it takes.
pub const STATIC_DELAY: Duration = Duration::from_secs(1);
/// Extra time after a timed capture's duration before it is loaded.
pub const LOAD_MARGIN: Duration = Duration::from_millis(200);
/// Length of a balance capture.
pub const BALANCE_SECS: u32 = 5;
/// Durations a dynamic capture may ask for.
pub const DYNAMIC_DURATIONS: [u32; 4] = [15, 30, 45, 60];
/// Durations a fitting capture may ask for.
pub const FITTING_DURATIONS: [u32; 5] = [15, 30, 45, 60, 120];
/// Duration of a remotely activated dynamic capture (the spec's default recognition time).
pub const REMOTE_DYNAMIC_SECS: u32 = 15;
/// Period of the 24 h static series (spec §4).
pub const SERIES_PERIOD: Duration = Duration::from_millis(3_600_000);
/// Repetitions of the 24 h static series.
pub const SERIES_REPETITIONS: u32 = 24;
/// Frames kept per capture at most (120 s at 50 Hz); later frames are counted as dropped.
pub const MAX_CAPTURE_FRAMES: usize = 6_000;

/// The kind of analysis captured (the stored `analysisType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum CaptureKind {
    /// One map, 1 s after the request.
    Static,
    /// Frames over the chosen duration.
    Dynamic,
    /// Frames over the chosen duration (also 120 s).
    Fitting,
    /// Frames over 5 s.
    Balance,
}

impl CaptureKind {
    /// The stored `analysisType` spelling.
    pub fn name(self) -> &'static str {
        match self {
            CaptureKind::Static => "Static",
            CaptureKind::Dynamic => "Dynamic",
            CaptureKind::Fitting => "Fitting",
            CaptureKind::Balance => "Balance",
        }
    }

    /// Parses the stored spelling.
    pub fn from_name(name: &str) -> Option<CaptureKind> {
        [CaptureKind::Static, CaptureKind::Dynamic, CaptureKind::Fitting, CaptureKind::Balance].into_iter().find(|k| k.name() == name)
    }

    /// The success toast the client shows when the capture starts (spec §8).
    pub fn announcement_key(self) -> &'static str {
        match self {
            CaptureKind::Static => "capturingStatic",
            CaptureKind::Dynamic | CaptureKind::Fitting => "capturingDynamic",
            CaptureKind::Balance => "capturingEquilibrium",
        }
    }
}

/// Who asked for a capture.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum CaptureOrigin {
    /// A user on the device page.
    User(String),
    /// Remote activation (`startDynamicCapture`) by this user.
    Remote(String),
    /// Repetition `n` (1-based) of the 24 h static series started by this user.
    Series { user_id: String, repetition: u32 },
}

impl CaptureOrigin {
    /// The user the capture and its results belong to.
    pub fn user_id(&self) -> &str {
        match self {
            CaptureOrigin::User(user) | CaptureOrigin::Remote(user) => user,
            CaptureOrigin::Series { user_id, .. } => user_id,
        }
    }
}

/// A request for one capture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaptureRequest {
    /// What to capture.
    pub kind: CaptureKind,
    /// Seconds for dynamic and fitting; ignored for static and balance.
    pub seconds: u32,
    /// Who asked.
    pub origin: CaptureOrigin,
}

/// Why a capture was refused; [`CaptureRefusal::code`] is the toast the client shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error, serde::Serialize, serde::Deserialize)]
pub enum CaptureRefusal {
    /// No patient is selected (`patientSelected`).
    #[error("no patient is selected")]
    PatientSelected,
    /// The map fails the presence check (`positionPatient`).
    #[error("the map shows nobody on the device")]
    PositionPatient,
    /// The device is not functional (`connectDevice`).
    #[error("the device is not functional")]
    ConnectDevice,
    /// A static or balance capture is running (`onGoing`).
    #[error("a capture is already running")]
    OnGoing,
    /// A dynamic capture is running (`dynamicOngoing`).
    #[error("a dynamic capture is already running")]
    DynamicOngoing,
    /// A fitting capture is running (`fittingOngoing`).
    #[error("a fitting capture is already running")]
    FittingOngoing,
    /// The duration is not one the kind allows.
    #[error("this duration is not offered for this capture")]
    InvalidDuration,
    /// A 24 h series is already running on this device.
    #[error("a 24 h series is already running")]
    SeriesOngoing,
}

impl CaptureRefusal {
    /// The i18n key of spec §8.
    pub fn code(self) -> &'static str {
        match self {
            CaptureRefusal::PatientSelected => "patientSelected",
            CaptureRefusal::PositionPatient => "positionPatient",
            CaptureRefusal::ConnectDevice => "connectDevice",
            CaptureRefusal::OnGoing | CaptureRefusal::SeriesOngoing => "onGoing",
            CaptureRefusal::DynamicOngoing => "dynamicOngoing",
            CaptureRefusal::FittingOngoing => "fittingOngoing",
            CaptureRefusal::InvalidDuration => "invalidDuration",
        }
    }
}

/// One frame of a capture, decoded to plain values.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CapturedFrame {
    /// Milliseconds since the capture request.
    pub offset_ms: u32,
    /// Rows of the map.
    pub rows: u16,
    /// Columns of the map.
    pub cols: u16,
    /// Row-major values.
    pub cells: Vec<u16>,
}

impl CapturedFrame {
    fn from_map(offset: Duration, map: &PressureMap<'_>) -> Self {
        CapturedFrame {
            offset_ms: u32::try_from(offset.as_millis()).unwrap_or(u32::MAX),
            rows: map.rows(),
            cols: map.cols(),
            cells: map.values().collect(),
        }
    }
}

/// A loaded capture: everything needed to store the raw capture and run the analysis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompletedCapture {
    /// What was captured.
    pub kind: CaptureKind,
    /// Who asked.
    pub origin: CaptureOrigin,
    /// The patient selected when it was requested.
    pub patient_id: String,
    /// When it was requested.
    pub requested_at: Instant,
    /// Seconds asked for (0 for static).
    pub seconds: u32,
    /// The frames, oldest first (one for static).
    pub frames: Vec<CapturedFrame>,
    /// Frames beyond [`MAX_CAPTURE_FRAMES`] that were not kept.
    pub dropped_frames: u32,
}

/// What the capture machine wants done.
#[derive(Debug, Clone, PartialEq)]
pub enum CaptureOutput {
    /// Tell the device to stream for this many seconds (dynamic, fitting, balance).
    Stream(u32),
    /// Tell the user's sessions a capture started (the timed toast).
    Announcement { kind: CaptureKind, origin: CaptureOrigin },
    /// The capture is loaded: store it raw and hand it to the analysis engine.
    Complete(Box<CompletedCapture>),
    /// A capture could not produce a map (no frame arrived in time): tell the user.
    Failed { kind: CaptureKind, origin: CaptureOrigin },
    /// Tell the user's sessions the results of this capture are due now.
    ResultsDue { kind: CaptureKind, origin: CaptureOrigin },
    /// A repetition of the 24 h series was refused (the series goes on).
    SeriesRepetitionRefused { user_id: String, repetition: u32, refusal: CaptureRefusal },
    /// The 24 h series ran all its repetitions or was cancelled.
    SeriesFinished { user_id: String },
}

#[derive(Debug, Clone)]
struct Running {
    kind: CaptureKind,
    origin: CaptureOrigin,
    patient_id: String,
    requested_at: Instant,
    seconds: u32,
    loads_at: Instant,
    frames: Vec<CapturedFrame>,
    dropped_frames: u32,
    /// A walk on a plate that has not yet been seen empty: the frames so far are of the patient
    /// still standing where the capture found them, dropped at the first empty frame.
    awaits_empty_plate: bool,
}

#[derive(Debug, Clone)]
struct Series {
    user_id: String,
    next_at: Instant,
    next_repetition: u32,
    period: Duration,
    repetitions: u32,
}

/// The capture machine as a restart must find it, with wall-clock times: the selected patient,
/// the latest presence verdict, the running capture with its frames so far, the results still
/// due and the series. Whether the device is functional is not kept (the restored mat machine
/// says), nor outputs not yet drained (the actor that snapshots handles them).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CaptureSnapshot {
    /// The selected patient.
    pub patient_id: Option<String>,
    /// The latest presence verdict.
    pub presence: Option<Presence>,
    /// The capture in progress.
    pub running: Option<RunningCaptureSnapshot>,
    /// Results to announce: (when, Unix ms; kind; who asked).
    pub results_due: Vec<(u64, CaptureKind, CaptureOrigin)>,
    /// The 24 h series.
    pub series: Option<SeriesSnapshot>,
}

/// A capture in progress in a snapshot.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunningCaptureSnapshot {
    /// What is captured.
    pub kind: CaptureKind,
    /// Who asked.
    pub origin: CaptureOrigin,
    /// The patient selected when it was requested.
    pub patient_id: String,
    /// When it was requested, Unix ms.
    pub requested_at_ms: u64,
    /// Seconds asked for (0 for static).
    pub seconds: u32,
    /// When it loads, Unix ms.
    pub loads_at_ms: u64,
    /// The frames so far.
    pub frames: Vec<CapturedFrame>,
    /// Frames beyond [`MAX_CAPTURE_FRAMES`] not kept.
    pub dropped_frames: u32,
    /// A walk on a plate not yet seen empty ([`CaptureMachine::set_dynamic_is_walk`]).
    #[serde(default)]
    pub awaits_empty_plate: bool,
}

/// A static series in a snapshot.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SeriesSnapshot {
    /// Who started it.
    pub user_id: String,
    /// The next repetition's time, Unix ms.
    pub next_at_ms: u64,
    /// The next repetition's number (1-based).
    pub next_repetition: u32,
    /// Time between repetitions.
    pub period: Duration,
    /// Repetitions in all.
    pub repetitions: u32,
}

/// The capture machine of one device.
#[derive(Debug, Default)]
pub struct CaptureMachine {
    patient_id: Option<String>,
    functional: bool,
    presence: Option<Presence>,
    running: Option<Running>,
    results_due: Vec<(Instant, CaptureKind, CaptureOrigin)>,
    series: Option<Series>,
    outputs: VecDeque<CaptureOutput>,
    /// A dynamic capture on this device is a walk across a plate ([`CaptureMachine::set_dynamic_is_walk`]).
    dynamic_is_walk: bool,
}

impl CaptureMachine {
    /// A machine with no patient selected and a non-functional device.
    pub fn new() -> Self {
        Self::default()
    }

    /// The patient selected on the device (`None`: no patient).
    pub fn set_patient(&mut self, patient_id: Option<String>) {
        self.patient_id = patient_id;
    }

    /// Whether the device is functional.
    pub fn set_functional(&mut self, functional: bool) {
        self.functional = functional;
    }

    /// Whether a dynamic capture on this device is a walk across a plate (a podology plate's gait
    /// analysis; not a seat's, a bed's or the rehab platform's dynamic capture). A walk starts on
    /// an empty plate: a patient still standing on it when the capture starts steps off, walks
    /// round and comes back, so the frames before the plate first empties are not kept (spec §4's
    /// player would stop where the standing patient leaves; docs/decisions.md, "A walk is kept
    /// from the first empty plate"). If the plate never empties, every frame is kept.
    pub fn set_dynamic_is_walk(&mut self, walk: bool) {
        self.dynamic_is_walk = walk;
    }

    /// Whether a capture is running (the streaming start control is hidden meanwhile).
    pub fn is_capturing(&self) -> bool {
        self.running.is_some()
    }

    /// What a restart must keep, with wall-clock times (see [`CaptureSnapshot`]).
    pub fn snapshot(&self, clock: WallClock) -> CaptureSnapshot {
        CaptureSnapshot {
            patient_id: self.patient_id.clone(),
            presence: self.presence,
            running: self.running.as_ref().map(|r| RunningCaptureSnapshot {
                kind: r.kind,
                origin: r.origin.clone(),
                patient_id: r.patient_id.clone(),
                requested_at_ms: clock.unix_ms(r.requested_at),
                seconds: r.seconds,
                loads_at_ms: clock.unix_ms(r.loads_at),
                frames: r.frames.clone(),
                dropped_frames: r.dropped_frames,
                awaits_empty_plate: r.awaits_empty_plate,
            }),
            results_due: self.results_due.iter().map(|(at, kind, origin)| (clock.unix_ms(*at), *kind, origin.clone())).collect(),
            series: self.series.as_ref().map(|s| SeriesSnapshot {
                user_id: s.user_id.clone(),
                next_at_ms: clock.unix_ms(s.next_at),
                next_repetition: s.next_repetition,
                period: s.period,
                repetitions: s.repetitions,
            }),
        }
    }

    /// Resumed from a snapshot: a capture that was running goes on collecting frames and loads
    /// when it was due, so it is neither lost nor stored twice.
    pub fn from_snapshot(snapshot: &CaptureSnapshot, functional: bool, clock: WallClock) -> Self {
        CaptureMachine {
            patient_id: snapshot.patient_id.clone(),
            functional,
            presence: snapshot.presence,
            running: snapshot.running.as_ref().map(|r| Running {
                kind: r.kind,
                origin: r.origin.clone(),
                patient_id: r.patient_id.clone(),
                requested_at: clock.instant(r.requested_at_ms),
                seconds: r.seconds,
                loads_at: clock.instant(r.loads_at_ms),
                frames: r.frames.clone(),
                dropped_frames: r.dropped_frames,
                awaits_empty_plate: r.awaits_empty_plate,
            }),
            results_due: snapshot.results_due.iter().map(|(at, kind, origin)| (clock.instant(*at), *kind, origin.clone())).collect(),
            series: snapshot.series.as_ref().map(|s| Series {
                user_id: s.user_id.clone(),
                next_at: clock.instant(s.next_at_ms),
                next_repetition: s.next_repetition,
                period: s.period,
                repetitions: s.repetitions,
            }),
            outputs: VecDeque::new(),
            dynamic_is_walk: false,
        }
    }

    /// The kind of the running capture.
    pub fn running_kind(&self) -> Option<CaptureKind> {
        self.running.as_ref().map(|r| r.kind)
    }

    /// Whether a 24 h series is running.
    pub fn series_running(&self) -> bool {
        self.series.is_some()
    }

    /// A frame arrived with its presence verdict; a running capture collects it.
    pub fn handle_frame(&mut self, now: Instant, map: &PressureMap<'_>, presence: Presence) {
        self.presence = Some(presence);
        let Some(running) = self.running.as_mut() else { return };
        if now > running.loads_at {
            return;
        }
        let offset = now.saturating_duration_since(running.requested_at);
        if running.awaits_empty_plate && presence == Presence::Absent {
            // The walk begins: what came before was the patient standing where the capture
            // found them.
            running.awaits_empty_plate = false;
            running.frames.clear();
            running.dropped_frames = 0;
        }
        if running.kind == CaptureKind::Static {
            // The static map is the latest frame at load time: keep only one.
            running.frames.clear();
            running.frames.push(CapturedFrame::from_map(offset, map));
        } else if running.frames.len() < MAX_CAPTURE_FRAMES {
            running.frames.push(CapturedFrame::from_map(offset, map));
        } else {
            running.dropped_frames = running.dropped_frames.saturating_add(1);
        }
    }

    /// A capture is requested. On success the announcement (and, for timed kinds, the stream
    /// command) is queued.
    pub fn request(&mut self, now: Instant, request: CaptureRequest) -> Result<(), CaptureRefusal> {
        let seconds = match request.kind {
            CaptureKind::Static => 0,
            CaptureKind::Balance => BALANCE_SECS,
            CaptureKind::Dynamic if DYNAMIC_DURATIONS.contains(&request.seconds) => request.seconds,
            CaptureKind::Fitting if FITTING_DURATIONS.contains(&request.seconds) => request.seconds,
            CaptureKind::Dynamic | CaptureKind::Fitting => return Err(CaptureRefusal::InvalidDuration),
        };
        if let Some(running) = &self.running {
            return Err(match running.kind {
                CaptureKind::Dynamic => CaptureRefusal::DynamicOngoing,
                CaptureKind::Fitting => CaptureRefusal::FittingOngoing,
                CaptureKind::Static | CaptureKind::Balance => CaptureRefusal::OnGoing,
            });
        }
        if !self.functional {
            return Err(CaptureRefusal::ConnectDevice);
        }
        let Some(patient_id) = self.patient_id.clone() else { return Err(CaptureRefusal::PatientSelected) };
        // A dynamic capture starts on an empty mat: the patient walks onto the plate (or sits
        // down) after the start, so that the first steps are whole (issue 21, docs/decisions.md
        // "Dynamic captures start off the mat"). Every other capture needs somebody on it.
        if request.kind != CaptureKind::Dynamic && self.presence != Some(Presence::Present) {
            return Err(CaptureRefusal::PositionPatient);
        }
        let loads_at = match request.kind {
            CaptureKind::Static => now + STATIC_DELAY,
            _ => now + Duration::from_secs(u64::from(seconds)) + LOAD_MARGIN,
        };
        if request.kind != CaptureKind::Static {
            self.outputs.push_back(CaptureOutput::Stream(seconds));
        }
        self.outputs.push_back(CaptureOutput::Announcement { kind: request.kind, origin: request.origin.clone() });
        self.running = Some(Running {
            kind: request.kind,
            origin: request.origin,
            patient_id,
            requested_at: now,
            seconds,
            loads_at,
            frames: Vec::new(),
            dropped_frames: 0,
            awaits_empty_plate: request.kind == CaptureKind::Dynamic && self.dynamic_is_walk,
        });
        Ok(())
    }

    /// Remote activation (`startDynamicCapture`): a dynamic capture of the default length.
    pub fn remote_activation(&mut self, now: Instant, user_id: String) -> Result<(), CaptureRefusal> {
        self.request(
            now,
            CaptureRequest { kind: CaptureKind::Dynamic, seconds: REMOTE_DYNAMIC_SECS, origin: CaptureOrigin::Remote(user_id) },
        )
    }

    /// Starts a static series: `repetitions` static captures every `period`, the first now.
    /// The spec's 24 h analysis is `start_series(now, user, SERIES_PERIOD, SERIES_REPETITIONS)`.
    /// A repetition that cannot run (nobody on the mat, another capture running…) is reported
    /// and skipped; the series goes on.
    pub fn start_series(&mut self, now: Instant, user_id: String, period: Duration, repetitions: u32) -> Result<(), CaptureRefusal> {
        if self.series.is_some() {
            return Err(CaptureRefusal::SeriesOngoing);
        }
        if repetitions == 0 || period.is_zero() {
            return Err(CaptureRefusal::InvalidDuration);
        }
        self.series = Some(Series { user_id, next_at: now, next_repetition: 1, period, repetitions });
        self.handle_timeout(now);
        Ok(())
    }

    /// Cancels a running series (the capture in progress, if any, still completes).
    pub fn cancel_series(&mut self) {
        if let Some(series) = self.series.take() {
            self.outputs.push_back(CaptureOutput::SeriesFinished { user_id: series.user_id });
        }
    }

    /// Acts on every deadline due at `now`.
    pub fn handle_timeout(&mut self, now: Instant) {
        if let Some(running) = self.running.take_if(|r| now >= r.loads_at) {
            self.load(running);
        }
        let mut due = Vec::new();
        self.results_due.retain(|(at, kind, origin)| {
            let ready = now >= *at;
            if ready {
                due.push(CaptureOutput::ResultsDue { kind: *kind, origin: origin.clone() });
            }
            !ready
        });
        self.outputs.extend(due);
        self.run_series(now);
    }

    /// The next deadline: a capture to load, results to announce or a series repetition.
    pub fn poll_timeout(&self) -> Option<Instant> {
        let running = self.running.as_ref().map(|r| r.loads_at);
        let results = self.results_due.iter().map(|(at, _, _)| *at).min();
        let series = self.series.as_ref().map(|s| s.next_at);
        [running, results, series].into_iter().flatten().min()
    }

    /// Next output.
    pub fn poll_output(&mut self) -> Option<CaptureOutput> {
        self.outputs.pop_front()
    }

    fn load(&mut self, running: Running) {
        let analysis_time = running.loads_at.saturating_duration_since(running.requested_at);
        if running.frames.is_empty() {
            self.outputs.push_back(CaptureOutput::Failed { kind: running.kind, origin: running.origin });
            return;
        }
        self.results_due.push((running.requested_at + analysis_time.mul_f64(1.5), running.kind, running.origin.clone()));
        self.outputs.push_back(CaptureOutput::Complete(Box::new(CompletedCapture {
            kind: running.kind,
            origin: running.origin,
            patient_id: running.patient_id,
            requested_at: running.requested_at,
            seconds: running.seconds,
            frames: running.frames,
            dropped_frames: running.dropped_frames,
        })));
    }

    fn run_series(&mut self, now: Instant) {
        let Some(series) = self.series.as_mut() else { return };
        if now < series.next_at {
            return;
        }
        let repetition = series.next_repetition;
        let user_id = series.user_id.clone();
        let origin = CaptureOrigin::Series { user_id: user_id.clone(), repetition };
        series.next_repetition += 1;
        // Later repetitions keep to the original schedule even if a timer fires late.
        series.next_at += series.period;
        let finished = repetition >= series.repetitions;
        let request = CaptureRequest { kind: CaptureKind::Static, seconds: 0, origin };
        if let Err(refusal) = self.request(now, request) {
            self.outputs.push_back(CaptureOutput::SeriesRepetitionRefused { user_id, repetition, refusal });
        }
        if finished {
            self.cancel_series();
        }
    }
}

#[cfg(test)]
mod tests;
