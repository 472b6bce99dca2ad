//! The sans-IO half of one device connection (docs/device-protocol.md): what the first message
//! must be, whether a hello is accepted, and what each message after it means. No sockets, no
//! clock and no catalogue here: the hub's ingest does the I/O, looks the serial up and checks the
//! secret, and the fuzz target `ingest_hello` drives this module with arbitrary bytes.

use crate::device_type::DeviceType;
use crate::frame_message::{FrameRead, read_frame};
use crate::{
    Ack, CellFormat, DeviceMessage, ErrorCode, Frame, Hello, HubMessage, OLDEST_PROTOCOL_VERSION, PROTOCOL_VERSION, ProtocolError,
    ProtocolErrorMessage, decode, encode,
};

/// Why a connection is refused, or a message answered with an error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub code: ErrorCode,
    pub message: String,
}

impl Refusal {
    /// A refusal with this code and message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Refusal { code, message: message.into() }
    }

    /// The refusal of bytes that could not be decoded.
    pub fn undecodable(error: &ProtocolError) -> Self {
        Refusal::new(error.code(), error.to_string())
    }

    /// The error message sent to the device; `fatal` when the hub closes the connection after it.
    pub fn reply(&self, fatal: bool) -> Vec<u8> {
        error_reply(self.code, &self.message, fatal)
    }
}

/// An encoded [`HubMessage::Error`].
pub fn error_reply(code: ErrorCode, message: &str, fatal: bool) -> Vec<u8> {
    encode(&HubMessage::Error(ProtocolErrorMessage { code, message: message.to_owned(), fatal }))
}

/// The first message of a connection: it must decode, and it must be a hello.
pub fn read_hello(body: &[u8]) -> Result<Hello, Refusal> {
    match decode::<DeviceMessage>(body) {
        Ok(DeviceMessage::Hello(hello)) => Ok(hello),
        Ok(_) => Err(Refusal::new(ErrorCode::HelloExpected, "the first message must be a hello")),
        Err(error) => Err(Refusal::undecodable(&error)),
    }
}

/// What the hub knows about the device a hello names: its registered type and whether the hello's
/// secret matches the stored hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registered<D> {
    /// The caller's record of the device, handed back when the hello is accepted.
    pub device: D,
    pub device_type: DeviceType,
    pub secret_matches: bool,
}

/// Checks a hello in the order of docs/device-protocol.md: version, serial (`find` looks it up,
/// only for a hello of a version the hub speaks), secret, registered type and frame shape.
pub fn check_hello<D>(hello: &Hello, find: impl FnOnce(&Hello) -> Option<Registered<D>>) -> Result<D, Refusal> {
    if !(OLDEST_PROTOCOL_VERSION..=PROTOCOL_VERSION).contains(&hello.version) {
        return Err(Refusal::new(
            ErrorCode::UnsupportedVersion,
            format!("this hub speaks protocol versions {OLDEST_PROTOCOL_VERSION} to {PROTOCOL_VERSION}"),
        ));
    }
    let registered = find(hello).ok_or_else(|| Refusal::new(ErrorCode::UnknownSerial, "no device with this serial is registered"))?;
    if !registered.secret_matches {
        return Err(Refusal::new(ErrorCode::BadSecret, "the device secret does not match"));
    }
    let device_type = registered.device_type;
    if hello.device_type != device_type.name() {
        return Err(Refusal::new(ErrorCode::WrongDeviceType, format!("registered as {}", device_type.name())));
    }
    let Some((rows, cols, format)) = device_type.frame_shape() else {
        return Err(Refusal::new(ErrorCode::WrongDeviceType, "this device type does not stream frames"));
    };
    if (hello.rows, hello.cols, hello.cell_format) != (rows, cols, format) {
        return Err(Refusal::new(ErrorCode::ShapeMismatch, format!("{} streams {rows}×{cols} {format:?}", device_type.name())));
    }
    Ok(registered.device)
}

/// An accepted connection: the protocol version and frame shape its hello announced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenConnection {
    pub version: u16,
    pub rows: u16,
    pub cols: u16,
    pub format: CellFormat,
}

/// What one message after the hello means.
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming {
    /// A frame of the announced shape, for the device's actor.
    Frame(Frame),
    /// The device's answer to a command.
    Ack(Ack),
    /// A message that is not allowed here: counted, and answered with this (non-fatal) error.
    Malformed(Refusal),
}

