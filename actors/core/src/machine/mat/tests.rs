//! Scenario tests of the composed mat machine with a simulated clock.

use super::*;
use crate::machine::alarm::{Alarm, AlarmKind, AlarmReason};
use crate::machine::body_regions::{BodyBand, LOADED_MIN};
use crate::machine::capture::CaptureKind;
use crate::machine::capture::CaptureOrigin;
use crate::test_maps::body;
use mat_protocol::CellFormat;

fn config() -> MatConfig {
    MatConfig {
        device_type: DeviceType::MattressMatIoT,
        functional: false,
        patient_status: PatientStatus::Correct,
        absence_delay: Duration::from_secs(30),
    }
}

fn drain(m: &mut MatMachine) -> Vec<MatOutput> {
    std::iter::from_fn(|| m.poll_output()).collect()
}

fn map(cells: &[u8]) -> PressureMap<'_> {
    PressureMap::new(48, 48, CellFormat::U8, cells).unwrap()
}

/// Runs the machine's timeouts from `from` to `to` in 100 ms steps, as the actor's timer would.
fn run_until(m: &mut MatMachine, to: Instant) -> Vec<MatOutput> {
    let mut out = Vec::new();
    while let Some(deadline) = m.poll_timeout() {
        if deadline > to {
            break;
        }
        m.handle_timeout(deadline);
        out.extend(drain(m));
    }
    out
}

#[test]
fn a_stored_offline_device_is_offline_until_its_first_frame() {
    let mut m = MatMachine::new(config());
    assert_eq!(m.status().card, CardStatus::Offline);
    let t0 = Instant::now();
    let body = body();
    assert_eq!(m.handle_frame(t0, &map(&body)), Presence::Present);
    let out = drain(&mut m);
    assert_eq!(out.len(), 1);
    let MatOutput::Status(s) = out[0] else { panic!("expected a status, got {out:?}") };
    assert!(s.functional);
    assert_eq!((s.state_code, s.card), (Some(0), CardStatus::Correct));
}

#[test]
fn leaving_the_bed_becomes_missing_after_the_delay_then_correct_on_return() {
    let mut m = MatMachine::new(config());
    let t0 = Instant::now();
    let (body, empty) = (body(), vec![0u8; 48 * 48]);
    m.handle_frame(t0, &map(&body));
    drain(&mut m);
    // Empty frames every second for 29 s: still Correct.
    for s in 1..30 {
        assert_eq!(m.handle_frame(t0 + Duration::from_secs(s), &map(&empty)), Presence::Absent);
    }
    assert!(drain(&mut m).is_empty());
    m.handle_frame(t0 + Duration::from_secs(31), &map(&empty));
    let out = drain(&mut m);
    assert!(
        matches!(
            out.as_slice(),
            [
                MatOutput::Alarm(AlarmOutput::Raised(Alarm { kind: AlarmKind::Missing, .. })),
                MatOutput::Status(DeviceStatus { card: CardStatus::Missing, state_code: Some(1), unattended_alarm: true, .. })
            ]
        ),
        "{out:?}"
    );
    m.handle_frame(t0 + Duration::from_secs(32), &map(&body));
    // Back in bed: Correct, but the alarm waits for someone to attend it.
    assert!(matches!(
        drain(&mut m).as_slice(),
        [MatOutput::Status(DeviceStatus { card: CardStatus::Correct, unattended_alarm: true, .. })]
    ));
    assert!(m.has_unattended_alarm());
    assert_eq!(m.attend_all_alarms(t0 + Duration::from_secs(92)), 1);
    let out = drain(&mut m);
    assert!(
        matches!(out[0], MatOutput::Alarm(AlarmOutput::Attended { time_to_attend, .. }) if time_to_attend == Duration::from_secs(61)),
        "{out:?}"
    );
    assert!(matches!(out[1], MatOutput::Status(DeviceStatus { unattended_alarm: false, .. })));
}

#[test]
fn silence_blanks_then_goes_offline() {
    let mut m = MatMachine::new(config());
    let t0 = Instant::now();
    m.handle_frame(t0, &map(&body()));
    drain(&mut m);
    let out = run_until(&mut m, t0 + Duration::from_secs(31));
    assert_eq!(out[0], MatOutput::Blank);
    assert!(matches!(out[1], MatOutput::Status(DeviceStatus { functional: false, card: CardStatus::Offline, .. })));
}

#[test]
fn streaming_needs_a_functional_device_and_ends_on_disconnect() {
    let mut m = MatMachine::new(config());
    let t0 = Instant::now();
    assert_eq!(m.start_streaming(t0, 180), Err(StreamRefusal::NotFunctional));
    m.handle_frame(t0, &map(&body()));
    drain(&mut m);
    m.start_streaming(t0, 180).unwrap();
    assert_eq!(drain(&mut m), vec![MatOutput::Stream(185), MatOutput::StreamingEnd(Some(t0 + Duration::from_secs(185)))]);
    m.handle_disconnect(t0 + Duration::from_secs(1));
    let out = drain(&mut m);
    assert!(out.contains(&MatOutput::Stream(0)));
    assert!(out.contains(&MatOutput::StreamingEnd(None)));
    assert!(out.contains(&MatOutput::Blank));
    assert!(out.iter().any(|o| matches!(o, MatOutput::Status(DeviceStatus { card: CardStatus::Offline, .. }))));
}

