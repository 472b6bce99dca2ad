//! Issue 23's false alarm, against the hub's real mat machine in simulated time: a nurse saw an
//! Ulcer Risk alarm while the device log showed a posture change every 50 s (Left Lateral → Right
//! Lateral → Prone → Supine). Such a patient must raise none, and a patient lying still past the
//! interval must raise one that says why (the region, how long, the rule's offloading).

use std::time::{Duration, Instant};

use mat_core::machine::alarm::{AlarmKind, AlarmOutput, AlarmReason};
use mat_core::machine::body_regions::BodyBand;
use mat_core::machine::mat::{MatConfig, MatMachine, MatOutput};
use mat_core::machine::pressure_map::PressureMap;
use mat_core::machine::status::PatientStatus;
use mat_protocol::CellFormat;
use mat_protocol::device_type::DeviceType;
use simulator::synth::BedScript;
use simulator::{MapSynth, Scenario};

const MIN: Duration = Duration::from_secs(60);
const INTERVAL: Duration = Duration::from_secs(15 * 60);

/// The Ulcer Risk alarms' reasons over `span` of `script` (one frame every 5 s), the interval 15 min.
fn ulcer_alarms(script: BedScript, span: Duration) -> Vec<(Duration, Option<AlarmReason>)> {
    let mut synth = MapSynth::new(48, 48, CellFormat::U8, Scenario::BedOccupant(script), 7);
    let mut machine = MatMachine::new(MatConfig {
        device_type: DeviceType::MattressMatIoT,
        functional: true,
        patient_status: PatientStatus::Correct,
        absence_delay: Duration::from_secs(30),
    });
    let t0 = Instant::now();
    machine.set_repositioning_interval(t0, INTERVAL);
    let mut raised = Vec::new();
    let mut keep = |t: Duration, out: MatOutput| {
        if let MatOutput::Alarm(AlarmOutput::Raised(alarm)) = out
            && alarm.kind == AlarmKind::UlcerRisk
        {
            raised.push((t, alarm.reason));
        }
    };
    let mut t = Duration::ZERO;
    while t <= span {
        let now = t0 + t;
        while let Some(deadline) = machine.poll_timeout().filter(|d| *d <= now) {
            machine.handle_timeout(deadline);
            while let Some(out) = machine.poll_output() {
                keep(deadline - t0, out);
            }
        }
        let cells = synth.render(t);
        machine.handle_frame(now, &PressureMap::new(48, 48, CellFormat::U8, &cells).expect("shape"));
        while let Some(out) = machine.poll_output() {
            keep(t, out);
        }
        t += Duration::from_secs(5);
    }
    raised
}

#[test]
fn a_posture_changed_every_fifty_seconds_raises_no_ulcer_alarm_in_an_hour() {
    // Out of bed for a second a cycle only: each posture 50 s, the turns between them 4 s.
    let script = BedScript {
        empty: Duration::from_secs(1),
        lie_down: Duration::from_secs(2),
        supine: Duration::from_secs(50),
        turn: Duration::from_secs(4),
        left_lateral: Duration::from_secs(50),
        right_lateral: Duration::from_secs(50),
        prone: Duration::from_secs(50),
        leave: Duration::from_secs(1),
    };
    let raised = ulcer_alarms(script, 60 * MIN);
    assert!(raised.is_empty(), "Ulcer Risk raised at {raised:?} for a patient turned every 50 s");
}

#[test]
fn a_patient_lying_still_past_the_interval_raises_one_ulcer_alarm_with_its_reason() {
    let script = BedScript { empty: Duration::from_secs(1), lie_down: Duration::from_secs(2), supine: 60 * MIN, ..BedScript::default() };
    let raised = ulcer_alarms(script, 25 * MIN);
    assert_eq!(raised.len(), 1, "{raised:?}");
    let (at, reason) = raised[0];
    assert!(at >= INTERVAL && at <= INTERVAL + Duration::from_secs(10), "raised at {at:?}");
    let reason = reason.expect("an Ulcer Risk alarm says why");
    assert_eq!(reason.region, BodyBand::Pelvis, "a supine patient's sacrum");
    assert!((900..=910).contains(&reason.loaded_seconds), "{reason:?}");
    assert_eq!((reason.offload_seconds, reason.interval_seconds), (900, 900));
}
