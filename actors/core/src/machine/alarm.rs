//! The alarm lifecycle of one device: raised → attended, with the time to attend recorded.
//!
//! Two kinds: `Missing` (the patient status became Missing, i.e. absent longer than the absence
//! delay of `patient_status`) and `UlcerRisk` (the repositioning clock of `pressure_ulcer` reached
//! `Due`). An alarm is raised when its condition begins, never again while the same condition
//! lasts (Due → Overdue is the same episode), and never while an alarm of the same kind is still
//! unattended: the card already shows it with its Attend button, and a restarted actor that
//! restored its pending alarms does not raise them a second time. Once the condition ends and
//! begins again, a new alarm is raised.
//!
//! A turned or returned patient does not attend an alarm: someone must (the alarm log records
//! who responded and how fast). [`AlarmMachine::has_unattended`] answers `iotCheckAlarms`.
//!
//! Inputs: [`AlarmMachine::handle_patient_status`], [`AlarmMachine::handle_tier`],
//! [`AlarmMachine::attend`], [`AlarmMachine::attend_all`]. Outputs ([`AlarmOutput`]) are drained
//! with [`AlarmMachine::poll_output`]. The machine has no deadlines of its own.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::body_regions::BodyBand;
use super::pressure_ulcer::RepositioningTier;
use super::status::PatientStatus;
use super::wall_clock::WallClock;

/// What an alarm is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AlarmKind {
    /// The patient has been absent longer than the absence delay.
    Missing,
    /// A body region has stayed loaded beyond the repositioning interval.
    UlcerRisk,
}

impl AlarmKind {
    /// The stored spelling (the patient status it goes with).
    pub fn name(self) -> &'static str {
        match self {
            AlarmKind::Missing => "Missing",
            AlarmKind::UlcerRisk => "Ulcer Risk",
        }
    }

    /// The kind of a stored spelling.
    pub fn from_name(name: &str) -> Option<AlarmKind> {
        [AlarmKind::Missing, AlarmKind::UlcerRisk].into_iter().find(|kind| kind.name() == name)
    }

    fn index(self) -> usize {
        match self {
            AlarmKind::Missing => 0,
            AlarmKind::UlcerRisk => 1,
        }
    }
}

/// An alarm's number, unique per device. The shell seeds the first number (for example from the
/// highest stored one) so numbers keep growing across restarts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AlarmId(pub u64);

/// Why an Ulcer Risk alarm was raised: which part of the body was loaded how long without the
/// relief the rule asks for (issue 23: a nurse must see why). Wall-clock seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct AlarmReason {
    /// The part of the body loaded longest.
    pub region: BodyBand,
    /// Seconds it had been loaded when the alarm was raised (short lifts included).
    pub loaded_seconds: u64,
    /// Seconds off the mattress that count as relief (15 min by default).
    pub offload_seconds: u64,
    /// The repositioning interval, seconds.
    pub interval_seconds: u64,
}

/// One alarm.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Alarm {
    /// Its number.
    pub id: AlarmId,
    /// What it is about.
    pub kind: AlarmKind,
    /// When it was raised (`creationDate`).
    pub raised_at: Instant,
    /// Why (Ulcer Risk alarms; `None` for Missing, which says it by its kind).
    pub reason: Option<AlarmReason>,
}

/// Why an attend was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum AttendError {
    /// No unattended alarm has this number (unknown, or attended already).
    #[error("no unattended alarm with this number")]
    NotPending,
}

/// What the alarm machine wants done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AlarmOutput {
    /// A new alarm: persist it (`hasBeenAttended` false) and push it once to every session of the
    /// company (the client's `alarmOn` toast with the device name, and the card's Attend button).
    Raised(Alarm),
    /// An alarm was attended: persist `hasBeenAttended` true, `attendedTime` and the time to
    /// attend, and tell the company's sessions so every card drops its Attend button.
    Attended { alarm: Alarm, attended_at: Instant, time_to_attend: Duration },
}

