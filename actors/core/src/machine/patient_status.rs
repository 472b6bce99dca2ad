//! Patient status from presence: `Missing` once the patient has been absent longer than a delay.
//!
//! A single empty frame never raises Missing (a patient lifting a hip empties a small seat map
//! for a moment); the absence must last [`DEFAULT_ABSENCE_DELAY`] or the configured delay.
//! Presence returns the status to `Correct` at once. Ulcer-risk timing is a separate machine.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::presence::Presence;
use super::status::PatientStatus;
use super::wall_clock::WallClock;

/// Absence that lasts this long makes the patient Missing, unless configured otherwise.
pub const DEFAULT_ABSENCE_DELAY: Duration = Duration::from_secs(30);

/// The patient status as a restart must find it: the status and, while the patient is away,
/// since when (so Missing comes on time after a restart).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PatientSnapshot {
    /// The status.
    pub status: PatientStatus,
    /// Start of the absence being timed, Unix ms.
    pub absent_since_ms: Option<u64>,
}

/// Tracks presence over time and says when the patient status changes.
#[derive(Debug)]
pub struct PatientStatusMachine {
    delay: Duration,
    status: PatientStatus,
    absent_since: Option<Instant>,
    outputs: VecDeque<PatientStatus>,
}

impl PatientStatusMachine {
    /// Starts from the stored status with the given absence delay.
    pub fn new(stored: PatientStatus, delay: Duration) -> Self {
        PatientStatusMachine { delay, status: stored, absent_since: None, outputs: VecDeque::new() }
    }

    /// What a restart must keep, with wall-clock times.
    pub fn snapshot(&self, clock: WallClock) -> PatientSnapshot {
        PatientSnapshot { status: self.status, absent_since_ms: clock.unix_ms_opt(self.absent_since) }
    }

    /// Rebuilt from a snapshot with the given absence delay.
    pub fn from_snapshot(snapshot: &PatientSnapshot, delay: Duration, clock: WallClock) -> Self {
        PatientStatusMachine { absent_since: clock.instant_opt(snapshot.absent_since_ms), ..Self::new(snapshot.status, delay) }
    }

    /// The current status.
    pub fn status(&self) -> PatientStatus {
        self.status
    }

    /// The presence verdict of a new frame.
    pub fn handle_presence(&mut self, now: Instant, presence: Presence) {
        match presence {
            Presence::Present => {
                self.absent_since = None;
                self.set(PatientStatus::Correct);
            }
            Presence::Absent => {
                let since = *self.absent_since.get_or_insert(now);
                if now >= since + self.delay {
                    self.set(PatientStatus::Missing);
                }
            }
        }
    }

    /// Time has passed without frames that changed the verdict.
    pub fn handle_timeout(&mut self, now: Instant) {
        if let Some(since) = self.absent_since
            && now >= since + self.delay
        {
            self.set(PatientStatus::Missing);
        }
    }

    /// When the pending absence becomes Missing.
    pub fn poll_timeout(&self) -> Option<Instant> {
        match (self.absent_since, self.status) {
            (Some(since), s) if s != PatientStatus::Missing => Some(since + self.delay),
            _ => None,
        }
    }

    /// The next status change.
    pub fn poll_output(&mut self) -> Option<PatientStatus> {
        self.outputs.pop_front()
    }

    fn set(&mut self, status: PatientStatus) {
        if self.status != status {
            self.status = status;
            self.outputs.push_back(status);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DELAY: Duration = Duration::from_secs(30);

    #[test]
    fn one_empty_frame_is_not_missing() {
        let t0 = Instant::now();
        let mut m = PatientStatusMachine::new(PatientStatus::Correct, DELAY);
        m.handle_presence(t0, Presence::Absent);
        assert_eq!(m.poll_output(), None);
        m.handle_presence(t0 + Duration::from_secs(1), Presence::Present);
        m.handle_timeout(t0 + Duration::from_secs(60));
        assert_eq!(m.status(), PatientStatus::Correct);
    }

    #[test]
    fn absence_longer_than_the_delay_is_missing() {
        let t0 = Instant::now();
        let mut m = PatientStatusMachine::new(PatientStatus::Correct, DELAY);
        m.handle_presence(t0, Presence::Absent);
        assert_eq!(m.poll_timeout(), Some(t0 + DELAY));
        m.handle_timeout(t0 + DELAY - Duration::from_millis(1));
        assert_eq!(m.poll_output(), None);
        m.handle_timeout(t0 + DELAY);
        assert_eq!(m.poll_output(), Some(PatientStatus::Missing));
        assert_eq!(m.poll_timeout(), None);
    }

    #[test]
    fn absence_is_measured_from_its_first_frame() {
        let t0 = Instant::now();
        let mut m = PatientStatusMachine::new(PatientStatus::Correct, DELAY);
        for s in 0..=30 {
            m.handle_presence(t0 + Duration::from_secs(s), Presence::Absent);
        }
        assert_eq!(m.status(), PatientStatus::Missing);
    }

    #[test]
    fn presence_returns_to_correct_at_once() {
        let t0 = Instant::now();
        let mut m = PatientStatusMachine::new(PatientStatus::Missing, DELAY);
        m.handle_presence(t0, Presence::Present);
        assert_eq!(m.poll_output(), Some(PatientStatus::Correct));
    }
}
