//! The presence check of spec §5, and the room-set reading rule.
//!
//! A map shows a person when, over its active cells, there are at least 50 of them, their mean
//! and median are at least 50, their standard deviation is at least 40 and the largest
//! 4-connected blob of active cells has at least 40 cells. Anything else is absence.
//!
//! The numbers are in the hub's pressure unit (`protocol::scale`: 1 unit = 1000/255 Pa ≈ 0.0294
//! mmHg, the unit they were written for); a device's cells are converted with its documented
//! scale. The spec does not say what "active" means: the same cells as the §9 contact area and
//! every analysis (`mat_protocol::scale::active_floor_steps`, the one definition: at least
//! 0.147 mmHg, spec §9's 5 units — 5 kPa on a plate — and two steps of the device, one step being
//! quantisation noise; on a bed mat a step is 0.4 mmHg, so its active floor is 0.8 mmHg).
//! Bed mats that cover a whole bed also need a load of at least [`MIN_LOAD_KGF`] on the mat: the
//! spec's numbers alone pass a domed 5 kg bag (see `docs/decisions.md`).

use serde::{Deserialize, Serialize};

use super::pressure_map::{PressureMap, SKIP_BLOCK, byte_histogram};
use crate::analysis::units::{active_floor, cell_area_cm2};
use mat_protocol::CellFormat;
use mat_protocol::device_type::DeviceType;
use mat_protocol::scale::{PASCAL_PER_UNIT, active_floor_steps_for, is_bed_scale, units_per_cell};

/// Minimum number of active cells.
pub const MIN_ACTIVE_POINTS: usize = 50;
/// Minimum mean of active cells, hub units.
pub const MIN_MEAN: f64 = 50.0;
/// Minimum median of active cells, hub units.
pub const MIN_MEDIAN: f64 = 50.0;
/// Minimum population standard deviation of active cells, hub units.
pub const MIN_STD_DEV: f64 = 40.0;
/// Minimum size of the largest 4-connected blob of active cells.
pub const MIN_BLOB: usize = 40;
/// Smallest load a person puts on a bed mat that covers a whole bed, in kilograms-force: twice the
/// heaviest object we expect to be left on a bed (5 kg), a sixth of the lightest real frame of the
/// development set (61.7 kgf).
pub const MIN_LOAD_KGF: f64 = 10.0;
/// Room-set sensors show presence when their latest reading exceeds this (spec §4, §9).
pub const ROOM_READING_THRESHOLD: u64 = 200;
/// Standard gravity, N per kgf.
const STANDARD_GRAVITY: f64 = 9.806_65;

/// How a device's cells are read by the presence check: hub units per step, the active floor in
/// steps, and the load rule where it applies.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PresenceScale {
    units_per_cell: f64,
    active_floor: u16,
    load: Option<LoadRule>,
}

/// The load rule: kilograms-force that one step of one cell puts on the mat.
#[derive(Debug, Clone, Copy, PartialEq)]
struct LoadRule {
    kgf_per_step: f64,
}

impl PresenceScale {
    /// Cells in hub units (one unit per step), no load rule: the old mats' reading.
    pub fn unit() -> Self {
        Self::new(1.0, active_floor_steps_for(1.0), None)
    }

    /// The scale of a device type (`protocol::scale`); bed mats covering a whole bed get the load
    /// rule, from their cell area (`analysis::units`).
    pub fn for_device(device: DeviceType) -> Self {
        let units_per_cell = units_per_cell(device);
        let area_cm2 = cell_area_cm2(device);
        let whole_bed = is_bed_scale(device) && device.covers_a_whole_bed();
        let load = whole_bed.then(|| LoadRule { kgf_per_step: units_per_cell * PASCAL_PER_UNIT * area_cm2 * 1e-4 / STANDARD_GRAVITY });
        Self::new(units_per_cell, active_floor(device), load)
    }

    fn new(units_per_cell: f64, active_floor: u16, load: Option<LoadRule>) -> Self {
        PresenceScale { units_per_cell, active_floor, load }
    }

    /// Hub units per step of the device's cells.
    pub fn units_per_cell(&self) -> f64 {
        self.units_per_cell
    }

    /// The smallest active cell, in the device's steps.
    pub fn active_floor(&self) -> u16 {
        self.active_floor
    }
}

impl Default for PresenceScale {
    fn default() -> Self {
        Self::unit()
    }
}

/// PRESENCE or ABSENCE, as the device page shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Presence {
    #[serde(rename = "PRESENCE")]
    Present,
    #[serde(rename = "ABSENCE")]
    Absent,
}

impl Presence {
    /// The label of spec §4.
    pub fn label(self) -> &'static str {
        match self {
            Presence::Present => "PRESENCE",
            Presence::Absent => "ABSENCE",
        }
    }
}

