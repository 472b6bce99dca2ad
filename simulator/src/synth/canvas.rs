//! A floating-point pressure canvas with elliptical blobs, sensor noise and cell encoding.

use mat_protocol::CellFormat;
use rand::Rng;
use rand::rngs::SmallRng;

/// Smallest semi-axis of a blob, in cells: a thinner blob would fall between sensor centres.
pub const MIN_RADIUS_CELLS: f32 = 0.9;

/// Where the dome of a blob reaches its full height, as a fraction of `1 − d²` (`d` the
/// normalised elliptical distance). Below it the edge rises smoothly from zero, so the contact
/// patch has a soft border but most of its cells carry real load, as on a real mat.
const EDGE: f32 = 0.45;

/// Pressure values of one map before encoding, row-major, in the device's own units.
#[derive(Debug, Clone, PartialEq)]
pub struct Canvas {
    rows: usize,
    cols: usize,
    values: Vec<f32>,
}

/// One elliptical pressure patch, axis-aligned, in cell coordinates (cell `(r, c)` has its centre
/// at `(r + 0.5, c + 0.5)`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Blob {
    /// Centre row coordinate.
    pub y: f32,
    /// Centre column coordinate.
    pub x: f32,
    /// Semi-axis along the rows, in cells.
    pub ry: f32,
    /// Semi-axis along the columns, in cells.
    pub rx: f32,
    /// Value at the centre.
    pub peak: f32,
}

/// Height of a blob's dome at normalised squared distance `d2` (0 at the centre, 1 at the rim).
pub fn profile(d2: f32) -> f32 {
    let u = 1.0 - d2;
    if u <= 0.0 {
        return 0.0;
    }
    let s = (u / EDGE).min(1.0);
    let rise = s * s * (3.0 - 2.0 * s);
    rise * (0.7 + 0.3 * u)
}

impl Canvas {
    /// An all-zero canvas.
    pub fn new(rows: usize, cols: usize) -> Self {
        Self { rows, cols, values: vec![0.0; rows * cols] }
    }

    /// Rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The values, row-major.
    pub fn values(&self) -> &[f32] {
        &self.values
    }

    /// Sets every cell to zero, keeping the allocation.
    pub fn clear(&mut self) {
        self.values.fill(0.0);
    }

    /// Sets one cell (out-of-range coordinates are ignored).
    pub fn set(&mut self, row: usize, col: usize, value: f32) {
        if row < self.rows && col < self.cols {
            self.values[row * self.cols + col] = value;
        }
    }

    /// Draws a blob, keeping the larger of the existing value and the blob's at each cell: body
    /// parts overlap without their pressures piling up into saturation.
    pub fn splat(&mut self, blob: &Blob) {
        if blob.peak <= 0.0 || self.rows == 0 || self.cols == 0 {
            return;
        }
        let ry = blob.ry.max(MIN_RADIUS_CELLS);
        let rx = blob.rx.max(MIN_RADIUS_CELLS);
        let r0 = (blob.y - ry - 0.5).floor().max(0.0) as usize;
        let r1 = ((blob.y + ry - 0.5).ceil().max(0.0) as usize).min(self.rows - 1);
        let c0 = (blob.x - rx - 0.5).floor().max(0.0) as usize;
        let c1 = ((blob.x + rx - 0.5).ceil().max(0.0) as usize).min(self.cols - 1);
        if r0 > r1 || c0 > c1 {
            return;
        }
        for r in r0..=r1 {
            let dy = (r as f32 + 0.5 - blob.y) / ry;
            let row = &mut self.values[r * self.cols..(r + 1) * self.cols];
            for (c, cell) in row.iter_mut().enumerate().take(c1 + 1).skip(c0) {
                let dx = (c as f32 + 0.5 - blob.x) / rx;
                let v = blob.peak * profile(dy * dy + dx * dx);
                if v > *cell {
                    *cell = v;
                }
            }
        }
    }

    /// Lays `other` (same shape) times `k` over this canvas, keeping the larger value at each cell
    /// (as [`Canvas::splat`] does for one blob).
    pub fn merge_scaled(&mut self, other: &Canvas, k: f32) {
        for (cell, &v) in self.values.iter_mut().zip(&other.values) {
            let v = v * k;
            if v > *cell {
                *cell = v;
            }
        }
    }

