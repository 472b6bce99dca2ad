//! Beds nobody lies in, which must read ABSENCE: an empty mat's sensor noise, a pillow, objects of
//! 2–5 kg left on the bed, and baseline drift. Pure generators of pressure in mmHg per cell, on a
//! grid whose cells are `pitch_cm` apart (a device's frame shape, with the bed's length spread
//! over its long side, as `real::place` lays a real body).
//!
//! The physics is the first approximation a mattress allows: an object's weight spreads over its
//! footprint (a rigid box evenly, a soft bag as a dome, heaviest in the middle), so its mean
//! pressure is weight ÷ footprint. A 3 kg bag on 200 cm² presses 3 × 9.81 N / 0.02 m² = 1.47 kPa
//! = 11 mmHg; a 5 kg bag on 30 × 40 cm presses 3.1 mmHg on average and about 6 at its middle.
//! Cells are area-averaged over the footprint (4 × 4 samples per cell), as a sensor cell reports
//! the mean pressure on its surface.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Pascals per mmHg.
const PASCAL_PER_MMHG: f32 = 133.322_39;
/// Standard gravity.
const G: f32 = 9.806_65;

/// How an object's weight spreads over its footprint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Footprint {
    /// Even pressure (a rigid flat base: a laptop, a box).
    Flat,
    /// Heaviest in the middle, zero at the rim (a soft bag or a pillow): a product of two
    /// parabolas, 2.25 × the mean at the centre.
    Dome,
}

/// Something on an unoccupied bed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Negative {
    /// Nothing: sensor noise, crosstalk spikes and one stuck cell at full scale.
    Empty,
    /// An object of `kg` on a `width_cm × length_cm` footprint, its corner at (`at_cm`, `at_cm`)
    /// from the head end and the left edge.
    Object { kg: f32, width_cm: f32, length_cm: f32, footprint: Footprint, at_cm: f32 },
    /// Every cell reading `offset_mmhg` too much, each with its own gain error (± `spread` of
    /// the offset) — a mat whose zero has crept.
    Drift { offset_mmhg: f32, spread: f32 },
    /// Drift growing linearly along the bed from 0 to `max_mmhg` (a mat warmed at one end).
    DriftGradient { max_mmhg: f32 },
}

/// The named cases the presence tests show (`simulator/tests/real_presence.rs`).
pub const CASES: [(&str, Negative); 12] = [
    ("empty mat, sensor noise", Negative::Empty),
    ("pillow, 1 kg on 50 × 70 cm", object(1.0, 50.0, 70.0, Footprint::Dome)),
    ("laptop, 2 kg on 33 × 23 cm", object(2.0, 33.0, 23.0, Footprint::Flat)),
    ("handbag, 3 kg on 200 cm²", object(3.0, 14.0, 14.3, Footprint::Flat)),
    ("weight, 5 kg on 20 × 20 cm", object(5.0, 20.0, 20.0, Footprint::Flat)),
    ("soft bag, 5 kg on 30 × 40 cm", object(5.0, 30.0, 40.0, Footprint::Dome)),
    ("soft bag, 5 kg on 25 × 35 cm", object(5.0, 25.0, 35.0, Footprint::Dome)),
    ("folded blanket, 5 kg on 60 × 40 cm", object(5.0, 60.0, 40.0, Footprint::Flat)),
    ("rucksack, 4 kg on 40 × 40 cm", object(4.0, 40.0, 40.0, Footprint::Dome)),
    ("drift, +2 mmHg ± 15 %", Negative::Drift { offset_mmhg: 2.0, spread: 0.15 }),
    ("drift, +6 mmHg ± 15 %", Negative::Drift { offset_mmhg: 6.0, spread: 0.15 }),
    ("drift, 0 → 4 mmHg along the bed", Negative::DriftGradient { max_mmhg: 4.0 }),
];

const fn object(kg: f32, width_cm: f32, length_cm: f32, footprint: Footprint) -> Negative {
    Negative::Object { kg, width_cm, length_cm, footprint, at_cm: 40.3 }
}

/// Sensor noise on every cell: ± this many mmHg, uniform.
pub const NOISE_MMHG: f32 = 0.3;
/// On the empty mat, the share of cells that read a spurious spike (crosstalk), up to
/// [`SPIKE_MAX_MMHG`].
pub const SPIKE_SHARE: f64 = 0.005;
/// Highest spurious spike, mmHg.
pub const SPIKE_MAX_MMHG: f32 = 20.0;
/// A stuck cell reads this (the real recordings have cells stuck at 300–400 mmHg).
pub const STUCK_MMHG: f32 = 300.0;

