//! Pre-rendered frames: a small pool of device `frame` messages per map geometry, encoded once,
//! so that sending a frame costs a copy of the template and a patch of its `seq` and
//! `device_time_ms` — never a map synthesis or a MessagePack encoding.
//!
//! The template is the MessagePack map the device protocol defines (`docs/device-protocol.md`,
//! `mat_protocol::Frame` tagged `type: frame`), written with both integers as fixed-width
//! `uint 64` so they can be overwritten in place; any MessagePack reader decodes it exactly like
//! the compact encoding `mat_protocol::encode_frame` produces. The cells go as the pool's
//! [`FrameEncoding`]: whole (`cells`, protocol version 1) or as zero runs (`runs`, version 2).

use std::time::Duration;

use bytes::{Bytes, BytesMut};
use mat_protocol::device_type::DeviceType;
use mat_protocol::runs::encode_runs;
use mat_protocol::{CellFormat, FrameEncoding, LENGTH_PREFIX_BYTES};
use simulator::{MapSynth, Scenario};

/// Frames in a pool: 3.2 s of a 10 Hz stream, enough that consecutive frames of a mat differ.
pub const POOL_FRAMES: usize = 32;

/// Where the patchable fields sit in an encoded frame body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Layout {
    /// Offset of the 8 big-endian bytes of `seq`.
    seq: usize,
    /// Offset of the 8 big-endian bytes of `device_time_ms`.
    device_time_ms: usize,
}

/// One encoded frame body with `seq` and `device_time_ms` set to 0.
fn encode_template(cells: &[u8], encoding: FrameEncoding) -> (Vec<u8>, Layout) {
    let runs;
    let (key, cells) = match encoding {
        FrameEncoding::Dense => ("cells", cells),
        FrameEncoding::Runs => {
            runs = encode_runs(cells);
            ("runs", runs.as_slice())
        }
    };
    let mut out = Vec::with_capacity(cells.len() + 64);
    out.push(0x84); // fixmap, 4 entries
    push_str(&mut out, "type");
    push_str(&mut out, "frame");
    push_str(&mut out, "seq");
    out.push(0xcf); // uint 64
    let seq = out.len();
    out.extend_from_slice(&0u64.to_be_bytes());
    push_str(&mut out, "device_time_ms");
    out.push(0xcf);
    let device_time_ms = out.len();
    out.extend_from_slice(&0u64.to_be_bytes());
    push_str(&mut out, key);
    match u16::try_from(cells.len()) {
        Ok(len) if len <= u16::from(u8::MAX) => {
            out.push(0xc4); // bin 8
            out.push(len as u8);
        }
        Ok(len) => {
            out.push(0xc5); // bin 16
            out.extend_from_slice(&len.to_be_bytes());
        }
        Err(_) => {
            out.push(0xc6); // bin 32
            out.extend_from_slice(&(cells.len() as u32).to_be_bytes());
        }
    }
    out.extend_from_slice(cells);
    (out, Layout { seq, device_time_ms })
}

/// A fixstr (every key and tag here is shorter than 32 bytes).
fn push_str(out: &mut Vec<u8>, s: &str) {
    debug_assert!(s.len() < 32);
    out.push(0xa0 | s.len() as u8);
    out.extend_from_slice(s.as_bytes());
}

/// How a frame travels: the QUIC stream's 4-byte length prefix, or one whole message (WebSocket
/// binary message, MQTT payload).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// Length-prefixed (QUIC).
    LengthPrefixed,
    /// The bare body.
    Bare,
}

/// Pre-encoded frames of one geometry, shared by every mat of that geometry.
#[derive(Debug, Clone)]
pub struct FramePool {
    templates: Vec<Bytes>,
    layout: Layout,
    prefix: usize,
    encoding: FrameEncoding,
}

