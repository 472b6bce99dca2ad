//! Fitting and measuring the hub's posture model on the real development set
//! (`../shared/data/pmd-dev/`, see [`crate::real`]).
//!
//! Every frame of every recording is placed on each bed mat's grid in the product's orientation,
//! scaled to u8 cells at several linear gains (the unit decision must not matter to posture) and
//! turned into [`BodyFeatures`]. The model is a linear discriminant (class means and a shared,
//! ridge-regularised covariance over standardised features), fitted on all geometries and gains
//! together, with every frame also mirrored left–right (antisymmetric features negated, Left and
//! Right Lateral swapped) so the model cannot learn one subject's habit of lying off-centre.
//! [`leave_one_subject_out`] fits one model per held-out subject and scores that subject with it;
//! the temperature is chosen on those held-out scores ([`choose_temperature`]).
//!
//! Used by `examples/fit_posture.rs` (writes `actors/src/machine/posture/model.rs`) and by the
//! regression tests `tests/real_posture.rs` and `tests/real_turns.rs`.

use std::io;
use std::path::Path;

use actors::machine::posture::features::{BodyFeatures, Profiles, ANTISYMMETRIC, FEATURE_COUNT};
use actors::machine::posture::{LinearModel, Orientation, Posture, PostureClassifier, PostureReading, PostureScheme, MODEL_CLASSES};
use actors::machine::pressure_map::PressureMap;
use actors::protocol::CellFormat;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::real::{self, Recording};

/// A bed mat's grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    /// The device type it stands for.
    pub name: &'static str,
    /// Rows.
    pub rows: u16,
    /// Columns.
    pub cols: u16,
    /// The postures it reports.
    pub scheme: PostureScheme,
}

/// The bed mats that read posture.
pub const GEOMETRIES: [Geometry; 3] = [
    Geometry { name: "Mattress Mat IoT 48×48", rows: 48, cols: 48, scheme: PostureScheme::Lying },
    Geometry { name: "Sleep Mat 24×48", rows: 24, cols: 48, scheme: PostureScheme::SleepMat },
    Geometry { name: "Mattress Mat (legacy) 16×16", rows: 16, cols: 16, scheme: PostureScheme::Lying },
];

/// Linear gains from raw units (0–1000 = 0–100 mmHg) to u8 cells, clipped at 255: full scale at
/// 100 mmHg, at 51 mmHg and at 25.5 mmHg. Whatever the hub's unit decision, posture must hold.
pub const GAINS: [f32; 3] = [0.255, 0.5, 1.0];

/// Ridge added to the standardised covariance's diagonal.
pub const RIDGE: f64 = 0.05;

/// Sensor trouble added on top of a real map, to show the features do not depend on clean cells.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Noise {
    /// Uniform additive noise on every cell (empty ones too), ± this many u8 units.
    pub additive: f32,
    /// Per-cell gain error, ± this fraction.
    pub gain: f32,
    /// Fraction of dead (zero) cells.
    pub dead: f64,
    /// Fraction of saturated (255) cells.
    pub hot: f64,
}

/// Raw placed cells (see [`real::place`]) as u8 cells at `gain`, clipped at 255.
pub fn to_cells(placed: &[f32], gain: f32) -> Vec<u8> {
    placed.iter().map(|&v| (v * gain).round().clamp(0.0, 255.0) as u8).collect()
}

/// Degrades u8 cells with `noise`.
pub fn degrade(cells: &mut [u8], noise: Noise, rng: &mut SmallRng) {
    for cell in cells.iter_mut() {
        let roll: f64 = rng.random();
        if roll < noise.dead {
            *cell = 0;
        } else if roll < noise.dead + noise.hot {
            *cell = 255;
        } else {
            let gain = 1.0 + noise.gain * rng.random_range(-1.0f32..=1.0);
            let add = noise.additive * rng.random_range(-1.0f32..=1.0);
            *cell = (f32::from(*cell) * gain + add).round().clamp(0.0, 255.0) as u8;
        }
    }
}

