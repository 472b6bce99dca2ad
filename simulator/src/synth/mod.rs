//! Synthetic pressure maps: scenario scripts rendered to frame cells.
//!
//! Pure: no I/O and no clock. Time comes in as a `Duration` since the scenario started, and the
//! sensor noise comes from a seeded RNG, so the same seed and times give the same maps.

mod bed;
mod canvas;
mod feet;
mod force;
pub mod negatives;
#[cfg(test)]
pub(crate) mod presence_rule;
mod saddle;
mod script;
mod seat;
mod walk;

use std::f32::consts::TAU;
use std::sync::Arc;
use std::time::Duration;

use mat_protocol::CellFormat;
use mat_protocol::device_type::DeviceType;
use mat_protocol::scale::{
    BED_CELL_MMHG, CellStep, PASCAL_PER_MMHG, active_floor_steps_for, cell_step, mmhg_to_units, units_per_cell, units_to_mmhg,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

pub use bed::{BedPhase, BedScript, FIRM_SURFACE, LyingPose, lying_body, varied_lying_body};
pub use canvas::{Blob, Canvas, decode_cells};
pub use feet::{
    BODY_MASS_KG, DEFAULT_PLATE_PITCH_CM, FOOT_CENTRES, FOOT_LENGTH_CM, FeetPhase, FeetScript, FootLoads, FootPlacement, PlateScale,
    STANDARD_GRAVITY, body_weight_n, draw_foot, draw_foot_carrying, weight_shares,
};
pub use force::{FORCE_MAX, PresencePhase, PresenceScript, room_set_scripts};
pub use saddle::{SaddlePhase, SaddleScript, SaddleSide};
pub use script::{Script, Step, lerp, smoothstep};
pub use seat::{SeatPhase, SeatScript};
pub use walk::{Walk, WalkScript};

/// What happens on a simulated mat.
#[derive(Debug, Clone, PartialEq)]
pub enum Scenario {
    /// A person in bed: empty → lie down supine → still → left lateral → right lateral → prone
    /// → leave → (empty) → again.
    BedOccupant(BedScript),
    /// A seated person shifting weight, standing up now and then.
    SeatedPerson(SeatScript),
    /// Two feet standing and swaying, stepping off now and then.
    StandingFeet(FeetScript),
    /// One side of a Sensing Horse's saddle under a rider who mounts, rides and dismounts.
    Saddle(SaddleScript, SaddleSide),
    /// Force channels (Force Mat, room-set sensors): a person arriving and leaving.
    ForceChannels(PresenceScript),
    /// Nobody, ever: sensor noise only.
    Empty,
    /// Recorded frames played back as they are, in a loop (real maps: `real::replay`).
    Replay(Replay),
}

/// Frames played back in order, each held for its duration, then again from the first. Each frame
/// says whether someone is on the mat in it. Cells are sent exactly as given (no noise).
#[derive(Debug, Clone, PartialEq)]
pub struct Replay {
    frames: Arc<[ReplayFrame]>,
    script: Script<usize>,
}

/// One frame of a [`Replay`].
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayFrame {
    /// The frame's cells, row-major, one value per cell in the device's own steps.
    pub cells: Vec<u16>,
    /// How long it is shown.
    pub hold: Duration,
    /// Someone is on the mat.
    pub occupied: bool,
}

impl Replay {
    /// A replay of `frames` (at least one, each held for a non-zero time).
    pub fn new(frames: Vec<ReplayFrame>) -> Self {
        assert!(!frames.is_empty() && frames.iter().all(|f| !f.hold.is_zero()), "a replay needs frames with non-zero holds");
        let script = Script::new(frames.iter().enumerate().map(|(i, f)| (i, f.hold)).collect());
        Replay { frames: frames.into(), script }
    }

    /// The frames.
    pub fn frames(&self) -> &[ReplayFrame] {
        &self.frames
    }

    /// The frame shown at `t` since the replay started.
    pub fn at(&self, t: Duration) -> &ReplayFrame {
        let index = self.script.at(t).map_or(0, |step| step.phase);
        &self.frames[index]
    }
}

impl Scenario {
    /// Every scenario name accepted by [`Scenario::from_name`].
    pub const NAMES: [&'static str; 6] = ["bed", "seated", "feet", "saddle", "force", "empty"];

    /// The scenario with default durations for a short name (`bed`, `seated`, `feet`, `force`,
    /// `empty`).
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name.to_ascii_lowercase().as_str() {
            "bed" | "bed-occupant" | "bedoccupant" => Scenario::BedOccupant(BedScript::default()),
            "seated" | "seat" | "seated-person" | "seatedperson" => Scenario::SeatedPerson(SeatScript::default()),
            "feet" | "standing" | "standing-feet" | "standingfeet" => Scenario::StandingFeet(FeetScript::default()),
            "saddle" | "horse" => Scenario::Saddle(SaddleScript::default(), SaddleSide::Left),
            "force" | "force-channels" | "forcechannels" => Scenario::ForceChannels(PresenceScript::default()),
            "empty" => Scenario::Empty,
            _ => return None,
        })
    }

    /// The short name of this scenario.
    pub fn name(&self) -> &'static str {
        match self {
            Scenario::BedOccupant(_) => "bed",
            Scenario::SeatedPerson(_) => "seated",
            Scenario::StandingFeet(_) => "feet",
            Scenario::Saddle(..) => "saddle",
            Scenario::ForceChannels(_) => "force",
            Scenario::Empty => "empty",
            Scenario::Replay(_) => "replay",
        }
    }

    /// Length of one cycle of the script (zero for [`Scenario::Empty`]).
    pub fn cycle(&self) -> Duration {
        match self {
            Scenario::BedOccupant(s) => s.script().cycle(),
            Scenario::SeatedPerson(s) => s.script().cycle(),
            Scenario::StandingFeet(s) => s.script().cycle(),
            Scenario::Saddle(s, _) => s.script().cycle(),
            Scenario::ForceChannels(s) => s.script().cycle(),
            Scenario::Empty => Duration::ZERO,
            Scenario::Replay(r) => r.script.cycle(),
        }
    }

    /// The phase at time `t` since the scenario started.
    pub fn phase(&self, t: Duration) -> ScenarioPhase {
        let phase = match self {
            Scenario::BedOccupant(s) => s.script().at(t).map(|x| ScenarioPhase::Bed(x.phase)),
            Scenario::SeatedPerson(s) => s.script().at(t).map(|x| ScenarioPhase::Seat(x.phase)),
            Scenario::StandingFeet(s) => s.script().at(t).map(|x| ScenarioPhase::Feet(x.phase)),
            Scenario::Saddle(s, _) => s.script().at(t).map(|x| ScenarioPhase::Saddle(x.phase)),
            Scenario::ForceChannels(s) => s.at(t).map(|x| ScenarioPhase::Force(x.phase)),
            Scenario::Empty => None,
            Scenario::Replay(r) => Some(ScenarioPhase::Replay { occupied: r.at(t).occupied }),
        };
        phase.unwrap_or(ScenarioPhase::Empty)
    }
}