/// Renders `negative` on a `rows × cols` grid of `pitch_cm` cells, in mmHg, with sensor noise
/// seeded by `seed`. The long side runs along the bed (as in `real::place`).
pub fn render(negative: Negative, rows: usize, cols: usize, pitch_cm: f32, seed: u64) -> Vec<f32> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let stuck = rng.random_range(0..(rows * cols).max(1));
    let along_cols = mat_core::machine::posture::lies_along_columns(rows, cols);
    let long = rows.max(cols) as f32;
    let mut out = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        for c in 0..cols {
            // Position along the bed (from the head end) and across it, in cm.
            let (along, across) = if along_cols { (c, r) } else { (r, c) };
            let (a0, b0) = (along as f32 * pitch_cm, across as f32 * pitch_cm);
            let load = match negative {
                Negative::Empty => 0.0,
                Negative::Object { kg, width_cm, length_cm, footprint, at_cm } => {
                    cell_mean(a0, b0, pitch_cm, |a, b| object_pressure(kg, width_cm, length_cm, footprint, a - at_cm, b - at_cm))
                }
                Negative::Drift { offset_mmhg, spread } => offset_mmhg * (1.0 + spread * rng.random_range(-1.0f32..=1.0)),
                Negative::DriftGradient { max_mmhg } => max_mmhg * (along as f32 + 0.5) / long,
            };
            let noise = NOISE_MMHG * rng.random_range(-1.0f32..=1.0);
            let spike = if negative != Negative::Empty {
                0.0
            } else if r * cols + c == stuck {
                STUCK_MMHG
            } else if rng.random_bool(SPIKE_SHARE) {
                rng.random_range(0.0..SPIKE_MAX_MMHG)
            } else {
                0.0
            };
            out.push((load + spike + noise).max(0.0));
        }
    }
    out
}

/// Pressure (mmHg) at (`a`, `b`) cm from an object's corner, along and across the bed.
fn object_pressure(kg: f32, width_cm: f32, length_cm: f32, footprint: Footprint, a: f32, b: f32) -> f32 {
    if a < 0.0 || b < 0.0 || a >= length_cm || b >= width_cm {
        return 0.0;
    }
    let mean = kg * G / (width_cm * length_cm * 1e-4) / PASCAL_PER_MMHG;
    match footprint {
        Footprint::Flat => mean,
        Footprint::Dome => {
            let (u, v) = (2.0 * a / length_cm - 1.0, 2.0 * b / width_cm - 1.0);
            // ∫∫ (1 − u²)(1 − v²) over the square is 4/9 of its area: × 9/4 keeps the mean.
            mean * 2.25 * (1.0 - u * u) * (1.0 - v * v)
        }
    }
}

/// Mean of `f` over the cell whose corner is at (`a0`, `b0`), from 4 × 4 samples.
fn cell_mean(a0: f32, b0: f32, pitch: f32, f: impl Fn(f32, f32) -> f32) -> f32 {
    const N: usize = 4;
    let mut sum = 0.0;
    for i in 0..N {
        for j in 0..N {
            sum += f(a0 + (i as f32 + 0.5) * pitch / N as f32, b0 + (j as f32 + 0.5) * pitch / N as f32);
        }
    }
    sum / (N * N) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn total_kgf(map: &[f32], pitch_cm: f32) -> f32 {
        map.iter().sum::<f32>() * PASCAL_PER_MMHG * pitch_cm * pitch_cm * 1e-4 / G
    }

    #[test]
    fn an_object_puts_its_weight_on_the_mat() {
        for footprint in [Footprint::Flat, Footprint::Dome] {
            // The cells' mean pressures over a 4 cm grid, without noise.
            let mut sum = 0.0;
            for r in 0..48 {
                for c in 0..48 {
                    sum += cell_mean(c as f32 * 4.0, r as f32 * 4.0, 4.0, |a, b| {
                        object_pressure(5.0, 30.0, 40.0, footprint, a - 70.3, b - 70.3)
                    });
                }
            }
            let load = total_kgf(&[sum], 4.0);
            assert!((load - 5.0).abs() < 0.1, "{footprint:?}: {load}");
        }
    }

    #[test]
    fn the_handbag_presses_11_mmhg() {
        assert!((object_pressure(3.0, 14.0, 14.3, Footprint::Flat, 5.0, 5.0) - 10.99).abs() < 0.05);
        assert!((object_pressure(5.0, 30.0, 40.0, Footprint::Dome, 20.0, 15.0) - 6.9).abs() < 0.05);
        assert_eq!(object_pressure(5.0, 30.0, 40.0, Footprint::Dome, 41.0, 15.0), 0.0);
    }

    #[test]
    fn drift_gradient_runs_along_the_long_side() {
        let map = render(Negative::DriftGradient { max_mmhg: 4.0 }, 24, 48, 4.0, 2);
        let row_mean = |c: usize| (0..24).map(|r| map[r * 48 + c]).sum::<f32>() / 24.0;
        assert!(row_mean(47) > row_mean(0) + 3.0);
    }

    #[test]
    fn same_seed_same_map() {
        assert_eq!(render(CASES[9].1, 16, 16, 12.0, 7), render(CASES[9].1, 16, 16, 12.0, 7));
    }
}
