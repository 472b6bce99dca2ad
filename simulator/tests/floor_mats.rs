//! A person lying on a floor mat or the Wellness Mat (issue 22): the simulator draws the body in
//! millimetres of mercury and sends it in the type's documented step (`mat_protocol::scale`,
//! 1 mmHg per step), so its cells read a lying adult's pressures (a mean of tens of mmHg, bony
//! peaks of 60–100 mmHg and more) and the hub's presence check sees the person. In the old count
//! (a byte over 0–1 kPa) the same body saturated every loaded cell at 7.5 mmHg.

use std::time::Duration;

use mat_core::analysis::units::{active_floor, cell_mmhg};
use mat_core::machine::presence::{Presence, PresenceDetector, PresenceScale};
use mat_core::machine::pressure_map::PressureMap;
use mat_protocol::device_type::DeviceType;
use mat_protocol::scale::{CellStep, cell_step};
use simulator::synth::BedPhase;
use simulator::{MapSynth, ScenarioPhase, preset};

/// Figures of one lying frame, in mmHg over the active cells.
struct Lying {
    supine: bool,
    mean_mmhg: f64,
    peak_mmhg: f64,
    saturated: usize,
    presence: Presence,
}

/// The frames of the type's preset scenario while the person lies still, one every 2 s.
fn lying_frames(device: DeviceType) -> Vec<Lying> {
    let spec = preset(device.name()).expect("a preset");
    let mut synth = MapSynth::new(spec.rows, spec.cols, spec.cell_format, spec.scenario.clone(), 7).for_device_type(device);
    let cycle = spec.scenario.cycle();
    let floor = active_floor(device);
    let mut detector = PresenceDetector::with_scale(PresenceScale::for_device(device));
    let mut out = Vec::new();
    let mut t = Duration::ZERO;
    while t < cycle {
        let phase = spec.scenario.phase(t);
        let supine = matches!(phase, ScenarioPhase::Bed(BedPhase::Supine));
        let still = supine || matches!(phase, ScenarioPhase::Bed(BedPhase::LeftLateral | BedPhase::RightLateral | BedPhase::Prone));
        if still {
            let cells = synth.render(t);
            let active: Vec<u16> = cells.iter().map(|&v| u16::from(v)).filter(|&v| v >= floor).collect();
            let mean_mmhg = active.iter().map(|&v| cell_mmhg(device, v)).sum::<f64>() / active.len().max(1) as f64;
            let peak = active.iter().copied().max().unwrap_or(0);
            let map = PressureMap::new(spec.rows, spec.cols, spec.cell_format, &cells).expect("a map of the preset shape");
            out.push(Lying {
                supine,
                mean_mmhg,
                peak_mmhg: cell_mmhg(device, peak),
                saturated: cells.iter().filter(|&&v| v == u8::MAX).count(),
                presence: detector.check(&map),
            });
        }
        t += Duration::from_secs(2);
    }
    out
}

#[test]
fn a_body_lying_on_a_floor_or_wellness_mat_reads_a_lying_adults_pressures() {
    for device in [DeviceType::FloorMat, DeviceType::FloorMatRecognition, DeviceType::WellnessMat] {
        assert_eq!(cell_step(device), CellStep::Floor, "{device:?}");
        let frames = lying_frames(device);
        assert!(frames.len() >= 30, "{device:?}: {} lying frames", frames.len());
        for (i, f) in frames.iter().enumerate() {
            // A lying adult: a mean of about 10–40 mmHg over the contact…
            assert!((10.0..=40.0).contains(&f.mean_mmhg), "{device:?} frame {i}: mean {:.1} mmHg", f.mean_mmhg);
            // …peaks past the 32 mmHg of capillary closure in every posture (the old count's
            // ceiling was 7.5 mmHg)…
            assert!(f.peak_mmhg >= 40.0, "{device:?} frame {i}: peak {:.1} mmHg", f.peak_mmhg);
            // …inside the byte: nothing saturates.
            assert_eq!(f.saturated, 0, "{device:?} frame {i}: {} saturated cells", f.saturated);
            assert_eq!(f.presence, Presence::Present, "{device:?} frame {i}");
        }
        // …on the back under the sacrum and heels at 60 mmHg and more (a 1 cm² or 2 cm² cell
        // averages a bony peak over its area), on a side under the trochanter at 100 and more.
        let peak_of = |supine: bool| frames.iter().filter(|f| f.supine == supine).map(|f| f.peak_mmhg).fold(0.0, f64::max);
        assert!(peak_of(true) >= 60.0, "{device:?}: supine peak {:.1} mmHg", peak_of(true));
        assert!(peak_of(false) >= 100.0, "{device:?}: side-lying peak {:.1} mmHg", peak_of(false));
    }
}