/// The phase of any scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScenarioPhase {
    /// A phase of [`Scenario::BedOccupant`].
    Bed(BedPhase),
    /// A phase of [`Scenario::SeatedPerson`].
    Seat(SeatPhase),
    /// A phase of [`Scenario::StandingFeet`].
    Feet(FeetPhase),
    /// A phase of [`Scenario::Saddle`].
    Saddle(SaddlePhase),
    /// A phase of [`Scenario::ForceChannels`].
    Force(PresencePhase),
    /// [`Scenario::Empty`].
    Empty,
    /// A frame of [`Scenario::Replay`].
    Replay {
        /// Someone is on the mat in it.
        occupied: bool,
    },
}

impl ScenarioPhase {
    /// A person is fully on the mat (not arriving or leaving).
    pub fn occupied(self) -> bool {
        match self {
            ScenarioPhase::Bed(p) => p.occupied(),
            ScenarioPhase::Seat(p) => p.occupied(),
            ScenarioPhase::Feet(p) => p.occupied(),
            ScenarioPhase::Saddle(p) => p.occupied(),
            ScenarioPhase::Force(p) => p.occupied(),
            ScenarioPhase::Empty => false,
            ScenarioPhase::Replay { occupied } => occupied,
        }
    }

    /// Nobody is on the mat at all.
    pub fn vacant(self) -> bool {
        matches!(
            self,
            ScenarioPhase::Bed(BedPhase::Empty)
                | ScenarioPhase::Seat(SeatPhase::Empty)
                | ScenarioPhase::Feet(FeetPhase::Empty)
                | ScenarioPhase::Saddle(SaddlePhase::Empty)
                | ScenarioPhase::Force(PresencePhase::Away)
                | ScenarioPhase::Empty
                | ScenarioPhase::Replay { occupied: false }
        )
    }
}

