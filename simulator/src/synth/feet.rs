//! Two feet standing on a plate (podology, rehab, pressure and fitness mats): heel, lateral
//! midfoot, forefoot and toes for each foot, swaying, and now and then stepping off.
//!
//! Map orientation: row 0 is in front of the toes, the last row behind the heels; column 0 is
//! the person's left. The feet stand apart with a gap of more than five columns between them on
//! a 48×48 plate (the left/right split of the podology analysis needs a gap over 5).

use std::f32::consts::TAU;
use std::time::Duration;

use mat_protocol::device_type::DeviceType;
use mat_protocol::scale::{PLATE_CELL_KPA, cell_step};

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

/// How much of the load moves between heel and forefoot at the forward sway's extremes (±½ × this):
/// with the mediolateral [`SWAY_SIDE_SHIFT`], a healthy adult's quiet standing, whose centre of
/// pressure sways over a 95 % ellipse of a few cm² at 1–1.5 cm/s.
const SWAY_FORWARD_SHIFT: f32 = 0.12;
/// How much of the weight moves between the feet at the side sway's extremes (±½ × this).
const SWAY_SIDE_SHIFT: f32 = 0.08;

/// Where a standing foot's centre of pressure lies, in cm forward of the back of the heel: with
/// [`FootLoads::STANDING`]'s heel-heavy share, about 37 % of the foot's length.
pub const STANDING_COP_FROM_HEEL_CM: f32 = 9.5;

/// Cell pitch of a plate whose device type gives none (cm): the podology plates' 2 cm.
pub const DEFAULT_PLATE_PITCH_CM: f32 = 2.0;

/// The simulated patient's body mass (kg): a reference adult (ICRP's reference man is 73 kg, the
/// demo and tour patients 68–72 kg). The feet carry this weight, not a number of steps: the sum
/// over the plate's cells of pressure × cell area is the weight on the plate
/// (docs/decisions.md, "The demo plate carries its patient's weight").
pub const BODY_MASS_KG: f32 = 70.0;
/// Standard gravity (m/s²).
pub const STANDARD_GRAVITY: f32 = 9.806_65;

/// The simulated patient's weight, in newtons.
pub fn body_weight_n() -> f32 {
    BODY_MASS_KG * STANDARD_GRAVITY
}

/// How a plate reads a load: the pressure one step of its cells stands for and the distance
/// between cell centres (the device type's documented step and pitch, `mat_protocol::scale`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlateScale {
    /// Pascals in one step of a cell.
    pub step_pa: f32,
    /// Distance between cell centres (cm); a cell covers its square.
    pub pitch_cm: f32,
}

impl PlateScale {
    /// A podology plate: 1 kPa per step, 2 cm cells.
    pub const PODOLOGY: PlateScale = PlateScale { step_pa: (PLATE_CELL_KPA * 1000.0) as f32, pitch_cm: DEFAULT_PLATE_PITCH_CM };

    /// The scale of `device`'s cells.
    pub fn of(device: DeviceType) -> PlateScale {
        PlateScale { step_pa: cell_step(device).pascals() as f32, pitch_cm: device.cell_pitch_cm().unwrap_or(DEFAULT_PLATE_PITCH_CM) }
    }

    /// Newtons one step of one cell carries (pressure × the cell's area).
    pub fn newtons_per_step(self) -> f32 {
        let side_m = self.pitch_cm / 100.0;
        self.step_pa * side_m * side_m
    }

    /// The force a map of cells (in steps) puts on the plate, in newtons.
    pub fn newtons(self, cells: impl IntoIterator<Item = f32>) -> f32 {
        cells.into_iter().sum::<f32>() * self.newtons_per_step()
    }
}

