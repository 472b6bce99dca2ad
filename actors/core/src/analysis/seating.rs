//! Seating dynamic (spec §2, §3): the per-frame series of the seating plot panels in their
//! additionalParameters positions, push-ups (pressure reliefs), and the two indices seating
//! clinicians use: Peak Pressure Index and Dispersion Index.
//!
//! A bed's dynamic capture makes the same pressure-over-time panels (docs/decisions.md), read as
//! a body lying down: left and right across the body (the rows of a square or wide map, a supine
//! person's left towards row 0, as `bed_static` and `docs/posture.md` place it), positions and
//! areas at the mattress's own 4 cm cells, and neither the Dispersion Index (its windows are the
//! ischial tuberosities of a seated person) nor push-ups (a wheelchair user's pressure relief).

use serde::{Deserialize, Serialize};

use super::AnalysisError;
use super::frame::{Capture, PressureFrame, Region};
use super::histogram::histogram;
use super::parameters::{Laterality, NamedParameter, ParameterValue};
use super::units::{cell_pitch_cm, contact_cell_area_cm2, contact_cells, dynamic_cell_cm, surface_ratio};
use crate::machine::posture::lies_along_columns;
use mat_protocol::device_type::{AnalysisFamily, DeviceType};

/// Peak Pressure Index window side (cm): a 10 cm × 10 cm window around the peak.
pub const PPI_WINDOW_CM: f64 = 10.0;
/// A frame is part of a push-up when its total load is under this share of the capture's
/// median total load.
pub const PUSH_UP_LOAD_FRACTION: f64 = 0.3;
/// A push-up lasts at least this long (first to last unloaded frame).
pub const PUSH_UP_MIN_SECONDS: f64 = 1.0;

/// Names of the additionalParameters entries, in their positions.
pub const SEATING_PARAMETER_NAMES: [&str; 13] = [
    "activePoints",
    "lateralityHistoric",
    "histogramHistoric",
    "maxPressureHistoric",
    "meanPressureHistoric",
    "centerOfPressure",
    "contactArea",
    "maxPressureOfMap",
    "contactSurfaceOfMap",
    "pressureOfPoint",
    "points",
    "analysisTime",
    "ConvolutionalMap",
];

/// The plot panels of the seating view: seven with push-ups, six without (spec §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SeatingPanel {
    ActivePoints,
    Laterality,
    CenterOfPressure,
    ContactArea,
    MaxPressure,
    MeanPressure,
    PushUps,
}

/// One pressure relief.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PushUp {
    /// Seconds from the start of the capture.
    pub start_s: f64,
    /// First to last unloaded frame, s.
    pub duration_s: f64,
}

/// The seating dynamic result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SeatingResult {
    /// Entries 0–12 as [`SEATING_PARAMETER_NAMES`], then `peakPressureIndex`,
    /// `dispersionIndex`, `peakPressureIndexMean` and, when there were any, `pushUps`.
    pub additional_parameters: Vec<NamedParameter>,
    /// Panels to show.
    pub panels: Vec<SeatingPanel>,
    /// Pressure reliefs, `None` when there were none.
    pub push_ups: Option<Vec<PushUp>>,
    /// Highest sum of a 10 cm × 10 cm window containing the peak of the mean map, sensor units.
    pub peak_pressure_index: f64,
    /// The Peak Pressure Index as its window's mean pressure, in the device's cell steps (the sum
    /// ÷ the window's cells, [`ppi_window_mean`]): what the screen and the PDF show, in the
    /// reader's unit. 0 in results stored before it existed.
    #[serde(default)]
    pub peak_pressure_index_mean: f64,
    /// Cells of the 10 cm × 10 cm window the PPI is summed over (side², [`window_cells`]).
    #[serde(default)]
    pub peak_pressure_index_window_cells: u32,
    /// Load in the two ischial windows / total load × 100, on the mean map; none on a bed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dispersion_index: Option<f64>,
    /// Seconds from first to last frame.
    pub duration_s: f64,
}