#[test]
fn only_patient_mats_raise_missing_alarms() {
    for (device_type, rows, cols, raises) in [
        (DeviceType::MattressMatIoT, 48, 48, true),
        (DeviceType::SeatingMatIoT, 16, 16, true),
        (DeviceType::PodologyIoT, 48, 48, false),
        (DeviceType::FloorMat, 24, 24, false),
    ] {
        let mut m = MatMachine::new(MatConfig { device_type, ..functional_config() });
        let t0 = Instant::now();
        let empty = vec![0u8; rows * cols];
        let pm = PressureMap::new(rows as u16, cols as u16, CellFormat::U8, &empty).unwrap();
        for s in 0..=40 {
            m.handle_frame(t0 + Duration::from_secs(s), &pm);
        }
        assert_eq!(m.status().patient_status, PatientStatus::Missing, "{device_type:?}");
        assert_eq!(m.has_unattended_alarm(), raises, "{device_type:?}");
    }
}

#[test]
fn force_mat_uses_readings_and_its_card_rule() {
    let mut m = MatMachine::new(MatConfig { device_type: DeviceType::ForceMat, ..config() });
    let t0 = Instant::now();
    let frame = |values: [u16; 4]| values.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>();
    let cells = frame([0, 0, 150, 60]);
    let pm = PressureMap::new(1, 4, CellFormat::U16Le, &cells).unwrap();
    assert_eq!(m.handle_frame(t0, &pm), Presence::Present, "210 > 200");
    assert_eq!(m.status().card, CardStatus::Alarm, "first two channels are zero");
    let cells = frame([100, 100, 0, 0]);
    let pm = PressureMap::new(1, 4, CellFormat::U16Le, &cells).unwrap();
    assert_eq!(m.handle_frame(t0, &pm), Presence::Absent, "exactly 200 is not presence");
    assert_eq!(m.status().card, CardStatus::Correct);
    assert_eq!(m.reading(), Some(([100, 100, 0, 0], 200)), "channels and their sum, for presureValue");
    assert_eq!(MatMachine::new(config()).reading(), None, "map devices have no reading");
}

#[test]
fn a_restarted_machine_resumes_the_stored_stream_and_ends_it_on_time() {
    let mut m = MatMachine::new(MatConfig { functional: true, ..config() });
    let t0 = Instant::now();
    let end = t0 + Duration::from_secs(100);
    m.resume_streaming(t0 + Duration::from_secs(40), Some(end));
    assert_eq!(drain(&mut m), vec![MatOutput::Stream(60)]);
    assert_eq!(m.streaming_remaining_secs(t0 + Duration::from_secs(40)), 60);
    assert_eq!(m.streaming_ends_at(), Some(end));
    // Frames keep the device functional; the stream ends at the stored end time.
    let body = body();
    for s in (41..100).step_by(5) {
        m.handle_frame(t0 + Duration::from_secs(s), &map(&body));
    }
    drain(&mut m);
    let out = run_until(&mut m, end);
    assert_eq!(out, vec![MatOutput::Stream(0), MatOutput::StreamingEnd(None)]);
}

fn functional_config() -> MatConfig {
    MatConfig { functional: true, ..config() }
}

fn capture(kind: CaptureKind, seconds: u32) -> CaptureRequest {
    CaptureRequest { kind, seconds, origin: CaptureOrigin::User("u1".into()) }
}

#[test]
fn the_start_control_is_refused_while_a_capture_runs() {
    let mut m = MatMachine::new(functional_config());
    let t0 = Instant::now();
    m.select_patient(Some("p1".into()));
    m.handle_frame(t0, &map(&body()));
    m.request_capture(t0, capture(CaptureKind::Static, 0)).unwrap();
    assert!(m.is_capturing());
    assert_eq!(m.start_streaming(t0, 180), Err(StreamRefusal::CaptureRunning));
    m.handle_frame(t0 + Duration::from_millis(500), &map(&body()));
    run_until(&mut m, t0 + Duration::from_secs(1));
    assert!(!m.is_capturing());
    m.start_streaming(t0 + Duration::from_secs(1), 180).unwrap();
}

#[test]
fn a_capture_and_a_live_stream_do_not_cut_each_other_short() {
    let mut m = MatMachine::new(functional_config());
    let t0 = Instant::now();
    m.select_patient(Some("p1".into()));
    m.handle_frame(t0, &map(&body()));
    m.start_streaming(t0, 10).unwrap();
    drain(&mut m);
    // A 30 s dynamic capture during a 15 s live stream: the device is told 30 s.
    m.request_capture(t0, capture(CaptureKind::Dynamic, 30)).unwrap();
    assert!(drain(&mut m).contains(&MatOutput::Stream(30)));
    // The live stream ends at 15 s: the device keeps streaming for the capture's remaining 15 s.
    let body = body();
    let mut out = Vec::new();
    for s in 1..=31 {
        out.extend(run_until(&mut m, t0 + Duration::from_secs(s)));
        m.handle_frame(t0 + Duration::from_secs(s), &map(&body));
        out.extend(drain(&mut m));
    }
    assert!(out.contains(&MatOutput::Stream(15)), "{out:?}");
    assert!(!out.contains(&MatOutput::Stream(0)));
    assert!(
        out.iter().any(|o| matches!(o, MatOutput::Capture(CaptureOutput::Complete(c)) if c.frames.len() == 30)),
        "one frame a second from 1 s to 30 s"
    );

    // The other way round: a 60 s live stream is not shortened by a 15 s capture.
    let t1 = t0 + Duration::from_secs(100);
    m.handle_frame(t1, &map(&body));
    m.start_streaming(t1, 60).unwrap();
    drain(&mut m);
    m.request_capture(t1, capture(CaptureKind::Dynamic, 15)).unwrap();
    assert!(!drain(&mut m).iter().any(|o| matches!(o, MatOutput::Stream(_))));
}

