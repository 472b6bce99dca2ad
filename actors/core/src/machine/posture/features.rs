//! Gain-invariant features of a body on a pressure map, in the body's own frame (head to feet,
//! the person's left to right when supine), for the posture model.
//!
//! A first pass finds the map's background, the level a quarter of its cells read at most
//! ([`background`]: 0 on a clean map, an idle residue on another make), which is subtracted from
//! every cell. Then two passes. The first finds the map's load-weighted level `Σv² / Σv` (the
//! pressure the body mostly presses at, whatever the sensor's gain); the second keeps the cells
//! at or above [`FLOOR_FRACTION`] of that level that have a row neighbour above it too (sensor
//! noise and isolated spikes are not a body) and fills per-line profiles along the body: load,
//! contact cells and the first three moments of the load across. Everything else works on those
//! ≤ 128-entry profiles.
//!
//! The body's length is the distance between the 2 % and 98 % load quantiles along the map; it is
//! split into [`BANDS`] equal bands from head to feet (a line straddling two bands is shared
//! between them, so the features move smoothly with the body), and again into [`FINE_BANDS`] for
//! the tilt. Per band: centroid offset across, tilt within the contact footprint, skewness across,
//! load concentration and footprint width; per fine band: the tilt; for the whole body: skewness
//! across (whole, upper and lower half), load concentration, spread across and extent along the
//! map (see [`feature_name`]). Every feature is a ratio (of
//! loads, of lengths, of moments), so a linear gain on the cells leaves it unchanged apart from
//! clipping and rounding. Features that change sign when the body is mirrored left–right are
//! flagged in [`ANTISYMMETRIC`]; the fitting program uses the flag to mirror its training data.
//! [`Profiles::extract_view`] reads the same map as another grid would send it ([`View`]: half a
//! cell further along the body), for confirming a certain reading (`posture::confirmed`).

use super::Orientation;
use crate::machine::pressure_map::{PressureMap, byte_histogram};
use mat_protocol::CellFormat;

/// Bands along the body, head to feet.
pub const BANDS: usize = 6;
/// Finer bands along the body for the tilt within the footprint, head to feet.
pub const FINE_BANDS: usize = 12;
/// Number of model features.
pub const FEATURE_COUNT: usize = 5 * BANDS + 6 + FINE_BANDS;
/// Cells below this fraction of the map's load-weighted level are not body.
pub const FLOOR_FRACTION: f32 = 0.1;
/// Fewer contact cells than this: nobody to classify.
pub const MIN_BODY_CELLS: u32 = 12;
/// Longest side the profiles hold.
pub const MAX_LINES: usize = 128;

/// Which features change sign when the body is mirrored left–right (the per-band centroid
/// offsets, tilts and skewnesses across); the others are unchanged by mirroring.
pub const ANTISYMMETRIC: [bool; FEATURE_COUNT] = {
    let mut flags = [false; FEATURE_COUNT];
    let mut b = 0;
    while b < BANDS {
        flags[OFFSET + b] = true;
        flags[TILT + b] = true;
        flags[BAND_SKEW + b] = true;
        b += 1;
    }
    let mut f = 0;
    while f < FINE_BANDS {
        flags[FINE_TILT + f] = true;
        f += 1;
    }
    flags[SKEW] = true;
    flags[SKEW + 1] = true;
    flags[SKEW + 2] = true;
    flags
};

