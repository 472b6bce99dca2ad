//! Chooses the posture model's feature weights leave-one-subject-out on the development set:
//! `cargo run -p simulator --release --example posture_search` (a few minutes; no network).
//!
//! Starting from the weights in `simulator::posture_fit::FEATURE_WEIGHTS`, it tries each feature
//! group at a few weights, one group at a time (unused groups first), keeps a change as soon as it
//! raises the objective, and makes at most two such rounds. The objective favours the 48×48 grid (the floors of
//! issue 15 are asserted there and on 24×48, whose body area is the same): twice the 48×48
//! overall and worst-subject accuracy plus the 16×16 ones. It prints the weights to paste into
//! `FEATURE_WEIGHTS` (a group at weight 0 is to be removed from `features.rs`: the shipped model's
//! scales must be finite), then `examples/fit_posture.rs` rewrites the model. Choosing weights on the same four subjects that measure them makes the
//! held-out figures a little optimistic (docs/posture.md).

use mat_core::machine::posture::features::{FEATURE_COUNT, feature_name};
use simulator::posture_fit::{self, FEATURE_WEIGHTS, GEOMETRIES, HeldOut, Sample};
use simulator::real;

/// Feature groups: (name, first index, count), from `feature_name`.
fn groups() -> Vec<(String, usize, usize)> {
    let mut out: Vec<(String, usize, usize)> = Vec::new();
    for i in 0..FEATURE_COUNT {
        let name = feature_name(i);
        let group = name.split(", band").next().unwrap_or(&name).split(", fine band").next().unwrap_or(&name).to_owned();
        let group = if name.contains("fine band") { format!("{group} (fine)") } else { group };
        match out.last_mut() {
            Some((g, _, n)) if *g == group => *n += 1,
            _ => out.push((group, i, 1)),
        }
    }
    out
}

/// Accuracy (percent) per geometry: overall and per subject.
fn evaluate(samples: &[Sample], weights: &[f32; FEATURE_COUNT]) -> Vec<(f64, [f64; 4])> {
    let folds = posture_fit::leave_one_subject_out_weighted(samples, weights);
    let held = HeldOut::new(samples, &folds);
    let calibration = posture_fit::Calibration { temperature: 1.0, familiar_distance: f32::INFINITY };
    (0..GEOMETRIES.len())
        .map(|g| {
            let mut right = [0usize; 4];
            let mut n = [0usize; 4];
            for (i, s) in samples.iter().enumerate().filter(|(_, s)| s.geometry == g) {
                let k = usize::from(s.subject - 1);
                n[k] += 1;
                right[k] += usize::from(held.is_right(samples, i, calibration));
            }
            let overall = 100.0 * right.iter().sum::<usize>() as f64 / n.iter().sum::<usize>() as f64;
            (overall, std::array::from_fn(|k| 100.0 * right[k] as f64 / n[k].max(1) as f64))
        })
        .collect()
}

fn objective(r: &[(f64, [f64; 4])]) -> f64 {
    let worst = |g: usize| r[g].1.iter().copied().fold(f64::INFINITY, f64::min);
    2.0 * (r[0].0 + worst(0)) + r[2].0 + worst(2)
}

fn show(r: &[(f64, [f64; 4])]) -> String {
    r.iter()
        .map(|(o, s)| format!("{o:.2} % [{}]", s.iter().map(|a| format!("{a:.1}")).collect::<Vec<_>>().join(" ")))
        .collect::<Vec<_>>()
        .join("  ")
}

fn main() -> std::io::Result<()> {
    let recordings = posture_fit::load_dev_set(&real::dev_set_dir())?;
    let samples = posture_fit::samples(&recordings, None);
    let groups = groups();
    let mut weights = FEATURE_WEIGHTS;
    let mut best = evaluate(&samples, &weights);
    println!("start: {} objective {:.2}", show(&best), objective(&best));
    let candidates = [0.0f32, 0.5, 1.0, 2.0];
    // First improvement: the groups not yet used first, each change kept as soon as it helps.
    let mut order: Vec<usize> = (0..groups.len()).collect();
    order.sort_by_key(|&k| weights[groups[k].1] > 0.0);
    for round in 0..2 {
        let mut changed = false;
        for &k in &order {
            let (name, first, count) = &groups[k];
            for &w in &candidates {
                if (weights[*first] - w).abs() < 1e-6 {
                    continue;
                }
                let mut trial = weights;
                trial[*first..first + count].fill(w);
                let r = evaluate(&samples, &trial);
                println!("  round {round} {name} × {w}: {} objective {:.2}", show(&r), objective(&r));
                if objective(&r) > objective(&best) + 0.1 {
                    println!("keep {name} × {w}");
                    weights = trial;
                    best = r;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    println!("weights: {:?}", weights);
    for (name, first, _) in &groups {
        println!("  {name}: {}", weights[*first]);
    }
    Ok(())
}
