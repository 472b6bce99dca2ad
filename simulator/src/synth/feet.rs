//! Two feet standing on a plate (podology, rehab, pressure and fitness mats): heel, lateral
//! midfoot, forefoot and toes for each foot, swaying, and now and then stepping off.
//!
//! Map orientation: row 0 is in front of the toes, the last row behind the heels; column 0 is
//! the person's left. The feet stand apart with a gap of more than five columns between them on
//! a 48×48 plate (the left/right split of the podology analysis needs a gap over 5).

use std::f32::consts::TAU;
use std::time::Duration;

use super::canvas::{Blob, Canvas};
use super::script::{Script, Step, smoothstep};

/// The phases of the standing script, in cycle order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FeetPhase {
    /// Nobody on the plate.
    Empty,
    /// Stepping on: the left foot first, then the right.
    SteppingOn,
    /// Standing and swaying.
    Standing,
    /// Stepping off: the right foot first, then the left.
    SteppingOff,
}

impl FeetPhase {
    /// Whether both feet are fully on the plate.
    pub fn occupied(self) -> bool {
        self == FeetPhase::Standing
    }
}

/// Durations and sway periods of the standing cycle.
#[derive(Debug, Clone, PartialEq)]
pub struct FeetScript {
    /// Empty plate at the start of each cycle.
    pub empty: Duration,
    /// Stepping on.
    pub step_on: Duration,
    /// Standing.
    pub standing: Duration,
    /// Stepping off.
    pub step_off: Duration,
    /// Period of the forward/back sway of the centre of pressure.
    pub sway_forward: Duration,
    /// Period of the left/right sway of the centre of pressure.
    pub sway_side: Duration,
}

impl Default for FeetScript {
    fn default() -> Self {
        Self {
            empty: Duration::from_secs(10),
            step_on: Duration::from_secs(2),
            standing: Duration::from_secs(60),
            step_off: Duration::from_secs(2),
            sway_forward: Duration::from_millis(4_300),
            sway_side: Duration::from_millis(6_100),
        }
    }
}

impl FeetScript {
    /// The cycle as a [`Script`].
    pub fn script(&self) -> Script<FeetPhase> {
        Script::new(vec![
            (FeetPhase::Empty, self.empty),
            (FeetPhase::SteppingOn, self.step_on),
            (FeetPhase::Standing, self.standing),
            (FeetPhase::SteppingOff, self.step_off),
        ])
    }
}

fn wave(t: Duration, period: Duration) -> f32 {
    if period.is_zero() {
        return 0.0;
    }
    let phase = (t.as_secs_f64() / period.as_secs_f64()).fract() as f32;
    (TAU * phase).sin()
}

/// Horizontal centre of each foot as a fraction of the columns.
pub const FOOT_CENTRES: [f32; 2] = [0.3, 0.7];

/// Length of the simulated adult foot, heel to toe tip (cm).
pub const FOOT_LENGTH_CM: f32 = 26.0;

/// Cell pitch of a plate whose device type gives none (cm): the podology plates' 2 cm.
pub const DEFAULT_PLATE_PITCH_CM: f32 = 2.0;

/// How hard each part of one foot presses, in the device's steps at the part's centre (0: off).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct FootLoads {
    pub heel: f32,
    /// The lateral band joining heel and forefoot (the arch leaves the medial side empty).
    pub midfoot: f32,
    pub metatarsals: f32,
    pub hallux: f32,
    pub toes: f32,
}

impl FootLoads {
    /// A foot standing flat: heel and metatarsal heads carry most, the lateral band little.
    pub const STANDING: FootLoads = FootLoads { heel: 210.0, midfoot: 80.0, metatarsals: 185.0, hallux: 140.0, toes: 90.0 };

    /// Every part times `k`.
    pub fn scaled(self, k: f32) -> FootLoads {
        FootLoads {
            heel: self.heel * k,
            midfoot: self.midfoot * k,
            metatarsals: self.metatarsals * k,
            hallux: self.hallux * k,
            toes: self.toes * k,
        }
    }
}

/// Where a foot is drawn: the rear edge of its heel (row coordinate; the toes point to row 0),
/// the column of its long axis, which side it is (−1 left, +1 right: lateral is outward) and the
/// plate's cells per cm.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FootPlacement {
    pub heel_row: f32,
    pub axis_col: f32,
    pub outward: f32,
    pub cells_per_cm: f32,
}

