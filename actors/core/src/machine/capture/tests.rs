//! Scenario tests of the capture machine with a simulated clock.

use super::*;
use mat_protocol::CellFormat;

const BODY: [u8; 4] = [100, 120, 90, 80];

fn map(cells: &[u8]) -> PressureMap<'_> {
    PressureMap::new(2, 2, CellFormat::U8, cells).expect("2×2 map")
}

fn user() -> CaptureOrigin {
    CaptureOrigin::User("u1".into())
}

fn req(kind: CaptureKind, seconds: u32) -> CaptureRequest {
    CaptureRequest { kind, seconds, origin: user() }
}

/// A machine ready to capture: functional, patient selected, somebody on the mat at `t0`.
fn ready(t0: Instant) -> CaptureMachine {
    let mut m = CaptureMachine::new();
    m.set_functional(true);
    m.set_patient(Some("p1".into()));
    m.handle_frame(t0, &map(&BODY), Presence::Present);
    m
}

fn drain(m: &mut CaptureMachine) -> Vec<CaptureOutput> {
    std::iter::from_fn(|| m.poll_output()).collect()
}

/// Feeds a frame every `every` from `from` until `to` and runs due timeouts in between, as the
/// actor would; returns every output.
fn run(m: &mut CaptureMachine, from: Instant, to: Instant, every: Duration) -> Vec<CaptureOutput> {
    let mut out = Vec::new();
    let mut t = from;
    while t <= to {
        while let Some(deadline) = m.poll_timeout().filter(|d| *d <= t) {
            m.handle_timeout(deadline);
            out.extend(drain(m));
        }
        m.handle_frame(t, &map(&BODY), Presence::Present);
        t += every;
    }
    while let Some(deadline) = m.poll_timeout().filter(|d| *d <= to) {
        m.handle_timeout(deadline);
        out.extend(drain(m));
    }
    out
}

fn completed(out: &[CaptureOutput]) -> Vec<&CompletedCapture> {
    out.iter()
        .filter_map(|o| match o {
            CaptureOutput::Complete(c) => Some(c.as_ref()),
            _ => None,
        })
        .collect()
}

#[test]
fn refusals_name_what_is_missing() {
    let t0 = Instant::now();
    let mut m = CaptureMachine::new();
    assert_eq!(m.request(t0, req(CaptureKind::Static, 0)), Err(CaptureRefusal::ConnectDevice));
    m.set_functional(true);
    assert_eq!(m.request(t0, req(CaptureKind::Static, 0)), Err(CaptureRefusal::PatientSelected));
    m.set_patient(Some("p1".into()));
    assert_eq!(m.request(t0, req(CaptureKind::Static, 0)), Err(CaptureRefusal::PositionPatient), "no frame yet");
    m.handle_frame(t0, &map(&[0; 4]), Presence::Absent);
    assert_eq!(m.request(t0, req(CaptureKind::Static, 0)), Err(CaptureRefusal::PositionPatient));
    assert_eq!(m.request(t0, req(CaptureKind::Balance, 0)), Err(CaptureRefusal::PositionPatient));
    assert_eq!(m.request(t0, req(CaptureKind::Fitting, 120)), Err(CaptureRefusal::PositionPatient));
    m.handle_frame(t0, &map(&BODY), Presence::Present);
    assert_eq!(m.request(t0, req(CaptureKind::Dynamic, 20)), Err(CaptureRefusal::InvalidDuration));
    assert_eq!(m.request(t0, req(CaptureKind::Dynamic, 120)), Err(CaptureRefusal::InvalidDuration), "120 s is fitting only");
    assert_eq!(drain(&mut m), vec![]);
    assert_eq!(m.request(t0, req(CaptureKind::Fitting, 120)), Ok(()));
    let codes: Vec<&str> = [CaptureRefusal::PatientSelected, CaptureRefusal::PositionPatient, CaptureRefusal::ConnectDevice]
        .iter()
        .map(|r| r.code())
        .collect();
    assert_eq!(codes, ["patientSelected", "positionPatient", "connectDevice"]);
}

