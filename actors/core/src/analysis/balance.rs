//! Balance (spec §2): centre-of-force scatter for the left foot, the body and the right foot,
//! lateral and front–back series over the first 10 s, and the posturography measures: sway path
//! length, mean sway velocity and the 95 % confidence-ellipse area.

use serde::{Deserialize, Serialize};

use super::AnalysisError;
use super::feet::split_feet;
use super::frame::Capture;

/// Spec §2: the lateral and front–back plots cover 0 to 10 s.
pub const BALANCE_PLOT_SECONDS: f64 = 10.0;
/// χ² with 2 degrees of freedom at 0.95: the 95 % confidence ellipse is π·χ²·√(λ1·λ2).
pub const CHI_SQUARED_95_2DOF: f64 = 5.991;

/// One point of a time series.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TimePoint {
    /// Seconds from the start of the capture.
    pub t: f64,
    /// Value.
    pub value: f64,
}

/// The balance result. Scatter points are map cells (x = column, y = row); the series and the
/// sway measures are in cm (cells × the device's pitch), relative to the mean body centre.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BalanceResult {
    /// Left foot's centre of force per frame in which it is loaded.
    pub left_scatter: Vec<[f64; 2]>,
    /// Whole body's centre of force per loaded frame.
    pub body_scatter: Vec<[f64; 2]>,
    /// Right foot's centre of force per frame in which it is loaded.
    pub right_scatter: Vec<[f64; 2]>,
    /// Body x minus its mean, cm, for t ≤ 10 s.
    pub lateral: Vec<TimePoint>,
    /// Body y minus its mean, cm, for t ≤ 10 s (positive towards the heels).
    pub front_back: Vec<TimePoint>,
    /// Sum of the distances between successive body centres, cm.
    pub sway_path_length_cm: f64,
    /// Sway path length / duration, cm/s.
    pub mean_velocity_cm_s: f64,
    /// π · 5.991 · √(λ1·λ2) of the body centres' covariance (n − 1), cm².
    pub confidence_ellipse_area_cm2: f64,
    /// Seconds from first to last frame.
    pub duration_s: f64,
    /// The 95 % confidence ellipse of the body centres, cm, centred on their mean (issue 21: the
    /// view draws it); `None` for fewer than 3 points. Older records lack it.
    #[serde(default)]
    pub confidence_ellipse: Option<Ellipse>,
    /// Distance between cell centres, cm: the scatter's cells to cm (older records lack it).
    #[serde(default)]
    pub cell_cm: Option<f64>,
}

/// An ellipse centred on the mean body centre, in cm.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Ellipse {
    /// Half the longer axis, cm.
    pub semi_major_cm: f64,
    /// Half the shorter axis, cm.
    pub semi_minor_cm: f64,
    /// Angle of the longer axis from the x axis (columns) towards y (rows), degrees.
    pub angle_deg: f64,
}

/// Analyses a balance capture with cells `pitch_cm` apart. The feet are split once, on the
/// capture's peak map, so a foot keeps its columns while its load shifts.
pub fn balance(capture: &Capture, pitch_cm: f64) -> Result<BalanceResult, AnalysisError> {
    let peak = capture.peak_map();
    let split = split_feet(&peak).ok_or(AnalysisError::NoPressure)?;
    let (mut left_scatter, mut body_scatter, mut right_scatter) = (Vec::new(), Vec::new(), Vec::new());
    let mut body_times = Vec::new();
    for timed in capture.frames() {
        let left = timed.frame.region_stats(&split.left);
        let right = timed.frame.region_stats(&split.right);
        left_scatter.extend(left.center_of_pressure);
        right_scatter.extend(right.center_of_pressure);
        if let Some(body) = timed.frame.region_stats(&timed.frame.full_region()).center_of_pressure {
            body_scatter.push(body);
            body_times.push(capture.seconds_since_start(timed));
        }
    }
    let n = body_scatter.len() as f64;
    let mean = body_scatter.iter().fold([0.0, 0.0], |m, p| [m[0] + p[0] / n, m[1] + p[1] / n]);
    let series = |axis: usize| -> Vec<TimePoint> {
        body_scatter
            .iter()
            .zip(&body_times)
            .filter(|(_, t)| **t <= BALANCE_PLOT_SECONDS)
            .map(|(p, &t)| TimePoint { t, value: (p[axis] - mean[axis]) * pitch_cm })
            .collect()
    };
    let sway_path_length_cm = body_scatter.windows(2).map(|w| ((w[1][0] - w[0][0]).hypot(w[1][1] - w[0][1])) * pitch_cm).sum::<f64>();
    let duration_s = capture.duration_s();
    Ok(BalanceResult {
        lateral: series(0),
        front_back: series(1),
        mean_velocity_cm_s: if duration_s > 0.0 { sway_path_length_cm / duration_s } else { 0.0 },
        confidence_ellipse_area_cm2: confidence_ellipse_area(&body_scatter, mean) * pitch_cm * pitch_cm,
        sway_path_length_cm,
        duration_s,
        confidence_ellipse: confidence_ellipse(&body_scatter, mean).map(|e| Ellipse {
            semi_major_cm: e.semi_major_cm * pitch_cm,
            semi_minor_cm: e.semi_minor_cm * pitch_cm,
            angle_deg: e.angle_deg,
        }),
        cell_cm: Some(pitch_cm),
        left_scatter,
        body_scatter,
        right_scatter,
    })
}

