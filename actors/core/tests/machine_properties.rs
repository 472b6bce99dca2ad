//! Property tests: random operation sequences against the machines, checking the invariants of
//! issue 4 — never two captures at once, streaming never outlives its end time, every alarm is
//! attended or still pending, no alarm for a patient who was turned in time.

use std::time::{Duration, Instant};

use mat_core::machine::alarm::{AlarmKind, AlarmMachine, AlarmOutput};
use mat_core::machine::body_regions::RegionLoads;
use mat_core::machine::capture::{CaptureKind, CaptureMachine, CaptureOrigin, CaptureOutput, CaptureRequest};
use mat_core::machine::posture::{Posture, PostureReading};
use mat_core::machine::presence::Presence;
use mat_core::machine::pressure_map::PressureMap;
use mat_core::machine::pressure_ulcer::{UlcerConfig, UlcerOutput, UlcerRiskMachine};
use mat_core::machine::status::PatientStatus;
use mat_core::machine::streaming::{StreamGate, StreamOutput, Streaming};
use mat_protocol::CellFormat;
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum CaptureOp {
    Request(u8, u32),
    Remote,
    Series(u32, u32),
    CancelSeries,
    Frame(bool),
    Patient(bool),
    Functional(bool),
    Wait(u32),
}

fn capture_op() -> impl Strategy<Value = CaptureOp> {
    prop_oneof![
        (0u8..4, prop::sample::select(vec![0u32, 15, 20, 30, 45, 60, 120])).prop_map(|(k, s)| CaptureOp::Request(k, s)),
        Just(CaptureOp::Remote),
        (1u32..30, 1u32..5).prop_map(|(p, n)| CaptureOp::Series(p, n)),
        Just(CaptureOp::CancelSeries),
        any::<bool>().prop_map(CaptureOp::Frame),
        any::<bool>().prop_map(CaptureOp::Patient),
        prop::bool::weighted(0.9).prop_map(CaptureOp::Functional),
        (1u32..40_000).prop_map(CaptureOp::Wait),
    ]
}