/// Index of the first band centroid offset across.
const OFFSET: usize = 0;
/// Index of the first band tilt: where the load sits within the band's contact footprint.
const TILT: usize = BANDS;
/// Index of the first band skewness across.
const BAND_SKEW: usize = 2 * BANDS;
/// Index of the first band load concentration (log of its level over its mean contact cell).
const BAND_CONCENTRATION: usize = 3 * BANDS;
/// Index of the skewness across: whole body, upper half, lower half.
const SKEW: usize = 4 * BANDS;
/// Index of the load concentration (log of level over mean contact-cell value).
const CONCENTRATION: usize = 4 * BANDS + 3;
/// Index of the whole body's spread across.
const BODY_SPREAD: usize = 4 * BANDS + 4;
/// Index of the body's extent along the map (its length over the map's long side).
const EXTENT: usize = 4 * BANDS + 5;
/// Index of the first band footprint width (load-weighted width of the contact strip over the
/// body length): narrow on a side, broad on the back.
const FOOTPRINT: usize = 4 * BANDS + 6;
/// Index of the first fine band tilt (as [`TILT`] over [`FINE_BANDS`] bands).
const FINE_TILT: usize = 5 * BANDS + 6;

/// Short names of the features, for tables and the generated model's comments.
pub fn feature_name(index: usize) -> String {
    match index {
        i if i < TILT => format!("centroid offset across, band {}", i - OFFSET + 1),
        i if i < BAND_SKEW => format!("tilt within the footprint, band {}", i - TILT + 1),
        i if i < BAND_CONCENTRATION => format!("skewness across, band {}", i - BAND_SKEW + 1),
        i if i < SKEW => format!("load concentration, band {}", i - BAND_CONCENTRATION + 1),
        i if i == SKEW => "skewness across, whole body".to_owned(),
        i if i == SKEW + 1 => "skewness across, upper half".to_owned(),
        i if i == SKEW + 2 => "skewness across, lower half".to_owned(),
        CONCENTRATION => "load concentration".to_owned(),
        BODY_SPREAD => "spread across, whole body".to_owned(),
        EXTENT => "extent along the map".to_owned(),
        i if (FOOTPRINT..FINE_TILT).contains(&i) => format!("footprint width, band {}", i - FOOTPRINT + 1),
        i if (FINE_TILT..FEATURE_COUNT).contains(&i) => format!("tilt within the footprint, fine band {}", i - FINE_TILT + 1),
        _ => "unknown".to_owned(),
    }
}

/// What the classifier decides on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodyFeatures {
    /// Body length along the map (2 %–98 % load quantiles) as a fraction of the map's long side:
    /// a short, compact load is a person sitting.
    pub extent: f32,
    /// Load-weighted level (`Σv² / Σv`, the pressure the band mostly presses at) of the knee band
    /// (68–84 % of the body) over that of the heel band (≥ 88 %): supine, the heels are the
    /// hardest, smallest peaks at the feet's end and the calves press lightly; prone, the knee
    /// caps press hard and the tops of the feet lightly. A level, not a mean over contact cells,
    /// so a broad light patch (a calf, a shin) does not dilute the peak; a spike within the body
    /// (a cell over twice its larger row neighbour: a hot cell) is left out of it.
    pub knee_ratio: f32,
    /// Share of the knee band's contact cells at the map's highest value (on a sensor that clips,
    /// the knee caps of a prone body; `posture::knee_clipped_ratio`).
    pub knee_clipped: f32,
    /// Share of the heel band's contact cells at the map's highest value (a supine body's heels).
    pub heel_clipped: f32,
    /// Load-weighted level of the knee band over that of the pelvis band (40–60 % of the body):
    /// prone, the knee caps press about as hard as the iliac crests; supine, the sacrum and
    /// buttocks press far harder than anything at the knees, however the bed is inclined.
    pub knee_level: f32,
    /// Share of the load on the upper half of the body (head to pelvis): a person lying flat
    /// carries over half their weight there; one sitting up in an inclined bed carries it on the
    /// buttocks.
    pub upper_load: f32,
    /// The body's length along the map in cells (between the 2 % and 98 % load quantiles): how
    /// many lines the knee and heel bands have to tell a knee cap from a heel.
    pub length_cells: f32,
    /// Share of the body's cells at the map's highest value (a sensor saturating flattens the
    /// bony peaks the features read: a clean map has one highest cell or a few).
    pub saturation: f32,
    /// The model's features (see [`feature_name`]).
    pub values: [f32; FEATURE_COUNT],
}

