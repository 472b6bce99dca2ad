//! Everything one mat decides, composed: liveness, presence, patient status, card status and
//! streaming. This is the machine a `MatActor` drives.
//!
//! Inputs: [`MatMachine::handle_frame`] (returns the frame's presence at once, since every live
//! map carries it), [`MatMachine::handle_disconnect`], [`MatMachine::handle_timeout`],
//! [`MatMachine::start_streaming`]. Outputs, drained with [`MatMachine::poll_output`]:
//! [`MatOutput`]. [`MatMachine::poll_timeout`] is the earliest deadline of the parts.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use super::device_type::DeviceType;
use super::live_map::{LiveMap, LiveOutput};
use super::patient_status::PatientStatusMachine;
use super::presence::{reading_presence, Presence, PresenceDetector};
use super::pressure_map::PressureMap;
use super::status::{card_status, state_code, CardInputs, CardStatus, PatientStatus, StateCode};
use super::streaming::{StreamGate, StreamOutput, StreamRefusal, Streaming};

/// A device's status as cards and the REST API show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeviceStatus {
    /// `deviceFunctional`.
    pub functional: bool,
    /// `patientStatus`.
    pub patient_status: PatientStatus,
    /// State code of spec §4 (`None` offline).
    pub state_code: StateCode,
    /// The card's status.
    pub card: CardStatus,
}

/// What the mat machine wants done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

/// The per-device machine.
#[derive(Debug)]
pub struct MatMachine {
    device_type: DeviceType,
    live: LiveMap,
    presence: PresenceDetector,
    patient: PatientStatusMachine,
    streaming: Streaming,
    force_values: [u16; 4],
    last_status: DeviceStatus,
    outputs: VecDeque<MatOutput>,
}

impl MatMachine {
    /// A machine in the stored state.
    pub fn new(config: MatConfig) -> Self {
        let mut machine = MatMachine {
            device_type: config.device_type,
            live: LiveMap::new(config.functional),
            presence: PresenceDetector::new(),
            patient: PatientStatusMachine::new(config.patient_status, config.absence_delay),
            streaming: Streaming::new(),
            force_values: [0; 4],
            last_status: DeviceStatus {
                functional: config.functional,
                patient_status: config.patient_status,
                state_code: None,
                card: CardStatus::Offline,
            },
            outputs: VecDeque::new(),
        };
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
        self.collect();
    }

    /// Whole seconds left of the live stream, for a viewer that reconnects.
    pub fn streaming_remaining_secs(&self, now: Instant) -> u32 {
        self.streaming.remaining_secs(now)
    }

    /// A frame arrived; returns its presence verdict.
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
        self.patient.handle_presence(now, presence);
        self.collect();
        presence
    }

    /// The device's connection closed.
    pub fn handle_disconnect(&mut self, now: Instant) {
        self.live.handle_disconnect(now);
        self.streaming.stop();
        self.collect();
    }

    /// Acts on every deadline due at `now`.
    pub fn handle_timeout(&mut self, now: Instant) {
        self.live.handle_timeout(now);
        // Without frames there is no presence evidence; the absence clock only runs on frames
        // and on this timeout while the device is functional.
        if self.live.functional() {
            self.patient.handle_timeout(now);
        }
        self.streaming.handle_timeout(now);
        if !self.live.functional() {
            self.streaming.stop();
        }
        self.collect();
    }

    /// A viewer asks for `seconds` of live streaming (0 stops).
    pub fn start_streaming(&mut self, now: Instant, seconds: u32) -> Result<(), StreamRefusal> {
        let gate = StreamGate { functional: self.live.functional(), capture_running: false };
        let result = self.streaming.start(now, seconds, gate);
        self.collect();
        result
    }

    /// The earliest instant at which `handle_timeout` has work.
    pub fn poll_timeout(&self) -> Option<Instant> {
        let patient = if self.live.functional() { self.patient.poll_timeout() } else { None };
        [self.live.poll_timeout(), patient, self.streaming.poll_timeout()].into_iter().flatten().min()
    }

    /// Next output.
    pub fn poll_output(&mut self) -> Option<MatOutput> {
        self.outputs.pop_front()
    }

    fn collect(&mut self) {
        while let Some(out) = self.live.poll_output() {
            if out == LiveOutput::Blank {
                self.outputs.push_back(MatOutput::Blank);
            }
        }
        while self.patient.poll_output().is_some() {}
        while let Some(out) = self.streaming.poll_output() {
            self.outputs.push_back(match out {
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
        let patient_status = self.patient.status();
        let code = state_code(functional, patient_status);
        let inputs = CardInputs { force_values: &self.force_values, alarm_poll: false };
        DeviceStatus { functional, patient_status, state_code: code, card: card_status(self.device_type, functional, code, inputs) }
    }
}

#[cfg(test)]
mod tests;