#[test]
fn a_dynamic_capture_starts_on_an_empty_mat_so_the_patient_walks_on_after_the_start() {
    let t0 = Instant::now();
    let mut m = CaptureMachine::new();
    m.set_functional(true);
    m.set_patient(Some("p1".into()));
    m.handle_frame(t0, &map(&[0; 4]), Presence::Absent);
    assert_eq!(m.request(t0, req(CaptureKind::Dynamic, 30)), Ok(()));
}

#[test]
fn one_capture_at_a_time_with_the_toast_of_the_running_kind() {
    let t0 = Instant::now();
    for (kind, seconds, refusal) in [
        (CaptureKind::Static, 0, CaptureRefusal::OnGoing),
        (CaptureKind::Balance, 0, CaptureRefusal::OnGoing),
        (CaptureKind::Dynamic, 30, CaptureRefusal::DynamicOngoing),
        (CaptureKind::Fitting, 45, CaptureRefusal::FittingOngoing),
    ] {
        let mut m = ready(t0);
        m.request(t0, req(kind, seconds)).expect("first capture starts");
        assert!(m.is_capturing());
        for second in [req(CaptureKind::Static, 0), req(CaptureKind::Dynamic, 15), req(CaptureKind::Fitting, 120)] {
            assert_eq!(m.request(t0 + Duration::from_millis(500), second), Err(refusal), "{kind:?}");
        }
        assert_eq!(
            refusal.code(),
            match kind {
                CaptureKind::Dynamic => "dynamicOngoing",
                CaptureKind::Fitting => "fittingOngoing",
                _ => "onGoing",
            }
        );
    }
}

#[test]
fn static_takes_the_latest_map_one_second_after_the_request() {
    let t0 = Instant::now();
    let mut m = ready(t0);
    m.request(t0, req(CaptureKind::Static, 0)).expect("starts");
    assert_eq!(drain(&mut m), vec![CaptureOutput::Announcement { kind: CaptureKind::Static, origin: user() }]);
    assert_eq!(m.poll_timeout(), Some(t0 + STATIC_DELAY));
    m.handle_frame(t0 + Duration::from_millis(300), &map(&[1, 2, 3, 4]), Presence::Present);
    m.handle_frame(t0 + Duration::from_millis(900), &map(&[5, 6, 7, 8]), Presence::Present);
    m.handle_timeout(t0 + Duration::from_millis(999));
    assert_eq!(drain(&mut m), vec![]);
    m.handle_timeout(t0 + STATIC_DELAY);
    let out = drain(&mut m);
    let done = completed(&out);
    assert_eq!(done.len(), 1);
    assert_eq!(done[0].frames, vec![CapturedFrame { offset_ms: 900, rows: 2, cols: 2, cells: vec![5, 6, 7, 8] }]);
    assert_eq!(done[0].patient_id, "p1");
    assert!(!m.is_capturing());
    // Results 1.5 × the 1 s analysis time after the request.
    assert_eq!(m.poll_timeout(), Some(t0 + Duration::from_millis(1_500)));
    m.handle_timeout(t0 + Duration::from_millis(1_500));
    assert_eq!(drain(&mut m), vec![CaptureOutput::ResultsDue { kind: CaptureKind::Static, origin: user() }]);
    assert_eq!(m.poll_timeout(), None);
}

#[test]
fn static_without_any_frame_fails_instead_of_storing_nothing() {
    let t0 = Instant::now();
    let mut m = ready(t0);
    m.request(t0, req(CaptureKind::Static, 0)).expect("starts");
    drain(&mut m);
    m.handle_timeout(t0 + STATIC_DELAY);
    assert_eq!(drain(&mut m), vec![CaptureOutput::Failed { kind: CaptureKind::Static, origin: user() }]);
    assert!(!m.is_capturing());
    assert_eq!(m.poll_timeout(), None);
}