/// Per-line profiles along the body: fixed arrays, so a reading needs no allocation.
#[derive(Debug, Clone)]
pub struct Profiles {
    load: [f32; MAX_LINES],
    cells: [f32; MAX_LINES],
    m1: [f32; MAX_LINES],
    m2: [f32; MAX_LINES],
    m3: [f32; MAX_LINES],
    squares: [f32; MAX_LINES],
    /// Load and sum of squares of the cells that are no spike within the body (at most twice
    /// their larger row neighbour), for the prone rule's levels: a hot cell would be the level.
    smooth: [f32; MAX_LINES],
    smooth_squares: [f32; MAX_LINES],
    /// Body cells at the map's highest value, per line.
    clipped: [f32; MAX_LINES],
    /// First and last contact cell across, per line.
    first: [f32; MAX_LINES],
    last: [f32; MAX_LINES],
}

impl Default for Profiles {
    fn default() -> Self {
        Profiles {
            load: [0.0; MAX_LINES],
            cells: [0.0; MAX_LINES],
            m1: [0.0; MAX_LINES],
            m2: [0.0; MAX_LINES],
            m3: [0.0; MAX_LINES],
            squares: [0.0; MAX_LINES],
            smooth: [0.0; MAX_LINES],
            smooth_squares: [0.0; MAX_LINES],
            clipped: [0.0; MAX_LINES],
            first: [0.0; MAX_LINES],
            last: [0.0; MAX_LINES],
        }
    }
}

/// Weighted moments across, summed over lines.
#[derive(Debug, Clone, Copy, Default)]
struct Moments {
    w: f32,
    n: f32,
    m1: f32,
    m2: f32,
    m3: f32,
    squares: f32,
    smooth: f32,
    smooth_squares: f32,
    /// Load-weighted sums of the footprint's middle and half-width across.
    middle: f32,
    half: f32,
}

impl Moments {
    fn add(&mut self, other: &Moments, share: f32) {
        self.middle += share * other.middle;
        self.half += share * other.half;
        self.w += share * other.w;
        self.n += share * other.n;
        self.m1 += share * other.m1;
        self.m2 += share * other.m2;
        self.m3 += share * other.m3;
        self.squares += share * other.squares;
        self.smooth += share * other.smooth;
        self.smooth_squares += share * other.smooth_squares;
    }

    fn mean(&self) -> f32 {
        if self.w > 0.0 { self.m1 / self.w } else { 0.0 }
    }

    fn variance(&self) -> f32 {
        if self.w > 0.0 { (self.m2 / self.w - self.mean().powi(2)).max(0.0) } else { 0.0 }
    }

    /// Log of the load-weighted level over the mean contact cell.
    fn concentration(&self) -> f32 {
        if self.w <= 0.0 || self.n <= 0.0 {
            return 0.0;
        }
        ((self.squares / self.w) / (self.w / self.n)).max(1e-3).ln()
    }

    fn skewness(&self) -> f32 {
        let var = self.variance();
        if self.w <= 0.0 || var <= 1e-6 {
            return 0.0;
        }
        let mean = self.mean();
        let third = self.m3 / self.w - 3.0 * mean * self.m2 / self.w + 2.0 * mean.powi(3);
        (third / var.powf(1.5)).clamp(-5.0, 5.0)
    }
}

impl Profiles {
    /// The features of a map, or `None` when there is not enough body on it.
    pub fn extract(&mut self, map: &PressureMap<'_>, orientation: Orientation) -> Option<BodyFeatures> {
        self.extract_view(map, orientation, View::default())
    }

