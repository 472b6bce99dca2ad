//! Live streaming of one device (spec §4 "Streaming").
//!
//! Idle → streaming on [`Streaming::start`], which requires a functional device (for the Sensing
//! Horse the caller passes "both sides functional", see `DeviceSet::can_stream`) and no running
//! capture. The command to the device carries the requested duration + 5 s. A new start while
//! streaming restarts the stream only when the remaining time is under the requested duration +
//! 5 s. Stop, or the end of the countdown, returns to idle and sends 0.
//!
//! The end time is state: every change is an [`StreamOutput::EndTime`] to persist, so that a
//! restarted actor or a reconnecting browser resumes the countdown. [`Streaming::resume`] builds
//! the machine from a stored end time: a future one resumes with the remaining seconds, a past
//! one is cleared (and the clearing persisted).
//!
//! Contract: inputs are methods taking `now`; outputs are drained with
//! [`Streaming::poll_output`]; [`Streaming::poll_timeout`] is the end of the running stream.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Seconds added to every requested duration.
pub const STREAM_MARGIN_SECS: u32 = 5;
/// The stream length the device page asks for by default.
pub const DEFAULT_STREAM_SECS: u32 = 180;

/// Why a start was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error, serde::Serialize, serde::Deserialize)]
pub enum StreamRefusal {
    /// The device is not functional (`connectDevice` in the client); for the horse, a side is not.
    #[error("the device is not functional")]
    NotFunctional,
    /// A capture is running; the start control is hidden meanwhile (`onGoing` in the client).
    #[error("a capture is running")]
    CaptureRunning,
}

impl StreamRefusal {
    /// The i18n key the client shows (spec §8).
    pub fn code(self) -> &'static str {
        match self {
            StreamRefusal::NotFunctional => "connectDevice",
            StreamRefusal::CaptureRunning => "onGoing",
        }
    }
}

/// What the device must be like for a stream to start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamGate {
    /// The device (both sides of a horse) is functional.
    pub functional: bool,
    /// A capture is running on the device.
    pub capture_running: bool,
}

impl StreamGate {
    /// A functional device with no capture running.
    pub const OPEN: StreamGate = StreamGate { functional: true, capture_running: false };
}

/// What the streaming machine wants sent to the device: stream for this many seconds (0 stops).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamCommand {
    /// Seconds, margin included; 0 stops.
    pub seconds: u32,
}

/// What the streaming machine wants done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamOutput {
    /// Send this command to the device.
    Command(StreamCommand),
    /// Persist the stream's end time (`None`: clear it). Emitted on every change.
    EndTime(Option<Instant>),
}

/// Streaming state of one device.
#[derive(Debug, Default)]
pub struct Streaming {
    ends_at: Option<Instant>,
    outputs: VecDeque<StreamOutput>,
}

impl Streaming {
    /// An idle machine.
    pub fn new() -> Self {
        Self::default()
    }

    /// A machine rebuilt from a stored end time. A future end time resumes streaming: the
    /// device is told to stream for the remaining whole seconds (rounded up). A past end time is
    /// cleared, and the clearing is an output to persist.
    pub fn resume(now: Instant, stored_end: Option<Instant>) -> Self {
        let mut machine = Self::new();
        match stored_end {
            Some(end) if end > now => {
                machine.ends_at = Some(end);
                let seconds = whole_seconds_until(now, end);
                machine.outputs.push_back(StreamOutput::Command(StreamCommand { seconds }));
            }
            Some(_) => machine.outputs.push_back(StreamOutput::EndTime(None)),
            None => {}
        }
        machine
    }

    /// When the current stream ends, if one runs.
    pub fn ends_at(&self) -> Option<Instant> {
        self.ends_at
    }

    /// Whole seconds left of the running stream (rounded up; 0 when idle), for a viewer that
    /// reconnects and resumes its countdown.
    pub fn remaining_secs(&self, now: Instant) -> u32 {
        self.ends_at.map(|end| whole_seconds_until(now, end)).unwrap_or(0)
    }

