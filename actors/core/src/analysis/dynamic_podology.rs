//! Dynamic podology (spec §2, §3): the 14 per-foot series in their spec positions, gait events
//! and the three rockers of each foot's stance, with `dynamic.error` / `dynamic.error2` when the
//! rockers cannot be computed.

use serde::{Deserialize, Serialize};

use super::AnalysisError;
use super::feet::{ForefootHeel, split_feet, split_forefoot_heel};
use super::frame::{Capture, PressureFrame, Region};
use super::parameters::{NamedParameter, ParameterValue};
use super::playback::playback_len;
use super::units::round_to;

/// Spec §3: a podiatry record needs at least 14 series.
pub const DYNAMIC_SERIES_COUNT: usize = 14;
/// Spec §9: rocker durations are given to 3 decimals.
pub const ROCKER_DURATION_DECIMALS: i32 = 3;
/// Spec §9: rocker shares are percentages to 1 decimal.
pub const ROCKER_SHARE_DECIMALS: i32 = 1;
/// Spec §8: the message key when a foot has too little contact to find its rockers.
pub const ERROR_NO_STANCE: &str = "dynamic.error";
/// The longest contact that is still a step (s): a slow walker's stance lasts about 1.5 s; a foot
/// down longer than this is standing, not walking.
pub const MAX_STANCE_S: f64 = 3.0;
/// Spec §8: the message key when the gait events are out of order (no heel strike, or the heel
/// lifts before the forefoot lands).
pub const ERROR_EVENTS_OUT_OF_ORDER: &str = "dynamic.error2";

/// Names of the 14 series, in their spec §3 positions.
pub const SERIES_NAMES: [&str; DYNAMIC_SERIES_COUNT] = [
    "leftSensorCount",
    "leftAveragePressure",
    "leftMaxPressure",
    "leftCenterOfPressureY",
    "leftCenterOfPressureX",
    "leftTimes",
    "rightSensorCount",
    "rightAveragePressure",
    "rightMaxPressure",
    "rightCenterOfPressureY",
    "rightCenterOfPressureX",
    "rightTimes",
    "activePointsLeft",
    "activePointsRight",
];

/// The dynamic result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DynamicResult {
    /// The 14 series (see [`SERIES_NAMES`]); each foot's series hold only the frames in which
    /// that foot touches the plate, and its times series says when those frames were (s).
    pub additional_parameters: Vec<NamedParameter>,
    /// Left foot's events and rockers.
    pub left: FootGait,
    /// Right foot's events and rockers.
    pub right: FootGait,
    /// Whether the feet were told apart by a gap of more than 5 columns.
    pub feet_separated: bool,
    /// Seconds from first to last frame.
    pub duration_s: f64,
    /// Frames of the interpolated 48×48 playback (see `playback`).
    pub playback_frames: usize,
}

/// One foot over the capture: each stance (a run of frames in contact) and the mean rockers of
/// the stances whose rockers could be computed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FootGait {
    /// Frames in which the foot had an active cell.
    pub contact_frames: usize,
    /// Every stance, in time order.
    pub stances: Vec<Stance>,
    /// Mean of the stances' rockers (durations averaged, shares of the mean stance), when at
    /// least one stance had them.
    pub rockers: Option<Rockers>,
    /// `dynamic.error` or `dynamic.error2` when no stance had rockers: the first stance's error,
    /// or `dynamic.error` when the foot never touched the plate.
    pub error: Option<String>,
}

/// One stance: contact from the first to the last of a run of consecutive frames in contact.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Stance {
    /// Gait events.
    pub events: GaitEvents,
    /// The three rockers, when they could be computed.
    pub rockers: Option<Rockers>,
    /// `dynamic.error` (fewer than 2 frames) or `dynamic.error2` (events out of order).
    pub error: Option<String>,
}

