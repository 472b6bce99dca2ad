//! Each threshold of spec §5, at and across its limit.

use super::*;
use mat_protocol::CellFormat;
use mat_protocol::device_type::DeviceType;

/// A 48×48 map whose active cells form one filled rectangle of `count` cells (row-major from the
/// top-left), with values alternating `low` and `high`.
fn rectangle(count: usize, low: u8, high: u8) -> Vec<u8> {
    let mut cells = vec![0u8; 48 * 48];
    for (k, cell) in cells.iter_mut().take(count).enumerate() {
        *cell = if k % 2 == 0 { low } else { high };
    }
    cells
}

fn stats(cells: &[u8]) -> PresenceStats {
    let map = PressureMap::new(48, 48, CellFormat::U8, cells).unwrap();
    PresenceDetector::new().stats(&map)
}

#[test]
fn a_body_like_map_is_presence() {
    // 60 cells of 10 and 110: mean 60, median 60, std dev 50, one blob of 60.
    let s = stats(&rectangle(60, 10, 110));
    assert_eq!(s.active_points, 60);
    assert!((s.mean - 60.0).abs() < 1e-9);
    assert!((s.median - 60.0).abs() < 1e-9);
    assert!((s.std_dev - 50.0).abs() < 1e-9);
    assert_eq!(s.largest_blob, 60);
    assert_eq!(s.verdict(), Presence::Present);
}

#[test]
fn an_empty_map_is_absence() {
    assert_eq!(stats(&vec![0; 48 * 48]).verdict(), Presence::Absent);
    // Noise below the active floor does not count.
    assert_eq!(stats(&vec![4; 48 * 48]).active_points, 0);
}

#[test]
fn active_points_threshold_is_fifty() {
    assert_eq!(stats(&rectangle(50, 10, 110)).verdict(), Presence::Present);
    assert_eq!(stats(&rectangle(49, 10, 110)).active_points, 49);
    // 49 cells: the mean of 25×10 + 24×110 is 58.98, median 10 — force the other figures high
    // so only the count fails.
    let s = PresenceStats { active_points: 49, mean: 100.0, median: 100.0, std_dev: 50.0, largest_blob: 49, load_kgf: None };
    assert_eq!(s.verdict(), Presence::Absent);
    assert_eq!(PresenceStats { active_points: 50, ..s }.verdict(), Presence::Present);
}

fn passing() -> PresenceStats {
    PresenceStats { active_points: 50, mean: 50.0, median: 50.0, std_dev: 40.0, largest_blob: 40, load_kgf: None }
}

#[test]
fn every_threshold_is_inclusive_and_each_one_alone_can_fail() {
    assert_eq!(passing().verdict(), Presence::Present);
    assert_eq!(PresenceStats { mean: 49.99, ..passing() }.verdict(), Presence::Absent);
    assert_eq!(PresenceStats { median: 49.5, ..passing() }.verdict(), Presence::Absent);
    assert_eq!(PresenceStats { std_dev: 39.99, ..passing() }.verdict(), Presence::Absent);
    assert_eq!(PresenceStats { largest_blob: 39, ..passing() }.verdict(), Presence::Absent);
    assert_eq!(PresenceStats { active_points: 49, ..passing() }.verdict(), Presence::Absent);
    assert_eq!(PresenceStats { load_kgf: Some(MIN_LOAD_KGF), ..passing() }.verdict(), Presence::Present);
    assert_eq!(PresenceStats { load_kgf: Some(MIN_LOAD_KGF - 0.01), ..passing() }.verdict(), Presence::Absent);
}

/// A bed mat's detector (0.4 mmHg steps, 16 cm² cells on a 192 cm mattress).
fn bed_stats(cells: &[u8]) -> PresenceStats {
    let map = PressureMap::new(48, 48, CellFormat::U8, cells).unwrap();
    PresenceDetector::with_scale(PresenceScale::for_device(DeviceType::MattressMatIoT)).stats(&map)
}

