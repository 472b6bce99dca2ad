//! The device wire protocol as a stream transport sees it: length-prefixed framing over arbitrary
//! bytes, then each body decoded as a device message. A decoded message must encode and decode back
//! to itself, and framing must never announce a body past the buffer or over the limit.
#![no_main]

use mat_protocol::{decode, decode_framed, encode, DeviceMessage, MAX_MESSAGE_BYTES};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The whole input as one message body (the WebSocket transport).
    if let Ok(msg) = decode::<DeviceMessage>(data) {
        let again: DeviceMessage = decode(&encode(&msg)).expect("a decoded message re-encodes");
        assert_eq!(again, msg);
    }
    // The input as a QUIC stream of framed messages.
    let mut rest = data;
    while let Ok(Some((body, used))) = decode_framed(rest) {
        assert!(body.end <= rest.len() && used <= rest.len() && body.len() <= MAX_MESSAGE_BYTES);
        let _ = decode::<DeviceMessage>(&rest[body]);
        rest = &rest[used..];
    }
});
