//! Posture from the pressure map alone: Supine, Prone, Left Lateral, Right Lateral or Seated
//! (Supine / No Supine on the Sleep Mat), with a calibrated confidence. See docs/posture.md for
//! the method, its orientation assumptions and its accuracy measured on real recordings.
//!
//! [`features`] turns a map into gain-invariant features in the body's own frame (centroid, tilt
//! within the footprint, skewness, concentration and footprint width in six bands from head to
//! feet, the tilt again in twelve, and for the whole body). Nearest prototypes fitted on real
//! in-bed recordings ([`model::MODEL`], written by
//! `cargo run -p simulator --release --example fit_posture`) give the probabilities of Supine,
//! Left Lateral and Right Lateral; the confidence is the winning probability times the
//! body's [`familiarity`], calibrated so that a confidence of 0.9 or more is right at least 99 %
//! of the time on the development set, measured leave-one-subject-out. A certain reading's
//! confidence is its mean with the same body's seen half a cell further along, which must read the
//! same posture ([`confirmed`]).
//! Two rules stand beside the model for what the recordings do not hold: a short, compact load is
//! Seated, and a body the model reads as supine whose knee caps press harder than the feet's end
//! and about as hard as the pelvis is Prone ([`prone_confidence`]).
//!
//! Orientation: the head lies at the start of the long axis (first column, or first row on a tall
//! map) and the person's left, when supine, towards the first row (first column on a tall map).
//! [`Orientation`] flips either assumption for mats installed the other way round.

use std::sync::{Arc, LazyLock};

use super::pressure_map::PressureMap;
use features::{BodyFeatures, FEATURE_COUNT, Profiles, View};

pub mod features;
pub mod model;

/// A posture, with the numeric id stored in device logs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Posture {
    /// On the back (id 0).
    Supine,
    /// On the belly (id 1).
    Prone,
    /// On the left side (id 2).
    LeftLateral,
    /// On the right side (id 3).
    RightLateral,
    /// Sitting (id 4).
    Seated,
    /// Sleep Mat: anything but supine (id 5).
    NoSupine,
}

impl Posture {
    /// The id stored in device logs (`posture.id`).
    pub fn id(self) -> u8 {
        match self {
            Posture::Supine => 0,
            Posture::Prone => 1,
            Posture::LeftLateral => 2,
            Posture::RightLateral => 3,
            Posture::Seated => 4,
            Posture::NoSupine => 5,
        }
    }

    /// The posture of a stored name ([`Posture::name`]).
    pub fn from_name(name: &str) -> Option<Posture> {
        [Posture::Supine, Posture::Prone, Posture::LeftLateral, Posture::RightLateral, Posture::Seated, Posture::NoSupine]
            .into_iter()
            .find(|p| p.name() == name)
    }

    /// The name the client shows.
    pub fn name(self) -> &'static str {
        match self {
            Posture::Supine => "Supine",
            Posture::Prone => "Prone",
            Posture::LeftLateral => "Left Lateral",
            Posture::RightLateral => "Right Lateral",
            Posture::Seated => "Seated",
            Posture::NoSupine => "No Supine",
        }
    }
}

/// A posture with the classifier's confidence: the calibrated probability that it is right.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PostureReading {
    /// The posture.
    pub posture: Posture,
    /// Calibrated probability that the posture is right, in 0..=1 (lower for bodies unlike those
    /// the model was fitted on). On the development set, held out, a confidence of 0.9 or more is
    /// right ≥ 99 % of the time. Seated and Prone come from rules: their confidence is a margin's.
    pub confidence: f32,
}

/// A reading with at least this confidence is *certain*: on the development set, held out and
/// under every augmentation that models another sensor (docs/posture.md), such readings are right
/// ≥ 99 % of the time. Below it a reading is *uncertain*: the repositioning clock takes no turn
/// decision on it and the client shows it as uncertain. The one owner of the threshold.
pub const CONFIDENT: f32 = 0.9;

