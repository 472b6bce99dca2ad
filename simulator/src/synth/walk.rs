//! A patient walking across a plate, as in a gait lab: every few seconds a pass along the plate
//! (the toes point to row 0), the left foot landing near the back edge and the right one a step
//! ahead, each stance seen whole — heel strike, foot flat, heel off, push-off on the toes — at a
//! normal adult cadence. Between passes the patient is off the plate, walking round to start the
//! next pass in the same direction (a walkway loop), so each foot lands on the same spot every
//! time, as a clinician's repeated passes do.
//!
//! Pure: the walk is a function of the time since it began (`Walk::draw`).

use std::time::Duration;

use super::canvas::Canvas;
use super::feet::{FOOT_LENGTH_CM, FootLoads, FootPlacement, PlateScale, body_weight_n, draw_foot_carrying};
use super::script::smoothstep;

/// The gait of the simulated walker and the rhythm of the passes.
#[derive(Debug, Clone, PartialEq)]
pub struct WalkScript {
    /// From the start of the walk to the first foot landing: the patient starts two or three
    /// steps before the plate, as the tutorial says.
    pub first_contact: Duration,
    /// From one pass's first contact to the next one's.
    pub pass_period: Duration,
    /// One gait cycle (heel strike to the same foot's next heel strike): 1.1 s is a cadence of
    /// 109 steps a minute, a normal adult's.
    pub stride: Duration,
    /// The share of the cycle a foot is on the ground (about 62 % when walking).
    pub stance_share: f32,
    /// Step length (cm): heel to the other foot's heel along the walk.
    pub step_cm: f32,
    /// Step width (cm): between the two feet's long axes.
    pub step_width_cm: f32,
}

impl Default for WalkScript {
    fn default() -> Self {
        WalkScript {
            first_contact: Duration::from_millis(1_200),
            pass_period: Duration::from_millis(3_500),
            stride: Duration::from_millis(1_100),
            stance_share: 0.62,
            step_cm: 62.0,
            step_width_cm: 12.0,
        }
    }
}

/// A walk that began at some scenario time and lasts a given time (a dynamic capture's).
#[derive(Debug, Clone, PartialEq)]
pub struct Walk {
    /// Scenario time at which it began.
    pub began: Duration,
    /// How long the patient walks.
    pub lasts: Duration,
    pub script: WalkScript,
}

/// A pass must end this long before the walk does, so that no stance is cut by the capture's end.
const END_MARGIN: Duration = Duration::from_millis(800);
/// After the walk the patient stays off the plate this long before the standing script goes on:
/// a capture collects frames a little past its length (the hub's margin, the link's delay), and a
/// patient standing on the plate in its last frames would be a foot in the capture's peak map
/// where no step was.
const OFF_AFTER: Duration = Duration::from_secs(3);

impl WalkScript {
    /// One foot's stance.
    fn stance(&self) -> Duration {
        self.stride.mul_f32(self.stance_share)
    }

    /// From a pass's first contact to its last toe-off: half a stride, then the right foot's stance.
    pub fn pass_length(&self) -> Duration {
        self.stride / 2 + self.stance()
    }
}

impl Walk {
    /// Whether scenario time `t` falls within the walk (and the time off the plate after it).
    pub fn covers(&self, t: Duration) -> bool {
        t >= self.began && t < self.began + self.lasts + OFF_AFTER
    }

    /// The first contact of every pass that fits whole in the walk, relative to its start.
    pub fn pass_starts(&self) -> impl Iterator<Item = Duration> + '_ {
        let s = &self.script;
        (0u32..)
            .map(move |n| s.first_contact + s.pass_period * n)
            .take_while(move |start| *start + s.pass_length() + END_MARGIN <= self.lasts)
    }

    /// Draws the walker at scenario time `t` on `plate` (nothing between passes).
    pub fn draw(&self, canvas: &mut Canvas, t: Duration, plate: PlateScale) {
        let Some(w) = t.checked_sub(self.began) else { return };
        let s = &self.script;
        let Some(pass_start) = self.pass_starts().take_while(|start| *start <= w).last() else { return };
        let in_pass = (w - pass_start).as_secs_f32();
        let stance = s.stance().as_secs_f32();
        let rows = canvas.rows() as f32;
        let cols = canvas.cols() as f32;
        // The plate's own scale, unless a step and a foot would not fit in its rows.
        let k = (1.0 / plate.pitch_cm.max(0.1)).min(0.95 * rows / (s.step_cm + FOOT_LENGTH_CM));
        let back_heel = rows - 0.8;
        let middle = 0.5 * cols;
        let feet = [
            // Left: lands first, near the back edge.
            (0.0f32, back_heel, middle - 0.5 * s.step_width_cm * k, -1.0f32),
            // Right: half a stride later, a step ahead.
            (0.5 * s.stride.as_secs_f32(), back_heel - s.step_cm * k, middle + 0.5 * s.step_width_cm * k, 1.0),
        ];
        let fraction = |lands: f32| Some((in_pass - lands) / stance).filter(|p| (0.0..1.0).contains(p));
        // In double support the two feet share the body's weight: their forces together stay
        // within the first hump's 1.15 × body weight.
        let shares = feet.map(|(lands, ..)| fraction(lands).map_or(0.0, stance_force_share));
        let both = shares[0] + shares[1];
        let k_support = if both > DOUBLE_SUPPORT_MAX { DOUBLE_SUPPORT_MAX / both } else { 1.0 };
        for ((lands, heel_row, axis_col, outward), share) in feet.into_iter().zip(shares) {
            let Some(p) = fraction(lands) else { continue };
            let at = FootPlacement { heel_row, axis_col, outward, cells_per_cm: k };
            draw_stance(canvas, at, p, share * k_support * body_weight_n(), plate);
        }
    }
}

