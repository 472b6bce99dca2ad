//! The device wire protocol, versions 1 and 2: what mats and the hub say to each other, and the one
//! table of device types with every capability ([`device_type`]).
//!
//! Every message is a MessagePack map with named fields (rmp-serde, `to_vec_named`) and a `type`
//! tag. Pressure cells travel as one byte string, never as an array of numbers. Over QUIC each
//! message is prefixed with its length as a big-endian `u32`; over WebSocket each binary message
//! is exactly one protocol message. Version 2 adds a frame's `runs`, its cells as zero runs
//! ([`runs`], read and written on the hot path by [`frame_message`]). `docs/device-protocol.md` is the normative description; this
//! crate is its Rust form and is shared by the hub, the simulator, the load tests and the reports.

pub mod connection;
pub mod device_type;
pub mod frame_message;
mod framing;
mod messages;
pub mod runs;
pub mod scale;

pub use frame_message::{FrameEncoding, decode_device_message, encode_frame};
pub use framing::{LENGTH_PREFIX_BYTES, decode_framed, encode_framed};
pub use messages::*;

/// The newest protocol version this build speaks, the one its devices say in their hello.
pub const PROTOCOL_VERSION: u16 = 2;

/// The oldest protocol version the hub still accepts: a hello with a version outside
/// `OLDEST_PROTOCOL_VERSION..=PROTOCOL_VERSION` is refused.
pub const OLDEST_PROTOCOL_VERSION: u16 = 1;

/// ALPN identifier a QUIC device must offer. It names the transport's framing, which version 2
/// kept, so both versions offer it (the hello's `version` tells them apart).
pub const ALPN: &[u8] = b"pmat/1";

/// Largest accepted message body in bytes (excluding the QUIC length prefix). A 48×48 frame of
/// little-endian u16 cells is 4,608 bytes, so this leaves ample room while bounding memory.
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;

/// A device must send its hello within this many milliseconds of opening the connection.
pub const HELLO_TIMEOUT_MS: u64 = 5_000;

/// Why a message could not be decoded.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ProtocolError {
    /// The message is longer than [`MAX_MESSAGE_BYTES`].
    #[error("message of {0} bytes exceeds the limit of {MAX_MESSAGE_BYTES} bytes")]
    TooLarge(usize),
    /// The bytes are not a valid MessagePack protocol message.
    #[error("malformed message: {0}")]
    Malformed(String),
}

impl ProtocolError {
    /// The error code sent back to the device for this decoding failure.
    pub fn code(&self) -> ErrorCode {
        match self {
            ProtocolError::TooLarge(_) => ErrorCode::TooLarge,
            ProtocolError::Malformed(_) => ErrorCode::Malformed,
        }
    }
}

/// Encodes a message as a named-field MessagePack map.
pub fn encode<T: serde::Serialize>(message: &T) -> Vec<u8> {
    encode_with_capacity(message, 0)
}

/// [`encode`] into a buffer that starts with `capacity` bytes: a caller that knows the size of
/// a large message (a live map) saves the buffer's growth, a reallocation and copy at every
/// doubling.
pub fn encode_with_capacity<T: serde::Serialize>(message: &T, capacity: usize) -> Vec<u8> {
    let mut buffer = Vec::with_capacity(capacity);
    // Serialising our own enums to a Vec cannot fail: every field is a plain value type.
    match rmp_serde::encode::write_named(&mut buffer, message) {
        Ok(()) => buffer,
        Err(_) => Vec::new(),
    }
}

/// Decodes one whole message body, refusing oversized input before parsing it.
pub fn decode<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, ProtocolError> {
    if bytes.len() > MAX_MESSAGE_BYTES {
        return Err(ProtocolError::TooLarge(bytes.len()));
    }
    rmp_serde::from_slice(bytes).map_err(|e| ProtocolError::Malformed(e.to_string()))
}

#[cfg(test)]
mod tests;