/// Gait events of one stance, seconds from the start of the capture.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GaitEvents {
    /// First frame with any active cell of the foot.
    pub initial_contact_s: f64,
    /// First frame with an active forefoot cell.
    pub forefoot_contact_s: Option<f64>,
    /// Last frame with an active heel cell.
    pub heel_off_s: Option<f64>,
    /// Last frame with any active cell of the foot.
    pub toe_off_s: f64,
    /// Whether the heel was loaded at initial contact.
    pub heel_strike: bool,
}

/// Perry's three rockers: heel (initial contact → forefoot contact), ankle (forefoot contact →
/// heel off), forefoot (heel off → toe off). Durations in s to 3 decimals, shares of the stance in
/// % to 1 decimal.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Rockers {
    pub stance_s: f64,
    pub heel_rocker_s: f64,
    pub ankle_rocker_s: f64,
    pub forefoot_rocker_s: f64,
    pub heel_rocker_share: f64,
    pub ankle_rocker_share: f64,
    pub forefoot_rocker_share: f64,
}

/// Analyses a walk over the plate. The feet and each foot's forefoot/heel are found on the
/// capture's peak map (every cell at its highest), so one region per foot holds all its frames.
pub fn dynamic_podology(capture: &Capture) -> Result<DynamicResult, AnalysisError> {
    let cleaned = contact_only(capture)?;
    let capture = &cleaned;
    let peak = capture.peak_map();
    let split = split_feet(&peak).ok_or(AnalysisError::NoPressure)?;
    let left = foot_series(capture, &peak, &split.left);
    let right = foot_series(capture, &peak, &split.right);
    let mut additional_parameters = Vec::with_capacity(DYNAMIC_SERIES_COUNT);
    let mut push = |index: usize, value: ParameterValue| {
        additional_parameters.push(NamedParameter::new(SERIES_NAMES[index], value));
    };
    for (offset, foot) in [(0, &left), (6, &right)] {
        push(offset, ParameterValue::Series(foot.count.clone()));
        push(offset + 1, ParameterValue::Series(foot.average.clone()));
        push(offset + 2, ParameterValue::Series(foot.max.clone()));
        push(offset + 3, ParameterValue::Series(foot.cop_y.clone()));
        push(offset + 4, ParameterValue::Series(foot.cop_x.clone()));
        push(offset + 5, ParameterValue::Series(foot.times.clone()));
    }
    push(12, ParameterValue::Frames(left.points));
    push(13, ParameterValue::Frames(right.points));
    Ok(DynamicResult {
        additional_parameters,
        left: left.gait,
        right: right.gait,
        feet_separated: split.separated,
        duration_s: capture.duration_s(),
        playback_frames: playback_len(capture),
    })
}

/// The capture with only the cells a foot touches: every cell under the active floor and every
/// active cell without an active 4-neighbour in its frame set to 0. A foot touches a plate with a
/// patch of cells, never one alone; a lone active cell is a sensor's spike. Left in, spikes over a
/// whole walk light cells all over the peak map, so the feet's extents (and their forefoot/heel
/// split) and the stances (a spike under a lifted foot is a "contact") are wrong; and the idle
/// level under the floor, spread over a foot's whole half of the plate, pulls its centre of
/// pressure towards the middle of that half.
fn contact_only(capture: &Capture) -> Result<Capture, AnalysisError> {
    let mut cleaned = Capture::new(capture.device_type(), capture.rows(), capture.cols());
    for timed in capture.frames() {
        let frame = &timed.frame;
        let (rows, cols) = (frame.rows() as usize, frame.cols() as usize);
        let active = |r: usize, c: usize| frame.is_active(frame.value(r, c));
        let mut cells = frame.cells().to_vec();
        for r in 0..rows {
            for c in 0..cols {
                let neighbour = (r > 0 && active(r - 1, c))
                    || (r + 1 < rows && active(r + 1, c))
                    || (c > 0 && active(r, c - 1))
                    || (c + 1 < cols && active(r, c + 1));
                if !active(r, c) || !neighbour {
                    cells[r * cols + c] = 0;
                }
            }
        }
        cleaned.push(timed.timestamp_ms, PressureFrame::new(frame.rows(), frame.cols(), cells)?)?;
    }
    Ok(cleaned)
}