    /// The features of the map as another sensor would send it ([`View`]). The default view is
    /// [`Profiles::extract`].
    pub fn extract_view(&mut self, map: &PressureMap<'_>, orientation: Orientation, view: View) -> Option<BodyFeatures> {
        let (rows, cols) = (usize::from(map.rows()), usize::from(map.cols()));
        let along_cols = super::lies_along_columns(rows, cols);
        let (long, short) = if along_cols { (cols, rows) } else { (rows, cols) };
        if long > MAX_LINES || short < 2 || long < 4 {
            return None;
        }
        let background = background(map);
        // The view is the same body: its floor is the map's own (averaging keeps the load).
        let floor = body_floor(map, background)?;
        let top = f32::from(map.max_value().saturating_sub(background));
        let at_top = self.fill(map, along_cols, background, view, floor, top);
        let total: f32 = self.load[..long].iter().sum();
        let active: f32 = self.cells[..long].iter().sum();
        if (active as u32) < MIN_BODY_CELLS || total <= 0.0 {
            return None;
        }
        let first = self.quantile(long, 0.02 * total);
        let last = self.quantile(long, 0.98 * total);
        let length = (last - first).max(1.0);
        let head_far = orientation.head_at_far_end;
        let side = if orientation.left_at_far_side { -1.0 } else { 1.0 };

        let mut bands = [Moments::default(); BANDS];
        let mut fine = [Moments::default(); FINE_BANDS];
        let mut body = Moments::default();
        let (mut knee, mut heel, mut pelvis) = (Moments::default(), Moments::default(), Moments::default());
        let (mut knee_clipped, mut heel_clipped) = (0.0f32, 0.0f32);
        for a in 0..long {
            if self.load[a] <= 0.0 {
                continue;
            }
            let w = self.load[a];
            let line = Moments {
                w,
                n: self.cells[a],
                m1: self.m1[a],
                m2: self.m2[a],
                m3: self.m3[a],
                squares: self.squares[a],
                smooth: self.smooth[a],
                smooth_squares: self.smooth_squares[a],
                middle: w * (self.first[a] + self.last[a]) / 2.0,
                half: w * ((self.last[a] - self.first[a]) / 2.0 + 0.5),
            };
            body.add(&line, 1.0);
            let mut p = (a as f32 + 0.5 - first) / length;
            if head_far {
                p = 1.0 - p;
            }
            // Shared between the two nearest band centres.
            let u = (p * BANDS as f32 - 0.5).clamp(0.0, (BANDS - 1) as f32);
            let lower = (u.floor() as usize).min(BANDS - 1);
            let t = u - lower as f32;
            bands[lower].add(&line, 1.0 - t);
            if lower + 1 < BANDS {
                bands[lower + 1].add(&line, t);
            }
            let u = (p * FINE_BANDS as f32 - 0.5).clamp(0.0, (FINE_BANDS - 1) as f32);
            let lower = (u.floor() as usize).min(FINE_BANDS - 1);
            let t = u - lower as f32;
            fine[lower].add(&line, 1.0 - t);
            if lower + 1 < FINE_BANDS {
                fine[lower + 1].add(&line, t);
            }
            if (0.4..0.6).contains(&p) {
                pelvis.add(&line, 1.0);
            }
            if (0.68..0.84).contains(&p) {
                knee.add(&line, 1.0);
                knee_clipped += self.clipped[a];
            } else if p >= 0.88 {
                heel.add(&line, 1.0);
                heel_clipped += self.clipped[a];
            }
        }

        let centre = body.mean();
        let mut values = [0.0f32; FEATURE_COUNT];
        for (b, band) in bands.iter().enumerate() {
            values[OFFSET + b] = if band.w > 0.0 { side * (band.mean() - centre) / length } else { 0.0 };
            // A body tilted onto one side presses harder on that side of its own footprint,
            // whatever the legs do.
            values[TILT + b] = if band.half > 0.0 { side * (band.m1 - band.middle) / band.half } else { 0.0 };
            values[BAND_SKEW + b] = side * band.skewness();
            values[BAND_CONCENTRATION + b] = band.concentration();
            values[FOOTPRINT + b] = if band.w > 0.0 { 2.0 * band.half / band.w / length } else { 0.0 };
        }
        for (b, band) in fine.iter().enumerate() {
            values[FINE_TILT + b] = if band.half > 0.0 { side * (band.m1 - band.middle) / band.half } else { 0.0 };
        }
        let (mut upper, mut lower) = (Moments::default(), Moments::default());
        for (b, band) in bands.iter().enumerate() {
            if b < BANDS / 2 { upper.add(band, 1.0) } else { lower.add(band, 1.0) }
        }
        values[SKEW] = side * body.skewness();
        values[SKEW + 1] = side * upper.skewness();
        values[SKEW + 2] = side * lower.skewness();
        // The load-weighted level over the mean contact cell: high when a few cells carry the
        // weight (a hip and a shoulder on a side), low when it spreads (a back).
        values[CONCENTRATION] = body.concentration();
        values[BODY_SPREAD] = body.variance().sqrt() / length;
        values[EXTENT] = length / long as f32;

        let upper_load = upper.w / total;
        let level = |m: &Moments| if m.smooth > 0.0 { m.smooth_squares / m.smooth } else { 0.0 };
        Some(BodyFeatures {
            extent: length / long as f32,
            saturation: at_top as f32 / active.max(1.0),
            knee_ratio: if level(&heel) > 0.0 { level(&knee) / level(&heel) } else { f32::from(u8::MAX) },
            knee_clipped: if knee.n > 0.0 { knee_clipped / knee.n } else { 0.0 },
            heel_clipped: if heel.n > 0.0 { heel_clipped / heel.n } else { 0.0 },
            knee_level: if level(&pelvis) > 0.0 { level(&knee) / level(&pelvis) } else { 0.0 },
            upper_load,
            length_cells: length,
            values,
        })
    }