impl SeatingResult {
    /// The PPI as its window's mean pressure, cell steps of `device`: the stored figure, or for a
    /// result stored before it existed (no window recorded) the same arithmetic on the device's
    /// pitch.
    pub fn ppi_mean(&self, device: mat_protocol::device_type::DeviceType) -> f64 {
        if self.peak_pressure_index_window_cells > 0 {
            self.peak_pressure_index_mean
        } else {
            ppi_window_mean(self.peak_pressure_index, window_cells(cell_pitch_cm(device)).pow(2))
        }
    }

    /// The dispersion index as a reader of `device`'s result shows it: the stored figure on a
    /// seat, none on a bed, whose body lies down with no ischial windows ([`lying`]). A bed's
    /// result stored before the engine read beds lying (2026-11-30) still carries one.
    pub fn dispersion_index_on(&self, device: mat_protocol::device_type::DeviceType) -> Option<f64> {
        self.dispersion_index.filter(|_| !lying(device))
    }
}

/// Analyses a sitting capture (row 0 is the front edge of the seat, the knees; the ischial
/// tuberosities are in the back half), or a bed's ([`lying`]).
pub fn seating(capture: &Capture) -> Result<SeatingResult, AnalysisError> {
    let device = capture.device_type();
    let lying = lying(device);
    // A bed's positions and areas are its cells' own (4 cm, 16 cm²); spec §9's plot scales are
    // the seats', the saddle's and the plates'.
    let (cm_per_cell, area_per_cell) =
        if lying { (cell_pitch_cm(device), contact_cell_area_cm2(device)) } else { (dynamic_cell_cm(device), surface_ratio(device)) };
    let mut active = Vec::new();
    let mut laterality = Vec::new();
    let mut max_series = Vec::new();
    let mut mean_series = Vec::new();
    let mut centres = Vec::new();
    let mut contact = Vec::new();
    let mut totals = Vec::new();
    for timed in capture.frames() {
        let frame = &timed.frame;
        let stats = frame.region_stats(&frame.full_region());
        let (left, right) = if lying { sides_of_a_lying_body(frame) } else { halves(frame) };
        let (l, r) = (frame.region_stats(&left).load as f64, frame.region_stats(&right).load as f64);
        active.push(f64::from(stats.active_cells));
        laterality.push(if l + r > 0.0 { Laterality { l: l / (l + r), r: r / (l + r) } } else { Laterality { l: 0.0, r: 0.0 } });
        max_series.push(stats.maximum.map_or(0.0, |p| f64::from(p.z)));
        mean_series.push(stats.active_mean());
        centres.extend(stats.center_of_pressure.map(|[x, y]| [x * cm_per_cell, y * cm_per_cell]));
        contact.push(f64::from(stats.active_cells) * area_per_cell);
        totals.push((capture.seconds_since_start(timed), stats.load));
    }
    if capture.frames().is_empty() {
        return Err(AnalysisError::TooFewFrames { needed: 1, got: 0 });
    }
    let preview = capture.mean_map();
    let preview_stats = preview.region_stats(&preview.full_region());
    // The 10 cm windows are physical: they use the cell pitch, not the plot scale.
    let peak_pressure_index = peak_pressure_index(&preview, cell_pitch_cm(device));
    let ppi_cells = window_cells(cell_pitch_cm(device)).pow(2);
    let peak_pressure_index_mean = ppi_window_mean(peak_pressure_index, ppi_cells);
    let dispersion_index = (!lying).then(|| dispersion_index(&preview, cell_pitch_cm(device)));
    let push_ups = if lying { None } else { detect_push_ups(&totals) };
    let duration_s = capture.duration_s();
    let max_point = preview_stats.maximum.map_or(serde_json::Value::Null, |p| serde_json::json!({ "x": p.x, "y": p.y, "z": p.z }));
    let histogram_json = serde_json::to_value(histogram(preview.cells(), preview.active_floor())).unwrap_or(serde_json::Value::Null);
    let values = [
        ParameterValue::Series(active),
        ParameterValue::Laterality(laterality),
        ParameterValue::Other(histogram_json),
        ParameterValue::Series(max_series),
        ParameterValue::Series(mean_series),
        ParameterValue::Points(centres),
        ParameterValue::Series(contact),
        ParameterValue::Number(preview_stats.maximum.map_or(0.0, |p| f64::from(p.z))),
        ParameterValue::Number(f64::from(contact_cells(device, preview.cells())) * area_per_cell),
        ParameterValue::Other(max_point),
        ParameterValue::ActivePoints(preview.active_points(&preview.full_region())),
        ParameterValue::Number(duration_s),
        ParameterValue::Map(preview.cells().chunks(preview.cols().max(1) as usize).map(<[u16]>::to_vec).collect()),
    ];
    let mut additional_parameters: Vec<NamedParameter> =
        SEATING_PARAMETER_NAMES.iter().zip(values).map(|(name, value)| NamedParameter::new(name, value)).collect();
    additional_parameters.push(NamedParameter::new("peakPressureIndex", ParameterValue::Number(peak_pressure_index)));
    if let Some(dispersion_index) = dispersion_index {
        additional_parameters.push(NamedParameter::new("dispersionIndex", ParameterValue::Number(dispersion_index)));
    }
    additional_parameters.push(NamedParameter::new("peakPressureIndexMean", ParameterValue::Number(peak_pressure_index_mean)));
    let mut panels = vec![
        SeatingPanel::ActivePoints,
        SeatingPanel::Laterality,
        SeatingPanel::CenterOfPressure,
        SeatingPanel::ContactArea,
        SeatingPanel::MaxPressure,
        SeatingPanel::MeanPressure,
    ];
    if let Some(events) = &push_ups {
        panels.push(SeatingPanel::PushUps);
        let json = serde_json::to_value(events).unwrap_or(serde_json::Value::Null);
        additional_parameters.push(NamedParameter::new("pushUps", ParameterValue::Other(json)));
    }
    Ok(SeatingResult {
        additional_parameters,
        panels,
        push_ups,
        peak_pressure_index,
        peak_pressure_index_mean,
        peak_pressure_index_window_cells: u32::try_from(ppi_cells).unwrap_or(u32::MAX),
        dispersion_index,
        duration_s,
    })
}

