//! The mat's idle level ("tare"), per cell: learnt while the mat is reliably empty, set on demand
//! by an administrator ("zero the empty mat"), and subtracted from every frame before anything
//! else reads it (presence, posture, the repositioning clock, captures and the live map).
//!
//! Other makes of mat report an idle level on every cell (a few steps, about 4 % of full scale);
//! read as pressure it makes every cell active and hides the body's figures. The tare is kept per
//! cell because a resistive sensor's idle level is a property of each cell, and a per-cell tare
//! removes a uniform offset just as well as one number per mat would.
//!
//! Learning (see `docs/decisions.md`, "Tare: the mat's idle level"):
//! - a frame is sampled at most once per [`SAMPLE_INTERVAL`], only after the mat has read ABSENCE
//!   (after the current tare) for [`SETTLE`] without a break, and only if every raw cell is at most
//!   [`IDLE_CEILING_MMHG`]: no person lying on a mat produces such a frame;
//! - [`WINDOW_SAMPLES`] such samples in a row make a window; a window's per-cell mean becomes the
//!   cell's tare when it differs from it by at least [`HYSTERESIS_QUARTER_STEPS`] quarter steps (so
//!   noise on a half step does not rewrite the tare every window);
//! - the mat counts as occupied when a frame reads PRESENCE (after the current tare) with a raw cell
//!   over the ceiling; that discards the window and restarts the settle time (PRESENCE with every
//!   cell under the ceiling is an idle level not learnt yet, not a body). A frame over the ceiling
//!   makes its window unlearnable. So a tare never learns from an occupied mat, and no tare cell ever exceeds the ceiling:
//!   a person lying still for hours is never absorbed (nothing is learnt while they lie there),
//!   and even the largest possible tare removes at most the ceiling from a body's cells.
//!
//! Zeroing on demand takes the mean of the samples gathered since the mat was last occupied
//! (without the settle time or the ceiling: the administrator says the mat is empty), and is refused
//! while the mat is occupied or before a sample exists.
//!
//! Pure: takes `now`, never reads a clock; outputs are drained with [`TareMachine::poll_output`].

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::presence::Presence;
use super::pressure_map::PressureMap;
use mat_protocol::CellFormat;
use mat_protocol::scale::{PASCAL_PER_MMHG, PASCAL_PER_UNIT};

/// At most one sample per this interval.
pub const SAMPLE_INTERVAL: Duration = Duration::from_secs(1);
/// Continuous ABSENCE before the mat counts as reliably empty.
pub const SETTLE: Duration = Duration::from_secs(120);
/// Samples per learning window.
pub const WINDOW_SAMPLES: u32 = 30;
/// A frame with any raw cell above this is never learnt from automatically, mmHg: well above an
/// idle level (≈ 4 mmHg on a bed mat at 4 % of its 102 mmHg full scale) and well below what any
/// body puts on its loaded cells (every occupied frame of the development set has cells above
/// 20 mmHg; `simulator/tests/real_tare.rs`).
pub const IDLE_CEILING_MMHG: f64 = 6.0;
/// A window rewrites a cell's tare when its mean differs from it by at least this many quarter
/// steps (0.75 step).
pub const HYSTERESIS_QUARTER_STEPS: u64 = 3;

/// Who set the tare.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub enum TareSource {
    /// Learnt while the mat was reliably empty.
    Learnt,
    /// An administrator zeroed the empty mat.
    Zeroed,
}

/// A mat's tare: the idle level of each cell in the device's steps, row-major.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tare {
    /// Rows of the frames it was taken from.
    pub rows: u16,
    /// Columns of the frames it was taken from.
    pub cols: u16,
    /// Idle level per cell, in the device's steps.
    pub cells: Vec<u16>,
    /// How it was set.
    pub source: TareSource,
    /// When it was set, Unix ms.
    pub set_at_ms: u64,
}

impl Tare {
    /// The mean idle level over the cells, in steps.
    pub fn mean_steps(&self) -> f64 {
        if self.cells.is_empty() {
            return 0.0;
        }
        self.cells.iter().map(|&c| f64::from(c)).sum::<f64>() / self.cells.len() as f64
    }

    /// The largest idle level of a cell, in steps.
    pub fn max_steps(&self) -> u16 {
        self.cells.iter().copied().max().unwrap_or(0)
    }

    /// Whether it subtracts nothing.
    pub fn is_zero(&self) -> bool {
        self.cells.iter().all(|&c| c == 0)
    }

    /// Subtracts the tare from a frame's cells in place (saturating at 0). A frame of another
    /// shape is left as it is.
    pub fn subtract(&self, rows: u16, cols: u16, format: CellFormat, cells: &mut [u8]) {
        if rows != self.rows || cols != self.cols || cells.len() != self.cells.len() * format.bytes_per_cell() {
            return;
        }
        match format {
            CellFormat::U8 => {
                for (cell, &t) in cells.iter_mut().zip(&self.cells) {
                    *cell = cell.saturating_sub(t.min(255) as u8);
                }
            }
            CellFormat::U16Le => {
                for (pair, &t) in cells.chunks_exact_mut(2).zip(&self.cells) {
                    let v = u16::from_le_bytes([pair[0], pair[1]]).saturating_sub(t);
                    pair.copy_from_slice(&v.to_le_bytes());
                }
            }
        }
    }
}