/// Runs every deadline up to `until`, collecting outputs.
fn capture_until(m: &mut CaptureMachine, until: Instant, out: &mut Vec<CaptureOutput>) {
    while let Some(deadline) = m.poll_timeout().filter(|d| *d <= until) {
        m.handle_timeout(deadline);
        out.extend(std::iter::from_fn(|| m.poll_output()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn never_two_captures_at_once(ops in prop::collection::vec(capture_op(), 1..120)) {
        let t0 = Instant::now();
        let mut now = t0;
        let mut m = CaptureMachine::new();
        let mut out = Vec::new();
        let body = [100u8, 120, 90, 80];
        let empty = [0u8; 4];
        for op in ops {
            match op {
                CaptureOp::Request(kind, seconds) => {
                    let kind = [CaptureKind::Static, CaptureKind::Dynamic, CaptureKind::Fitting, CaptureKind::Balance][usize::from(kind)];
                    let was_capturing = m.is_capturing();
                    let result = m.request(now, CaptureRequest { kind, seconds, origin: CaptureOrigin::User("u".into()) });
                    prop_assert!(!(was_capturing && result.is_ok()), "a second capture started");
                }
                CaptureOp::Remote => {
                    let was_capturing = m.is_capturing();
                    let result = m.remote_activation(now, "u".into());
                    prop_assert!(!(was_capturing && result.is_ok()));
                }
                CaptureOp::Series(period, n) => {
                    let _ = m.start_series(now, "u".into(), Duration::from_secs(u64::from(period)), n);
                }
                CaptureOp::CancelSeries => m.cancel_series(),
                CaptureOp::Frame(present) => {
                    let cells = if present { &body } else { &empty };
                    let map = PressureMap::new(2, 2, CellFormat::U8, cells).expect("2×2");
                    m.handle_frame(now, &map, if present { Presence::Present } else { Presence::Absent });
                }
                CaptureOp::Patient(selected) => m.set_patient(selected.then(|| "p".to_string())),
                CaptureOp::Functional(functional) => m.set_functional(functional),
                CaptureOp::Wait(ms) => {
                    now += Duration::from_millis(u64::from(ms));
                    capture_until(&mut m, now, &mut out);
                }
            }
            out.extend(std::iter::from_fn(|| m.poll_output()));
        }
        // Let everything finish: the series' remaining repetitions and every load.
        m.cancel_series();
        now += Duration::from_secs(1_000);
        capture_until(&mut m, now, &mut out);
        out.extend(std::iter::from_fn(|| m.poll_output()));
        // Announcements and loads alternate strictly: one capture at a time, each one ending.
        let mut running = false;
        for o in &out {
            match o {
                CaptureOutput::Announcement { .. } => {
                    prop_assert!(!running, "announced while another capture ran: {out:?}");
                    running = true;
                }
                CaptureOutput::Complete(_) | CaptureOutput::Failed { .. } => {
                    prop_assert!(running, "a load without a capture");
                    running = false;
                }
                _ => {}
            }
        }
        prop_assert!(!running && !m.is_capturing());
    }
}

#[derive(Debug, Clone)]
enum StreamOp {
    Start(u32, bool, bool),
    Stop,
    Wait(u32),
    Resume(i32),
}

fn stream_op() -> impl Strategy<Value = StreamOp> {
    prop_oneof![
        (prop::sample::select(vec![0u32, 10, 60, 180, 300]), prop::bool::weighted(0.8), prop::bool::weighted(0.2))
            .prop_map(|(s, f, c)| StreamOp::Start(s, f, c)),
        Just(StreamOp::Stop),
        (1u32..200_000).prop_map(StreamOp::Wait),
        (-100i32..300).prop_map(StreamOp::Resume),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn streaming_never_outlives_its_end_time(ops in prop::collection::vec(stream_op(), 1..80)) {
        let t0 = Instant::now() + Duration::from_secs(1_000);
        let mut now = t0;
        let mut m = Streaming::new();
        // What storage would hold, from the EndTime outputs alone.
        let mut stored: Option<Instant> = None;
        let mut device_streaming_until: Option<Instant> = None;
        let apply = |m: &mut Streaming, now: Instant, stored: &mut Option<Instant>, device: &mut Option<Instant>| {
            while let Some(o) = m.poll_output() {
                match o {
                    StreamOutput::EndTime(end) => *stored = end,
                    StreamOutput::Command(c) => {
                        *device = (c.seconds > 0).then(|| now + Duration::from_secs(u64::from(c.seconds)));
                    }
                }
            }
        };
        for op in ops {
            match op {
                StreamOp::Start(seconds, functional, capture_running) => {
                    let _ = m.start(now, seconds, StreamGate { functional, capture_running });
                }
                StreamOp::Stop => m.stop(),
                StreamOp::Wait(ms) => {
                    let until = now + Duration::from_millis(u64::from(ms));
                    while let Some(deadline) = m.poll_timeout().filter(|d| *d <= until) {
                        now = deadline;
                        m.handle_timeout(now);
                        apply(&mut m, now, &mut stored, &mut device_streaming_until);
                    }
                    now = until;
                }
                StreamOp::Resume(offset) => {
                    // A restart: the machine is rebuilt from what storage holds, `offset` s later.
                    now = if offset >= 0 { now + Duration::from_secs(offset as u64) } else { now };
                    m = Streaming::resume(now, stored);
                }
            }
            apply(&mut m, now, &mut stored, &mut device_streaming_until);
            // Storage mirrors the machine, the machine never runs past its end, and the device is
            // never told to stream beyond it.
            prop_assert_eq!(stored, m.ends_at());
            if let Some(end) = m.ends_at() {
                prop_assert!(end > now, "stream outlived its end time");
                prop_assert!(m.remaining_secs(now) > 0);
                if let Some(device) = device_streaming_until {
                    prop_assert!(device <= end + Duration::from_secs(1), "device streams past the end");
                }
            } else {
                prop_assert_eq!(m.remaining_secs(now), 0);
            }
        }
    }
}

#[derive(Debug, Clone)]
enum AlarmOp {
    Status(bool),
    Tier(u8),
    Attend(u64),
    AttendAll,
    Wait(u32),
}

fn alarm_op() -> impl Strategy<Value = AlarmOp> {
    prop_oneof![
        any::<bool>().prop_map(AlarmOp::Status),
        (0u8..4).prop_map(AlarmOp::Tier),
        (0u64..12).prop_map(AlarmOp::Attend),
        Just(AlarmOp::AttendAll),
        (1u32..3_600).prop_map(AlarmOp::Wait),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_alarm_is_attended_once_or_still_pending(ops in prop::collection::vec(alarm_op(), 1..100)) {
        use mat_core::machine::pressure_ulcer::RepositioningTier as T;
        let t0 = Instant::now();
        let mut now = t0;
        let mut m = AlarmMachine::new(1);
        let mut raised = Vec::new();
        let mut attended = Vec::new();
        let mut condition = [false; 2];
        let mut raised_in_condition = [0u32; 2];
        for op in ops {
            match op {
                AlarmOp::Status(missing) => {
                    if missing != condition[0] { raised_in_condition[0] = 0; }
                    condition[0] = missing;
                    m.handle_patient_status(now, if missing { PatientStatus::Missing } else { PatientStatus::Correct });
                }
                AlarmOp::Tier(t) => {
                    let tier = [T::Ok, T::DueSoon, T::Due, T::Overdue][usize::from(t)];
                    if tier.at_risk() != condition[1] { raised_in_condition[1] = 0; }
                    condition[1] = tier.at_risk();
                    m.handle_tier(now, tier);
                }
                AlarmOp::Attend(id) => { let _ = m.attend(now, mat_core::machine::alarm::AlarmId(id)); }
                AlarmOp::AttendAll => { m.attend_all(now); }
                AlarmOp::Wait(s) => now += Duration::from_secs(u64::from(s)),
            }
            while let Some(o) = m.poll_output() {
                match o {
                    AlarmOutput::Raised(a) => {
                        let k = usize::from(a.kind == AlarmKind::UlcerRisk);
                        raised_in_condition[k] += 1;
                        prop_assert!(raised_in_condition[k] <= 1, "raised twice in one episode");
                        raised.push(a);
                    }
                    AlarmOutput::Attended { alarm, attended_at, time_to_attend } => {
                        prop_assert_eq!(attended_at - alarm.raised_at, time_to_attend);
                        attended.push(alarm);
                    }
                }
            }
        }
        for a in &raised {
            let times_attended = attended.iter().filter(|x| x.id == a.id).count();
            let pending = m.pending().iter().any(|x| x.id == a.id);
            prop_assert!(times_attended + usize::from(pending) == 1, "{a:?}: attended {times_attended}×, pending {pending}");
        }
        prop_assert_eq!(m.has_unattended(), !m.pending().is_empty());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn no_alarm_for_a_patient_turned_in_time(
        stays in prop::collection::vec(5u64..=115, 1..12),
        noise_every in 7u64..90,
    ) {
        // Turned every 5–115 min (the interval is 120 min and a turn takes the 1 min confirmation
        // to count), from back to side and back, with a wrong posture reading now and then.
        const BACK: RegionLoads = RegionLoads::from_bits(0b010_010_010_010_000_000);
        const SIDE: RegionLoads = RegionLoads::from_bits(0b001_001_001_001_000_000);
        let t0 = Instant::now();
        let mut now = t0;
        let mut ulcer = UlcerRiskMachine::new(UlcerConfig::default());
        let mut alarms = AlarmMachine::new(1);
        let mut on_back = true;
        let mut sample = 0u64;
        for minutes in stays {
            let (loads, posture) = if on_back { (BACK, Posture::Supine) } else { (SIDE, Posture::LeftLateral) };
            for _ in 0..minutes * 2 {
                sample += 1;
                // An odd reading for one sample must not matter.
                let reading = if sample.is_multiple_of(noise_every) { Posture::Prone } else { posture };
                ulcer.handle_regions(now, loads, Some(PostureReading { posture: reading, confidence: 0.9 }));
                while let Some(o) = ulcer.poll_output() {
                    if let UlcerOutput::Tier(tier) = o {
                        alarms.handle_tier(now, tier);
                    }
                }
                now += Duration::from_secs(30);
            }
            on_back = !on_back;
        }
        prop_assert!(!alarms.has_unattended(), "an alarm for a patient turned in time");
        prop_assert!(!ulcer.tier().at_risk());
    }
}