    /// A viewer asks for `seconds` of live streaming; 0 stops (always allowed).
    pub fn start(&mut self, now: Instant, seconds: u32, gate: StreamGate) -> Result<(), StreamRefusal> {
        if seconds == 0 {
            self.stop();
            return Ok(());
        }
        if !gate.functional {
            return Err(StreamRefusal::NotFunctional);
        }
        if gate.capture_running {
            return Err(StreamRefusal::CaptureRunning);
        }
        let with_margin = seconds.saturating_add(STREAM_MARGIN_SECS);
        let wanted = Duration::from_secs(u64::from(with_margin));
        let remaining = self.ends_at.map(|end| end.saturating_duration_since(now)).unwrap_or_default();
        if remaining < wanted {
            let end = now + wanted;
            self.ends_at = Some(end);
            self.outputs.push_back(StreamOutput::Command(StreamCommand { seconds: with_margin }));
            self.outputs.push_back(StreamOutput::EndTime(Some(end)));
        }
        Ok(())
    }

    /// Stops streaming now.
    pub fn stop(&mut self) {
        if self.ends_at.take().is_some() {
            self.outputs.push_back(StreamOutput::Command(StreamCommand { seconds: 0 }));
            self.outputs.push_back(StreamOutput::EndTime(None));
        }
    }

    /// Ends the stream once its time is up.
    pub fn handle_timeout(&mut self, now: Instant) {
        if self.ends_at.is_some_and(|end| now >= end) {
            self.stop();
        }
    }

    /// When the running stream ends.
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.ends_at
    }

    /// Next output.
    pub fn poll_output(&mut self) -> Option<StreamOutput> {
        self.outputs.pop_front()
    }
}

