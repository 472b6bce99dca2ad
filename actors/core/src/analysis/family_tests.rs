//! Issue 21: a capture is analysed as its device's analysis family reads it.

use super::*;
use crate::machine::capture::CaptureKind;

/// A capture of `frames` copies of `cells` on `device`, 100 ms apart.
fn capture(device: DeviceType, rows: u16, cols: u16, frames: usize, cells: impl Fn(usize) -> Vec<u16>) -> Capture {
    let mut c = Capture::new(device, rows, cols);
    for i in 0..frames {
        c.push(i as u64 * 100, PressureFrame::new(rows, cols, cells(i)).unwrap()).unwrap();
    }
    c
}

/// A sitter on a 16×16 seat: ischial blobs in the back half, thighs in front.
fn seated(_: usize) -> Vec<u16> {
    let mut cells = vec![0u16; 256];
    for r in 9..13 {
        for c in (3..6).chain(10..13) {
            cells[r * 16 + c] = 70;
        }
    }
    for r in 1..9 {
        for c in [4, 11] {
            cells[r * 16 + c] = 25;
        }
    }
    cells
}

/// A lying body along a 48×48 mattress's columns.
fn lying(_: usize) -> Vec<u16> {
    let mut cells = vec![0u16; 48 * 48];
    for c in 3..45 {
        for r in 20..28 {
            cells[r * 48 + c] = 12;
        }
    }
    cells
}

#[test]
fn a_dynamic_capture_follows_the_device_family() {
    let of = AnalysisKind::of_capture;
    assert_eq!(of(DeviceType::PodologyIoT, CaptureKind::Dynamic), AnalysisKind::Dynamic);
    assert_eq!(of(DeviceType::PressureMatIoT, CaptureKind::Dynamic), AnalysisKind::Dynamic);
    assert_eq!(of(DeviceType::SeatingMatIoT, CaptureKind::Dynamic), AnalysisKind::SeatingDynamic);
    assert_eq!(of(DeviceType::SeatingMatIoTXL, CaptureKind::Dynamic), AnalysisKind::SeatingDynamic);
    assert_eq!(of(DeviceType::SensingHorse, CaptureKind::Dynamic), AnalysisKind::SeatingDynamic);
    assert_eq!(of(DeviceType::MattressMatIoT, CaptureKind::Dynamic), AnalysisKind::SeatingDynamic);
    assert_eq!(of(DeviceType::RehabMat, CaptureKind::Dynamic), AnalysisKind::Rehab);
    assert_eq!(of(DeviceType::RehabMat, CaptureKind::Balance), AnalysisKind::Balance);
    assert_eq!(of(DeviceType::SeatingMatIoT, CaptureKind::Fitting), AnalysisKind::Fitting);
    for device in DeviceType::ALL {
        assert_eq!(of(device, CaptureKind::Static), AnalysisKind::Static);
    }
}

