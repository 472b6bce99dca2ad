//! Captured frames as the analyses read them: owned u16 cells with their shape and a timestamp,
//! and the per-region statistics (load, active cells, maximum, centre of pressure) every analysis
//! is built from.

use serde::{Deserialize, Serialize};

use super::AnalysisError;
use super::units::active_floor;
use crate::machine::pressure_map::PressureMap;
use mat_protocol::device_type::DeviceType;
use mat_protocol::scale::ACTIVE_MIN_STEPS;

/// One map of pressures, row-major. Row 0 is the top of the map as the client draws it (the
/// toes on a podology plate, the front edge of a seat, the head end of a mattress); column 0 is
/// its left side. It knows the smallest active cell of its device (`active_floor`, in steps).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PressureFrame {
    rows: u16,
    cols: u16,
    cells: Vec<u16>,
    /// The smallest active cell, in steps (`units::active_floor` of the capture's device).
    active_floor: u16,
}

impl PressureFrame {
    /// Wraps `cells` after checking that there are `rows × cols` of them.
    pub fn new(rows: u16, cols: u16, cells: Vec<u16>) -> Result<Self, AnalysisError> {
        let expected = rows as usize * cols as usize;
        if cells.len() != expected {
            return Err(AnalysisError::ShapeMismatch { rows, cols, cells: cells.len() });
        }
        Ok(PressureFrame { rows, cols, cells, active_floor: ACTIVE_MIN_STEPS })
    }

    /// Copies a borrowed device map (u8 or u16 cells) into an owned frame.
    pub fn from_map(map: &PressureMap<'_>) -> Self {
        PressureFrame { rows: map.rows(), cols: map.cols(), cells: map.values().collect(), active_floor: ACTIVE_MIN_STEPS }
    }

    /// The same frame read as `device`'s map: its cells are active from `units::active_floor`
    /// (a [`Capture`] does this to every frame it takes). A frame of no stated device counts
    /// cells of two steps or more, the floor of every pressure map today.
    pub fn of_device(mut self, device: DeviceType) -> Self {
        self.active_floor = active_floor(device);
        self
    }

    /// The smallest active cell, in steps.
    pub fn active_floor(&self) -> u16 {
        self.active_floor
    }

    /// Whether `value` is an active cell of this frame's device.
    #[inline]
    pub fn is_active(&self, value: u16) -> bool {
        value >= self.active_floor
    }

    /// Rows.
    pub fn rows(&self) -> u16 {
        self.rows
    }

    /// Columns.
    pub fn cols(&self) -> u16 {
        self.cols
    }

    /// Cells in row-major order.
    pub fn cells(&self) -> &[u16] {
        &self.cells
    }

    /// Value at (`row`, `col`).
    #[inline]
    pub fn value(&self, row: usize, col: usize) -> u16 {
        self.cells[row * self.cols as usize + col]
    }

    /// The same map seen in a mirror: column `c` becomes column `cols − 1 − c`.
    pub fn mirrored(&self) -> PressureFrame {
        let cols = self.cols as usize;
        let cells = self.cells.chunks(cols.max(1)).flat_map(|row| row.iter().rev().copied()).collect();
        PressureFrame { rows: self.rows, cols: self.cols, cells, active_floor: self.active_floor }
    }

    /// The whole map as a region.
    pub fn full_region(&self) -> Region {
        Region { row_start: 0, row_end: self.rows as usize, col_start: 0, col_end: self.cols as usize }
    }

