//! A person in bed (mattress, floor and sleep mats): lying down, turning, leaving and returning.
//!
//! The body is a set of elliptical contact patches (head, shoulders, back, pelvis, buttocks,
//! thighs, calves, heels) placed in body coordinates and laid along the longer side of the map,
//! so the same script fits 48×48, 24×48, 16×16 or any other shape. Each posture is a list of
//! patches with the same indices; a turn interpolates between two postures.

use std::time::Duration;

use super::canvas::{Blob, Canvas};
use super::script::{Script, Step, lerp, smoothstep};
use crate::real;

/// The phases of the bed script, in cycle order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BedPhase {
    /// Nobody in bed (the cycle starts here; it is also the "away" period).
    Empty,
    /// Getting into bed, ending supine.
    LyingDown,
    /// Lying still on the back.
    Supine,
    /// Turning from supine to the left side.
    TurningLeft,
    /// Lying on the left side.
    LeftLateral,
    /// Turning from the left to the right side.
    TurningRight,
    /// Lying on the right side.
    RightLateral,
    /// Turning from the right side onto the belly.
    TurningProne,
    /// Lying on the belly.
    Prone,
    /// Getting out of bed.
    Leaving,
}

impl BedPhase {
    /// Whether a person is fully lying on the mat (not empty, not getting in or out).
    pub fn occupied(self) -> bool {
        !matches!(self, BedPhase::Empty | BedPhase::LyingDown | BedPhase::Leaving)
    }
}

/// Durations of each phase of the bed cycle.
#[derive(Debug, Clone, PartialEq)]
pub struct BedScript {
    /// Empty bed at the start of each cycle (after leaving, this is the time away).
    pub empty: Duration,
    /// Getting into bed.
    pub lie_down: Duration,
    /// Lying supine.
    pub supine: Duration,
    /// Each of the three turns.
    pub turn: Duration,
    /// Lying on the left side.
    pub left_lateral: Duration,
    /// Lying on the right side.
    pub right_lateral: Duration,
    /// Lying prone.
    pub prone: Duration,
    /// Getting out of bed.
    pub leave: Duration,
}

impl Default for BedScript {
    fn default() -> Self {
        Self {
            empty: Duration::from_secs(20),
            lie_down: Duration::from_secs(4),
            supine: Duration::from_secs(60),
            turn: Duration::from_secs(4),
            left_lateral: Duration::from_secs(45),
            right_lateral: Duration::from_secs(45),
            prone: Duration::from_secs(30),
            leave: Duration::from_secs(4),
        }
    }
}

impl BedScript {
    /// The cycle as a [`Script`].
    pub fn script(&self) -> Script<BedPhase> {
        Script::new(vec![
            (BedPhase::Empty, self.empty),
            (BedPhase::LyingDown, self.lie_down),
            (BedPhase::Supine, self.supine),
            (BedPhase::TurningLeft, self.turn),
            (BedPhase::LeftLateral, self.left_lateral),
            (BedPhase::TurningRight, self.turn),
            (BedPhase::RightLateral, self.right_lateral),
            (BedPhase::TurningProne, self.turn),
            (BedPhase::Prone, self.prone),
            (BedPhase::Leaving, self.leave),
        ])
    }
}

/// One contact patch in body coordinates.
///
/// `a` runs from the top of the head (0) to the heels (1) in units of body length; `b` runs
/// across the body in units of half the body width (negative = the person's left); `ra` and
/// `rb` are semi-axes as fractions of body length and body width; `peak` is in mmHg.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Part {
    a: f32,
    b: f32,
    ra: f32,
    rb: f32,
    peak: f32,
}

const fn p(a: f32, b: f32, ra: f32, rb: f32, peak: f32) -> Part {
    Part { a, b, ra, rb, peak }
}

const PARTS: usize = 15;

