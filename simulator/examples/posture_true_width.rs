//! What the posture model reads from real bodies at their true width on the grid: the development
//! sensor's cells are 2.4 cm across and 2.9 cm along (`simulator::real::TRUE_WIDTH_OVER_LENGTH`),
//! while the model is fitted and measured on the sensor laid as if they were square
//! (`real::place`, half as wide as long). Every subject read by the model fitted without them,
//! leave one subject out, the shipped calibration:
//! `cargo run -p simulator --release --example posture_true_width` (about 20 s here). Prints the
//! table of docs/posture.md, "Bodies at their true width".

use mat_core::machine::posture::model::MODEL;
use simulator::posture_fit::{self, Calibration, GEOMETRIES, HeldOut, Sample};
use simulator::real;

/// Percent right, overall and per subject, and the share of certain readings right, on one grid.
fn row(samples: &[Sample], held: &HeldOut, geometry: usize) -> String {
    let calibration = Calibration::of(&MODEL);
    let right = |keep: &dyn Fn(&Sample) -> bool| {
        let (mut ok, mut n) = (0usize, 0usize);
        for (i, _) in samples.iter().enumerate().filter(|(_, s)| s.geometry == geometry && keep(s)) {
            n += 1;
            ok += usize::from(held.is_right(samples, i, calibration));
        }
        format!("{:.1} %", 100.0 * ok as f64 / n.max(1) as f64)
    };
    let (mut certain, mut certain_right, mut n) = (0usize, 0usize, 0usize);
    for (i, s) in samples.iter().enumerate().filter(|(_, s)| s.geometry == geometry) {
        n += 1;
        if let Some(r) = held.reading(samples, i, calibration).filter(|r| r.confidence >= 0.9) {
            certain += 1;
            certain_right += usize::from(r.posture == posture_fit::expected(s));
        }
    }
    let subjects: Vec<String> = real::DEV_SUBJECTS.iter().map(|&subject| right(&|s: &Sample| s.subject == subject)).collect();
    format!(
        "{} | {} | {:.1} % | {:.2} %",
        right(&|_| true),
        subjects.join(" | "),
        100.0 * certain as f64 / n.max(1) as f64,
        100.0 * certain_right as f64 / certain.max(1) as f64
    )
}

fn main() -> std::io::Result<()> {
    let recordings = posture_fit::load_dev_set(&real::dev_set_dir())?;
    let placed = posture_fit::samples(&recordings, None);
    let true_width = posture_fit::samples_placed(&recordings, None, real::TRUE_WIDTH_OVER_LENGTH);
    // The folds of the shipped model (fitted as placed), and folds refitted at the true width.
    let folds = posture_fit::leave_one_subject_out(&placed);
    let refitted = posture_fit::leave_one_subject_out(&true_width);
    let cases = [
        ("fitted as placed, read as placed (the shipped model's figures)", &placed, HeldOut::new(&placed, &folds)),
        ("fitted as placed, read at the true width", &true_width, HeldOut::new(&true_width, &folds)),
        ("refitted at the true width, read at it", &true_width, HeldOut::new(&true_width, &refitted)),
    ];
    println!("| case | grid | right | S1 | S2 | S3 | S4 | confidence ≥ 0.9 | of them right |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for (name, samples, held) in &cases {
        for (g, geometry) in GEOMETRIES.iter().enumerate() {
            println!("| {name} | {} | {} |", geometry.name, row(samples, held, g));
        }
    }
    Ok(())
}
