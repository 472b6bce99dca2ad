//! The input path of the reporter's PCD-05 listener, without I/O: the bytes one alarm manager
//! connection delivers, in whatever pieces the socket hands them over, become MLLP frames, and
//! each frame either an alert status report for the caller to look up (and answer `AA` or `AE`)
//! or a refusal to answer `AR` at once. Total on any input (fuzz target `pcd05_listener`).

use crate::mllp::{FrameReader, Oversized};
use crate::pcd05::{AlertStatus, control_id, parse_status};

/// The longest status report a connection may send; a longer frame closes the connection.
pub const MAX_STATUS_BYTES: usize = 64 * 1024;

/// One frame, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Incoming {
    /// A status report: the caller looks its alarm up and answers `AA` or `AE`.
    Status(AlertStatus),
    /// Not a status report: answer `AR` with `why`, echoing `control_id` (empty when the frame
    /// has no readable header).
    Refused { control_id: String, why: String },
}

/// One connection's reader.
#[derive(Debug)]
pub struct StatusStream {
    frames: FrameReader,
}

impl Default for StatusStream {
    fn default() -> Self {
        StatusStream { frames: FrameReader::new(MAX_STATUS_BYTES) }
    }
}

impl StatusStream {
    /// Feeds bytes; returns what the frames they complete say, in order, or [`Oversized`] (the
    /// caller closes the connection).
    pub fn push(&mut self, bytes: &[u8]) -> Result<Vec<Incoming>, Oversized> {
        Ok(self.frames.push(bytes)?.iter().map(|frame| read(frame)).collect())
    }
}

/// What one frame says.
pub fn read(frame: &[u8]) -> Incoming {
    match parse_status(frame) {
        Ok(status) => Incoming::Status(status),
        Err(error) => Incoming::Refused { control_id: control_id(frame).unwrap_or_default(), why: error.to_string() },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mllp::frame;

    const ACCEPTED: &str = "MSH|^~\\&|AM|WARD|PMAT_HUB||20261126120000||ORA^R41^ORA_R41|st-9|P|2.6\r\
        OBR|1|dev7-3^PMAT_HUB|dev7-3^PMAT_HUB|196616^MDC_EVT_ALARM^MDC\r\
        OBX|1|ST|0^MDCX_ATTR_ALERT_STATUS^MDC|1.0.0.0.1|accepted||||||F|||20261126120005+0000||N42^Okafor^Grace\r";

    #[test]
    fn reports_and_garbage_come_out_in_order_whatever_the_pieces() {
        let mut bytes = frame(ACCEPTED);
        bytes.extend(frame("hello"));
        bytes.extend(frame(&ACCEPTED.replace("ORA^R41^ORA_R41|st-9", "ORU^R40^ORU_R40|st-10")));
        for piece in [1, 7, 64, bytes.len()] {
            let mut stream = StatusStream::default();
            let mut out = Vec::new();
            for chunk in bytes.chunks(piece) {
                out.extend(stream.push(chunk).unwrap());
            }
            assert_eq!(out.len(), 3, "pieces of {piece}");
            assert!(matches!(&out[0], Incoming::Status(s) if s.alarm_id == "dev7-3" && s.by.as_deref() == Some("Grace Okafor")));
            assert_eq!(out[1], Incoming::Refused { control_id: String::new(), why: "not an HL7 message".into() });
            assert!(matches!(&out[2], Incoming::Refused { control_id, why } if control_id == "st-10" && why.contains("ORU^R40")));
        }
    }

    #[test]
    fn an_endless_frame_is_refused() {
        let mut stream = StatusStream::default();
        let mut endless = vec![crate::mllp::START];
        endless.extend(std::iter::repeat_n(b'x', MAX_STATUS_BYTES + 8));
        assert_eq!(stream.push(&endless), Err(Oversized));
    }
}
