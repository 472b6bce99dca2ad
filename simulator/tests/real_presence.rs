//! The hub's presence check on real in-bed maps (`../shared/data/pmd-dev/`, subjects S1–S4, every
//! posture, wedges and inclined beds included) and on beds nobody lies in (sensor noise, a pillow,
//! objects of 2–5 kg, drift), on the three bed geometries: Mattress Mat IoT 48×48, Sleep Mat
//! 24×48 and the legacy Mattress Mat 16×16. Each real frame is sent as the device would send it:
//! placed on its grid and quantised to its 0.4 mmHg steps (`simulator::real::device_cells`), then
//! read by the same detector the mat machine uses for that type.
//!
//! Occupied frames: every frame of every recording after the two junk frames the data set's README
//! names. Two later frames are whole-mat saturation glitches (most of the mat at the sensor's
//! ceiling while the person lies there); they are counted like any other frame and listed.
//!
//! `cargo test -p simulator --test real_presence -- --nocapture` prints the tables in
//! docs/decisions.md.

use mat_core::analysis::units::cell_pitch_cm;
use mat_core::machine::presence::{MIN_LOAD_KGF, Presence, PresenceDetector, PresenceScale, PresenceStats};
use mat_core::machine::pressure_map::PressureMap;
use mat_protocol::CellFormat;
use mat_protocol::device_type::DeviceType;
use mat_protocol::scale::units_to_mmhg;
use simulator::real::{self, DEV_SUBJECTS, POSTURES, REAL_COLS, REAL_ROWS};
use simulator::synth::negatives::{self, CASES};

/// The three bed geometries.
const DEVICES: [DeviceType; 3] = [DeviceType::MattressMatIoT, DeviceType::SleepMat, DeviceType::MattressMat];
/// The floor: at least this share of occupied frames reads PRESENCE, per subject and posture.
const FLOOR: f64 = 0.995;
/// A frame is a saturation glitch when at least this many cells read 3000 or more (300 mmHg:
/// three times the sensor's range).
const SATURATED_CELLS: usize = 20;

fn detector(device: DeviceType) -> PresenceDetector {
    PresenceDetector::with_scale(PresenceScale::for_device(device))
}

fn stats_of(detector: &mut PresenceDetector, device: DeviceType, cells: &[u8]) -> PresenceStats {
    let (rows, cols, _) = device.frame_shape().expect("a map device");
    let map = PressureMap::new(rows, cols, CellFormat::U8, cells).expect("shape");
    let quick = detector.check(&map);
    let stats = detector.stats(&map);
    assert_eq!(quick, stats.verdict(), "the per-frame check agrees with the full figures");
    stats
}

fn saturated(frame: &[u16]) -> bool {
    frame.iter().filter(|&&v| v >= 3000).count() >= SATURATED_CELLS
}

#[test]
fn real_occupied_frames_read_presence_for_every_subject_and_posture() {
    let dir = real::dev_set_dir();
    let mut failures = Vec::new();
    let mut glitches = Vec::new();
    for device in DEVICES {
        let (rows, cols, _) = device.frame_shape().expect("shape");
        let mut detector = detector(device);
        println!("\n{} ({rows}×{cols}): PRESENCE / occupied frames", device.name());
        println!("| posture | S1 | S2 | S3 | S4 | lowest median / mean / std dev (mmHg) |");
        println!("|---|---|---|---|---|---|");
        let (mut all_present, mut all_frames) = (0usize, 0usize);
        let mut lightest = f64::MAX;
        for posture in POSTURES {
            let mut row = format!("| {posture} {} |", real::description(posture));
            let mut lowest = (f64::MAX, f64::MAX, f64::MAX);
            for subject in DEV_SUBJECTS {
                let rec = real::load(&dir, subject, posture).unwrap_or_else(|e| panic!("S{subject}/{posture}: {e}"));
                let mut present = 0usize;
                for (k, frame) in rec.frames.iter().enumerate() {
                    assert_eq!(frame.len(), REAL_ROWS * REAL_COLS);
                    let cells = real::device_cells(frame, device).expect("map device");
                    let stats = stats_of(&mut detector, device, &cells);
                    if device == DeviceType::MattressMatIoT && saturated(frame) {
                        glitches.push(format!("S{subject}/{posture} frame {} → {:?}", k + real::JUNK_FRAMES, stats.verdict()));
                    }
                    if stats.verdict() == Presence::Present {
                        present += 1;
                    }
                    lightest = lightest.min(stats.load_kgf.unwrap_or(f64::MAX));
                    lowest.0 = lowest.0.min(units_to_mmhg(stats.median));
                    lowest.1 = lowest.1.min(units_to_mmhg(stats.mean));
                    lowest.2 = lowest.2.min(units_to_mmhg(stats.std_dev));
                }
                let frames = rec.frames.len();
                row.push_str(&format!(" {present}/{frames} |"));
                all_present += present;
                all_frames += frames;
                if (present as f64) < FLOOR * frames as f64 {
                    failures.push(format!("{}: S{subject}/{posture} {present}/{frames}", device.name()));
                }
            }
            println!("{row} {:.1} / {:.1} / {:.1} |", lowest.0, lowest.1, lowest.2);
        }
        println!("all: {all_present}/{all_frames} ({:.2} %)", 100.0 * all_present as f64 / all_frames as f64);
        if lightest < f64::MAX {
            println!("lightest load on the mat: {lightest:.1} kgf (the load rule asks {MIN_LOAD_KGF})");
            assert!(lightest >= 3.0 * MIN_LOAD_KGF, "the load rule keeps a wide margin: {lightest}");
        }
    }
    println!("\nsaturation glitch frames (counted as occupied): {glitches:?}");
    assert_eq!(glitches.len(), 2, "the two whole-mat glitches of S1/8 and S4/6: {glitches:?}");
    assert!(failures.is_empty(), "below {FLOOR}: {failures:?}");
}