/// The 95 % confidence ellipse of `points` around `mean` (in the points' units): semi-axes
/// √(χ² · λ) of the sample covariance's eigenvalues, the major axis along the larger one's
/// eigenvector. Its area is [`confidence_ellipse_area`]. `None` for fewer than 3 points.
pub fn confidence_ellipse(points: &[[f64; 2]], mean: [f64; 2]) -> Option<Ellipse> {
    if points.len() < 3 {
        return None;
    }
    let n = points.len() as f64 - 1.0;
    let (mut sxx, mut syy, mut sxy) = (0.0, 0.0, 0.0);
    for p in points {
        let (dx, dy) = (p[0] - mean[0], p[1] - mean[1]);
        sxx += dx * dx;
        syy += dy * dy;
        sxy += dx * dy;
    }
    let (a, d, b) = (sxx / n, syy / n, sxy / n);
    let half_trace = (a + d) / 2.0;
    let spread = (((a - d) / 2.0).powi(2) + b * b).sqrt();
    let (major, minor) = (half_trace + spread, (half_trace - spread).max(0.0));
    let angle = 0.5 * (2.0 * b).atan2(a - d);
    Some(Ellipse {
        semi_major_cm: (CHI_SQUARED_95_2DOF * major).sqrt(),
        semi_minor_cm: (CHI_SQUARED_95_2DOF * minor).sqrt(),
        angle_deg: angle.to_degrees(),
    })
}

