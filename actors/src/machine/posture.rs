//! Posture from the pressure map alone: Supine, Prone, Left Lateral, Right Lateral or Seated
//! (Supine / No Supine on the Sleep Mat), with a confidence. See docs/posture.md for the method,
//! its orientation assumptions and its measured accuracy.
//!
//! One pass over the cells fills per-line profiles along the body (the longer side of the map;
//! columns when square): load, active cells, and the first and second moments across. Everything
//! else works on those ≤ 48-entry profiles, so the cost is a few additions per cell:
//! - the body's extent along the map (2 % and 98 % load quantiles) — a short, compact load is
//!   Seated;
//! - where the legs lie across the map relative to the torso (the upper 12–55 % of the body), in
//!   units of the torso's own spread — supine and prone bodies are symmetric, a body on its side
//!   bends its knees forward, towards the side the person faces, which is the side they lie on;
//! - flat, where the legs press hardest — heels at the far end when supine, knees when prone.
//!
//! Orientation: the head lies at the start of the long axis (first column, or first row on a tall
//! map) and the person's left, when supine, towards the first row (first column on a tall map).
//! [`Orientation`] flips either assumption for mats installed the other way round.

use super::pressure_map::PressureMap;
use crate::protocol::CellFormat;

/// A posture, with the numeric id stored in device logs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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

/// A posture with the classifier's confidence (0.5 = a coin toss, 1 = clear-cut).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PostureReading {
    /// The posture.
    pub posture: Posture,
    /// Confidence in 0.5..=1.
    pub confidence: f32,
}

/// Which postures a mat reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PostureScheme {
    /// Supine, Prone, Left Lateral, Right Lateral, Seated (mattress and floor mats).
    #[default]
    Lying,
    /// Supine or No Supine (Sleep Mat).
    SleepMat,
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

/// Cells below this are noise for the classifier.
pub const POSTURE_ACTIVE_MIN: u16 = 25;
/// Fewer active cells than this: nobody to classify.
pub const MIN_BODY_CELLS: u32 = 12;
/// Longest side the profiles hold.
pub const MAX_LINES: usize = 128;

/// Sideways offset of the legs from the torso (in torso spreads) from which the body lies on its
/// side: supine and prone bodies are symmetric, a body on its side bends its knees forward.
pub const LATERAL_LEG_OFFSET: f32 = 0.2;
/// Body extent along (fraction of the long side) below which the person sits.
pub const SEATED_EXTENT: f32 = 0.45;
/// Knee-band to heel-band intensity ratio above which a flat body is prone.
pub const PRONE_KNEE_RATIO: f32 = 1.0;

/// The figures a decision is made on (exposed for tests, tuning and docs).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PostureFeatures {
    /// Body extent along the long axis, as a fraction of it.
    pub extent: f32,
    /// Torso spread across (weighted σ) as a fraction of the body's length.
    pub torso_spread: f32,
    /// Legs' across centroid minus the torso's, in units of the torso's spread (positive:
    /// towards the person's right when supine). Scale-free.
    pub leg_offset: f32,
    /// Mean active-cell intensity in the knee band over that in the heel band.
    pub knee_ratio: f32,
    /// Torso spread over the spread of the whole body across. Scale-free.
    pub spread_ratio: f32,
}

/// The posture classifier. Keeps its profile buffers between frames so the frame path does not
/// allocate.
#[derive(Debug, Clone)]
pub struct PostureClassifier {
    scheme: PostureScheme,
    orientation: Orientation,
    load: [f32; MAX_LINES],
    cells: [f32; MAX_LINES],
    across1: [f32; MAX_LINES],
    across2: [f32; MAX_LINES],
}

impl PostureClassifier {
    /// A classifier for this scheme and orientation.
    pub fn new(scheme: PostureScheme, orientation: Orientation) -> Self {
        PostureClassifier {
            scheme,
            orientation,
            load: [0.0; MAX_LINES],
            cells: [0.0; MAX_LINES],
            across1: [0.0; MAX_LINES],
            across2: [0.0; MAX_LINES],
        }
    }

    /// The posture of a map, or `None` when there is not enough body on it.
    pub fn classify(&mut self, map: &PressureMap<'_>) -> Option<PostureReading> {
        let features = self.features(map)?;
        Some(self.decide(&features))
    }

