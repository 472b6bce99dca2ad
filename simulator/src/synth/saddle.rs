//! One side of a Sensing Horse's saddle (a sub-device): the saddle panel's bearing surface along
//! the horse's back under a rider who mounts, rides at a walk and dismounts. Both sides follow one
//! timeline (the simulator gives horse sides no start offset), so they load and unload together
//! and the horse's walk rocks the rider's weight from one side to the other.
//!
//! Map orientation: row 0 is the front of the saddle (the withers), the last row the back; on the
//! left side the spine runs along the last column, on the right side along column 0.

use std::f32::consts::TAU;
use std::time::Duration;

use super::canvas::{Blob, Canvas};
use super::script::{Script, Step, smoothstep};

/// The phases of the riding script, in cycle order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SaddlePhase {
    /// Nobody in the saddle (the saddle's own weight is below the active floor).
    Empty,
    /// Mounting: the left stirrup first, so the left side loads first.
    Mounting,
    /// Riding at a walk.
    Riding,
    /// Dismounting.
    Dismounting,
}

impl SaddlePhase {
    /// Whether the rider is fully in the saddle.
    pub fn occupied(self) -> bool {
        self == SaddlePhase::Riding
    }
}

/// Durations of the riding cycle and the horse's stride.
#[derive(Debug, Clone, PartialEq)]
pub struct SaddleScript {
    pub empty: Duration,
    pub mounting: Duration,
    pub riding: Duration,
    pub dismounting: Duration,
    /// One stride of the horse's walk (about 1.1 s): the rider's weight rocks once left and right.
    pub stride: Duration,
}

impl Default for SaddleScript {
    fn default() -> Self {
        SaddleScript {
            empty: Duration::from_secs(12),
            mounting: Duration::from_secs(3),
            riding: Duration::from_secs(150),
            dismounting: Duration::from_secs(3),
            stride: Duration::from_millis(1_100),
        }
    }
}

impl SaddleScript {
    /// The cycle as a [`Script`].
    pub fn script(&self) -> Script<SaddlePhase> {
        Script::new(vec![
            (SaddlePhase::Empty, self.empty),
            (SaddlePhase::Mounting, self.mounting),
            (SaddlePhase::Riding, self.riding),
            (SaddlePhase::Dismounting, self.dismounting),
        ])
    }
}

/// Which side of the saddle a sub-device lies under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaddleSide {
    Left,
    Right,
}

impl SaddleSide {
    /// The side of a horse's sub-device by its serial (`SERIAL-0` left, `SERIAL-1` right: even
    /// members are left, odd right, spec §3); left when the serial does not say.
    pub fn of_serial(serial: &str) -> SaddleSide {
        match serial.rsplit('-').next().and_then(|n| n.parse::<u32>().ok()) {
            Some(n) if n % 2 == 1 => SaddleSide::Right,
            _ => SaddleSide::Left,
        }
    }
}