    /// Adds sensor noise to a pressure-mat map (in the device's steps): a multiplicative ±`gain`
    /// jitter on loaded cells, a baseline of 0–`baseline` steps everywhere (below the active
    /// floor: 1 under the two-step floor of every pressure map; none on a kilopascal plate, see
    /// `synth::PLATE_BASELINE`), and rare isolated spikes of 5–15 as real sensors show (`spikes`;
    /// a plate's kilopascal step has none).
    pub fn add_mat_noise(&mut self, rng: &mut SmallRng, gain: f32, baseline: u8, spikes: bool) {
        let mut bits = 0u64;
        for (i, cell) in self.values.iter_mut().enumerate() {
            if i % 8 == 0 {
                bits = rng.random();
            }
            let byte = (bits >> ((i % 8) * 8)) as u8;
            let base = f32::from((byte & 3).min(baseline));
            if *cell > 0.0 {
                // Six bits of the byte as a uniform value in [-1, 1].
                let jitter = f32::from(byte >> 2) / 31.5 - 1.0;
                *cell *= 1.0 + gain * jitter;
            }
            *cell += base;
        }
        if !spikes {
            return;
        }
        let cells = self.values.len();
        let spikes = rng.random_range(0..=cells / 800);
        for _ in 0..spikes {
            let at = rng.random_range(0..cells);
            if self.values[at] < 5.0 {
                self.values[at] = rng.random_range(5.0..15.0);
            }
        }
    }

    /// Adds each cell's idle level (`idle` has one value per cell).
    pub fn add_idle_level(&mut self, idle: &[f32]) {
        for (cell, &level) in self.values.iter_mut().zip(idle) {
            *cell += level;
        }
    }

    /// Encodes the canvas as the `cells` byte string of a frame, clamping to `0..=max`.
    pub fn encode(&self, format: CellFormat, max: f32) -> Vec<u8> {
        let quantise = |v: f32| v.round().clamp(0.0, max);
        match format {
            CellFormat::U8 => self.values.iter().map(|&v| quantise(v.min(255.0)) as u8).collect(),
            CellFormat::U16Le => {
                let mut out = Vec::with_capacity(self.values.len() * 2);
                for &v in &self.values {
                    out.extend_from_slice(&(quantise(v.min(65_535.0)) as u16).to_le_bytes());
                }
                out
            }
        }
    }
}

/// Decodes a frame's cells back into values (tests, load-test sanity checks).
pub fn decode_cells(cells: &[u8], format: CellFormat) -> Vec<u16> {
    match format {
        CellFormat::U8 => cells.iter().map(|&b| u16::from(b)).collect(),
        CellFormat::U16Le => cells.chunks_exact(2).map(|p| u16::from_le_bytes([p[0], p[1]])).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn profile_is_full_height_at_centre_and_zero_outside() {
        assert!((profile(0.0) - 1.0).abs() < 1e-6);
        assert_eq!(profile(1.0), 0.0);
        assert_eq!(profile(1.5), 0.0);
        assert!(profile(0.9) > 0.0 && profile(0.9) < profile(0.5));
    }

    #[test]
    fn splat_is_clipped_to_the_canvas() {
        let mut canvas = Canvas::new(4, 5);
        canvas.splat(&Blob { y: 0.0, x: 4.8, ry: 3.0, rx: 3.0, peak: 100.0 });
        canvas.splat(&Blob { y: -50.0, x: -50.0, ry: 3.0, rx: 3.0, peak: 100.0 });
        assert!(canvas.values()[4] > 50.0);
        assert_eq!(canvas.values()[3 * 5], 0.0);
    }

    #[test]
    fn encoding_clamps_and_orders_little_endian() {
        let mut canvas = Canvas::new(1, 3);
        canvas.set(0, 0, -3.0);
        canvas.set(0, 1, 300.0);
        canvas.set(0, 2, 5000.0);
        assert_eq!(canvas.encode(CellFormat::U8, 255.0), vec![0, 255, 255]);
        let wide = canvas.encode(CellFormat::U16Le, 4095.0);
        assert_eq!(decode_cells(&wide, CellFormat::U16Le), vec![0, 300, 4095]);
    }

    #[test]
    fn noise_keeps_an_empty_mat_below_the_active_threshold_almost_everywhere() {
        let mut rng = SmallRng::seed_from_u64(7);
        let mut canvas = Canvas::new(48, 48);
        canvas.add_mat_noise(&mut rng, 0.06, 3, true);
        let active = canvas.values().iter().filter(|&&v| v >= 5.0).count();
        assert!(active <= 48 * 48 / 800, "{active} noisy cells");
    }
}