/// Why zeroing the mat was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum TareRefusal {
    /// The mat reads PRESENCE: someone lies on it.
    #[error("someone lies on the mat")]
    Occupied,
    /// No empty frame has arrived since the mat last read PRESENCE (or since it connected).
    #[error("no empty frame to zero on")]
    NoEmptyFrame,
}

impl TareRefusal {
    /// The API's i18n key.
    pub fn key(self) -> &'static str {
        match self {
            TareRefusal::Occupied => "tareOccupied",
            TareRefusal::NoEmptyFrame => "tareNoEmptyFrame",
        }
    }
}

/// Whether any cell is over `ceiling` steps.
fn over_ceiling(map: &PressureMap<'_>, ceiling: u16) -> bool {
    match map.format() {
        CellFormat::U8 => map.bytes().iter().copied().max().is_some_and(|m| u16::from(m) > ceiling),
        CellFormat::U16Le => map.values().any(|v| v > ceiling),
    }
}

/// The per-cell sums of the samples gathered since the mat last read PRESENCE.
#[derive(Debug, Default)]
struct Window {
    rows: u16,
    cols: u16,
    sums: Vec<u32>,
    samples: u32,
    /// Every sample so far was under the ceiling and taken after the settle time.
    learnable: bool,
}

impl Window {
    fn clear(&mut self) {
        self.samples = 0;
        self.learnable = true;
        // The buffer is freed: an occupied mat keeps no 4 bytes per cell for nothing.
        self.sums = Vec::new();
    }

    /// Starts a new window whose one sample is this window's per-cell mean; it is learnable when
    /// the mat is settled and that mean is under the ceiling.
    fn restart_from_mean(&mut self, settled: bool, ceiling_steps: u16) {
        let n = self.samples.max(1);
        let mut over = false;
        for sum in &mut self.sums {
            *sum = (*sum + n / 2) / n;
            over |= *sum > u32::from(ceiling_steps);
        }
        self.samples = 1;
        self.learnable = settled && !over;
    }

    /// Per-cell mean in quarter steps.
    fn mean_quarters(&self, cell: usize) -> u64 {
        let n = u64::from(self.samples.max(1));
        (u64::from(self.sums[cell]) * 4 + n / 2) / n
    }
}

/// The tare machine of one mat.
#[derive(Debug)]
pub struct TareMachine {
    /// Raw cells above this are over the idle ceiling, in the device's steps.
    ceiling_steps: u16,
    tare: Option<Tare>,
    window: Window,
    /// Since when the mat has read ABSENCE without a break (`None`: it reads PRESENCE, or no
    /// verdict yet).
    empty_since: Option<Instant>,
    last_sample: Option<Instant>,
    /// The latest frame read PRESENCE with a raw cell over the ceiling: someone lies on the mat.
    occupied: bool,
    /// The latest raw frame has a cell over the ceiling.
    frame_over: bool,
    /// The latest raw frame's arrival, Unix ms.
    frame_unix_ms: u64,
    outputs: VecDeque<Tare>,
}

impl TareMachine {
    /// A machine for cells of `units_per_cell` hub units per step, with a stored tare if any.
    pub fn new(units_per_cell: f64, stored: Option<Tare>) -> Self {
        let ceiling_units = IDLE_CEILING_MMHG * PASCAL_PER_MMHG / PASCAL_PER_UNIT;
        let ceiling_steps = (ceiling_units / units_per_cell).floor().clamp(0.0, f64::from(u16::MAX)) as u16;
        TareMachine {
            ceiling_steps,
            tare: stored,
            window: Window { learnable: true, ..Window::default() },
            empty_since: None,
            last_sample: None,
            occupied: false,
            frame_over: false,
            frame_unix_ms: 0,
            outputs: VecDeque::new(),
        }
    }

    /// The current tare (`None`: none learnt or set yet).
    pub fn tare(&self) -> Option<&Tare> {
        self.tare.as_ref()
    }

    /// The idle ceiling in the device's steps.
    pub fn ceiling_steps(&self) -> u16 {
        self.ceiling_steps
    }

    /// A raw frame arrives: it may be sampled, then the tare is subtracted from its cells in place.
    /// The frame's verdict follows with [`TareMachine::handle_presence`] (a sample of a frame that
    /// turns out to show PRESENCE is discarded with its window).
    /// `now_unix_ms` is `now` on the wall clock (a tare learnt on this frame is dated with it).
    pub fn handle_frame(&mut self, now: Instant, now_unix_ms: u64, rows: u16, cols: u16, format: CellFormat, cells: &mut [u8]) {
        self.frame_unix_ms = now_unix_ms;
        if let Ok(map) = PressureMap::new(rows, cols, format, cells) {
            self.frame_over = over_ceiling(&map, self.ceiling_steps);
            // While occupied, a frame over the ceiling would be discarded with its window anyway;
            // the first frame without one (the person got up) is sampled at once.
            let worth = !(self.occupied && self.frame_over);
            if worth && self.last_sample.is_none_or(|at| now >= at + SAMPLE_INTERVAL) {
                self.last_sample = Some(now);
                self.sample(now, &map);
            }
        }
        if let Some(tare) = &self.tare {
            tare.subtract(rows, cols, format, cells);
        }
    }