#[test]
fn a_patient_left_still_past_the_interval_raises_one_ulcer_alarm_and_a_turn_clears_the_risk() {
    let mut m = MatMachine::new(functional_config());
    let t0 = Instant::now();
    let (back, side) = (body(), side_body());
    let mut out = Vec::new();
    // A frame every 10 s for 2 h 40 min, lying still.
    for step in 0..=960u64 {
        let now = t0 + Duration::from_secs(step * 10);
        out.extend(run_until(&mut m, now));
        m.handle_frame(now, &map(&back));
        out.extend(drain(&mut m));
    }
    let raised: Vec<&MatOutput> = out.iter().filter(|o| matches!(o, MatOutput::Alarm(AlarmOutput::Raised(_)))).collect();
    assert_eq!(raised.len(), 1, "{raised:?}");
    assert!(matches!(raised[0], MatOutput::Alarm(AlarmOutput::Raised(Alarm { kind: AlarmKind::UlcerRisk, .. }))));
    let status = m.status();
    assert_eq!(
        (status.patient_status, status.card, status.repositioning),
        (PatientStatus::UlcerRisk, CardStatus::Alarm, RepositioningTier::Overdue)
    );
    assert!(status.unattended_alarm);
    // The patient is turned onto the side: after the confirmation the risk is gone, the alarm waits.
    for step in 961..=975u64 {
        let now = t0 + Duration::from_secs(step * 10);
        m.handle_frame(now, &map(&side));
        drain(&mut m);
    }
    let status = m.status();
    assert_eq!((status.patient_status, status.repositioning), (PatientStatus::Correct, RepositioningTier::Ok));
    assert!(status.unattended_alarm);
}

/// Turn compliance counts the turns the clock detects as well as the recorded ones: a detected
/// turn reaches the turn log with when it began and where the clock stood before it.
#[test]
fn a_turn_the_clock_detects_goes_to_the_turn_log_with_where_the_clock_stood() {
    let mut m = MatMachine::new(functional_config());
    let t0 = Instant::now();
    m.set_repositioning_interval(t0, Duration::from_secs(15 * 60));
    let (back, side) = (body(), side_body());
    // 20 min on the back, past the 15 min interval: no turn logged.
    let mut out = Vec::new();
    for step in 0..=120u64 {
        let now = t0 + Duration::from_secs(step * 10);
        out.extend(run_until(&mut m, now));
        m.handle_frame(now, &map(&back));
        out.extend(drain(&mut m));
    }
    assert!(!out.iter().any(|o| matches!(o, MatOutput::Turn(_))), "{out:?}");
    // Then on the side, from 20 min 10 s.
    let mut turns = Vec::new();
    for step in 121..=135u64 {
        let now = t0 + Duration::from_secs(step * 10);
        run_until(&mut m, now);
        m.handle_frame(now, &map(&side));
        turns.extend(drain(&mut m).into_iter().filter_map(|o| if let MatOutput::Turn(t) = o { Some(t) } else { None }));
    }
    assert_eq!(turns.len(), 1, "{turns:?}");
    let turn = turns[0];
    assert!(turn.at >= t0 + Duration::from_secs(1210) && turn.at <= t0 + Duration::from_secs(1220), "when the change began");
    assert!(turn.recorded_at >= turn.at + Duration::from_secs(60), "after the confirmation");
    assert_eq!(turn.loaded_for, turn.at - t0, "the load since the patient lay down");
    assert_eq!((turn.tier_before, turn.interval), (RepositioningTier::Due, Duration::from_secs(15 * 60)));
    assert!(turn.detected, "the clock's own turn, not one a nurse recorded");
}

#[test]
fn an_attended_ulcer_alarm_leaves_the_card_correct_with_the_turn_still_owed() {
    let mut m = MatMachine::new(functional_config());
    let t0 = Instant::now();
    let back = body();
    // Lying still for 2 h 40 min: Ulcer Risk, orange, an alarm waiting.
    let mut now = t0;
    for step in 0..=960u64 {
        now = t0 + Duration::from_secs(step * 10);
        run_until(&mut m, now);
        m.handle_frame(now, &map(&back));
        drain(&mut m);
    }
    assert_eq!((m.status().patient_status, m.status().card), (PatientStatus::UlcerRisk, CardStatus::Alarm));
    // A nurse attends it; the patient has not been turned yet.
    assert_eq!(m.attend_all_alarms(now + Duration::from_secs(5)), 1);
    let status = m.status();
    assert_eq!((status.patient_status, status.card, status.unattended_alarm), (PatientStatus::Correct, CardStatus::Correct, false));
    assert_eq!(status.repositioning, RepositioningTier::Overdue, "the turn is still owed");
    // Still lying still: the same episode raises no second alarm and the card stays Correct.
    let mut out = Vec::new();
    for step in 1..=60u64 {
        let later = now + Duration::from_secs(5 + step * 10);
        out.extend(run_until(&mut m, later));
        m.handle_frame(later, &map(&back));
        out.extend(drain(&mut m));
    }
    assert!(!out.iter().any(|o| matches!(o, MatOutput::Alarm(AlarmOutput::Raised(_)))), "{out:?}");
    assert_eq!(m.status().card, CardStatus::Correct);
}

#[test]
fn logs_are_written_on_entrance_and_every_five_minutes_not_per_frame() {
    let mut m = MatMachine::new(functional_config());
    let t0 = Instant::now();
    let body = body();
    let mut logs = Vec::new();
    for step in 0..=600u64 {
        m.handle_frame(t0 + Duration::from_secs(step), &map(&body));
        logs.extend(drain(&mut m).into_iter().filter(|o| matches!(o, MatOutput::Log(_))));
    }
    let presence = logs.iter().filter(|o| matches!(o, MatOutput::Log(LogOutput::Presence { present: true, .. }))).count();
    let device = logs.iter().filter(|o| matches!(o, MatOutput::Log(LogOutput::Device(_)))).count();
    assert_eq!(presence, 1);
    assert!((2..=4).contains(&device), "{device} device log entries for 600 frames");
}

