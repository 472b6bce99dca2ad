//! One snapshot of a mat's machine: what a restart (of its actor, or of the hub) must not forget,
//! with wall-clock times so it means the same in another process.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::{BehaviourConfig, DeviceStatus, MatConfig, MatMachine};
use crate::machine::alarm::{AlarmMachine, AlarmsSnapshot, PendingAlarm};
use crate::machine::capture::{CaptureMachine, CaptureSnapshot};
use crate::machine::device_log::{DeviceLogMachine, LogCadenceSnapshot};
use crate::machine::patient_status::{PatientSnapshot, PatientStatusMachine};
use crate::machine::presence::PresenceScale;
use crate::machine::pressure_ulcer::{UlcerClockSnapshot, UlcerRiskMachine};
use crate::machine::status::PatientStatus;
use crate::machine::streaming::Streaming;
use crate::machine::tare::{Tare, TareMachine};
use crate::machine::wall_clock::WallClock;
use mat_protocol::device_type::DeviceType;

/// What a restarted mat machine resumes from. Times are Unix ms, converted from and to the
/// machine's `Instant`s by [`MatMachine::snapshot`] and [`MatMachine::restore`].
///
/// Kept, field by field:
/// - `status`: the last status the machine reported (`deviceFunctional`, patient status, card,
///   tier, pending alarm). A restored machine is functional only if this says so *and* its
///   device's connection is alive; the shell publishes the restored status when it differs.
/// - `patient`: the patient status and the start of an absence being timed, so Missing comes on
///   time and a Missing patient stays Missing.
/// - `stream_ends_at_ms`: the live stream's end; a future one resumes with the remaining seconds
///   (the device is told at once), a past one is cleared.
/// - `repositioning_interval`: the interval set for this device (as set, not time-scaled).
/// - `repositioning_clock`: every region's load episode, the turn being confirmed and the tier:
///   the clock goes on counting the time in one position, and the alarm it raised is not raised
///   again.
/// - `alarms`: the unattended alarms and the next alarm number.
/// - `log_cadence`: whether someone is on the mat, the last logged posture and the last entry,
///   so a restart neither logs a second entrance nor an entry before the interval is up.
/// - `capture`: the selected patient, the latest presence verdict, the capture in progress with
///   its frames so far, the results due and the 24 h series.
/// - `capture_stream_until_ms`: until when the running capture needs the device streaming.
/// - `force_values`: the latest reading of a Force Mat or room-set sensor (its card follows it).
/// - `tare`: the idle level subtracted from every frame (stored per device, so a hub restart keeps
///   it too); the learning window and settle time start afresh.
///
/// Dropped on purpose:
/// - the live map's frame timing (5 s blank, 30 s silence): it restarts with the next frame;
/// - the presence and posture changes still settling in the log cadence, and the posture read
///   last (read again on the next present frame): the next frames establish them again;
/// - the alarm conditions: they follow from the patient status and the tier;
/// - outputs not drained yet: the actor that took the snapshot handles them;
/// - the tuning (type, absence delay, clock tuning, time scale): the restoring caller's
///   configuration supplies it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MatSnapshot {
    /// The last status the machine reported.
    pub status: DeviceStatus,
    /// Patient status and absence.
    pub patient: PatientSnapshot,
    /// The live stream's end, Unix ms.
    pub stream_ends_at_ms: Option<u64>,
    /// The repositioning interval set for the device, if not the default.
    pub repositioning_interval: Option<Duration>,
    /// The repositioning clock (types that have one).
    pub repositioning_clock: Option<UlcerClockSnapshot>,
    /// Unattended alarms and the numbering.
    pub alarms: AlarmsSnapshot,
    /// The log cadence (map devices).
    pub log_cadence: Option<LogCadenceSnapshot>,
    /// Captures.
    pub capture: CaptureSnapshot,
    /// Until when a running capture needs the device streaming, Unix ms.
    pub capture_stream_until_ms: Option<u64>,
    /// The latest four-channel reading.
    pub force_values: [u16; 4],
    /// The mat's tare.
    #[serde(default)]
    pub tare: Option<Tare>,
}

/// What storage keeps of a device across a hub restart (see [`MatSnapshot::from_stored`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StoredMatState {
    /// The stored live stream's end, Unix ms.
    pub stream_ends_at_ms: Option<u64>,
    /// The stored unattended alarms.
    pub alarms: AlarmsSnapshot,
    /// The stored repositioning interval.
    pub repositioning_interval: Option<Duration>,
    /// The stored tare.
    pub tare: Option<Tare>,
}

impl MatSnapshot {
    /// The snapshot of a device after a hub restart, from what storage keeps: the stored patient
    /// status (offline: no connection survives a restart), stream end, unattended alarms and
    /// repositioning interval. The rest a hub restart forgets (see `docs/decisions.md`).
    pub fn from_stored(device_type: DeviceType, patient_status: PatientStatus, stored: StoredMatState) -> Self {
        MatSnapshot {
            status: DeviceStatus::offline(device_type, patient_status),
            patient: PatientSnapshot { status: patient_status, absent_since_ms: None },
            stream_ends_at_ms: stored.stream_ends_at_ms,
            repositioning_interval: stored.repositioning_interval,
            repositioning_clock: None,
            alarms: stored.alarms,
            log_cadence: None,
            capture: CaptureSnapshot::default(),
            capture_stream_until_ms: None,
            force_values: [0; 4],
            tare: stored.tare,
        }
    }
}

