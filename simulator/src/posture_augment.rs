//! What other sensors do to a body, applied to the development set's real frames
//! (`../shared/data/pmd-dev/`, 64 × 32 cells): the augmentations the posture model is fitted and
//! measured under (docs/posture.md, "A confidence that holds").
//!
//! One [`Augmentation`] turns a real frame into the u8 cells a device grid receives, in this order:
//! the body moved on the sensor (shifted along and across, turned by a small angle), seen through
//! another sensor's grid (area-averaged onto e.g. 30 × 11 cells over the whole bed, and back: the
//! coarse cells as a hub resamples them onto its device grid), placed on the device's grid
//! ([`real::place`]), scaled to cells at a gain, then per cell: a gain error, additive noise, an
//! idle level left over after tare, and clipping at the sensor's saturation. Random parts are drawn
//! per frame from the seed, so a set of samples is reproducible.
//!
//! Pure: no I/O.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::real::{self, REAL_COLS, REAL_ROWS};

/// Another sensor's view of a body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Augmentation {
    /// Short name, for tables.
    pub name: &'static str,
    /// The other sensor's grid, cells along × across the whole bed (the development sensor's
    /// 64 × 32 cover the bed): the body is area-averaged onto it and back. `None`: the
    /// development sensor's own cells.
    pub sensor: Option<(usize, usize)>,
    /// The gain over the base gain is drawn in `gain.0..=gain.1` per frame.
    pub gain: (f32, f32),
    /// Idle level left on every cell after tare, mean steps (each cell 0.5–1.5 × the mean).
    pub offset: f32,
    /// Additive noise, ± steps per cell.
    pub noise: f32,
    /// Per-cell gain error, ± fraction.
    pub cell_gain: f32,
    /// Saturation: this fraction of the body's cells (those ≥ 1 step) reach the sensor's full
    /// scale and clip there (0: none; the u8 cell still clips at 255).
    pub saturate: f32,
    /// The body's size on the sensor, drawn in `zoom.0..=zoom.1` per frame: below 1 the sensor
    /// covers a longer, wider bed than the body (the development set's bodies fill 96–98 % of its
    /// 190 cm; a 160 cm patient on a 210 cm mat fills 76 %).
    pub zoom: (f32, f32),
    /// The body shifted along the bed by up to ± this fraction of the sensor's length.
    pub shift_along: f32,
    /// …and across by up to ± this fraction of its width.
    pub shift_across: f32,
    /// Turned by up to ± this many degrees.
    pub rotation_deg: f32,
}

/// The development sensor as it is: no augmentation.
pub const CLEAN: Augmentation = Augmentation {
    name: "clean",
    sensor: None,
    gain: (1.0, 1.0),
    offset: 0.0,
    noise: 0.0,
    cell_gain: 0.0,
    saturate: 0.0,
    zoom: (1.0, 1.0),
    shift_along: 0.0,
    shift_across: 0.0,
    rotation_deg: 0.0,
};

/// Every augmentation measured, [`CLEAN`] first. The last one combines them: a coarse sensor of
/// another make, at another gain, with residue, noise, clipping, shifted and turned.
pub const AUGMENTATIONS: [Augmentation; 13] = [
    CLEAN,
    Augmentation { name: "sensor 30×11", sensor: Some((30, 11)), ..CLEAN },
    Augmentation { name: "sensor 16×16", sensor: Some((16, 16)), ..CLEAN },
    Augmentation { name: "sensor 32×16", sensor: Some((32, 16)), ..CLEAN },
    Augmentation { name: "gain 0.5–2", gain: (0.5, 2.0), ..CLEAN },
    Augmentation { name: "idle residue 2 steps", offset: 2.0, ..CLEAN },
    Augmentation { name: "noise ±3, ±15 % gain", noise: 3.0, cell_gain: 0.15, ..CLEAN },
    Augmentation { name: "saturated (top 15 %)", saturate: 0.15, ..CLEAN },
    Augmentation { name: "smaller body 76–100 %", zoom: (0.76, 1.0), ..CLEAN },
    Augmentation { name: "shifted along ±6 %", shift_along: 0.06, ..CLEAN },
    Augmentation { name: "shifted across ±15 %", shift_across: 0.15, ..CLEAN },
    Augmentation { name: "turned ±6°", rotation_deg: 6.0, ..CLEAN },
    Augmentation {
        name: "30×11, all of them",
        sensor: Some((30, 11)),
        gain: (0.5, 2.0),
        offset: 1.5,
        noise: 2.0,
        cell_gain: 0.1,
        saturate: 0.05,
        zoom: (0.8, 1.0),
        shift_along: 0.04,
        shift_across: 0.1,
        rotation_deg: 4.0,
    },
];