/// The heel strike's impact and the hallux's last push carry at least this share of body weight
/// while the foot is down (a contact the plate sees from its first frame).
pub const STANCE_MIN_SHARE: f32 = 0.2;

/// The most the two feet carry together in double support, as a share of body weight.
pub const DOUBLE_SUPPORT_MAX: f32 = 1.15;

/// The vertical force under one foot at fraction `p` (0..1) of its stance, as a share of body
/// weight: the walking ground reaction force's two humps (about 1.15 × body weight at a quarter
/// and at three quarters of the stance, 0.8 at mid-stance, zero at heel strike and toe-off),
/// `a·sin(πp) + b·sin(3πp)` with `a − b = 0.8` and `(a + b)/√2 = 1.15`. In double support the
/// two feet's forces sum to about the body's weight.
pub fn stance_force_share(p: f32) -> f32 {
    use std::f32::consts::PI;
    const A: f32 = 1.213;
    const B: f32 = 0.413;
    if !(0.0..1.0).contains(&p) {
        return 0.0;
    }
    (A * (PI * p).sin() + B * (3.0 * PI * p).sin()).max(STANCE_MIN_SHARE)
}

/// One foot at fraction `p` (0..1) of its stance: Perry's rockers in plantar pressure. Heel
/// strike on the back of the heel alone (0–14 %), the forefoot then lands and the foot is flat,
/// the heel and the lateral band lift off by 55 %, the metatarsal heads and toes push off (their
/// peak at 75–85 %), the hallux is the last to leave. The parts share the foot's force,
/// `newtons`.
fn draw_stance(canvas: &mut Canvas, at: FootPlacement, p: f32, newtons: f32, plate: PlateScale) {
    let rise = |from: f32, to: f32| smoothstep((p - from) / (to - from));
    let fall = |from: f32, to: f32| 1.0 - smoothstep((p - from) / (to - from));
    const FOREFOOT_LANDS: f32 = 0.14;
    const HEEL_OFF: f32 = 0.55;
    let s = FootLoads::STANDING;
    if p < FOREFOOT_LANDS {
        // Heel strike: only the back of the heel, spreading as it loads.
        let k = at.cells_per_cm;
        let spread = 0.75 + 0.25 * rise(0.0, FOREFOOT_LANDS);
        let mut heel = Canvas::new(canvas.rows(), canvas.cols());
        heel.splat(&super::canvas::Blob {
            y: at.heel_row - 3.4 * k,
            x: at.axis_col,
            ry: 3.2 * spread * k + 0.5,
            rx: 3.0 * spread * k + 0.5,
            peak: 1.0,
        });
        let drawn = plate.newtons(heel.values().iter().copied());
        if drawn > 0.0 {
            canvas.merge_scaled(&heel, newtons / drawn);
        }
        return;
    }
    let flat = rise(FOREFOOT_LANDS, 0.26).max(0.2);
    let push = 1.0 + 0.35 * (rise(0.55, 0.75) * fall(0.8, 0.88));
    let shape = FootLoads {
        heel: s.heel * 1.15 * fall(HEEL_OFF - 0.1, HEEL_OFF),
        midfoot: s.midfoot * flat * fall(HEEL_OFF - 0.1, HEEL_OFF),
        metatarsals: s.metatarsals * flat * push * fall(0.84, 0.93),
        hallux: s.hallux * rise(0.18, 0.32).max(0.2) * push * fall(0.96, 1.0).max(0.1),
        toes: s.toes * rise(0.18, 0.32).max(0.2) * push * fall(0.9, 0.97),
    };
    draw_foot_carrying(canvas, at, shape, newtons, plate);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::{MapSynth, Scenario, decode_cells};
    use mat_core::analysis::dynamic_podology::dynamic_podology;
    use mat_core::analysis::frame::{Capture, PressureFrame};
    use mat_protocol::CellFormat;
    use mat_protocol::device_type::DeviceType;

    /// The frames a 10 Hz stream of a plate sends from the moment a walk of `seconds` begins.
    fn walked_capture(seconds: u64, seed: u64) -> Capture {
        let scenario = Scenario::StandingFeet(super::super::FeetScript::default());
        let mut synth = MapSynth::new(48, 48, CellFormat::U8, scenario, seed);
        // The walk begins while the patient stands on the plate (12–72 s of the standing script),
        // and the capture, as the hub's, collects frames half a second past its length.
        let began = Duration::from_secs(20);
        synth.begin_walk(began, Duration::from_secs(seconds));
        let mut capture = Capture::new(DeviceType::PodologyIoT, 48, 48);
        for i in 0..seconds * 10 + 5 {
            let t = began + Duration::from_millis(i * 100);
            let cells = decode_cells(&synth.render(t), CellFormat::U8);
            capture.push(i * 100, PressureFrame::new(48, 48, cells).expect("frame")).expect("in order");
        }
        capture
    }

    #[test]
    fn a_fifteen_second_walk_gives_whole_steps_of_both_feet_with_their_rockers() {
        for seed in [1, 2, 3] {
            let result = dynamic_podology(&walked_capture(15, seed)).expect("a gait result");
            for (side, foot) in [("left", &result.left), ("right", &result.right)] {
                let whole = foot.stances.iter().filter(|s| s.rockers.is_some()).count();
                assert!(whole >= 2, "seed {seed}, {side}: {whole} whole stances of {:?}", foot.stances);
                assert_eq!(foot.error, None, "seed {seed}, {side}");
                let r = foot.rockers.expect("rockers");
                // A walker's stance (0.68 s at this cadence, sampled at 10 Hz) with three rockers.
                assert!((0.5..=0.9).contains(&r.stance_s), "seed {seed}, {side}: {r:?}");
                // Perry's rockers of a normal stance: a short heel rocker, then ankle and forefoot.
                assert!((8.0..=30.0).contains(&r.heel_rocker_share), "seed {seed}, {side}: {r:?}");
                assert!((20.0..=55.0).contains(&r.ankle_rocker_share), "seed {seed}, {side}: {r:?}");
                assert!((25.0..=60.0).contains(&r.forefoot_rocker_share), "seed {seed}, {side}: {r:?}");
            }
        }
    }

    #[test]
    fn the_feet_alternate_left_then_right_and_lift_between_passes() {
        let walk = Walk { began: Duration::ZERO, lasts: Duration::from_secs(15), script: WalkScript::default() };
        let starts: Vec<_> = walk.pass_starts().collect();
        assert_eq!(starts.len(), 4, "{starts:?}");
        let loaded = |t_ms: u64| {
            let mut canvas = Canvas::new(48, 48);
            walk.draw(&mut canvas, Duration::from_millis(t_ms), PlateScale::PODOLOGY);
            let v = canvas.values();
            let half = |cols: std::ops::Range<usize>| (0..48).flat_map(|r| cols.clone().map(move |c| r * 48 + c)).any(|i| v[i] >= 5.0);
            (half(0..24), half(24..48))
        };
        // First pass: left at 1.2 s, both in double support at 1.8 s, right alone at 2.1 s.
        assert_eq!(loaded(1_300), (true, false));
        assert_eq!(loaded(1_800), (true, true));
        assert_eq!(loaded(2_100), (false, true));
        // Off the plate between passes, and after the walk.
        assert_eq!(loaded(3_500), (false, false));
        assert_eq!(loaded(15_500), (false, false));
        assert!(walk.covers(Duration::from_millis(17_500)), "the patient stays off the plate a moment after the walk");
        assert!(!walk.covers(Duration::from_millis(18_000)));
    }
    #[test]
    fn walking_feet_carry_the_ground_reaction_force_with_plausible_peaks() {
        use crate::synth::{BODY_MASS_KG, STANDARD_GRAVITY};
        // The force on the plate is the walker's ground reaction force: up to about 1.2 × body
        // weight under one foot, never more than 1.3 (a walk, not a run), and the peak pressures
        // of barefoot walking at 2 cm cells (150–250 kPa: finer sensors read 300–600) below the
        // plate's 255 kPa ceiling.
        let capture = walked_capture(15, 4);
        let plate = PlateScale::PODOLOGY;
        let mut heaviest: f32 = 0.0;
        let mut peak = 0u16;
        for frame in capture.frames() {
            let cells = frame.frame.cells();
            let bw = plate.newtons(cells.iter().map(|&v| f32::from(v))) / (BODY_MASS_KG * STANDARD_GRAVITY);
            heaviest = heaviest.max(bw);
            peak = peak.max(*cells.iter().max().expect("cells"));
        }
        assert!((1.05..=1.2).contains(&heaviest), "{heaviest} × body weight");
        assert!((150..=250).contains(&peak), "walking peak {peak} kPa");
        assert!((stance_force_share(0.25) - 1.15).abs() < 0.01 && (stance_force_share(0.5) - 0.8).abs() < 0.01);
        assert_eq!(stance_force_share(1.0), 0.0);
        assert_eq!(stance_force_share(0.0), STANCE_MIN_SHARE);
    }
}