/// The body of [`body`] moved to one side of the map with its legs bent further that way.
fn side_body() -> Vec<u8> {
    let mut cells = vec![0u8; 48 * 48];
    for r in 2..10 {
        for c in 4..24 {
            cells[r * 48 + c] = if (r + c) % 2 == 0 { 20 } else { 150 };
        }
    }
    for r in 0..6 {
        for c in 24..44 {
            cells[r * 48 + c] = if (r + c) % 2 == 0 { 20 } else { 120 };
        }
    }
    cells
}

#[test]
fn the_repositioning_view_counts_down_and_the_demo_time_scale_shortens_every_interval() {
    let behaviour = BehaviourConfig { repositioning_time_scale: 60, ..BehaviourConfig::default() };
    let mut m = MatMachine::with_behaviour(functional_config(), behaviour);
    let t0 = Instant::now();
    // Nobody on the mat: no countdown; the default 2 h reads back unscaled.
    let view = m.repositioning(t0).unwrap();
    assert_eq!((view.interval, view.tier, view.due_in), (Duration::from_secs(7200), RepositioningTier::Ok, None));
    // 15 min at 60× is due after 15 s of lying still.
    m.set_repositioning_interval(t0, Duration::from_secs(15 * 60));
    let back = body();
    for step in 0..=4u64 {
        m.handle_frame(t0 + Duration::from_secs(step), &map(&back));
        drain(&mut m);
    }
    let view = m.repositioning(t0 + Duration::from_secs(4)).unwrap();
    assert_eq!(view.interval, Duration::from_secs(15 * 60), "the interval reads back as set");
    assert_eq!(view.due_in, Some(Duration::from_secs(11)));
    let mut out = Vec::new();
    for step in 5..=16u64 {
        let now = t0 + Duration::from_secs(step);
        out.extend(run_until(&mut m, now));
        m.handle_frame(now, &map(&back));
        out.extend(drain(&mut m));
    }
    assert!(out.iter().any(|o| matches!(o, MatOutput::Alarm(AlarmOutput::Raised(Alarm { kind: AlarmKind::UlcerRisk, .. })))), "{out:?}");
    let view = m.repositioning(t0 + Duration::from_secs(16)).unwrap();
    assert_eq!((view.tier, view.due_in), (RepositioningTier::Due, Some(Duration::ZERO)));
    // A Force Mat has no clock.
    assert!(MatMachine::new(MatConfig { device_type: DeviceType::ForceMat, ..functional_config() }).repositioning(t0).is_none());
}

#[test]
fn without_a_time_scale_the_clock_runs_in_real_time() {
    let mut m = MatMachine::new(functional_config());
    let t0 = Instant::now();
    m.set_repositioning_interval(t0, Duration::from_secs(15 * 60));
    let back = body();
    for step in 0..=16u64 {
        m.handle_frame(t0 + Duration::from_secs(step), &map(&back));
        drain(&mut m);
    }
    let view = m.repositioning(t0 + Duration::from_secs(16)).unwrap();
    // Not even due soon (the last quarter of a 15 min interval), let alone due: the clock is not scaled.
    assert_eq!(view.tier, RepositioningTier::Ok);
    assert_eq!(view.due_in, Some(Duration::from_secs(15 * 60 - 16)));
}

#[test]
fn posture_is_read_at_most_once_a_second_and_forgotten_when_nobody_is_there() {
    use crate::machine::posture::{Orientation, PostureClassifier, PostureScheme};
    let mut m = MatMachine::new(config());
    let t0 = Instant::now();
    let body = body();
    // The same body, head to foot: another reading.
    let turned: Vec<u8> = body.iter().rev().copied().collect();
    let direct = PostureClassifier::new(PostureScheme::Lying, Orientation::default());
    let (first, second) = (direct.classify(&map(&body)), direct.classify(&map(&turned)));
    assert!(first.is_some() && first != second, "the test needs two different readings: {first:?} {second:?}");
    m.handle_frame(t0, &map(&body));
    assert_eq!(m.posture(), first);
    m.handle_frame(t0 + Duration::from_millis(500), &map(&turned));
    assert_eq!(m.posture(), first, "not read again within the second");
    m.handle_frame(t0 + Duration::from_millis(1_000), &map(&turned));
    assert_eq!(m.posture(), second);
    m.handle_frame(t0 + Duration::from_millis(1_100), &map(&vec![0u8; 48 * 48]));
    assert_eq!(m.posture(), None, "nobody there");
    m.handle_frame(t0 + Duration::from_millis(1_200), &map(&body));
    assert_eq!(m.posture(), first, "read at once when someone lies down again");
}

/// The wall clock of the snapshot tests: `t0` is this Unix ms.
const T0_UNIX_MS: u64 = 1_700_000_000_000;

fn wall_ms(t0: Instant, now: Instant) -> u64 {
    T0_UNIX_MS + u64::try_from(now.duration_since(t0).as_millis()).unwrap()
}

/// Feeds a frame at `now` after the deadlines before it; returns what came out.
fn step(m: &mut MatMachine, now: Instant, cells: &[u8]) -> Vec<MatOutput> {
    let mut out = run_until(m, now);
    m.handle_frame(now, &map(cells));
    out.extend(drain(m));
    out
}

