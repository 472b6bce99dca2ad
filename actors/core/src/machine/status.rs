//! The device state code and card status of spec §4.
//!
//! State code from configuration: not functional → offline (`None`); patient status Missing or
//! Absent → 1; Ulcer Risk → 2; otherwise 0. Card status: Force Mat is Alarm when its first two
//! values are 0, else Correct; Seating Mat is always Correct; Shapes is Alarm when its alarm poll
//! says so; the others follow the state code (1 Missing, 2 Alarm, 0 Correct, else Offline). The
//! Sensing Horse's code is 0 only when both sides are 0.
//!
//! One deliberate departure, written down in docs/decisions.md: a device that is not functional
//! shows Offline whatever its type. The old app showed a disconnected Seating Mat or Force Mat as
//! Correct, which would tell a nurse that an unplugged mat is watching a patient.

use serde::{Deserialize, Serialize};

use mat_protocol::device_type::DeviceType;

/// The patient status stored in the device configuration (spec §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub enum PatientStatus {
    Missing,
    Absent,
    #[serde(rename = "Ulcer Risk")]
    UlcerRisk,
    Correct,
    Offline,
}

impl PatientStatus {
    /// The stored spelling.
    pub fn name(self) -> &'static str {
        match self {
            PatientStatus::Missing => "Missing",
            PatientStatus::Absent => "Absent",
            PatientStatus::UlcerRisk => "Ulcer Risk",
            PatientStatus::Correct => "Correct",
            PatientStatus::Offline => "Offline",
        }
    }

    /// Parses the stored spelling.
    pub fn from_name(name: &str) -> Option<PatientStatus> {
        [Self::Missing, Self::Absent, Self::UlcerRisk, Self::Correct, Self::Offline].into_iter().find(|s| s.name() == name)
    }
}

/// What a device card shows, with its colour in the client.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub enum CardStatus {
    /// Blue.
    Missing,
    /// Orange.
    Alarm,
    /// Green.
    Correct,
    /// Grey.
    Offline,
}

/// Device state code: `Some(0)` correct, `Some(1)` missing, `Some(2)` alarm, `None` offline.
pub type StateCode = Option<u8>;

/// The state code of one device's configuration.
pub fn state_code(functional: bool, patient_status: PatientStatus) -> StateCode {
    if !functional {
        return None;
    }
    match patient_status {
        PatientStatus::Missing | PatientStatus::Absent => Some(1),
        PatientStatus::UlcerRisk => Some(2),
        PatientStatus::Correct | PatientStatus::Offline => Some(0),
    }
}

/// The Sensing Horse's code from its two sides: 0 only when both are 0. Otherwise an offline
/// side makes the horse offline, and an alarm outranks a missing rider.
pub fn combine_sides(left: StateCode, right: StateCode) -> StateCode {
    match (left, right) {
        (Some(0), Some(0)) => Some(0),
        (None, _) | (_, None) => None,
        (Some(a), Some(b)) => Some(a.max(b)),
    }
}

/// Inputs that only some types use.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CardInputs<'a> {
    /// Force Mat channel values (`presureValue`).
    pub force_values: &'a [u16],
    /// Shapes: the alarm poll answered true.
    pub alarm_poll: bool,
}

/// The card status of one device.
pub fn card_status(device_type: DeviceType, functional: bool, code: StateCode, inputs: CardInputs<'_>) -> CardStatus {
    if !functional {
        return CardStatus::Offline;
    }
    match device_type {
        DeviceType::ForceMat => match inputs.force_values {
            [0, 0, ..] => CardStatus::Alarm,
            _ => CardStatus::Correct,
        },
        DeviceType::SeatingMat => CardStatus::Correct,
        DeviceType::Shapes => {
            if inputs.alarm_poll {
                CardStatus::Alarm
            } else {
                CardStatus::Correct
            }
        }
        _ => card_from_code(code),
    }
}

