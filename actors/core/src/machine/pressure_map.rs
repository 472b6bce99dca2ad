//! A borrowed view of one frame's cells, whatever their encoding.

use mat_protocol::CellFormat;

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
}