impl FramePool {
    /// Renders `POOL_FRAMES` consecutive maps (`interval` apart, from the first occupied second
    /// of the scenario) for `device_type`, `rows × cols` in `format`, and encodes them.
    #[allow(clippy::too_many_arguments)] // Each is one fact of the pool; a struct would only rename them.
    pub fn render(
        device_type: &str,
        rows: u16,
        cols: u16,
        format: CellFormat,
        scenario: Scenario,
        interval: Duration,
        framing: Framing,
        encoding: FrameEncoding,
    ) -> Self {
        let start = (0..600u64).map(Duration::from_secs).find(|&t| scenario.phase(t).occupied()).unwrap_or_default();
        let mut synth = MapSynth::new(rows, cols, format, scenario, 0x10AD);
        if let Some(device) = DeviceType::from_name(device_type) {
            synth = synth.for_device_type(device);
        }
        let maps: Vec<Vec<u8>> = (0..POOL_FRAMES as u32).map(|k| synth.render(start + interval * k)).collect();
        Self::from_cells(&maps, framing, encoding)
    }

    /// A pool of the given cell arrays (all the same length).
    pub fn from_cells(maps: &[Vec<u8>], framing: Framing, encoding: FrameEncoding) -> Self {
        assert!(!maps.is_empty(), "a frame pool needs at least one map");
        let prefix = match framing {
            Framing::LengthPrefixed => LENGTH_PREFIX_BYTES,
            Framing::Bare => 0,
        };
        let mut layout = None;
        let templates = maps
            .iter()
            .map(|cells| {
                let (body, l) = encode_template(cells, encoding);
                layout = Some(l);
                let mut out = Vec::with_capacity(prefix + body.len());
                if prefix > 0 {
                    out.extend_from_slice(&(body.len() as u32).to_be_bytes());
                }
                out.extend_from_slice(&body);
                Bytes::from(out)
            })
            .collect();
        let layout = layout.expect("at least one map");
        Self { templates, layout, prefix, encoding }
    }

    /// How the pool's frames carry their cells; its mats say the matching protocol version.
    pub fn encoding(&self) -> FrameEncoding {
        self.encoding
    }

    /// Bytes of one encoded frame as sent (prefix included).
    pub fn frame_len(&self) -> usize {
        self.templates[0].len()
    }

    /// Frame `seq` of a mat whose pool position starts at `offset`, stamped `device_time_ms`:
    /// a copy of the template and two 8-byte patches.
    pub fn frame(&self, offset: usize, seq: u64, device_time_ms: u64) -> Bytes {
        let template = &self.templates[(offset.wrapping_add(seq as usize)) % self.templates.len()];
        let mut out = BytesMut::from(&template[..]);
        let at = self.prefix + self.layout.seq;
        out[at..at + 8].copy_from_slice(&seq.to_be_bytes());
        let at = self.prefix + self.layout.device_time_ms;
        out[at..at + 8].copy_from_slice(&device_time_ms.to_be_bytes());
        out.freeze()
    }

    /// Reads `seq` and `device_time_ms` back from a frame this pool made (an MQTT subscriber
    /// receives the payload byte for byte).
    pub fn read_stamp(&self, frame: &[u8]) -> Option<(u64, u64)> {
        let read = |at: usize| frame.get(at..at + 8).and_then(|b| b.try_into().ok()).map(u64::from_be_bytes);
        Some((read(self.prefix + self.layout.seq)?, read(self.prefix + self.layout.device_time_ms)?))
    }
}

#[cfg(test)]
mod tests {
    use mat_protocol::frame_message::{FrameRead, read_frame};
    use mat_protocol::{DeviceMessage, Frame, decode, decode_framed, encode};

    use super::*;