#[derive(Default)]
struct FootSeries {
    count: Vec<f64>,
    average: Vec<f64>,
    max: Vec<f64>,
    cop_y: Vec<f64>,
    cop_x: Vec<f64>,
    times: Vec<f64>,
    points: Vec<Vec<super::frame::ActivePoint>>,
    gait: FootGait,
}

impl Default for FootGait {
    fn default() -> Self {
        FootGait { contact_frames: 0, stances: Vec::new(), rockers: None, error: Some(ERROR_NO_STANCE.to_owned()) }
    }
}

fn foot_series(capture: &Capture, peak: &PressureFrame, foot: &Region) -> FootSeries {
    let mut series = FootSeries::default();
    let Some(ForefootHeel { front, back }) = split_forefoot_heel(peak, foot) else { return series };
    let mut stances = Vec::new();
    let mut tracker = EventTracker::default();
    let last_s = capture.frames().last().map_or(0.0, |f| capture.seconds_since_start(f));
    for timed in capture.frames() {
        let front_stats = timed.frame.region_stats(&front);
        let back_stats = timed.frame.region_stats(&back);
        let whole = front_stats.merge(&back_stats);
        if whole.active_cells == 0 {
            // A frame without contact ends the stance in progress.
            stances.extend(std::mem::take(&mut tracker).finish());
            continue;
        }
        let t = capture.seconds_since_start(timed);
        tracker.observe(t, front_stats.active_cells > 0, back_stats.active_cells > 0);
        series.count.push(f64::from(whole.active_cells));
        series.average.push(whole.active_mean());
        series.max.push(whole.maximum.map_or(0.0, |p| f64::from(p.z)));
        let [x, y] = whole.center_of_pressure.unwrap_or([0.0, 0.0]);
        series.cop_y.push(y);
        series.cop_x.push(x);
        series.times.push(t);
        series.points.push(timed.frame.active_points(foot));
    }
    stances.extend(tracker.finish());
    // A step is a contact seen whole: the foot lands after the capture starts and lifts before
    // it ends, within a walker's stance time. A foot already down at the start, still down at
    // the end, or down for longer is standing: no rockers (never a 100 % ankle rocker).
    for stance in &mut stances {
        let e = &stance.events;
        let seen_whole = e.initial_contact_s > 0.0 && e.toe_off_s < last_s;
        if stance.rockers.is_some() && (!seen_whole || e.toe_off_s - e.initial_contact_s > MAX_STANCE_S) {
            stance.rockers = None;
            stance.error = Some(ERROR_NO_STANCE.to_owned());
        }
    }
    series.gait = summarise(series.times.len(), stances);
    series
}

/// The foot's summary over its stances.
fn summarise(contact_frames: usize, stances: Vec<Stance>) -> FootGait {
    let complete: Vec<&Rockers> = stances.iter().filter_map(|s| s.rockers.as_ref()).collect();
    let rockers = (!complete.is_empty()).then(|| {
        let n = complete.len() as f64;
        let mean = |f: fn(&Rockers) -> f64| complete.iter().map(|r| f(r)).sum::<f64>() / n;
        Rockers::from_phases([mean(|r| r.heel_rocker_s), mean(|r| r.ankle_rocker_s), mean(|r| r.forefoot_rocker_s)])
    });
    let error = match (&rockers, stances.first()) {
        (Some(_), _) => None,
        (None, Some(first)) => first.error.clone(),
        (None, None) => Some(ERROR_NO_STANCE.to_owned()),
    };
    FootGait { contact_frames, stances, rockers, error }
}

impl Rockers {
    /// Rounded durations and shares from the three phase durations (s).
    fn from_phases(phases: [f64; 3]) -> Rockers {
        let stance: f64 = phases.iter().sum();
        let duration = |s: f64| round_to(s, ROCKER_DURATION_DECIMALS);
        let share = |s: f64| if stance > 0.0 { round_to(100.0 * s / stance, ROCKER_SHARE_DECIMALS) } else { 0.0 };
        Rockers {
            stance_s: duration(stance),
            heel_rocker_s: duration(phases[0]),
            ankle_rocker_s: duration(phases[1]),
            forefoot_rocker_s: duration(phases[2]),
            heel_rocker_share: share(phases[0]),
            ankle_rocker_share: share(phases[1]),
            forefoot_rocker_share: share(phases[2]),
        }
    }
}

