//! A borrowed view of one frame's cells, whatever their encoding.

use mat_protocol::CellFormat;

/// Cells a scan passes over at once when none of them counts (32 bytes are one or two vector
/// registers; a multiple of [`byte_histogram`]'s four lanes).
pub const SKIP_BLOCK: usize = 32;

/// The histogram of 8-bit cells, exact in the bins from `floor` up: blocks of [`SKIP_BLOCK`]
/// cells all below `floor` (the mattress around a body) are passed over after one vectorised
/// maximum, and are missing from the lower bins. Four interleaved histograms are summed, so that
/// a run of one value, such as an empty mattress's zeros, does not wait on its own increments.
pub fn byte_histogram(cells: &[u8], floor: u8) -> [u32; 256] {
    let mut partial = [[0u32; 256]; 4];
    let (blocks, rest) = cells.as_chunks::<SKIP_BLOCK>();
    for block in blocks {
        if block.iter().fold(0u8, |top, &v| top.max(v)) < floor {
            continue;
        }
        for four in block.as_chunks::<4>().0 {
            for (lane, &v) in four.iter().enumerate() {
                partial[lane][usize::from(v)] += 1;
            }
        }
    }
    for &v in rest {
        partial[0][usize::from(v)] += 1;
    }
    let [a, b, c, d] = &partial;
    std::array::from_fn(|v| a[v] + b[v] + c[v] + d[v])
}

/// Row-major cells of one frame, borrowed from the decoded message.
#[derive(Debug, Clone, Copy)]
pub struct PressureMap<'a> {
    rows: u16,
    cols: u16,
    format: CellFormat,
    bytes: &'a [u8],
}

/// The byte count does not match rows × cols × bytes per cell.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{got} bytes of cells, expected {expected} for {rows}×{cols}")]
pub struct ShapeMismatch {
    /// Bytes received.
    pub got: usize,
    /// Bytes the shape needs.
    pub expected: usize,
    /// Announced rows.
    pub rows: u16,
    /// Announced columns.
    pub cols: u16,
}

impl<'a> PressureMap<'a> {
    /// Checks the shape and wraps the bytes.
    pub fn new(rows: u16, cols: u16, format: CellFormat, bytes: &'a [u8]) -> Result<Self, ShapeMismatch> {
        let expected = rows as usize * cols as usize * format.bytes_per_cell();
        if bytes.len() != expected {
            return Err(ShapeMismatch { got: bytes.len(), expected, rows, cols });
        }
        Ok(PressureMap { rows, cols, format, bytes })
    }

    /// Rows.
    pub fn rows(&self) -> u16 {
        self.rows
    }

    /// Columns.
    pub fn cols(&self) -> u16 {
        self.cols
    }

    /// Cell encoding.
    pub fn format(&self) -> CellFormat {
        self.format
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.rows as usize * self.cols as usize
    }

    /// Whether the map has no cells.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The raw bytes.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Value of cell `index` (row-major).
    #[inline]
    pub fn value(&self, index: usize) -> u16 {
        match self.format {
            CellFormat::U8 => self.bytes[index] as u16,
            CellFormat::U16Le => u16::from_le_bytes([self.bytes[2 * index], self.bytes[2 * index + 1]]),
        }
    }

    /// The cells of row `row` less `floor` (saturating at 0) into `out[..cols]`, decoded once per
    /// row rather than matched per cell.
    pub fn read_row_above(&self, row: usize, floor: u16, out: &mut [u16]) {
        let cols = usize::from(self.cols);
        let out = &mut out[..cols];
        match self.format {
            CellFormat::U8 => {
                for (slot, &v) in out.iter_mut().zip(&self.bytes[row * cols..(row + 1) * cols]) {
                    *slot = u16::from(v).saturating_sub(floor);
                }
            }
            CellFormat::U16Le => {
                let cells = self.bytes[2 * row * cols..2 * (row + 1) * cols].as_chunks::<2>().0;
                for (slot, &pair) in out.iter_mut().zip(cells) {
                    *slot = u16::from_le_bytes(pair).saturating_sub(floor);
                }
            }
        }
    }