#[test]
fn every_field_survives_a_snapshot_and_the_restored_machine_behaves_the_same() {
    let behaviour = BehaviourConfig { first_alarm_id: 500, ..BehaviourConfig::default() };
    let mut m = MatMachine::with_behaviour(functional_config(), behaviour);
    let t0 = Instant::now();
    let (body, empty) = (body(), vec![0u8; 48 * 48]);
    let secs = |s: u64| t0 + Duration::from_secs(s);
    m.select_patient(Some("p1".into()));
    m.set_repositioning_interval(t0, Duration::from_secs(10 * 60));
    // 11 min lying still past a 10 min interval: an Ulcer Risk alarm, the clock running.
    for s in (0..=660).step_by(10) {
        step(&mut m, secs(s), &body);
    }
    m.start_streaming(secs(660), 180).unwrap();
    m.request_capture(secs(660), capture(CaptureKind::Dynamic, 60)).unwrap();
    drain(&mut m);
    // The patient leaves: Missing after 30 s, while the capture still collects frames.
    for s in 661..=692 {
        step(&mut m, secs(s), &empty);
    }
    let now = secs(692);
    let snapshot = m.snapshot(now, wall_ms(t0, now));

    // Every sub-machine holds something.
    assert!(snapshot.status.functional);
    assert_eq!(snapshot.patient.status, PatientStatus::Missing);
    assert_eq!(snapshot.stream_ends_at_ms, Some(wall_ms(t0, secs(660 + 185))));
    assert_eq!(snapshot.repositioning_interval, Some(Duration::from_secs(600)));
    let clock = snapshot.repositioning_clock.as_ref().expect("a bed mat has the clock");
    assert!(clock.tier.at_risk() && clock.loaded_since_ms.iter().any(Option::is_some), "{clock:?}");
    let kinds: Vec<AlarmKind> = snapshot.alarms.pending.iter().map(|a| a.kind).collect();
    assert_eq!(kinds, vec![AlarmKind::UlcerRisk, AlarmKind::Missing]);
    assert_eq!(snapshot.alarms.next_id, 502);
    // The exit was logged (the log cadence holds something once the patient is back, below).
    assert!(snapshot.log_cadence.is_some_and(|l| !l.present));
    assert_eq!(snapshot.capture.patient_id.as_deref(), Some("p1"));
    let running = snapshot.capture.running.as_ref().expect("a capture in progress");
    assert_eq!(running.frames.len(), 32);
    assert_eq!(snapshot.capture_stream_until_ms, Some(wall_ms(t0, secs(660 + 60))));

    // It is plain data: it survives serialisation, as a store would keep it.
    let json = serde_json::to_string(&snapshot).unwrap();
    let stored: MatSnapshot = serde_json::from_str(&json).unwrap();
    assert_eq!(stored, snapshot);

    // Restored from the wall-clock times alone (the anchor arithmetic is `WallClock`'s tests).
    let mut r = MatMachine::restore(functional_config(), behaviour, &stored, now, wall_ms(t0, now));
    assert_eq!(drain(&mut r), vec![MatOutput::Stream(660 + 185 - 692)], "the device resumes the stream at once");
    assert_eq!(r.snapshot(now, wall_ms(t0, now)), snapshot, "every field survives");
    assert_eq!(r.status(), m.status());

    // The same inputs give the same outputs: the patient returns, the capture loads, the stream
    // ends, a nurse attends both alarms.
    let (mut out_m, mut out_r) = (Vec::new(), Vec::new());
    for s in 693..=900 {
        out_m.extend(step(&mut m, secs(s), &body));
        out_r.extend(step(&mut r, secs(s), &body));
    }
    assert_eq!(m.attend_all_alarms(secs(901)), 2);
    assert_eq!(r.attend_all_alarms(secs(901)), 2);
    out_m.extend(drain(&mut m));
    out_r.extend(drain(&mut r));
    assert!(out_m.iter().any(|o| matches!(o, MatOutput::Capture(CaptureOutput::Complete(_)))), "{out_m:?}");
    assert!(out_m.contains(&MatOutput::StreamingEnd(None)));
    assert!(out_m.iter().any(|o| matches!(o, MatOutput::Alarm(AlarmOutput::Attended { .. }))));
    assert_eq!(out_r, out_m);
    let end = m.snapshot(secs(901), wall_ms(t0, secs(901)));
    assert_eq!(r.snapshot(secs(901), wall_ms(t0, secs(901))), end);
    // Back in bed with entries logged: that cadence survives too.
    assert!(end.log_cadence.is_some_and(|l| l.present && l.last_entry_ms.is_some()), "{:?}", end.log_cadence);
    assert!(end.capture.results_due.is_empty() && end.capture.running.is_none());
    let again = MatMachine::restore(functional_config(), behaviour, &end, secs(901), wall_ms(t0, secs(901)));
    assert_eq!(again.snapshot(secs(901), wall_ms(t0, secs(901))), end);
}

#[test]
fn a_force_mats_reading_and_an_offline_restart_survive_a_snapshot() {
    let mut m = MatMachine::new(MatConfig { device_type: DeviceType::ForceMat, ..config() });
    let t0 = Instant::now();
    let cells: Vec<u8> = [0u16, 0, 150, 60].iter().flat_map(|v| v.to_le_bytes()).collect();
    m.handle_frame(t0, &PressureMap::new(1, 4, CellFormat::U16Le, &cells).unwrap());
    let snapshot = m.snapshot(t0, T0_UNIX_MS);
    // Its connection did not survive: offline, with the reading and the card it gives.
    let r = MatMachine::restore(
        MatConfig { device_type: DeviceType::ForceMat, ..config() },
        BehaviourConfig::default(),
        &snapshot,
        t0,
        T0_UNIX_MS,
    );
    assert_eq!(r.reading(), m.reading());
    assert!(!r.status().functional);
    assert_eq!(r.snapshot(t0, T0_UNIX_MS).force_values, [0, 0, 150, 60]);
}