/// The alarms of one device as a restart must find them: the numbering and the unattended
/// alarms. The conditions are not kept: they follow from the patient status and the
/// repositioning tier, which the restored machine assumes without raising anything.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AlarmsSnapshot {
    /// The number the next alarm gets.
    pub next_id: u64,
    /// The unattended alarms, oldest first.
    pub pending: Vec<PendingAlarm>,
}

/// An unattended alarm in a snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingAlarm {
    /// Its number.
    pub id: u64,
    /// What it is about.
    pub kind: AlarmKind,
    /// When it was raised, Unix ms.
    pub raised_at_ms: u64,
    /// Why (Ulcer Risk).
    #[serde(default)]
    pub reason: Option<AlarmReason>,
}

/// The alarms of one device.
#[derive(Debug)]
pub struct AlarmMachine {
    next_id: u64,
    pending: Vec<Alarm>,
    condition: [bool; 2],
    outputs: VecDeque<AlarmOutput>,
}

impl AlarmMachine {
    /// No alarms; the first one raised gets number `first_id`.
    pub fn new(first_id: u64) -> Self {
        Self::restore(first_id, Vec::new())
    }

    /// Rebuilt after a restart from the alarms storage holds as unattended.
    pub fn restore(first_id: u64, pending: Vec<Alarm>) -> Self {
        let next_id = pending.iter().map(|a| a.id.0 + 1).max().unwrap_or(first_id).max(first_id);
        AlarmMachine { next_id, pending, condition: [false; 2], outputs: VecDeque::new() }
    }

    /// What a restart must keep, with wall-clock times.
    pub fn snapshot(&self, clock: WallClock) -> AlarmsSnapshot {
        let pending = self
            .pending
            .iter()
            .map(|a| PendingAlarm { id: a.id.0, kind: a.kind, raised_at_ms: clock.unix_ms(a.raised_at), reason: a.reason })
            .collect();
        AlarmsSnapshot { next_id: self.next_id, pending }
    }

    /// Rebuilt from a snapshot; numbering continues from `first_id` if that is higher.
    pub fn from_snapshot(snapshot: &AlarmsSnapshot, first_id: u64, clock: WallClock) -> Self {
        let pending = snapshot
            .pending
            .iter()
            .map(|a| Alarm { id: AlarmId(a.id), kind: a.kind, raised_at: clock.instant(a.raised_at_ms), reason: a.reason })
            .collect();
        Self::restore(snapshot.next_id.max(first_id), pending)
    }

    /// The number the next alarm will get.
    pub fn next_id(&self) -> u64 {
        self.next_id
    }

    /// The unattended alarms, oldest first.
    pub fn pending(&self) -> &[Alarm] {
        &self.pending
    }