    #[test]
    fn patched_frames_decode_as_the_protocol_frame() {
        for len in [4usize, 200, 2_304, 4_608, 70_000] {
            let cells: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            let pool = FramePool::from_cells(std::slice::from_ref(&cells), Framing::Bare, FrameEncoding::Dense);
            let bytes = pool.frame(0, 123_456_789_012, 1_700_000_000_123);
            let decoded: DeviceMessage = rmp_serde::from_slice(&bytes).expect("decodes");
            let expected = DeviceMessage::Frame(Frame { seq: 123_456_789_012, device_time_ms: 1_700_000_000_123, cells: cells.clone() });
            assert_eq!(decoded, expected, "{len} cells");
            // The hub's own encoder writes the same message (more compactly).
            let compact: DeviceMessage = rmp_serde::from_slice(&encode(&expected)).expect("decodes");
            assert_eq!(compact, decoded);
            assert_eq!(pool.read_stamp(&bytes), Some((123_456_789_012, 1_700_000_000_123)));
        }
    }

    #[test]
    fn length_prefixed_frames_are_one_framed_message() {
        let pool = FramePool::from_cells(&[vec![7u8; 2_304], vec![9u8; 2_304]], Framing::LengthPrefixed, FrameEncoding::Dense);
        let bytes = pool.frame(1, 5, 42);
        let (body, total) = decode_framed(&bytes).expect("valid prefix").expect("whole message");
        assert_eq!(total, bytes.len());
        assert_eq!(pool.frame_len(), bytes.len());
        let message: DeviceMessage = decode(&bytes[body]).expect("decodes");
        // Offset 1 + seq 5 → template 0 of 2.
        assert_eq!(message, DeviceMessage::Frame(Frame { seq: 5, device_time_ms: 42, cells: vec![7u8; 2_304] }));
        assert_eq!(pool.read_stamp(&bytes), Some((5, 42)));
    }

    #[test]
    fn a_rendered_pool_has_distinct_occupied_maps_of_the_geometry() {
        let pool = FramePool::render(
            "Mattress Mat IoT",
            48,
            48,
            CellFormat::U8,
            Scenario::from_name("bed").expect("bed scenario"),
            Duration::from_millis(100),
            Framing::Bare,
            FrameEncoding::Dense,
        );
        let decode_cells = |seq: u64| match rmp_serde::from_slice::<DeviceMessage>(&pool.frame(0, seq, 0)).expect("decodes") {
            DeviceMessage::Frame(f) => f.cells,
            other => panic!("{other:?}"),
        };
        let first = decode_cells(0);
        assert_eq!(first.len(), 48 * 48);
        assert!(first.iter().any(|&c| c > 20), "an occupied bed has loaded cells");
        assert_ne!(first, decode_cells(1), "consecutive frames differ");
        assert_eq!(first, decode_cells(POOL_FRAMES as u64), "the pool wraps");
    }

    #[test]
    fn run_frames_read_back_as_the_same_cells_and_are_smaller() {
        let scenario = Scenario::from_name("bed").expect("bed scenario");
        let render = |encoding| {
            FramePool::render(
                "Mattress Mat IoT",
                48,
                48,
                CellFormat::U8,
                scenario.clone(),
                Duration::from_millis(100),
                Framing::LengthPrefixed,
                encoding,
            )
        };
        let (dense, runs) = (render(FrameEncoding::Dense), render(FrameEncoding::Runs));
        assert_eq!(runs.encoding(), FrameEncoding::Runs);
        for seq in [0u64, 1, 17] {
            let read = |pool: &FramePool| {
                let bytes = pool.frame(3, seq, 1_700_000_000_123);
                let (body, total) = decode_framed(&bytes).expect("valid prefix").expect("whole message");
                assert_eq!(total, bytes.len());
                assert_eq!(pool.read_stamp(&bytes), Some((seq, 1_700_000_000_123)));
                match read_frame(&bytes[body], 2, 48 * 48) {
                    FrameRead::Frame(frame) => frame,
                    other => panic!("{other:?}"),
                }
            };
            assert_eq!(read(&runs), read(&dense), "frame {seq}");
        }
        // A bed map fits one QUIC packet as runs (1,200 bytes at the initial MTU, headers included).
        assert!(runs.frame_len() < 1_100, "{} bytes", runs.frame_len());
        assert!(dense.frame_len() > 2_304);
    }
}
