//! The zero-run encoding of a frame's cells (protocol version 2, docs/device-protocol.md §2):
//! most cells of a bed map read zero, so a frame's `runs` carries blocks of *zero cells to skip*,
//! then *literal cells*, each count an unsigned LEB128 varint, each literal cell in the
//! connection's cell format. Decoding writes the literal cells straight into the frame's zeroed
//! cells, with no intermediate buffer.

use crate::CellFormat;

/// Why a `runs` byte string does not describe the announced frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RunsError {
    /// A count ends mid-varint, a varint is longer than 4 bytes, or literal bytes are missing.
    #[error("truncated runs")]
    Truncated,
    /// The blocks describe more cells than the frame has.
    #[error("runs describe more than {0} cells")]
    TooManyCells(usize),
    /// The blocks end before the frame's last cell.
    #[error("runs describe {found} cells, expected {expected}")]
    TooFewCells { found: usize, expected: usize },
}

/// Zero cells in a row that end a literal run: a shorter gap costs more as a new block (two
/// varints) than as literal zeros.
fn zeros_worth_a_block(format: CellFormat) -> usize {
    match format {
        CellFormat::U8 => 3,
        CellFormat::U16Le => 2,
    }
}

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

/// Encodes `cells` (whole cells of `format`) as zero runs.
pub fn encode_runs(cells: &[u8], format: CellFormat) -> Vec<u8> {
    let width = format.bytes_per_cell();
    let count = cells.len() / width;
    let is_zero = |i: usize| cells[i * width..(i + 1) * width].iter().all(|&b| b == 0);
    let gap = zeros_worth_a_block(format);
    let mut out = Vec::with_capacity(cells.len() / 4 + 8);
    let mut i = 0;
    while i < count {
        let zeros_start = i;
        while i < count && is_zero(i) {
            i += 1;
        }
        let literal_start = i;
        // A literal run goes on over short gaps of zeros, up to a gap worth a block of its own.
        let mut zeros_in_a_row = 0;
        while i < count && zeros_in_a_row < gap {
            zeros_in_a_row = if is_zero(i) { zeros_in_a_row + 1 } else { 0 };
            i += 1;
        }
        // The trailing zeros (if the run stopped on a gap) belong to the next block.
        i -= zeros_in_a_row;
        push_varint(&mut out, literal_start - zeros_start);
        push_varint(&mut out, i - literal_start);
        out.extend_from_slice(&cells[literal_start * width..i * width]);
    }
    out
}

/// Decodes `runs` into `cells`, which must be all zero and exactly the frame's size: the zero
/// runs are skipped, the literal cells copied in place.
pub fn decode_runs_into(runs: &[u8], format: CellFormat, cells: &mut [u8]) -> Result<(), RunsError> {
    let width = format.bytes_per_cell();
    let expected = cells.len() / width;
    let mut at = 0;
    let mut cell = 0usize;
    while at < runs.len() {
        let zeros = read_varint(runs, &mut at)?;
        let literals = read_varint(runs, &mut at)?;
        cell = cell.checked_add(zeros).filter(|&c| c <= expected).ok_or(RunsError::TooManyCells(expected))?;
        let end = cell.checked_add(literals).filter(|&c| c <= expected).ok_or(RunsError::TooManyCells(expected))?;
        let bytes = (end - cell) * width;
        let source = runs.get(at..at + bytes).ok_or(RunsError::Truncated)?;
        cells[cell * width..end * width].copy_from_slice(source);
        at += bytes;
        cell = end;
    }
    if cell == expected { Ok(()) } else { Err(RunsError::TooFewCells { found: cell, expected }) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(cells: &[u8], format: CellFormat) -> Vec<u8> {
        let runs = encode_runs(cells, format);
        let mut back = vec![0u8; cells.len()];
        decode_runs_into(&runs, format, &mut back).unwrap_or_else(|e| panic!("{e} for {cells:?}"));
        assert_eq!(back, cells);
        runs
    }

    #[test]
    fn every_kind_of_map_round_trips() {
        round_trip(&[], CellFormat::U8);
        round_trip(&[0; 2304], CellFormat::U8);
        round_trip(&[200; 2304], CellFormat::U8);
        round_trip(&[0, 0, 5, 0, 0, 0, 0, 9, 0, 1, 0, 0], CellFormat::U8);
        round_trip(&[5, 0, 0, 0], CellFormat::U8);
        round_trip(&[0, 0, 0, 1], CellFormat::U8);
        // u16: a cell is zero only when both its bytes are (0x0100 = 256 is not zero).
        round_trip(&[0, 0, 0, 1, 0, 0, 0xff, 0x0f, 0, 0, 0, 0, 0, 0], CellFormat::U16Le);
        let noisy: Vec<u8> = (0..2304u32).map(|i| if (i * 7919) % 13 < 4 { (i % 251) as u8 } else { 0 }).collect();
        round_trip(&noisy, CellFormat::U8);
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
        let runs = round_trip(&cells, CellFormat::U8);
        // 384 literal cells, two one-byte varints per row, and a two-byte varint for the 592
        // zeros before the first row and after the last.
        assert_eq!(runs.len(), 384 + 2 * 24 + 4);
        // An empty map is one block: 2304 zeros (a two-byte varint), no literal.
        assert_eq!(round_trip(&[0; 2304], CellFormat::U8), vec![0x80, 0x12, 0x00]);
        // A full map costs three bytes more than its cells (no zeros, then 2,304 literal cells).
        assert_eq!(round_trip(&[1; 2304], CellFormat::U8).len(), 2304 + 3);
    }

    #[test]
    fn short_gaps_stay_literal_and_long_ones_start_a_block() {
        assert_eq!(encode_runs(&[7, 0, 0, 7], CellFormat::U8), vec![0, 4, 7, 0, 0, 7]);
        assert_eq!(encode_runs(&[7, 0, 0, 0, 7], CellFormat::U8), vec![0, 1, 7, 3, 1, 7]);
    }

    #[test]
    fn runs_that_do_not_describe_the_frame_are_refused() {
        let mut cells = [0u8; 4];
        let mut decode = |runs: &[u8]| decode_runs_into(runs, CellFormat::U8, &mut cells);
        assert_eq!(decode(&[4, 0]), Ok(()));
        assert_eq!(decode(&[0, 4, 1, 2, 3, 4]), Ok(()));
        assert_eq!(decode(&[3, 0]), Err(RunsError::TooFewCells { found: 3, expected: 4 }));
        assert_eq!(decode(&[]), Err(RunsError::TooFewCells { found: 0, expected: 4 }));
        assert_eq!(decode(&[5, 0]), Err(RunsError::TooManyCells(4)));
        assert_eq!(decode(&[2, 3, 1, 2, 3]), Err(RunsError::TooManyCells(4)));
        assert_eq!(decode(&[0, 4, 1, 2, 3]), Err(RunsError::Truncated), "a literal byte is missing");
        assert_eq!(decode(&[0x80]), Err(RunsError::Truncated), "a varint ends mid-way");
        assert_eq!(decode(&[0xff, 0xff, 0xff, 0xff, 0x01]), Err(RunsError::Truncated), "a varint over 4 bytes");
        assert_eq!(decode(&[0xff, 0xff, 0xff, 0x7f, 0]), Err(RunsError::TooManyCells(4)));
    }
}