impl PostureReading {
    /// Whether the reading is certain enough to act on ([`CONFIDENT`]).
    pub fn is_certain(&self) -> bool {
        self.confidence >= CONFIDENT
    }
}

/// Which postures a mat reports: a fact of its device type, owned by the type table.
pub use mat_protocol::device_type::PostureScheme;

/// Whether a body lies along a `rows × cols` map's columns: along its longer side, along the
/// columns of a square map (docs/posture.md). The long axis of every reading of a lying body: the
/// posture features, the body regions, the bed's analyses and the simulator's placement.
pub fn lies_along_columns(rows: usize, cols: usize) -> bool {
    cols >= rows
}

/// How the body lies on the mat, when it differs from the default (head at the start of the long
/// axis, the person's left towards the start of the short axis).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Orientation {
    /// The head lies at the far end of the long axis.
    pub head_at_far_end: bool,
    /// The person's left (when supine) lies towards the far side of the short axis.
    pub left_at_far_side: bool,
}

/// The mat machine reads the posture at most this often (the classifier costs more than the
/// presence check; a posture does not change within a second).
pub const POSTURE_INTERVAL: std::time::Duration = std::time::Duration::from_secs(1);
/// Body extent along (fraction of the long side) below which the person sits.
pub const SEATED_EXTENT: f32 = 0.45;
/// Prone (issue 28; there is no real prone recording, so its signature comes from body
/// mechanics, docs/posture.md): the knee caps press harder than the tops of the feet, where a
/// supine body's heels press hardest ([`BodyFeatures::knee_ratio`])…
pub const PRONE_KNEE_RATIO: Evidence = Evidence { fires: 1.15, certain: 1.25, most: 4.0 };
/// …about as hard as the iliac crests, where a supine body's sacrum presses far harder
/// ([`BodyFeatures::knee_level`])…
pub const PRONE_KNEE_LEVEL: Evidence = Evidence { fires: 0.5, certain: 0.55, most: 1.5 };
/// …with at least this share of the load on the upper body, the chest's and the pelvis's
/// ([`BodyFeatures::upper_load`])…
pub const PRONE_UPPER_LOAD: f32 = 0.55;
/// …on a body at most this saturated ([`BodyFeatures::saturation`]: a clipping sensor flattens
/// the peaks the rule compares; [`SATURATION_OK`] on a body shorter than [`PRONE_MIN_LINES`])…
pub const PRONE_SATURATION: f32 = 0.2;
/// …and certain only on a body at least this many cells long ([`BodyFeatures::length_cells`]):
/// on fewer the knee and heel bands are a line or two each, and supine bodies on the 16 × 16
/// legacy grid reach the prone levels (docs/posture.md). Shorter, a prone reading stays uncertain.
pub const PRONE_MIN_LINES: f32 = 24.0;
/// On a sensor that clips, the knees against the feet's end by their cells at full scale
/// ([`knee_clipped_ratio`], issue 28). Clipping caps every peak at one level, so levels and
/// peaks compare no more (the knee ratio of the simulator's prone people falls from 1.9 to
/// 1.0–1.4 when the top 15 % of the body clips), but which cells reach the cap still tells where
/// the body presses hardest: prone, the knee caps clip (11–20 % of the knee band's cells) and the
/// tops of the feet hardly (0–9 % of the heel band's); supine, the heels clip before the backs of
/// the knees. The knee band's share over the heel band's: fires from 1.5, certain from 2
/// (chosen on the development set and the simulator, docs/posture.md)…
pub const PRONE_KNEE_CLIPPED: Evidence = Evidence { fires: 1.5, certain: 2.0, most: f32::INFINITY };
/// …where at least this share of the knee band's cells clip (the two knee caps' patches)…
pub const PRONE_KNEE_CLIPPED_MIN: f32 = 0.1;
/// …counting the heel band's share as at least this (no clipped cell there is as good as one in
/// a hundred, not infinitely better).
pub const PRONE_HEEL_CLIPPED_FLOOR: f32 = 0.01;
/// The model's probability of a flat body (`p(supine)`: lying flat rather than on a side), as
/// the prone rule's third piece of evidence (the rule fires only where supine is the model's most
/// likely class): 0.5 at a `p(supine)` of 0.5, certain from 0.8. A smaller body than the mat's length reads less
/// surely flat (its extent is a curled-up body's), while its knees and pelvis say prone as
/// clearly (issue 28: prone certain on 72 % of smaller simulated bodies with `p(supine)` itself
/// as the cap).
pub const PRONE_FLAT: Evidence = Evidence { fires: 0.5, certain: 0.8, most: 1.0 };