/// Every recording of the development set.
pub fn load_dev_set(dir: &Path) -> io::Result<Vec<Recording>> {
    let mut recordings = Vec::new();
    for subject in real::DEV_SUBJECTS {
        for posture in real::POSTURES {
            recordings.push(real::load(dir, subject, posture)?);
        }
    }
    Ok(recordings)
}

/// One real frame on one grid at one gain.
#[derive(Debug, Clone)]
pub struct Sample {
    /// Subject (1–4).
    pub subject: u8,
    /// Recording number (1–17, the README's table).
    pub recording: u8,
    /// Frame index in the recording (junk frames already skipped).
    pub frame: usize,
    /// Index in [`GEOMETRIES`].
    pub geometry: usize,
    /// Index in [`GAINS`].
    pub gain: usize,
    /// The recording's class.
    pub label: Posture,
    /// The features, `None` when the classifier found no body.
    pub features: Option<BodyFeatures>,
}

/// The samples of `recordings` on every geometry and gain, optionally degraded by `noise`.
pub fn samples(recordings: &[Recording], noise: Option<Noise>) -> Vec<Sample> {
    let mut rng = SmallRng::seed_from_u64(15);
    let mut profiles = Profiles::default();
    let mut out = Vec::new();
    for rec in recordings {
        for (frame, raw) in rec.frames.iter().enumerate() {
            for (geometry, g) in GEOMETRIES.iter().enumerate() {
                let placed = real::place(raw, usize::from(g.rows), usize::from(g.cols));
                for (gain, &k) in GAINS.iter().enumerate() {
                    let mut cells = to_cells(&placed, k);
                    if let Some(noise) = noise {
                        degrade(&mut cells, noise, &mut rng);
                    }
                    let map = PressureMap::new(g.rows, g.cols, CellFormat::U8, &cells).expect("placed on the grid");
                    let features = profiles.extract(&map, Orientation::default());
                    out.push(Sample { subject: rec.subject, recording: rec.posture, frame, geometry, gain, label: rec.label(), features });
                }
            }
        }
    }
    out
}

fn class_index(p: Posture) -> usize {
    MODEL_CLASSES.iter().position(|&c| c == p).expect("a model class")
}

/// Fits the linear discriminant on `training` (temperature 1).
pub fn fit<'a>(training: impl Iterator<Item = &'a Sample>) -> LinearModel {
    fit_with_ridge(training, RIDGE)
}

/// [`fit`] with another ridge (for choosing it).
pub fn fit_with_ridge<'a>(training: impl Iterator<Item = &'a Sample>, ridge: f64) -> LinearModel {
    // Every sample and its mirror image.
    let mut xs: Vec<([f64; FEATURE_COUNT], usize)> = Vec::new();
    for s in training {
        let Some(f) = s.features else { continue };
        let x = f.values.map(f64::from);
        let mut mirrored = x;
        for (v, &anti) in mirrored.iter_mut().zip(ANTISYMMETRIC.iter()) {
            if anti {
                *v = -*v;
            }
        }
        let class = class_index(s.label);
        let mirror_class = match s.label {
            Posture::LeftLateral => class_index(Posture::RightLateral),
            Posture::RightLateral => class_index(Posture::LeftLateral),
            other => class_index(other),
        };
        xs.push((x, class));
        xs.push((mirrored, mirror_class));
    }
    assert!(!xs.is_empty(), "no training samples");
    let n = xs.len() as f64;
    let mut mean = [0.0f64; FEATURE_COUNT];
    for (x, _) in &xs {
        for i in 0..FEATURE_COUNT {
            mean[i] += x[i] / n;
        }
    }
    let mut scale = [0.0f64; FEATURE_COUNT];
    for (x, _) in &xs {
        for i in 0..FEATURE_COUNT {
            scale[i] += (x[i] - mean[i]).powi(2) / n;
        }
    }
    let scale = scale.map(|v| v.sqrt().max(1e-9));
    let standard = |x: &[f64; FEATURE_COUNT]| -> [f64; FEATURE_COUNT] { std::array::from_fn(|i| (x[i] - mean[i]) / scale[i]) };
    let mut class_mean = [[0.0f64; FEATURE_COUNT]; 3];
    let mut count = [0.0f64; 3];
    for (x, k) in &xs {
        let z = standard(x);
        count[*k] += 1.0;
        for i in 0..FEATURE_COUNT {
            class_mean[*k][i] += z[i];
        }
    }
    for k in 0..3 {
        for v in &mut class_mean[k] {
            *v /= count[k].max(1.0);
        }
    }
    let mut cov = vec![0.0f64; FEATURE_COUNT * FEATURE_COUNT];
    for (x, k) in &xs {
        let z = standard(x);
        let d: [f64; FEATURE_COUNT] = std::array::from_fn(|i| z[i] - class_mean[*k][i]);
        for i in 0..FEATURE_COUNT {
            for j in 0..=i {
                cov[i * FEATURE_COUNT + j] += d[i] * d[j] / n;
            }
        }
    }
    for i in 0..FEATURE_COUNT {
        for j in 0..i {
            cov[j * FEATURE_COUNT + i] = cov[i * FEATURE_COUNT + j];
        }
        cov[i * FEATURE_COUNT + i] += ridge;
    }
    let chol = cholesky(&cov, FEATURE_COUNT);
    let mut weights = [[0.0f32; FEATURE_COUNT]; 3];
    let mut bias = [0.0f32; 3];
    for k in 0..3 {
        let w = cholesky_solve(&chol, FEATURE_COUNT, &class_mean[k]);
        let quad: f64 = w.iter().zip(class_mean[k].iter()).map(|(a, b)| a * b).sum();
        weights[k] = std::array::from_fn(|i| w[i] as f32);
        bias[k] = (-0.5 * quad) as f32;
    }
    LinearModel { mean: mean.map(|v| v as f32), scale: scale.map(|v| v as f32), weights, bias, temperature: 1.0 }
}