    /// Whether an alarm waits to be attended (`iotCheckAlarms` answers 'True').
    pub fn has_unattended(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Whether an alarm of this kind waits to be attended.
    pub fn has_unattended_kind(&self, kind: AlarmKind) -> bool {
        self.pending.iter().any(|a| a.kind == kind)
    }

    /// The patient status changed (Missing raises a Missing alarm).
    pub fn handle_patient_status(&mut self, now: Instant, status: PatientStatus) {
        self.condition_is(now, AlarmKind::Missing, status == PatientStatus::Missing, None);
    }

    /// The repositioning tier changed (Due or Overdue raises an Ulcer Risk alarm).
    pub fn handle_tier(&mut self, now: Instant, tier: RepositioningTier) {
        self.handle_tier_with_reason(now, tier, None);
    }

    /// The repositioning tier changed, with the clock's reason: an alarm raised now carries it.
    pub fn handle_tier_with_reason(&mut self, now: Instant, tier: RepositioningTier, reason: Option<AlarmReason>) {
        self.condition_is(now, AlarmKind::UlcerRisk, tier.at_risk(), reason);
    }

    /// Someone attends every pending alarm of `kind` (a recorded turn answers an Ulcer Risk
    /// alarm). Returns how many.
    pub fn attend_kind(&mut self, now: Instant, kind: AlarmKind) -> usize {
        let ids: Vec<AlarmId> = self.pending.iter().filter(|a| a.kind == kind).map(|a| a.id).collect();
        ids.into_iter().filter(|id| self.attend(now, *id).is_ok()).count()
    }

    /// After a restart: the conditions as they stand, without raising anything (an alarm for a
    /// condition that was already on was raised before the restart).
    pub fn assume_conditions(&mut self, missing: bool, at_risk: bool) {
        self.condition = [missing, at_risk];
    }

    /// Someone attends alarm `id`; returns its time to attend.
    pub fn attend(&mut self, now: Instant, id: AlarmId) -> Result<Duration, AttendError> {
        let index = self.pending.iter().position(|a| a.id == id).ok_or(AttendError::NotPending)?;
        let alarm = self.pending.remove(index);
        let time_to_attend = now.saturating_duration_since(alarm.raised_at);
        self.outputs.push_back(AlarmOutput::Attended { alarm, attended_at: now, time_to_attend });
        Ok(time_to_attend)
    }

    /// Someone attends the device (the spec's attend-by-serial call): every pending alarm.
    /// Returns how many were attended.
    pub fn attend_all(&mut self, now: Instant) -> usize {
        let ids: Vec<AlarmId> = self.pending.iter().map(|a| a.id).collect();
        ids.into_iter().filter(|id| self.attend(now, *id).is_ok()).count()
    }

    /// Next output.
    pub fn poll_output(&mut self) -> Option<AlarmOutput> {
        self.outputs.pop_front()
    }

    fn condition_is(&mut self, now: Instant, kind: AlarmKind, active: bool, reason: Option<AlarmReason>) {
        let was = std::mem::replace(&mut self.condition[kind.index()], active);
        if active && !was && !self.pending.iter().any(|a| a.kind == kind) {
            let alarm = Alarm { id: AlarmId(self.next_id), kind, raised_at: now, reason };
            self.next_id += 1;
            self.pending.push(alarm);
            self.outputs.push_back(AlarmOutput::Raised(alarm));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: Duration = Duration::from_secs(60);

    fn drain(m: &mut AlarmMachine) -> Vec<AlarmOutput> {
        std::iter::from_fn(|| m.poll_output()).collect()
    }

    #[test]
    fn kinds_read_back_from_their_stored_spelling() {
        for kind in [AlarmKind::Missing, AlarmKind::UlcerRisk] {
            assert_eq!(AlarmKind::from_name(kind.name()), Some(kind));
        }
        assert_eq!(AlarmKind::from_name("Correct"), None);
    }

    #[test]
    fn an_ulcer_episode_raises_one_alarm_through_due_and_overdue() {
        let t0 = Instant::now();
        let mut m = AlarmMachine::new(1);
        m.handle_tier(t0, RepositioningTier::DueSoon);
        assert_eq!(drain(&mut m), vec![]);
        m.handle_tier(t0 + MIN, RepositioningTier::Due);
        let alarm = Alarm { id: AlarmId(1), kind: AlarmKind::UlcerRisk, raised_at: t0 + MIN, reason: None };
        assert_eq!(drain(&mut m), vec![AlarmOutput::Raised(alarm)]);
        m.handle_tier(t0 + 30 * MIN, RepositioningTier::Overdue);
        m.handle_tier(t0 + 31 * MIN, RepositioningTier::Overdue);
        assert_eq!(drain(&mut m), vec![]);
        assert!(m.has_unattended());
    }

    #[test]
    fn an_ulcer_alarm_carries_its_reason_and_a_recorded_turn_attends_only_ulcer_alarms() {
        let t0 = Instant::now();
        let mut m = AlarmMachine::new(1);
        let reason = AlarmReason { region: BodyBand::Pelvis, loaded_seconds: 7_200, offload_seconds: 900, interval_seconds: 7_200 };
        m.handle_patient_status(t0, PatientStatus::Missing);
        m.handle_tier_with_reason(t0 + MIN, RepositioningTier::Due, Some(reason));
        let raised = drain(&mut m);
        assert!(
            matches!(raised[..], [AlarmOutput::Raised(Alarm { reason: None, .. }), AlarmOutput::Raised(Alarm { reason: Some(r), .. })] if r == reason)
        );
        assert_eq!(m.attend_kind(t0 + 2 * MIN, AlarmKind::UlcerRisk), 1);
        assert!(m.has_unattended_kind(AlarmKind::Missing) && !m.has_unattended_kind(AlarmKind::UlcerRisk));
        assert_eq!(m.attend_kind(t0 + 3 * MIN, AlarmKind::UlcerRisk), 0);
    }

    #[test]
    fn attending_records_the_time_to_attend_once() {
        let t0 = Instant::now();
        let mut m = AlarmMachine::new(7);
        m.handle_patient_status(t0, PatientStatus::Missing);
        let raised = drain(&mut m);
        let AlarmOutput::Raised(alarm) = raised[0] else { panic!("{raised:?}") };
        assert_eq!((alarm.id, alarm.kind), (AlarmId(7), AlarmKind::Missing));
        assert_eq!(m.attend(t0 + 4 * MIN, alarm.id), Ok(4 * MIN));
        assert_eq!(drain(&mut m), vec![AlarmOutput::Attended { alarm, attended_at: t0 + 4 * MIN, time_to_attend: 4 * MIN }]);
        assert_eq!(m.attend(t0 + 5 * MIN, alarm.id), Err(AttendError::NotPending));
        assert!(!m.has_unattended());
    }

    #[test]
    fn an_attended_alarm_is_not_raised_again_while_its_condition_lasts() {
        let t0 = Instant::now();
        let mut m = AlarmMachine::new(1);
        m.handle_tier(t0, RepositioningTier::Due);
        m.attend_all(t0 + MIN);
        drain(&mut m);
        m.handle_tier(t0 + 30 * MIN, RepositioningTier::Overdue);
        assert_eq!(drain(&mut m), vec![]);
        // The patient is turned (tier drops), then stays still past the interval again.
        m.handle_tier(t0 + 40 * MIN, RepositioningTier::Ok);
        m.handle_tier(t0 + 160 * MIN, RepositioningTier::Due);
        assert!(matches!(drain(&mut m)[..], [AlarmOutput::Raised(Alarm { id: AlarmId(2), .. })]));
    }

    #[test]
    fn an_unattended_alarm_suppresses_a_new_one_of_its_kind_only() {
        let t0 = Instant::now();
        let mut m = AlarmMachine::new(1);
        m.handle_patient_status(t0, PatientStatus::Missing);
        m.handle_patient_status(t0 + MIN, PatientStatus::Correct);
        m.handle_patient_status(t0 + 2 * MIN, PatientStatus::Missing);
        assert_eq!(drain(&mut m).len(), 1, "still one unattended Missing alarm");
        m.handle_tier(t0 + 3 * MIN, RepositioningTier::Due);
        assert_eq!(drain(&mut m).len(), 1, "an ulcer alarm is another kind");
        assert_eq!(m.pending().len(), 2);
        assert_eq!(m.attend_all(t0 + 4 * MIN), 2);
    }

    #[test]
    fn conditions_assumed_after_a_restart_raise_nothing_until_they_end_and_begin_again() {
        let t0 = Instant::now();
        let mut m = AlarmMachine::new(1);
        m.assume_conditions(true, true);
        m.handle_patient_status(t0, PatientStatus::Missing);
        m.handle_tier(t0, RepositioningTier::Overdue);
        assert_eq!(drain(&mut m), vec![]);
        m.handle_tier(t0 + MIN, RepositioningTier::Ok);
        m.handle_tier(t0 + 2 * MIN, RepositioningTier::Due);
        assert_eq!(drain(&mut m).len(), 1);
    }

    #[test]
    fn restored_pending_alarms_are_not_raised_twice_and_numbers_keep_growing() {
        let t0 = Instant::now();
        let stored = Alarm { id: AlarmId(41), kind: AlarmKind::UlcerRisk, raised_at: t0, reason: None };
        let mut m = AlarmMachine::restore(1, vec![stored]);
        assert!(m.has_unattended());
        m.handle_tier(t0 + MIN, RepositioningTier::Overdue);
        assert_eq!(drain(&mut m), vec![]);
        m.handle_patient_status(t0 + MIN, PatientStatus::Missing);
        assert!(matches!(drain(&mut m)[..], [AlarmOutput::Raised(Alarm { id: AlarmId(42), kind: AlarmKind::Missing, .. })]));
    }
}