// Measured on real maps (`cargo run -p simulator --example measure_bodies`, the development set
// S1–S4 placed on 48 × 24 cells of 4 cm, mmHg; 95th percentile of the contact cells per band):
//
// | posture | contact cells | median | mean | p90 | head, shoulders, back, pelvis, thighs, calves, heels | leg offset | left share |
// |---|---|---|---|---|---|---|---|
// | supine | 551 | 5.1 | 7.4 | 17.2 | 17.7, 18.4, 17.3, 26.6, 6.8, 14.4, 10.9 | +0.065 | 0.59 |
// | left side | 447 | 6.8 | 10.4 | 23.9 | 12.8, 42.0, 22.3, 42.2, 17.1, 15.0, 8.5 | −0.074 | 0.50 |
// | right side | 429 | 7.1 | 12.3 | 29.8 | 17.5, 46.2, 24.1, 59.4, 16.5, 18.5, 13.4 | +0.126 | 0.69 |
//
// Real bodies load a wide area lightly (half the body's rectangle at a median of 5–7 mmHg), with
// a few bony peaks: the parts below are those peaks, over two broad, light base patches (torso and
// legs). The legs do not lie on the torso's line (offset as a fraction of the 24 columns: supine
// legs 0.065 towards the person's right, i.e. 0.22 half-widths) and a supine body is not
// symmetric (59 % of the load on the left half). Per subject (supine) the leg offset runs from
// +0.007 to +0.113 and the left share from 0.48 to 0.65: the simulator draws the mean person.
// Prone has no real recording: its parts keep the supine scale.

/// Sideways offset of a supine body's legs from its torso line, in half body widths (measured).
const SUPINE_LEG_OFFSET: f32 = 0.22;
/// Where a supine body lies across the mat, as a fraction of its short side (towards the person's
/// left): with the load asymmetry below, the measured 59 % of the load on the left half.
const SUPINE_SHIFT: f32 = -0.05;
/// Load of the left parts over the right ones when supine.
const SUPINE_LEFT: f32 = 1.15;
const SUPINE_RIGHT: f32 = 0.85;

/// Lying on the back: separate head, two shoulder blades, the back, a sacral peak between the
/// buttocks, thighs, calves and two heel peaks, over the light torso and leg patches.
const SUPINE: [Part; PARTS] = [
    p(0.065, 0.0, 0.055, 0.30, 20.0),                                     // head (occiput)
    p(0.20, -0.55, 0.065, 0.24, 21.0 * SUPINE_LEFT),                      // left shoulder blade
    p(0.20, 0.55, 0.065, 0.24, 21.0 * SUPINE_RIGHT),                      // right shoulder blade
    p(0.31, 0.0, 0.12, 0.42, 12.0),                                       // back
    p(0.47, 0.0, 0.07, 0.30, 30.0),                                       // sacrum
    p(0.46, -0.40, 0.08, 0.26, 24.0 * SUPINE_LEFT),                       // left buttock
    p(0.46, 0.40, 0.08, 0.26, 24.0 * SUPINE_RIGHT),                       // right buttock
    p(0.62, -0.32 + SUPINE_LEG_OFFSET, 0.115, 0.15, 8.0 * SUPINE_LEFT),   // left thigh
    p(0.62, 0.32 + SUPINE_LEG_OFFSET, 0.115, 0.15, 8.0 * SUPINE_RIGHT),   // right thigh
    p(0.82, -0.30 + SUPINE_LEG_OFFSET, 0.095, 0.12, 16.0 * SUPINE_LEFT),  // left calf
    p(0.82, 0.30 + SUPINE_LEG_OFFSET, 0.095, 0.12, 16.0 * SUPINE_RIGHT),  // right calf
    p(0.955, -0.30 + SUPINE_LEG_OFFSET, 0.035, 0.11, 13.0 * SUPINE_LEFT), // left heel
    p(0.955, 0.30 + SUPINE_LEG_OFFSET, 0.035, 0.11, 13.0 * SUPINE_RIGHT), // right heel
    p(0.33, 0.0, 0.27, 0.75, 5.5),                                        // torso, light and broad
    p(0.76, SUPINE_LEG_OFFSET, 0.22, 0.60, 3.5),                          // legs, light and broad
];

/// Lying on the left side: one shoulder and one hip (greater trochanter) carry the load and the
/// contact strip is narrow. Having rolled onto the left side, the person faces their former left
/// (negative `b`); the hips and knees are bent, so the legs lie in front of the torso's line,
/// towards that side, the upper (right) leg furthest forward, resting on the mattress.
const LEFT_LATERAL: [Part; PARTS] = [
    p(0.07, -0.35, 0.06, 0.35, 10.0),  // head (ear), curled forward
    p(0.20, 0.20, 0.05, 0.22, 55.0),   // left shoulder (underneath), at the back of the footprint
    p(0.16, -0.70, 0.06, 0.22, 6.0),   // arms resting in front of the chest and face
    p(0.31, 0.15, 0.12, 0.30, 16.0),   // flank
    p(0.47, 0.20, 0.07, 0.22, 26.0),   // pelvis
    p(0.46, 0.25, 0.055, 0.22, 44.0),  // left hip (trochanter), at the back of the footprint
    p(0.50, 0.45, 0.06, 0.15, 6.0),    // buttock, behind, light
    p(0.62, 0.05, 0.12, 0.18, 12.0),   // left thigh (underneath, nearly straight)
    p(0.64, -0.35, 0.08, 0.15, 10.0),  // right thigh (the upper leg, bent forward, resting)
    p(0.80, -0.05, 0.10, 0.14, 10.0),  // left lower leg
    p(0.72, -0.50, 0.04, 0.10, 26.0),  // right knee, resting in front
    p(0.95, -0.20, 0.035, 0.12, 10.0), // left ankle
    p(0.94, -0.30, 0.03, 0.10, 8.0),   // right foot
    p(0.33, 0.0, 0.27, 0.60, 6.0),     // torso, light
    p(0.76, -0.15, 0.20, 0.50, 4.0),   // legs, light
];

