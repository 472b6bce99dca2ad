//! The status of a parent device made of sub-devices: a room set (bed, seat, floor) or a
//! Sensing Horse (left, right).
//!
//! Room set: functional while any member is; presence when any member's latest reading exceeds
//! 200 (each member decides that itself); Missing once nobody has been present for the absence
//! delay. Horse: functional only when both sides are (spec §4: streaming needs both); its state
//! code is 0 only when both sides' codes are 0.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use super::mat::DeviceStatus;
use super::patient_status::PatientStatusMachine;
use super::presence::Presence;
use super::pressure_ulcer::RepositioningTier;
use super::status::{CardStatus, PatientStatus, card_from_code, combine_sides, state_code};

/// Which kind of set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetKind {
    /// Bed + seat + floor.
    Room,
    /// Left (even index) + right (odd index).
    Horse,
}

#[derive(Debug, Clone, Copy)]
struct Member {
    status: DeviceStatus,
    presence: Presence,
}

/// The parent's machine. Inputs: [`DeviceSet::handle_member`], [`DeviceSet::handle_timeout`];
/// outputs: the parent's new [`DeviceStatus`] via [`DeviceSet::poll_output`].
#[derive(Debug)]
pub struct DeviceSet {
    kind: SetKind,
    members: Vec<Member>,
    presence: PatientStatusMachine,
    last: DeviceStatus,
    outputs: VecDeque<DeviceStatus>,
}

const OFFLINE: DeviceStatus = DeviceStatus {
    functional: false,
    patient_status: PatientStatus::Offline,
    state_code: None,
    card: CardStatus::Offline,
    repositioning: RepositioningTier::Ok,
    unattended_alarm: false,
};

impl DeviceSet {
    /// A set of `members` sub-devices, all offline at first.
    pub fn new(kind: SetKind, members: usize, absence_delay: Duration) -> Self {
        let member = Member { status: OFFLINE, presence: Presence::Absent };
        DeviceSet {
            kind,
            members: vec![member; members],
            presence: PatientStatusMachine::new(PatientStatus::Correct, absence_delay),
            last: OFFLINE,
            outputs: VecDeque::new(),
        }
    }

    /// The parent's current status.
    pub fn status(&self) -> DeviceStatus {
        self.last
    }

    /// Whether a live stream may start on the set: for the Sensing Horse both sides (every member)
    /// must be functional (spec §4); a room set streams when any member is functional.
    pub fn can_stream(&self) -> bool {
        match self.kind {
            SetKind::Horse => !self.members.is_empty() && self.members.iter().all(|m| m.status.functional),
            SetKind::Room => self.members.iter().any(|m| m.status.functional),
        }
    }

    /// Member `index` reported a new status or presence.
    pub fn handle_member(&mut self, now: Instant, index: usize, status: DeviceStatus, presence: Presence) {
        let Some(member) = self.members.get_mut(index) else { return };
        *member = Member { status, presence };
        if self.kind == SetKind::Room {
            let anyone = self.members.iter().any(|m| m.status.functional && m.presence == Presence::Present);
            self.presence.handle_presence(now, if anyone { Presence::Present } else { Presence::Absent });
        }
        self.update();
    }

    /// Time passed.
    pub fn handle_timeout(&mut self, now: Instant) {
        self.presence.handle_timeout(now);
        self.update();
    }

    /// When the room set's absence becomes Missing.
    pub fn poll_timeout(&self) -> Option<Instant> {
        if self.kind == SetKind::Room && self.last.functional { self.presence.poll_timeout() } else { None }
    }

    /// The next status change.
    pub fn poll_output(&mut self) -> Option<DeviceStatus> {
        self.outputs.pop_front()
    }

    /// The status codes of each side (horse) for the `sides` field.
    pub fn member_codes(&self) -> Vec<Option<u8>> {
        self.members.iter().map(|m| m.status.state_code).collect()
    }

