//! An ingest connection without sockets: the input is a device's stream of length-prefixed
//! messages (the QUIC framing); the first body goes through `read_hello` and `check_hello` against
//! a catalogue of one device per type (serial `SERIAL-<i>`, secret `secret-<i>`), every later body
//! through the open connection, exactly as `hub::ingest::connection` does. An accepted hello must
//! match its registered type's frame shape, a frame passed on must have the announced size, and
//! every refusal must encode as the error message the device is sent. Frames of either protocol
//! version (whole `cells`, or version 2's `runs`) go the hub's way, through the borrowed reader.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mat_protocol::connection::{check_hello, read_hello, Incoming, OpenConnection, Refusal, Registered};
use mat_protocol::device_type::DeviceType;
use mat_protocol::{decode, decode_framed, HubMessage, OLDEST_PROTOCOL_VERSION, PROTOCOL_VERSION};

/// The registered device a hello's serial names: `SERIAL-<index into DeviceType::ALL>`.
fn find(hello: &mat_protocol::Hello) -> Option<Registered<DeviceType>> {
    let index: usize = hello.serial.strip_prefix("SERIAL-")?.parse().ok()?;
    let device_type = *DeviceType::ALL.get(index)?;
    Some(Registered { device: device_type, device_type, secret_matches: hello.secret == format!("secret-{index}") })
}

/// A refusal is sent as a hub error message carrying its code and fatality.
fn assert_replies(refusal: &Refusal, fatal: bool) {
    match decode::<HubMessage>(&refusal.reply(fatal)) {
        Ok(HubMessage::Error(e)) => assert!(e.code == refusal.code && e.fatal == fatal && e.message == refusal.message),
        other => panic!("a refusal encodes as an error message, got {other:?}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut rest = data;
    let Ok(Some((first, used))) = decode_framed(rest) else { return };
    let hello = match read_hello(&rest[first]) {
        Ok(hello) => hello,
        Err(refusal) => return assert_replies(&refusal, true),
    };
    rest = &rest[used..];
    let device_type = match check_hello(&hello, find) {
        Ok(device_type) => device_type,
        Err(refusal) => return assert_replies(&refusal, true),
    };
    assert!((OLDEST_PROTOCOL_VERSION..=PROTOCOL_VERSION).contains(&hello.version));
    assert_eq!(hello.device_type, device_type.name());
    assert_eq!(device_type.frame_shape(), Some((hello.rows, hello.cols, hello.cell_format)));
    let open = OpenConnection::new(&hello);
    while let Ok(Some((body, used))) = decode_framed(rest) {
        match open.read(&rest[body]) {
            Incoming::Frame(frame) => assert_eq!(frame.cells.len(), open.frame_bytes()),
            Incoming::Ack(_) => {}
            Incoming::Malformed(refusal) => assert_replies(&refusal, false),
        }
        rest = &rest[used..];
    }
});