/// Multiplicative noise on loaded mat cells (±6 %).
const MAT_NOISE_GAIN: f32 = 0.06;
/// Baseline noise of a plate whose step is a kilopascal (podology, pressure and rehab plates):
/// none. One step on a 2 cm cell is 0.4 N; a baseline of 0–1 step on three cells in four would
/// put 70 kg of noise on an empty 48 × 48 plate and halve the weight-calibrated pressures of a
/// static capture (docs/decisions.md, "The demo plate carries its patient's weight"). Plantar
/// plates read zero under a threshold. Nor lone spikes: the simulator's 5–15 are of the old count
/// (0.02–0.06 kPa), under one step of a kilopascal plate.
const PLATE_BASELINE: u8 = 0;
/// Breathing period for the bed scenario.
const BREATH_PERIOD_S: f32 = 4.0;

/// Renders frames of one device: a scenario, a map shape and a seeded noise source.
#[derive(Debug, Clone)]
pub struct MapSynth {
    format: CellFormat,
    scenario: Scenario,
    rng: SmallRng,
    canvas: Canvas,
    jitter: Vec<f32>,
    /// mmHg in one step of the device's cells, for the bed bodies (drawn in mmHg).
    step_mmhg: f32,
    /// How much harder the bed bodies press than on a mattress (`bed::FIRM_SURFACE` on a floor or
    /// wellness mat, 1 elsewhere).
    firmness: f32,
    /// Each cell's idle level in steps, added to every pressure map (other makes of mat idle a
    /// few steps above zero); empty: none.
    idle: Vec<f32>,
    /// The step and pitch of the device's cells, for the feet drawn in cm and carrying the
    /// patient's weight.
    plate: PlateScale,
    /// The distance between a seat's points, cm, for the sitter drawn in cm.
    seat_cell_cm: f32,
    /// The walk across the plate in progress, if any ([`MapSynth::begin_walk`]).
    walk: Option<Walk>,
}

impl MapSynth {
    /// A synthesiser for `rows × cols` maps in `format`, with noise seeded by `seed`. Bed bodies
    /// are sent in a bed mat's 0.4 mmHg steps (`mat_protocol::scale`); see
    /// [`MapSynth::for_device_type`].
    pub fn new(rows: u16, cols: u16, format: CellFormat, scenario: Scenario, seed: u64) -> Self {
        let canvas = Canvas::new(usize::from(rows), usize::from(cols));
        // Feet on a device not named stand on a podology plate; bodies lie on a bed mat.
        let step_mmhg = if matches!(scenario, Scenario::StandingFeet(_)) {
            (f64::from(PlateScale::PODOLOGY.step_pa) / PASCAL_PER_MMHG) as f32
        } else {
            BED_CELL_MMHG as f32
        };
        Self {
            format,
            scenario,
            rng: SmallRng::seed_from_u64(seed),
            canvas,
            jitter: Vec::new(),
            step_mmhg,
            firmness: 1.0,
            idle: Vec::new(),
            plate: PlateScale::PODOLOGY,
            seat_cell_cm: seat::SEAT_CELL_CM,
            walk: None,
        }
    }

    /// Adds an idle level to every cell of every pressure map, as mats of other makes send: a mean
    /// of `mean_steps` of the device's steps, each cell fixed between 0.6 and 1.4 times it (drawn
    /// once from `seed`; a resistive sensor's idle level is a property of each cell). The body is
    /// drawn the same way; the idle level lies under it. Force channels and replays are sent as
    /// they are. 0 removes it.
    pub fn with_idle_level(mut self, mean_steps: f32, seed: u64) -> Self {
        self.idle.clear();
        if mean_steps > 0.0 {
            let mut rng = SmallRng::seed_from_u64(seed ^ 0x1d1e_1e7e_1000_0000);
            let cells = self.canvas.rows() * self.canvas.cols();
            self.idle.extend((0..cells).map(|_| mean_steps * rng.random_range(0.6..=1.4)));
        }
        self
    }