    /// The features of a map, or `None` when there is not enough body on it.
    pub fn features(&mut self, map: &PressureMap<'_>) -> Option<PostureFeatures> {
        let (rows, cols) = (usize::from(map.rows()), usize::from(map.cols()));
        let along_cols = cols >= rows;
        let (long, short) = if along_cols { (cols, rows) } else { (rows, cols) };
        if long > MAX_LINES || short < 2 || long < 4 {
            return None;
        }
        self.fill_profiles(map, rows, cols, along_cols);
        let lines = long;
        let total: f32 = self.load[..lines].iter().sum();
        let active: f32 = self.cells[..lines].iter().sum();
        if (active as u32) < MIN_BODY_CELLS || total <= 0.0 {
            return None;
        }
        // Extent: 2 % and 98 % quantiles of the load along the body.
        let (mut first, mut last, mut cumulative) = (0usize, lines - 1, 0.0f32);
        let mut found_first = false;
        for (a, &w) in self.load[..lines].iter().enumerate() {
            cumulative += w;
            if !found_first && cumulative >= 0.02 * total {
                first = a;
                found_first = true;
            }
            if cumulative >= 0.98 * total {
                last = a;
                break;
            }
        }
        let length = (last - first + 1) as f32;
        let head_far = self.orientation.head_at_far_end;
        // Position of line `a` along the body, 0 at the head, 1 at the feet.
        let position = |a: usize| {
            let p = (a as f32 + 0.5 - first as f32) / length;
            if head_far { 1.0 - p } else { p }
        };
        let mut torso = Moments::default();
        let mut legs = Moments::default();
        let mut body = Moments::default();
        let (mut knee_load, mut knee_cells, mut heel_load, mut heel_cells) = (0.0f32, 0.0f32, 0.0f32, 0.0f32);
        for a in first..=last {
            let p = position(a);
            let line = Moments { w: self.load[a], m1: self.across1[a], m2: self.across2[a] };
            body.add(line);
            if (0.12..0.55).contains(&p) {
                torso.add(line);
            } else if p >= 0.6 {
                legs.add(line);
            }
            if (0.68..0.84).contains(&p) {
                knee_load += self.load[a];
                knee_cells += self.cells[a];
            } else if p >= 0.88 {
                heel_load += self.load[a];
                heel_cells += self.cells[a];
            }
        }
        let side_sign = if self.orientation.left_at_far_side { -1.0 } else { 1.0 };
        let knee_mean = if knee_cells > 0.0 { knee_load / knee_cells } else { 0.0 };
        let heel_mean = if heel_cells > 0.0 { heel_load / heel_cells } else { 0.0 };
        Some(PostureFeatures {
            extent: length / lines as f32,
            torso_spread: torso.spread() / length,
            leg_offset: match (legs.mean(), torso.mean()) {
                (Some(l), Some(t)) if torso.spread() > 0.0 => side_sign * (l - t) / torso.spread(),
                _ => 0.0,
            },
            knee_ratio: if heel_mean > 0.0 { knee_mean / heel_mean } else { f32::from(u8::MAX) },
            spread_ratio: if body.spread() > 0.0 { torso.spread() / body.spread() } else { 0.0 },
        })
    }

    /// The decision on a map's features.
    pub fn decide(&self, f: &PostureFeatures) -> PostureReading {
        let (posture, confidence) = if f.extent < SEATED_EXTENT {
            (Posture::Seated, margin_confidence((SEATED_EXTENT - f.extent) / 0.1))
        } else if f.leg_offset.abs() >= LATERAL_LEG_OFFSET {
            let lateral = margin_confidence((f.leg_offset.abs() - LATERAL_LEG_OFFSET) / 0.1);
            // Knees bend towards the side the person faces: the side they lie on.
            let posture = if f.leg_offset < 0.0 { Posture::LeftLateral } else { Posture::RightLateral };
            (posture, lateral)
        } else {
            let flat = margin_confidence((LATERAL_LEG_OFFSET - f.leg_offset.abs()) / 0.1);
            let ratio = f.knee_ratio.max(1e-3).ln();
            let which = margin_confidence((ratio - PRONE_KNEE_RATIO.ln()).abs() / 0.15);
            let posture = if f.knee_ratio >= PRONE_KNEE_RATIO { Posture::Prone } else { Posture::Supine };
            (posture, flat.min(which))
        };
        let posture = match (self.scheme, posture) {
            (PostureScheme::SleepMat, Posture::Supine) => Posture::Supine,
            (PostureScheme::SleepMat, _) => Posture::NoSupine,
            (PostureScheme::Lying, p) => p,
        };
        PostureReading { posture, confidence }
    }

    fn fill_profiles(&mut self, map: &PressureMap<'_>, rows: usize, cols: usize, along_cols: bool) {
        let long = if along_cols { cols } else { rows };
        self.load[..long].fill(0.0);
        self.cells[..long].fill(0.0);
        self.across1[..long].fill(0.0);
        self.across2[..long].fill(0.0);
        let centre = (if along_cols { rows } else { cols }) as f32 / 2.0 - 0.5;
        let mut visit = |r: usize, c: usize, v: u16| {
            if v < POSTURE_ACTIVE_MIN {
                return;
            }
            let (a, x) = if along_cols { (c, r as f32 - centre) } else { (r, c as f32 - centre) };
            let w = f32::from(v);
            self.load[a] += w;
            self.cells[a] += 1.0;
            self.across1[a] += w * x;
            self.across2[a] += w * x * x;
        };
        match map.format() {
            CellFormat::U8 => {
                let min = POSTURE_ACTIVE_MIN as u8;
                for (r, row) in map.bytes().chunks_exact(cols).enumerate() {
                    for (c, &v) in row.iter().enumerate() {
                        // A cell with no active neighbour in its row is a spike, not a body.
                        let left = c > 0 && row[c - 1] >= min;
                        let right = c + 1 < cols && row[c + 1] >= min;
                        if left || right {
                            visit(r, c, u16::from(v));
                        }
                    }
                }
            }
            CellFormat::U16Le => {
                for (i, v) in map.values().enumerate() {
                    visit(i / cols, i % cols, v);
                }
            }
        }
    }
}

/// Weighted first and second moments across, summed over lines.
#[derive(Debug, Clone, Copy, Default)]
struct Moments {
    w: f32,
    m1: f32,
    m2: f32,
}

impl Moments {
    fn add(&mut self, other: Moments) {
        self.w += other.w;
        self.m1 += other.m1;
        self.m2 += other.m2;
    }

    fn mean(&self) -> Option<f32> {
        (self.w > 0.0).then(|| self.m1 / self.w)
    }

    fn spread(&self) -> f32 {
        match self.mean() {
            Some(mean) => (self.m2 / self.w - mean * mean).max(0.0).sqrt(),
            None => 0.0,
        }
    }
}

/// A decision margin (in units of its feature's typical scale) as a confidence in 0.5..=1.
fn margin_confidence(margin: f32) -> f32 {
    1.0 / (1.0 + (-2.0 * margin).exp())
}

#[cfg(test)]
mod tests;