#[test]
fn device_scales_follow_the_protocol() {
    let unit = PresenceScale::unit();
    assert_eq!((unit.units_per_cell(), unit.active_floor()), (1.0, 5));
    // Floor mats and the Wellness Mat read 1 mmHg steps (as seats do), no load rule.
    for t in [DeviceType::FloorMat, DeviceType::FloorMatRecognition, DeviceType::WellnessMat] {
        let floor = PresenceScale::for_device(t);
        assert!((floor.units_per_cell() - 33.997).abs() < 1e-3, "{t:?}");
        assert_eq!(floor.active_floor(), 2, "{t:?}");
    }
    // A seat's 1 mmHg step (34.0 units): the two-step floor decides; a plate's 1 kPa (255 units):
    // a foot's 5 kPa.
    let seat = PresenceScale::for_device(DeviceType::SeatingMatIoT);
    assert!((seat.units_per_cell() - 33.997).abs() < 1e-3);
    assert_eq!(seat.active_floor(), 2);
    let plate = PresenceScale::for_device(DeviceType::PodologyIoT);
    assert!((plate.units_per_cell() - 255.0).abs() < 1e-9);
    assert_eq!(plate.active_floor(), 5);
    for t in [DeviceType::MattressMatIoT, DeviceType::SleepMat, DeviceType::MattressMat] {
        let bed = PresenceScale::for_device(t);
        assert!((bed.units_per_cell() - 13.599).abs() < 1e-3, "{t:?}");
        // 5 units is less than one 0.4 mmHg step: the two-step floor (0.8 mmHg) decides.
        assert_eq!(bed.active_floor(), 2, "{t:?}");
    }
}

#[test]
fn on_a_bed_mat_one_step_is_noise_and_two_steps_are_active() {
    assert_eq!(bed_stats(&rectangle(300, 1, 1)).active_points, 0);
    assert_eq!(bed_stats(&rectangle(300, 2, 2)).active_points, 300);
}

#[test]
fn bed_cells_are_read_in_hub_units() {
    // Steps of 2 and 8 (0.8 and 3.2 mmHg): mean 5 steps = 68.0 units, std dev 3 steps = 40.8.
    let s = bed_stats(&rectangle(1000, 2, 8));
    let k = PresenceScale::for_device(DeviceType::MattressMatIoT).units_per_cell();
    assert!((s.mean - 5.0 * k).abs() < 1e-9 && (s.median - 5.0 * k).abs() < 1e-9);
    assert!((s.std_dev - 3.0 * k).abs() < 1e-9);
    assert_eq!(s.verdict(), Presence::Present);
    // The same cells one step lower: mean 4 steps = 54.4, std dev 40.8, but 1s are not active.
    let s = bed_stats(&rectangle(1000, 1, 7));
    assert_eq!(s.active_points, 500);
    // Steps of 1 and 4 (0.4 and 1.6 mmHg): mean 2.5 steps ≈ 34 units, below 50.
    let s = bed_stats(&rectangle(1000, 2, 3));
    assert!(s.mean < MIN_MEAN);
    assert_eq!(s.verdict(), Presence::Absent);
}

#[test]
fn a_whole_bed_mat_needs_ten_kilograms_on_it() {
    // One step on a 16 cm² cell: 0.4 mmHg × 16 cm² = 8.70 gf. 1000 cells of mean 5 steps carry
    // 43.5 kgf; 250 cells of the same carry 10.9 kgf, 220 cells 9.6 kgf.
    let per_step = 0.4 * 133.322_387_415 * 16e-4 / 9.806_65;
    let s = bed_stats(&rectangle(1000, 2, 8));
    assert!((s.load_kgf.unwrap() - 5000.0 * per_step).abs() < 1e-6);
    assert_eq!(bed_stats(&rectangle(250, 2, 8)).verdict(), Presence::Present);
    let light = bed_stats(&rectangle(220, 2, 8));
    assert!(light.load_kgf.unwrap() < MIN_LOAD_KGF && light.mean >= MIN_MEAN && light.std_dev >= MIN_STD_DEV);
    assert_eq!(light.verdict(), Presence::Absent);
    // The legacy 16×16 mattress covers the same bed in 12 cm cells: one step on a 144 cm² cell
    // weighs nine times as much, and the rule applies. Other types have no load rule.
    let legacy = PressureMap::new(16, 16, CellFormat::U8, &[8u8; 256]).unwrap();
    let mut detector = PresenceDetector::with_scale(PresenceScale::for_device(DeviceType::MattressMat));
    let legacy_load = detector.stats(&legacy).load_kgf.expect("a whole bed's load rule");
    assert!((legacy_load - 256.0 * 8.0 * 9.0 * per_step).abs() < 1e-6, "{legacy_load}");
    assert_eq!(stats(&rectangle(60, 10, 110)).load_kgf, None);
}