    /// Each cell's idle level in steps (empty: none).
    pub fn idle_level(&self) -> &[f32] {
        &self.idle
    }

    /// Sends bed bodies in the documented step of `device`'s cells (mmHg drawn in 0.4 mmHg steps on
    /// a bed mat, 1 mmHg on a floor mat or the Wellness Mat, where the body lies on a firm
    /// surface: `bed::FIRM_SURFACE`), and the baseline noise below that step's active floor.
    pub fn for_device_type(mut self, device: DeviceType) -> Self {
        self.step_mmhg = units_to_mmhg(units_per_cell(device)) as f32;
        self.plate = PlateScale::of(device);
        self.seat_cell_cm = device.cell_pitch_cm().unwrap_or(seat::SEAT_CELL_CM);
        // Floor and wellness mats lie on a firm surface, not on a mattress.
        self.firmness = if cell_step(device) == CellStep::Floor { bed::FIRM_SURFACE } else { 1.0 };
        self
    }

    /// Baseline noise in steps: up to one step below the active floor of the device's step
    /// (`mat_protocol::scale::active_floor_steps_for`: 0–1 step under a two-step floor), never more
    /// than the canvas draws (3).
    fn baseline(&self) -> u8 {
        if self.is_kilopascal_plate() {
            return PLATE_BASELINE;
        }
        let floor = active_floor_steps_for(mmhg_to_units(f64::from(self.step_mmhg)));
        floor.saturating_sub(1).min(3) as u8
    }

    /// Whether the device's step is a kilopascal or more (podology, pressure and rehab plates):
    /// no baseline noise and no lone spikes ([`PLATE_BASELINE`]).
    fn is_kilopascal_plate(&self) -> bool {
        f64::from(self.step_mmhg) * PASCAL_PER_MMHG >= f64::from(PlateScale::PODOLOGY.step_pa) - 1.0
    }

    /// The patient standing by the plate walks across it for `lasts` from scenario time `began`
    /// (a dynamic capture: [`MapSynth::walks_for_stream`]), then the standing script goes on.
    /// Only a plate's standing feet walk; other scenarios ignore it.
    pub fn begin_walk(&mut self, began: Duration, lasts: Duration) {
        if matches!(self.scenario, Scenario::StandingFeet(_)) {
            self.walk = Some(Walk { began, lasts, script: WalkScript::default() });
        }
    }

    /// Whether a stream of `seconds` asked of a plate is a dynamic capture, which the simulated
    /// patient answers by walking across it: the hub streams a capture for exactly its length, and
    /// the dynamic lengths (15, 30, 45, 60 s) are neither the balance test's 5 s nor a live
    /// view's 180 + 5 s (docs/decisions.md, issue 21 "The demo plate walks").
    pub fn walks_for_stream(&self, seconds: u32) -> bool {
        matches!(self.scenario, Scenario::StandingFeet(_)) && mat_core::machine::capture::DYNAMIC_DURATIONS.contains(&seconds)
    }

    /// The walk in progress or last begun.
    pub fn walk(&self) -> Option<&Walk> {
        self.walk.as_ref()
    }

    /// The scenario being played.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The canvas of the last render (values before encoding).
    pub fn canvas(&self) -> &Canvas {
        &self.canvas
    }

    /// Bytes of one frame's cells.
    pub fn cells_len(&self) -> usize {
        self.canvas.rows() * self.canvas.cols() * self.format.bytes_per_cell()
    }

    /// Largest value a cell may take: 255 for `U8`, 4095 (the force-channel scale) for `U16Le`.
    pub fn max_value(&self) -> f32 {
        match self.format {
            CellFormat::U8 => 255.0,
            CellFormat::U16Le => FORCE_MAX,
        }
    }

    /// Renders the map at time `t` since the scenario started and encodes it as frame cells.
    pub fn render(&mut self, t: Duration) -> Vec<u8> {
        self.draw(t);
        self.canvas.encode(self.format, self.max_value())
    }