/// Lying on the belly: face turned, chest, iliac crests, knees and the tops of the feet (no real
/// recording: the supine scale).
const PRONE: [Part; PARTS] = [
    p(0.07, 0.10, 0.05, 0.26, 16.0),   // face (turned)
    p(0.22, -0.42, 0.07, 0.26, 22.0),  // left chest
    p(0.22, 0.42, 0.07, 0.26, 22.0),   // right chest
    p(0.32, 0.0, 0.11, 0.40, 12.0),    // belly
    p(0.47, 0.0, 0.06, 0.22, 15.0),    // pubis
    p(0.45, -0.42, 0.075, 0.22, 28.0), // left iliac crest
    p(0.45, 0.42, 0.075, 0.22, 28.0),  // right iliac crest
    p(0.62, -0.30, 0.11, 0.15, 13.0),  // left thigh
    p(0.62, 0.30, 0.11, 0.15, 13.0),   // right thigh
    p(0.75, -0.30, 0.05, 0.14, 28.0),  // left knee
    p(0.75, 0.30, 0.05, 0.14, 28.0),   // right knee
    p(0.92, -0.30, 0.07, 0.10, 14.0),  // left foot (dorsum)
    p(0.92, 0.30, 0.07, 0.10, 14.0),   // right foot (dorsum)
    p(0.33, 0.0, 0.27, 0.95, 5.5),     // torso, light and broad
    p(0.76, 0.0, 0.22, 0.75, 3.5),     // legs, light and broad
];

/// The posture with every part pressing `k` times as hard.
fn scaled(parts: &[Part; PARTS], k: f32) -> [Part; PARTS] {
    parts.map(|part| Part { peak: part.peak * k, ..part })
}

/// The posture mirrored across the body axis (left side ↔ right side).
fn mirrored(parts: &[Part; PARTS]) -> [Part; PARTS] {
    let mut out = *parts;
    for part in &mut out {
        part.b = -part.b;
    }
    out
}

/// A body posture with a load factor (0 = nobody, 1 = full weight) and a sideways shift of the
/// whole body as a fraction of the map's width.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Pose {
    parts: [Part; PARTS],
    load: f32,
    shift: f32,
}

fn blend(a: &[Part; PARTS], b: &[Part; PARTS], t: f32) -> [Part; PARTS] {
    let mut out = *a;
    for (o, (pa, pb)) in out.iter_mut().zip(a.iter().zip(b.iter())) {
        *o = Part {
            a: lerp(pa.a, pb.a, t),
            b: lerp(pa.b, pb.b, t),
            ra: lerp(pa.ra, pb.ra, t),
            rb: lerp(pa.rb, pb.rb, t),
            peak: lerp(pa.peak, pb.peak, t),
        };
    }
    out
}

/// Sideways position of a body lying on its right side (mirrored for the left), as a fraction of
/// the short side, negative towards the person's left: chosen so that the load, shoulder and hip at
/// the back and knees in front included, is centred as measured (50 % on each half lying on the
/// left side).
const LATERAL_SHIFT: f32 = 0.015;
/// Load of the side-lying parts (their peaks are those of the mean body, scaled to the measured
/// 90th percentile of a side-lying body's contact cells).
const LATERAL_LOAD: f32 = 1.35;