/// How the load of one foot is shared between its parts, as the relative pressure at each part's
/// centre (0: off). The pressures themselves come from the force the foot carries
/// ([`draw_foot_carrying`]).
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
    /// A foot standing flat, barefoot: the heel carries most of the load and presses hardest,
    /// the metatarsal heads about a third of it, the toes and the lateral band little (Cavanagh
    /// et al. 1987, symptom-free adults standing: heel 60 % of the load and a 139 kPa peak,
    /// forefoot 28 % and 86 kPa, midfoot 8 %, toes 4 % and 31 kPa).
    pub const STANDING: FootLoads = FootLoads { heel: 1.0, midfoot: 0.15, metatarsals: 0.55, hallux: 0.35, toes: 0.2 };

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

/// The pressure under the calcaneus relative to the heel's rim (the heel pad is thickest there).
const HEEL_CORE: f32 = 2.0;
/// The pressure under the second and third metatarsal heads relative to the forefoot's band.
const METATARSAL_CORE: f32 = 1.3;

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
/// metatarsal heads, hallux and lesser toes; the heel and the central metatarsal heads press
/// hardest under the bone (a smaller, higher core in each). A plate's sensor reads the pressure
/// over its whole cell, so a part touches every cell it overlaps: each semi-axis is widened by
/// half a cell. A real foot's 110–140 cm² of contact thus lights about 180 cm² of a 2 cm plate
/// (its area plus half a cell along its rim), as coarse plates do.
pub fn draw_foot(canvas: &mut Canvas, at: FootPlacement, loads: FootLoads) {
    let k = at.cells_per_cm;
    let widening = 0.5;
    // (cm forward of the heel's back, cm outward of the axis, semi-axis along, across, load)
    let parts = [
        (4.2, 0.0, 3.8, 3.2, loads.heel),
        (4.0, 0.0, 2.0, 1.8, loads.heel * HEEL_CORE),
        (11.0, 2.4, 4.8, 1.6, loads.midfoot),
        (18.3, 0.4, 2.6, 4.8, loads.metatarsals),
        (18.3, -0.3, 1.6, 2.2, loads.metatarsals * METATARSAL_CORE),
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
            ry: along * k + widening,
            rx: across * k + widening,
            peak,
        });
    }
}

/// Draws one foot (as [`draw_foot`], `shape` giving how its load is shared) pressing on the plate
/// with `newtons`: its cells, in the plate's steps, sum to that force over their area.
pub fn draw_foot_carrying(canvas: &mut Canvas, at: FootPlacement, shape: FootLoads, newtons: f32, plate: PlateScale) {
    if newtons <= 0.0 {
        return;
    }
    let mut foot = Canvas::new(canvas.rows(), canvas.cols());
    draw_foot(&mut foot, at, shape);
    let drawn = plate.newtons(foot.values().iter().copied());
    if drawn > 0.0 {
        canvas.merge_scaled(&foot, newtons / drawn);
    }
}

/// Cells per cm for feet on a `rows`-row plate of `pitch_cm` cells: the plate's own, unless an
/// adult foot would not fit in 80 % of its rows (a small plate then shows a smaller foot).
pub fn cells_per_cm(rows: usize, pitch_cm: f32) -> f32 {
    let own = 1.0 / pitch_cm.max(0.1);
    own.min(0.8 * rows as f32 / FOOT_LENGTH_CM)
}

