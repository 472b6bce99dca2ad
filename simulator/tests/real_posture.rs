//! Posture on real in-bed maps (`../shared/data/pmd-dev/`, subjects S1–S4 × 17 postures), on the
//! three bed-mat grids, at three linear gains, scored leave-one-subject-out: every subject is read
//! by a model fitted on the other three. `cargo test -p simulator --test real_posture -- --nocapture`
//! prints the tables of docs/posture.md.

use std::sync::OnceLock;

use mat_core::machine::posture::{Posture, PostureReading, model::MODEL};
use simulator::posture_augment;
use simulator::posture_fit::{self, Calibration, GAINS, GEOMETRIES, HeldOut, Noise, Sample};
use simulator::real;

/// Floors asserted on the leave-one-subject-out accuracy (percent), per geometry (48×48, 24×48,
/// 16×16): the targets, 97 % overall and 93 % for every subject, on every grid.
const OVERALL_FLOOR: [f64; 3] = [97.0, 97.0, 97.0];
const SUBJECT_FLOOR: [f64; 3] = [93.0, 93.0, 93.0];
/// Each class (Supine, Left Lateral, Right Lateral) must be read right this often on each grid.
const CLASS_FLOOR: f64 = 95.0;
/// Accuracy over every grid and gain with the sensor noise of `sensor_noise_does_not_move_the_readings`.
const NOISY_FLOOR: f64 = 94.0;
/// Readings with a confidence of 0.9 or more must be right this often (percent): the target.
const CONFIDENT_FLOOR: f64 = 99.0;

struct Data {
    recordings: Vec<real::Recording>,
    /// The clean frames on every grid and gain.
    samples: Vec<Sample>,
    folds: Vec<(u8, mat_core::machine::posture::PrototypeModel)>,
    held: HeldOut,
}

fn data() -> &'static Data {
    static DATA: OnceLock<Data> = OnceLock::new();
    DATA.get_or_init(|| {
        let recordings = posture_fit::load_dev_set(&real::dev_set_dir()).expect("the development set");
        let samples = posture_fit::samples(&recordings, None);
        let folds = posture_fit::leave_one_subject_out(&samples);
        let held = HeldOut::new(&samples, &folds);
        Data { recordings, samples, folds, held }
    })
}

/// The held-out reading of `d.samples[index]`, with the shipped model's calibration.
fn held_out(d: &Data, index: usize) -> Option<PostureReading> {
    d.held.reading(&d.samples, index, Calibration::of(&MODEL))
}

fn right(d: &Data, index: usize) -> bool {
    d.held.is_right(&d.samples, index, Calibration::of(&MODEL))
}

/// Indices of the samples matching `keep`.
fn select<'a>(d: &'a Data, keep: impl Fn(&Sample) -> bool + 'a) -> impl Iterator<Item = usize> + 'a {
    d.samples.iter().enumerate().filter(move |(_, s)| keep(s)).map(|(i, _)| i)
}

/// Percent right among `indices`.
fn accuracy(d: &Data, indices: impl Iterator<Item = usize>) -> f64 {
    let (mut ok, mut n) = (0, 0);
    for i in indices {
        n += 1;
        ok += usize::from(right(d, i));
    }
    pct(ok, n)
}

fn pct(right: usize, n: usize) -> f64 {
    if n == 0 { 100.0 } else { 100.0 * right as f64 / n as f64 }
}

const COLUMNS: [Option<Posture>; 7] = [
    Some(Posture::Supine),
    Some(Posture::LeftLateral),
    Some(Posture::RightLateral),
    Some(Posture::Prone),
    Some(Posture::Seated),
    Some(Posture::NoSupine),
    None,
];