    /// Adds one to `counts[c]` for each cell `c` of row `row` at `floor` or more: a column's
    /// count over several rows, without a branch per cell.
    pub fn count_row_at_least(&self, row: usize, floor: u16, counts: &mut [u32]) {
        let cols = usize::from(self.cols);
        let counts = &mut counts[..cols];
        match self.format {
            CellFormat::U8 => {
                for (count, &v) in counts.iter_mut().zip(&self.bytes[row * cols..(row + 1) * cols]) {
                    *count += u32::from(u16::from(v) >= floor);
                }
            }
            CellFormat::U16Le => {
                let cells = self.bytes[2 * row * cols..2 * (row + 1) * cols].as_chunks::<2>().0;
                for (count, &pair) in counts.iter_mut().zip(cells) {
                    *count += u32::from(u16::from_le_bytes(pair) >= floor);
                }
            }
        }
    }

    /// The largest cell (0 for an empty map).
    pub fn max_value(&self) -> u16 {
        match self.format {
            CellFormat::U8 => u16::from(self.bytes.iter().fold(0u8, |top, &v| top.max(v))),
            CellFormat::U16Le => self.bytes.as_chunks::<2>().0.iter().fold(0u16, |top, &pair| top.max(u16::from_le_bytes(pair))),
        }
    }

    /// All values in row-major order.
    pub fn values(&self) -> impl Iterator<Item = u16> + '_ {
        (0..self.len()).map(move |i| self.value(i))
    }

    /// Sum of all cells: the "reading" of force channels and room-set sensors.
    pub fn total(&self) -> u64 {
        self.values().map(u64::from).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_is_checked() {
        assert!(PressureMap::new(2, 2, CellFormat::U8, &[0; 4]).is_ok());
        assert_eq!(
            PressureMap::new(2, 2, CellFormat::U16Le, &[0; 4]).unwrap_err(),
            ShapeMismatch { got: 4, expected: 8, rows: 2, cols: 2 }
        );
    }

    #[test]
    fn u16_cells_are_little_endian() {
        let map = PressureMap::new(1, 2, CellFormat::U16Le, &[0xff, 0x0f, 0x01, 0x00]).unwrap();
        assert_eq!(map.values().collect::<Vec<_>>(), vec![4095, 1]);
        assert_eq!(map.total(), 4096);
    }

    #[test]
    fn rows_and_the_maximum_read_as_the_cells_do_in_both_formats() {
        let cells: Vec<u16> = (0..12u16).map(|k| k * 300 % 1021).collect();
        let wide: Vec<u8> = cells.iter().flat_map(|v| v.to_le_bytes()).collect();
        let narrow: Vec<u8> = cells.iter().map(|&v| (v % 256) as u8).collect();
        for map in [PressureMap::new(3, 4, CellFormat::U16Le, &wide).unwrap(), PressureMap::new(3, 4, CellFormat::U8, &narrow).unwrap()] {
            let values: Vec<u16> = map.values().collect();
            assert_eq!(map.max_value(), *values.iter().max().unwrap());
            for row in 0..3 {
                let mut out = [7u16; 6];
                map.read_row_above(row, 100, &mut out);
                let expected: Vec<u16> = values[row * 4..row * 4 + 4].iter().map(|v| v.saturating_sub(100)).collect();
                assert_eq!(out[..4], expected[..], "row {row} of {:?}", map.format());
                assert_eq!(out[4..], [7, 7], "nothing past the row is written");
                let mut counts = [1u32; 6];
                map.count_row_at_least(row, 200, &mut counts);
                let expected: Vec<u32> = values[row * 4..row * 4 + 4].iter().map(|&v| 1 + u32::from(v >= 200)).collect();
                assert_eq!(counts[..4], expected[..], "row {row} of {:?}", map.format());
                assert_eq!(counts[4..], [1, 1], "nothing past the row is counted");
            }
        }
    }

    proptest::proptest! {
        /// The histogram counts every cell from `floor` up, whatever blocks it skipped.
        #[test]
        fn the_byte_histogram_counts_every_cell_from_its_floor_up(
            cells in proptest::collection::vec(proptest::prop_oneof![6 => proptest::strategy::Just(0u8), 1 => 0u8..=255], 0..700),
            floor in proptest::prop_oneof![proptest::strategy::Just(0u8), 0u8..=255],
        ) {
            let histogram = byte_histogram(&cells, floor);
            for (v, &n) in histogram.iter().enumerate().skip(usize::from(floor)) {
                proptest::prop_assert_eq!(n as usize, cells.iter().filter(|&&c| usize::from(c) == v).count(), "bin {}", v);
            }
        }
    }
}
