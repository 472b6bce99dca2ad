//! PCD-05 Report Alert Status: what an alarm manager tells the reporter about an alarm it
//! dispatched (`ORA^R41^ORA_R41`: delivered to a phone, read, accepted by a named nurse, rejected,
//! escalated, cancelled), and the ACK the reporter answers with. Bytes come from the network:
//! [`parse_status`] is total (fuzz target `pcd05_status`).
//!
//! What is read: MSH-9 (must be `ORA^R41`), MSH-10 (for the ACK), OBR-3 (the alarm's identifier,
//! as the hub sent it in PCD-04), and from the OBX segments the first value that is a known status
//! word (OBX-5), with OBX-16 (responsible observer, XCN `id^family^given`) naming who, and OBX-14
//! when.

use crate::ack::{Parsed, field};
use crate::segment::{Field, Segment};
use crate::timestamp::hl7_timestamp;

/// The statuses a manager reports.
pub const STATUSES: [&str; 7] = ["delivered", "read", "accepted", "rejected", "escalated", "cancelled", "undeliverable"];

/// One alert status report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AlertStatus {
    /// MSH-10 of the report (echoed in the ACK).
    pub control_id: String,
    /// The alarm's identifier (OBR-3.1): the hub's alarm key.
    pub alarm_id: String,
    /// One of [`STATUSES`].
    pub status: String,
    /// Who (OBX-16: given and family name, else the id), when given.
    pub by: Option<String>,
    /// OBX-14 as sent, when given.
    pub at: Option<String>,
}

/// Why a message is not an alert status report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StatusError {
    /// Not an HL7 message.
    NotHl7,
    /// Another message type (MSH-9).
    NotOraR41(String),
    /// No OBR-3 naming the alarm.
    NoAlarm,
    /// No known status word.
    NoStatus,
}

impl std::fmt::Display for StatusError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StatusError::NotHl7 => write!(f, "not an HL7 message"),
            StatusError::NotOraR41(kind) => write!(f, "{kind:?} is not ORA^R41"),
            StatusError::NoAlarm => write!(f, "OBR-3 does not name an alarm"),
            StatusError::NoStatus => write!(f, "no alert status in the OBX segments"),
        }
    }
}

impl std::error::Error for StatusError {}

/// The control id of a message, when it has a readable header (to ACK even a refused one).
pub fn control_id(bytes: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(bytes);
    let parsed = Parsed::new(&text).ok()?;
    let msh = parsed.segment("MSH")?;
    Some(parsed.component(field(msh, 9), 1))
}

/// Reads an `ORA^R41` message.
pub fn parse_status(bytes: &[u8]) -> Result<AlertStatus, StatusError> {
    let text = String::from_utf8_lossy(bytes);
    let parsed = Parsed::new(&text).map_err(|_| StatusError::NotHl7)?;
    let msh = parsed.segment("MSH").ok_or(StatusError::NotHl7)?;
    // Split fields: index n is MSH-(n + 1).
    let kind = field(msh, 8);
    if parsed.component(kind, 1) != "ORA" || parsed.component(kind, 2) != "R41" {
        return Err(StatusError::NotOraR41(kind.chars().take(32).collect()));
    }
    let control_id = parsed.component(field(msh, 9), 1);
    let obr = parsed.segment("OBR").ok_or(StatusError::NoAlarm)?;
    let alarm_id = parsed.component(field(obr, 3), 1);
    if alarm_id.is_empty() {
        return Err(StatusError::NoAlarm);
    }
    for obx in parsed.segments("OBX") {
        let value = parsed.component(field(obx, 5), 1).trim().to_ascii_lowercase();
        if let Some(status) = STATUSES.iter().find(|s| **s == value) {
            let observer = field(obx, 16);
            let (id, family, given) = (parsed.component(observer, 1), parsed.component(observer, 2), parsed.component(observer, 3));
            let name = [given, family].into_iter().filter(|p| !p.is_empty()).collect::<Vec<_>>().join(" ");
            let by = if !name.is_empty() {
                Some(name)
            } else if !id.is_empty() {
                Some(id)
            } else {
                None
            };
            let at = Some(parsed.component(field(obx, 14), 1)).filter(|t| !t.is_empty());
            return Ok(AlertStatus { control_id, alarm_id, status: (*status).to_owned(), by, at });
        }
    }
    Err(StatusError::NoStatus)
}