/// The card status that follows a state code.
pub fn card_from_code(code: StateCode) -> CardStatus {
    match code {
        Some(0) => CardStatus::Correct,
        Some(1) => CardStatus::Missing,
        Some(2) => CardStatus::Alarm,
        _ => CardStatus::Offline,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_code_follows_configuration() {
        assert_eq!(state_code(false, PatientStatus::Correct), None);
        assert_eq!(state_code(false, PatientStatus::UlcerRisk), None);
        assert_eq!(state_code(true, PatientStatus::Missing), Some(1));
        assert_eq!(state_code(true, PatientStatus::Absent), Some(1));
        assert_eq!(state_code(true, PatientStatus::UlcerRisk), Some(2));
        assert_eq!(state_code(true, PatientStatus::Correct), Some(0));
    }

    #[test]
    fn codes_map_to_cards() {
        assert_eq!(card_from_code(Some(0)), CardStatus::Correct);
        assert_eq!(card_from_code(Some(1)), CardStatus::Missing);
        assert_eq!(card_from_code(Some(2)), CardStatus::Alarm);
        assert_eq!(card_from_code(Some(3)), CardStatus::Offline);
        assert_eq!(card_from_code(None), CardStatus::Offline);
    }

    #[test]
    fn mattress_cards_follow_the_code() {
        let t = DeviceType::MattressMatIoT;
        let none = CardInputs::default();
        assert_eq!(card_status(t, true, Some(1), none), CardStatus::Missing);
        assert_eq!(card_status(t, true, Some(2), none), CardStatus::Alarm);
        assert_eq!(card_status(t, true, Some(0), none), CardStatus::Correct);
        assert_eq!(card_status(t, false, None, none), CardStatus::Offline);
    }

    #[test]
    fn force_mat_alarms_when_its_first_two_values_are_zero() {
        let t = DeviceType::ForceMat;
        let card = |v: &[u16]| card_status(t, true, Some(0), CardInputs { force_values: v, alarm_poll: false });
        assert_eq!(card(&[0, 0, 500, 500]), CardStatus::Alarm);
        assert_eq!(card(&[0, 1, 0, 0]), CardStatus::Correct);
        assert_eq!(card(&[1, 0, 0, 0]), CardStatus::Correct);
        // Even with a Missing code, the force mat card follows its values.
        assert_eq!(card_status(t, true, Some(1), CardInputs { force_values: &[3, 3, 0, 0], alarm_poll: false }), CardStatus::Correct);
    }

    #[test]
    fn seating_mat_is_always_correct_while_connected() {
        let none = CardInputs::default();
        for code in [Some(0), Some(1), Some(2)] {
            assert_eq!(card_status(DeviceType::SeatingMat, true, code, none), CardStatus::Correct);
        }
        // Our departure from the old app: an unplugged seating mat is Offline, not Correct.
        assert_eq!(card_status(DeviceType::SeatingMat, false, None, none), CardStatus::Offline);
        // The IoT seating mat is not the legacy Seating Mat: it follows its code.
        assert_eq!(card_status(DeviceType::SeatingMatIoT, true, Some(1), none), CardStatus::Missing);
    }

    #[test]
    fn shapes_follow_the_alarm_poll() {
        let t = DeviceType::Shapes;
        assert_eq!(card_status(t, true, Some(0), CardInputs { force_values: &[], alarm_poll: true }), CardStatus::Alarm);
        assert_eq!(card_status(t, true, Some(2), CardInputs::default()), CardStatus::Correct);
    }

    #[test]
    fn horse_is_correct_only_when_both_sides_are() {
        assert_eq!(combine_sides(Some(0), Some(0)), Some(0));
        assert_eq!(combine_sides(Some(1), Some(0)), Some(1));
        assert_eq!(combine_sides(Some(0), Some(2)), Some(2));
        assert_eq!(combine_sides(Some(1), Some(2)), Some(2));
        assert_eq!(combine_sides(None, Some(0)), None);
        assert_eq!(combine_sides(Some(0), None), None);
    }

    #[test]
    fn patient_status_names_round_trip() {
        for s in [PatientStatus::Missing, PatientStatus::Absent, PatientStatus::UlcerRisk, PatientStatus::Correct, PatientStatus::Offline] {
            assert_eq!(PatientStatus::from_name(s.name()), Some(s));
        }
        assert_eq!(PatientStatus::UlcerRisk.name(), "Ulcer Risk");
    }
}
