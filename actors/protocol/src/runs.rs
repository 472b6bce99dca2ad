//! The zero-run encoding of a frame's cells (protocol version 2, docs/device-protocol.md §2):
//! most cells of a bed map read zero, so a frame's `runs` carries blocks of *zero bytes to skip*,
//! then *literal bytes*, each count an unsigned LEB128 varint, over the same byte string `cells`
//! would carry (so the encoding does not depend on the cell format). Decoding writes the literal
//! bytes straight into the frame's zeroed cells, with no intermediate buffer.

/// Why a `runs` byte string does not describe the announced frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RunsError {
    /// A count ends mid-varint, a varint is longer than 4 bytes, or literal bytes are missing.
    #[error("truncated runs")]
    Truncated,
    /// The blocks describe more bytes than the frame has.
    #[error("runs describe more than {0} bytes of cells")]
    TooLong(usize),
    /// The blocks end before the frame's last byte.
    #[error("runs describe {found} bytes of cells, expected {expected}")]
    TooShort { found: usize, expected: usize },
}

/// Zero bytes in a row that end a literal run: a shorter gap costs at least as much as a new
/// block (two varints) as it does as literal zeros.
const ZEROS_WORTH_A_BLOCK: usize = 3;

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

/// Encodes the bytes of a frame's cells as zero runs.
pub fn encode_runs(cells: &[u8]) -> Vec<u8> {
    let count = cells.len();
    let mut out = Vec::with_capacity(count / 4 + 8);
    let mut i = 0;
    while i < count {
        let zeros_start = i;
        while i < count && cells[i] == 0 {
            i += 1;
        }
        let literal_start = i;
        // A literal run goes on over short gaps of zeros, up to a gap worth a block of its own.
        let mut zeros_in_a_row = 0;
        while i < count && zeros_in_a_row < ZEROS_WORTH_A_BLOCK {
            zeros_in_a_row = if cells[i] == 0 { zeros_in_a_row + 1 } else { 0 };
            i += 1;
        }
        // The trailing zeros (if the run stopped on a gap) belong to the next block.
        i -= zeros_in_a_row;
        push_varint(&mut out, literal_start - zeros_start);
        push_varint(&mut out, i - literal_start);
        out.extend_from_slice(&cells[literal_start..i]);
    }
    out
}

/// Decodes `runs` into `cells`, which must be all zero and exactly the frame's size: the zero
/// runs are skipped, the literal bytes copied in place.
pub fn decode_runs_into(runs: &[u8], cells: &mut [u8]) -> Result<(), RunsError> {
    let expected = cells.len();
    let found = walk(runs, expected, |at, literal| cells[at..at + literal.len()].copy_from_slice(literal))?;
    if found == expected { Ok(()) } else { Err(RunsError::TooShort { found, expected }) }
}

/// Decodes `runs` into new cells of the length the runs describe, at most `limit` bytes (for a
/// reader that does not know the frame's shape; the hub uses [`decode_runs_into`]).
pub fn decode_runs(runs: &[u8], limit: usize) -> Result<Vec<u8>, RunsError> {
    let len = walk(runs, limit, |_, _| {})?;
    let mut cells = vec![0u8; len];
    decode_runs_into(runs, &mut cells)?;
    Ok(cells)
}

/// Walks the blocks of `runs`, handing each literal run and its offset to `literal`; returns the
/// bytes of cells described, refusing more than `limit`.
fn walk(runs: &[u8], limit: usize, mut literal: impl FnMut(usize, &[u8])) -> Result<usize, RunsError> {
    let mut at = 0;
    let mut cell = 0usize;
    while at < runs.len() {
        let zeros = read_varint(runs, &mut at)?;
        let literals = read_varint(runs, &mut at)?;
        cell = cell.checked_add(zeros).filter(|&c| c <= limit).ok_or(RunsError::TooLong(limit))?;
        let end = cell.checked_add(literals).filter(|&c| c <= limit).ok_or(RunsError::TooLong(limit))?;
        let source = runs.get(at..at + literals).ok_or(RunsError::Truncated)?;
        literal(cell, source);
        at += literals;
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
            prop_assert!(runs.len() <= cells.len() + 2 * (cells.len() / 4 + 1) + 6);
            let mut back = vec![0u8; cells.len()];
            prop_assert_eq!(decode_runs_into(&runs, &mut back), Ok(()));
            prop_assert_eq!(&back, &cells);
            prop_assert_eq!(decode_runs(&runs, cells.len()), Ok(cells));
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
    fn a_mostly_empty_bed_map_fits_in_one_packet() {
        // A body of 24 rows × 16 columns in the middle of a 48 × 48 map.
        let mut cells = vec![0u8; 2304];
        for r in 12..36 {
            for c in 16..32 {
                cells[r * 48 + c] = 40 + (r + c) as u8;
            }
        }
        let runs = round_trip(&cells);
        // 384 literal cells, two one-byte varints per row, and a two-byte varint for the 592
        // zeros before the first row and after the last.
        assert_eq!(runs.len(), 384 + 2 * 24 + 4);
        // An empty map is one block: 2304 zeros (a two-byte varint), no literal.
        assert_eq!(round_trip(&[0; 2304]), vec![0x80, 0x12, 0x00]);
        // A full map costs three bytes more than its cells (no zeros, then 2,304 literal cells).
        assert_eq!(round_trip(&[1; 2304]).len(), 2304 + 3);
    }

    #[test]
    fn short_gaps_stay_literal_and_long_ones_start_a_block() {
        assert_eq!(encode_runs(&[7, 0, 0, 7]), vec![0, 4, 7, 0, 0, 7]);
        assert_eq!(encode_runs(&[7, 0, 0, 0, 7]), vec![0, 1, 7, 3, 1, 7]);
    }

    #[test]
    fn runs_that_do_not_describe_the_frame_are_refused() {
        let mut cells = [0u8; 4];
        let mut decode = |runs: &[u8]| decode_runs_into(runs, &mut cells);
        assert_eq!(decode(&[4, 0]), Ok(()));
        assert_eq!(decode(&[0, 4, 1, 2, 3, 4]), Ok(()));
        assert_eq!(decode(&[3, 0]), Err(RunsError::TooShort { found: 3, expected: 4 }));
        assert_eq!(decode(&[]), Err(RunsError::TooShort { found: 0, expected: 4 }));
        assert_eq!(decode(&[5, 0]), Err(RunsError::TooLong(4)));
        assert_eq!(decode(&[2, 3, 1, 2, 3]), Err(RunsError::TooLong(4)));
        assert_eq!(decode(&[0, 4, 1, 2, 3]), Err(RunsError::Truncated), "a literal byte is missing");
        assert_eq!(decode(&[0x80]), Err(RunsError::Truncated), "a varint ends mid-way");
        assert_eq!(decode(&[0xff, 0xff, 0xff, 0xff, 0x01]), Err(RunsError::Truncated), "a varint over 4 bytes");
        assert_eq!(decode(&[0xff, 0xff, 0xff, 0x7f, 0]), Err(RunsError::TooLong(4)));
        // A reader that sizes the cells from the runs still refuses more than its limit.
        assert_eq!(decode_runs(&[0xff, 0xff, 0xff, 0x7f, 0], 65_536), Err(RunsError::TooLong(65_536)));
    }
}