/// What the reporter answers a status report with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer<'a> {
    /// `AA`: stored.
    Accept,
    /// `AE` with the reason: a readable report the reporter cannot take now (an alarm it does
    /// not know); the manager may send it again.
    Error(&'a str),
    /// `AR` with the reason: not a status report at all; sending the same bytes again is useless.
    Reject(&'a str),
}

/// The ACK the reporter answers a status report with (`MSA-1` AA, AE or AR, `MSA-2` its control id).
pub fn ack(control_id: &str, answer: Answer<'_>, sending_application: &str, now_ms: u64) -> String {
    let mut out = String::from("MSH|^~\\&|");
    let mut msh = String::new();
    Segment::new("MSH")
        .set(1, Field::text(sending_application))
        .set(5, Field::text(hl7_timestamp(now_ms)))
        .set(7, Field::components(["ACK", "R41", "ACK"]))
        .set(8, Field::text(format!("ack-{control_id}")))
        .set(9, Field::text("P"))
        .set(10, Field::text("2.6"))
        .write(&mut msh);
    out.push_str(&msh["MSH|".len()..]);
    out.push('\r');
    let (code, text) = match answer {
        Answer::Accept => ("AA", ""),
        Answer::Error(why) => ("AE", why),
        Answer::Reject(why) => ("AR", why),
    };
    Segment::new("MSA").set(1, Field::text(code)).set(2, Field::text(control_id)).set(3, Field::text(text)).write(&mut out);
    out.push('\r');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ack::{AckCode, parse_ack};

    const ACCEPTED: &str = "MSH|^~\\&|AM|WARD|PMAT_HUB||20261126120000||ORA^R41^ORA_R41|st-9|P|2.6\r\
        PID|1\rOBR|1|dev7-3^PMAT_HUB|dev7-3^PMAT_HUB|196616^MDC_EVT_ALARM^MDC\r\
        OBX|1|ST|0^MDCX_ATTR_ALERT_STATUS^MDC|1.0.0.0.1|accepted||||||F|||20261126120005+0000||N42^Okafor^Grace\r";

    #[test]
    fn reads_an_accepted_status_with_the_nurse() {
        let status = parse_status(ACCEPTED.as_bytes()).unwrap();
        assert_eq!(
            status,
            AlertStatus {
                control_id: "st-9".into(),
                alarm_id: "dev7-3".into(),
                status: "accepted".into(),
                by: Some("Grace Okafor".into()),
                at: Some("20261126120005+0000".into()),
            }
        );
        let id_only = ACCEPTED.replace("N42^Okafor^Grace", "N42");
        assert_eq!(parse_status(id_only.as_bytes()).unwrap().by, Some("N42".into()));
        let delivered = ACCEPTED.replace("|accepted|", "|Delivered|").replace("||N42^Okafor^Grace", "");
        let status = parse_status(delivered.as_bytes()).unwrap();
        assert_eq!((status.status.as_str(), status.by), ("delivered", None));
    }

    #[test]
    fn refuses_what_is_not_a_status_report() {
        assert_eq!(parse_status(b"hello"), Err(StatusError::NotHl7));
        assert!(matches!(parse_status(ACCEPTED.replace("ORA^R41", "ORU^R40").as_bytes()), Err(StatusError::NotOraR41(_))));
        assert_eq!(parse_status(ACCEPTED.replace("dev7-3^PMAT_HUB|dev7-3", "||").as_bytes()), Err(StatusError::NoAlarm));
        assert_eq!(parse_status(ACCEPTED.replace("|accepted|", "|snoozed|").as_bytes()), Err(StatusError::NoStatus));
        assert_eq!(control_id(ACCEPTED.as_bytes()), Some("st-9".into()));
    }

    #[test]
    fn the_ack_answers_the_reports_control_id() {
        let ok = ack("st-9", Answer::Accept, "PMAT_HUB", 0);
        assert_eq!(
            parse_ack(ok.as_bytes()).unwrap(),
            crate::ack::Ack { code: AckCode::Accept, control_id: "st-9".into(), text: String::new() }
        );
        let refused = ack("st|9", Answer::Error("unknown alarm"), "PMAT_HUB", 0);
        let read = parse_ack(refused.as_bytes()).unwrap();
        assert_eq!((read.code, read.control_id.as_str(), read.text.as_str()), (AckCode::Error, "st|9", "unknown alarm"));
        let rejected = parse_ack(ack("", Answer::Reject("not ORA^R41"), "PMAT_HUB", 0).as_bytes()).unwrap();
        assert_eq!((rejected.code, rejected.control_id.as_str(), rejected.text.as_str()), (AckCode::Reject, "", "not ORA^R41"));
    }
}
