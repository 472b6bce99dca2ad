//! Properties of the analyses over random two-foot maps: a mirror image swaps the feet and
//! mirrors every centre of pressure; scaling every pressure leaves the distributions alone.
#![allow(clippy::unwrap_used)]

use mat_core::analysis::balance::balance;
use mat_core::analysis::dynamic_podology::dynamic_podology;
use mat_core::analysis::seating::seating;
use mat_core::analysis::static_podology::{StaticResult, static_podology};
use mat_core::analysis::{Capture, PressureFrame};
use mat_protocol::device_type::DeviceType;
use proptest::prelude::*;

const ROWS: usize = 20;
const COLS: usize = 24;

/// A 20×24 map whose active cells lie in columns 1..=7 (left foot) and 16..=22 (right foot), so
/// at least 8 empty columns separate the feet; each foot has at least one active cell.
fn two_feet() -> impl Strategy<Value = PressureFrame> {
    let cell = prop_oneof![Just(0u16), 5u16..=250];
    (prop::collection::vec(cell.clone(), ROWS * 7), prop::collection::vec(cell, ROWS * 7), 1u16..=250, 1u16..=250).prop_map(
        |(left, right, l_anchor, r_anchor)| {
            let mut cells = vec![0u16; ROWS * COLS];
            for r in 0..ROWS {
                for i in 0..7 {
                    cells[r * COLS + 1 + i] = left[r * 7 + i];
                    cells[r * COLS + 16 + i] = right[r * 7 + i];
                }
            }
            // Anchor cells keep both feet present.
            cells[10 * COLS + 4] = cells[10 * COLS + 4].max(l_anchor.max(5));
            cells[10 * COLS + 19] = cells[10 * COLS + 19].max(r_anchor.max(5));
            PressureFrame::new(ROWS as u16, COLS as u16, cells).unwrap()
        },
    )
}

fn mirror_x(p: Option<[f64; 2]>) -> Option<[f64; 2]> {
    p.map(|[x, y]| [(COLS - 1) as f64 - x, y])
}

fn close(a: Option<[f64; 2]>, b: Option<[f64; 2]>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => (a[0] - b[0]).abs() < 1e-9 && (a[1] - b[1]).abs() < 1e-9,
        (None, None) => true,
        _ => false,
    }
}

fn scaled(frame: &PressureFrame, k: u16) -> PressureFrame {
    PressureFrame::new(frame.rows(), frame.cols(), frame.cells().iter().map(|&v| v * k).collect()).unwrap()
}

fn distributions(r: &StaticResult) -> [f64; 8] {
    [
        r.left_front_pressure_distribution,
        r.left_back_pressure_distribution,
        r.left_global_pressure_distribution,
        r.right_front_pressure_distribution,
        r.right_back_pressure_distribution,
        r.right_global_pressure_distribution,
        r.left_percentage,
        r.right_percentage,
    ]
}

proptest! {
    #[test]
    fn mirroring_swaps_the_feet_and_mirrors_the_centres(map in two_feet()) {
        let r = static_podology(&map, 4.0);
        let m = static_podology(&map.mirrored(), 4.0);
        prop_assert!(r.feet_separated && m.feet_separated);
        prop_assert!(close(m.left_center_of_pressure, mirror_x(r.right_center_of_pressure)));
        prop_assert!(close(m.right_center_of_pressure, mirror_x(r.left_center_of_pressure)));
        prop_assert!(close(m.global_center_of_pressure, mirror_x(r.global_center_of_pressure)));
        prop_assert!((m.left_front_pressure_distribution - r.right_front_pressure_distribution).abs() < 1e-9);
        prop_assert!((m.left_back_pressure_distribution - r.right_back_pressure_distribution).abs() < 1e-9);
        prop_assert!((m.right_global_pressure_distribution - r.left_global_pressure_distribution).abs() < 1e-9);
        prop_assert_eq!((m.left_percentage, m.right_percentage), (r.right_percentage, r.left_percentage));
        prop_assert_eq!(m.left_global_surface, r.right_global_surface);
        prop_assert_eq!(m.left_front_surface, r.right_front_surface);
        prop_assert_eq!(m.active_points_total, r.active_points_total);
        prop_assert_eq!(m.max_pressure, r.max_pressure);
    }

    #[test]
    fn scaling_pressures_leaves_distributions_unchanged(map in two_feet(), k in 2u16..=4) {
        let r = static_podology(&map, 4.0);
        let s = static_podology(&scaled(&map, k), 4.0);
        for (a, b) in distributions(&r).iter().zip(distributions(&s)) {
            prop_assert!((a - b).abs() < 1e-9, "{a} vs {b}");
        }
        prop_assert!(close(r.left_center_of_pressure, s.left_center_of_pressure));
        prop_assert!(close(r.right_center_of_pressure, s.right_center_of_pressure));
        prop_assert_eq!(r.left_global_surface, s.left_global_surface);
        prop_assert_eq!(&r.histogram.counts, &s.histogram.counts);
        prop_assert_eq!(s.max_pressure, r.max_pressure * k);
    }

    #[test]
    fn mirrored_walks_swap_the_feet(frames in prop::collection::vec(two_feet(), 2..6)) {
        let mut capture = Capture::new(DeviceType::PodologyIoT, ROWS as u16, COLS as u16);
        for (i, f) in frames.into_iter().enumerate() {
            capture.push(i as u64 * 100, f).unwrap();
        }
        let r = dynamic_podology(&capture).unwrap();
        let m = dynamic_podology(&capture.mirrored()).unwrap();
        prop_assert_eq!(&m.left, &r.right);
        prop_assert_eq!(&m.right, &r.left);
        // Series 0–3 and 5 of one foot equal those of the other; CoP x (4 and 10) is mirrored.
        for (mine, theirs) in [(0, 6), (1, 7), (2, 8), (3, 9), (5, 11)] {
            prop_assert_eq!(&m.additional_parameters[mine].value, &r.additional_parameters[theirs].value);
        }
        let b = balance(&capture, 2.0).unwrap();
        let bm = balance(&capture.mirrored(), 2.0).unwrap();
        prop_assert_eq!(bm.left_scatter.len(), b.right_scatter.len());
        for (p, q) in bm.left_scatter.iter().zip(&b.right_scatter) {
            prop_assert!(close(Some(*p), mirror_x(Some(*q))));
        }
        prop_assert!((bm.sway_path_length_cm - b.sway_path_length_cm).abs() < 1e-9);
        prop_assert!((bm.confidence_ellipse_area_cm2 - b.confidence_ellipse_area_cm2).abs() < 1e-6);
    }

    #[test]
    fn seating_indices_ignore_the_scale(map in two_feet(), k in 2u16..=4) {
        let seat = |m: PressureFrame| {
            let mut c = Capture::new(DeviceType::SeatingMatIoTXL, ROWS as u16, COLS as u16);
            c.push(0, m).unwrap();
            seating(&c).unwrap()
        };
        let r = seat(map.clone());
        let s = seat(scaled(&map, k));
        prop_assert!((r.dispersion_index.unwrap() - s.dispersion_index.unwrap()).abs() < 1e-9);
        prop_assert_eq!(&r.additional_parameters[1], &s.additional_parameters[1]);
        prop_assert!((s.peak_pressure_index - r.peak_pressure_index * f64::from(k)).abs() < 1e-9);
    }
}
