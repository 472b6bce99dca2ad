//! The packed encoding of a frame's cells (protocol version 2, docs/device-protocol.md §2).
//!
//! A bed map is mostly empty mattress: zeros, or the one-step quantisation noise of an idle
//! sensor (0 or 1), around a body whose cells need a byte each. So a frame's `runs` carries the
//! byte string `cells` would carry as blocks, each a varint header `count << 2 | kind` and then
//! its `count` bytes at the width of its kind: none (all zero), 2 bits (0–3), 4 bits (0–15) or 8
//! bits. The encoding does not depend on the cell format (a `u16_le` cell is two bytes like any
//! other). Decoding writes straight into the frame's zeroed cells, with no intermediate buffer.

/// Why a `runs` byte string does not describe the announced frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RunsError {
    /// A header ends mid-varint, a varint is longer than 4 bytes, or payload bytes are missing.
    #[error("truncated runs")]
    Truncated,
    /// The blocks describe more bytes than the frame has.
    #[error("runs describe more than {0} bytes of cells")]
    TooLong(usize),
    /// The blocks end before the frame's last byte.
    #[error("runs describe {found} bytes of cells, expected {expected}")]
    TooShort { found: usize, expected: usize },
}

/// A block's kind: the bits each of its bytes takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Zeros = 0,
    Bits2 = 1,
    Bits4 = 2,
    Bytes = 3,
}

impl Kind {
    fn of(byte: u8) -> Kind {
        match byte {
            0 => Kind::Zeros,
            1..=3 => Kind::Bits2,
            4..=15 => Kind::Bits4,
            _ => Kind::Bytes,
        }
    }

    fn from_header(header: usize) -> Kind {
        match header & 3 {
            0 => Kind::Zeros,
            1 => Kind::Bits2,
            2 => Kind::Bits4,
            _ => Kind::Bytes,
        }
    }

    fn bits(self) -> usize {
        match self {
            Kind::Zeros => 0,
            Kind::Bits2 => 2,
            Kind::Bits4 => 4,
            Kind::Bytes => 8,
        }
    }

    /// Payload bytes of `count` bytes of cells of this kind.
    fn payload(self, count: usize) -> usize {
        (count * self.bits()).div_ceil(8)
    }
}

/// A short block is widened into a neighbour's kind when that costs at most this many more bits
/// of payload: the header it saves (one byte, often two when both neighbours then join) pays.
const WIDEN_BUDGET_BITS: usize = 16;