/// Area of the 95 % confidence ellipse of `points` (in their own units squared): π · χ² ·
/// √(λ1·λ2), where λ1·λ2 is the determinant of the sample covariance matrix. 0 for fewer than
/// 3 points.
pub fn confidence_ellipse_area(points: &[[f64; 2]], mean: [f64; 2]) -> f64 {
    if points.len() < 3 {
        return 0.0;
    }
    let n = points.len() as f64 - 1.0;
    let (mut sxx, mut syy, mut sxy) = (0.0, 0.0, 0.0);
    for p in points {
        let (dx, dy) = (p[0] - mean[0], p[1] - mean[1]);
        sxx += dx * dx;
        syy += dy * dy;
        sxy += dx * dy;
    }
    let determinant = (sxx / n) * (syy / n) - (sxy / n).powi(2);
    std::f64::consts::PI * CHI_SQUARED_95_2DOF * determinant.max(0.0).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::frame::PressureFrame;
    use mat_protocol::device_type::DeviceType;

    /// Two one-cell feet 10 columns apart on a 12×24 plate, in row `row`; the left foot carries
    /// `left` and the right `right`.
    fn feet(row: usize, left: u16, right: u16) -> PressureFrame {
        let mut cells = vec![0u16; 12 * 24];
        cells[row * 24 + 5] = left;
        cells[row * 24 + 15] = right;
        PressureFrame::new(12, 24, cells).unwrap()
    }

    #[test]
    fn sway_by_hand() {
        // Body x = (5·l + 15·r)/(l + r): equal loads → 10; 3:1 → 7.5; 1:3 → 12.5.
        // Frames at 0, 1, 2, 3 s: x 10, 7.5, 10, 12.5 in row 6 → path 2.5 + 2.5 + 2.5 = 7.5 cells
        // = 15 cm at 2 cm per cell; velocity 15 / 3 = 5 cm/s.
        let mut c = Capture::new(DeviceType::PodologyIoT, 12, 24);
        for (i, (l, r)) in [(100, 100), (150, 50), (100, 100), (50, 150)].into_iter().enumerate() {
            c.push(i as u64 * 1000, feet(6, l, r)).unwrap();
        }
        let b = balance(&c, 2.0).unwrap();
        assert_eq!(b.body_scatter, vec![[10.0, 6.0], [7.5, 6.0], [10.0, 6.0], [12.5, 6.0]]);
        assert_eq!(b.left_scatter, vec![[5.0, 6.0]; 4]);
        assert_eq!(b.right_scatter, vec![[15.0, 6.0]; 4]);
        assert!((b.sway_path_length_cm - 15.0).abs() < 1e-9);
        assert!((b.mean_velocity_cm_s - 5.0).abs() < 1e-9);
        // Mean x 10: lateral −0, −5, 0, +5 cm; no front–back sway.
        let lateral: Vec<f64> = b.lateral.iter().map(|p| p.value).collect();
        assert_eq!(lateral, vec![0.0, -5.0, 0.0, 5.0]);
        assert!(b.front_back.iter().all(|p| p.value == 0.0));
        // All points on a line: the ellipse is flat, area 0.
        assert_eq!(b.confidence_ellipse_area_cm2, 0.0);
    }

    #[test]
    fn series_stop_at_ten_seconds() {
        let mut c = Capture::new(DeviceType::PodologyIoT, 12, 24);
        for s in [0u64, 5, 10, 11] {
            c.push(s * 1000, feet(6, 100, 100)).unwrap();
        }
        let b = balance(&c, 2.0).unwrap();
        assert_eq!(b.lateral.iter().map(|p| p.t).collect::<Vec<_>>(), vec![0.0, 5.0, 10.0]);
        assert_eq!(b.body_scatter.len(), 4);
    }

    #[test]
    fn ellipse_of_a_square_by_hand() {
        // Corners of a 2×2 square around 0: sample variances (4 · 1)/3 = 4/3 on each axis, no
        // covariance; √det = 4/3; area = π · 5.991 · 4/3 = 25.094…
        let points = [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]];
        let area = confidence_ellipse_area(&points, [0.0, 0.0]);
        assert!((area - std::f64::consts::PI * 5.991 * 4.0 / 3.0).abs() < 1e-9, "{area}");
        assert!((area - 25.0942).abs() < 1e-3);
    }

    #[test]
    fn the_drawn_ellipse_has_the_area_printed_and_follows_the_sway() {
        let square = [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]];
        let e = confidence_ellipse(&square, [0.0, 0.0]).unwrap();
        let area = std::f64::consts::PI * e.semi_major_cm * e.semi_minor_cm;
        assert!((area - confidence_ellipse_area(&square, [0.0, 0.0])).abs() < 1e-9);
        assert!((e.semi_major_cm - e.semi_minor_cm).abs() < 1e-9, "a square's ellipse is a circle");
        // Sway along the diagonal x = y: the major axis at 45°.
        let diagonal = [[-2.0, -2.1], [-1.0, -0.9], [0.0, 0.1], [1.0, 0.9], [2.0, 2.0]];
        let e = confidence_ellipse(&diagonal, [0.0, 0.0]).unwrap();
        assert!((e.angle_deg - 45.0).abs() < 2.0, "{e:?}");
        assert!(e.semi_major_cm > 5.0 * e.semi_minor_cm);
        assert_eq!(confidence_ellipse(&square[..2], [0.0, 0.0]), None);
    }

    #[test]
    fn the_result_carries_its_ellipse_in_cm_and_the_cell_size() {
        let mut c = Capture::new(DeviceType::PodologyIoT, 12, 24);
        for (i, (l, r)) in [(100, 100), (150, 50), (100, 100), (50, 150)].into_iter().enumerate() {
            c.push(i as u64 * 1000, feet(6 - i % 2, l, r)).unwrap();
        }
        let b = balance(&c, 2.0).unwrap();
        let e = b.confidence_ellipse.unwrap();
        let area = std::f64::consts::PI * e.semi_major_cm * e.semi_minor_cm;
        assert!((area - b.confidence_ellipse_area_cm2).abs() < 1e-6, "{area} vs {}", b.confidence_ellipse_area_cm2);
        assert_eq!(b.cell_cm, Some(2.0));
    }
}