/// Draws the side's panel for `step` at scenario time `t`.
pub(crate) fn draw(canvas: &mut Canvas, script: &SaddleScript, step: &Step<SaddlePhase>, t: Duration, side: SaddleSide) {
    let f = step.fraction;
    // Mounting loads the left side first (the rider's left foot in the stirrup).
    let load = match (step.phase, side) {
        (SaddlePhase::Empty, _) => return,
        (SaddlePhase::Mounting, SaddleSide::Left) => smoothstep(1.5 * f),
        (SaddlePhase::Mounting, SaddleSide::Right) => smoothstep(2.0 * f - 0.8),
        (SaddlePhase::Riding, _) => 1.0,
        (SaddlePhase::Dismounting, SaddleSide::Left) => 1.0 - smoothstep(2.0 * f - 0.8),
        (SaddlePhase::Dismounting, SaddleSide::Right) => 1.0 - smoothstep(1.5 * f),
    };
    if load <= 0.0 {
        return;
    }
    let phase = if script.stride.is_zero() { 0.0 } else { (t.as_secs_f64() / script.stride.as_secs_f64()).fract() as f32 };
    let sign = if side == SaddleSide::Left { 1.0 } else { -1.0 };
    let rock = 1.0 + 0.18 * sign * (TAU * phase).sin();
    let rows = canvas.rows() as f32;
    let cols = canvas.cols() as f32;
    // The panel's bearing surface lies a little towards the spine.
    let x = if side == SaddleSide::Left { 0.56 * cols } else { 0.44 * cols };
    // A saddle panel bears on a band about 12–16 cm wide and 45 cm long beside the spine: with
    // its soft edge about 90 cells of 2.5 cm, ≈ 600 cm² a side, as saddle pressure mats read.
    let blobs = [
        // The whole panel in contact.
        Blob { y: 0.5 * rows, x, ry: 0.38 * rows, rx: 0.13 * cols, peak: 60.0 },
        // The tree points, under the front of the saddle.
        Blob { y: 0.24 * rows, x, ry: 0.12 * rows, rx: 0.11 * cols, peak: 130.0 },
        // Under the rider's seat bones.
        Blob { y: 0.52 * rows, x, ry: 0.15 * rows, rx: 0.12 * cols, peak: 190.0 },
        // Under the cantle.
        Blob { y: 0.76 * rows, x, ry: 0.1 * rows, rx: 0.1 * cols, peak: 95.0 },
    ];
    for blob in &blobs {
        canvas.splat(&Blob { peak: blob.peak * load * rock, ..*blob });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sum(side: SaddleSide, t: Duration) -> f32 {
        let script = SaddleScript::default();
        let mut canvas = Canvas::new(24, 24);
        if let Some(step) = script.script().at(t) {
            draw(&mut canvas, &script, &step, t, side);
        }
        canvas.values().iter().sum()
    }

    #[test]
    fn sides_are_told_by_the_serials_parity() {
        assert_eq!(SaddleSide::of_serial("DEMO-HORSE-01-0"), SaddleSide::Left);
        assert_eq!(SaddleSide::of_serial("DEMO-HORSE-01-1"), SaddleSide::Right);
        assert_eq!(SaddleSide::of_serial("SN-3"), SaddleSide::Right);
        assert_eq!(SaddleSide::of_serial("DEMO-HORSE-01-L"), SaddleSide::Left);
    }

    #[test]
    fn the_left_side_loads_first_and_the_walk_rocks_the_weight_between_sides() {
        let mounting = Duration::from_millis(12_600);
        assert!(sum(SaddleSide::Left, mounting) > 0.0 && sum(SaddleSide::Right, mounting) == 0.0);
        // A quarter stride into the ride the left side carries more, three quarters the right.
        let ride = Duration::from_millis(26_400); // 24 strides
        let quarter = Duration::from_millis(275);
        let (l1, r1) = (sum(SaddleSide::Left, ride + quarter), sum(SaddleSide::Right, ride + quarter));
        let (l2, r2) = (sum(SaddleSide::Left, ride + 3 * quarter), sum(SaddleSide::Right, ride + 3 * quarter));
        assert!(l1 > r1 && r2 > l2, "{l1} {r1} {l2} {r2}");
        assert_eq!(sum(SaddleSide::Left, Duration::from_secs(1)), 0.0, "empty saddle");
    }

    #[test]
    fn a_side_bears_on_a_saddle_panel_of_about_600_cm2() {
        let script = SaddleScript::default();
        let t = Duration::from_secs(60);
        let mut canvas = Canvas::new(24, 24);
        draw(&mut canvas, &script, &script.script().at(t).expect("riding"), t, SaddleSide::Left);
        let cm2 = canvas.values().iter().filter(|&&v| v >= 5.0).count() as f32 * 2.5 * 2.5;
        assert!((450.0..=800.0).contains(&cm2), "{cm2} cm²");
    }
}
