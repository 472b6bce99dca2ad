//! The device wire protocol as a stream transport sees it: length-prefixed framing over arbitrary
//! bytes, then each body decoded as a device message. A decoded message must encode and decode back
//! to itself, and framing must never announce a body past the buffer or over the limit.
//! Version 2's zero runs too: the input as a frame message read by the hub's borrowed reader (a
//! frame it accepts has exactly the expected cells, and reads back the same from either
//! encoding), and the input as a bare `runs` byte string (whatever decodes re-encodes to runs
//! that decode to the same cells, never past the limit).
#![no_main]

use mat_protocol::frame_message::{decode_device_message, read_frame, FrameRead};
use mat_protocol::runs::{decode_runs, decode_runs_into, encode_runs};
use mat_protocol::{decode, decode_framed, encode, encode_frame, DeviceMessage, FrameEncoding, MAX_MESSAGE_BYTES};
use libfuzzer_sys::fuzz_target;

/// A frame the hub accepted reads back the same from both encodings.
fn check_frame_read(data: &[u8], version: u16, expected: usize) {
    if let FrameRead::Frame(frame) = read_frame(data, version, expected) {
        assert_eq!(frame.cells.len(), expected);
        for encoding in [FrameEncoding::Dense, FrameEncoding::Runs] {
            let body = encode_frame(frame.seq, frame.device_time_ms, &frame.cells, encoding);
            assert_eq!(read_frame(&body, 2, expected), FrameRead::Frame(frame.clone()), "{encoding:?}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    // The whole input as one message body (the WebSocket transport).
    if let Ok(msg) = decode::<DeviceMessage>(data) {
        let again: DeviceMessage = decode(&encode(&msg)).expect("a decoded message re-encodes");
        assert_eq!(again, msg);
    }
    if let Ok(DeviceMessage::Frame(frame)) = decode_device_message(data) {
        assert!(frame.cells.len() <= MAX_MESSAGE_BYTES);
        let runs = encode_frame(frame.seq, frame.device_time_ms, &frame.cells, FrameEncoding::Runs);
        assert_eq!(decode_device_message(&runs), Ok(DeviceMessage::Frame(frame)));
    }
    // As a frame of the shapes devices have (48 × 48 u8, 1 × 4 u16) and the length of the input.
    for expected in [2304, 8, data.len()] {
        check_frame_read(data, 1, expected);
        check_frame_read(data, 2, expected);
    }
    // The input as the `runs` of a frame.
    if let Ok(cells) = decode_runs(data, MAX_MESSAGE_BYTES) {
        assert!(cells.len() <= MAX_MESSAGE_BYTES);
        let mut again = vec![0u8; cells.len()];
        decode_runs_into(&encode_runs(&cells), &mut again).expect("encoded runs decode");
        assert_eq!(again, cells);
        let mut exact = vec![0u8; cells.len()];
        assert_eq!(decode_runs_into(data, &mut exact), Ok(()));
        assert_eq!(exact, cells);
    }
    // The input as a QUIC stream of framed messages.
    let mut rest = data;
    while let Ok(Some((body, used))) = decode_framed(rest) {
        assert!(body.end <= rest.len() && used <= rest.len() && body.len() <= MAX_MESSAGE_BYTES);
        let _ = decode::<DeviceMessage>(&rest[body]);
        rest = &rest[used..];
    }
});
