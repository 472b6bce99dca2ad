//! A seated person (seating mats and the Health Mat; a saddle has its own rider, `saddle`): two
//! ischial peaks and the thighs, drawn in centimetres at the seat's distance between points, with
//! the weight drifting slowly left/right and forward/back, and now and then standing up.
//!
//! Map orientation: row 0 is the front edge of the seat (the knees), the last row the back, as the
//! seating analysis reads a seat (docs/analysis.md); column 0 is the sitter's left.

use std::f32::consts::TAU;
use std::time::Duration;

use super::canvas::{Blob, Canvas};
use super::script::{Script, Step, smoothstep};

/// A seat's distance between points when the device is not named (spec §9: 2 cm on seating mats).
pub const SEAT_CELL_CM: f32 = 2.0;
/// The ischial tuberosities' distance from the seat's back edge, sitting upright.
const ISCHIA_FROM_BACK_CM: f32 = 12.0;
/// How far the sway moves the body sideways and the ischia forward, at its extremes.
const SWAY_SIDE_CM: f32 = 1.0;
const SWAY_FORWARD_CM: f32 = 1.5;
/// The buttocks' broad pad, at its centre (steps: mmHg on a seat).
const SEAT_PAD_MMHG: f32 = 52.0;
/// Each ischial tuberosity's peak (the blobs do not add up: the highest is kept), the weight centred.
const ISCHIAL_MMHG: f32 = 115.0;
/// Each thigh's peak, the weight centred.
const THIGH_MMHG: f32 = 42.0;

/// The phases of the seating script, in cycle order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SeatPhase {
    /// Nobody on the seat.
    Empty,
    /// Sitting down.
    SittingDown,
    /// Seated, shifting weight slowly.
    Seated,
    /// Standing up.
    StandingUp,
}

impl SeatPhase {
    /// Whether a person is fully seated.
    pub fn occupied(self) -> bool {
        self == SeatPhase::Seated
    }
}

/// Durations and sway periods of the seating cycle.
#[derive(Debug, Clone, PartialEq)]
pub struct SeatScript {
    /// Empty seat at the start of each cycle.
    pub empty: Duration,
    /// Sitting down.
    pub sit_down: Duration,
    /// Seated.
    pub seated: Duration,
    /// Standing up.
    pub stand_up: Duration,
    /// Period of the left/right weight shift.
    pub sway_side: Duration,
    /// Period of the forward/back weight shift.
    pub sway_forward: Duration,
}

impl Default for SeatScript {
    fn default() -> Self {
        Self {
            empty: Duration::from_secs(15),
            sit_down: Duration::from_secs(2),
            seated: Duration::from_secs(90),
            stand_up: Duration::from_secs(2),
            sway_side: Duration::from_secs(23),
            sway_forward: Duration::from_secs(37),
        }
    }
}