/// Draws the feet for `step` at absolute scenario time `t` on `plate`: standing, they carry the
/// patient's whole weight ([`body_weight_n`]), shared between the feet as the body sways.
pub(crate) fn draw(canvas: &mut Canvas, script: &FeetScript, step: &Step<FeetPhase>, t: Duration, plate: PlateScale) {
    let f = step.fraction;
    // How far each foot is down (0..1).
    let (left_load, right_load) = match step.phase {
        FeetPhase::Empty => return,
        FeetPhase::SteppingOn => (smoothstep(2.0 * f), smoothstep(2.0 * f - 1.0)),
        FeetPhase::Standing => (1.0, 1.0),
        FeetPhase::SteppingOff => (1.0 - smoothstep(2.0 * f - 1.0), 1.0 - smoothstep(2.0 * f)),
    };
    let forward = 0.5 * wave(t, script.sway_forward); // > 0: weight towards the toes
    let side = 0.5 * wave(t, script.sway_side); // > 0: weight on the right foot
    let (left_share, right_share) = weight_shares(left_load, right_load, side);
    let rows = canvas.rows() as f32;
    let cols = canvas.cols() as f32;
    let k = cells_per_cm(canvas.rows(), plate.pitch_cm);
    // The patient stands with their centre of pressure over the middle of the plate (as a balance
    // or rehab exercise asks), swaying a few mm forward and back.
    let heel_row = 0.5 * rows + STANDING_COP_FROM_HEEL_CM * k - 0.3 * forward * k;
    let (heel, fore) = (1.0 - SWAY_FORWARD_SHIFT * forward, 1.0 + SWAY_FORWARD_SHIFT * forward);
    let s = FootLoads::STANDING;
    let shape = FootLoads {
        heel: s.heel * heel,
        midfoot: s.midfoot,
        metatarsals: s.metatarsals * fore,
        hallux: s.hallux * fore,
        toes: s.toes * fore,
    };
    for (centre, share, outward) in [(FOOT_CENTRES[0], left_share, -1.0f32), (FOOT_CENTRES[1], right_share, 1.0)] {
        let at = FootPlacement { heel_row, axis_col: centre * cols, outward, cells_per_cm: k };
        draw_foot_carrying(canvas, at, shape, share * body_weight_n(), plate);
    }
}