#[derive(Default)]
struct EventTracker {
    frames: usize,
    initial_contact: Option<f64>,
    heel_strike: bool,
    forefoot_contact: Option<f64>,
    heel_off: Option<f64>,
    toe_off: Option<f64>,
}

impl EventTracker {
    fn observe(&mut self, t: f64, forefoot: bool, heel: bool) {
        self.frames += 1;
        if self.initial_contact.is_none() {
            self.initial_contact = Some(t);
            self.heel_strike = heel;
        }
        if forefoot && self.forefoot_contact.is_none() {
            self.forefoot_contact = Some(t);
        }
        if heel {
            self.heel_off = Some(t);
        }
        self.toe_off = Some(t);
    }

    /// The stance observed so far, if any.
    fn finish(self) -> Option<Stance> {
        let (initial, toe_off) = (self.initial_contact?, self.toe_off?);
        let events = GaitEvents {
            initial_contact_s: initial,
            forefoot_contact_s: self.forefoot_contact,
            heel_off_s: self.heel_off,
            toe_off_s: toe_off,
            heel_strike: self.heel_strike,
        };
        let stance = |rockers, error: &str| Some(Stance { events, rockers, error: Some(error.to_owned()) });
        if self.frames < 2 || toe_off <= initial {
            return stance(None, ERROR_NO_STANCE);
        }
        let (Some(forefoot_contact), Some(heel_off)) = (self.forefoot_contact, self.heel_off) else {
            return stance(None, ERROR_EVENTS_OUT_OF_ORDER);
        };
        if !self.heel_strike || heel_off < forefoot_contact {
            return stance(None, ERROR_EVENTS_OUT_OF_ORDER);
        }
        let phases = [forefoot_contact - initial, heel_off - forefoot_contact, toe_off - heel_off];
        Some(Stance { events, rockers: Some(Rockers::from_phases(phases)), error: None })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mat_protocol::device_type::DeviceType;

    /// A 24×24 plate; the left foot occupies columns 3..=6 and rows 4..=13 (heel rows 11..=13 after
    /// the 0.7 split: length 9, boundary 10.3), the right foot columns 15..=18 of the same rows.
    /// `phase` says which part of which foot is down in each frame.
    fn frame(left: (bool, bool), right: (bool, bool)) -> PressureFrame {
        let mut cells = vec![0u16; 24 * 24];
        let mut paint = |cols: std::ops::RangeInclusive<usize>, (forefoot, heel): (bool, bool)| {
            for r in 4..=13 {
                for c in cols.clone() {
                    if (r <= 10 && forefoot) || (r >= 11 && heel) {
                        cells[r * 24 + c] = if r >= 11 { 80 } else { 40 };
                    }
                }
            }
        };
        paint(3..=6, left);
        paint(15..=18, right);
        PressureFrame::new(24, 24, cells).unwrap()
    }

    /// A walk at 10 Hz (100 ms per frame) onto an empty plate (frame 0.0 s). Left foot: heel at
    /// 0.1 s, flat 0.3–0.6 s, forefoot only 0.7–0.8 s, off at 0.9 s. Right foot: heel at 0.5 s,
    /// flat 0.6–1.0 s, forefoot 1.1 s, off from 1.2 s; frame 1.2 s is empty.
    fn walk() -> Capture {
        let plan: [((bool, bool), (bool, bool)); 12] = [
            ((false, true), (false, false)),  // 0.0 left heel strike
            ((false, true), (false, false)),  // 0.1
            ((true, true), (false, false)),   // 0.2 left forefoot contact
            ((true, true), (false, false)),   // 0.3
            ((true, true), (false, true)),    // 0.4 right heel strike
            ((true, true), (true, true)),     // 0.5 left heel off (last heel); right forefoot contact
            ((true, false), (true, true)),    // 0.6
            ((true, false), (true, true)),    // 0.7 left toe off (last contact)
            ((false, false), (true, true)),   // 0.8
            ((false, false), (true, true)),   // 0.9 right heel off
            ((false, false), (true, false)),  // 1.0 right toe off
            ((false, false), (false, false)), // 1.1 empty
        ];
        let mut c = Capture::new(DeviceType::PodologyIoT, 24, 24);
        c.push(0, frame((false, false), (false, false))).unwrap();
        for (i, (l, r)) in plan.into_iter().enumerate() {
            c.push(100 + i as u64 * 100, frame(l, r)).unwrap();
        }
        c
    }

    #[test]
    fn lone_sensor_spikes_neither_stretch_the_feet_nor_make_steps() {
        // The same walk with a lone spike in most frames: in front of both feet (the peak map's
        // first row), behind them, and under each foot while it is lifted.
        let clean = walk();
        let spikes = [(0, 4), (23, 16), (2, 5), (20, 17), (8, 4), (8, 16), (1, 20), (22, 3), (6, 5), (6, 17), (0, 15), (23, 6), (10, 10)];
        let mut noisy = Capture::new(DeviceType::PodologyIoT, 24, 24);
        for (timed, (r, c)) in clean.frames().iter().zip(spikes) {
            let mut cells = timed.frame.cells().to_vec();
            if cells[r * 24 + c] == 0 {
                cells[r * 24 + c] = 12;
            }
            noisy.push(timed.timestamp_ms, PressureFrame::new(24, 24, cells).unwrap()).unwrap();
        }
        let (a, b) = (dynamic_podology(&clean).unwrap(), dynamic_podology(&noisy).unwrap());
        assert_eq!((a.left, a.right), (b.left, b.right));
    }

    #[test]
    fn the_idle_level_under_the_floor_does_not_pull_a_foots_centre_of_pressure() {
        // The same walk with 1 step (under the two-step active floor) on every cell nobody touches.
        let clean = walk();
        let mut idle = Capture::new(DeviceType::PodologyIoT, 24, 24);
        for timed in clean.frames() {
            let cells = timed.frame.cells().iter().map(|&v| if v == 0 { 1 } else { v }).collect();
            idle.push(timed.timestamp_ms, PressureFrame::new(24, 24, cells).unwrap()).unwrap();
        }
        let (a, b) = (dynamic_podology(&clean).unwrap(), dynamic_podology(&idle).unwrap());
        for name in ["leftCenterOfPressureX", "leftCenterOfPressureY", "rightCenterOfPressureX", "rightCenterOfPressureY"] {
            let of = |r: &DynamicResult| r.additional_parameters.iter().find(|p| p.name == name).map(|p| p.value.clone());
            assert_eq!(of(&a), of(&b), "{name}");
        }
    }

    #[test]
    fn fourteen_series_in_spec_order() {
        let r = dynamic_podology(&walk()).unwrap();
        assert_eq!(r.additional_parameters.len(), 14);
        let names: Vec<&str> = r.additional_parameters.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, SERIES_NAMES);
        // Left foot touches in frames 0..=7 (8 frames), right in 4..=10 (7 frames).
        let series = |i: usize| match &r.additional_parameters[i].value {
            ParameterValue::Series(s) => s.clone(),
            other => panic!("{other:?}"),
        };
        assert_eq!(series(5), vec![0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]);
        assert_eq!(series(11), vec![0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1]);
        // Left at 0.0 s: heel only, 4 columns × 3 rows = 12 cells of 80, CoP x = 4.5, y = 12.
        assert_eq!(series(0)[0], 12.0);
        assert_eq!(series(1)[0], 80.0);
        assert_eq!(series(2)[0], 80.0);
        assert_eq!(series(3)[0], 12.0);
        assert_eq!(series(4)[0], 4.5);
        // Left flat at 0.2 s: 40 cells; mean (28 × 40 + 12 × 80) / 40 = 52.
        assert_eq!(series(0)[2], 40.0);
        assert_eq!(series(1)[2], 52.0);
        // Right CoP x at its heel strike: columns 15..=18 → 16.5.
        assert_eq!(series(10)[0], 16.5);
        match &r.additional_parameters[12].value {
            ParameterValue::Frames(frames) => {
                assert_eq!(frames.len(), 8);
                assert_eq!(frames[0].len(), 12);
                assert!(frames[0].iter().all(|p| (3..=6).contains(&p.x) && (11..=13).contains(&p.y) && p.z == 80));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_result_survives_a_json_round_trip() {
        // What the API stores is what it reads back (the series are untagged JSON values).
        let result = crate::analysis::AnalysisResult::Dynamic(dynamic_podology(&walk()).unwrap());
        let json = serde_json::to_string(&result).unwrap();
        assert!(json.starts_with(r#"{"analysisType":"Dynamic","result":{"additionalParameters":[{"name":"leftSensorCount""#));
        let back: crate::analysis::AnalysisResult = serde_json::from_str(&json).unwrap();
        assert_eq!(back, result);
    }

    #[test]
    fn rockers_by_hand() {
        let r = dynamic_podology(&walk()).unwrap();
        // Left: contact 0.0, forefoot 0.2, heel off 0.5, toe off 0.7 → stance 0.7 s;
        // rockers 0.2, 0.3, 0.2 → 28.6 %, 42.9 %, 28.6 %.
        let left = r.left.rockers.unwrap();
        assert_eq!(r.left.error, None);
        assert_eq!((left.stance_s, left.heel_rocker_s, left.ankle_rocker_s, left.forefoot_rocker_s), (0.7, 0.2, 0.3, 0.2));
        assert_eq!((left.heel_rocker_share, left.ankle_rocker_share, left.forefoot_rocker_share), (28.6, 42.9, 28.6));
        // Right: contact 0.4, forefoot 0.5, heel off 0.9, toe off 1.0 → stance 0.6;
        // rockers 0.1, 0.4, 0.1 → 16.7 %, 66.7 %, 16.7 %.
        let right = r.right.rockers.unwrap();
        assert_eq!((right.stance_s, right.heel_rocker_s, right.ankle_rocker_s), (0.6, 0.1, 0.4));
        assert_eq!((right.heel_rocker_share, right.ankle_rocker_share), (16.7, 66.7));
        assert_eq!(r.duration_s, 1.2);
    }

    #[test]
    fn durations_keep_three_decimals() {
        // Frames at 0, 333 and 1000 ms: left heel, flat, forefoot. Rockers 0.333, 0.0, 0.667 s of
        // a 1.0 s stance (heel off is the last heel frame, 0.333 s).
        let mut c = Capture::new(DeviceType::PodologyIoT, 24, 24);
        c.push(0, frame((false, false), (true, true))).unwrap();
        c.push(1000, frame((false, true), (true, true))).unwrap();
        c.push(1333, frame((true, true), (true, true))).unwrap();
        c.push(2000, frame((true, false), (true, true))).unwrap();
        c.push(2100, frame((false, false), (true, true))).unwrap();
        let left = dynamic_podology(&c).unwrap().left.rockers.unwrap();
        assert_eq!((left.heel_rocker_s, left.ankle_rocker_s, left.forefoot_rocker_s), (0.333, 0.0, 0.667));
        assert_eq!((left.heel_rocker_share, left.forefoot_rocker_share), (33.3, 66.7));
    }

    #[test]
    fn each_stance_is_timed_and_the_rockers_averaged() {
        // Left foot, frames 100 ms apart. Stance A: heel 0.0, flat 0.1, forefoot 0.2 → rockers
        // 0.1, 0.0, 0.1. Empty at 0.3. Stance B: heel 0.4 and 0.5, flat 0.6 and 0.7, forefoot
        // 0.8 → rockers 0.2, 0.1, 0.1. Mean 0.15, 0.05, 0.1 of a 0.3 s stance: 50 %, 16.7 %, 33.3 %.
        // The right foot stays flat throughout.
        let (heel, flat, fore, off) = ((false, true), (true, true), (true, false), (false, false));
        let mut c = Capture::new(DeviceType::PodologyIoT, 24, 24);
        for (i, left) in [off, heel, flat, fore, off, heel, heel, flat, flat, fore, off].into_iter().enumerate() {
            c.push(i as u64 * 100, frame(left, flat)).unwrap();
        }
        let left = dynamic_podology(&c).unwrap().left;
        assert_eq!(left.stances.len(), 2);
        assert_eq!(left.contact_frames, 8);
        assert_eq!(left.stances[1].events.initial_contact_s, 0.5);
        assert_eq!(left.stances[1].rockers.unwrap().heel_rocker_s, 0.2);
        let mean = left.rockers.unwrap();
        assert_eq!((mean.stance_s, mean.heel_rocker_s, mean.ankle_rocker_s, mean.forefoot_rocker_s), (0.3, 0.15, 0.05, 0.1));
        assert_eq!((mean.heel_rocker_share, mean.ankle_rocker_share, mean.forefoot_rocker_share), (50.0, 16.7, 33.3));
    }

    #[test]
    fn errors_when_rockers_cannot_be_computed() {
        // Left foot lands on the forefoot (no heel strike) → dynamic.error2; the right foot is
        // seen in one frame only → dynamic.error.
        let mut c = Capture::new(DeviceType::PodologyIoT, 24, 24);
        c.push(0, frame((true, false), (false, false))).unwrap();
        c.push(100, frame((true, true), (true, true))).unwrap();
        c.push(200, frame((true, false), (false, false))).unwrap();
        let r = dynamic_podology(&c).unwrap();
        assert_eq!(r.left.error.as_deref(), Some("dynamic.error2"));
        assert_eq!(r.left.rockers, None);
        assert_eq!(r.right.error.as_deref(), Some("dynamic.error"));
        assert_eq!(r.right.contact_frames, 1);
    }

    #[test]
    fn a_patient_standing_still_has_no_steps_and_no_rockers() {
        // Both feet flat for 15 s at 10 Hz: no foot lands or lifts inside the capture.
        let mut c = Capture::new(DeviceType::PodologyIoT, 24, 24);
        for i in 0..150 {
            c.push(i * 100, frame((true, true), (true, true))).unwrap();
        }
        let r = dynamic_podology(&c).unwrap();
        for foot in [&r.left, &r.right] {
            assert_eq!(foot.rockers, None, "never a 100 % ankle rocker");
            assert_eq!(foot.error.as_deref(), Some(ERROR_NO_STANCE));
        }
    }

    #[test]
    fn a_foot_down_longer_than_a_stance_is_not_a_step() {
        // Onto the plate at 0.1 s, heel 1 s, flat 3 s, forefoot 1 s, off: 5 s down.
        let (heel, flat, fore, off) = ((false, true), (true, true), (true, false), (false, false));
        let mut c = Capture::new(DeviceType::PodologyIoT, 24, 24);
        let plan = std::iter::once(off)
            .chain(std::iter::repeat_n(heel, 10))
            .chain(std::iter::repeat_n(flat, 30))
            .chain(std::iter::repeat_n(fore, 10))
            .chain(std::iter::once(off));
        for (i, left) in plan.enumerate() {
            c.push(i as u64 * 100, frame(left, off)).unwrap();
        }
        let left = dynamic_podology(&c).unwrap().left;
        assert_eq!(left.stances.len(), 1);
        assert_eq!((left.rockers, left.error.as_deref()), (None, Some(ERROR_NO_STANCE)));
    }

    #[test]
    fn an_empty_capture_has_no_pressure() {
        let mut c = Capture::new(DeviceType::PodologyIoT, 24, 24);
        c.push(0, PressureFrame::new(24, 24, vec![0; 576]).unwrap()).unwrap();
        assert_eq!(dynamic_podology(&c).unwrap_err(), AnalysisError::NoPressure);
    }
}