/// One piece of a rule's evidence: the rule fires from `fires` up to `most`, and the evidence
/// alone reaches [`CONFIDENT`] at `certain` (a margin on a log scale: [`Evidence::confidence`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Evidence {
    /// Lowest value at which the rule fires.
    pub fires: f32,
    /// Value from which the evidence alone is certain.
    pub certain: f32,
    /// Highest value at which the rule fires (beyond it the body is unlike the posture).
    pub most: f32,
}

impl Evidence {
    /// Whether `value` lies where the rule fires.
    pub fn fires(&self, value: f32) -> bool {
        (self.fires..=self.most).contains(&value)
    }

    /// The evidence's confidence at `value`: 0.5 at `fires`, [`CONFIDENT`] at `certain`, rising
    /// with `ln(value / fires)`.
    pub fn confidence(&self, value: f32) -> f32 {
        let unit = (self.certain / self.fires).ln();
        let at_certain = 0.5 * (CONFIDENT / (1.0 - CONFIDENT)).ln();
        margin_confidence((value.max(1e-6) / self.fires).ln() / unit * at_certain)
    }
}

/// A body with more than this share of its cells at the map's highest value is read through a
/// saturating sensor ([`BodyFeatures::saturation`]): the bony peaks the features read are
/// flattened, so the confidence shrinks in proportion ([`saturation_trust`]; not a prone
/// reading's, whose rule has its own limit, [`PRONE_SATURATION`]). A clean map has one highest cell or a few; at the
/// development set's highest gain (25.5 mmHg full scale) about 3 % of the body cells clip.
pub const SATURATION_OK: f32 = 0.08;

/// How far a reading can be trusted given its body's saturation, in 0..=1: 1 up to
/// [`SATURATION_OK`], then `SATURATION_OK / saturation`.
pub fn saturation_trust(saturation: f32) -> f32 {
    if saturation <= SATURATION_OK { 1.0 } else { SATURATION_OK / saturation }
}

/// The classes of the linear model, in the order of its weights.
pub const MODEL_CLASSES: [Posture; 3] = [Posture::Supine, Posture::LeftLateral, Posture::RightLateral];

/// Prototypes per class in a [`PrototypeModel`].
pub const PROTOTYPES_PER_CLASS: usize = 32;
/// Prototypes in a [`PrototypeModel`]: the first [`PROTOTYPES_PER_CLASS`] are Supine, then Left
/// Lateral, then Right Lateral (the mirror images of the Left Lateral ones).
pub const PROTOTYPES: usize = 3 * PROTOTYPES_PER_CLASS;