    /// Load, active cells, maximum and centre of pressure of the cells inside `region`, in one pass.
    pub fn region_stats(&self, region: &Region) -> RegionStats {
        let mut stats = RegionStats::default();
        let (mut sum_x, mut sum_y) = (0u64, 0u64);
        let row_end = region.row_end.min(self.rows as usize);
        let col_end = region.col_end.min(self.cols as usize);
        for row in region.row_start..row_end {
            let line = &self.cells[row * self.cols as usize..(row + 1) * self.cols as usize];
            for (col, &value) in line.iter().enumerate().take(col_end).skip(region.col_start) {
                if value == 0 {
                    continue;
                }
                let v = u64::from(value);
                stats.load += v;
                sum_x += v * col as u64;
                sum_y += v * row as u64;
                if self.is_active(value) {
                    stats.active_cells += 1;
                    stats.active_load += v;
                }
                // The first cell in reading order wins a tie, so a maximum is reproducible.
                if stats.maximum.is_none_or(|m| value > m.z) {
                    stats.maximum = Some(ActivePoint { x: col as u16, y: row as u16, z: value });
                }
            }
        }
        if stats.load > 0 {
            stats.center_of_pressure = Some([sum_x as f64 / stats.load as f64, sum_y as f64 / stats.load as f64]);
        }
        stats
    }

    /// The active cells inside `region`, as (x, y, z).
    pub fn active_points(&self, region: &Region) -> Vec<ActivePoint> {
        let mut points = Vec::new();
        for row in region.row_start..region.row_end.min(self.rows as usize) {
            for col in region.col_start..region.col_end.min(self.cols as usize) {
                let z = self.value(row, col);
                if self.is_active(z) {
                    points.push(ActivePoint { x: col as u16, y: row as u16, z });
                }
            }
        }
        points
    }

    /// Whether any cell of the outer ring of the map is active: spec §5's foot-print warning.
    pub fn edge_is_active(&self) -> bool {
        let (rows, cols) = (self.rows as usize, self.cols as usize);
        (0..rows).any(|r| (0..cols).any(|c| (r == 0 || c == 0 || r + 1 == rows || c + 1 == cols) && self.is_active(self.value(r, c))))
    }
}

/// A rectangle of cells, half-open on both axes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    /// First row inside.
    pub row_start: usize,
    /// First row after.
    pub row_end: usize,
    /// First column inside.
    pub col_start: usize,
    /// First column after.
    pub col_end: usize,
}

/// What one pass over a region finds.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RegionStats {
    /// Sum of every cell value.
    pub load: u64,
    /// Active cells (at or above the frame's active floor).
    pub active_cells: u32,
    /// Sum of the active cells.
    pub active_load: u64,
    /// The highest cell (the first one in reading order on a tie).
    pub maximum: Option<ActivePoint>,
    /// Pressure-weighted mean position [x = column, y = row], in cells.
    pub center_of_pressure: Option<[f64; 2]>,
}

impl RegionStats {
    /// The statistics of two disjoint regions taken together (`self` comes first in reading
    /// order, so it keeps the maximum on a tie).
    pub fn merge(&self, other: &RegionStats) -> RegionStats {
        let load = self.load + other.load;
        let center_of_pressure = match (self.center_of_pressure, other.center_of_pressure) {
            (Some(a), Some(b)) => {
                let (wa, wb) = (self.load as f64, other.load as f64);
                Some([(a[0] * wa + b[0] * wb) / (wa + wb), (a[1] * wa + b[1] * wb) / (wa + wb)])
            }
            (a, b) => a.or(b),
        };
        let maximum = match (self.maximum, other.maximum) {
            (Some(a), Some(b)) => Some(if b.z > a.z { b } else { a }),
            (a, b) => a.or(b),
        };
        RegionStats {
            load,
            active_cells: self.active_cells + other.active_cells,
            active_load: self.active_load + other.active_load,
            maximum,
            center_of_pressure,
        }
    }

    /// Mean pressure of the active cells (0 when none).
    pub fn active_mean(&self) -> f64 {
        if self.active_cells == 0 { 0.0 } else { self.active_load as f64 / f64::from(self.active_cells) }
    }
}

/// A cell with its pressure: x is the column, y the row, z the pressure in sensor units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActivePoint {
    /// Column.
    pub x: u16,
    /// Row.
    pub y: u16,
    /// Pressure (sensor units).
    pub z: u16,
}

/// One frame with the device's timestamp.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimedFrame {
    /// Device time of the frame, milliseconds.
    pub timestamp_ms: u64,
    /// The map.
    pub frame: PressureFrame,
}