#[test]
fn a_flat_map_fails_on_standard_deviation() {
    // 100 cells all at 80: mean and median 80, but no spread.
    let s = stats(&rectangle(100, 80, 80));
    assert_eq!(s.std_dev, 0.0);
    assert_eq!(s.verdict(), Presence::Absent);
}

#[test]
fn scattered_cells_fail_on_the_blob_rule() {
    // 200 active cells on a checkerboard: no two are 4-connected.
    let mut cells = vec![0u8; 48 * 48];
    let mut placed = 0;
    for r in 0..48 {
        for c in 0..48 {
            if (r + c) % 2 == 0 && placed < 200 {
                cells[r * 48 + c] = if placed % 2 == 0 { 20 } else { 150 };
                placed += 1;
            }
        }
    }
    let s = stats(&cells);
    assert_eq!(s.largest_blob, 1);
    assert!(s.mean >= 50.0 && s.std_dev >= 40.0);
    assert_eq!(s.verdict(), Presence::Absent);
}

#[test]
fn blobs_are_four_connected_not_eight() {
    // Two 5×5 squares touching only at a corner: 25 each, not 50.
    let mut cells = vec![0u8; 48 * 48];
    for r in 0..5 {
        for c in 0..5 {
            cells[r * 48 + c] = 100;
            cells[(r + 5) * 48 + c + 5] = 100;
        }
    }
    assert_eq!(stats(&cells).largest_blob, 25);
}

#[test]
fn median_of_an_even_count_is_the_mean_of_the_middle_two() {
    let s = stats(&rectangle(60, 40, 60));
    assert!((s.median - 50.0).abs() < 1e-9);
}