    /// Renders the map at `t` into the canvas without encoding it.
    pub fn draw(&mut self, t: Duration) {
        self.canvas.clear();
        let (baseline, spikes) = (self.baseline(), !self.is_kilopascal_plate());
        match &self.scenario {
            Scenario::BedOccupant(script) => {
                if let Some(step) = script.script().at(t) {
                    let breathing = (TAU * t.as_secs_f32() / BREATH_PERIOD_S).sin();
                    bed::draw(&mut self.canvas, &step, breathing, self.step_mmhg, self.firmness);
                }
                self.canvas.add_mat_noise(&mut self.rng, MAT_NOISE_GAIN, baseline, spikes);
            }
            Scenario::SeatedPerson(script) => {
                if let Some(step) = script.script().at(t) {
                    seat::draw(&mut self.canvas, script, &step, t, self.seat_cell_cm);
                }
                self.canvas.add_mat_noise(&mut self.rng, MAT_NOISE_GAIN, baseline, spikes);
            }
            Scenario::StandingFeet(script) => {
                match &self.walk {
                    Some(walk) if walk.covers(t) => walk.draw(&mut self.canvas, t, self.plate),
                    _ => {
                        if let Some(step) = script.script().at(t) {
                            feet::draw(&mut self.canvas, script, &step, t, self.plate);
                        }
                    }
                }
                self.canvas.add_mat_noise(&mut self.rng, MAT_NOISE_GAIN, baseline, spikes);
            }
            Scenario::Saddle(script, side) => {
                if let Some(step) = script.script().at(t) {
                    saddle::draw(&mut self.canvas, script, &step, t, *side);
                }
                self.canvas.add_mat_noise(&mut self.rng, MAT_NOISE_GAIN, baseline, spikes);
            }
            Scenario::ForceChannels(script) => {
                let channels = self.canvas.rows() * self.canvas.cols();
                self.jitter.clear();
                for _ in 0..channels {
                    self.jitter.push(self.rng.random_range(-1.0..=1.0));
                }
                if let Some(step) = script.at(t) {
                    force::draw(&mut self.canvas, script, &step, t, &self.jitter);
                }
            }
            Scenario::Empty => self.canvas.add_mat_noise(&mut self.rng, MAT_NOISE_GAIN, baseline, spikes),
            Scenario::Replay(replay) => {
                let cols = self.canvas.cols();
                for (i, &v) in replay.at(t).cells.iter().enumerate().take(self.canvas.rows() * cols) {
                    self.canvas.set(i / cols, i % cols, f32::from(v));
                }
            }
        }
        if !self.idle.is_empty() && !matches!(self.scenario, Scenario::ForceChannels(_) | Scenario::Replay(_)) {
            self.canvas.add_idle_level(&self.idle);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::presence_rule::{Presence, evaluate, evaluate_scaled};
    use super::*;

    /// Samples a whole cycle every `step` and checks the presence rule against the phase.
    fn check_cycle(scenario: Scenario, rows: u16, cols: u16, seed: u64, step: Duration) -> (usize, usize) {
        let cycle = scenario.cycle();
        let mut synth = MapSynth::new(rows, cols, CellFormat::U8, scenario, seed);
        let (mut occupied, mut vacant) = (0, 0);
        let mut t = Duration::ZERO;
        while t < cycle {
            let phase = synth.scenario().phase(t);
            let cells = synth.render(t);
            let values = decode_cells(&cells, CellFormat::U8);
            // Bed bodies come in a bed mat's 0.4 mmHg steps, sitters in a seat's 1 mmHg, feet in
            // a plate's kilopascals; the others in the old count.
            let scale = match synth.scenario() {
                Scenario::BedOccupant(_) => units_per_cell(DeviceType::MattressMatIoT),
                Scenario::SeatedPerson(_) => units_per_cell(DeviceType::SeatingMatIoT),
                Scenario::StandingFeet(_) => units_per_cell(DeviceType::PodologyIoT),
                _ => 1.0,
            };
            let verdict = evaluate_scaled(&values, usize::from(rows), usize::from(cols), scale);
            if phase.occupied() {
                occupied += 1;
                assert_eq!(verdict.presence, Presence::Presence, "{rows}x{cols} seed {seed} at {t:?} in {phase:?}: {verdict:?}");
            }
            if phase.vacant() {
                vacant += 1;
                assert_eq!(verdict.presence, Presence::Absence, "{rows}x{cols} seed {seed} at {t:?} in {phase:?}: {verdict:?}");
            }
            t += step;
        }
        (occupied, vacant)
    }

    #[test]
    fn bed_occupant_passes_presence_when_lying_and_fails_when_empty() {
        for (rows, cols) in [(48, 48), (24, 48), (24, 24), (16, 16), (48, 24), (20, 20)] {
            for seed in [1, 2] {
                let (occupied, vacant) =
                    check_cycle(Scenario::BedOccupant(BedScript::default()), rows, cols, seed, Duration::from_millis(1_300));
                assert!(occupied > 100 && vacant > 10, "{occupied} {vacant}");
            }
        }
    }

    #[test]
    fn seated_person_passes_presence_when_seated_and_fails_when_empty() {
        for (rows, cols) in [(16, 16), (24, 24), (48, 48), (20, 20)] {
            for seed in [3, 4] {
                let (occupied, vacant) =
                    check_cycle(Scenario::SeatedPerson(SeatScript::default()), rows, cols, seed, Duration::from_millis(700));
                assert!(occupied > 100 && vacant > 10, "{occupied} {vacant}");
            }
        }
    }

    #[test]
    fn standing_feet_pass_presence_when_standing_and_fail_when_empty() {
        for (rows, cols) in [(48, 48), (24, 24)] {
            for seed in [5, 6] {
                let (occupied, vacant) =
                    check_cycle(Scenario::StandingFeet(FeetScript::default()), rows, cols, seed, Duration::from_millis(300));
                assert!(occupied > 100 && vacant > 10, "{occupied} {vacant}");
            }
        }
    }

    #[test]
    fn standing_feet_leave_a_column_gap_over_five_on_a_48_plate() {
        let scenario = Scenario::StandingFeet(FeetScript::default());
        let mut synth = MapSynth::new(48, 48, CellFormat::U8, scenario, 9);
        for ms in (12_000..72_000).step_by(700) {
            synth.render(Duration::from_millis(ms));
            let v = synth.canvas().values();
            let active_cols: Vec<usize> = (0..48).filter(|c| (0..48).filter(|r| v[r * 48 + c] >= 5.0).count() >= 2).collect();
            let widest_gap = active_cols.windows(2).map(|w| w[1] - w[0] - 1).max().unwrap_or(0);
            assert!(widest_gap > 5, "gap {widest_gap} at {ms} ms: {active_cols:?}");
            // Two separate feet, each touching both halves' sides of the gap.
            assert!(active_cols.first().is_some_and(|&c| c < 24) && active_cols.last().is_some_and(|&c| c >= 24));
        }
    }

    #[test]
    fn a_rider_in_the_saddle_passes_presence_on_each_side_and_an_empty_saddle_fails() {
        for side in [SaddleSide::Left, SaddleSide::Right] {
            for seed in [7, 8] {
                let (occupied, vacant) =
                    check_cycle(Scenario::Saddle(SaddleScript::default(), side), 24, 24, seed, Duration::from_millis(900));
                assert!(occupied > 100 && vacant > 10, "{occupied} {vacant}");
            }
        }
    }

    #[test]
    fn empty_scenario_always_fails_presence() {
        let mut synth = MapSynth::new(48, 48, CellFormat::U8, Scenario::Empty, 11);
        for s in 0..50 {
            let values = decode_cells(&synth.render(Duration::from_secs(s)), CellFormat::U8);
            assert_eq!(evaluate(&values, 48, 48).presence, Presence::Absence);
        }
    }

    #[test]
    fn force_channels_are_little_endian_u16_within_scale() {
        let scenario = Scenario::ForceChannels(PresenceScript::default());
        let mut synth = MapSynth::new(1, 4, CellFormat::U16Le, scenario, 12);
        assert_eq!(synth.cells_len(), 8);
        let present = decode_cells(&synth.render(Duration::from_secs(30)), CellFormat::U16Le);
        assert_eq!(present.len(), 4);
        assert!(present.iter().all(|&v| v <= 4095 && v > 200), "{present:?}");
        assert!(present.iter().map(|&v| u32::from(v)).sum::<u32>() > 2_000);
        let absent = decode_cells(&synth.render(Duration::from_secs(5)), CellFormat::U16Le);
        assert_eq!(absent, vec![0, 0, 0, 0]);
    }

    #[test]
    fn same_seed_same_maps_and_different_seed_different_noise() {
        let make = |seed| MapSynth::new(24, 24, CellFormat::U8, Scenario::SeatedPerson(SeatScript::default()), seed);
        let (mut a, mut b, mut c) = (make(1), make(1), make(2));
        let t = Duration::from_secs(40);
        let (fa, fb, fc) = (a.render(t), b.render(t), c.render(t));
        assert_eq!(fa, fb);
        assert_ne!(fa, fc);
        assert_eq!(fa.len(), 24 * 24);
    }

    #[test]
    fn a_replay_sends_its_frames_as_they_are_in_a_loop() {
        let frame = |v: u16, occupied| ReplayFrame { cells: vec![v; 4], hold: Duration::from_secs(2), occupied };
        let replay = Scenario::Replay(Replay::new(vec![frame(7, true), frame(0, false)]));
        assert_eq!(replay.cycle(), Duration::from_secs(4));
        assert!(replay.phase(Duration::from_secs(1)).occupied());
        assert!(replay.phase(Duration::from_secs(3)).vacant());
        let mut synth = MapSynth::new(2, 2, CellFormat::U8, replay, 1);
        assert_eq!(synth.render(Duration::from_millis(1_900)), vec![7; 4]);
        assert_eq!(synth.render(Duration::from_millis(2_000)), vec![0; 4]);
        assert_eq!(synth.render(Duration::from_millis(4_500)), vec![7; 4]);
    }

    #[test]
    fn scenario_names_round_trip() {
        for name in Scenario::NAMES {
            assert_eq!(Scenario::from_name(name).map(|s| s.name()), Some(name));
        }
        assert_eq!(Scenario::from_name("dance"), None);
    }

    #[test]
    fn degenerate_shapes_do_not_panic() {
        for (rows, cols) in [(0, 0), (1, 1), (1, 48), (3, 2)] {
            for name in Scenario::NAMES {
                let scenario = Scenario::from_name(name).expect("scenario");
                let mut synth = MapSynth::new(rows, cols, CellFormat::U8, scenario, 0);
                for s in (0..300).step_by(7) {
                    assert_eq!(synth.render(Duration::from_secs(s)).len(), usize::from(rows) * usize::from(cols));
                }
            }
        }
    }

    #[test]
    fn an_idle_level_lies_under_the_same_body_on_every_grid() {
        // The same bed scenario and seed, with and without an idle level of 4 steps, on the
        // development sensor's 64 × 32, the Mattress Mat IoT's 48 × 48 and a coarse 30 × 11: the
        // body is drawn the same way and the difference is each cell's idle level.
        for (rows, cols) in [(64u16, 32u16), (48, 48), (30, 11)] {
            let scenario = Scenario::BedOccupant(BedScript::default());
            let mut plain = MapSynth::new(rows, cols, CellFormat::U8, scenario.clone(), 5);
            let mut idle = MapSynth::new(rows, cols, CellFormat::U8, scenario, 5).with_idle_level(4.0, 5);
            let levels = idle.idle_level().to_vec();
            assert_eq!(levels.len(), usize::from(rows) * usize::from(cols));
            let mean = levels.iter().sum::<f32>() / levels.len() as f32;
            assert!((mean - 4.0).abs() < 0.2, "{rows}×{cols}: mean idle level {mean}");
            assert!(levels.iter().all(|&l| (2.4..=5.6).contains(&l)));
            let mut loaded = 0;
            for s in [0u64, 30, 60, 300, 900] {
                let t = Duration::from_secs(s);
                let a = decode_cells(&plain.render(t), CellFormat::U8);
                let b = decode_cells(&idle.render(t), CellFormat::U8);
                for ((&x, &y), &l) in a.iter().zip(&b).zip(&levels) {
                    if y < 255 {
                        assert!((f32::from(y) - f32::from(x) - l).abs() <= 1.0, "{rows}×{cols} at {s} s: {x} + {l} ≠ {y}");
                    }
                }
                loaded += a.iter().filter(|&&v| v >= 20).count();
            }
            assert!(loaded > 0, "{rows}×{cols}: a body is drawn");
        }
    }
}