/// Whether `device`'s captures are of a body lying in bed (the bed family).
pub fn lying(device: DeviceType) -> bool {
    device.analysis_family() == Some(AnalysisFamily::Bed)
}

/// A lying body's left and right: across the body, which lies along the longer side (along the
/// columns of a square map), a supine person's left towards the first row (the first column of a
/// tall map). The middle row or column of an odd count is in neither.
pub fn sides_of_a_lying_body(frame: &PressureFrame) -> (Region, Region) {
    let (rows, cols) = (frame.rows() as usize, frame.cols() as usize);
    if lies_along_columns(rows, cols) {
        (
            Region { row_start: 0, row_end: rows / 2, col_start: 0, col_end: cols },
            Region { row_start: rows.div_ceil(2), row_end: rows, col_start: 0, col_end: cols },
        )
    } else {
        halves(frame)
    }
}

/// Left and right halves of a map; with an odd column count the middle column is in neither.
pub fn halves(frame: &PressureFrame) -> (Region, Region) {
    let (rows, cols) = (frame.rows() as usize, frame.cols() as usize);
    (
        Region { row_start: 0, row_end: rows, col_start: 0, col_end: cols / 2 },
        Region { row_start: 0, row_end: rows, col_start: cols.div_ceil(2), col_end: cols },
    )
}

/// Cells per side of a 10 cm window at `pitch_cm` (at least 1).
pub fn window_cells(pitch_cm: f64) -> usize {
    ((PPI_WINDOW_CM / pitch_cm).round() as usize).max(1)
}

/// The PPI read as a pressure: the window's sum ÷ its `cells` (side², [`window_cells`]), in the
/// map's units. The one place the sum becomes a mean; the seating static result, the hub's
/// seating dynamic result and the PDF all read it.
pub fn ppi_window_mean(sum: f64, cells: usize) -> f64 {
    if cells == 0 { 0.0 } else { sum / cells as f64 }
}

/// Peak Pressure Index: the highest sum over the 10 cm × 10 cm windows (clipped to the map)
/// that contain the map's peak cell. 0 on an empty map.
pub fn peak_pressure_index(map: &PressureFrame, pitch_cm: f64) -> f64 {
    let Some(peak) = map.region_stats(&map.full_region()).maximum else { return 0.0 };
    let side = window_cells(pitch_cm);
    let (rows, cols) = (map.rows() as usize, map.cols() as usize);
    let starts = |at: usize, size: usize| {
        let first = (at + 1).saturating_sub(side);
        let last = at.min(size.saturating_sub(side));
        first..=last.max(first)
    };
    let mut best = 0u64;
    for r0 in starts(peak.y as usize, rows) {
        for c0 in starts(peak.x as usize, cols) {
            let window = Region { row_start: r0, row_end: (r0 + side).min(rows), col_start: c0, col_end: (c0 + side).min(cols) };
            best = best.max(map.region_stats(&window).load);
        }
    }
    best as f64
}