#[test]
fn u16_maps_use_the_same_rule() {
    let mut bytes = Vec::new();
    for k in 0..(48 * 48) {
        let v: u16 = if k < 60 { if k % 2 == 0 { 10 } else { 1000 } } else { 0 };
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    let map = PressureMap::new(48, 48, CellFormat::U16Le, &bytes).unwrap();
    let s = PresenceDetector::new().stats(&map);
    assert!((s.median - 505.0).abs() < 1e-9);
    assert_eq!(s.verdict(), Presence::Present);
}

#[test]
fn room_readings_need_more_than_two_hundred() {
    assert_eq!(reading_presence(200), Presence::Absent);
    assert_eq!(reading_presence(201), Presence::Present);
    assert_eq!(reading_presence(0), Presence::Absent);
}

proptest::proptest! {
    /// The quick check (blob search skipped or stopped early) always agrees with the full figures.
    #[test]
    fn the_quick_check_agrees_with_the_full_figures(
        cells in proptest::collection::vec(proptest::prop_oneof![3 => proptest::strategy::Just(0u8), 1 => 0u8..=255], 48 * 48),
        blob in 0usize..400,
        level in 0u8..=255,
    ) {
        let mut cells = cells;
        for cell in cells.iter_mut().take(blob) {
            *cell = level;
        }
        let map = PressureMap::new(48, 48, CellFormat::U8, &cells).unwrap();
        let mut detector = PresenceDetector::new();
        proptest::prop_assert_eq!(detector.check(&map), detector.stats(&map).verdict());
    }

    /// The search for the next active cell finds what a cell-by-cell scan finds.
    #[test]
    fn the_next_active_cell_is_the_first_one_at_or_after_the_start(
        active in proptest::collection::vec(proptest::bool::weighted(0.03), 0..300),
        from in 0usize..320,
    ) {
        let one_by_one = active.iter().enumerate().skip(from).find(|&(_, &on)| on).map(|(i, _)| i);
        proptest::prop_assert_eq!(next_active(&active, from), one_by_one);
    }

    /// The 8-bit sums from a histogram equal the sums of the active cells one by one, with
    /// stretches of empty mattress (whole blocks the histogram skips) among the cells.
    #[test]
    fn the_sums_of_bytes_are_those_of_each_active_cell(
        cells in proptest::collection::vec(proptest::prop_oneof![3 => proptest::strategy::Just(0u8), 1 => 0u8..=255], 0..2400),
        empty in proptest::collection::vec(proptest::bool::weighted(0.6), 80),
        floor in 0u8..=255,
    ) {
        let mut cells = cells;
        for (block, &empty) in cells.chunks_mut(SKIP_BLOCK).zip(&empty) {
            if empty {
                block.fill(0);
            }
        }
        let mut one_by_one = Sums::default();
        for &v in cells.iter().filter(|&&v| v >= floor) {
            one_by_one.add(u16::from(v));
        }
        let sums = Sums::of_bytes(&cells, floor);
        proptest::prop_assert_eq!(
            (sums.count, sums.sum, sums.sum_sq, sums.wide),
            (one_by_one.count, one_by_one.sum, one_by_one.sum_sq, one_by_one.wide)
        );
        proptest::prop_assert_eq!(sums.histogram, one_by_one.histogram);
    }
}

#[test]
fn the_quick_check_still_needs_a_blob_of_40() {
    // A checkerboard: many active cells, good figures, but no two of them touch.
    let mut cells = vec![0u8; 48 * 48];
    for (k, cell) in cells.iter_mut().enumerate() {
        if (k / 48 + k % 48) % 2 == 0 {
            *cell = if k % 4 == 0 { 10 } else { 150 };
        }
    }
    let map = PressureMap::new(48, 48, CellFormat::U8, &cells).unwrap();
    let mut detector = PresenceDetector::new();
    let figures = detector.stats(&map);
    assert_eq!(figures.largest_blob, 1);
    assert_eq!(PresenceStats { largest_blob: MIN_BLOB, ..figures }.verdict(), Presence::Present, "only the blob fails");
    assert_eq!(detector.check(&map), Presence::Absent);
}

/// One definition of an active cell: for every type whose cells are pressures, presence, the
/// analyses (contact area and the frame statistics every analysis is built from) and the served
/// type table count the same cells of the same map.
#[test]
fn presence_the_analyses_and_the_served_table_agree_on_what_is_active() {
    use crate::analysis::frame::{Capture, PressureFrame};
    use crate::analysis::units::{active_floor, contact_cells};
    for t in DeviceType::ALL {
        let (Some(served), Some((rows, cols, _))) = (t.info().active_floor_steps, t.frame_shape()) else { continue };
        let presence = PresenceScale::for_device(t);
        assert_eq!(presence.active_floor(), served, "{t:?}: presence and the served table");
        assert_eq!(active_floor(t), served, "{t:?}: the analyses and the served table");
        // A map whose cells run 0, 1, 2, … 9 steps: the same cells are active everywhere.
        let n = usize::from(rows) * usize::from(cols);
        let cells: Vec<u8> = (0..n).map(|i| (i % 10) as u8).collect();
        let expected = cells.iter().filter(|&&v| u16::from(v) >= served).count();
        let map = PressureMap::new(rows, cols, CellFormat::U8, &cells).unwrap();
        let seen_by_presence = PresenceDetector::with_scale(presence).stats(&map).active_points;
        let wide: Vec<u16> = cells.iter().map(|&v| u16::from(v)).collect();
        let seen_by_contact = contact_cells(t, &wide) as usize;
        let mut capture = Capture::new(t, rows, cols);
        capture.push(0, PressureFrame::new(rows, cols, wide.clone()).unwrap()).unwrap();
        let frame = &capture.frames()[0].frame;
        let seen_by_frame = frame.region_stats(&frame.full_region()).active_cells as usize;
        let mean = capture.mean_map();
        let seen_by_mean_map = mean.region_stats(&mean.full_region()).active_cells as usize;
        assert_eq!(
            (seen_by_presence, seen_by_contact, seen_by_frame, seen_by_mean_map),
            (expected, expected, expected, expected),
            "{t:?}: floor {served}"
        );
    }
}
