//! The presence check of spec §5, and the room-set reading rule.
//!
//! A map shows a person when, over its active cells (value ≥ [`ACTIVE_MIN`]), there are at least
//! 50 of them, their mean and median are at least 50, their standard deviation is at least 40 and
//! the largest 4-connected blob of active cells has at least 40 cells. Anything else is absence.
//! The spec does not say what "active" means; we use the same ≥ 5 floor as its contact-area rule
//! (§9), so that sensor noise of a few units never counts as a body.

use serde::{Deserialize, Serialize};

use super::pressure_map::PressureMap;

/// Smallest value of an active cell.
pub const ACTIVE_MIN: u16 = 5;
/// Minimum number of active cells.
pub const MIN_ACTIVE_POINTS: usize = 50;
/// Minimum mean of active cells.
pub const MIN_MEAN: f64 = 50.0;
/// Minimum median of active cells.
pub const MIN_MEDIAN: f64 = 50.0;
/// Minimum population standard deviation of active cells.
pub const MIN_STD_DEV: f64 = 40.0;
/// Minimum size of the largest 4-connected blob of active cells.
pub const MIN_BLOB: usize = 40;
/// Room-set sensors show presence when their latest reading exceeds this (spec §4, §9).
pub const ROOM_READING_THRESHOLD: u64 = 200;

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

/// The figures the decision was made on, for logs and tests.
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
}

impl PresenceStats {
    /// Applies the thresholds of spec §5.
    pub fn verdict(&self) -> Presence {
        let present = self.active_points >= MIN_ACTIVE_POINTS
            && self.mean >= MIN_MEAN
            && self.median >= MIN_MEDIAN
            && self.std_dev >= MIN_STD_DEV
            && self.largest_blob >= MIN_BLOB;
        if present { Presence::Present } else { Presence::Absent }
    }
}

/// Presence for room-set sensors and force channels: the latest reading (sum of channels).
pub fn reading_presence(reading: u64) -> Presence {
    if reading > ROOM_READING_THRESHOLD { Presence::Present } else { Presence::Absent }
}

/// Runs the map check, reusing its scratch buffers between frames so the per-frame path does
/// not allocate once the buffers have grown to the map size.
#[derive(Debug, Default)]
pub struct PresenceDetector {
    visited: Vec<bool>,
    stack: Vec<u32>,
    sorted: Vec<u16>,
}

impl PresenceDetector {
    /// A detector with empty scratch buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Presence or absence for one map.
    pub fn check(&mut self, map: &PressureMap<'_>) -> Presence {
        self.stats(map).verdict()
    }

    /// The figures of spec §5 for one map.
    pub fn stats(&mut self, map: &PressureMap<'_>) -> PresenceStats {
        let n = map.len();
        let mut count = 0usize;
        let mut sum = 0f64;
        let mut sum_sq = 0f64;
        let mut histogram = [0u32; 256];
        let mut small_values = true;
        for i in 0..n {
            let v = map.value(i);
            if v >= ACTIVE_MIN {
                count += 1;
                let f = f64::from(v);
                sum += f;
                sum_sq += f * f;
                if v < 256 {
                    histogram[v as usize] += 1;
                } else {
                    small_values = false;
                }
            }
        }
        if count == 0 {
            return PresenceStats { active_points: 0, mean: 0.0, median: 0.0, std_dev: 0.0, largest_blob: 0 };
        }
        let mean = sum / count as f64;
        let variance = (sum_sq / count as f64 - mean * mean).max(0.0);
        let median = if small_values { median_from_histogram(&histogram, count) } else { self.median_by_sort(map) };
        PresenceStats { active_points: count, mean, median, std_dev: variance.sqrt(), largest_blob: self.largest_blob(map) }
    }

    fn median_by_sort(&mut self, map: &PressureMap<'_>) -> f64 {
        self.sorted.clear();
        self.sorted.extend(map.values().filter(|&v| v >= ACTIVE_MIN));
        self.sorted.sort_unstable();
        let len = self.sorted.len();
        if len % 2 == 1 {
            f64::from(self.sorted[len / 2])
        } else {
            (f64::from(self.sorted[len / 2 - 1]) + f64::from(self.sorted[len / 2])) / 2.0
        }
    }

    fn largest_blob(&mut self, map: &PressureMap<'_>) -> usize {
        let (rows, cols) = (map.rows() as usize, map.cols() as usize);
        self.visited.clear();
        self.visited.resize(rows * cols, false);
        let mut largest = 0;
        for start in 0..rows * cols {
            if self.visited[start] || map.value(start) < ACTIVE_MIN {
                continue;
            }
            self.visited[start] = true;
            self.stack.clear();
            self.stack.push(start as u32);
            let mut size = 0;
            while let Some(cell) = self.stack.pop() {
                size += 1;
                let cell = cell as usize;
                let (r, c) = (cell / cols, cell % cols);
                let neighbours = [
                    (r > 0).then(|| cell - cols),
                    (r + 1 < rows).then(|| cell + cols),
                    (c > 0).then(|| cell - 1),
                    (c + 1 < cols).then(|| cell + 1),
                ];
                for next in neighbours.into_iter().flatten() {
                    if !self.visited[next] && map.value(next) >= ACTIVE_MIN {
                        self.visited[next] = true;
                        self.stack.push(next as u32);
                    }
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
    if count % 2 == 1 {
        f64::from(nth(count / 2))
    } else {
        (f64::from(nth(count / 2 - 1)) + f64::from(nth(count / 2))) / 2.0
    }
}

#[cfg(test)]
mod tests;