/// Index in [`AUGMENTATIONS`] of a name.
pub fn index(name: &str) -> usize {
    AUGMENTATIONS.iter().position(|a| a.name == name).unwrap_or_else(|| panic!("no augmentation {name}"))
}

impl Augmentation {
    /// `frame` (raw 64 × 32) as a `rows × cols` device grid receives it at `base_gain` (raw
    /// units to cells), augmented with random draws from `seed`.
    pub fn cells(&self, frame: &[u16], rows: usize, cols: usize, base_gain: f32, seed: u64) -> Vec<u8> {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut sensor: Vec<f32> = frame.iter().map(|&v| f32::from(v)).collect();
        if self.shift_along > 0.0 || self.shift_across > 0.0 || self.rotation_deg > 0.0 || self.zoom != (1.0, 1.0) {
            let along = self.shift_along * REAL_ROWS as f32 * rng.random_range(-1.0f32..=1.0);
            let across = self.shift_across * REAL_COLS as f32 * rng.random_range(-1.0f32..=1.0);
            let angle = self.rotation_deg.to_radians() * rng.random_range(-1.0f32..=1.0);
            let zoom = if self.zoom.0 < self.zoom.1 { rng.random_range(self.zoom.0..=self.zoom.1) } else { self.zoom.0 };
            sensor = moved(&sensor, along, across, angle, zoom);
        }
        if let Some((along, across)) = self.sensor {
            let coarse = real::area_resample(&sensor, REAL_ROWS, REAL_COLS, along, across);
            sensor = real::area_resample(&coarse, along, across, REAL_ROWS, REAL_COLS);
        }
        let placed = real::place(&sensor, rows, cols);
        let gain = base_gain * if self.gain.0 < self.gain.1 { rng.random_range(self.gain.0..=self.gain.1) } else { self.gain.0 };
        let clip = if self.saturate > 0.0 {
            let mut body: Vec<f32> = placed.iter().map(|&raw| raw * gain).filter(|&v| v >= 1.0).collect();
            body.sort_by(f32::total_cmp);
            let at = ((1.0 - self.saturate) * body.len() as f32) as usize;
            body.get(at.min(body.len().saturating_sub(1))).copied().unwrap_or(255.0).clamp(1.0, 255.0).round()
        } else {
            255.0
        };
        placed
            .iter()
            .map(|&raw| {
                let mut v = raw * gain;
                if self.cell_gain > 0.0 {
                    v *= 1.0 + self.cell_gain * rng.random_range(-1.0f32..=1.0);
                }
                if self.noise > 0.0 {
                    v += self.noise * rng.random_range(-1.0f32..=1.0);
                }
                if self.offset > 0.0 {
                    v += self.offset * rng.random_range(0.5f32..=1.5);
                }
                v.round().clamp(0.0, clip) as u8
            })
            .collect()
    }
}