/// Renders a negative case on `device`'s grid, the bed's 192 cm spread over its long side.
fn negative_cells(case: negatives::Negative, device: DeviceType, seed: u64) -> Vec<u8> {
    let (rows, cols, _) = device.frame_shape().expect("shape");
    let mmhg = negatives::render(case, usize::from(rows), usize::from(cols), cell_pitch_cm(device) as f32, seed);
    real::mmhg_to_cells(mmhg, device)
}

#[test]
fn beds_nobody_lies_in_read_absence() {
    let mut wrong = Vec::new();
    for device in DEVICES {
        let (rows, cols, _) = device.frame_shape().expect("shape");
        let mut detector = detector(device);
        println!("\n{} ({rows}×{cols}, {:.0} cm cells): what decides ABSENCE (seed 1)", device.name(), cell_pitch_cm(device));
        println!("| case | active | mean | median | std dev (mmHg) | blob | load kgf | verdict |");
        println!("|---|---|---|---|---|---|---|---|");
        for (name, case) in CASES {
            for seed in 1..=20 {
                let stats = stats_of(&mut detector, device, &negative_cells(case, device, seed));
                if seed == 1 {
                    let load = stats.load_kgf.map_or("–".to_string(), |l| format!("{l:.1}"));
                    println!(
                        "| {name} | {} | {:.2} | {:.2} | {:.2} | {} | {load} | {:?} |",
                        stats.active_points,
                        units_to_mmhg(stats.mean),
                        units_to_mmhg(stats.median),
                        units_to_mmhg(stats.std_dev),
                        stats.largest_blob,
                        stats.verdict()
                    );
                }
                if stats.verdict() != Presence::Absent {
                    wrong.push(format!("{}: {name} seed {seed}: {stats:?}", device.name()));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn the_spec_numbers_alone_would_call_a_domed_5_kg_bag_a_person() {
    // Why whole-bed mats have the load rule: without it this bag passes all five numbers of §5.
    let (name, bag) = CASES[5];
    let stats = stats_of(
        &mut detector(DeviceType::MattressMatIoT),
        DeviceType::MattressMatIoT,
        &negative_cells(bag, DeviceType::MattressMatIoT, 1),
    );
    assert_eq!(PresenceStats { load_kgf: None, ..stats }.verdict(), Presence::Present, "{name}: {stats:?}");
    assert!(stats.load_kgf.is_some_and(|l| l < 6.0), "{stats:?}");
    assert_eq!(stats.verdict(), Presence::Absent);
}

#[test]
fn bed_geometry_matches_the_units() {
    // The real recordings are placed over each grid's long side (`simulator::real::place`) and
    // the negatives drawn at the type's pitch: both read every bed mat as the same 192 cm bed.
    for device in DEVICES {
        assert_eq!(device.map_length_cm(), Some(192.0), "{device:?}");
    }
}