    fn update(&mut self) {
        while self.presence.poll_output().is_some() {}
        let status = match self.kind {
            SetKind::Horse => {
                let functional = !self.members.is_empty() && self.members.iter().all(|m| m.status.functional);
                let (mut left, mut right) = (Some(0), Some(0));
                for (i, m) in self.members.iter().enumerate() {
                    let side = if i % 2 == 0 { &mut left } else { &mut right };
                    *side = combine_sides(*side, m.status.state_code);
                }
                let code = combine_sides(left, right);
                let patient_status = match code {
                    Some(1) => PatientStatus::Missing,
                    Some(2) => PatientStatus::UlcerRisk,
                    Some(_) => PatientStatus::Correct,
                    None => PatientStatus::Offline,
                };
                DeviceStatus::new(functional, patient_status, code, card_from_code(code))
            }
            SetKind::Room => {
                let functional = self.members.iter().any(|m| m.status.functional);
                let patient_status = self.presence.status();
                let code = state_code(functional, patient_status);
                DeviceStatus::new(functional, patient_status, code, card_from_code(code))
            }
        };
        // The set shows its most urgent member's repositioning tier and any member's pending alarm.
        let status = DeviceStatus {
            repositioning: self.members.iter().map(|m| m.status.repositioning).max().unwrap_or(RepositioningTier::Ok),
            unattended_alarm: self.members.iter().any(|m| m.status.unattended_alarm),
            ..status
        };
        if status != self.last {
            self.last = status;
            self.outputs.push_back(status);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn up(code: u8) -> DeviceStatus {
        let patient_status = match code {
            1 => PatientStatus::Missing,
            2 => PatientStatus::UlcerRisk,
            _ => PatientStatus::Correct,
        };
        DeviceStatus::new(true, patient_status, Some(code), card_from_code(Some(code)))
    }

    #[test]
    fn horse_is_correct_only_when_both_sides_are() {
        let t = Instant::now();
        let mut set = DeviceSet::new(SetKind::Horse, 2, Duration::from_secs(30));
        set.handle_member(t, 0, up(0), Presence::Present);
        assert_eq!(set.status().card, CardStatus::Offline, "right side still offline");
        set.handle_member(t, 1, up(0), Presence::Present);
        assert_eq!(set.status().card, CardStatus::Correct);
        set.handle_member(t, 1, up(1), Presence::Absent);
        assert_eq!((set.status().state_code, set.status().card), (Some(1), CardStatus::Missing));
        set.handle_member(t, 0, up(2), Presence::Present);
        assert_eq!(set.status().card, CardStatus::Alarm);
    }

    #[test]
    fn room_set_is_present_when_any_member_is_and_missing_after_the_delay() {
        let t0 = Instant::now();
        let delay = Duration::from_secs(30);
        let mut set = DeviceSet::new(SetKind::Room, 3, delay);
        set.handle_member(t0, 0, up(0), Presence::Present);
        set.handle_member(t0, 1, up(0), Presence::Absent);
        set.handle_member(t0, 2, up(0), Presence::Absent);
        assert_eq!(set.status().card, CardStatus::Correct);
        // The patient moves from the bed to the seat: still present.
        set.handle_member(t0 + Duration::from_secs(1), 1, up(0), Presence::Present);
        set.handle_member(t0 + Duration::from_secs(1), 0, up(0), Presence::Absent);
        assert_eq!(set.status().card, CardStatus::Correct);
        // Leaves the room.
        let left = t0 + Duration::from_secs(2);
        set.handle_member(left, 1, up(0), Presence::Absent);
        assert_eq!(set.poll_timeout(), Some(left + delay));
        set.handle_timeout(left + delay - Duration::from_millis(1));
        assert_eq!(set.status().card, CardStatus::Correct);
        set.handle_timeout(left + delay);
        assert_eq!(set.status().card, CardStatus::Missing);
    }

    #[test]
    fn room_set_is_offline_only_when_every_member_is() {
        let t = Instant::now();
        let mut set = DeviceSet::new(SetKind::Room, 3, Duration::from_secs(30));
        assert_eq!(set.status().card, CardStatus::Offline);
        set.handle_member(t, 2, up(0), Presence::Present);
        assert!(set.status().functional);
    }

    #[test]
    fn horse_streams_only_when_both_sides_are_functional() {
        let t = Instant::now();
        let mut set = DeviceSet::new(SetKind::Horse, 2, Duration::from_secs(30));
        assert!(!set.can_stream());
        set.handle_member(t, 0, up(0), Presence::Present);
        assert!(!set.can_stream(), "right side still offline");
        set.handle_member(t, 1, up(1), Presence::Absent);
        assert!(set.can_stream(), "both sides functional, whatever their codes");
        set.handle_member(t, 0, OFFLINE, Presence::Absent);
        assert!(!set.can_stream());
        let mut room = DeviceSet::new(SetKind::Room, 3, Duration::from_secs(30));
        room.handle_member(t, 2, up(0), Presence::Absent);
        assert!(room.can_stream());
    }
}