#[test]
fn dynamic_streams_for_the_duration_and_loads_after_duration_plus_200_ms() {
    for seconds in DYNAMIC_DURATIONS {
        let t0 = Instant::now();
        let mut m = ready(t0);
        m.request(t0, req(CaptureKind::Dynamic, seconds)).expect("starts");
        assert_eq!(
            drain(&mut m),
            vec![CaptureOutput::Stream(seconds), CaptureOutput::Announcement { kind: CaptureKind::Dynamic, origin: user() }]
        );
        let load = t0 + Duration::from_secs(u64::from(seconds)) + Duration::from_millis(200);
        assert_eq!(m.poll_timeout(), Some(load));
        let out = run(&mut m, t0, load, Duration::from_millis(100));
        let done = completed(&out);
        assert_eq!(done.len(), 1, "{seconds}");
        // A frame every 100 ms from t0 until the load; the frame due at the load instant comes
        // after the timer (as in the actor) and is not part of the capture.
        assert_eq!(done[0].frames.len(), seconds as usize * 10 + 2, "{seconds}");
        assert_eq!(done[0].frames.first().map(|f| f.offset_ms), Some(0));
        assert_eq!(done[0].frames.last().map(|f| f.offset_ms), Some(seconds * 1000 + 100));
        assert!(!m.is_capturing());
        let results = t0 + (Duration::from_secs(u64::from(seconds)) + LOAD_MARGIN).mul_f64(1.5);
        assert_eq!(m.poll_timeout(), Some(results));
    }
}

#[test]
fn fitting_allows_120_s_and_balance_lasts_5_s() {
    let t0 = Instant::now();
    let mut m = ready(t0);
    m.request(t0, req(CaptureKind::Fitting, 120)).expect("fitting 120 s");
    assert_eq!(m.poll_timeout(), Some(t0 + Duration::from_millis(120_200)));
    let out = run(&mut m, t0, t0 + Duration::from_secs(190), Duration::from_secs(1));
    assert_eq!(completed(&out)[0].kind, CaptureKind::Fitting);
    assert!(out.contains(&CaptureOutput::ResultsDue { kind: CaptureKind::Fitting, origin: user() }));

    let t1 = t0 + Duration::from_secs(200);
    m.request(t1, req(CaptureKind::Balance, 999)).expect("balance ignores the requested seconds");
    assert_eq!(drain(&mut m)[0], CaptureOutput::Stream(5));
    assert_eq!(m.poll_timeout(), Some(t1 + Duration::from_millis(5_200)));
}

#[test]
fn a_new_capture_may_start_once_the_previous_is_loaded() {
    let t0 = Instant::now();
    let mut m = ready(t0);
    m.request(t0, req(CaptureKind::Dynamic, 15)).expect("starts");
    let load = t0 + Duration::from_millis(15_200);
    run(&mut m, t0, load, Duration::from_millis(500));
    assert!(!m.is_capturing());
    m.request(load, req(CaptureKind::Static, 0)).expect("the machine is free again");
}

#[test]
fn remote_activation_is_a_15_s_dynamic_capture_through_the_same_rules() {
    let t0 = Instant::now();
    let mut m = ready(t0);
    m.request(t0, req(CaptureKind::Static, 0)).expect("starts");
    assert_eq!(m.remote_activation(t0, "u2".into()), Err(CaptureRefusal::OnGoing));
    m.handle_timeout(t0 + STATIC_DELAY);
    drain(&mut m);
    let t1 = t0 + Duration::from_secs(2);
    m.remote_activation(t1, "u2".into()).expect("free again");
    let origin = CaptureOrigin::Remote("u2".into());
    assert_eq!(drain(&mut m), vec![CaptureOutput::Stream(15), CaptureOutput::Announcement { kind: CaptureKind::Dynamic, origin }]);
    assert_eq!(m.running_kind(), Some(CaptureKind::Dynamic));
}

