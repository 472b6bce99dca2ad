//! Length-prefixed framing for stream transports (QUIC): a big-endian `u32` length, then the body.
//!
//! Parsing follows the mini-redis pattern: look at the buffered bytes; an incomplete message is a
//! normal state (`Ok(None)`), a too-long one is an error before any body byte is waited for.

use super::{MAX_MESSAGE_BYTES, ProtocolError};

/// Size of the length prefix.
pub const LENGTH_PREFIX_BYTES: usize = 4;

/// Prefixes an encoded message body with its length.
pub fn encode_framed(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(LENGTH_PREFIX_BYTES + body.len());
    out.extend_from_slice(&(body.len() as u32).to_be_bytes());
    out.extend_from_slice(body);
    out
}

/// Looks for one whole framed message at the start of `buf`.
///
/// Returns the body's byte range and the total bytes the message occupies, `Ok(None)` when more
/// bytes are needed, or [`ProtocolError::TooLarge`] as soon as the prefix announces an oversized
/// body (the connection cannot be resynchronised after that and should be closed).
pub fn decode_framed(buf: &[u8]) -> Result<Option<(std::ops::Range<usize>, usize)>, ProtocolError> {
    if buf.len() < LENGTH_PREFIX_BYTES {
        return Ok(None);
    }
    let mut prefix = [0u8; LENGTH_PREFIX_BYTES];
    prefix.copy_from_slice(&buf[..LENGTH_PREFIX_BYTES]);
    let len = u32::from_be_bytes(prefix) as usize;
    if len > MAX_MESSAGE_BYTES {
        return Err(ProtocolError::TooLarge(len));
    }
    let total = LENGTH_PREFIX_BYTES + len;
    if buf.len() < total {
        return Ok(None);
    }
    Ok(Some((LENGTH_PREFIX_BYTES..total, total)))
}