fn whole_seconds_until(now: Instant, end: Instant) -> u32 {
    let left = end.saturating_duration_since(now);
    let secs = left.as_secs() + u64::from(left.subsec_nanos() > 0);
    u32::try_from(secs).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPEN: StreamGate = StreamGate::OPEN;

    /// The commands sent to the device, in order (end-time outputs dropped).
    fn drain(m: &mut Streaming) -> Vec<u32> {
        std::iter::from_fn(|| m.poll_output())
            .filter_map(|o| match o {
                StreamOutput::Command(c) => Some(c.seconds),
                StreamOutput::EndTime(_) => None,
            })
            .collect()
    }

    fn drain_all(m: &mut Streaming) -> Vec<StreamOutput> {
        std::iter::from_fn(|| m.poll_output()).collect()
    }

    #[test]
    fn default_stream_is_180_plus_5() {
        let t0 = Instant::now();
        let mut m = Streaming::new();
        m.start(t0, DEFAULT_STREAM_SECS, OPEN).unwrap();
        assert_eq!(drain(&mut m), vec![185]);
        assert_eq!(m.poll_timeout(), Some(t0 + Duration::from_secs(185)));
    }

    #[test]
    fn a_non_functional_device_cannot_stream() {
        let mut m = Streaming::new();
        assert_eq!(
            m.start(Instant::now(), 180, StreamGate { functional: false, capture_running: false }),
            Err(StreamRefusal::NotFunctional)
        );
        assert_eq!(drain(&mut m), Vec::<u32>::new());
    }

    #[test]
    fn extending_restarts_only_when_remaining_is_under_the_request_plus_margin() {
        let t0 = Instant::now();
        let mut m = Streaming::new();
        m.start(t0, 180, OPEN).unwrap();
        drain(&mut m);
        // 10 s later 175 s remain: a 60 s request (65 s) does not restart.
        m.start(t0 + Duration::from_secs(10), 60, OPEN).unwrap();
        assert_eq!(drain(&mut m), Vec::<u32>::new());
        assert_eq!(m.ends_at(), Some(t0 + Duration::from_secs(185)));
        // 175 s remain; a 180 s request needs 185 s: restart.
        m.start(t0 + Duration::from_secs(10), 180, OPEN).unwrap();
        assert_eq!(drain(&mut m), vec![185]);
        assert_eq!(m.ends_at(), Some(t0 + Duration::from_secs(195)));
        // Exactly the requested time + margin remaining: no restart.
        m.start(t0 + Duration::from_secs(10), 180, OPEN).unwrap();
        assert_eq!(drain(&mut m), Vec::<u32>::new());
    }

    #[test]
    fn the_countdown_end_sends_zero_once() {
        let t0 = Instant::now();
        let mut m = Streaming::new();
        m.start(t0, 30, OPEN).unwrap();
        drain(&mut m);
        m.handle_timeout(t0 + Duration::from_secs(34));
        assert_eq!(drain(&mut m), Vec::<u32>::new());
        m.handle_timeout(t0 + Duration::from_secs(35));
        assert_eq!(drain(&mut m), vec![0]);
        m.handle_timeout(t0 + Duration::from_secs(36));
        assert_eq!(drain(&mut m), Vec::<u32>::new());
        assert_eq!(m.poll_timeout(), None);
    }

    #[test]
    fn stop_sends_zero_and_stopping_when_idle_sends_nothing() {
        let t0 = Instant::now();
        let mut m = Streaming::new();
        m.start(t0, 0, OPEN).unwrap();
        assert_eq!(drain(&mut m), Vec::<u32>::new());
        m.start(t0, 60, OPEN).unwrap();
        m.start(t0 + Duration::from_secs(1), 0, StreamGate { functional: false, capture_running: true }).unwrap();
        assert_eq!(drain(&mut m), vec![65, 0]);
    }

    #[test]
    fn every_end_time_change_is_an_output_to_persist() {
        let t0 = Instant::now();
        let mut m = Streaming::new();
        m.start(t0, 60, OPEN).unwrap();
        let end = t0 + Duration::from_secs(65);
        assert_eq!(drain_all(&mut m), vec![StreamOutput::Command(StreamCommand { seconds: 65 }), StreamOutput::EndTime(Some(end))]);
        m.handle_timeout(end);
        assert_eq!(drain_all(&mut m), vec![StreamOutput::Command(StreamCommand { seconds: 0 }), StreamOutput::EndTime(None)]);
    }

    #[test]
    fn a_stored_future_end_time_resumes_with_the_remaining_seconds() {
        let t0 = Instant::now();
        let stored = t0 + Duration::from_millis(42_300);
        let mut m = Streaming::resume(t0, Some(stored));
        assert_eq!(m.ends_at(), Some(stored));
        assert_eq!(m.remaining_secs(t0), 43, "rounded up so the countdown never ends early");
        assert_eq!(drain_all(&mut m), vec![StreamOutput::Command(StreamCommand { seconds: 43 })]);
        assert_eq!(m.remaining_secs(t0 + Duration::from_secs(40)), 3);
        m.handle_timeout(stored);
        assert_eq!(drain(&mut m), vec![0]);
        assert_eq!(m.remaining_secs(stored), 0);
    }

    #[test]
    fn a_stored_past_end_time_is_cleared() {
        let t0 = Instant::now();
        let mut m = Streaming::resume(t0 + Duration::from_secs(10), Some(t0));
        assert_eq!(m.ends_at(), None);
        assert_eq!(m.poll_timeout(), None);
        assert_eq!(drain_all(&mut m), vec![StreamOutput::EndTime(None)]);
        let mut fresh = Streaming::resume(t0, None);
        assert_eq!(drain_all(&mut fresh), vec![]);
    }

    #[test]
    fn start_is_refused_while_a_capture_runs_but_stop_is_not() {
        let t0 = Instant::now();
        let mut m = Streaming::new();
        m.start(t0, 60, OPEN).unwrap();
        drain(&mut m);
        let capturing = StreamGate { functional: true, capture_running: true };
        assert_eq!(m.start(t0, 180, capturing), Err(StreamRefusal::CaptureRunning));
        assert_eq!(StreamRefusal::CaptureRunning.code(), "onGoing");
        assert_eq!(drain(&mut m), Vec::<u32>::new());
        m.start(t0, 0, capturing).unwrap();
        assert_eq!(drain(&mut m), vec![0]);
    }
}