#[test]
fn the_24_h_series_runs_24_hourly_static_captures_and_skips_refused_ones() {
    let t0 = Instant::now();
    let mut m = ready(t0);
    m.start_series(t0, "u1".into(), SERIES_PERIOD, SERIES_REPETITIONS).expect("starts");
    assert_eq!(m.start_series(t0, "u1".into(), SERIES_PERIOD, SERIES_REPETITIONS), Err(CaptureRefusal::SeriesOngoing));
    let mut out = drain(&mut m);
    let mut t = t0;
    // One frame a minute for 25 hours; the patient is out of bed from 4 h 30 to 5 h 30.
    while t <= t0 + Duration::from_secs(25 * 3_600) {
        while let Some(deadline) = m.poll_timeout().filter(|d| *d <= t) {
            m.handle_timeout(deadline);
            out.extend(drain(&mut m));
        }
        let minute = t.duration_since(t0).as_secs() / 60;
        let (cells, presence) = if (270..330).contains(&minute) { ([0; 4], Presence::Absent) } else { (BODY, Presence::Present) };
        m.handle_frame(t, &map(&cells), presence);
        t += Duration::from_secs(60);
    }
    let done = completed(&out);
    assert_eq!(done.len(), 23);
    let repetitions: Vec<u32> = done
        .iter()
        .filter_map(|c| match c.origin {
            CaptureOrigin::Series { repetition, .. } => Some(repetition),
            _ => None,
        })
        .collect();
    assert_eq!(repetitions, (1..=24).filter(|r| *r != 6).collect::<Vec<_>>());
    assert!(out.contains(&CaptureOutput::SeriesRepetitionRefused {
        user_id: "u1".into(),
        repetition: 6,
        refusal: CaptureRefusal::PositionPatient
    }));
    assert_eq!(out.iter().filter(|o| matches!(o, CaptureOutput::SeriesFinished { .. })).count(), 1);
    assert!(!m.series_running());
    assert_eq!(m.poll_timeout(), None);
}

#[test]
fn a_cancelled_series_stops_scheduling() {
    let t0 = Instant::now();
    let mut m = ready(t0);
    m.start_series(t0, "u1".into(), Duration::from_secs(10), 5).expect("starts");
    m.cancel_series();
    m.handle_frame(t0 + Duration::from_millis(500), &map(&BODY), Presence::Present);
    m.handle_timeout(t0 + Duration::from_secs(1));
    let out = drain(&mut m);
    assert_eq!(completed(&out).len(), 1, "the capture in progress completes");
    assert!(out.contains(&CaptureOutput::SeriesFinished { user_id: "u1".into() }));
    m.handle_timeout(t0 + Duration::from_secs(1_000));
    assert!(completed(&drain(&mut m)).is_empty());
}

/// Feeds a walk on a plate every 100 ms from `t0`: `standing` frames of the patient still on the
/// plate, then `empty` empty frames, then pressure again (the walk); returns the loaded capture.
fn walk_capture(m: &mut CaptureMachine, t0: Instant, standing: u32, empty: u32) -> CompletedCapture {
    const EMPTY: [u8; 4] = [0, 0, 0, 0];
    const STEP: [u8; 4] = [0, 140, 0, 0];
    m.request(t0, req(CaptureKind::Dynamic, 15)).expect("starts");
    drain(m);
    let mut out = Vec::new();
    for i in 0..=152u32 {
        let t = t0 + Duration::from_millis(u64::from(i) * 100);
        while let Some(deadline) = m.poll_timeout().filter(|d| *d <= t) {
            m.handle_timeout(deadline);
            out.extend(drain(m));
        }
        let (cells, presence) = if i < standing {
            (&BODY, Presence::Present)
        } else if i < standing + empty {
            (&EMPTY, Presence::Absent)
        } else {
            // One foot of the walk: pressure, but not the presence of somebody standing.
            (&STEP, Presence::Absent)
        };
        m.handle_frame(t, &map(cells), presence);
    }
    let loaded = completed(&out).into_iter().next().cloned();
    loaded.expect("the walk is loaded")
}