#[test]
fn a_snapshot_from_storage_is_an_offline_device_with_its_alarms_stream_and_interval() {
    use crate::machine::alarm::{AlarmsSnapshot, PendingAlarm};
    let t0 = Instant::now();
    let stored = StoredMatState {
        stream_ends_at_ms: Some(T0_UNIX_MS + 40_000),
        alarms: AlarmsSnapshot {
            next_id: 8,
            pending: vec![PendingAlarm { id: 7, kind: AlarmKind::Missing, raised_at_ms: T0_UNIX_MS - 60_000, reason: None }],
        },
        repositioning_interval: Some(Duration::from_secs(45 * 60)),
        tare: None,
    };
    let snapshot = MatSnapshot::from_stored(DeviceType::MattressMatIoT, PatientStatus::Missing, stored);
    let mut r = MatMachine::restore(functional_config(), BehaviourConfig::default(), &snapshot, t0, T0_UNIX_MS);
    assert_eq!(drain(&mut r), vec![MatOutput::Stream(40)]);
    assert!(!r.status().functional, "offline until its first frame");
    assert_eq!(r.status().patient_status, PatientStatus::Missing);
    assert!(r.has_unattended_alarm());
    assert_eq!(r.repositioning(t0).map(|v| v.interval), Some(Duration::from_secs(45 * 60)));
    // Still absent: the stored alarm is not raised a second time; attending it gives its age.
    let empty = vec![0u8; 48 * 48];
    for s in 1..=40 {
        assert!(!step(&mut r, t0 + Duration::from_secs(s), &empty).iter().any(|o| matches!(o, MatOutput::Alarm(AlarmOutput::Raised(_)))));
    }
    assert_eq!(r.attend_alarm(t0 + Duration::from_secs(41), AlarmId(7)), Ok(Duration::from_secs(101)));
}

#[test]
fn a_snapshot_older_than_the_rows_takes_their_interval_and_alarms_and_raises_nothing_twice() {
    use crate::machine::alarm::{AlarmsSnapshot, PendingAlarm};
    let behaviour = BehaviourConfig { first_alarm_id: 500, ..BehaviourConfig::default() };
    let mut m = MatMachine::with_behaviour(functional_config(), behaviour);
    let t0 = Instant::now();
    let secs = |s: u64| t0 + Duration::from_secs(s);
    let (body, empty) = (body(), vec![0u8; 48 * 48]);
    m.set_repositioning_interval(t0, Duration::from_secs(10 * 60));
    for s in 0..=20 {
        step(&mut m, secs(s), &body);
    }
    // The patient leaves; the shared snapshot is taken 5 s into the absence, before Missing.
    for s in 21..=25 {
        step(&mut m, secs(s), &empty);
    }
    let old = m.snapshot(secs(25), wall_ms(t0, secs(25)));
    assert!(old.alarms.pending.is_empty());
    // Then the rows move on: Missing raised (stored by the writer), and a nurse sets 45 min.
    let mut raised = Vec::new();
    for s in 26..=60 {
        raised.extend(step(&mut m, secs(s), &empty).into_iter().filter_map(|o| match o {
            MatOutput::Alarm(AlarmOutput::Raised(alarm)) => Some(alarm),
            _ => None,
        }));
    }
    let [missing] = raised.as_slice() else { panic!("one Missing alarm: {raised:?}") };
    let rows = StoredMatState {
        stream_ends_at_ms: None,
        alarms: AlarmsSnapshot {
            next_id: missing.id.0 + 1,
            pending: vec![PendingAlarm { id: missing.id.0, kind: AlarmKind::Missing, raised_at_ms: wall_ms(t0, secs(51)), reason: None }],
        },
        repositioning_interval: Some(Duration::from_secs(45 * 60)),
        tare: None,
    };
    // Another hub takes the device over at 60 s from the old snapshot, made true to the rows.
    let resumed = old.reconciled_with_rows(rows);
    let mut r = MatMachine::restore(functional_config(), behaviour, &resumed, secs(60), wall_ms(t0, secs(60)));
    drain(&mut r);
    assert_eq!(r.repositioning(secs(60)).map(|v| v.interval), Some(Duration::from_secs(45 * 60)), "the acknowledged interval");
    assert!(r.has_unattended_alarm());
    for s in 61..=120 {
        let out = step(&mut r, secs(s), &empty);
        assert!(
            !out.iter().any(|o| matches!(o, MatOutput::Alarm(AlarmOutput::Raised(_)))),
            "Missing raised a second time at {s} s: {out:?}"
        );
    }
    assert_eq!(r.attend_alarm(secs(121), missing.id), Ok(Duration::from_secs(70)));
}

#[test]
fn an_alarm_the_snapshot_holds_but_the_rows_show_attended_stays_attended() {
    use crate::machine::alarm::{AlarmsSnapshot, PendingAlarm};
    let mut snapshot = MatSnapshot::from_stored(
        DeviceType::MattressMatIoT,
        PatientStatus::Correct,
        StoredMatState {
            alarms: AlarmsSnapshot {
                next_id: 8,
                pending: vec![PendingAlarm { id: 7, kind: AlarmKind::Missing, raised_at_ms: T0_UNIX_MS, reason: None }],
            },
            ..StoredMatState::default()
        },
    );
    snapshot.repositioning_interval = Some(Duration::from_secs(30 * 60));
    let resumed = snapshot.reconciled_with_rows(StoredMatState::default());
    assert!(resumed.alarms.pending.is_empty(), "attended in the rows after the snapshot");
    assert_eq!(resumed.alarms.next_id, 8, "the numbering goes on");
    assert_eq!(resumed.repositioning_interval, None, "the interval was set back to the default");
}

/// An empty mat's idle level: 2 to 12 steps, different on every cell (it reads PRESENCE untared).
fn idle_level() -> Vec<u8> {
    (0..48 * 48).map(|i| 2 + (i * 5 % 11) as u8).collect()
}

/// One raw frame through the machine as the actor feeds it: tared, then handled.
fn raw_frame(m: &mut MatMachine, t0: Instant, at: Instant, raw: &[u8]) -> (Presence, Vec<u8>) {
    let mut cells = raw.to_vec();
    m.tare_frame(at, wall_ms(t0, at), 48, 48, CellFormat::U8, &mut cells);
    (m.handle_frame(at, &map(&cells)), cells)
}