impl SeatScript {
    /// The cycle as a [`Script`].
    pub fn script(&self) -> Script<SeatPhase> {
        Script::new(vec![
            (SeatPhase::Empty, self.empty),
            (SeatPhase::SittingDown, self.sit_down),
            (SeatPhase::Seated, self.seated),
            (SeatPhase::StandingUp, self.stand_up),
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

/// Draws the sitter for `step` at absolute scenario time `t` (the sway follows `t`, so it is
/// continuous across phases).
pub(crate) fn draw(canvas: &mut Canvas, script: &SeatScript, step: &Step<SeatPhase>, t: Duration, cell_cm: f32) {
    let load = match step.phase {
        SeatPhase::Empty => return,
        SeatPhase::SittingDown => smoothstep(step.fraction),
        SeatPhase::Seated => 1.0,
        SeatPhase::StandingUp => 1.0 - smoothstep(step.fraction),
    };
    if load <= 0.0 {
        return;
    }
    let side = 0.6 * wave(t, script.sway_side); // > 0: weight on the right
    let forward = 0.6 * wave(t, script.sway_forward); // > 0: leaning forward
    // The body is drawn in centimetres (an adult's size whatever the grid), from the seat's back
    // edge (its last row) and its middle; a cell is `cell_cm` square.
    let (depth, width) = (canvas.rows() as f32 * cell_cm, canvas.cols() as f32 * cell_cm);
    let middle = width / 2.0 + SWAY_SIDE_CM * side;
    // Leaning forward brings the ischia towards the front edge (row 0).
    let ischia = depth - ISCHIA_FROM_BACK_CM - SWAY_FORWARD_CM * forward;
    let left = 1.0 - 0.3 * side;
    let right = 1.0 + 0.3 * side;
    let thighs = 1.0 + 0.25 * forward;
    let at = |y_cm: f32, x_cm: f32, ry_cm: f32, rx_cm: f32, peak: f32| Blob {
        y: y_cm / cell_cm,
        x: x_cm / cell_cm,
        ry: ry_cm / cell_cm,
        rx: rx_cm / cell_cm,
        peak,
    };
    let blobs = [
        // Buttocks: the broad pad around the ischial tuberosities.
        at(depth - ISCHIA_FROM_BACK_CM, middle, 10.0, 17.0, SEAT_PAD_MMHG),
        // Ischial tuberosities, about 12 cm apart.
        at(ischia, middle - 6.0, 3.5, 3.0, ISCHIAL_MMHG * left),
        at(ischia, middle + 6.0, 3.5, 3.0, ISCHIAL_MMHG * right),
        // Thighs, from the buttocks to the front edge and beyond it on a small seat.
        at(depth - 31.0, middle - 8.5, 16.0, 6.5, THIGH_MMHG * left * thighs),
        at(depth - 31.0, middle + 8.5, 16.0, 6.5, THIGH_MMHG * right * thighs),
    ];
    for blob in &blobs {
        canvas.splat(&Blob { peak: blob.peak * load, ..*blob });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ischia_are_in_the_back_half_and_the_thighs_towards_row_0() {
        let script = SeatScript::default();
        let step =
            Step { phase: SeatPhase::Seated, index: 2, elapsed: Duration::from_secs(1), length: Duration::from_secs(2), fraction: 0.5 };
        let mut canvas = Canvas::new(16, 16);
        draw(&mut canvas, &script, &step, Duration::ZERO, SEAT_CELL_CM);
        let row_load = |r: usize| canvas.values()[r * 16..(r + 1) * 16].iter().sum::<f32>();
        let peak_row = (0..16).max_by(|&a, &b| row_load(a).total_cmp(&row_load(b))).unwrap();
        assert!(peak_row >= 8, "the ischial peak is in the back half (row {peak_row})");
        assert!(row_load(3) > 0.0, "the thighs load the front rows");
    }

    #[test]
    fn a_sitter_reads_as_an_adult_on_a_cushion_under_the_seats_full_scale() {
        let script = SeatScript::default();
        let seated = script.script();
        let (mut highest, mut means, mut areas) = (0.0f32, Vec::new(), Vec::new());
        // Every second of the seated phase, on the seats' grids (32 and 48 cm square at 2 cm):
        // the sway's extremes included.
        for second in 18..106 {
            let t = Duration::from_secs(second);
            let step = seated.at(t).expect("step");
            assert_eq!(step.phase, SeatPhase::Seated);
            for n in [16, 24] {
                let mut canvas = Canvas::new(n, n);
                draw(&mut canvas, &script, &step, t, SEAT_CELL_CM);
                let active: Vec<f32> = canvas.values().iter().copied().filter(|&v| v >= 2.0).collect();
                highest = highest.max(active.iter().copied().fold(0.0, f32::max));
                means.push(active.iter().sum::<f32>() / active.len() as f32);
                areas.push(active.len() as f32 * SEAT_CELL_CM * SEAT_CELL_CM);
                // The buttocks carry more than the thighs: most of the load is on the back half.
                let v = canvas.values();
                let back: f32 = v[n * n / 2..].iter().sum();
                assert!(back > 0.5 * v.iter().sum::<f32>(), "{n}×{n} at {second} s: the thighs carry more than the buttocks");
            }
        }
        // Steps are mmHg on a seat: ischial peaks of 100–200 mmHg, never the sensor's 255.
        assert!((100.0..230.0).contains(&highest), "highest {highest} mmHg");
        let mean = means.iter().sum::<f32>() / means.len() as f32;
        assert!((25.0..65.0).contains(&mean), "mean over the active cells {mean} mmHg");
        // An adult's buttocks and thighs: 600–1,100 cm² of the seat (a small seat cuts the thighs).
        let (least, most) = areas.iter().fold((f32::MAX, 0.0f32), |(a, b), &v| (a.min(v), b.max(v)));
        assert!(least >= 600.0 && most <= 1_100.0, "contact {least}–{most} cm²");
    }

    #[test]
    fn cycle_phases_at_expected_times() {
        let script = SeatScript::default().script();
        let at = |ms: u64| script.at(Duration::from_millis(ms)).map(|s| s.phase);
        assert_eq!(at(0), Some(SeatPhase::Empty));
        assert_eq!(at(15_000), Some(SeatPhase::SittingDown));
        assert_eq!(at(17_000), Some(SeatPhase::Seated));
        assert_eq!(at(106_999), Some(SeatPhase::Seated));
        assert_eq!(at(107_000), Some(SeatPhase::StandingUp));
        assert_eq!(at(109_000), Some(SeatPhase::Empty));
    }

    #[test]
    fn weight_shifts_between_sides() {
        let script = SeatScript::default();
        let step = |t| script.script().at(t).expect("step");
        let sums = |t: Duration| {
            let mut canvas = Canvas::new(16, 16);
            draw(&mut canvas, &script, &step(t), t, SEAT_CELL_CM);
            let v = canvas.values();
            let left: f32 = (0..16).flat_map(|r| (0..8).map(move |c| r * 16 + c)).map(|i| v[i]).sum();
            let right: f32 = (0..16).flat_map(|r| (8..16).map(move |c| r * 16 + c)).map(|i| v[i]).sum();
            (left, right)
        };
        // A quarter of the side period after a zero crossing the weight is on one side, three
        // quarters on the other.
        let quarter = script.sway_side.as_millis() as u64 / 4;
        let (l1, r1) = sums(Duration::from_millis(script.sway_side.as_millis() as u64 + quarter));
        let (l2, r2) = sums(Duration::from_millis(script.sway_side.as_millis() as u64 + 3 * quarter));
        assert!(r1 > l1 && l2 > r2, "{l1} {r1} {l2} {r2}");
    }
}
