//! A device's `frame` message on the hot path, both ways, without intermediate copies.
//!
//! Reading: the body is parsed as a borrowed view (the tag, the two integers and the cells or
//! runs as slices of the body), and the frame's cells are made once from it: a copy of `cells`
//! (version 1, or a version 2 device that sends its cells whole), or the `runs` expanded straight
//! into zeroed cells (version 2). Anything the view cannot read goes the general way
//! ([`crate::decode`]), so every message that decoded before still does.
//!
//! Writing: [`encode_frame`] writes a frame from borrowed cells, whole or as runs.

use serde::{Deserialize, Serialize};

use crate::runs::{decode_runs, decode_runs_into, encode_runs};
use crate::{DeviceMessage, Frame, MAX_MESSAGE_BYTES, ProtocolError};

/// How a device sends its cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FrameEncoding {
    /// `cells`: every cell, as protocol version 1 defines it.
    Dense,
    /// `runs`: zero runs and literal cells (protocol version 2, [`crate::runs`]).
    #[default]
    Runs,
}

impl FrameEncoding {
    /// The protocol version a device says in its hello to send frames this way.
    pub fn protocol_version(self) -> u16 {
        match self {
            FrameEncoding::Dense => 1,
            FrameEncoding::Runs => 2,
        }
    }

    /// The encoding named `dense` or `runs` (command-line switches).
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "dense" => Some(FrameEncoding::Dense),
            "runs" => Some(FrameEncoding::Runs),
            _ => None,
        }
    }
}

/// A frame as written: `{type: "frame", seq, device_time_ms, cells | runs}`.
#[derive(Serialize)]
struct FrameOut<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    seq: u64,
    device_time_ms: u64,
    #[serde(with = "serde_bytes", skip_serializing_if = "Option::is_none")]
    cells: Option<&'a [u8]>,
    #[serde(with = "serde_bytes", skip_serializing_if = "Option::is_none")]
    runs: Option<&'a [u8]>,
}

/// Encodes a `frame` message of `cells` in `encoding`.
pub fn encode_frame(seq: u64, device_time_ms: u64, cells: &[u8], encoding: FrameEncoding) -> Vec<u8> {
    let runs = match encoding {
        FrameEncoding::Dense => None,
        FrameEncoding::Runs => Some(encode_runs(cells)),
    };
    let message = match &runs {
        None => FrameOut { kind: "frame", seq, device_time_ms, cells: Some(cells), runs: None },
        Some(runs) => FrameOut { kind: "frame", seq, device_time_ms, cells: None, runs: Some(runs) },
    };
    crate::encode(&message)
}

/// What the view reads of any message: its tag, and a frame's fields as slices of the body.
#[derive(Deserialize)]
struct FrameView<'a> {
    #[serde(rename = "type", borrow)]
    kind: &'a str,
    #[serde(default)]
    seq: Option<u64>,
    #[serde(default)]
    device_time_ms: Option<u64>,
    #[serde(default, borrow)]
    cells: Option<&'a [u8]>,
    #[serde(default, borrow)]
    runs: Option<&'a [u8]>,
}

/// What a body holds, as far as the frame path cares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FrameRead {
    /// A frame whose cells are exactly `expected` bytes.
    Frame(Frame),
    /// A frame that does not fit: this many bytes of cells instead of the expected number, or
    /// runs that do not describe the frame (why, for the device).
    ShapeMismatch(String),
    /// A frame that is not valid in this protocol version.
    Malformed(String),
    /// Not a frame the view can read: decode it the general way.
    Other,
}

