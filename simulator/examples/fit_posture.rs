//! Fits the hub's posture model on the real development set and writes it as reviewed source:
//! `cargo run -p simulator --release --example fit_posture` (under a minute; no network). It
//! prints the leave-one-subject-out accuracy per geometry and subject and the calibration of the
//! confidence, then overwrites `actors/core/src/machine/posture/model.rs` with the model fitted on all
//! four subjects at the temperature chosen leave-one-subject-out. `--dry-run` writes nothing.

use std::path::Path;

use simulator::posture_fit::{self, GEOMETRIES, HeldOut};
use simulator::real;

/// Readings with a confidence of 0.9 or more must be right this often, held out.
const CONFIDENT_TARGET: f64 = 0.995;

fn main() -> std::io::Result<()> {
    let dry_run = std::env::args().any(|a| a == "--dry-run");
    let recordings = posture_fit::load_dev_set(&real::dev_set_dir())?;
    let clean = posture_fit::samples(&recordings, None);
    let folds = posture_fit::leave_one_subject_out(&clean);
    // The clean frames and the calibration's augmentations (other sensors' grids, gains, residue,
    // noise, shifts across): the confidence must hold on each of them held out.
    let samples = posture_fit::calibration_samples(&recordings, &clean);
    let held = HeldOut::new(&samples, &folds);
    // …and no inclined bed read a side with certainty, under any augmentation (issue 28).
    let inclined = posture_fit::inclined_samples(&recordings);
    let calibration = held.calibrate(&samples, CONFIDENT_TARGET, (&HeldOut::new(&inclined, &folds), &inclined));
    let (temperature, familiar) = (calibration.temperature, calibration.familiar_distance);
    println!(
        "temperature {temperature:.3} (held-out log loss {:.3}), familiar distance {familiar:.1}",
        held.log_loss(&samples, temperature)
    );
    for (g, geometry) in GEOMETRIES.iter().enumerate() {
        let mut line = format!("{:<28}", geometry.name);
        for subject in real::DEV_SUBJECTS {
            let (mut right, mut n) = (0usize, 0usize);
            for (i, _) in samples.iter().enumerate().filter(|(_, s)| s.augmentation == 0 && s.geometry == g && s.subject == subject) {
                n += 1;
                right += usize::from(held.is_right(&samples, i, calibration));
            }
            line += &format!("  S{subject} {:.2} %", 100.0 * right as f64 / n as f64);
        }
        println!("{line}");
    }
    let (above, n) = held.accuracy_above(&samples, calibration, 0.9);
    let worst = held.worst_accuracy_above(&samples, calibration, 0.9);
    println!(
        "confidence ≥ 0.9: {:.2} % right of {n} of {} readings (worst augmentation {:.2} %)",
        100.0 * above,
        samples.len(),
        100.0 * worst
    );
    let mut model = posture_fit::fit(clean.iter());
    model.temperature = temperature;
    model.familiar_distance = familiar;
    let provenance = format!(
        "Prototypes (k-means centres, `simulator::posture_fit::fit`) of the features of `features.rs`, fitted\n\
         on subjects S1–S4 × 17 postures, every frame on the 48×48, 24×48 and 16×16 grids at gains\n\
         {:?}, every {}th sample kept, mirrored left–right; each feature weighted by\n\
         `posture_fit::FEATURE_WEIGHTS` (chosen leave-one-subject-out by `examples/posture_search.rs`,\n\
         folded into the scale). Temperature {temperature:.3} (the lowest\n\
         log loss) and familiar distance {familiar:.1} chosen leave-one-subject-out so that a\n\
         confidence of 0.9 or more is right at least {:.1} % of the time on the clean frames and\n\
         under each of `posture_fit::CALIBRATION_AUGMENTATIONS` (every {}th frame: {})\n\
         ({:.2} % overall, {:.2} % in the worst, on {n} of {} readings).",
        posture_fit::GAINS,
        posture_fit::TRAINING_STEP,
        100.0 * CONFIDENT_TARGET,
        posture_fit::AUGMENTED_FRAME_STEP,
        posture_fit::CALIBRATION_AUGMENTATIONS.join(", "),
        100.0 * above,
        100.0 * worst,
        samples.len()
    );
    let source = posture_fit::model_source(&model, &provenance);
    if dry_run {
        println!("{source}");
    } else {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../actors/core/src/machine/posture/model.rs");
        std::fs::write(&path, source)?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