/// Nearest prototypes over standardised features: each class scores minus the squared distance
/// from the features to its nearest prototype, and `softmax(score / temperature)` gives the
/// probabilities of [`MODEL_CLASSES`]. The prototypes are cluster centres of real bodies in each
/// posture (people lie on their side in several ways: legs straight or bent, on a wedge,
/// curled up), so one class may hold several shapes a single linear boundary cannot.
#[derive(Debug, Clone, PartialEq)]
pub struct PrototypeModel {
    /// Feature means of the training data (0 for the antisymmetric features).
    pub mean: [f32; FEATURE_COUNT],
    /// Feature standard deviations of the training data.
    pub scale: [f32; FEATURE_COUNT],
    /// The prototypes, in standardised units, grouped by class.
    pub prototypes: [[f32; FEATURE_COUNT]; PROTOTYPES],
    /// Divides the scores before the softmax: larger is less confident (the calibration).
    pub temperature: f32,
    /// Squared distance to the nearest prototype up to which a body looks like the bodies the
    /// model was fitted on; beyond it the confidence shrinks ([`familiarity`]).
    pub familiar_distance: f32,
}

impl PrototypeModel {
    /// Squared distance from the features to each class's nearest prototype.
    pub fn distances(&self, values: &[f32; FEATURE_COUNT]) -> [f32; 3] {
        let z: [f32; FEATURE_COUNT] = std::array::from_fn(|i| (values[i] - self.mean[i]) / self.scale[i]);
        let mut nearest = [f32::INFINITY; 3];
        for (j, prototype) in self.prototypes.iter().enumerate() {
            let d: f32 = prototype.iter().zip(z.iter()).map(|(p, x)| (p - x) * (p - x)).sum();
            let class = j / PROTOTYPES_PER_CLASS;
            nearest[class] = nearest[class].min(d);
        }
        nearest
    }

    /// The class probabilities of a feature vector.
    pub fn probabilities(&self, values: &[f32; FEATURE_COUNT]) -> [f32; 3] {
        probabilities_from_distances(self.distances(values), self.temperature)
    }
}

/// How much a body looks like those the model was fitted on, in 0..=1: 1 up to
/// `familiar_distance` from the nearest prototype, then `familiar / distance`. A body unlike any
/// prototype (a posture or a person the development set did not hold) is where the model is
/// wrong most often, so its confidence is scaled down by this.
pub fn familiarity(distances: [f32; 3], familiar_distance: f32) -> f32 {
    let nearest = distances.iter().copied().fold(f32::INFINITY, f32::min);
    if nearest <= familiar_distance { 1.0 } else { familiar_distance / nearest }
}

/// `softmax(-distance / temperature)` over the classes.
pub fn probabilities_from_distances(distances: [f32; 3], temperature: f32) -> [f32; 3] {
    let closest = distances.iter().copied().fold(f32::INFINITY, f32::min);
    let mut p = distances.map(|d| (-(d - closest) / temperature).exp());
    let sum: f32 = p.iter().sum();
    for v in &mut p {
        *v /= sum;
    }
    p
}

/// The posture classifier. Its profile buffers are fixed arrays on the stack of each reading (no
/// allocation, and 4 KiB less in every mat than keeping them between readings).
#[derive(Debug, Clone)]
pub struct PostureClassifier {
    scheme: PostureScheme,
    orientation: Orientation,
    /// Shared: the fitted model is 18 KiB, and a hub has one classifier per mat.
    model: Arc<PrototypeModel>,
}

/// The fitted model, allocated once for every classifier.
static FITTED_MODEL: LazyLock<Arc<PrototypeModel>> = LazyLock::new(|| Arc::new(model::MODEL.clone()));

impl PostureClassifier {
    /// A classifier for this scheme and orientation, with the fitted model.
    pub fn new(scheme: PostureScheme, orientation: Orientation) -> Self {
        PostureClassifier { scheme, orientation, model: FITTED_MODEL.clone() }
    }

    /// A classifier with another model (the fitting program's leave-one-subject-out folds).
    pub fn with_model(scheme: PostureScheme, orientation: Orientation, model: PrototypeModel) -> Self {
        PostureClassifier { scheme, orientation, model: Arc::new(model) }
    }