#[test]
fn the_tare_is_learnt_stored_and_survives_a_snapshot_and_a_restart_from_storage() {
    use crate::machine::tare::TareSource;
    let mut m = MatMachine::new(config());
    let t0 = Instant::now();
    let idle = idle_level();
    assert_eq!(raw_frame(&mut m, t0, t0, &idle).0, Presence::Present, "untared, the idle level reads as someone");
    let mut stored = None;
    for s in 1..=300 {
        raw_frame(&mut m, t0, t0 + Duration::from_secs(s), &idle);
        for out in drain(&mut m) {
            if let MatOutput::Tare(tare) = out {
                stored = Some(tare);
            }
        }
    }
    let stored = stored.expect("the learnt tare is an output to persist");
    assert_eq!(stored.source, TareSource::Learnt);
    assert_eq!(m.tare(), Some(&stored));
    let at = t0 + Duration::from_secs(301);
    let (presence, cells) = raw_frame(&mut m, t0, at, &idle);
    assert_eq!(presence, Presence::Absent);
    assert!(cells.iter().all(|&c| c == 0), "the live map and everything after it read the tared cells");
    // The actor's restart resumes from the snapshot…
    let snapshot = m.snapshot(at, wall_ms(t0, at));
    assert_eq!(snapshot.tare.as_ref(), Some(&stored));
    let mut r = MatMachine::restore(functional_config(), BehaviourConfig::default(), &snapshot, at, wall_ms(t0, at));
    assert_eq!(raw_frame(&mut r, t0, at + Duration::from_secs(1), &idle).0, Presence::Absent);
    // …and a hub restart from what storage kept.
    let from_storage = MatSnapshot::from_stored(
        DeviceType::MattressMatIoT,
        PatientStatus::Correct,
        StoredMatState { tare: Some(stored.clone()), ..StoredMatState::default() },
    );
    let mut h = MatMachine::restore(config(), BehaviourConfig::default(), &from_storage, at, wall_ms(t0, at));
    assert_eq!(h.tare(), Some(&stored));
    assert_eq!(raw_frame(&mut h, t0, at + Duration::from_secs(1), &idle).0, Presence::Absent);
}

#[test]
fn zeroing_the_mat_is_refused_while_someone_lies_on_it() {
    use crate::machine::tare::TareRefusal;
    let mut m = MatMachine::new(config());
    let t0 = Instant::now();
    assert_eq!(m.zero_tare(t0, T0_UNIX_MS), Err(TareRefusal::NoEmptyFrame), "no frame yet");
    let idle = idle_level();
    let lying: Vec<u8> = body().iter().zip(&idle).map(|(b, i)| b.saturating_add(*i)).collect();
    raw_frame(&mut m, t0, t0, &lying);
    assert_eq!(m.zero_tare(t0, T0_UNIX_MS), Err(TareRefusal::Occupied));
    assert!(m.tare().is_none());
    let up = t0 + Duration::from_secs(1);
    raw_frame(&mut m, t0, up, &idle);
    let tare = m.zero_tare(up, wall_ms(t0, up)).expect("the empty mat is zeroed");
    assert!(drain(&mut m).contains(&MatOutput::Tare(tare.clone())));
    assert_eq!(raw_frame(&mut m, t0, up + Duration::from_secs(1), &idle).0, Presence::Absent);
    // Back in bed: the body reads as it would without an idle level.
    let (presence, cells) = raw_frame(&mut m, t0, up + Duration::from_secs(2), &lying);
    assert_eq!(presence, Presence::Present);
    assert_eq!(cells, body());
}

#[test]
fn a_shapes_card_is_alarm_while_the_alarm_poll_would_answer_true() {
    use crate::machine::alarm::{AlarmsSnapshot, PendingAlarm};
    let t0 = Instant::now();
    let config = MatConfig { device_type: DeviceType::Shapes, functional: true, ..config() };
    let channels: Vec<u8> = [10u16, 20, 30, 40].iter().flat_map(|v| v.to_le_bytes()).collect();
    let frame = || PressureMap::new(1, 4, CellFormat::U16Le, &channels).unwrap();
    // Without an alarm: Correct once functional.
    let mut quiet = MatMachine::new(config);
    quiet.handle_frame(t0, &frame());
    drain(&mut quiet);
    assert!(quiet.status().functional);
    assert_eq!(quiet.status().card, CardStatus::Correct);
    // With an unattended alarm (what `iotCheckAlarms` answers True for): Alarm, until attended.
    let stored = StoredMatState {
        stream_ends_at_ms: None,
        alarms: AlarmsSnapshot {
            next_id: 2,
            pending: vec![PendingAlarm { id: 1, kind: AlarmKind::Missing, raised_at_ms: T0_UNIX_MS - 1_000, reason: None }],
        },
        repositioning_interval: None,
        tare: None,
    };
    let snapshot = MatSnapshot::from_stored(DeviceType::Shapes, PatientStatus::Correct, stored);
    let mut m = MatMachine::restore(config, BehaviourConfig::default(), &snapshot, t0, T0_UNIX_MS);
    m.handle_frame(t0, &frame());
    drain(&mut m);
    assert!(m.has_unattended_alarm());
    assert_eq!(m.status().card, CardStatus::Alarm);
    assert_eq!(m.attend_all_alarms(t0 + Duration::from_secs(1)), 1);
    m.handle_frame(t0 + Duration::from_secs(1), &frame());
    drain(&mut m);
    assert_eq!(m.status().card, CardStatus::Correct, "attended: the poll answers False");
}

/// A patient lying along the mat from its head end: 1.6 m (columns 2..42) by 64 cm (rows
/// 16..32), cells alternating 20 and 150 as in [`body`].
fn lying_body() -> Vec<u8> {
    let mut cells = vec![0u8; 48 * 48];
    for r in 16..32 {
        for c in 2..42 {
            cells[r * 48 + c] = if (r + c) % 2 == 0 { 20 } else { 150 };
        }
    }
    cells
}

