//! Compares the simulator's bed bodies with real ones in the posture model's feature space:
//! `cargo run -p simulator --release --example compare_bodies`.
//!
//! For each grid and each of the simulator's lying postures (supine, left side, right side), it
//! prints the posture the shipped model reads, the squared distance to each class's nearest
//! prototype, and the features furthest (in standardised units) from the mean of the real frames
//! of that posture on that grid: what to change in `simulator/src/synth/bed.rs` so the simulator's
//! bodies look like real ones to the model.

use std::time::Duration;

use mat_core::machine::posture::features::{FEATURE_COUNT, feature_name};
use mat_core::machine::posture::{Orientation, Posture, PostureClassifier, PostureScheme, model::MODEL};
use mat_core::machine::pressure_map::PressureMap;
use mat_protocol::CellFormat;
use simulator::posture_fit::{self, GEOMETRIES};
use simulator::real;
use simulator::synth::BedScript;
use simulator::{MapSynth, Scenario};

fn main() -> std::io::Result<()> {
    let recordings = posture_fit::load_dev_set(&real::dev_set_dir())?;
    let samples = posture_fit::samples(&recordings, None);
    let z = |v: &[f32; FEATURE_COUNT]| -> [f32; FEATURE_COUNT] {
        std::array::from_fn(|i| if MODEL.scale[i].is_finite() { (v[i] - MODEL.mean[i]) / MODEL.scale[i] } else { 0.0 })
    };
    for (g, geometry) in GEOMETRIES.iter().enumerate() {
        let classifier = PostureClassifier::new(PostureScheme::Lying, Orientation::default());
        for (posture, at) in [(Posture::Supine, 50u64), (Posture::LeftLateral, 110), (Posture::RightLateral, 160), (Posture::Prone, 200)] {
            // The real mean of this posture on this grid (prone has none: compare with supine).
            let real_label = if posture == Posture::Prone { Posture::Supine } else { posture };
            let mut mean = [0.0f64; FEATURE_COUNT];
            let mut n = 0.0;
            for s in samples.iter().filter(|s| s.geometry == g && s.label == real_label && s.gain == 1) {
                if let Some(f) = s.features {
                    let zf = z(&f.values);
                    for i in 0..FEATURE_COUNT {
                        mean[i] += f64::from(zf[i]);
                    }
                    n += 1.0;
                }
            }
            let mut synth = MapSynth::new(geometry.rows, geometry.cols, CellFormat::U8, Scenario::BedOccupant(BedScript::default()), 5);
            let cells = synth.render(Duration::from_secs(at));
            let map = PressureMap::new(geometry.rows, geometry.cols, CellFormat::U8, &cells).expect("shape");
            let f = classifier.features(&map).expect("a body");
            let reading = classifier.decide(&f);
            let d = MODEL.distances(&f.values);
            let zf = z(&f.values);
            let mut gaps: Vec<(usize, f64)> = (0..FEATURE_COUNT).map(|i| (i, f64::from(zf[i]) - mean[i] / n)).collect();
            gaps.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()));
            println!(
                "{} {:<14} read {:<14} {:.2}  distances S {:.1} L {:.1} R {:.1}  extent {:.2} knee {:.2}/{:.2} upper {:.2}",
                geometry.name,
                posture.name(),
                reading.posture.name(),
                reading.confidence,
                d[0],
                d[1],
                d[2],
                f.extent,
                f.knee_ratio,
                f.knee_level,
                f.upper_load
            );
            for (i, gap) in gaps.iter().take(6) {
                println!("      {:<40} sim {:+.2} real mean {:+.2} (gap {gap:+.2})", feature_name(*i), zf[*i], mean[*i] / n);
            }
            // What pulls the body towards the prototype read rather than its own posture's nearest.
            let nearest = |class: usize| -> &[f32; FEATURE_COUNT] {
                let per = mat_core::machine::posture::PROTOTYPES_PER_CLASS;
                let square = |p: &[f32; FEATURE_COUNT]| -> f32 { p.iter().zip(zf.iter()).map(|(a, b)| (a - b) * (a - b)).sum() };
                MODEL.prototypes[class * per..(class + 1) * per].iter().min_by(|a, b| square(a).total_cmp(&square(b))).expect("prototypes")
            };
            let own = match real_label {
                Posture::LeftLateral => 1,
                Posture::RightLateral => 2,
                _ => 0,
            };
            let read = mat_core::machine::posture::MODEL_CLASSES.iter().position(|&c| c == reading.posture).unwrap_or(0);
            if own != read {
                let (p_own, p_read) = (nearest(own), nearest(read));
                let mut pulls: Vec<(usize, f32)> =
                    (0..FEATURE_COUNT).map(|i| (i, (zf[i] - p_own[i]).powi(2) - (zf[i] - p_read[i]).powi(2))).collect();
                pulls.sort_by(|a, b| b.1.total_cmp(&a.1));
                for (i, pull) in pulls.iter().take(8) {
                    println!(
                        "      pull {:<40} sim {:+.2} own {:+.2} read {:+.2} ({pull:+.2})",
                        feature_name(*i),
                        zf[*i],
                        p_own[*i],
                        p_read[*i]
                    );
                }
            }
        }
    }
    Ok(())
}
