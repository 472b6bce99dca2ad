//! Live streaming of one device (spec §4 "Streaming").
//!
//! Idle → streaming on [`Streaming::start`], which requires a functional device. The command to
//! the device carries the requested duration + 5 s. A new start while streaming restarts the
//! stream only when the remaining time is under the requested duration + 5 s. Stop, or the end
//! of the countdown, returns to idle and sends 0.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Seconds added to every requested duration.
pub const STREAM_MARGIN_SECS: u32 = 5;
/// The stream length the device page asks for by default.
pub const DEFAULT_STREAM_SECS: u32 = 180;

/// Why a start was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum StreamRefusal {
    /// The device is not functional (`connectDevice` in the client).
    #[error("the device is not functional")]
    NotFunctional,
}

/// What the streaming machine wants sent to the device: stream for this many seconds (0 stops).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamCommand {
    /// Seconds, margin included; 0 stops.
    pub seconds: u32,
}

/// Streaming state of one device.
#[derive(Debug, Default)]
pub struct Streaming {
    ends_at: Option<Instant>,
    outputs: VecDeque<StreamCommand>,
}

impl Streaming {
    /// An idle machine.
    pub fn new() -> Self {
        Self::default()
    }

    /// When the current stream ends, if one runs.
    pub fn ends_at(&self) -> Option<Instant> {
        self.ends_at
    }

    /// A viewer asks for `seconds` of live streaming; 0 stops.
    pub fn start(&mut self, now: Instant, seconds: u32, functional: bool) -> Result<(), StreamRefusal> {
        if seconds == 0 {
            self.stop();
            return Ok(());
        }
        if !functional {
            return Err(StreamRefusal::NotFunctional);
        }
        let wanted = Duration::from_secs(u64::from(seconds + STREAM_MARGIN_SECS));
        let remaining = self.ends_at.map(|end| end.saturating_duration_since(now)).unwrap_or_default();
        if remaining < wanted {
            self.ends_at = Some(now + wanted);
            self.outputs.push_back(StreamCommand { seconds: seconds + STREAM_MARGIN_SECS });
        }
        Ok(())
    }

    /// Stops streaming now.
    pub fn stop(&mut self) {
        if self.ends_at.take().is_some() {
            self.outputs.push_back(StreamCommand { seconds: 0 });
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

    /// Next command for the device.
    pub fn poll_output(&mut self) -> Option<StreamCommand> {
        self.outputs.pop_front()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(m: &mut Streaming) -> Vec<u32> {
        std::iter::from_fn(|| m.poll_output()).map(|c| c.seconds).collect()
    }

    #[test]
    fn default_stream_is_180_plus_5() {
        let t0 = Instant::now();
        let mut m = Streaming::new();
        m.start(t0, DEFAULT_STREAM_SECS, true).unwrap();
        assert_eq!(drain(&mut m), vec![185]);
        assert_eq!(m.poll_timeout(), Some(t0 + Duration::from_secs(185)));
    }

    #[test]
    fn a_non_functional_device_cannot_stream() {
        let mut m = Streaming::new();
        assert_eq!(m.start(Instant::now(), 180, false), Err(StreamRefusal::NotFunctional));
        assert_eq!(drain(&mut m), Vec::<u32>::new());
    }

    #[test]
    fn extending_restarts_only_when_remaining_is_under_the_request_plus_margin() {
        let t0 = Instant::now();
        let mut m = Streaming::new();
        m.start(t0, 180, true).unwrap();
        drain(&mut m);
        // 10 s later 175 s remain: a 60 s request (65 s) does not restart.
        m.start(t0 + Duration::from_secs(10), 60, true).unwrap();
        assert_eq!(drain(&mut m), Vec::<u32>::new());
        assert_eq!(m.ends_at(), Some(t0 + Duration::from_secs(185)));
        // 175 s remain; a 180 s request needs 185 s: restart.
        m.start(t0 + Duration::from_secs(10), 180, true).unwrap();
        assert_eq!(drain(&mut m), vec![185]);
        assert_eq!(m.ends_at(), Some(t0 + Duration::from_secs(195)));
        // Exactly the requested time + margin remaining: no restart.
        m.start(t0 + Duration::from_secs(10), 180, true).unwrap();
        assert_eq!(drain(&mut m), Vec::<u32>::new());
    }

    #[test]
    fn the_countdown_end_sends_zero_once() {
        let t0 = Instant::now();
        let mut m = Streaming::new();
        m.start(t0, 30, true).unwrap();
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
        m.start(t0, 0, true).unwrap();
        assert_eq!(drain(&mut m), Vec::<u32>::new());
        m.start(t0, 60, true).unwrap();
        m.start(t0 + Duration::from_secs(1), 0, false).unwrap();
        assert_eq!(drain(&mut m), vec![65, 0]);
    }
}