/// Lower-triangular `L` with `L·Lᵀ = a` (a symmetric positive definite, row-major `n × n`).
fn cholesky(a: &[f64], n: usize) -> Vec<f64> {
    let mut l = vec![0.0f64; n * n];
    for i in 0..n {
        for j in 0..=i {
            let sum: f64 = (0..j).map(|k| l[i * n + k] * l[j * n + k]).sum();
            if i == j {
                l[i * n + i] = (a[i * n + i] - sum).max(1e-12).sqrt();
            } else {
                l[i * n + j] = (a[i * n + j] - sum) / l[j * n + j];
            }
        }
    }
    l
}

fn cholesky_solve(l: &[f64], n: usize, b: &[f64]) -> Vec<f64> {
    let mut y = vec![0.0f64; n];
    for i in 0..n {
        let sum: f64 = (0..i).map(|k| l[i * n + k] * y[k]).sum();
        y[i] = (b[i] - sum) / l[i * n + i];
    }
    let mut x = vec![0.0f64; n];
    for i in (0..n).rev() {
        let sum: f64 = (i + 1..n).map(|k| l[k * n + i] * x[k]).sum();
        x[i] = (y[i] - sum) / l[i * n + i];
    }
    x
}

/// One model per held-out subject, fitted on the other subjects (temperature 1): `(subject, model)`.
pub fn leave_one_subject_out(samples: &[Sample]) -> Vec<(u8, LinearModel)> {
    real::DEV_SUBJECTS.iter().map(|&held| (held, fit(samples.iter().filter(|s| s.subject != held)))).collect()
}

/// The model that scores `subject` in a leave-one-subject-out set.
pub fn fold_model(folds: &[(u8, LinearModel)], subject: u8) -> LinearModel {
    folds.iter().find(|(s, _)| *s == subject).map(|(_, m)| *m).expect("a fold per subject")
}

/// The classifier's reading of a sample with `model` (`None` when no body was found).
pub fn read(sample: &Sample, model: LinearModel) -> Option<PostureReading> {
    let classifier = PostureClassifier::with_model(GEOMETRIES[sample.geometry].scheme, Orientation::default(), model);
    sample.features.map(|f| classifier.decide(&f))
}

/// What a reading should say for a sample on its geometry.
pub fn expected(sample: &Sample) -> Posture {
    match (GEOMETRIES[sample.geometry].scheme, sample.label) {
        (PostureScheme::SleepMat, Posture::Supine) => Posture::Supine,
        (PostureScheme::SleepMat, _) => Posture::NoSupine,
        (_, p) => p,
    }
}