#[test]
fn a_walk_that_starts_on_a_standing_patient_keeps_no_frame_until_the_plate_first_empties() {
    let t0 = Instant::now();
    let mut m = ready(t0);
    m.set_dynamic_is_walk(true);
    // The patient stands on the plate for the first 3 frames (the device hears the stream
    // command a frame later and the patient steps off), the plate is empty for 12, then the walk.
    let walk = walk_capture(&mut m, t0, 3, 12);
    let first = walk.frames.first().expect("frames");
    assert_eq!(first.offset_ms, 300, "the first kept frame is the first empty one");
    assert!(first.cells.iter().all(|&v| v == 0));
    assert!(walk.frames.iter().all(|f| f.cells != BODY.map(u16::from)), "no standing frame is kept");
    // …and then the whole walk, to the load at 15.2 s (the frame due then comes after it).
    assert_eq!(walk.frames.len(), 152 - 3);
    assert_eq!(walk.frames.last().map(|f| f.offset_ms), Some(15_100));
    assert!(walk.frames.iter().skip(12).all(|f| f.cells[1] == 140));
}

#[test]
fn a_walk_on_a_plate_that_never_empties_keeps_every_frame() {
    // Nobody stepped off: the capture is what the plate read, a standing patient, whose gait
    // analysis then finds no whole step (its own catalogued error), not an empty capture.
    let t0 = Instant::now();
    let mut m = ready(t0);
    m.set_dynamic_is_walk(true);
    let walk = walk_capture(&mut m, t0, 1_000, 0);
    assert_eq!(walk.frames.len(), 152);
    assert_eq!(walk.frames[0].offset_ms, 0);
}

#[test]
fn only_a_walk_waits_for_the_empty_plate() {
    // A seat's or the rehab platform's dynamic capture (not a walk) keeps the frames from the
    // start, the sitter included; a walk's fitting and balance captures too.
    let t0 = Instant::now();
    let mut m = ready(t0);
    let seat = walk_capture(&mut m, t0, 3, 12);
    assert_eq!(seat.frames.len(), 152);
    assert_eq!(seat.frames[0].cells, BODY.map(u16::from));
    let mut plate = ready(t0);
    plate.set_dynamic_is_walk(true);
    plate.request(t0, req(CaptureKind::Balance, 5)).expect("starts");
    plate.handle_frame(t0, &map(&BODY), Presence::Present);
    plate.handle_frame(t0 + Duration::from_millis(100), &map(&[0; 4]), Presence::Absent);
    plate.handle_timeout(t0 + Duration::from_millis(5_200));
    let balance = drain(&mut plate);
    assert_eq!(completed(&balance)[0].frames.len(), 2, "a balance capture keeps its first frame");
}

#[test]
fn a_walk_restored_from_a_snapshot_still_waits_for_the_empty_plate() {
    let t0 = Instant::now();
    let mut m = ready(t0);
    m.set_dynamic_is_walk(true);
    m.request(t0, req(CaptureKind::Dynamic, 15)).expect("starts");
    m.handle_frame(t0 + Duration::from_millis(100), &map(&BODY), Presence::Present);
    let clock = WallClock::new(t0, 1_000_000);
    let snapshot = m.snapshot(clock);
    assert!(snapshot.running.as_ref().is_some_and(|r| r.awaits_empty_plate));
    let mut restored = CaptureMachine::from_snapshot(&snapshot, true, clock);
    restored.handle_frame(t0 + Duration::from_millis(200), &map(&[0; 4]), Presence::Absent);
    restored.handle_frame(t0 + Duration::from_millis(300), &map(&BODY), Presence::Present);
    restored.handle_timeout(t0 + Duration::from_millis(15_200));
    let out = drain(&mut restored);
    let frames = &completed(&out)[0].frames;
    assert_eq!(frames.iter().map(|f| f.offset_ms).collect::<Vec<_>>(), vec![200, 300]);
}

#[test]
fn a_dynamic_capture_is_a_walk_on_the_podology_plates_only() {
    use mat_protocol::device_type::DeviceType;
    for walk in [DeviceType::PodologyIoT, DeviceType::Podology, DeviceType::PressureMatIoT] {
        assert!(crate::machine::mat::dynamic_is_walk(walk), "{walk:?}");
    }
    for not_walk in [DeviceType::RehabMat, DeviceType::SeatingMatIoT, DeviceType::MattressMatIoT, DeviceType::SensingHorseSubdevice] {
        assert!(!crate::machine::mat::dynamic_is_walk(not_walk), "{not_walk:?}");
    }
}
