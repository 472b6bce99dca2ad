//! A simulated night against the hub's real mat machine, in simulated time: a patient lies down,
//! stays supine past the repositioning interval, is turned left, right and prone, then leaves the
//! bed. Checks the statuses, alarms and logs that come out.
//!
//! Posture is fitted on real maps (docs/posture.md) and the simulator's bodies are shaped after
//! real ones, so the model reads the simulated night as it happens: the turn at 130.4 min clears
//! the risk and the device log records supine, left, right, prone, on both grids. Turns are also
//! asserted on real recordings in `tests/real_turns.rs`.

use std::time::{Duration, Instant};

use mat_core::machine::alarm::{AlarmKind, AlarmOutput};
use mat_core::machine::device_log::{LogOutput, LogReason};
use mat_core::machine::mat::{MatConfig, MatMachine, MatOutput};
use mat_core::machine::posture::Posture;
use mat_core::machine::pressure_map::PressureMap;
use mat_core::machine::status::PatientStatus;
use mat_protocol::CellFormat;
use mat_protocol::device_type::DeviceType;
use simulator::synth::BedScript;
use simulator::{MapSynth, Scenario};

const MIN: Duration = Duration::from_secs(60);

fn night() -> BedScript {
    BedScript {
        // Shorter than the absence delay: an empty bed at the start is not a missing patient.
        empty: Duration::from_secs(20),
        lie_down: Duration::from_secs(4),
        supine: 130 * MIN,
        turn: Duration::from_secs(4),
        left_lateral: 60 * MIN,
        right_lateral: 60 * MIN,
        prone: 30 * MIN,
        leave: Duration::from_secs(4),
    }
}

/// Everything the machine said, with the scenario time it said it at.
fn run(device_type: DeviceType, rows: u16, cols: u16) -> Vec<(Duration, MatOutput)> {
    let script = night();
    let lying_until = script.script().cycle() - script.empty; // the cycle ends with the empty bed
    let mut synth = MapSynth::new(rows, cols, CellFormat::U8, Scenario::BedOccupant(script), 42);
    let mut machine = MatMachine::new(MatConfig {
        device_type,
        functional: true,
        patient_status: PatientStatus::Correct,
        absence_delay: Duration::from_secs(30),
    });
    let t0 = Instant::now();
    let mut out = Vec::new();
    let mut t = Duration::ZERO;
    // One frame every 5 s, through the night and 5 min of empty bed after it.
    while t <= lying_until + script_empty_after() {
        let now = t0 + t;
        while let Some(deadline) = machine.poll_timeout().filter(|d| *d <= now) {
            machine.handle_timeout(deadline);
            out.extend(std::iter::from_fn(|| machine.poll_output()).map(|o| (deadline - t0, o)));
        }
        // After the script's cycle the bed stays empty (the script would start again).
        let cells =
            if t < lying_until + Duration::from_secs(20) { synth.render(t) } else { vec![0; usize::from(rows) * usize::from(cols)] };
        let map = PressureMap::new(rows, cols, CellFormat::U8, &cells).expect("shape");
        machine.handle_frame(now, &map);
        out.extend(std::iter::from_fn(|| machine.poll_output()).map(|o| (t, o)));
        t += Duration::from_secs(5);
    }
    out
}

fn script_empty_after() -> Duration {
    5 * MIN
}

fn minutes(d: Duration) -> f64 {
    d.as_secs_f64() / 60.0
}

#[test]
fn a_night_in_bed_gives_one_ulcer_alarm_the_posture_log_and_one_missing_alarm() {
    for (device_type, rows, cols) in [(DeviceType::MattressMatIoT, 48, 48), (DeviceType::MattressMat, 16, 16)] {
        let out = run(device_type, rows, cols);
        let label = format!("{device_type:?} {rows}×{cols}");

        // Lying down at 20 s, supine until 130.4 min: Ulcer Risk at 120.3 min (± a sample), once.
        let raised: Vec<(Duration, AlarmKind)> = out
            .iter()
            .filter_map(|(t, o)| match o {
                MatOutput::Alarm(AlarmOutput::Raised(a)) => Some((*t, a.kind)),
                _ => None,
            })
            .collect();
        assert_eq!(
            raised.iter().map(|(_, k)| *k).collect::<Vec<_>>(),
            vec![AlarmKind::UlcerRisk, AlarmKind::Missing],
            "{label}: {raised:?}"
        );
        assert!((120.0..=121.5).contains(&minutes(raised[0].0)), "{label}: ulcer alarm at {:.1} min", minutes(raised[0].0));

        // Turned at 130.4 min: the risk clears within the turn confirmation (and a sample or two).
        let statuses: Vec<(Duration, PatientStatus)> = out
            .iter()
            .filter_map(|(t, o)| match o {
                MatOutput::Status(s) => Some((*t, s.patient_status)),
                _ => None,
            })
            .collect();
        let cleared = statuses.iter().find(|(t, s)| minutes(*t) > 122.0 && *s == PatientStatus::Correct).map(|(t, _)| minutes(*t));
        println!("{label}: risk cleared at {cleared:?} min (the turn is at 130.4 min)");
        // The turn is confirmed after the clock's 60 s hold, and dated at its start.
        assert!(cleared.is_some_and(|m| (130.4..=132.5).contains(&m)), "{label}: risk cleared at {cleared:?} min");
        // One Ulcer Risk episode (the 1 h lateral stays and the 30 min prone stay raise none).
        let episodes = statuses.windows(2).filter(|w| w[0].1 != PatientStatus::UlcerRisk && w[1].1 == PatientStatus::UlcerRisk).count();
        assert_eq!(episodes, 1, "{label}: {statuses:?}");

        // Left the bed at 280.6 min: Missing 30 s after the map empties.
        assert!((280.6..=281.8).contains(&minutes(raised[1].0)), "{label}: missing alarm at {:.1} min", minutes(raised[1].0));

        // The device log: every posture once, in order, on change; otherwise every 5 min.
        let changes: Vec<Posture> = out
            .iter()
            .filter_map(|(_, o)| match o {
                MatOutput::Log(LogOutput::Device(e)) if e.reason == LogReason::PostureChange => e.posture.map(|p| p.posture),
                _ => None,
            })
            .collect();
        println!("{label}: posture changes logged {changes:?}");
        assert_eq!(
            changes,
            vec![Posture::Supine, Posture::LeftLateral, Posture::RightLateral, Posture::Prone],
            "{label}: lying down supine, then turned left, right and prone"
        );
        let entries = out.iter().filter(|(_, o)| matches!(o, MatOutput::Log(LogOutput::Device(_)))).count();
        assert!((56..=64).contains(&entries), "{label}: {entries} device log entries for 280 min in bed");
        let presence: Vec<bool> = out
            .iter()
            .filter_map(|(_, o)| match o {
                MatOutput::Log(LogOutput::Presence { present, .. }) => Some(*present),
                _ => None,
            })
            .collect();
        assert_eq!(presence, vec![true, false], "{label}: one entrance, one exit");
    }
}