/// The frames of one analysis capture, all of one shape, in time order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capture {
    device_type: DeviceType,
    rows: u16,
    cols: u16,
    frames: Vec<TimedFrame>,
}

impl Capture {
    /// An empty capture of `rows × cols` maps from a device of `device_type`.
    pub fn new(device_type: DeviceType, rows: u16, cols: u16) -> Self {
        Capture { device_type, rows, cols, frames: Vec::new() }
    }

    /// Appends a frame; its shape must match and its timestamp must not go back in time.
    pub fn push(&mut self, timestamp_ms: u64, frame: PressureFrame) -> Result<(), AnalysisError> {
        if frame.rows != self.rows || frame.cols != self.cols {
            return Err(AnalysisError::ShapeMismatch { rows: self.rows, cols: self.cols, cells: frame.cells.len() });
        }
        if let Some(last) = self.frames.last()
            && timestamp_ms < last.timestamp_ms
        {
            return Err(AnalysisError::TimestampsOutOfOrder { previous_ms: last.timestamp_ms, next_ms: timestamp_ms });
        }
        self.frames.push(TimedFrame { timestamp_ms, frame: frame.of_device(self.device_type) });
        Ok(())
    }

    /// Appends a device map, converting its cells to u16.
    pub fn push_map(&mut self, timestamp_ms: u64, map: &PressureMap<'_>) -> Result<(), AnalysisError> {
        self.push(timestamp_ms, PressureFrame::from_map(map))
    }

    /// The device type the frames came from.
    pub fn device_type(&self) -> DeviceType {
        self.device_type
    }

    /// Rows of every frame.
    pub fn rows(&self) -> u16 {
        self.rows
    }

    /// Columns of every frame.
    pub fn cols(&self) -> u16 {
        self.cols
    }

    /// The frames, oldest first.
    pub fn frames(&self) -> &[TimedFrame] {
        &self.frames
    }

    /// Seconds from the first frame to `frame`.
    pub fn seconds_since_start(&self, frame: &TimedFrame) -> f64 {
        let start = self.frames.first().map_or(frame.timestamp_ms, |f| f.timestamp_ms);
        frame.timestamp_ms.saturating_sub(start) as f64 / 1000.0
    }

    /// Seconds from the first to the last frame.
    pub fn duration_s(&self) -> f64 {
        self.frames.last().map_or(0.0, |last| self.seconds_since_start(last))
    }

    /// The cell-wise mean of all frames, rounded to the nearest unit (an empty map if there are
    /// no frames). Static analyses read this, so a 1 s static capture and a single frame agree.
    pub fn mean_map(&self) -> PressureFrame {
        let len = self.rows as usize * self.cols as usize;
        let mut sums = vec![0u64; len];
        for timed in &self.frames {
            for (sum, &v) in sums.iter_mut().zip(&timed.frame.cells) {
                *sum += u64::from(v);
            }
        }
        let n = self.frames.len().max(1) as u64;
        let cells = sums.into_iter().map(|s| ((s + n / 2) / n) as u16).collect();
        PressureFrame { rows: self.rows, cols: self.cols, cells, active_floor: active_floor(self.device_type) }
    }

    /// The cell-wise maximum of all frames: every cell that was ever loaded, at its peak.
    pub fn peak_map(&self) -> PressureFrame {
        let mut cells = vec![0u16; self.rows as usize * self.cols as usize];
        for timed in &self.frames {
            for (peak, &v) in cells.iter_mut().zip(&timed.frame.cells) {
                *peak = (*peak).max(v);
            }
        }
        PressureFrame { rows: self.rows, cols: self.cols, cells, active_floor: active_floor(self.device_type) }
    }