fn pose(step: &Step<BedPhase>) -> Option<Pose> {
    let f = step.fraction;
    let turn = smoothstep(f);
    // While turning, part of the weight is on the arms and the mattress edge: a brief dip.
    let turning_load = 1.0 - 0.05 * (std::f32::consts::PI * f).sin();
    let left = scaled(&LEFT_LATERAL, LATERAL_LOAD);
    let right = mirrored(&left);
    let pose = match step.phase {
        BedPhase::Empty => return None,
        BedPhase::LyingDown => Pose { parts: SUPINE, load: smoothstep(f), shift: SUPINE_SHIFT },
        BedPhase::Supine => Pose { parts: SUPINE, load: 1.0, shift: SUPINE_SHIFT },
        BedPhase::TurningLeft => {
            Pose { parts: blend(&SUPINE, &left, turn), load: turning_load, shift: lerp(SUPINE_SHIFT, -LATERAL_SHIFT, turn) }
        }
        BedPhase::LeftLateral => Pose { parts: left, load: 1.0, shift: -LATERAL_SHIFT },
        BedPhase::TurningRight => {
            Pose { parts: blend(&left, &right, turn), load: turning_load, shift: lerp(-LATERAL_SHIFT, LATERAL_SHIFT, turn) }
        }
        BedPhase::RightLateral => Pose { parts: right, load: 1.0, shift: LATERAL_SHIFT },
        BedPhase::TurningProne => Pose { parts: blend(&right, &PRONE, turn), load: turning_load, shift: lerp(LATERAL_SHIFT, 0.0, turn) },
        BedPhase::Prone => Pose { parts: PRONE, load: 1.0, shift: 0.0 },
        BedPhase::Leaving => Pose { parts: PRONE, load: 1.0 - smoothstep(f), shift: 0.0 },
    };
    Some(pose)
}

/// Body length along the sensor (real bodies fill 96–98 % of the 190 cm sensor).
const BODY_LENGTH: f32 = 0.95;
/// Body width (the unit of a part's `b`) over its length.
const BODY_WIDTH: f32 = 0.3;

/// Draws the body for `step` onto `canvas`, in the device's steps of `step_mmhg` (before noise).
///
/// The body is drawn on a sensor shaped like the real recordings' (`real::REAL_ROWS` along ×
/// `real::REAL_COLS` across, the head at row 0 and a supine person's left at column 0), 95 % of
/// its length and 30 % as wide as long, then placed on the device's grid exactly as a real frame
/// is ([`real::place`]: along the longer side, area-averaged): so a simulated body covers a 16×16,
/// 24×48 or 48×48 grid as a real one does, coarse cells and all.
///
/// `firmness` is how much less the surface gives than the mattresses the bodies were shaped on
/// (1 on a bed mat; [`FIRM_SURFACE`] on a floor or wellness mat): every part presses `firmness`
/// times harder on `1 / firmness` of its area, so the body's load is the same.
pub(crate) fn draw(canvas: &mut Canvas, step: &Step<BedPhase>, breathing: f32, step_mmhg: f32, firmness: f32) {
    let Some(pose) = pose(step) else { return };
    draw_pose(canvas, &pose, breathing, step_mmhg, firmness);
}

/// How much harder a body presses on a firm surface (a mat on the floor) than on the mattress the
/// bodies were shaped on, on a smaller contact: lying on a mattress the sacrum and heels read
/// 30–60 mmHg, on a hard surface 60–150 mmHg (docs/decisions.md, "One active cell; floor and
/// wellness mats in mmHg").
pub const FIRM_SURFACE: f32 = 2.0;

/// A still body lying in bed, for tests of what the hub reads from it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LyingPose {
    /// On the back, the bed flat.
    Supine,
    /// On the left side.
    LeftLateral,
    /// On the right side.
    RightLateral,
    /// On the belly.
    Prone,
}

/// The body of `pose` as [`draw`] draws the bed script's, without breathing or noise: on the
/// real-shaped sensor, placed on a `rows × cols` grid, in steps of `step_mmhg` (not rounded).
pub fn lying_body(pose: LyingPose, rows: usize, cols: usize, step_mmhg: f32) -> Vec<f32> {
    let mut canvas = Canvas::new(rows, cols);
    draw_pose(&mut canvas, &lying_pose(pose), 0.0, step_mmhg, 1.0);
    canvas.values().to_vec()
}

/// The still pose of [`LyingPose`], as the bed script holds it.
fn lying_pose(pose: LyingPose) -> Pose {
    let left = scaled(&LEFT_LATERAL, LATERAL_LOAD);
    match pose {
        LyingPose::Supine => Pose { parts: SUPINE, load: 1.0, shift: SUPINE_SHIFT },
        LyingPose::LeftLateral => Pose { parts: left, load: 1.0, shift: -LATERAL_SHIFT },
        LyingPose::RightLateral => Pose { parts: mirrored(&left), load: 1.0, shift: LATERAL_SHIFT },
        LyingPose::Prone => Pose { parts: PRONE, load: 1.0, shift: 0.0 },
    }
}