impl MatSnapshot {
    /// A snapshot read back from shared storage (a cluster hub taking the device over), made
    /// true to the device's rows, which may be newer than it: the snapshot is written at most
    /// a few seconds apart and after the rows of its step (never newer than them), and a REST
    /// call stores the interval in the device's configuration before any actor sees it. So the
    /// rows own what they hold:
    /// - the repositioning interval is the stored one (an acknowledged `PUT` is not undone by a
    ///   move);
    /// - the unattended alarms are the stored ones, each keeping the snapshot's reason when the
    ///   row has none: an alarm raised after the snapshot stays open (not raised again), one
    ///   attended after it stays attended; the numbering continues after both;
    /// - the stream end is the stored one (the storage writer stores each change of it), and a
    ///   stored tare replaces the snapshot's.
    ///
    /// The rest (the clock's load episodes, the absence being timed, a capture) is the snapshot's.
    pub fn reconciled_with_rows(mut self, stored: StoredMatState) -> Self {
        self.repositioning_interval = stored.repositioning_interval;
        let from_snapshot = std::mem::take(&mut self.alarms.pending);
        self.alarms.pending = stored
            .alarms
            .pending
            .into_iter()
            .map(|row| {
                let reason = row.reason.or_else(|| from_snapshot.iter().find(|p| p.id == row.id).and_then(|p| p.reason));
                PendingAlarm { reason, ..row }
            })
            .collect();
        self.alarms.next_id = self.alarms.next_id.max(stored.alarms.next_id);
        self.stream_ends_at_ms = stored.stream_ends_at_ms;
        if stored.tare.is_some() {
            self.tare = stored.tare;
        }
        self
    }
}

impl MatMachine {
    /// What a restart must keep (see [`MatSnapshot`]), at `now` which is `now_unix_ms` on the wall
    /// clock.
    pub fn snapshot(&self, now: Instant, now_unix_ms: u64) -> MatSnapshot {
        let clock = WallClock::new(now, now_unix_ms);
        MatSnapshot {
            status: self.last_status,
            patient: self.patient.snapshot(clock),
            stream_ends_at_ms: clock.unix_ms_opt(self.streaming.ends_at()),
            repositioning_interval: self.repositioning_interval,
            repositioning_clock: self.ulcer.as_ref().map(|u| u.snapshot(clock)),
            alarms: self.alarms.snapshot(clock),
            log_cadence: self.logs.as_ref().map(|l| l.snapshot(clock)),
            capture: self.capture.snapshot(clock),
            capture_stream_until_ms: clock.unix_ms_opt(self.capture_stream_until),
            force_values: self.force_values,
            tare: self.tare.as_ref().and_then(|t| t.snapshot()),
        }
    }

    /// The machine a snapshot describes, at `now` which is `now_unix_ms` on the wall clock.
    /// `config.functional` says whether the device's connection is alive (the snapshot's
    /// functional flag holds only then); `config.patient_status` is ignored for the snapshot's.
    /// A stream that was running is resumed: its command is the first output.
    pub fn restore(config: MatConfig, behaviour: BehaviourConfig, snapshot: &MatSnapshot, now: Instant, now_unix_ms: u64) -> Self {
        let clock = WallClock::new(now, now_unix_ms);
        let functional = config.functional && snapshot.status.functional;
        let patient_status = snapshot.patient.status;
        let mut machine = Self::with_behaviour(MatConfig { functional, patient_status, ..config }, behaviour);
        machine.patient = PatientStatusMachine::from_snapshot(&snapshot.patient, config.absence_delay, clock);
        machine.capture = CaptureMachine::from_snapshot(&snapshot.capture, functional, clock);
        machine.capture.set_dynamic_is_walk(super::dynamic_is_walk(config.device_type));
        machine.capture_stream_until = clock.instant_opt(snapshot.capture_stream_until_ms);
        machine.force_values = snapshot.force_values;
        if let Some(tare) = &mut machine.tare {
            *tare = TareMachine::new(PresenceScale::for_device(config.device_type).units_per_cell(), snapshot.tare.clone());
        }
        machine.repositioning_interval = snapshot.repositioning_interval;
        if let Some(ulcer) = &mut machine.ulcer {
            let mut tuning = *ulcer.config();
            if let Some(interval) = snapshot.repositioning_interval {
                tuning.interval = interval / machine.repositioning_time_scale;
            }
            *ulcer = match &snapshot.repositioning_clock {
                Some(clock_snapshot) => UlcerRiskMachine::from_snapshot(tuning, clock_snapshot, clock),
                None => UlcerRiskMachine::new(tuning),
            };
        }
        if let (Some(logs), Some(cadence)) = (&mut machine.logs, &snapshot.log_cadence) {
            *logs = DeviceLogMachine::from_snapshot(behaviour.log, cadence, clock);
        }
        let at_risk = machine.ulcer.as_ref().is_some_and(|u| u.tier().at_risk());
        machine.alarms = AlarmMachine::from_snapshot(&snapshot.alarms, behaviour.first_alarm_id, clock);
        machine.alarms.assume_conditions(patient_status == PatientStatus::Missing, at_risk);
        machine.last_status = machine.compute_status();
        if snapshot.stream_ends_at_ms.is_some() {
            machine.streaming = Streaming::resume(now, clock.instant_opt(snapshot.stream_ends_at_ms));
            machine.collect(now);
        }
        machine
    }

    /// Whether outputs wait to be drained (the step changed something a snapshot must show).
    pub fn has_pending_outputs(&self) -> bool {
        !self.outputs.is_empty()
    }
}
