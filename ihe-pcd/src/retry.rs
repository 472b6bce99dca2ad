//! What happens to a message after one attempt, and when it is tried again.
//!
//! `AA` delivers it. `AE` (the manager could not process it now), no answer within the timeout, a
//! closed connection or an answer to another message are retried with exponential backoff:
//! 1 s, 2 s, 4 s … capped at 60 s, for ever (an alarm is never given up while the manager may
//! come back; the administrator sees the link down and the queue grow). `AR` (the manager refuses
//! the message itself) will not change on a resend of the same bytes: the message goes to the
//! dead-letter list, where an administrator may resend it after fixing the configuration.

use std::time::Duration;

use crate::ack::{Ack, AckCode};

/// The first retry's delay.
pub const FIRST_RETRY: Duration = Duration::from_secs(1);
/// The longest delay between two attempts.
pub const MAX_RETRY: Duration = Duration::from_secs(60);

/// The delay before attempt `attempts + 1`, after `attempts` failed ones (≥ 1).
pub fn backoff(attempts: u32) -> Duration {
    let doublings = attempts.saturating_sub(1).min(16);
    FIRST_RETRY.saturating_mul(1 << doublings).min(MAX_RETRY)
}

/// The fate of one attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Disposition {
    /// Acknowledged with `AA`: done.
    Delivered,
    /// Try again later, with the reason shown to administrators.
    Retry(String),
    /// Refused with `AR`: to the dead-letter list, with the manager's text.
    DeadLetter(String),
}

/// What an attempt at message `control_id` came to: the manager's ACK, or why there was none.
pub fn disposition(control_id: &str, answer: Result<Ack, String>) -> Disposition {
    match answer {
        Err(why) => Disposition::Retry(why),
        Ok(ack) if ack.control_id != control_id => {
            Disposition::Retry(format!("the ACK names message {:?}, not {control_id:?}", ack.control_id))
        }
        Ok(ack) => match ack.code {
            AckCode::Accept => Disposition::Delivered,
            AckCode::Error => Disposition::Retry(with_text("AE", &ack.text)),
            AckCode::Reject => Disposition::DeadLetter(with_text("AR", &ack.text)),
        },
    }
}

fn with_text(code: &str, text: &str) -> String {
    if text.is_empty() { code.to_owned() } else { format!("{code}: {text}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ack(code: AckCode, id: &str) -> Result<Ack, String> {
        Ok(Ack { code, control_id: id.into(), text: "why".into() })
    }

    #[test]
    fn backoff_doubles_from_one_second_up_to_a_minute() {
        let delays: Vec<u64> = (1..=9).map(|n| backoff(n).as_secs()).collect();
        assert_eq!(delays, [1, 2, 4, 8, 16, 32, 60, 60, 60]);
        assert_eq!(backoff(0), FIRST_RETRY);
        assert_eq!(backoff(u32::MAX), MAX_RETRY);
    }

    #[test]
    fn aa_delivers_ae_retries_ar_dead_letters() {
        assert_eq!(disposition("m1", ack(AckCode::Accept, "m1")), Disposition::Delivered);
        assert_eq!(disposition("m1", ack(AckCode::Error, "m1")), Disposition::Retry("AE: why".into()));
        assert_eq!(disposition("m1", ack(AckCode::Reject, "m1")), Disposition::DeadLetter("AR: why".into()));
        assert!(matches!(disposition("m1", ack(AckCode::Accept, "m2")), Disposition::Retry(_)), "another message's ACK");
        assert_eq!(disposition("m1", Err("timeout".into())), Disposition::Retry("timeout".into()));
    }
}
