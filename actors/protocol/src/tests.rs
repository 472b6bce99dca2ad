//! Round trips and limits of the device protocol encoding.

use super::*;

fn hello() -> DeviceMessage {
    DeviceMessage::Hello(Hello {
        version: PROTOCOL_VERSION,
        serial: "MAT-001".into(),
        secret: "s3cr3t".into(),
        device_type: "Mattress Mat IoT".into(),
        rows: 48,
        cols: 48,
        cell_format: CellFormat::U8,
        firmware: "sim".into(),
    })
}

#[test]
fn messages_round_trip_as_named_maps() {
    let frame = DeviceMessage::Frame(Frame { seq: 7, device_time_ms: 1_700_000_000_000, cells: vec![1, 2, 3] });
    for message in [hello(), frame] {
        let bytes = encode(&message);
        assert_eq!(decode::<DeviceMessage>(&bytes), Ok(message));
    }
    let bytes = encode(&hello());
    // Named fields: the field names are on the wire, so other languages can decode by name.
    assert!(bytes.windows(b"serial".len()).any(|w| w == b"serial"));
}

#[test]
fn cells_travel_as_one_byte_string() {
    let bytes = encode(&DeviceMessage::Frame(Frame { seq: 1, device_time_ms: 2, cells: vec![9; 2304] }));
    // MessagePack bin 16 marker (0xc5) followed by the length 2304 = 0x0900.
    assert!(bytes.windows(3).any(|w| w == [0xc5, 0x09, 0x00]));
    assert!(bytes.len() < 2304 + 64);
}

#[test]
fn hub_commands_round_trip() {
    let message = HubMessage::Command(CommandEnvelope { id: 3, command: Command::Stream { seconds: 185 } });
    assert_eq!(decode::<HubMessage>(&encode(&message)), Ok(message));
}

#[test]
fn garbage_is_malformed_not_a_panic() {
    assert!(matches!(decode::<DeviceMessage>(&[0xff, 0x00, 0x13]), Err(ProtocolError::Malformed(_))));
    assert!(matches!(decode::<DeviceMessage>(&[]), Err(ProtocolError::Malformed(_))));
}

#[test]
fn oversized_bodies_are_refused_before_parsing() {
    let big = vec![0u8; MAX_MESSAGE_BYTES + 1];
    assert_eq!(decode::<DeviceMessage>(&big), Err(ProtocolError::TooLarge(MAX_MESSAGE_BYTES + 1)));
    assert_eq!(decode::<DeviceMessage>(&big[..MAX_MESSAGE_BYTES]).map_err(|e| e.code()), Err(ErrorCode::Malformed));
}

#[test]
fn framing_waits_for_whole_messages() {
    let framed = encode_framed(b"hello");
    assert_eq!(decode_framed(&framed[..3]), Ok(None));
    assert_eq!(decode_framed(&framed[..8]), Ok(None));
    assert_eq!(decode_framed(&framed), Ok(Some((4..9, 9))));
    let mut two = framed.clone();
    two.extend_from_slice(&encode_framed(b"x"));
    assert_eq!(decode_framed(&two), Ok(Some((4..9, 9))));
}

#[test]
fn framing_refuses_an_oversized_prefix_at_once() {
    let prefix = ((MAX_MESSAGE_BYTES + 1) as u32).to_be_bytes();
    assert_eq!(decode_framed(&prefix), Err(ProtocolError::TooLarge(MAX_MESSAGE_BYTES + 1)));
    let at_limit = (MAX_MESSAGE_BYTES as u32).to_be_bytes();
    assert_eq!(decode_framed(&at_limit), Ok(None));
}