/// The figures the decision was made on (pressures in hub units), for logs and tests.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PresenceStats {
    /// Active cells.
    pub active_points: usize,
    /// Mean of active cells (0 when none).
    pub mean: f64,
    /// Median of active cells (0 when none).
    pub median: f64,
    /// Population standard deviation of active cells (0 when none).
    pub std_dev: f64,
    /// Cells in the largest 4-connected blob of active cells.
    pub largest_blob: usize,
    /// Load of the active cells on the mat, kgf, for devices with the load rule.
    pub load_kgf: Option<f64>,
}

impl PresenceStats {
    /// Applies the thresholds of spec §5 (and the load rule where it applies).
    pub fn verdict(&self) -> Presence {
        let present = self.active_points >= MIN_ACTIVE_POINTS
            && self.mean >= MIN_MEAN
            && self.median >= MIN_MEDIAN
            && self.std_dev >= MIN_STD_DEV
            && self.largest_blob >= MIN_BLOB
            && self.load_kgf.is_none_or(|load| load >= MIN_LOAD_KGF);
        if present { Presence::Present } else { Presence::Absent }
    }
}

/// Presence for room-set sensors and force channels: the latest reading (sum of channels).
pub fn reading_presence(reading: u64) -> Presence {
    if reading > ROOM_READING_THRESHOLD { Presence::Present } else { Presence::Absent }
}

/// Runs the map check, reusing its scratch buffers between frames so the per-frame path does
/// not allocate once the buffers have grown to the map size.
///
/// One pass over the cells computes the statistics and an active-cell mask; the blob search then
/// floods over the mask, clearing cells as it visits them, so no cell is decoded twice.
#[derive(Debug, Default)]
pub struct PresenceDetector {
    scale: PresenceScale,
    active: Vec<bool>,
    stack: Vec<u32>,
    sorted: Vec<u16>,
}

/// The first active cell at or after `from`: blocks of [`SKIP_BLOCK`] with none are passed over
/// after one vectorised test (the empty mattress before the body).
fn next_active(active: &[bool], from: usize) -> Option<usize> {
    let rest = active.get(from..)?;
    let (blocks, tail) = rest.as_chunks::<SKIP_BLOCK>();
    for (k, block) in blocks.iter().enumerate() {
        if block.iter().fold(false, |any, &on| any | on) {
            return block.iter().position(|&on| on).map(|i| from + k * SKIP_BLOCK + i);
        }
    }
    tail.iter().position(|&on| on).map(|i| from + blocks.len() * SKIP_BLOCK + i)
}

/// Running sums of the first pass.
struct Sums {
    count: usize,
    sum: u64,
    sum_sq: u64,
    histogram: [u32; 256],
    wide: bool,
}

impl Default for Sums {
    fn default() -> Self {
        Sums { count: 0, sum: 0, sum_sq: 0, histogram: [0; 256], wide: false }
    }
}

impl Sums {
    /// The sums of the 8-bit cells at or above `floor`, without a branch per cell: their
    /// histogram first ([`byte_histogram`]), then the sums from its bins. The hub runs it on
    /// every frame (issue 26 item 1: the per-cell branch and the running sums were 8 % of the
    /// hub's CPU at 2,000 mats).
    fn of_bytes(cells: &[u8], floor: u8) -> Sums {
        let histogram = byte_histogram(cells, floor);
        let from = usize::from(floor);
        let mut sums = Sums::default();
        sums.histogram[from..].copy_from_slice(&histogram[from..]);
        // The totals in locals: summed into the struct's fields, they were kept in memory.
        let (mut count, mut sum, mut sum_sq) = (0u64, 0u64, 0u64);
        for (v, &n) in histogram.iter().enumerate().skip(from) {
            let (n, v) = (u64::from(n), v as u64);
            count += n;
            sum += n * v;
            sum_sq += n * v * v;
        }
        (sums.count, sums.sum, sums.sum_sq) = (count as usize, sum, sum_sq);
        sums
    }

    #[inline]
    fn add(&mut self, v: u16) {
        self.count += 1;
        self.sum += u64::from(v);
        self.sum_sq += u64::from(v) * u64::from(v);
        if v < 256 {
            self.histogram[v as usize] += 1;
        } else {
            self.wide = true;
        }
    }
}

impl PresenceDetector {
    /// A detector for cells in hub units (one unit per step, no load rule), with empty scratch
    /// buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// A detector reading cells with `scale` (see [`PresenceScale::for_device`]).
    pub fn with_scale(scale: PresenceScale) -> Self {
        PresenceDetector { scale, ..Self::default() }
    }

    /// The scale cells are read with.
    pub fn scale(&self) -> PresenceScale {
        self.scale
    }

    /// Presence or absence for one map.
    ///
    /// The same verdict as [`PresenceDetector::stats`], cheaper: the blob search is skipped when
    /// another criterion already fails, and stops once a blob reaches [`MIN_BLOB`] cells.
    pub fn check(&mut self, map: &PressureMap<'_>) -> Presence {
        self.figures(map, Some(MIN_BLOB)).verdict()
    }