/// Another person in `pose`, drawn as [`lying_body`] draws the mean one but with every contact
/// patch varied by the draws of `seed`: its peak pressed 0.75–1.25 × as hard, moved by up to
/// ± 2 % of the body's length along and ± 0.08 half-widths across, 0.85–1.15 × as large, and the
/// whole body 0.8–1.2 × as heavy and up to ± 4 % of the mat's width off centre. People differ;
/// a measure of a posture's signature on one drawn body says little (issue 28, prone).
pub fn varied_lying_body(pose: LyingPose, rows: usize, cols: usize, step_mmhg: f32, seed: u64) -> Vec<f32> {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut base = lying_pose(pose);
    let weight = rng.random_range(0.8f32..=1.2);
    for part in &mut base.parts {
        part.peak *= weight * rng.random_range(0.75f32..=1.25);
        part.a += rng.random_range(-0.02f32..=0.02);
        part.b += rng.random_range(-0.08f32..=0.08);
        let size = rng.random_range(0.85f32..=1.15);
        part.ra *= size;
        part.rb *= size;
    }
    base.shift += rng.random_range(-0.04f32..=0.04);
    let mut canvas = Canvas::new(rows, cols);
    draw_pose(&mut canvas, &base, 0.0, step_mmhg, 1.0);
    canvas.values().to_vec()
}