/// Reads `body` as a frame of `expected` bytes of cells, for a connection of protocol `version`
/// (1: `cells` only; 2: `cells` or `runs`, exactly one).
pub fn read_frame(body: &[u8], version: u16, expected: usize) -> FrameRead {
    if body.len() > MAX_MESSAGE_BYTES {
        return FrameRead::Other;
    }
    let Ok(view) = rmp_serde::from_slice::<FrameView<'_>>(body) else { return FrameRead::Other };
    if view.kind != "frame" {
        return FrameRead::Other;
    }
    let (Some(seq), Some(device_time_ms)) = (view.seq, view.device_time_ms) else {
        return FrameRead::Malformed("a frame needs seq and device_time_ms".into());
    };
    // Version 1 knows no `runs` (receivers ignore unknown keys).
    let runs = if version >= 2 { view.runs } else { None };
    let cells = match (view.cells, runs) {
        (Some(cells), None) if cells.len() == expected => cells.to_vec(),
        (Some(cells), None) => return FrameRead::ShapeMismatch(format!("{} bytes of cells, expected {expected}", cells.len())),
        (None, Some(runs)) => {
            let mut cells = vec![0u8; expected];
            if let Err(error) = decode_runs_into(runs, &mut cells) {
                return FrameRead::ShapeMismatch(error.to_string());
            }
            cells
        }
        (Some(_), Some(_)) => return FrameRead::Malformed("a frame has cells or runs, not both".into()),
        (None, None) if version >= 2 => return FrameRead::Malformed("a frame needs cells or runs".into()),
        (None, None) => return FrameRead::Malformed("a frame needs cells".into()),
    };
    FrameRead::Frame(Frame { seq, device_time_ms, cells })
}