/// Share of readings with confidence ≥ `threshold` that are right, and how many there were,
/// each sample read by its fold's model at `temperature`.
pub fn accuracy_above(samples: &[Sample], folds: &[(u8, LinearModel)], temperature: f32, threshold: f32) -> (f64, usize) {
    let (mut right, mut n) = (0usize, 0usize);
    for s in samples {
        let model = LinearModel { temperature, ..fold_model(folds, s.subject) };
        if let Some(r) = read(s, model).filter(|r| r.confidence >= threshold) {
            n += 1;
            if r.posture == expected(s) {
                right += 1;
            }
        }
    }
    (if n == 0 { 1.0 } else { right as f64 / n as f64 }, n)
}

/// Mean negative log-likelihood of the held-out samples' true class at `temperature` (three-class
/// probabilities of the model alone).
pub fn held_out_log_loss(samples: &[Sample], folds: &[(u8, LinearModel)], temperature: f32) -> f64 {
    let (mut sum, mut n) = (0.0f64, 0usize);
    for s in samples {
        let Some(f) = s.features else { continue };
        let model = LinearModel { temperature, ..fold_model(folds, s.subject) };
        let p = model.probabilities(&f.values)[class_index(s.label)];
        sum -= f64::from(p.max(1e-6)).ln();
        n += 1;
    }
    sum / n.max(1) as f64
}

/// The temperature: the one with the lowest held-out log loss, raised until held-out readings
/// with a confidence of 0.9 or more are right at least `target` of the time (while at least 1 %
/// of the readings still reach 0.9). If no temperature reaches the target, the best log loss.
pub fn choose_temperature(samples: &[Sample], folds: &[(u8, LinearModel)], target: f64) -> f32 {
    let grid: Vec<f32> = (0..=60).map(|i| 0.5 * 1.1f32.powi(i)).collect();
    let best = grid
        .iter()
        .copied()
        .min_by(|a, b| held_out_log_loss(samples, folds, *a).total_cmp(&held_out_log_loss(samples, folds, *b)))
        .expect("a grid");
    let enough = samples.len() / 100;
    grid.into_iter()
        .filter(|&t| t >= best)
        .find(|&t| {
            let (right, n) = accuracy_above(samples, folds, t, 0.9);
            n >= enough && right >= target
        })
        .unwrap_or(best)
}

/// The Rust source of `actors/src/machine/posture/model.rs` for `model`.
pub fn model_source(model: &LinearModel, provenance: &str) -> String {
    use actors::machine::posture::features::feature_name;
    let row = |v: &[f32; FEATURE_COUNT]| -> String {
        let items: Vec<String> = v.iter().enumerate().map(|(i, x)| format!("        {x:e}, // {}", feature_name(i))).collect();
        format!("[\n{}\n    ]", items.join("\n"))
    };
    let weights: Vec<String> = model
        .weights
        .iter()
        .zip(MODEL_CLASSES.iter())
        .map(|(w, c)| format!("        // {}\n        {},", c.name(), row(w).replace('\n', "\n    ")))
        .collect();
    format!(
        "//! The fitted posture model. GENERATED by `cargo run -p simulator --release --example fit_posture`\n\
         //! from the development set `../shared/data/pmd-dev/`: do not edit by hand, rerun the program.\n\
         //!\n{}\n\nuse super::LinearModel;\n\n\
         /// The fitted posture model (classes: Supine, Left Lateral, Right Lateral).\n\
         #[rustfmt::skip]\n\
         pub const MODEL: LinearModel = LinearModel {{\n    mean: {},\n    scale: {},\n    weights: [\n{}\n    ],\n    bias: [{:e}, {:e}, {:e}],\n    temperature: {:e},\n}};\n",
        provenance.lines().map(|l| format!("//! {l}").trim_end().to_owned()).collect::<Vec<_>>().join("\n"),
        row(&model.mean),
        row(&model.scale),
        weights.join("\n"),
        model.bias[0],
        model.bias[1],
        model.bias[2],
        model.temperature
    )
}