/// Dispersion Index: the load in the two ischial regions as a percentage of the total. Each
/// ischial region is the 10 cm × 10 cm window centred on the highest cell of one back quadrant
/// (back half of the rows, left or right half of the columns), clipped to that quadrant.
pub fn dispersion_index(map: &PressureFrame, pitch_cm: f64) -> f64 {
    let total = map.region_stats(&map.full_region()).load;
    if total == 0 {
        return 0.0;
    }
    let side = window_cells(pitch_cm);
    let rows = map.rows() as usize;
    let (left, right) = halves(map);
    let mut ischial = 0u64;
    for half in [left, right] {
        let quadrant = Region { row_start: rows / 2, ..half };
        let Some(peak) = map.region_stats(&quadrant).maximum else { continue };
        let (py, px) = (peak.y as usize, peak.x as usize);
        let window = Region {
            row_start: py.saturating_sub(side / 2).max(quadrant.row_start),
            row_end: (py + side - side / 2).min(quadrant.row_end),
            col_start: px.saturating_sub(side / 2).max(quadrant.col_start),
            col_end: (px + side - side / 2).min(quadrant.col_end),
        };
        ischial += map.region_stats(&window).load;
    }
    100.0 * ischial as f64 / total as f64
}

/// Runs of frames whose load is under 30 % of the median frame load, lasting at least 1 s.
/// `None` when there is none.
pub fn detect_push_ups(totals: &[(f64, u64)]) -> Option<Vec<PushUp>> {
    let mut loads: Vec<u64> = totals.iter().map(|&(_, load)| load).collect();
    loads.sort_unstable();
    let median = *loads.get(loads.len() / 2)? as f64;
    let threshold = median * PUSH_UP_LOAD_FRACTION;
    let mut events = Vec::new();
    let mut run: Option<(f64, f64)> = None;
    for &(t, load) in totals {
        if (load as f64) < threshold {
            run = Some(run.map_or((t, t), |(start, _)| (start, t)));
        } else if let Some((start, end)) = run.take()
            && end - start >= PUSH_UP_MIN_SECONDS
        {
            events.push(PushUp { start_s: start, duration_s: end - start });
        }
    }
    if let Some((start, end)) = run
        && end - start >= PUSH_UP_MIN_SECONDS
    {
        events.push(PushUp { start_s: start, duration_s: end - start });
    }
    (!events.is_empty()).then_some(events)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mat_protocol::device_type::DeviceType;

    /// A 16×16 seat (2 cm cells, so 10 cm = 5 cells) with two ischial pressure points: cells
    /// (row 11, col 4) and (row 11, col 11) at 100, a 3×3 ring of 20 around each, plus a thigh
    /// load of 10 on rows 2..=5, columns 3..=12.
    fn seat() -> PressureFrame {
        let mut cells = vec![0u16; 256];
        for r in 2..=5 {
            for c in 3..=12 {
                cells[r * 16 + c] = 10;
            }
        }
        for (pr, pc) in [(11usize, 4usize), (11, 11)] {
            for r in pr - 1..=pr + 1 {
                for c in pc - 1..=pc + 1 {
                    cells[r * 16 + c] = 20;
                }
            }
            cells[pr * 16 + pc] = 100;
        }
        PressureFrame::new(16, 16, cells).unwrap()
    }

    #[test]
    fn window_is_10_cm_in_cells() {
        assert_eq!(window_cells(2.0), 5);
        assert_eq!(window_cells(2.5), 4);
        assert_eq!(window_cells(1.0), 10);
    }

    #[test]
    fn peak_pressure_index_by_hand() {
        // Peak: the first 100 in reading order, (x 4, y 11). Any 5×5 window containing it and the
        // whole 3×3 cluster sums 100 + 8 × 20 = 260; none reaches the other cluster (7 columns away)
        // or the thighs (rows ≤ 5, window rows ≥ 7).
        assert_eq!(peak_pressure_index(&seat(), 2.0), 260.0);
    }

    #[test]
    fn the_result_carries_the_ppi_as_its_windows_mean_pressure() {
        // 2 cm cells: a 5 × 5 window, 260 / 25 = 10.4 steps; the screen and the PDF read this.
        let mut c = Capture::new(DeviceType::SeatingMatIoT, 16, 16);
        c.push(0, seat()).unwrap();
        let r = seating(&c).unwrap();
        assert_eq!((r.peak_pressure_index, r.peak_pressure_index_window_cells), (260.0, 25));
        assert!((r.peak_pressure_index_mean - 10.4).abs() < 1e-12);
        let named = r.additional_parameters.iter().find(|p| p.name == "peakPressureIndexMean").map(|p| &p.value);
        assert_eq!(named, Some(&ParameterValue::Number(r.peak_pressure_index_mean)));
        assert_eq!(r.ppi_mean(DeviceType::SeatingMatIoT), r.peak_pressure_index_mean);
        // A result stored before the field existed reads the same arithmetic on the device's pitch.
        let old = SeatingResult { peak_pressure_index_mean: 0.0, peak_pressure_index_window_cells: 0, ..r };
        assert!((old.ppi_mean(DeviceType::SeatingMatIoT) - 10.4).abs() < 1e-12);
        assert_eq!(ppi_window_mean(5.0, 0), 0.0);
    }

    #[test]
    fn dispersion_index_by_hand() {
        // Total: thighs 4 × 10 × 10 = 400, clusters 2 × 260 = 520 → 920.
        // Ischial windows: 5×5 around each 100, holding its whole cluster: 520.
        // DI = 520 / 920 × 100 = 56.52…
        let di = dispersion_index(&seat(), 2.0);
        assert!((di - 100.0 * 520.0 / 920.0).abs() < 1e-9, "{di}");
    }

    #[test]
    fn series_and_positions() {
        let mut c = Capture::new(DeviceType::SeatingMatIoT, 16, 16);
        for i in 0..3 {
            c.push(i * 500, seat()).unwrap();
        }
        let r = seating(&c).unwrap();
        let names: Vec<&str> = r.additional_parameters.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(&names[..13], SEATING_PARAMETER_NAMES);
        assert_eq!(names[13..], ["peakPressureIndex", "dispersionIndex", "peakPressureIndexMean"]);
        // Active cells: 40 thigh + 18 cluster cells = 58; contact area 58 × 4 cm² = 232.
        assert_eq!(r.additional_parameters[0].value, ParameterValue::Series(vec![58.0; 3]));
        assert_eq!(r.additional_parameters[6].value, ParameterValue::Series(vec![232.0; 3]));
        // Symmetric seat: laterality 0.5 / 0.5.
        assert_eq!(r.additional_parameters[1].value, ParameterValue::Laterality(vec![Laterality { l: 0.5, r: 0.5 }; 3]));
        // CoP x = 7.5 cells (symmetric) = 7.5 cm at 1 cm per cell in the seating dynamic view.
        // y = (400 · 3.5 + 520 · 11) / 920 = (1400 + 5720) / 920 = 7.739…
        match &r.additional_parameters[5].value {
            ParameterValue::Points(p) => {
                assert!((p[0][0] - 7.5).abs() < 1e-9);
                assert!((p[0][1] - 7120.0 / 920.0).abs() < 1e-9);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(r.additional_parameters[11].value, ParameterValue::Number(1.0));
        assert_eq!(r.panels.len(), 6);
        assert_eq!(r.push_ups, None);
    }

    /// A bed's dynamic capture is read as a body lying down, not as a seat.
    #[test]
    fn a_bed_s_panels_read_a_lying_body() {
        // A 48 × 48 mattress (4 cm cells), the body along the columns: its left side (rows 20–23)
        // carries 3 × the load of its right side (rows 24–27), from the head (column 4) to the
        // heels (column 43); then it leaves the bed for 2 s.
        let mut body = vec![0u16; 48 * 48];
        for c in 4..44 {
            for r in 20..24 {
                body[r * 48 + c] = 30;
            }
            for r in 24..28 {
                body[r * 48 + c] = 10;
            }
        }
        let mut c = Capture::new(DeviceType::MattressMatIoT, 48, 48);
        for i in 0..=10u64 {
            let frame = if i >= 7 { vec![0; 48 * 48] } else { body.clone() };
            c.push(i * 500, PressureFrame::new(48, 48, frame).unwrap()).unwrap();
        }
        let r = seating(&c).unwrap();
        // Left and right across the body, not head and feet.
        assert_eq!(r.additional_parameters[1].value, {
            let lying = Laterality { l: 0.75, r: 0.25 };
            let empty = Laterality { l: 0.0, r: 0.0 };
            ParameterValue::Laterality((0..=10).map(|i| if i >= 7 { empty } else { lying }).collect())
        });
        // 320 active cells × 16 cm².
        match &r.additional_parameters[6].value {
            ParameterValue::Series(area) => assert_eq!(area[0], 320.0 * 16.0),
            other => panic!("{other:?}"),
        }
        // The centre of pressure at 4 cm a cell: column 23.5 → 94 cm along the bed.
        match &r.additional_parameters[5].value {
            ParameterValue::Points(p) => assert!((p[0][0] - 23.5 * 4.0).abs() < 1e-9, "{p:?}"),
            other => panic!("{other:?}"),
        }
        // No ischial windows and no push-ups lying down, though the load fell under 30 % for 2 s.
        assert_eq!(r.dispersion_index, None);
        assert!(r.additional_parameters.iter().all(|p| p.name != "dispersionIndex"));
        // A bed's record stored before, with a dispersion index: its readers show none; a seat's does.
        let stored = SeatingResult { dispersion_index: Some(3.54), ..r.clone() };
        assert_eq!(stored.dispersion_index_on(DeviceType::MattressMatIoT), None);
        assert_eq!(stored.dispersion_index_on(DeviceType::SeatingMatIoT), Some(3.54));
        assert_eq!(r.push_ups, None);
        assert_eq!(r.panels.len(), 6);
        assert!(r.peak_pressure_index_mean > 0.0);
        // A seat's capture keeps both.
        assert!(lying(DeviceType::SleepMat) && !lying(DeviceType::SeatingMatIoT) && !lying(DeviceType::SensingHorse));
    }

    #[test]
    fn push_ups_add_the_seventh_panel() {
        // Frames every 0.5 s from 0 to 5 s; seated (load 920) until 3 s, lifted (load 0) from
        // 3.5 s to the end: a 1.5 s relief starting at 3.5 s (median load 920, bound 276).
        let mut c = Capture::new(DeviceType::SeatingMatIoT, 16, 16);
        for i in 0..=10u64 {
            let t = i * 500;
            let frame = if t >= 3500 { PressureFrame::new(16, 16, vec![0; 256]).unwrap() } else { seat() };
            c.push(t, frame).unwrap();
        }
        let r = seating(&c).unwrap();
        assert_eq!(r.push_ups, Some(vec![PushUp { start_s: 3.5, duration_s: 1.5 }]));
        assert_eq!(r.panels.len(), 7);
        assert_eq!(r.panels[6], SeatingPanel::PushUps);
        assert_eq!(r.additional_parameters.last().unwrap().name, "pushUps");
    }

    #[test]
    fn push_ups_need_under_30_percent_for_at_least_1_s() {
        // Median load 100 in each case, so the bound is 30.
        // 0.5 s at 29: too short.
        let short = [(0.0, 100), (0.5, 29), (1.0, 29), (1.5, 100), (2.0, 100), (3.0, 100), (4.0, 100)];
        assert_eq!(detect_push_ups(&short), None);
        // 2 s at exactly 30: not under the bound.
        let at_bound = [(0.0, 100), (1.0, 30), (2.0, 30), (3.0, 30), (4.0, 100), (5.0, 100), (6.0, 100)];
        assert_eq!(detect_push_ups(&at_bound), None);
        // 1 s at 29: one push-up.
        let relief = [(0.0, 100), (1.0, 29), (2.0, 29), (3.0, 100), (4.0, 100), (5.0, 100)];
        assert_eq!(detect_push_ups(&relief), Some(vec![PushUp { start_s: 1.0, duration_s: 1.0 }]));
    }
}