    /// The same capture seen in a mirror (every frame mirrored left–right).
    pub fn mirrored(&self) -> Capture {
        let frames = self.frames.iter().map(|f| TimedFrame { timestamp_ms: f.timestamp_ms, frame: f.frame.mirrored() }).collect();
        Capture { device_type: self.device_type, rows: self.rows, cols: self.cols, frames }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mat_protocol::CellFormat;

    fn frame(rows: u16, cols: u16, cells: &[u16]) -> PressureFrame {
        PressureFrame::new(rows, cols, cells.to_vec()).unwrap()
    }

    #[test]
    fn shape_is_checked() {
        assert_eq!(PressureFrame::new(2, 2, vec![0; 3]).unwrap_err(), AnalysisError::ShapeMismatch { rows: 2, cols: 2, cells: 3 });
    }

    #[test]
    fn region_stats_by_hand() {
        // 2×3 map:   0 10  0
        //            0 30 20
        // load 60; active cells 3; max 30 at (x 1, y 1);
        // CoP x = (10·1 + 30·1 + 20·2)/60 = 80/60 = 1.333…, y = (30 + 20)/60 = 0.8333…
        let f = frame(2, 3, &[0, 10, 0, 0, 30, 20]);
        let s = f.region_stats(&f.full_region());
        assert_eq!(s.load, 60);
        assert_eq!(s.active_cells, 3);
        assert_eq!(s.maximum, Some(ActivePoint { x: 1, y: 1, z: 30 }));
        let [x, y] = s.center_of_pressure.unwrap();
        assert!((x - 80.0 / 60.0).abs() < 1e-12 && (y - 50.0 / 60.0).abs() < 1e-12);
    }

    #[test]
    fn cells_below_the_active_floor_load_but_are_not_active() {
        let f = frame(1, 3, &[1, 2, 0]);
        let s = f.region_stats(&f.full_region());
        assert_eq!((s.load, s.active_cells), (3, 1));
        assert_eq!(f.active_points(&f.full_region()), vec![ActivePoint { x: 1, y: 0, z: 2 }]);
        // The floor is the device's: a map of hub units (1 unit a step) needs 5.
        let mut capture = Capture::new(DeviceType::PodologyIoT, 1, 3);
        capture.push(0, frame(1, 3, &[1, 2, 0])).unwrap();
        assert_eq!(capture.frames()[0].frame.active_floor(), mat_protocol::scale::active_floor_steps(DeviceType::PodologyIoT).unwrap());
        let counted = frame(1, 3, &[4, 5, 0]).of_device(DeviceType::ForceMat);
        assert_eq!(counted.region_stats(&counted.full_region()).active_cells, 1);
    }

    #[test]
    fn mirror_reverses_each_row() {
        assert_eq!(frame(2, 3, &[1, 2, 3, 4, 5, 6]).mirrored(), frame(2, 3, &[3, 2, 1, 6, 5, 4]));
    }

    #[test]
    fn edge_warning_needs_an_active_edge_cell() {
        let mut cells = vec![0u16; 16];
        cells[5] = 200; // (1, 1): inside
        cells[4] = 1; // (1, 0): edge, below the active floor (two steps)
        assert!(!frame(4, 4, &cells).edge_is_active());
        cells[4] = 2;
        assert!(frame(4, 4, &cells).edge_is_active());
    }

    #[test]
    fn capture_checks_shape_and_time_and_averages() {
        let mut c = Capture::new(DeviceType::PodologyIoT, 1, 2);
        c.push(1000, frame(1, 2, &[10, 0])).unwrap();
        c.push(1500, frame(1, 2, &[21, 4])).unwrap();
        assert!(matches!(c.push(1400, frame(1, 2, &[0, 0])), Err(AnalysisError::TimestampsOutOfOrder { .. })));
        assert!(matches!(c.push(1600, frame(2, 1, &[0, 0])), Err(AnalysisError::ShapeMismatch { .. })));
        // Means (10+21)/2 = 15.5 → 16, (0+4)/2 = 2; peaks 21 and 4; 0.5 s long.
        assert_eq!(c.mean_map().cells(), &[16, 2]);
        assert_eq!(c.peak_map().cells(), &[21, 4]);
        assert_eq!(c.duration_s(), 0.5);
        let bytes = [7u8, 9];
        let map = PressureMap::new(1, 2, CellFormat::U8, &bytes).unwrap();
        c.push_map(1700, &map).unwrap();
        assert_eq!(c.frames()[2].frame.cells(), &[7, 9]);
    }
}