    /// Fractional line position where the cumulative load reaches `target`.
    fn quantile(&self, lines: usize, target: f32) -> f32 {
        let mut cumulative = 0.0f32;
        for (a, &w) in self.load[..lines].iter().enumerate() {
            if w > 0.0 && cumulative + w >= target {
                return a as f32 + (target - cumulative) / w;
            }
            cumulative += w;
        }
        lines as f32
    }

    /// Fills the profiles with the body cells; answers how many of them read `top`.
    #[allow(clippy::too_many_arguments)]
    fn fill(&mut self, map: &PressureMap<'_>, along_cols: bool, background: u16, view: View, floor: f32, top: f32) -> u32 {
        let (rows, cols) = (usize::from(map.rows()), usize::from(map.cols()));
        let mut at_top = 0u32;
        let long = if along_cols { cols } else { rows };
        for profile in [
            &mut self.load,
            &mut self.cells,
            &mut self.m1,
            &mut self.m2,
            &mut self.m3,
            &mut self.squares,
            &mut self.smooth,
            &mut self.smooth_squares,
            &mut self.clipped,
        ] {
            profile[..long].fill(0.0);
        }
        self.first[..long].fill(f32::INFINITY);
        self.last[..long].fill(f32::NEG_INFINITY);
        let centre = (if along_cols { rows } else { cols }) as f32 / 2.0 - 0.5;
        let read = |r: usize, line: &mut [u16; MAX_LINES]| map.read_row_above(r, background, line);
        // On a tall map the view averages each row with the next one: that row, read ahead.
        // Integer halves (rounded down), as a sensor of another phase would send them.
        let across_rows = view.half_cell && !along_cols;
        let (mut raw, mut next) = ([0u16; MAX_LINES], [0u16; MAX_LINES]);
        let mut row = [0.0f32; MAX_LINES];
        if across_rows {
            read(0, &mut next);
        }
        for r in 0..rows {
            if across_rows {
                raw[..cols].copy_from_slice(&next[..cols]);
                read((r + 1).min(rows - 1), &mut next);
                for ((slot, &v), &n) in row[..cols].iter_mut().zip(&raw[..cols]).zip(&next[..cols]) {
                    *slot = f32::from(((u32::from(v) + u32::from(n)) / 2) as u16);
                }
            } else {
                read(r, &mut raw);
                for c in 0..cols {
                    // A wide map: each cell with the next one along the row.
                    let v = if view.half_cell { ((u32::from(raw[c]) + u32::from(raw[(c + 1).min(cols - 1)])) / 2) as u16 } else { raw[c] };
                    row[c] = f32::from(v);
                }
            }
            // A row with no cell at the body's floor adds nothing (the mattress around the body).
            if row[..cols].iter().fold(0.0f32, |top, &v| top.max(v)) < floor {
                continue;
            }
            for c in 0..cols {
                let v = row[c];
                // A cell with no body neighbour in its row is a spike, not a body.
                let (before, after) = (if c > 0 { row[c - 1] } else { 0.0 }, if c + 1 < cols { row[c + 1] } else { 0.0 });
                if v < floor || (before < floor && after < floor) {
                    continue;
                }
                let (a, x) = if along_cols { (c, r as f32 - centre) } else { (r, c as f32 - centre) };
                let wx = v * x;
                at_top += u32::from(v >= top);
                self.clipped[a] += f32::from(u8::from(v >= top));
                self.load[a] += v;
                self.cells[a] += 1.0;
                self.m1[a] += wx;
                self.m2[a] += wx * x;
                self.m3[a] += wx * x * x;
                self.squares[a] += v * v;
                if v <= 2.0 * before.max(after) {
                    self.smooth[a] += v;
                    self.smooth_squares[a] += v * v;
                }
                self.first[a] = self.first[a].min(x);
                self.last[a] = self.last[a].max(x);
            }
        }
        at_top
    }
}