    /// The figures of spec §5 for one map.
    pub fn stats(&mut self, map: &PressureMap<'_>) -> PresenceStats {
        self.figures(map, None)
    }

    /// The figures; with `enough`, the blob search only tells whether a blob reaches that size
    /// (and is skipped when another criterion fails), so `largest_blob` is a lower bound.
    fn figures(&mut self, map: &PressureMap<'_>, enough: Option<usize>) -> PresenceStats {
        let sums = self.first_pass(map);
        let load_kgf = self.scale.load.map(|rule| sums.sum as f64 * rule.kgf_per_step);
        if sums.count == 0 {
            return PresenceStats { active_points: 0, mean: 0.0, median: 0.0, std_dev: 0.0, largest_blob: 0, load_kgf };
        }
        let n = sums.count as f64;
        let mean = sums.sum as f64 / n;
        let variance = (sums.sum_sq as f64 / n - mean * mean).max(0.0);
        let median = if sums.wide { self.median_by_sort(map) } else { median_from_histogram(&sums.histogram, sums.count) };
        let std_dev = variance.sqrt();
        let k = self.scale.units_per_cell;
        let mut figures = PresenceStats {
            active_points: sums.count,
            mean: mean * k,
            median: median * k,
            std_dev: std_dev * k,
            largest_blob: 0,
            load_kgf,
        };
        let others_pass = PresenceStats { largest_blob: MIN_BLOB, ..figures }.verdict() == Presence::Present;
        if enough.is_none() || others_pass {
            figures.largest_blob = self.largest_blob(map.rows() as usize, map.cols() as usize, enough.unwrap_or(usize::MAX));
        }
        figures
    }

    /// Statistics of the active cells, and the active mask in `self.active`.
    fn first_pass(&mut self, map: &PressureMap<'_>) -> Sums {
        let mut sums = Sums::default();
        self.active.clear();
        match map.format() {
            CellFormat::U8 => {
                let floor = self.scale.active_floor.min(255) as u8;
                self.active.extend(map.bytes().iter().map(|&v| v >= floor));
                sums = Sums::of_bytes(map.bytes(), floor);
            }
            CellFormat::U16Le => {
                let floor = self.scale.active_floor;
                self.active.extend(map.values().map(|v| {
                    let on = v >= floor;
                    if on {
                        sums.add(v);
                    }
                    on
                }));
            }
        }
        sums
    }

    fn median_by_sort(&mut self, map: &PressureMap<'_>) -> f64 {
        self.sorted.clear();
        let floor = self.scale.active_floor;
        self.sorted.extend(map.values().filter(|&v| v >= floor));
        self.sorted.sort_unstable();
        let len = self.sorted.len();
        if len % 2 == 1 {
            f64::from(self.sorted[len / 2])
        } else {
            (f64::from(self.sorted[len / 2 - 1]) + f64::from(self.sorted[len / 2])) / 2.0
        }
    }

    /// Size of the largest 4-connected group of active cells, or the first size reaching `enough`;
    /// consumes the active mask.
    fn largest_blob(&mut self, rows: usize, cols: usize, enough: usize) -> usize {
        let mut largest = 0;
        let mut from = 0;
        while let Some(start) = next_active(&self.active[..rows * cols], from) {
            from = start + 1;
            self.active[start] = false;
            self.stack.clear();
            self.stack.push(start as u32);
            let mut size = 0;
            while let Some(cell) = self.stack.pop() {
                size += 1;
                if size >= enough {
                    return size;
                }
                let cell = cell as usize;
                let (r, c) = (cell / cols, cell % cols);
                if r > 0 && self.active[cell - cols] {
                    self.active[cell - cols] = false;
                    self.stack.push((cell - cols) as u32);
                }
                if r + 1 < rows && self.active[cell + cols] {
                    self.active[cell + cols] = false;
                    self.stack.push((cell + cols) as u32);
                }
                if c > 0 && self.active[cell - 1] {
                    self.active[cell - 1] = false;
                    self.stack.push((cell - 1) as u32);
                }
                if c + 1 < cols && self.active[cell + 1] {
                    self.active[cell + 1] = false;
                    self.stack.push((cell + 1) as u32);
                }
            }
            largest = largest.max(size);
        }
        largest
    }
}

/// Median of `count` values given their histogram: the middle value, or the mean of the two
/// middle values for an even count.
fn median_from_histogram(histogram: &[u32; 256], count: usize) -> f64 {
    let nth = |k: usize| -> u16 {
        let mut seen = 0usize;
        for (value, &n) in histogram.iter().enumerate() {
            seen += n as usize;
            if seen > k {
                return value as u16;
            }
        }
        255
    };
    if count % 2 == 1 { f64::from(nth(count / 2)) } else { (f64::from(nth(count / 2 - 1)) + f64::from(nth(count / 2))) / 2.0 }
}

#[cfg(test)]
mod tests;