/// Issue 23: an Ulcer Risk alarm says why, and a nurse's recorded turn answers it: the clock
/// restarts from the turn's time, the turn is logged with where the clock stood, and the alarm is
/// attended by it.
#[test]
fn a_still_patients_ulcer_alarm_has_its_reason_and_a_recorded_turn_attends_it_and_restarts_the_clock() {
    let mut m = MatMachine::new(functional_config());
    let t0 = Instant::now();
    m.set_repositioning_interval(t0, Duration::from_secs(15 * 60));
    let back = lying_body();
    let mut out = Vec::new();
    let mut now = t0;
    for step in 0..=93u64 {
        now = t0 + Duration::from_secs(step * 10);
        out.extend(run_until(&mut m, now));
        m.handle_frame(now, &map(&back));
        out.extend(drain(&mut m));
    }
    let reasons: Vec<AlarmReason> = out
        .iter()
        .filter_map(|o| match o {
            MatOutput::Alarm(AlarmOutput::Raised(Alarm { kind: AlarmKind::UlcerRisk, reason, .. })) => *reason,
            _ => None,
        })
        .collect();
    assert_eq!(reasons.len(), 1, "{out:?}");
    let reason = reasons[0];
    assert_eq!(reason.region, BodyBand::Pelvis, "the whole back was loaded from the start: the sacrum is named");
    assert_eq!((reason.loaded_seconds, reason.offload_seconds, reason.interval_seconds), (900, 900, 900));
    assert_eq!(m.status().patient_status, PatientStatus::UlcerRisk);

    // Recorded at 15:30 for a turn one minute earlier.
    let turn = m.record_turn(now, now - Duration::from_secs(60), Some(Posture::LeftLateral)).expect("a bed has the clock");
    assert_eq!((turn.tier_before, turn.position, turn.detected), (RepositioningTier::Due, Some(Posture::LeftLateral), false));
    assert_eq!(turn.loaded_for, Duration::from_secs(870));
    let out = drain(&mut m);
    assert!(matches!(out.first(), Some(MatOutput::Turn(t)) if *t == turn), "{out:?}");
    assert!(
        out.iter().any(|o| matches!(o, MatOutput::Alarm(AlarmOutput::Attended { alarm: Alarm { kind: AlarmKind::UlcerRisk, .. }, .. })))
    );
    let status = m.status();
    // Ok right after the turn: a 15 min interval is due soon only in its last quarter.
    assert_eq!(
        (status.patient_status, status.repositioning, status.unattended_alarm),
        (PatientStatus::Correct, RepositioningTier::Ok, false)
    );
    assert_eq!(m.repositioning(now).unwrap().due_in, Some(Duration::from_secs(15 * 60 - 60)));
    // Still lying still: the next alarm comes 15 min after the recorded turn, not after the recording.
    let mut later = Vec::new();
    for step in 1..=90u64 {
        let at = now + Duration::from_secs(step * 10);
        later.extend(run_until(&mut m, at).into_iter().map(|o| (at, o)));
        m.handle_frame(at, &map(&back));
        later.extend(drain(&mut m).into_iter().map(|o| (at, o)));
    }
    let raised: Vec<Instant> = later
        .iter()
        .filter(|(_, o)| matches!(o, MatOutput::Alarm(AlarmOutput::Raised(Alarm { kind: AlarmKind::UlcerRisk, .. }))))
        .map(|(at, _)| *at)
        .collect();
    assert_eq!(raised.len(), 1);
    let after_turn = raised[0] - (now - Duration::from_secs(60));
    assert!(after_turn >= Duration::from_secs(900) && after_turn <= Duration::from_secs(910), "{after_turn:?}");
    // A plate has no clock: nothing to record.
    let mut plate = MatMachine::new(MatConfig { device_type: DeviceType::PodologyIoT, ..functional_config() });
    assert_eq!(plate.record_turn(now, now, None), Err(TurnRefusal::NoRepositioningClock));
}

/// A bed is empty while nobody is on it, not while its regions carry no load: someone lying down
/// is present before their weight loads a region (the demo's bed, for 0.6 s of every lie-down),
/// and the ward board showed "Empty 1 min 6 s" over "Supine · 100%" for the 10 s until its next
/// reading.
#[test]
fn a_bed_someone_is_getting_into_is_not_empty() {
    let mut m = MatMachine::new(config());
    let t0 = Instant::now();
    let secs = |s: u64| t0 + Duration::from_secs(s);
    let (body, empty) = (body(), vec![0u8; 48 * 48]);
    // Present, yet under `LOADED_MIN` on all but one cell in six: no region is loaded.
    let mut arriving = vec![0u8; 48 * 48];
    for r in 10..30 {
        for c in 15..30 {
            arriving[r * 48 + c] = if (r * 48 + c) % 6 == 0 { 150 } else { LOADED_MIN as u8 - 1 };
        }
    }
    for s in 0..5 {
        m.handle_frame(secs(s), &map(&body));
    }
    for s in 5..10 {
        assert_eq!(m.handle_frame(secs(s), &map(&empty)), Presence::Absent);
    }
    assert_eq!(m.repositioning(secs(9)).unwrap().unloaded_for, Some(Duration::from_secs(5)), "the patient is up");
    assert_eq!(m.handle_frame(secs(10), &map(&arriving)), Presence::Present);
    let view = m.repositioning(secs(10)).unwrap();
    assert_eq!(view.unloaded_for, None, "someone is on the bed: it is not empty");
    assert!(view.due_in.is_some(), "the episode lives on: the countdown runs");
    assert_eq!(m.handle_frame(secs(11), &map(&empty)), Presence::Absent);
    assert_eq!(m.repositioning(secs(11)).unwrap().unloaded_for, Some(Duration::from_secs(7)), "up again: empty since the last load");
}
