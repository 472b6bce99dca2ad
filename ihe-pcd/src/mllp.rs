//! MLLP (Minimal Lower Layer Protocol, HL7 v2 over TCP): a message is sent as
//! `0x0B` + bytes + `0x1C 0x0D`. [`FrameReader`] takes bytes as they arrive and hands out whole
//! frames; bytes outside a frame are dropped, a frame longer than its limit is an error (the
//! connection is then closed by the caller). Total on any input (fuzz target `hl7_ack`).

/// Start block.
pub const START: u8 = 0x0B;
/// End block (followed by a carriage return).
pub const END: [u8; 2] = [0x1C, 0x0D];

/// The frame of one message.
pub fn frame(message: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(message.len() + 3);
    out.push(START);
    out.extend_from_slice(message.as_bytes());
    out.extend_from_slice(&END);
    out
}

/// A frame grew past the reader's limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Oversized;

/// Reassembles frames from a byte stream.
#[derive(Debug)]
pub struct FrameReader {
    buffer: Vec<u8>,
    in_frame: bool,
    max_len: usize,
}

impl FrameReader {
    /// A reader refusing frames longer than `max_len` bytes.
    pub fn new(max_len: usize) -> FrameReader {
        FrameReader { buffer: Vec::new(), in_frame: false, max_len }
    }

    /// Feeds bytes; returns the frames they complete, in order, or [`Oversized`].
    pub fn push(&mut self, bytes: &[u8]) -> Result<Vec<Vec<u8>>, Oversized> {
        let mut frames = Vec::new();
        for &byte in bytes {
            if !self.in_frame {
                if byte == START {
                    self.in_frame = true;
                    self.buffer.clear();
                }
                continue;
            }
            if byte == START {
                // A new frame before the end of the last one: the last one was cut off.
                self.buffer.clear();
                continue;
            }
            self.buffer.push(byte);
            if self.buffer.ends_with(&END) {
                self.buffer.truncate(self.buffer.len() - END.len());
                frames.push(std::mem::take(&mut self.buffer));
                self.in_frame = false;
            } else if self.buffer.len() > self.max_len + END.len() {
                self.buffer = Vec::new();
                self.in_frame = false;
                return Err(Oversized);
            }
        }
        Ok(frames)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_survive_any_split() {
        let mut stream = b"noise".to_vec();
        stream.extend(frame("MSH|first\r"));
        stream.extend(b"\r\n");
        stream.extend(frame("MSH|second\r"));
        for split in 0..stream.len() {
            let mut reader = FrameReader::new(1024);
            let mut frames = reader.push(&stream[..split]).unwrap();
            frames.extend(reader.push(&stream[split..]).unwrap());
            assert_eq!(frames, vec![b"MSH|first\r".to_vec(), b"MSH|second\r".to_vec()], "split at {split}");
        }
    }

    #[test]
    fn a_lone_end_byte_stays_in_the_message_and_long_frames_are_refused() {
        let mut reader = FrameReader::new(8);
        assert_eq!(reader.push(b"\x0bA\x1cB\x1c\r").unwrap(), vec![b"A\x1cB".to_vec()]);
        assert_eq!(reader.push(b"\x0b0123456789AB"), Err(Oversized));
        assert_eq!(reader.push(b"\x0bok\x1c\r").unwrap(), vec![b"ok".to_vec()], "the reader recovers on the next frame");
        assert_eq!(reader.push(b"\x0bcut\x0bwhole\x1c\r").unwrap(), vec![b"whole".to_vec()]);
    }
}
