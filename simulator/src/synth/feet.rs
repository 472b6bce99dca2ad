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

/// Draws the feet for `step` at absolute scenario time `t`.
pub(crate) fn draw(canvas: &mut Canvas, script: &FeetScript, step: &Step<FeetPhase>, t: Duration) {
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
    let heel = 1.0 - 0.3 * forward;
    let fore = 1.0 + 0.3 * forward;
    let drift = 0.01 * forward * rows;
    // Plates smaller than 48 cells have coarser sensors: inflate the patches so a foot still
    // presses as many sensors as a real one would (×1.5 on 24×24).
    let coarse = (48.0 / rows.min(cols)).clamp(1.0, 3.0).powf(0.6);
    for (centre, weight, outward) in [(FOOT_CENTRES[0], left_weight, -1.0f32), (FOOT_CENTRES[1], right_weight, 1.0)] {
        if weight <= 0.0 {
            continue;
        }
        let x = centre * cols;
        let dx = |fraction: f32| x + outward * fraction * cols;
        let blobs = [
            // Heel.
            Blob { y: 0.71 * rows - drift, x: dx(0.0), ry: 0.075 * rows, rx: 0.055 * cols, peak: 210.0 * heel },
            // Lateral midfoot band joining heel and forefoot.
            Blob { y: 0.55 * rows - drift, x: dx(0.025), ry: 0.12 * rows, rx: 0.035 * cols, peak: 95.0 },
            // Metatarsal heads.
            Blob { y: 0.38 * rows - drift, x: dx(0.005), ry: 0.06 * rows, rx: 0.075 * cols, peak: 185.0 * fore },
            // Hallux.
            Blob { y: 0.27 * rows - drift, x: dx(-0.035), ry: 0.035 * rows, rx: 0.03 * cols, peak: 140.0 * fore },
            // Lesser toes.
            Blob { y: 0.285 * rows - drift, x: dx(0.035), ry: 0.03 * rows, rx: 0.04 * cols, peak: 90.0 * fore },
        ];
        for blob in &blobs {
            canvas.splat(&Blob { peak: blob.peak * weight, ry: blob.ry * coarse, rx: blob.rx * coarse, ..*blob });
        }
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
        draw(&mut canvas, &script, &step, t);
        let v = canvas.values();
        let left: f32 = (0..48).flat_map(|r| (0..24).map(move |c| r * 48 + c)).map(|i| v[i]).sum();
        let right: f32 = (0..48).flat_map(|r| (24..48).map(move |c| r * 48 + c)).map(|i| v[i]).sum();
        assert!(left > 0.0 && right == 0.0, "{left} {right}");
    }
}