/// The share of the body's weight on each foot (left, right) when each is `left_load` and
/// `right_load` of the way down (0 lifted, 1 on the plate) and the body leans `side` to the
/// right (−0.5..0.5). Standing on both, the two shares sum to 1 (the whole weight on the plate);
/// on one foot with the other lifted, that foot carries it all; a foot still on the floor beside
/// the plate carries the rest.
pub fn weight_shares(left_load: f32, right_load: f32, side: f32) -> (f32, f32) {
    (
        0.5 * left_load * (1.0 - SWAY_SIDE_SHIFT * side) * (2.0 - right_load),
        0.5 * right_load * (1.0 + SWAY_SIDE_SHIFT * side) * (2.0 - left_load),
    )
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
        draw(&mut canvas, &script, &step, t, PlateScale::PODOLOGY);
        let v = canvas.values();
        let left: f32 = (0..48).flat_map(|r| (0..24).map(move |c| r * 48 + c)).map(|i| v[i]).sum();
        let right: f32 = (0..48).flat_map(|r| (24..48).map(move |c| r * 48 + c)).map(|i| v[i]).sum();
        assert!(left > 0.0 && right == 0.0, "{left} {right}");
    }
    /// The standing feet of a 10 Hz plate of `device`, rendered and decoded as the hub reads them,
    /// every 700 ms of the standing phase.
    fn standing_frames(device: DeviceType, seed: u64) -> Vec<Vec<u16>> {
        use crate::synth::{MapSynth, Scenario, decode_cells};
        let (rows, cols, format) = device.frame_shape().expect("a map");
        let mut synth = MapSynth::new(rows, cols, format, Scenario::StandingFeet(FeetScript::default()), seed).for_device_type(device);
        (12_000..72_000).step_by(700).map(|ms| decode_cells(&synth.render(Duration::from_millis(ms)), format)).collect()
    }

    #[test]
    fn standing_feet_put_the_patients_weight_on_the_plate() {
        // Σ pressure × cell area over the plate = the body's weight, within the sensor noise (±6 %
        // per cell, rounding to a step, a rare spike).
        for device in [DeviceType::PodologyIoT, DeviceType::Podology, DeviceType::PressureMatIoT, DeviceType::RehabMat] {
            let plate = PlateScale::of(device);
            assert_eq!(plate, PlateScale::PODOLOGY, "{device:?}");
            for seed in [1, 2] {
                for cells in standing_frames(device, seed) {
                    let kg = plate.newtons(cells.iter().map(|&v| f32::from(v))) / STANDARD_GRAVITY;
                    assert!((kg - BODY_MASS_KG).abs() <= 0.05 * BODY_MASS_KG, "{device:?} seed {seed}: {kg:.1} kg on the plate");
                }
            }
        }
    }

    #[test]
    fn standing_pressures_are_an_adults_barefoot_standing_pressures() {
        // At 2 cm cells (4 cm²): a heel peak of 60–150 kPa (Cavanagh 1987: 139 kPa with finer
        // sensors, which read higher peaks), the heel carrying more than the forefoot, a mean over
        // the contact of 15–40 kPa, 100–200 cm² of contact per foot, nothing at the plate's
        // 255 kPa ceiling.
        let area = DEFAULT_PLATE_PITCH_CM * DEFAULT_PLATE_PITCH_CM;
        for cells in standing_frames(DeviceType::PodologyIoT, 3) {
            let peak = *cells.iter().max().expect("cells");
            assert!((60..=150).contains(&peak), "peak {peak} kPa");
            let active: Vec<f32> = cells.iter().filter(|&&v| v >= 2).map(|&v| f32::from(v)).collect();
            let mean = active.iter().sum::<f32>() / active.len() as f32;
            assert!((15.0..=40.0).contains(&mean), "mean {mean} kPa over {} cells", active.len());
            let per_foot_cm2 = active.len() as f32 * area / 2.0;
            assert!((100.0..=200.0).contains(&per_foot_cm2), "{per_foot_cm2} cm² per foot");
            // Rear half of the feet (rows below the middle of the plate: the heels) against the front.
            let rear: f32 = cells[24 * 48..].iter().map(|&v| f32::from(v)).sum();
            let front: f32 = cells[..24 * 48].iter().map(|&v| f32::from(v)).sum();
            assert!(rear > front && rear < 2.5 * front, "heels {rear}, forefeet {front}");
        }
    }

    #[test]
    fn the_weight_shares_sum_to_the_whole_weight_on_both_feet_or_on_one() {
        for side in [-0.5, 0.0, 0.3, 0.5] {
            let (l, r) = weight_shares(1.0, 1.0, side);
            assert!((l + r - 1.0).abs() < 1e-6, "{side}: {l} + {r}");
        }
        let (l, r) = weight_shares(1.0, 0.0, 0.0);
        assert_eq!((l, r), (1.0, 0.0), "the other foot lifted");
        assert_eq!(weight_shares(0.0, 0.0, 0.2), (0.0, 0.0));
    }
    #[test]
    fn the_live_map_and_the_weight_calibrated_static_result_tell_the_same_story() {
        // The live map reads the plate's documented step (1 kPa); a static capture of a weighed
        // patient reads spec §9's calibration, which takes 70 % of the weight as resting on the
        // plate. Standing feet that carry the patient's weight therefore read, calibrated, 0.7 ×
        // the live pressures (± 10 %: the noise and the mean map), for the patient whose weight
        // the clinician entered.
        use mat_core::analysis::frame::{Capture, PressureFrame};
        use mat_core::analysis::units::{WEIGHT_FACTOR, cell_kpa};
        use mat_core::analysis::{AnalysisKind, AnalysisParams, AnalysisResult, analyse};
        let device = DeviceType::PodologyIoT;
        for (seed, cells) in standing_frames(device, 8).into_iter().enumerate().step_by(9) {
            let live_kpa = cell_kpa(device, *cells.iter().max().expect("cells"));
            let mut capture = Capture::new(device, 48, 48);
            capture.push(0, PressureFrame::new(48, 48, cells).expect("frame")).expect("one frame");
            let params = AnalysisParams { weight_kg: Some(f64::from(BODY_MASS_KG)), height_cm: Some(172.0) };
            let Ok(AnalysisResult::Static(result)) = analyse(AnalysisKind::Static, &capture, &params) else { panic!("a static result") };
            let calibration = result.pressure_calibration.expect("a weighed patient's calibration");
            let static_kpa = f64::from(result.max_pressure) * calibration.kpa_per_step;
            let ratio = static_kpa / live_kpa;
            assert!((ratio / WEIGHT_FACTOR - 1.0).abs() <= 0.1, "frame {seed}: static {static_kpa:.1} kPa, live {live_kpa:.1} kPa");
        }
    }
}