/// Appends `value` as an unsigned LEB128 varint.
fn push_varint(out: &mut Vec<u8>, mut value: usize) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Reads one varint at `*at`, at most 4 bytes (28 bits: far beyond any frame).
fn read_varint(bytes: &[u8], at: &mut usize) -> Result<usize, RunsError> {
    let mut value = 0usize;
    for shift in [0, 7, 14, 21] {
        let byte = *bytes.get(*at).ok_or(RunsError::Truncated)?;
        *at += 1;
        value |= usize::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err(RunsError::Truncated)
}

/// The blocks of `cells`: runs of one kind, each short run widened into its narrowest wider
/// neighbour while that costs at most [`WIDEN_BUDGET_BITS`].
fn blocks(cells: &[u8]) -> Vec<(Kind, usize)> {
    let mut blocks: Vec<(Kind, usize)> = Vec::with_capacity(64);
    for &byte in cells {
        let kind = Kind::of(byte);
        match blocks.last_mut() {
            Some((last, count)) if *last == kind => *count += 1,
            _ => blocks.push((kind, 1)),
        }
    }
    loop {
        let mut widened = false;
        for i in 0..blocks.len() {
            let (kind, count) = blocks[i];
            let wider = |j: Option<usize>| j.and_then(|j| blocks.get(j)).map(|b| b.0).filter(|&k| k > kind);
            if let Some(to) = wider(i.checked_sub(1)).into_iter().chain(wider(Some(i + 1))).min()
                && count * (to.bits() - kind.bits()) <= WIDEN_BUDGET_BITS
            {
                blocks[i].0 = to;
                widened = true;
            }
        }
        blocks.dedup_by(|later, earlier| {
            let same = later.0 == earlier.0;
            if same {
                earlier.1 += later.1;
            }
            same
        });
        if !widened {
            return blocks;
        }
    }
}

/// Encodes the bytes of a frame's cells as packed blocks.
pub fn encode_runs(cells: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(cells.len() / 2 + 16);
    let mut at = 0;
    for (kind, count) in blocks(cells) {
        push_varint(&mut out, (count << 2) | kind as usize);
        let block = &cells[at..at + count];
        match kind {
            Kind::Zeros => {}
            Kind::Bytes => out.extend_from_slice(block),
            Kind::Bits2 | Kind::Bits4 => {
                let bits = kind.bits();
                let per_byte = 8 / bits;
                for chunk in block.chunks(per_byte) {
                    out.push(chunk.iter().enumerate().fold(0u8, |packed, (j, &v)| packed | (v << (j * bits))));
                }
            }
        }
        at += count;
    }
    out
}

/// The `N` cells each payload byte of a 2-bit (`N` = 4) or 4-bit (`N` = 2) block holds, first
/// cell in the low bits: one table read per payload byte instead of a shift and mask per cell
/// (the hub decodes every frame; issue 26 item 1).
const fn unpack_table<const N: usize>() -> [[u8; N]; 256] {
    let bits = 8 / N;
    let mut table = [[0u8; N]; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut j = 0;
        while j < N {
            table[byte][j] = ((byte >> (bits * j)) & ((1 << bits) - 1)) as u8;
            j += 1;
        }
        byte += 1;
    }
    table
}

static UNPACK_BITS2: [[u8; 4]; 256] = unpack_table::<4>();
static UNPACK_BITS4: [[u8; 2]; 256] = unpack_table::<2>();

/// Unpacks `payload` into `cells` with `table` (`walk` checked that the payload holds
/// `cells.len()` cells: one byte per `N` cells, the last one partly).
fn unpack<const N: usize>(cells: &mut [u8], payload: &[u8], table: &[[u8; N]; 256]) {
    let last = payload.get(cells.len() / N).copied();
    let mut whole = cells.chunks_exact_mut(N);
    for (chunk, &byte) in (&mut whole).zip(payload) {
        chunk.copy_from_slice(&table[usize::from(byte)]);
    }
    let rest = whole.into_remainder();
    if let Some(last) = last {
        rest.copy_from_slice(&table[usize::from(last)][..rest.len()]);
    }
}

/// Decodes `runs` into `cells`, which must be all zero and exactly the frame's size.
pub fn decode_runs_into(runs: &[u8], cells: &mut [u8]) -> Result<(), RunsError> {
    let expected = cells.len();
    let found = walk(runs, expected, |at, kind, count, payload| match kind {
        Kind::Zeros => {}
        Kind::Bytes => cells[at..at + count].copy_from_slice(payload),
        Kind::Bits2 => unpack(&mut cells[at..at + count], payload, &UNPACK_BITS2),
        Kind::Bits4 => unpack(&mut cells[at..at + count], payload, &UNPACK_BITS4),
    })?;
    if found == expected { Ok(()) } else { Err(RunsError::TooShort { found, expected }) }
}

/// Decodes `runs` into new cells of the length the runs describe, at most `limit` bytes (for a
/// reader that does not know the frame's shape; the hub uses [`decode_runs_into`]).
pub fn decode_runs(runs: &[u8], limit: usize) -> Result<Vec<u8>, RunsError> {
    let len = walk(runs, limit, |_, _, _, _| {})?;
    let mut cells = vec![0u8; len];
    decode_runs_into(runs, &mut cells)?;
    Ok(cells)
}

/// Walks the blocks of `runs`, handing each block's offset, kind, count and payload to `block`;
/// returns the bytes of cells described, refusing more than `limit`.
fn walk(runs: &[u8], limit: usize, mut block: impl FnMut(usize, Kind, usize, &[u8])) -> Result<usize, RunsError> {
    let mut at = 0;
    let mut cell = 0usize;
    while at < runs.len() {
        let header = read_varint(runs, &mut at)?;
        let (kind, count) = (Kind::from_header(header), header >> 2);
        let end = cell.checked_add(count).filter(|&end| end <= limit).ok_or(RunsError::TooLong(limit))?;
        let payload = runs.get(at..at + kind.payload(count)).ok_or(RunsError::Truncated)?;
        block(cell, kind, count, payload);
        at += payload.len();
        cell = end;
    }
    Ok(cell)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Any cells round-trip, and never cost more than their bytes and a few varints.
        #[test]
        fn any_cells_round_trip(cells in proptest::collection::vec(prop_oneof![3 => Just(0u8), 1 => any::<u8>()], 0..3000)) {
            let runs = encode_runs(&cells);
            prop_assert!(runs.len() <= cells.len() + cells.len() / 4 + 8, "{} bytes for {}", runs.len(), cells.len());
            let mut back = vec![0u8; cells.len()];
            prop_assert_eq!(decode_runs_into(&runs, &mut back), Ok(()));
            prop_assert_eq!(&back, &cells);
            prop_assert_eq!(decode_runs(&runs, cells.len()), Ok(cells));
        }

        /// Small values (the 2- and 4-bit blocks, of every length and so every partial last
        /// payload byte) round-trip through the unpacking tables.
        #[test]
        fn narrow_cells_round_trip(cells in proptest::collection::vec(prop_oneof![2 => Just(0u8), 2 => 0u8..4, 1 => 4u8..16], 0..300)) {
            let runs = encode_runs(&cells);
            let mut back = vec![0u8; cells.len()];
            prop_assert_eq!(decode_runs_into(&runs, &mut back), Ok(()));
            prop_assert_eq!(back, cells);
        }

        /// Any bytes as runs: refused, or cells of at most the limit that re-encode to the same.
        #[test]
        fn any_bytes_as_runs_decode_within_the_limit(runs in proptest::collection::vec(any::<u8>(), 0..64)) {
            if let Ok(cells) = decode_runs(&runs, 4096) {
                prop_assert!(cells.len() <= 4096);
                let mut again = vec![0u8; cells.len()];
                prop_assert_eq!(decode_runs_into(&encode_runs(&cells), &mut again), Ok(()));
                prop_assert_eq!(again, cells);
            }
        }
    }

    fn round_trip(cells: &[u8]) -> Vec<u8> {
        let runs = encode_runs(cells);
        let mut back = vec![0u8; cells.len()];
        decode_runs_into(&runs, &mut back).unwrap_or_else(|e| panic!("{e} for {cells:?}"));
        assert_eq!(back, cells);
        assert_eq!(decode_runs(&runs, cells.len()), Ok(cells.to_vec()), "sized by the runs themselves");
        runs
    }

    #[test]
    fn every_kind_of_map_round_trips() {
        round_trip(&[]);
        round_trip(&[0; 2304]);
        round_trip(&[200; 2304]);
        round_trip(&[0, 0, 5, 0, 0, 0, 0, 9, 0, 1, 0, 0]);
        round_trip(&[5, 0, 0, 0]);
        round_trip(&[0, 0, 0, 1]);
        // u16 cells are bytes like any other (0x0100 = 256 round-trips through a zero byte).
        round_trip(&[0, 0, 0, 1, 0, 0, 0xff, 0x0f, 0, 0, 0, 0, 0, 0]);
        let noisy: Vec<u8> = (0..2304u32).map(|i| if (i * 7919) % 13 < 4 { (i % 251) as u8 } else { 0 }).collect();
        round_trip(&noisy);
    }

    #[test]
    fn a_bed_map_with_idle_noise_takes_under_half_its_bytes() {
        // A body of 24 rows × 16 columns of loaded cells in the middle of a 48 × 48 map whose
        // other cells read the idle sensor's 0 or 1.
        let mut cells: Vec<u8> = (0..2304usize).map(|i| u8::from((i * 7919) % 3 != 0)).collect();
        for r in 12..36 {
            for c in 16..32 {
                cells[r * 48 + c] = 40 + (r + c) as u8;
            }
        }
        let runs = round_trip(&cells);
        // 384 bytes of body, 1,920 cells of noise at 2 bits, and a few headers.
        assert!(runs.len() <= 384 + 1920 / 4 + 2 * 48 + 4, "{} bytes", runs.len());
        assert!(runs.len() < 1000);
        // An empty map is one header: 2304 zeros, kind 0 (a two-byte varint).
        assert_eq!(round_trip(&[0; 2304]), vec![0x80, 0x48]);
        // A full map costs two bytes more than its cells (one header of kind 3).
        assert_eq!(round_trip(&[200; 2304]).len(), 2304 + 2);
    }

    #[test]
    fn the_example_of_the_protocol_document_decodes() {
        let runs = [0x10, 0x15, 0x39, 0x01, 0x06, 0x09, 0x07, 0xc8];
        let cells = [0, 0, 0, 0, 1, 2, 3, 0, 1, 9, 0xc8];
        assert_eq!(decode_runs(&runs, 64), Ok(cells.to_vec()));
        assert_eq!(encode_runs(&cells), vec![8 << 2 | 2, 0x00, 0x00, 0x21, 0x03, 3 << 2 | 3, 0x01, 0x09, 0xc8]);
    }

    #[test]
    fn each_kind_packs_its_bytes_low_bits_first() {
        assert_eq!(encode_runs(&[0, 0, 0]), vec![3 << 2]);
        assert_eq!(encode_runs(&[1, 2, 3, 0, 1]), vec![5 << 2 | 1, 0b00_11_10_01, 0b01]);
        assert_eq!(encode_runs(&[4, 15, 1]), vec![3 << 2 | 2, 0xf4, 0x01]);
        assert_eq!(encode_runs(&[16, 200]), vec![2 << 2 | 3, 16, 200]);
        // A short gap of zeros inside 4-bit cells is widened, not a block of its own.
        assert_eq!(encode_runs(&[9, 0, 9]), vec![3 << 2 | 2, 0x09, 0x09]);
    }

    #[test]
    fn runs_that_do_not_describe_the_frame_are_refused() {
        let mut cells = [0u8; 4];
        let mut decode = |runs: &[u8]| decode_runs_into(runs, &mut cells);
        assert_eq!(decode(&[4 << 2]), Ok(()));
        assert_eq!(decode(&[4 << 2 | 3, 1, 2, 3, 4]), Ok(()));
        assert_eq!(decode(&[4 << 2 | 1, 0xff]), Ok(()));
        assert_eq!(decode(&[3 << 2]), Err(RunsError::TooShort { found: 3, expected: 4 }));
        assert_eq!(decode(&[]), Err(RunsError::TooShort { found: 0, expected: 4 }));
        assert_eq!(decode(&[5 << 2]), Err(RunsError::TooLong(4)));
        assert_eq!(decode(&[2 << 2, 3 << 2 | 3, 1, 2, 3]), Err(RunsError::TooLong(4)));
        assert_eq!(decode(&[4 << 2 | 3, 1, 2, 3]), Err(RunsError::Truncated), "a payload byte is missing");
        assert_eq!(decode(&[3 << 2 | 2, 0x11]), Err(RunsError::Truncated), "3 nibbles need 2 bytes");
        assert_eq!(decode(&[0x80]), Err(RunsError::Truncated), "a varint ends mid-way");
        assert_eq!(decode(&[0xff, 0xff, 0xff, 0xff, 0x01]), Err(RunsError::Truncated), "a varint over 4 bytes");
        assert_eq!(decode(&[0xfc, 0xff, 0xff, 0x7f]), Err(RunsError::TooLong(4)));
        // A reader that sizes the cells from the runs still refuses more than its limit.
        assert_eq!(decode_runs(&[0xfc, 0xff, 0xff, 0x7f], 65_536), Err(RunsError::TooLong(65_536)));
    }
}