fn draw_pose(canvas: &mut Canvas, pose: &Pose, breathing: f32, step_mmhg: f32, firmness: f32) {
    if pose.load <= 0.0 {
        return;
    }
    let mut sensor = Canvas::new(real::REAL_ROWS, real::REAL_COLS);
    let (long, short) = (real::REAL_ROWS as f32, real::REAL_COLS as f32);
    let length = BODY_LENGTH * long;
    let width = BODY_WIDTH * length;
    let start = (1.0 - BODY_LENGTH) / 2.0 * long;
    let middle = short / 2.0 + pose.shift * short;
    for (i, part) in pose.parts.iter().enumerate() {
        // Breathing moves the chest and back parts a little.
        let breath = if (1..=3).contains(&i) { 1.0 + 0.04 * breathing } else { 1.0 };
        let peak = part.peak * pose.load * breath * firmness / step_mmhg;
        if peak < 1.0 {
            continue;
        }
        // The same load on a smaller patch: each semi-axis shrinks by √firmness.
        let shrink = firmness.sqrt();
        sensor.splat(&Blob {
            y: start + part.a * length,
            x: middle + part.b * width / 2.0,
            ry: part.ra * length / shrink,
            rx: part.rb * width / shrink,
            peak,
        });
    }
    let placed = real::place(sensor.values(), canvas.rows(), canvas.cols());
    for (i, &v) in placed.iter().enumerate() {
        canvas.set(i / canvas.cols(), i % canvas.cols(), v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_cycle_visits_phases_in_order_at_expected_times() {
        let script = BedScript::default().script();
        let at = |secs: u64| script.at(Duration::from_secs(secs)).map(|s| s.phase);
        assert_eq!(at(0), Some(BedPhase::Empty));
        assert_eq!(at(19), Some(BedPhase::Empty));
        assert_eq!(at(20), Some(BedPhase::LyingDown));
        assert_eq!(at(24), Some(BedPhase::Supine));
        assert_eq!(at(84), Some(BedPhase::TurningLeft));
        assert_eq!(at(88), Some(BedPhase::LeftLateral));
        assert_eq!(at(133), Some(BedPhase::TurningRight));
        assert_eq!(at(137), Some(BedPhase::RightLateral));
        assert_eq!(at(182), Some(BedPhase::TurningProne));
        assert_eq!(at(186), Some(BedPhase::Prone));
        assert_eq!(at(216), Some(BedPhase::Leaving));
        assert_eq!(script.cycle(), Duration::from_secs(220));
        assert_eq!(at(220), Some(BedPhase::Empty));
        assert_eq!(at(220 + 25), Some(BedPhase::Supine));
    }

    #[test]
    fn custom_durations_are_honoured() {
        let script = BedScript {
            empty: Duration::from_millis(500),
            lie_down: Duration::from_millis(100),
            supine: Duration::from_secs(2),
            turn: Duration::from_millis(250),
            left_lateral: Duration::from_secs(1),
            right_lateral: Duration::from_secs(1),
            prone: Duration::from_secs(1),
            leave: Duration::from_millis(100),
        }
        .script();
        assert_eq!(script.at(Duration::from_millis(599)).map(|s| s.phase), Some(BedPhase::LyingDown));
        assert_eq!(script.at(Duration::from_millis(600)).map(|s| s.phase), Some(BedPhase::Supine));
        assert_eq!(script.at(Duration::from_millis(2_700)).map(|s| s.phase), Some(BedPhase::TurningLeft));
        assert_eq!(script.cycle(), Duration::from_millis(6_450));
    }

    #[test]
    fn body_lies_along_the_long_side() {
        let step = |phase| Step { phase, index: 0, elapsed: Duration::ZERO, length: Duration::ZERO, fraction: 0.5 };
        let mut tall = Canvas::new(48, 24);
        draw(&mut tall, &step(BedPhase::Supine), 0.0, 0.4, 1.0);
        let rows_used = (0..48).filter(|r| (0..24).any(|c| tall.values()[r * 24 + c] >= 5.0)).count();
        assert!(rows_used > 40, "{rows_used}");
        let mut empty = Canvas::new(48, 24);
        draw(&mut empty, &step(BedPhase::Empty), 0.0, 0.4, 1.0);
        assert!(empty.values().iter().all(|&v| v == 0.0));
    }

    /// Contact cells (≥ 0.8 mmHg), median, mean and 90th percentile (mmHg), leg offset (of the
    /// columns) and the left half's share of the load, of a posture drawn on 48 × 24 cells in
    /// 0.4 mmHg steps without noise, measured as `examples/measure_bodies.rs` measures real ones.
    fn figures(phase: BedPhase) -> [f32; 6] {
        let step = Step { phase, index: 0, elapsed: Duration::ZERO, length: Duration::ZERO, fraction: 0.5 };
        let mut canvas = Canvas::new(48, 24);
        draw(&mut canvas, &step, 0.0, 0.4, 1.0);
        let map: Vec<f32> = canvas.values().iter().map(|v| v.round() * 0.4).collect();
        let mut active: Vec<f32> = map.iter().copied().filter(|&v| v >= 0.8).collect();
        active.sort_by(f32::total_cmp);
        let at = |q: f32| active[((active.len() - 1) as f32 * q).round() as usize];
        let rows: Vec<usize> = (0..48).filter(|&r| (0..24).filter(|&c| map[r * 24 + c] >= 0.8).count() >= 2).collect();
        let (first, extent) = (rows[0] as f32, (rows[rows.len() - 1] + 1 - rows[0]) as f32);
        let centroid = |lo: f32, hi: f32| {
            let (mut w, mut wc) = (0.0, 0.0);
            for r in 0..48 {
                let f = (r as f32 + 0.5 - first) / extent;
                if f >= lo && f < hi {
                    for c in 0..24 {
                        w += map[r * 24 + c];
                        wc += map[r * 24 + c] * (c as f32 + 0.5);
                    }
                }
            }
            wc / w
        };
        let left: f32 = (0..48).flat_map(|r| map[r * 24..r * 24 + 12].iter()).sum();
        [
            active.len() as f32,
            at(0.5),
            active.iter().sum::<f32>() / active.len() as f32,
            at(0.9),
            (centroid(0.6, 0.95) - centroid(0.12, 0.5)) / 24.0,
            left / map.iter().sum::<f32>(),
        ]
    }

    #[test]
    fn bodies_look_like_the_measured_real_ones() {
        // The table above: contact cells, median, mean, p90, leg offset, left share.
        let supine = [551.0, 5.1, 7.4, 17.2, 0.065, 0.59];
        let left_side = [447.0, 6.8, 10.4, 23.9, -0.074, 0.50];
        for (phase, real) in [(BedPhase::Supine, supine), (BedPhase::LeftLateral, left_side)] {
            let sim = figures(phase);
            println!("{phase:?}: simulator {sim:.3?}, real {real:?}");
            for k in 0..4 {
                assert!((sim[k] / real[k] - 1.0).abs() <= 0.3, "{phase:?} figure {k}: {sim:?} vs {real:?}");
            }
            assert!((sim[4] - real[4]).abs() <= 0.04, "{phase:?} leg offset: {sim:?} vs {real:?}");
            assert!((sim[5] - real[5]).abs() <= 0.06, "{phase:?} left share: {sim:?} vs {real:?}");
        }
    }
}