/// Draws one adult bare foot (26 cm long, forefoot 9.6 cm wide, heel 6.4 cm) as five pressed parts
/// laid out in cm from the back of the heel: heel, lateral midfoot band (no medial arch contact),
/// metatarsal heads, hallux and lesser toes. A plate's sensor reads the pressure over its whole
/// cell, so a part touches every cell it overlaps: each semi-axis is widened by half a cell.
pub fn draw_foot(canvas: &mut Canvas, at: FootPlacement, loads: FootLoads) {
    let k = at.cells_per_cm;
    let half_cell = 0.5;
    // (cm forward of the heel's back, cm outward of the axis, semi-axis along, across, load)
    let parts = [
        (4.2, 0.0, 3.8, 3.2, loads.heel),
        (11.0, 2.4, 4.8, 1.6, loads.midfoot),
        (18.3, 0.4, 2.6, 4.8, loads.metatarsals),
        (23.4, -2.6, 1.9, 1.6, loads.hallux),
        (22.6, 2.0, 1.4, 2.4, loads.toes),
    ];
    for (forward, out, along, across, peak) in parts {
        if peak <= 0.0 {
            continue;
        }
        canvas.splat(&Blob {
            y: at.heel_row - forward * k,
            x: at.axis_col + at.outward * out * k,
            ry: along * k + half_cell,
            rx: across * k + half_cell,
            peak,
        });
    }
}

/// Cells per cm for feet on a `rows`-row plate of `pitch_cm` cells: the plate's own, unless an
/// adult foot would not fit in 80 % of its rows (a small plate then shows a smaller foot).
pub fn cells_per_cm(rows: usize, pitch_cm: f32) -> f32 {
    let own = 1.0 / pitch_cm.max(0.1);
    own.min(0.8 * rows as f32 / FOOT_LENGTH_CM)
}

/// Draws the feet for `step` at absolute scenario time `t` on a plate of `pitch_cm` cells.
pub(crate) fn draw(canvas: &mut Canvas, script: &FeetScript, step: &Step<FeetPhase>, t: Duration, pitch_cm: f32) {
    let f = step.fraction;
    // Loads of the left and right foot (0..1).
    let (left_load, right_load) = match step.phase {
        FeetPhase::Empty => return,
        FeetPhase::SteppingOn => (smoothstep(2.0 * f), smoothstep(2.0 * f - 1.0)),
        FeetPhase::Standing => (1.0, 1.0),
        FeetPhase::SteppingOff => (1.0 - smoothstep(2.0 * f - 1.0), 1.0 - smoothstep(2.0 * f)),
    };
    let forward = 0.5 * wave(t, script.sway_forward); // > 0: weight towards the toes
    let side = 0.5 * wave(t, script.sway_side); // > 0: weight on the right foot
    // When one foot is still in the air, the other carries the whole weight.
    let (left_weight, right_weight) = (
        left_load * (1.0 - 0.3 * side) * if right_load < 1.0 { 1.0 + 0.3 * (1.0 - right_load) } else { 1.0 },
        right_load * (1.0 + 0.3 * side) * if left_load < 1.0 { 1.0 + 0.3 * (1.0 - left_load) } else { 1.0 },
    );
    let rows = canvas.rows() as f32;
    let cols = canvas.cols() as f32;
    let k = cells_per_cm(canvas.rows(), pitch_cm);
    // The feet stand in the middle of the plate, swaying a few mm forward and back.
    let heel_row = 0.5 * rows + 0.5 * FOOT_LENGTH_CM * k - 0.3 * forward * k;
    let (heel, fore) = (1.0 - 0.3 * forward, 1.0 + 0.3 * forward);
    for (centre, weight, outward) in [(FOOT_CENTRES[0], left_weight, -1.0f32), (FOOT_CENTRES[1], right_weight, 1.0)] {
        if weight <= 0.0 {
            continue;
        }
        let s = FootLoads::STANDING;
        let loads = FootLoads {
            heel: s.heel * heel,
            midfoot: s.midfoot,
            metatarsals: s.metatarsals * fore,
            hallux: s.hallux * fore,
            toes: s.toes * fore,
        };
        draw_foot(canvas, FootPlacement { heel_row, axis_col: centre * cols, outward, cells_per_cm: k }, loads.scaled(weight));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cycle_phases_at_expected_times() {
        let script = FeetScript::default().script();
        let at = |ms: u64| script.at(Duration::from_millis(ms)).map(|s| s.phase);
        assert_eq!(at(0), Some(FeetPhase::Empty));
        assert_eq!(at(10_000), Some(FeetPhase::SteppingOn));
        assert_eq!(at(12_000), Some(FeetPhase::Standing));
        assert_eq!(at(72_000), Some(FeetPhase::SteppingOff));
        assert_eq!(at(74_000), Some(FeetPhase::Empty));
    }

    #[test]
    fn stepping_on_puts_the_left_foot_down_first() {
        let script = FeetScript::default();
        let t = Duration::from_millis(10_800);
        let step = script.script().at(t).expect("step");
        let mut canvas = Canvas::new(48, 48);
        draw(&mut canvas, &script, &step, t, DEFAULT_PLATE_PITCH_CM);
        let v = canvas.values();
        let left: f32 = (0..48).flat_map(|r| (0..24).map(move |c| r * 48 + c)).map(|i| v[i]).sum();
        let right: f32 = (0..48).flat_map(|r| (24..48).map(move |c| r * 48 + c)).map(|i| v[i]).sum();
        assert!(left > 0.0 && right == 0.0, "{left} {right}");
    }
}