#[test]
fn a_seat_static_result_is_seating_with_no_feet() {
    let c = capture(DeviceType::SeatingMatIoT, 16, 16, 1, seated);
    let result = analyse(AnalysisKind::Static, &c, &AnalysisParams::default()).unwrap();
    assert_eq!(result.kind(), AnalysisKind::Static);
    let AnalysisResult::SeatingStatic(seat) = &result else { panic!("a seat read as {result:?}") };
    assert_eq!(seat.left_load_percent, 50.0);
    assert!(seat.back_load_percent > seat.front_load_percent);
    assert!(seat.left_ischial.is_some() && seat.right_ischial.is_some());
    // 24 + 16 active cells × 4 cm².
    assert_eq!(seat.contact_area_cm2, 160.0);
    let json = serde_json::to_string(&result).unwrap();
    assert!(json.starts_with(r#"{"analysisType":"seatingStatic""#), "{json}");
    assert!(!json.contains("Foot") && !json.contains("foot"));
}

#[test]
fn a_bed_static_result_is_body_regions_with_the_mattress_extras_and_no_feet() {
    let c = capture(DeviceType::MattressMatIoT, 48, 48, 1, lying);
    let params = AnalysisParams { weight_kg: Some(80.0), height_cm: Some(180.0) };
    let result = analyse(AnalysisKind::Static, &c, &params).unwrap();
    let AnalysisResult::BedStatic(bed) = &result else { panic!("a bed read as {result:?}") };
    assert_eq!(bed.regions.len(), 6);
    assert_eq!(bed.mattress.bmi, Some(24.7));
    assert_eq!(bed.mattress.profile.len(), 48);
    assert_eq!(bed.mattress.contact_area_cm2, 42.0 * 8.0 * 16.0);
    assert!(!serde_json::to_string(&result).unwrap().contains("oot"));
}

#[test]
fn a_plate_static_result_is_feet_and_the_horse_reads_as_a_seat() {
    let mut feet = vec![0u16; 48 * 48];
    for r in 10..30 {
        for c in (10..16).chain(30..36) {
            feet[r * 48 + c] = 50;
        }
    }
    let plate = capture(DeviceType::PodologyIoT, 48, 48, 1, |_| feet.clone());
    let AnalysisResult::Static(s) = analyse(AnalysisKind::Static, &plate, &AnalysisParams::default()).unwrap() else { panic!() };
    assert!(s.feet_separated && s.mattress.is_none());
    let saddle = capture(DeviceType::SensingHorse, 16, 16, 1, seated);
    assert!(matches!(analyse(AnalysisKind::Static, &saddle, &AnalysisParams::default()).unwrap(), AnalysisResult::SeatingStatic(_)));
}

#[test]
fn a_seat_dynamic_capture_gives_the_seating_panels_and_a_rehab_mat_the_body_centre() {
    let seat = capture(DeviceType::SeatingMatIoT, 16, 16, 20, seated);
    let kind = AnalysisKind::of_capture(DeviceType::SeatingMatIoT, CaptureKind::Dynamic);
    let AnalysisResult::SeatingDynamic(s) = analyse(kind, &seat, &AnalysisParams::default()).unwrap() else { panic!() };
    assert_eq!(s.panels.len(), 6, "six panels without push-ups");
    let mut standing = vec![0u16; 48 * 48];
    for r in 20..28 {
        for c in 20..28 {
            standing[r * 48 + c] = 40;
        }
    }
    let rehab = capture(DeviceType::RehabMat, 48, 48, 20, |_| standing.clone());
    let kind = AnalysisKind::of_capture(DeviceType::RehabMat, CaptureKind::Dynamic);
    let AnalysisResult::Rehab(r) = analyse(kind, &rehab, &AnalysisParams::default()).unwrap() else { panic!() };
    assert_eq!(r.rings.iter().map(|g| g.radius).collect::<Vec<_>>(), [11.0, 18.0, 25.0]);
}

/// Two standing feet on a 24×24 podology plate: heels and forefeet of a few cells each.
fn standing(_: usize) -> Vec<u16> {
    let mut cells = vec![0u16; 24 * 24];
    for (r0, c0) in [(4, 5), (15, 5), (4, 15), (15, 15)] {
        for r in r0..r0 + 5 {
            for c in c0..c0 + 4 {
                cells[r * 24 + c] = 150;
            }
        }
    }
    cells
}

#[test]
fn a_weighed_patient_on_a_plate_or_a_seat_calibrates_the_static_pressures() {
    let weighed = AnalysisParams { weight_kg: Some(70.0), height_cm: Some(170.0) };
    // The plate: 80 cells of 150 steps, 4 cm² each, carry 70 % of 70 kg (480.5 N): each cell
    // 480.5 N / 80 / 4 cm² = 1.50 N/cm² = 15.0 kPa = 112.6 mmHg.
    let plate = capture(DeviceType::PodologyIoT, 24, 24, 1, standing);
    let AnalysisResult::Static(feet) = analyse(AnalysisKind::Static, &plate, &weighed).unwrap() else { panic!("feet expected") };
    let c = feet.pressure_calibration.expect("a weighed patient's calibration");
    assert!((c.kpa_per_step * f64::from(feet.max_pressure) - 15.015).abs() < 0.01, "{c:?}");
    assert!((c.mmhg_per_step() * f64::from(feet.max_pressure) - 112.6).abs() < 0.1);
    // Without a weight, the documented scale: no calibration stored.
    let AnalysisResult::Static(unweighed) = analyse(AnalysisKind::Static, &plate, &AnalysisParams::default()).unwrap() else { panic!() };
    assert_eq!(unweighed.pressure_calibration, None);

    // The seat: its mmHg figures are the calibrated ones.
    let seat = capture(DeviceType::SeatingMatIoT, 16, 16, 1, seated);
    let AnalysisResult::SeatingStatic(s) = analyse(AnalysisKind::Static, &seat, &weighed).unwrap() else { panic!("seat expected") };
    let c = s.pressure_calibration.expect("a weighed patient's calibration");
    assert_eq!(s.max_pressure_mmhg, units::round_to(70.0 * c.mmhg_per_step(), 1));
    assert!(s.max_pressure_mmhg > 50.0, "a sitter's ischial peak is tens of mmHg, not {}", s.max_pressure_mmhg);
    let AnalysisResult::SeatingStatic(plain) = analyse(AnalysisKind::Static, &seat, &AnalysisParams::default()).unwrap() else { panic!() };
    assert_eq!(plain.max_pressure_mmhg, units::round_to(70.0 * units::cell_mmhg(DeviceType::SeatingMatIoT, 1), 1));

    // A bed keeps the documented scale whatever the weight (a share of the body that varies).
    let bed = capture(DeviceType::MattressMatIoT, 48, 48, 1, lying);
    let AnalysisResult::BedStatic(b) = analyse(AnalysisKind::Static, &bed, &weighed).unwrap() else { panic!("bed expected") };
    assert_eq!(b.max_pressure_mmhg, 4.8);
}