    fn sample(&mut self, now: Instant, map: &PressureMap<'_>) {
        let (rows, cols) = (map.rows(), map.cols());
        if self.window.samples > 0 && (self.window.rows, self.window.cols) != (rows, cols) {
            self.window.clear();
        }
        if self.window.samples == 0 {
            self.window.rows = rows;
            self.window.cols = cols;
            self.window.sums.clear();
            self.window.sums.resize(map.len(), 0);
        }
        let settled = self.empty_since.is_some_and(|since| now >= since + SETTLE);
        for (sum, v) in self.window.sums.iter_mut().zip(map.values()) {
            *sum = sum.saturating_add(u32::from(v));
        }
        self.window.samples += 1;
        self.window.learnable &= settled && !self.frame_over;
    }

    /// The verdict of the frame just handled (after the tare).
    pub fn handle_presence(&mut self, now: Instant, presence: Presence) {
        match presence {
            // PRESENCE with no cell over the idle ceiling is not a body (no one lying on a mat
            // leaves every cell that light): an idle level the tare has not learnt yet.
            Presence::Present if self.frame_over => {
                self.occupied = true;
                self.empty_since = None;
                self.window.clear();
            }
            Presence::Present | Presence::Absent => {
                self.occupied = false;
                let since = *self.empty_since.get_or_insert(now);
                if self.window.samples >= WINDOW_SAMPLES {
                    if self.window.learnable {
                        self.learn(self.frame_unix_ms);
                    }
                    // The next window starts from this one's mean (one sample's weight), so zeroing
                    // on demand always has a sample while the mat stays empty.
                    let settled = now >= since + SETTLE;
                    self.window.restart_from_mean(settled, self.ceiling_steps);
                }
            }
        }
    }

    /// The mat's connection closed: what it sent last says nothing about the next frames.
    pub fn handle_disconnect(&mut self) {
        self.empty_since = None;
        self.last_sample = None;
        self.occupied = false;
        self.window.clear();
    }

    fn learn(&mut self, now_unix_ms: u64) {
        let window = &self.window;
        let n = window.sums.len();
        let same_shape = self.tare.as_ref().is_some_and(|t| (t.rows, t.cols) == (window.rows, window.cols) && t.cells.len() == n);
        let mut cells: Vec<u16> = match &self.tare {
            Some(t) if same_shape => t.cells.clone(),
            _ => vec![0; n],
        };
        let mut changed = !same_shape;
        for (i, cell) in cells.iter_mut().enumerate() {
            let mean = window.mean_quarters(i);
            let current = u64::from(*cell) * 4;
            if !same_shape || mean.abs_diff(current) >= HYSTERESIS_QUARTER_STEPS {
                let steps = ((mean + 2) / 4).min(u64::from(self.ceiling_steps)) as u16;
                changed |= steps != *cell;
                *cell = steps;
            }
        }
        if !changed {
            return;
        }
        // A mat that idles at zero keeps no tare at all.
        if self.tare.is_none() && cells.iter().all(|&c| c == 0) {
            return;
        }
        self.set(Tare { rows: window.rows, cols: window.cols, cells, source: TareSource::Learnt, set_at_ms: now_unix_ms });
    }

    /// An administrator zeroes the empty mat: the mean of the samples since it last read
    /// PRESENCE becomes the tare.
    pub fn zero(&mut self, now_unix_ms: u64) -> Result<&Tare, TareRefusal> {
        if self.occupied {
            return Err(TareRefusal::Occupied);
        }
        let window = &self.window;
        if window.samples == 0 {
            return Err(TareRefusal::NoEmptyFrame);
        }
        let cells = (0..window.sums.len()).map(|i| ((window.mean_quarters(i) + 2) / 4).min(u64::from(u16::MAX)) as u16).collect();
        let tare = Tare { rows: window.rows, cols: window.cols, cells, source: TareSource::Zeroed, set_at_ms: now_unix_ms };
        self.set(tare);
        Ok(self.tare.as_ref().expect("just set"))
    }

    fn set(&mut self, tare: Tare) {
        self.outputs.push_back(tare.clone());
        self.tare = Some(tare);
    }

    /// A new tare to persist.
    pub fn poll_output(&mut self) -> Option<Tare> {
        self.outputs.pop_front()
    }

    /// What a restart keeps: the tare itself (the window and settle time start afresh).
    pub fn snapshot(&self) -> Option<Tare> {
        self.tare.clone()
    }
}

#[cfg(test)]
mod tests;
