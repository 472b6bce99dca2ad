//! Posture on real in-bed maps (`../shared/data/pmd-dev/`, subjects S1–S4 × 17 postures), on the
//! three bed-mat grids, at three linear gains, scored leave-one-subject-out: every subject is read
//! by a model fitted on the other three. `cargo test -p simulator --test real_posture -- --nocapture`
//! prints the tables of docs/posture.md.

use std::sync::OnceLock;

use actors::machine::posture::{model::MODEL, LinearModel, Posture};
use simulator::posture_fit::{self, Noise, Sample, GAINS, GEOMETRIES};
use simulator::real;

/// Floors asserted on the leave-one-subject-out figures. They are the levels reached today, a
/// little below, so a regression fails; the targets (97 % overall, 93 % per subject,
/// 99 % right at confidence ≥ 0.9) are printed beside them and not yet met (docs/posture.md).
const OVERALL_FLOOR: [f64; 3] = [90.0, 90.0, 85.0];
const SUBJECT_FLOOR: [f64; 3] = [78.0, 78.0, 72.0];
const CONFIDENT_FLOOR: f64 = 96.0;

struct Data {
    samples: Vec<Sample>,
    folds: Vec<(u8, LinearModel)>,
}

fn data() -> &'static Data {
    static DATA: OnceLock<Data> = OnceLock::new();
    DATA.get_or_init(|| {
        let recordings = posture_fit::load_dev_set(&real::dev_set_dir()).expect("the development set");
        let samples = posture_fit::samples(&recordings, None);
        let folds = posture_fit::leave_one_subject_out(&samples);
        Data { samples, folds }
    })
}

/// The held-out reading of a sample, at the shipped model's temperature.
fn held_out(d: &Data, s: &Sample) -> Option<actors::machine::posture::PostureReading> {
    posture_fit::read(s, LinearModel { temperature: MODEL.temperature, ..posture_fit::fold_model(&d.folds, s.subject) })
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
        let mut right_all = (0, 0);
        for truth in [Posture::Supine, Posture::LeftLateral, Posture::RightLateral] {
            let mut row = [0usize; 7];
            for s in d.samples.iter().filter(|s| s.geometry == g && s.label == truth) {
                let got = held_out(d, s).map(|r| r.posture);
                row[COLUMNS.iter().position(|c| *c == got).expect("a column")] += 1;
                right_all.1 += 1;
                if got == Some(posture_fit::expected(s)) {
                    right_all.0 += 1;
                }
            }
            let cells: Vec<String> = row.iter().map(|n| n.to_string()).collect();
            println!("| {} | {} |", truth.name(), cells.join(" | "));
        }
        let overall = pct(right_all.0, right_all.1);
        let mut per_subject = Vec::new();
        for subject in real::DEV_SUBJECTS {
            let (mut right, mut n) = (0, 0);
            for s in d.samples.iter().filter(|s| s.geometry == g && s.subject == subject) {
                n += 1;
                right += usize::from(held_out(d, s).map(|r| r.posture) == Some(posture_fit::expected(s)));
            }
            per_subject.push((subject, pct(right, n)));
        }
        let mut per_gain = Vec::new();
        for (k, gain) in GAINS.iter().enumerate() {
            let (mut right, mut n) = (0, 0);
            for s in d.samples.iter().filter(|s| s.geometry == g && s.gain == k) {
                n += 1;
                right += usize::from(held_out(d, s).map(|r| r.posture) == Some(posture_fit::expected(s)));
            }
            per_gain.push(format!("×{gain}: {:.1} %", pct(right, n)));
        }
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
                .map(|&subject| {
                    let (mut right, mut n) = (0, 0);
                    for s in d.samples.iter().filter(|s| s.geometry == g && s.subject == subject && s.recording == rec) {
                        n += 1;
                        right += usize::from(held_out(d, s).map(|r| r.posture) == Some(posture_fit::expected(s)));
                    }
                    pct(right, n)
                })
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
        let (mut right, mut n) = (0, 0);
        for s in &d.samples {
            if let Some(r) = held_out(d, s).filter(|r| r.confidence >= lo && r.confidence < hi) {
                n += 1;
                right += usize::from(r.posture == posture_fit::expected(s));
            }
        }
        println!("| {lo:.1}–{:.1} | {n} | {:.1} % |", hi.min(1.0), pct(right, n));
    }
    let (right, n) = posture_fit::accuracy_above(&d.samples, &d.folds, MODEL.temperature, 0.9);
    println!("confidence ≥ 0.9: {:.2} % right of {n} readings (target 99 %)", 100.0 * right);
    assert!(n > d.samples.len() / 20, "too few confident readings: {n}");
    assert!(100.0 * right >= CONFIDENT_FLOOR, "confidence ≥ 0.9 right {:.2} %", 100.0 * right);
}

#[test]
fn the_shipped_model_is_what_the_fitting_program_writes() {
    let d = data();
    let fitted = posture_fit::fit(d.samples.iter());
    let close = |a: f32, b: f32| (a - b).abs() <= 1e-4 * (1.0 + a.abs().max(b.abs()));
    for k in 0..3 {
        assert!(close(fitted.bias[k], MODEL.bias[k]), "bias {k}: {} vs {}", fitted.bias[k], MODEL.bias[k]);
        for i in 0..fitted.mean.len() {
            assert!(close(fitted.weights[k][i], MODEL.weights[k][i]), "weight {k},{i}: rerun the fit_posture example");
        }
    }
    for i in 0..fitted.mean.len() {
        assert!(close(fitted.mean[i], MODEL.mean[i]) && close(fitted.scale[i], MODEL.scale[i]), "feature {i}: rerun fit_posture");
    }
}

#[test]
fn sensor_noise_does_not_move_the_readings() {
    let d = data();
    let recordings = posture_fit::load_dev_set(&real::dev_set_dir()).expect("the development set");
    let noise = Noise { additive: 3.0, gain: 0.15, dead: 0.01, hot: 0.002 };
    let noisy = posture_fit::samples(&recordings, Some(noise));
    let (mut clean_right, mut noisy_right, mut n) = (0, 0, 0);
    for (clean, degraded) in d.samples.iter().zip(noisy.iter()) {
        n += 1;
        clean_right += usize::from(held_out(d, clean).map(|r| r.posture) == Some(posture_fit::expected(clean)));
        noisy_right += usize::from(held_out(d, degraded).map(|r| r.posture) == Some(posture_fit::expected(degraded)));
    }
    let (clean, noisy) = (pct(clean_right, n), pct(noisy_right, n));
    println!("\nclean {clean:.1} %, with ±3 additive, ±15 % per-cell gain, 1 % dead, 0.2 % hot cells: {noisy:.1} %");
    assert!(noisy >= clean - 3.5, "noise costs {:.1} points", clean - noisy);
}
