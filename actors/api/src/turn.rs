//! A turn a nurse records (issue 23): when the patient was turned (Unix ms; now when left out) and
//! the position they were turned to. The hub restarts the device's repositioning clock from then.

use serde::Deserialize;

use super::Invalid;

/// The positions a patient can be turned to (a posture's stored name; Seated for a seat's relief).
pub const TURN_POSITIONS: [&str; 5] = ["Supine", "Prone", "Left Lateral", "Right Lateral", "Seated"];
/// How long ago a turn may be recorded: one 12-hour shift.
pub const TURN_MAX_AGE_MS: i64 = 12 * 3_600_000;
/// How far ahead of the hub's clock a turn's time may be (a tablet's clock a little fast): 1 min.
pub const TURN_MAX_AHEAD_MS: i64 = 60_000;

/// The body of `POST /api/device/{id}/turns`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TurnInput {
    /// When the patient was turned, Unix ms (a JSON integer); now when absent or null. At most
    /// 12 h ago and 1 min ahead of the hub's clock.
    #[serde(default, deserialize_with = "super::lenient::optional_integer")]
    pub at_ms: Option<i64>,
    /// The position the patient was turned to.
    #[schemars(pattern(r"^(Supine|Prone|Left Lateral|Right Lateral|Seated)$"))]
    pub position: String,
}

/// A checked turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckedTurn {
    /// When, Unix ms (not after `now_ms`: a time a little ahead is taken as now).
    pub at_ms: u64,
    /// One of [`TURN_POSITIONS`].
    pub position: &'static str,
}

/// Checks a turn against the hub's clock `now_ms` (`invalidTurn` with what is wrong).
pub fn validate_turn(input: &TurnInput, now_ms: i64) -> Result<CheckedTurn, Invalid> {
    let Some(position) = TURN_POSITIONS.iter().copied().find(|p| *p == input.position) else {
        return Err(Invalid::new("invalidTurn", format!("the position is one of {TURN_POSITIONS:?}")));
    };
    let at = input.at_ms.unwrap_or(now_ms);
    if at > now_ms.saturating_add(TURN_MAX_AHEAD_MS) || at < now_ms.saturating_sub(TURN_MAX_AGE_MS) {
        return Err(Invalid::new("invalidTurn", "the turn's time is within the last 12 hours"));
    }
    Ok(CheckedTurn { at_ms: u64::try_from(at.min(now_ms)).unwrap_or(0), position })
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_800_000_000_000;

    fn turn(at_ms: Option<i64>, position: &str) -> TurnInput {
        TurnInput { at_ms, position: position.into() }
    }

    #[test]
    fn a_turn_is_now_by_default_and_within_the_last_twelve_hours() {
        assert_eq!(validate_turn(&turn(None, "Left Lateral"), NOW), Ok(CheckedTurn { at_ms: NOW as u64, position: "Left Lateral" }));
        assert_eq!(validate_turn(&turn(Some(NOW - TURN_MAX_AGE_MS), "Supine"), NOW).unwrap().at_ms, (NOW - TURN_MAX_AGE_MS) as u64);
        assert_eq!(validate_turn(&turn(Some(NOW - TURN_MAX_AGE_MS - 1), "Supine"), NOW).unwrap_err().key, "invalidTurn");
        // A little ahead (a tablet's clock) is now; further ahead is refused.
        assert_eq!(validate_turn(&turn(Some(NOW + 30_000), "Prone"), NOW).unwrap().at_ms, NOW as u64);
        assert!(validate_turn(&turn(Some(NOW + TURN_MAX_AHEAD_MS + 1), "Prone"), NOW).is_err());
    }

    #[test]
    fn the_position_is_one_a_patient_can_be_turned_to() {
        for position in TURN_POSITIONS {
            assert!(validate_turn(&turn(None, position), NOW).is_ok(), "{position}");
        }
        for position in ["", "supine", "No Supine", "Standing"] {
            assert_eq!(validate_turn(&turn(None, position), NOW).unwrap_err().key, "invalidTurn", "{position:?}");
        }
    }

    #[test]
    fn the_body_reads_integers_however_json_writes_them() {
        let input: TurnInput = serde_json::from_str(r#"{"atMs": 1.8e12, "position": "Supine"}"#).unwrap();
        assert_eq!(input.at_ms, Some(NOW));
        let input: TurnInput = serde_json::from_str(r#"{"atMs": null, "position": "Supine"}"#).unwrap();
        assert_eq!(input.at_ms, None);
    }
}
