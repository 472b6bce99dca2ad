//! Fits the hub's posture model on the real development set and writes it as reviewed source:
//! `cargo run -p simulator --release --example fit_posture` (about a minute; no network). It
//! prints the leave-one-subject-out accuracy per geometry and subject and the calibration of the
//! confidence, then overwrites `actors/src/machine/posture/model.rs` with the model fitted on all
//! four subjects. Pass `--dry-run` to print without writing.

use std::path::Path;

use simulator::posture_fit::{self, GEOMETRIES};
use simulator::real;

fn main() -> std::io::Result<()> {
    let dry_run = std::env::args().any(|a| a == "--dry-run");
    let recordings = posture_fit::load_dev_set(&real::dev_set_dir())?;
    let samples = posture_fit::samples(&recordings, None);
    let folds = posture_fit::leave_one_subject_out(&samples);
    let temperature = posture_fit::choose_temperature(&samples, &folds, 0.995);
    println!("temperature {temperature:.3}");
    for (g, geometry) in GEOMETRIES.iter().enumerate() {
        for subject in real::DEV_SUBJECTS {
            let (mut right, mut n) = (0usize, 0usize);
            for s in samples.iter().filter(|s| s.geometry == g && s.subject == subject) {
                n += 1;
                let model = actors::machine::posture::LinearModel { temperature, ..posture_fit::fold_model(&folds, subject) };
                if posture_fit::read(s, model).is_some_and(|r| r.posture == posture_fit::expected(s)) {
                    right += 1;
                }
            }
            println!("{} S{subject}: {:.2} % of {n}", geometry.name, 100.0 * right as f64 / n as f64);
        }
    }
    let (above, n) = posture_fit::accuracy_above(&samples, &folds, temperature, 0.9);
    println!("confidence ≥ 0.9: {:.2} % right of {n}", 100.0 * above);
    let mut model = posture_fit::fit(samples.iter());
    model.temperature = temperature;
    let provenance = format!(
        "Linear discriminant over the features of `features.rs`, fitted on subjects S1–S4 × 17 postures,\n\
         every frame on the 48×48, 24×48 and 16×16 grids at gains {:?} and mirrored left–right\n\
         ({} samples before mirroring). Temperature {temperature:.3}: chosen leave-one-subject-out so that a\n\
         confidence of 0.9 or more is right at least 99.5 % of the time ({:.2} % there).",
        posture_fit::GAINS,
        samples.iter().filter(|s| s.features.is_some()).count(),
        100.0 * above
    );
    let source = posture_fit::model_source(&model, &provenance);
    if dry_run {
        println!("{source}");
    } else {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../actors/src/machine/posture/model.rs");
        std::fs::write(&path, source)?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