    /// The posture of a map, or `None` when there is not enough body on it.
    pub fn classify(&self, map: &PressureMap<'_>) -> Option<PostureReading> {
        let mut profiles = Profiles::default();
        let features = profiles.extract(map, self.orientation)?;
        let reading = self.decide(&features);
        if !reading.is_certain() || !needs_confirmation(&features) {
            return Some(reading);
        }
        // The same body half a cell further on must read the same, as surely ([`confirmed`]).
        let confirming = profiles.extract_view(map, self.orientation, CONFIRMING_VIEW).map(|f| self.decide(&f));
        Some(confirmed(reading, confirming))
    }

    /// The features of a map, or `None` when there is not enough body on it.
    pub fn features(&self, map: &PressureMap<'_>) -> Option<BodyFeatures> {
        Profiles::default().extract(map, self.orientation)
    }

    /// The decision on a map's features.
    pub fn decide(&self, f: &BodyFeatures) -> PostureReading {
        let d = self.model.distances(&f.values);
        self.decide_with(f, probabilities_from_distances(d, self.model.temperature), familiarity(d, self.model.familiar_distance))
    }

    /// The decision on a map's features given the model's probabilities `p` of
    /// [`MODEL_CLASSES`] and the body's [`familiarity`] (the fitting program computes them once
    /// for many calibrations).
    pub fn decide_with(&self, f: &BodyFeatures, p: [f32; 3], familiarity: f32) -> PostureReading {
        if f.extent < SEATED_EXTENT {
            let confidence = margin_confidence((SEATED_EXTENT - f.extent) / 0.1);
            let posture = if self.scheme == PostureScheme::SleepMat { Posture::NoSupine } else { Posture::Seated };
            return PostureReading { posture, confidence };
        }
        let (best, &p_best) = p.iter().enumerate().fold((0, &p[0]), |a, b| if b.1 > a.1 { b } else { a });
        if MODEL_CLASSES[best] == Posture::Supine
            && let Some(prone) = prone_confidence(f)
        {
            // A body lying flat (the model: not on a side, PRONE_FLAT) with a prone body's knees. Familiar
            // like a supine body (the features the model reads do not tell the back from the
            // belly): an unfamiliar body is as uncertain here as anywhere.
            let confidence = PRONE_FLAT.confidence(p[0]).min(prone) * familiarity;
            let posture = if self.scheme == PostureScheme::SleepMat { Posture::NoSupine } else { Posture::Prone };
            return PostureReading { posture, confidence };
        }
        let reading = match self.scheme {
            PostureScheme::SleepMat => match MODEL_CLASSES[best] {
                Posture::Supine => PostureReading { posture: Posture::Supine, confidence: p[0] },
                _ => PostureReading { posture: Posture::NoSupine, confidence: 1.0 - p[0] },
            },
            PostureScheme::Lying => PostureReading { posture: MODEL_CLASSES[best], confidence: p_best },
        };
        PostureReading { confidence: reading.confidence * familiarity * saturation_trust(f.saturation), ..reading }
    }
}

/// A certain reading must hold on the same map as this other sensor would send it ([`confirmed`]):
/// cells half a cell further along the body.
pub const CONFIRMING_VIEW: View = View { half_cell: true };

/// A certain reading confirmed by the same body seen through a grid half a cell further along
/// (`confirming`: the map read through [`CONFIRMING_VIEW`]). Where a sensor's cells fall on a
/// body is chance (the issue asks for bodies shifted along and across the bed), so a certain
/// reading's confidence is its mean over the two phases of the grid, never more than its own: a
/// reading that the same body half a cell further on reads less surely is less sure. Read as
/// another posture or as no body there, it rests on where the cell boundaries fall (on a coarse
/// grid, whether a light leg lies in one cell or two): it keeps its posture, with its confidence
/// held just below [`CONFIDENT`] ([`UNCONFIRMED`]). An uncertain reading is left as it is.
/// Issue 28: this takes the inclined beds' certain side readings to none (docs/posture.md,
/// "Prone and inclined beds").
pub fn confirmed(reading: PostureReading, confirming: Option<PostureReading>) -> PostureReading {
    if !reading.is_certain() {
        return reading;
    }
    let confidence = match confirming {
        Some(c) if c.posture == reading.posture => reading.confidence.min((reading.confidence + c.confidence) / 2.0),
        _ => reading.confidence.min(UNCONFIRMED),
    };
    PostureReading { confidence, ..reading }
}