/// The 64 × 32 sensor's cells with the body scaled by `zoom`, turned by `angle` radians about the
/// sensor's centre and moved by `along` rows and `across` columns (bilinear; the cells the body
/// leaves are empty). A smaller body presses as hard: each cell keeps its pressure.
pub fn moved(sensor: &[f32], along: f32, across: f32, angle: f32, zoom: f32) -> Vec<f32> {
    let (cy, cx) = (REAL_ROWS as f32 / 2.0 - 0.5, REAL_COLS as f32 / 2.0 - 0.5);
    let (sin, cos) = angle.sin_cos();
    let at = |r: isize, c: isize| -> f32 {
        if r < 0 || c < 0 || r >= REAL_ROWS as isize || c >= REAL_COLS as isize { 0.0 } else { sensor[r as usize * REAL_COLS + c as usize] }
    };
    let mut out = vec![0.0f32; REAL_ROWS * REAL_COLS];
    for r in 0..REAL_ROWS {
        for c in 0..REAL_COLS {
            // Where this cell's content came from: undo the shift, then the turn.
            let (y, x) = (r as f32 - cy - along, c as f32 - cx - across);
            let (y, x) = (y / zoom, x / zoom);
            let (sy, sx) = (cos * y + sin * x + cy, -sin * y + cos * x + cx);
            let (r0, c0) = (sy.floor(), sx.floor());
            let (fy, fx) = (sy - r0, sx - c0);
            let (r0, c0) = (r0 as isize, c0 as isize);
            out[r * REAL_COLS + c] =
                (1.0 - fy) * ((1.0 - fx) * at(r0, c0) + fx * at(r0, c0 + 1)) + fy * ((1.0 - fx) * at(r0 + 1, c0) + fx * at(r0 + 1, c0 + 1));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame() -> Vec<u16> {
        (0..REAL_ROWS * REAL_COLS)
            .map(|i| if (10..50).contains(&(i / REAL_COLS)) && (10..22).contains(&(i % REAL_COLS)) { 400 } else { 0 })
            .collect()
    }

    #[test]
    fn clean_is_the_placed_frame_at_the_gain() {
        let f = frame();
        let placed = real::place(&f, 48, 48);
        let expected: Vec<u8> = placed.iter().map(|&v| (v * 0.25).round().clamp(0.0, 255.0) as u8).collect();
        assert_eq!(CLEAN.cells(&f, 48, 48, 0.25, 1), expected);
    }

    #[test]
    fn an_idle_residue_lies_on_every_cell_and_clipping_caps_the_body() {
        let f = frame();
        let residue = AUGMENTATIONS[index("idle residue 2 steps")].cells(&f, 48, 48, 0.25, 1);
        assert!(residue.iter().all(|&v| v >= 1), "every cell carries the residue");
        let ramp: Vec<u16> = f.iter().enumerate().map(|(i, &v)| if v > 0 { 100 + 10 * (i / REAL_COLS) as u16 } else { 0 }).collect();
        let clipped = AUGMENTATIONS[index("saturated (top 15 %)")].cells(&ramp, 48, 48, 0.25, 1);
        let (top, clean_top) = (clipped.iter().max().copied(), CLEAN.cells(&ramp, 48, 48, 0.25, 1).iter().max().copied());
        assert!(top < clean_top, "the body clips below its own peak: {top:?} vs {clean_top:?}");
        let at_top = clipped.iter().filter(|&&v| Some(v) == top).count();
        let body = clipped.iter().filter(|&&v| v > 0).count();
        assert!(at_top * 10 >= body, "a share of the body (at least a tenth) saturates: {at_top} of {body}");
    }

    #[test]
    fn a_coarse_sensor_keeps_the_load_and_blurs_the_outline() {
        let f = frame();
        let clean = CLEAN.cells(&f, 48, 48, 0.25, 1);
        let coarse = AUGMENTATIONS[index("sensor 30×11")].cells(&f, 48, 48, 0.25, 1);
        let total = |v: &[u8]| v.iter().map(|&x| f32::from(x)).sum::<f32>();
        assert!((total(&coarse) / total(&clean) - 1.0).abs() < 0.05, "{} vs {}", total(&coarse), total(&clean));
        let contact = |v: &[u8]| v.iter().filter(|&&x| x > 0).count();
        assert!(contact(&coarse) > contact(&clean), "the coarse cells spread the body's edge");
    }

    #[test]
    fn moving_shifts_and_turns_without_losing_an_inner_body() {
        let sensor: Vec<f32> = frame().iter().map(|&v| f32::from(v)).collect();
        let total = |v: &[f32]| v.iter().sum::<f32>();
        let shifted = moved(&sensor, 3.0, 2.0, 0.0, 1.0);
        assert_eq!(shifted[13 * REAL_COLS + 12], 400.0);
        assert_eq!(shifted[12 * REAL_COLS + 12], 0.0, "the body moved 3 rows down");
        let turned = moved(&sensor, 0.0, 0.0, 5f32.to_radians(), 1.0);
        assert!((total(&turned) / total(&sensor) - 1.0).abs() < 0.02);
        assert_ne!(turned, sensor);
        let smaller = moved(&sensor, 0.0, 0.0, 0.0, 0.8);
        assert!((total(&smaller) / total(&sensor) - 0.64).abs() < 0.05, "the area shrinks as zoom²");
    }
}
