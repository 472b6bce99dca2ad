//! The heaviest domain steps of a bed's frame, timed on the load generator's own maps
//! (`FramePool::render`'s scenario, 48 × 48, 8-bit): the presence check (every frame), the
//! posture reading (once a second per mat) and the loaded body regions of the pressure-ulcer
//! clocks (once a sample interval). A benchmark, not a test (docs/performance.md):
//!
//! ```sh
//! cargo build --release -p loadtests --example domain_step_cost
//! target/release/examples/domain_step_cost
//! ```
use std::time::{Duration, Instant};

use mat_core::machine::body_regions::RegionLoads;
use mat_core::machine::posture::{Orientation, PostureClassifier, PostureScheme};
use mat_core::machine::presence::{Presence, PresenceDetector, PresenceScale};
use mat_core::machine::pressure_map::PressureMap;
use mat_protocol::device_type::DeviceType;
use simulator::{CellFormat, MapSynth};

const DEVICE_TYPE: &str = "Mattress Mat IoT";
const MAPS: u32 = 20;

fn main() {
    let device = DeviceType::from_name(DEVICE_TYPE).expect("a known device type");
    let scenario = simulator::preset(DEVICE_TYPE).expect("a preset").scenario;
    let start = (0..600u64).map(Duration::from_secs).find(|&t| scenario.phase(t).occupied()).unwrap_or_default();
    let mut synth = MapSynth::new(48, 48, CellFormat::U8, scenario, 0x10AD).for_device_type(device);
    let maps: Vec<Vec<u8>> = (0..MAPS).map(|k| synth.render(start + Duration::from_millis(100) * k)).collect();
    let map = |i: usize| PressureMap::new(48, 48, CellFormat::U8, &maps[i % maps.len()]).expect("48 × 48 cells");

    let mut detector = PresenceDetector::with_scale(PresenceScale::for_device(device));
    let per_call = time(200_000, |i| detector.check(&map(i)) == Presence::Present);
    println!("presence check: {per_call:.3} µs a frame");

    let classifier = PostureClassifier::new(PostureScheme::Lying, Orientation::default());
    let per_call = time(20_000, |i| classifier.classify(&map(i)).is_some());
    println!("posture reading: {per_call:.3} µs a reading (once a second per mat)");

    let per_call = time(200_000, |i| RegionLoads::of(&map(i)).count() > 0);
    println!("loaded body regions: {per_call:.3} µs a sample");
}

/// µs per call of `step` over `calls` calls; panics if a step said no (the maps hold a body).
fn time(calls: usize, mut step: impl FnMut(usize) -> bool) -> f64 {
    let started = Instant::now();
    let yes = (0..calls).filter(|&i| step(i)).count();
    let per_call = started.elapsed().as_secs_f64() * 1e6 / calls as f64;
    assert_eq!(yes, calls, "every map has a body on it");
    per_call
}