/// Whether a certain reading of a body with these features is confirmed ([`confirmed`]): every
/// reading but Seated, a rule on the body's extent alone with its own margin
/// ([`SEATED_EXTENT`]), which no grid phase moves by more than a cell.
pub fn needs_confirmation(f: &BodyFeatures) -> bool {
    f.extent >= SEATED_EXTENT
}

/// The confidence of a certain reading the confirming view reads as another posture or as no
/// body ([`confirmed`]): just below [`CONFIDENT`].
pub const UNCONFIRMED: f32 = 0.89;

/// On a body that clips (more than [`SATURATION_OK`] of it at the map's highest value), the share
/// of the knee band's contact cells at full scale over the heel band's (at least
/// [`PRONE_HEEL_CLIPPED_FLOOR`]); `None` when the body does not clip or fewer than
/// [`PRONE_KNEE_CLIPPED_MIN`] of the knee band's cells do.
pub fn knee_clipped_ratio(f: &BodyFeatures) -> Option<f32> {
    (f.saturation > SATURATION_OK && f.knee_clipped >= PRONE_KNEE_CLIPPED_MIN)
        .then(|| f.knee_clipped / f.heel_clipped.max(PRONE_HEEL_CLIPPED_FLOOR))
}

/// The prone rule's confidence from its evidence, `None` when it does not fire: the weakest of
/// the knees against the feet's end (their levels, or on a clipping sensor their cells at full
/// scale, [`knee_clipped_ratio`]) and against the pelvis, held below [`CONFIDENT`] on a body
/// shorter than [`PRONE_MIN_LINES`].
pub fn prone_confidence(f: &BodyFeatures) -> Option<f32> {
    let long_enough = f.length_cells >= PRONE_MIN_LINES;
    // A short body's few cells clip together: there, the peaks stand out only unclipped.
    let saturation_limit = if long_enough { PRONE_SATURATION } else { SATURATION_OK };
    // …and there, only where the evidence would be certain on a longer body: the knee and heel
    // bands of a few lines each reach the prone levels on supine bodies too.
    let fires_at = |e: Evidence, value: f32| if long_enough { e.fires(value) } else { (e.certain..=e.most).contains(&value) };
    // The knees against the feet's end: their levels, or on a clipping sensor (which flattens
    // the knee caps' level towards the feet's) their shares of cells at full scale.
    let levels = fires_at(PRONE_KNEE_RATIO, f.knee_ratio).then(|| PRONE_KNEE_RATIO.confidence(f.knee_ratio));
    let clipped = knee_clipped_ratio(f).filter(|&r| long_enough && PRONE_KNEE_CLIPPED.fires(r)).map(|r| PRONE_KNEE_CLIPPED.confidence(r));
    let knees = levels.into_iter().chain(clipped).reduce(f32::max)?;
    let fires = fires_at(PRONE_KNEE_LEVEL, f.knee_level) && f.upper_load >= PRONE_UPPER_LOAD && f.saturation <= saturation_limit;
    if !fires {
        return None;
    }
    let evidence = knees.min(PRONE_KNEE_LEVEL.confidence(f.knee_level));
    let resolution = if long_enough { 1.0 } else { CONFIDENT * f.length_cells / PRONE_MIN_LINES };
    Some(evidence.min(resolution))
}

/// A decision margin (in units of its feature's typical scale) as a confidence in 0.5..=1.
fn margin_confidence(margin: f32) -> f32 {
    1.0 / (1.0 + (-2.0 * margin).exp())
}

#[cfg(test)]
mod tests;