#[test]
fn posture_holds_on_real_maps_leave_one_subject_out() {
    let d = data();
    let mut failures = Vec::new();
    for (g, geometry) in GEOMETRIES.iter().enumerate() {
        println!("\n### {} (all gains, leave-one-subject-out)\n", geometry.name);
        println!("| truth \\ read | Supine | Left Lateral | Right Lateral | Prone | Seated | No Supine | nothing |");
        println!("|---|---|---|---|---|---|---|---|");
        for truth in [Posture::Supine, Posture::LeftLateral, Posture::RightLateral] {
            let mut row = [0usize; 7];
            for i in select(d, |s| s.geometry == g && s.label == truth) {
                let got = held_out(d, i).map(|r| r.posture);
                row[COLUMNS.iter().position(|c| *c == got).expect("a column")] += 1;
            }
            let cells: Vec<String> = row.iter().map(|n| n.to_string()).collect();
            println!("| {} | {} |", truth.name(), cells.join(" | "));
            let class = accuracy(d, select(d, move |s| s.geometry == g && s.label == truth));
            if class < CLASS_FLOOR {
                failures.push(format!("{} {}: {class:.1} % < {CLASS_FLOOR}", geometry.name, truth.name()));
            }
        }
        let overall = accuracy(d, select(d, |s| s.geometry == g));
        let per_subject: Vec<(u8, f64)> = real::DEV_SUBJECTS
            .iter()
            .map(|&subject| (subject, accuracy(d, select(d, move |s| s.geometry == g && s.subject == subject))))
            .collect();
        let per_gain: Vec<String> = GAINS
            .iter()
            .enumerate()
            .map(|(k, gain)| format!("×{gain}: {:.1} %", accuracy(d, select(d, move |s| s.geometry == g && s.gain == k))))
            .collect();
        println!(
            "\noverall {overall:.1} % (target 97 %); per subject {} (target 93 % each); per gain {}",
            per_subject.iter().map(|(s, a)| format!("S{s} {a:.1} %")).collect::<Vec<_>>().join(", "),
            per_gain.join(", ")
        );
        if overall < OVERALL_FLOOR[g] {
            failures.push(format!("{}: overall {overall:.1} % < {}", geometry.name, OVERALL_FLOOR[g]));
        }
        for (subject, a) in per_subject {
            if a < SUBJECT_FLOOR[g] {
                failures.push(format!("{} S{subject}: {a:.1} % < {}", geometry.name, SUBJECT_FLOOR[g]));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn recordings_that_fail_are_listed() {
    let d = data();
    println!("\n| geometry | recording | S1 | S2 | S3 | S4 |");
    println!("|---|---|---|---|---|---|");
    for (g, geometry) in GEOMETRIES.iter().enumerate() {
        for rec in real::POSTURES {
            let cells: Vec<f64> = real::DEV_SUBJECTS
                .iter()
                .map(|&subject| accuracy(d, select(d, move |s| s.geometry == g && s.subject == subject && s.recording == rec)))
                .collect();
            if cells.iter().any(|&a| a < 90.0) {
                let shown: Vec<String> = cells.iter().map(|a| format!("{a:.0} %")).collect();
                println!("| {} | {rec} {} | {} |", geometry.name, real::description(rec), shown.join(" | "));
            }
        }
    }
}

#[test]
fn the_confidence_is_calibrated() {
    let d = data();
    let buckets = [(0.0f32, 0.5f32), (0.5, 0.7), (0.7, 0.9), (0.9, 1.01)];
    println!("\n| confidence | readings | right |");
    println!("|---|---|---|");
    for (lo, hi) in buckets {
        let (mut ok, mut n) = (0, 0);
        for (i, s) in d.samples.iter().enumerate() {
            if let Some(r) = held_out(d, i).filter(|r| r.confidence >= lo && r.confidence < hi) {
                n += 1;
                ok += usize::from(r.posture == posture_fit::expected(s));
            }
        }
        println!("| {lo:.1}–{:.1} | {n} | {:.1} % |", hi.min(1.0), pct(ok, n));
    }
    let (right, n) = d.held.accuracy_above(&d.samples, Calibration::of(&MODEL), 0.9);
    println!("confidence ≥ 0.9: {:.2} % right of {n} readings (target 99 %)", 100.0 * right);
    assert!(n > d.samples.len() / 20, "too few confident readings: {n}");
    assert!(100.0 * right >= CONFIDENT_FLOOR, "confidence ≥ 0.9 right {:.2} %", 100.0 * right);
}

#[test]
fn the_shipped_model_is_what_the_fitting_program_writes() {
    let d = data();
    let fitted = posture_fit::fit(d.samples.iter());
    // The source keeps 4 decimals of each prototype coordinate and full precision elsewhere.
    let close = |a: f32, b: f32, tolerance: f32| (a - b).abs() <= tolerance * (1.0 + a.abs().max(b.abs()));
    for (j, (a, b)) in fitted.prototypes.iter().zip(MODEL.prototypes.iter()).enumerate() {
        for i in 0..a.len() {
            assert!(close(a[i], b[i], 1e-3), "prototype {j} feature {i}: {} vs {}: rerun the fit_posture example", a[i], b[i]);
        }
    }
    for i in 0..fitted.mean.len() {
        assert!(
            close(fitted.mean[i], MODEL.mean[i], 1e-5) && close(fitted.scale[i], MODEL.scale[i], 1e-5),
            "feature {i}: rerun fit_posture"
        );
    }
}

#[test]
fn sensor_noise_does_not_move_the_readings() {
    let d = data();
    let recordings = &d.recordings;
    let noise = Noise { additive: 3.0, gain: 0.15, dead: 0.01, hot: 0.002 };
    let noisy = posture_fit::samples(recordings, Some(noise));
    let noisy_held = HeldOut::new(&noisy, &d.folds);
    let clean = accuracy(d, 0..d.samples.len());
    let noisy_right = (0..noisy.len()).filter(|&i| noisy_held.is_right(&noisy, i, Calibration::of(&MODEL))).count();
    let noisy = pct(noisy_right, noisy.len());
    println!("\nclean {clean:.1} %, with ±3 additive, ±15 % per-cell gain, 1 % dead, 0.2 % hot cells: {noisy:.1} %");
    assert!(noisy >= NOISY_FLOOR, "with sensor noise {noisy:.1} % < {NOISY_FLOOR} %");
    assert!(noisy >= clean - 4.0, "noise costs {:.1} points", clean - noisy);
}

/// Per augmentation of `posture_augment::AUGMENTATIONS` (names), the floor on the held-out
/// accuracy (percent) on each grid (48×48, 24×48, 16×16): regression floors a little under what
/// `cargo run -p simulator --release --example posture_calibration` measures (docs/posture.md).
const AUGMENTED_FLOORS: [(&str, [f64; 3]); 13] = [
    ("clean", [97.0, 97.0, 96.0]),
    ("sensor 30×11", [96.0, 96.0, 93.0]),
    ("sensor 16×16", [97.5, 97.5, 96.0]),
    ("sensor 32×16", [97.5, 97.5, 96.0]),
    ("gain 0.5–2", [97.0, 97.0, 95.5]),
    ("idle residue 2 steps", [97.0, 97.0, 95.5]),
    ("noise ±3, ±15 % gain", [96.0, 96.5, 91.0]),
    ("saturated (top 15 %)", [96.0, 96.0, 88.5]),
    ("smaller body 76–100 %", [96.5, 96.5, 90.0]),
    ("shifted along ±6 %", [97.0, 97.0, 93.5]),
    ("shifted across ±15 %", [96.5, 97.0, 93.5]),
    ("turned ±6°", [97.0, 97.0, 93.0]),
    ("30×11, all of them", [91.5, 95.5, 85.5]),
];

/// Every augmentation's samples, read held out by the folds of [`data`].
fn augmented() -> &'static (Vec<Sample>, HeldOut) {
    static AUGMENTED: OnceLock<(Vec<Sample>, HeldOut)> = OnceLock::new();
    AUGMENTED.get_or_init(|| {
        let d = data();
        let eval = posture_fit::evaluation_samples(&d.recordings);
        let held = HeldOut::new(&eval, &d.folds);
        (eval, held)
    })
}

/// Inclined beds (recordings 15–17: 30°, 45°, 60°) must read Supine, never a side with
/// certainty; a 30° wedge (4: right, 6: left) the side the person is tilted onto. Held out, under
/// every augmentation, on every grid.
#[test]
fn inclined_beds_read_supine_and_wedges_the_side() {
    let (eval, held) = augmented();
    let calibration = Calibration::of(&MODEL);
    let side = |p: Posture| matches!(p, Posture::LeftLateral | Posture::RightLateral);
    let (mut n, mut supine, mut certain_side, mut certain_prone) = (0usize, 0usize, 0usize, 0usize);
    for (i, _) in eval.iter().enumerate().filter(|(_, s)| (15..=17).contains(&s.recording)) {
        n += 1;
        let Some(r) = held.reading(eval, i, calibration) else { continue };
        supine += usize::from(r.posture == Posture::Supine);
        certain_side += usize::from(r.is_certain() && (side(r.posture) || r.posture == Posture::NoSupine));
        certain_prone += usize::from(r.is_certain() && r.posture == Posture::Prone);
    }
    let (mut wedges, mut wedge_right) = (0usize, 0usize);
    for (i, _) in eval.iter().enumerate().filter(|(_, s)| matches!(s.recording, 4 | 6)) {
        wedges += 1;
        wedge_right += usize::from(held.is_right(eval, i, calibration));
    }
    println!(
        "\ninclined beds: {n} readings, Supine {:.1} %, a side with certainty {certain_side}, Prone with certainty {certain_prone}; \
         30° wedges: {wedges} readings, the side {:.1} %",
        pct(supine, n),
        pct(wedge_right, wedges)
    );
    assert!(pct(supine, n) >= 88.0, "inclined beds read Supine {:.1} %", pct(supine, n));
    // Issue 28: none since a certain reading must hold half a cell further along the body
    // (`posture::confirmed`; six before, five on the 16×16 legacy grid at the lowest gain).
    assert_eq!(certain_side, INCLINED_CERTAIN_SIDES, "inclined beds read a side with certainty {certain_side} times in {n}");
    assert!(pct(certain_prone, n) <= 0.1, "inclined beds read Prone with certainty {certain_prone} times in {n}");
    assert!(pct(wedge_right, wedges) >= 95.0, "30° wedges read their side {:.1} %", pct(wedge_right, wedges));
}

/// Inclined-bed readings of a side with certainty (of 11,544; issue 28: none, and no more may
/// appear).
const INCLINED_CERTAIN_SIDES: usize = 0;

/// Prone (issue 28): the simulator's prone people (`posture_fit::prone_frames`) under every
/// augmentation must read Prone (No Supine on the Sleep Mat) with certainty at least this often
/// (percent) on the 48×48 and 24×48 grids; on the 16×16 legacy grid a prone reading stays
/// uncertain (`posture::PRONE_MIN_LINES`). Issue 28 measured 95.0 % and 96.7 % (85 before the
/// clipped-cell cue and `posture::PRONE_FLAT`).
const PRONE_CERTAIN_FLOOR: f64 = 93.0;
/// …and at least this often under every single augmentation, on each of the two grids (the
/// issue's goal for prone; issue 28 measured 82.5 % at worst, a smaller body and all at once).
const PRONE_AUGMENTED_FLOOR: f64 = 80.0;

/// Prone is recognised with certainty on simulated people seen through every other sensor, and
/// never read with certainty on the real supine and side-lying bodies, held out, under any
/// augmentation. `posture_calibration -- --prone` prints the table of docs/posture.md.
#[test]
fn prone_is_certain_on_prone_people_and_never_on_real_supine_or_side_lying_ones() {
    let (eval, held) = augmented();
    let calibration = Calibration::of(&MODEL);
    let frames = posture_fit::prone_frames(posture_fit::PRONE_BODIES);
    let (mut readings, mut certain, mut certain_short) = (0usize, 0usize, 0usize);
    let mut failures = Vec::new();
    for (a, aug) in posture_augment::AUGMENTATIONS.iter().enumerate() {
        let prone = posture_fit::prone_samples(&frames, a);
        for (g, geometry) in GEOMETRIES.iter().enumerate() {
            let row = posture_fit::prone_row(&prone.iter().filter(|s| s.geometry == g).cloned().collect::<Vec<_>>());
            if g == 2 {
                certain_short += row.confident_right;
            } else {
                readings += row.readings;
                certain += row.confident_right;
                if pct(row.confident_right, row.readings) < PRONE_AUGMENTED_FLOOR {
                    failures.push(format!(
                        "{} on {}: prone certain {:.1} %",
                        aug.name,
                        geometry.name,
                        pct(row.confident_right, row.readings)
                    ));
                }
            }
        }
        let false_prone = posture_fit::certain_false_prone(eval, held, calibration, |s| s.augmentation == a);
        println!("{}: real read Prone with certainty {false_prone}", aug.name);
        if false_prone > 0 {
            failures.push(format!("{}: {false_prone} real supine or side-lying readings read Prone with certainty", aug.name));
        }
    }
    println!("prone people: {:.1} % certain on 48×48 and 24×48; {certain_short} certain prone on 16×16", pct(certain, readings));
    assert!(pct(certain, readings) >= PRONE_CERTAIN_FLOOR, "prone certain {:.1} %", pct(certain, readings));
    assert_eq!(certain_short, 0, "a prone reading on the 16×16 legacy grid is never certain");
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn the_confidence_holds_under_every_augmentation() {
    let (eval, held) = augmented();
    let (eval, held) = (eval.as_slice(), held);
    let calibration = Calibration::of(&MODEL);
    let mut failures = Vec::new();
    println!("\n| augmentation | grid | readings | right | confidence ≥ 0.9 | of them right | below 0.9 right |");
    println!("|---|---|---|---|---|---|---|");
    for (name, floors) in AUGMENTED_FLOORS {
        let a = posture_augment::index(name);
        for (g, geometry) in GEOMETRIES.iter().enumerate() {
            let row = posture_fit::calibration_row(eval, held, calibration, |s| s.augmentation == a && s.geometry == g);
            println!("| {name} | {} | {} |", geometry.name, row.cells());
            if row.accuracy() < floors[g] {
                failures.push(format!("{name} on {}: {:.1} % < {}", geometry.name, row.accuracy(), floors[g]));
            }
            // Issue 28: on each grid apart too, the 16×16 legacy grid included (99.10 % at worst
            // since the confirmation half a cell further along; 98.5 % before).
            if row.confident_accuracy() < CONFIDENT_FLOOR {
                failures.push(format!("{name} on {}: confidence ≥ 0.9 right {:.2} %", geometry.name, row.confident_accuracy()));
            }
        }
        let all = posture_fit::calibration_row(eval, held, calibration, |s| s.augmentation == a);
        if all.confident_accuracy() < CONFIDENT_FLOOR {
            failures.push(format!("{name}: confidence ≥ 0.9 right {:.2} % < {CONFIDENT_FLOOR}", all.confident_accuracy()));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