impl OpenConnection {
    /// The connection an accepted hello opens.
    pub fn new(hello: &Hello) -> Self {
        OpenConnection { version: hello.version, rows: hello.rows, cols: hello.cols, format: hello.cell_format }
    }

    /// Bytes of cells each frame must carry.
    pub fn frame_bytes(&self) -> usize {
        self.rows as usize * self.cols as usize * self.format.bytes_per_cell()
    }

    /// Reads one message: a frame must have the announced shape (its cells made once, straight
    /// from the body: [`read_frame`]), a second hello is refused.
    pub fn read(&self, body: &[u8]) -> Incoming {
        match read_frame(body, self.version, self.frame_bytes()) {
            FrameRead::Frame(frame) => return Incoming::Frame(frame),
            FrameRead::ShapeMismatch(why) => return Incoming::Malformed(Refusal::new(ErrorCode::ShapeMismatch, why)),
            FrameRead::Malformed(why) => return Incoming::Malformed(Refusal::new(ErrorCode::Malformed, why)),
            FrameRead::Other => {}
        }
        match decode::<DeviceMessage>(body) {
            Ok(DeviceMessage::Frame(frame)) => {
                let expected = self.frame_bytes();
                if frame.cells.len() == expected {
                    Incoming::Frame(frame)
                } else {
                    Incoming::Malformed(Refusal::new(
                        ErrorCode::ShapeMismatch,
                        format!("{} bytes of cells, expected {expected}", frame.cells.len()),
                    ))
                }
            }
            Ok(DeviceMessage::Ack(ack)) => Incoming::Ack(ack),
            Ok(DeviceMessage::Hello(_)) => Incoming::Malformed(Refusal::new(ErrorCode::Malformed, "already said hello")),
            Err(error) => Incoming::Malformed(Refusal::undecodable(&error)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MAX_MESSAGE_BYTES;

    fn hello() -> Hello {
        Hello {
            version: PROTOCOL_VERSION,
            serial: "MAT-1".into(),
            secret: "s3cret".into(),
            device_type: "Mattress Mat IoT".into(),
            rows: 48,
            cols: 48,
            cell_format: CellFormat::U8,
            firmware: String::new(),
        }
    }

    /// One registered mattress whose secret is `s3cret`.
    fn find(h: &Hello) -> Option<Registered<&'static str>> {
        (h.serial == "MAT-1").then(|| Registered {
            device: "d1",
            device_type: DeviceType::MattressMatIoT,
            secret_matches: h.secret == "s3cret",
        })
    }

    fn code(h: Hello) -> ErrorCode {
        check_hello(&h, find).unwrap_err().code
    }

    #[test]
    fn the_first_message_must_be_a_decodable_hello() {
        assert_eq!(read_hello(&encode(&DeviceMessage::Hello(hello()))), Ok(hello()));
        let ack = DeviceMessage::Ack(Ack { command_id: 1, ok: true, reason: String::new() });
        assert_eq!(read_hello(&encode(&ack)).unwrap_err().code, ErrorCode::HelloExpected);
        assert_eq!(read_hello(b"\xc1").unwrap_err().code, ErrorCode::Malformed);
        assert_eq!(read_hello(&vec![0; MAX_MESSAGE_BYTES + 1]).unwrap_err().code, ErrorCode::TooLarge);
    }

    #[test]
    fn each_bad_hello_gets_its_own_code_in_order() {
        assert_eq!(check_hello(&hello(), find), Ok("d1"));
        assert_eq!(code(Hello { version: 0, serial: "NOPE".into(), ..hello() }), ErrorCode::UnsupportedVersion);
        assert_eq!(code(Hello { version: PROTOCOL_VERSION + 1, serial: "NOPE".into(), ..hello() }), ErrorCode::UnsupportedVersion);
        assert_eq!(check_hello(&Hello { version: 1, ..hello() }, find), Ok("d1"), "a version 1 device is still welcome");
        assert_eq!(code(Hello { serial: "NOPE".into(), ..hello() }), ErrorCode::UnknownSerial);
        assert_eq!(code(Hello { secret: "wrong".into(), device_type: "Floor Mat".into(), ..hello() }), ErrorCode::BadSecret);
        assert_eq!(code(Hello { device_type: "Floor Mat".into(), rows: 24, ..hello() }), ErrorCode::WrongDeviceType);
        assert_eq!(code(Hello { rows: 16, ..hello() }), ErrorCode::ShapeMismatch);
        assert_eq!(code(Hello { cell_format: CellFormat::U16Le, ..hello() }), ErrorCode::ShapeMismatch);
    }

    #[test]
    fn the_serial_is_looked_up_only_for_a_hello_of_this_version() {
        let mut looked_up = false;
        let refused = check_hello(&Hello { version: 9, ..hello() }, |h| {
            looked_up = true;
            find(h)
        });
        assert_eq!(refused.unwrap_err().code, ErrorCode::UnsupportedVersion);
        assert!(!looked_up);
    }

    #[test]
    fn a_parent_type_never_streams() {
        let horse =
            |h: &Hello| Some(Registered { device: (), device_type: DeviceType::SensingHorse, secret_matches: h.secret == "s3cret" });
        let refusal = check_hello(&Hello { device_type: "Sensing Horse".into(), ..hello() }, horse).unwrap_err();
        assert_eq!(refusal.code, ErrorCode::WrongDeviceType);
    }

    #[test]
    fn after_the_hello_frames_must_have_the_announced_shape() {
        let open = OpenConnection::new(&hello());
        let frame = |cells: usize| encode(&DeviceMessage::Frame(Frame { seq: 1, device_time_ms: 5, cells: vec![7; cells] }));
        assert!(matches!(open.read(&frame(48 * 48)), Incoming::Frame(f) if f.cells.len() == 48 * 48));
        let Incoming::Malformed(refusal) = open.read(&frame(48 * 48 - 1)) else { panic!("a short frame is refused") };
        assert_eq!(refusal.code, ErrorCode::ShapeMismatch);
        let Incoming::Malformed(refusal) = open.read(&encode(&DeviceMessage::Hello(hello()))) else { panic!("a second hello is refused") };
        assert_eq!(refusal.code, ErrorCode::Malformed);
        let Incoming::Malformed(refusal) = open.read(b"not msgpack") else { panic!("garbage is refused") };
        assert_eq!(refusal.code, ErrorCode::Malformed);
        let ack = Ack { command_id: 3, ok: false, reason: "busy".into() };
        assert_eq!(open.read(&encode(&DeviceMessage::Ack(ack.clone()))), Incoming::Ack(ack));
    }

    #[test]
    fn a_version_2_connection_reads_runs_and_a_version_1_connection_refuses_them() {
        let mut cells = vec![0u8; 48 * 48];
        cells[1000..1040].fill(90);
        let runs = crate::encode_frame(4, 5, &cells, crate::FrameEncoding::Runs);
        let dense = crate::encode_frame(4, 5, &cells, crate::FrameEncoding::Dense);
        let frame = Frame { seq: 4, device_time_ms: 5, cells };
        let v2 = OpenConnection::new(&hello());
        assert_eq!(v2.version, 2);
        assert_eq!(v2.read(&runs), Incoming::Frame(frame.clone()));
        assert_eq!(v2.read(&dense), Incoming::Frame(frame.clone()));
        let v1 = OpenConnection::new(&Hello { version: 1, ..hello() });
        assert_eq!(v1.read(&dense), Incoming::Frame(frame));
        let Incoming::Malformed(refusal) = v1.read(&runs) else { panic!("version 1 has no runs") };
        assert_eq!(refusal.code, ErrorCode::Malformed);
        let mut short = vec![0u8; 48 * 48 - 1];
        short[0] = 1;
        let Incoming::Malformed(refusal) = v2.read(&crate::encode_frame(4, 5, &short, crate::FrameEncoding::Runs)) else {
            panic!("runs of the wrong length are refused")
        };
        assert_eq!(refusal.code, ErrorCode::ShapeMismatch);
    }

    #[test]
    fn a_refusal_replies_with_an_error_message_saying_whether_it_is_fatal() {
        let refusal = Refusal::new(ErrorCode::BadSecret, "no");
        let HubMessage::Error(reply) = decode::<HubMessage>(&refusal.reply(true)).unwrap() else { panic!("an error message") };
        assert_eq!((reply.code, reply.message.as_str(), reply.fatal), (ErrorCode::BadSecret, "no", true));
    }
}