/// Share of the cells below the map's background level ([`background`]).
pub const BACKGROUND_QUANTILE: f32 = 0.25;

/// The level every cell reads without a body: the [`BACKGROUND_QUANTILE`] quantile of the cells
/// (0 on a clean map, where a lying body covers at most half the cells; an idle level left after
/// tare on another make of mat). Subtracted from every cell before anything else, so a uniform
/// residue neither widens the body's footprint nor dilutes its load.
pub fn background(map: &PressureMap<'_>) -> u16 {
    let histogram = match map.format() {
        CellFormat::U8 => byte_histogram(map.bytes(), 0),
        CellFormat::U16Le => {
            let mut histogram = [0u32; 256];
            map.values().for_each(|v| histogram[usize::from(v.min(255))] += 1);
            histogram
        }
    };
    let n = map.len() as u32;
    let target = (BACKGROUND_QUANTILE * n as f32) as u32;
    let mut cumulative = 0u32;
    for (level, &count) in histogram.iter().enumerate() {
        cumulative += count;
        if cumulative > target {
            return level as u16;
        }
    }
    0
}

/// Another sensor's view of the same map, for confirming a certain reading
/// (`posture::confirmed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct View {
    /// Cells half a cell further along the body (each cell the mean of itself and the next one
    /// along, rounded down): the same body on a grid whose cells sit half a cell further on.
    pub half_cell: bool,
}

/// The smallest cell value (above `background`) that counts as body: [`FLOOR_FRACTION`] of the
/// map's load-weighted level `Σv² / Σv`, at least 1. `None` for an empty map.
fn body_floor(map: &PressureMap<'_>, background: u16) -> Option<f32> {
    let (sum, sum2) = match (map.format(), background) {
        (CellFormat::U8, 0) => map.bytes().iter().fold((0u64, 0u64), |(s, s2), &v| (s + u64::from(v), s2 + u64::from(v) * u64::from(v))),
        _ => map
            .values()
            .map(|v| v.saturating_sub(background))
            .fold((0u64, 0u64), |(s, s2), v| (s + u64::from(v), s2 + u64::from(v) * u64::from(v))),
    };
    (sum > 0).then(|| (FLOOR_FRACTION * sum2 as f32 / sum as f32).max(1.0))
}