/// Decodes any device message of either version, a frame's `runs` expanded to the length they
/// describe (at most [`MAX_MESSAGE_BYTES`]): for a reader that does not follow a connection's
/// hello (test hubs, tools). The hub reads frames with [`read_frame`], which checks the shape.
pub fn decode_device_message(body: &[u8]) -> Result<DeviceMessage, ProtocolError> {
    if body.len() <= MAX_MESSAGE_BYTES
        && let Ok(view) = rmp_serde::from_slice::<FrameView<'_>>(body)
        && view.kind == "frame"
        && view.cells.is_none()
        && let (Some(seq), Some(device_time_ms), Some(runs)) = (view.seq, view.device_time_ms, view.runs)
    {
        let cells = decode_runs(runs, MAX_MESSAGE_BYTES).map_err(|e| ProtocolError::Malformed(e.to_string()))?;
        return Ok(DeviceMessage::Frame(Frame { seq, device_time_ms, cells }));
    }
    crate::decode(body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Ack, DeviceMessage, encode};

    fn bed() -> Vec<u8> {
        (0..2304usize).map(|i| if (i / 48) % 3 == 0 && i % 48 > 10 { (i % 200) as u8 + 1 } else { 0 }).collect()
    }

    #[test]
    fn a_dense_frame_is_the_version_1_message_byte_for_byte() {
        let cells = bed();
        let message = DeviceMessage::Frame(Frame { seq: 9, device_time_ms: 1_700_000_000_000, cells: cells.clone() });
        assert_eq!(encode_frame(9, 1_700_000_000_000, &cells, FrameEncoding::Dense), encode(&message));
    }

    #[test]
    fn both_encodings_read_back_as_the_same_frame_in_version_2() {
        let cells = bed();
        let expected = FrameRead::Frame(Frame { seq: 3, device_time_ms: 4, cells: cells.clone() });
        for encoding in [FrameEncoding::Dense, FrameEncoding::Runs] {
            let body = encode_frame(3, 4, &cells, encoding);
            assert_eq!(read_frame(&body, 2, 2304), expected, "{encoding:?}");
        }
        let runs = encode_frame(3, 4, &cells, FrameEncoding::Runs);
        assert!(runs.len() < encode_frame(3, 4, &cells, FrameEncoding::Dense).len() / 2);
    }

    #[test]
    fn version_1_reads_cells_only() {
        let cells = bed();
        let dense = encode_frame(3, 4, &cells, FrameEncoding::Dense);
        assert_eq!(read_frame(&dense, 1, 2304), FrameRead::Frame(Frame { seq: 3, device_time_ms: 4, cells: cells.clone() }));
        let runs = encode_frame(3, 4, &cells, FrameEncoding::Runs);
        assert!(matches!(read_frame(&runs, 1, 2304), FrameRead::Malformed(_)));
    }

    #[test]
    fn frames_that_do_not_fit_are_refused_and_other_messages_passed_on() {
        let cells = bed();
        let short = encode_frame(3, 4, &cells[..2303], FrameEncoding::Dense);
        assert!(matches!(read_frame(&short, 2, 2304), FrameRead::ShapeMismatch(_)));
        let short_runs = encode_frame(3, 4, &cells[..2300], FrameEncoding::Runs);
        assert!(matches!(read_frame(&short_runs, 2, 2304), FrameRead::ShapeMismatch(_)));
        let both = crate::encode(&FrameOut { kind: "frame", seq: 1, device_time_ms: 1, cells: Some(&cells), runs: Some(&[0x80, 0x12, 0]) });
        assert!(matches!(read_frame(&both, 2, 2304), FrameRead::Malformed(_)));
        let neither = crate::encode(&FrameOut { kind: "frame", seq: 1, device_time_ms: 1, cells: None, runs: None });
        assert!(matches!(read_frame(&neither, 2, 2304), FrameRead::Malformed(_)));
        let ack = encode(&DeviceMessage::Ack(Ack { command_id: 1, ok: true, reason: String::new() }));
        assert_eq!(read_frame(&ack, 2, 2304), FrameRead::Other);
        assert_eq!(read_frame(b"\xc1garbage", 2, 2304), FrameRead::Other);
    }

    #[test]
    fn a_reader_without_the_hello_decodes_either_encoding() {
        let cells = bed();
        let frame = DeviceMessage::Frame(Frame { seq: 3, device_time_ms: 4, cells: cells.clone() });
        for encoding in [FrameEncoding::Dense, FrameEncoding::Runs] {
            assert_eq!(decode_device_message(&encode_frame(3, 4, &cells, encoding)), Ok(frame.clone()), "{encoding:?}");
        }
        let ack = DeviceMessage::Ack(Ack { command_id: 1, ok: true, reason: String::new() });
        assert_eq!(decode_device_message(&encode(&ack)), Ok(ack));
        let bad_runs = crate::encode(&FrameOut { kind: "frame", seq: 1, device_time_ms: 1, cells: None, runs: Some(&[0x80]) });
        assert!(matches!(decode_device_message(&bad_runs), Err(ProtocolError::Malformed(_))));
    }

    #[test]
    fn the_fuzz_seeds_written_by_another_encoder_decode() {
        // fuzz/make_seeds.py encodes runs in Python from docs/device-protocol.md §2.
        let u8_runs = decode_device_message(include_bytes!("../../../fuzz/seeds/device_protocol/frame_u8_runs"));
        let u8_dense = decode_device_message(include_bytes!("../../../fuzz/seeds/device_protocol/frame_u8"));
        let (Ok(DeviceMessage::Frame(runs)), Ok(DeviceMessage::Frame(dense))) = (u8_runs, u8_dense) else { panic!("two frames") };
        assert_eq!(runs.cells, dense.cells);
        let Ok(DeviceMessage::Frame(u16_runs)) =
            decode_device_message(include_bytes!("../../../fuzz/seeds/device_protocol/frame_u16_runs"))
        else {
            panic!("a frame")
        };
        assert_eq!(u16_runs.cells, [0u16, 1200, 4095, 300].iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>());
    }

    #[test]
    fn u16_frames_read_back_from_runs() {
        let cells: Vec<u8> = vec![0, 0, 0xff, 0x0f, 0, 0, 0x01, 0x00];
        let body = encode_frame(1, 2, &cells, FrameEncoding::Runs);
        assert_eq!(read_frame(&body, 2, 8), FrameRead::Frame(Frame { seq: 1, device_time_ms: 2, cells }));
    }
}
