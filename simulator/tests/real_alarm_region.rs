//! Which part of the body an Ulcer Risk alarm names, on real in-bed recordings
//! (`../shared/data/pmd-dev/`, subjects S1–S4). Every one of the 17 postures (on the back, on
//! either side, on wedges, knees up, the bed inclined) loads the sacrum or the hips: an alarm for
//! a patient lying still in any of them must name the pelvis. Each recording is fed, a frame a
//! second as the device would send it (`simulator::real::device_cells`), to the hub's
//! repositioning clock; its reason is then named as the mat machine names it
//! (`BodyBand::most_at_risk` with the body's span along the mat: every bed mat covers the whole
//! 192 cm bed, the legacy 16 × 16 mattress in 12 cm cells).
//!
//! `cargo test -p simulator --test real_alarm_region -- --nocapture` prints the table in
//! docs/decisions.md ("Which region is named").

use std::time::{Duration, Instant};

use mat_core::machine::body_regions::BodyBand;
use mat_core::machine::pressure_map::PressureMap;
use mat_core::machine::pressure_ulcer::{UlcerConfig, UlcerRiskMachine};
use mat_protocol::CellFormat;
use mat_protocol::device_type::DeviceType;
use simulator::real::{self, DEV_SUBJECTS, POSTURES};

/// At least this share of recordings name the pelvis on `device`, and more than its mat's bands
/// alone would. Measured: 62 and 66 of 68 on the 4 cm grids (48 × 48, 24 × 48), 61 on the legacy
/// 16 × 16's 12 cm grid (a band of it is 2⅔ lines); 46, 56 and 50 by the mat's bands alone.
fn floor(device: DeviceType) -> f64 {
    if device.cell_pitch_cm().is_some_and(|pitch| pitch > 4.0) { 0.85 } else { 0.9 }
}

/// The part named for `recording` on `device` as the mat machine names it (by the body's span on a
/// mat as long as a bed), and by the mat's bands alone.
fn named(recording: &real::Recording, device: DeviceType) -> (Option<BodyBand>, Option<BodyBand>) {
    let (rows, cols, _) = device.frame_shape().expect("a map device");
    let mut clock = UlcerRiskMachine::new(UlcerConfig::default());
    let t0 = Instant::now();
    let mut now = t0;
    for frame in &recording.frames {
        let cells = real::device_cells(frame, device).expect("a map device");
        clock.handle_map(now, &PressureMap::new(rows, cols, CellFormat::U8, &cells).expect("shape"), None);
        now += Duration::from_secs(1);
    }
    let reason = clock.reason(now).expect("a body lies on the mat");
    assert!(reason.body.is_some(), "S{} posture {}: the clock keeps where the body lies", recording.subject, recording.posture);
    let body = reason.body.filter(|_| device.covers_a_whole_bed());
    (BodyBand::most_at_risk(reason.regions, body, false), BodyBand::most_at_risk(reason.regions, None, false))
}

#[test]
fn an_alarm_for_a_patient_lying_still_names_the_pelvis_on_real_recordings() {
    let dir = real::dev_set_dir();
    let mut short = Vec::new();
    for device in [DeviceType::MattressMatIoT, DeviceType::SleepMat, DeviceType::MattressMat] {
        let (rows, cols, _) = device.frame_shape().expect("shape");
        let (mut by_body, mut by_mat, mut total) = (0usize, 0usize, 0usize);
        let mut misses = Vec::new();
        for subject in DEV_SUBJECTS {
            for posture in POSTURES {
                let recording = real::load(&dir, subject, posture).expect("recording");
                let (body, mat) = named(&recording, device);
                total += 1;
                by_body += usize::from(body == Some(BodyBand::Pelvis));
                by_mat += usize::from(mat == Some(BodyBand::Pelvis));
                if body != Some(BodyBand::Pelvis) {
                    misses.push(format!("S{subject}/{posture} ({}): {body:?}", real::description(posture)));
                }
            }
        }
        let share = by_body as f64 / total as f64;
        println!(
            "{} ({rows}×{cols}): the pelvis named for {by_body}/{total} by the body's span, {by_mat}/{total} by the mat's bands alone; misses: {}",
            device.name(),
            misses.join("; ")
        );
        assert!(device.covers_a_whole_bed(), "{device:?}: a bed mat covers the bed");
        if share < floor(device) || by_body <= by_mat {
            short.push(format!("{}: {by_body}/{total} (the mat's bands: {by_mat}) < {}", device.name(), floor(device)));
        }
    }
    assert!(short.is_empty(), "an alarm names the pelvis too rarely: {short:?}");
}
