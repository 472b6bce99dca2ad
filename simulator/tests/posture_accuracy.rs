//! The hub's posture classifier on simulator ground truth: the bed script's supine, left lateral,
//! right lateral and prone phases, and a person sitting on the bed, rendered on 16×16, 24×48,
//! 48×24 and 48×48 mats at three noise levels. The model is fitted on real recordings
//! (`tests/real_posture.rs` measures it there); the simulator's bodies are drawn on a sensor shaped
//! like the real one and placed on each grid as real frames are (`simulator/src/synth/bed.rs`), so
//! the model fitted on real maps must read every one of them: each posture is asserted on every
//! grid without extra noise and with the sensor noise of the real-map test, at the floors below.
//! The heavy noise level is printed, not asserted.

use std::time::Duration;

use mat_core::machine::posture::{Orientation, Posture, PostureClassifier, PostureScheme};
use mat_core::machine::pressure_map::PressureMap;
use mat_protocol::CellFormat;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use simulator::synth::{BedPhase, BedScript, SeatScript};
use simulator::{MapSynth, Scenario, ScenarioPhase};

/// Extra sensor trouble on top of the simulator's own ±6 % gain noise, in the bed mats' 0.4 mmHg
/// steps.
#[derive(Debug, Clone, Copy)]
struct Noise {
    name: &'static str,
    /// Uniform additive noise on every cell, ± this many steps.
    additive: f32,
    /// Per-cell gain error, ± this fraction.
    gain: f32,
    /// Fraction of dead (zero) cells.
    dead: f64,
    /// Fraction of saturated cells.
    hot: f64,
}

const NOISE: [Noise; 3] = [
    Noise { name: "simulator (±6 % gain)", additive: 0.0, gain: 0.0, dead: 0.0, hot: 0.0 },
    // As `tests/real_posture.rs` degrades real maps.
    Noise { name: "+ ±3 steps, ±15 % gain, 1 % dead, 0.2 % hot", additive: 3.0, gain: 0.15, dead: 0.01, hot: 0.002 },
    Noise { name: "+ ±20 steps, ±30 % gain, 3 % dead, 1 % hot", additive: 20.0, gain: 0.30, dead: 0.03, hot: 0.01 },
];

const SIZES: [(u16, u16); 4] = [(16, 16), (24, 48), (48, 24), (48, 48)];

/// The postures measured, in the order of [`measure`]'s counts.
const POSTURES: [Posture; 5] = [Posture::Supine, Posture::LeftLateral, Posture::RightLateral, Posture::Prone, Posture::Seated];

/// Floors per posture (percent), in the order of [`POSTURES`] (Supine, Left Lateral, Right
/// Lateral, Prone, Seated): without extra noise on every grid, and with the real-map test's noise
/// on the 24×48, 48×24 and 48×48 grids (on the coarse 16×16 grid the noise costs supine and prone
/// far more: printed, not asserted). Issue 28: the prone rule reads peak levels without the hot
/// cells, so noise no longer costs the prone body 20 points (100 % measured).
const FLOOR: [f64; 5] = [98.0, 98.0, 98.0, 98.0, 98.0];
const NOISY_FLOOR: [f64; 5] = [95.0, 90.0, 90.0, 95.0, 95.0];

/// The floors of a grid and noise level, if asserted there.
fn floors(rows: u16, cols: u16, level: usize) -> Option<&'static [f64; 5]> {
    match (level, (rows, cols)) {
        (0, _) => Some(&FLOOR),
        (1, (16, 16)) => None,
        (1, _) => Some(&NOISY_FLOOR),
        _ => None,
    }
}

fn truth(phase: ScenarioPhase) -> Option<Posture> {
    match phase {
        ScenarioPhase::Bed(BedPhase::Supine) => Some(Posture::Supine),
        ScenarioPhase::Bed(BedPhase::LeftLateral) => Some(Posture::LeftLateral),
        ScenarioPhase::Bed(BedPhase::RightLateral) => Some(Posture::RightLateral),
        ScenarioPhase::Bed(BedPhase::Prone) => Some(Posture::Prone),
        _ => None,
    }
}

fn degrade(cells: &mut [u8], noise: Noise, rng: &mut SmallRng) {
    if noise.additive == 0.0 && noise.gain == 0.0 && noise.dead == 0.0 && noise.hot == 0.0 {
        return;
    }
    for cell in cells.iter_mut() {
        let roll: f64 = rng.random();
        if roll < noise.dead {
            *cell = 0;
            continue;
        }
        if roll < noise.dead + noise.hot {
            *cell = 255;
            continue;
        }
        let gain = 1.0 + noise.gain * rng.random_range(-1.0f32..=1.0);
        let add = noise.additive * rng.random_range(-1.0f32..=1.0);
        *cell = (f32::from(*cell) * gain + add).round().clamp(0.0, 255.0) as u8;
    }
}

/// Maps of a person sitting on the bed, every 900 ms of the seating script: the simulator's
/// seated person (buttocks and thighs, swaying) on a patch 30 % of the bed's length square (at
/// least 6 cells), in the middle of the bed.
fn sitting_on_the_bed(rows: u16, cols: u16, seed: u64) -> Vec<Vec<u8>> {
    let long = rows.max(cols);
    let side = (long * 3).div_ceil(10).max(6);
    let scenario = Scenario::SeatedPerson(SeatScript::default());
    let cycle = scenario.cycle();
    let mut synth = MapSynth::new(side, side, CellFormat::U8, scenario, seed);
    let (r0, c0) = (usize::from((rows - side) / 2), usize::from((cols - side) / 2));
    let mut maps = Vec::new();
    let mut t = Duration::ZERO;
    while t < cycle {
        let occupied = synth.scenario().phase(t).occupied();
        let seat = synth.render(t);
        t += Duration::from_millis(900);
        if !occupied {
            continue;
        }
        let mut cells = vec![0u8; usize::from(rows) * usize::from(cols)];
        for (i, &v) in seat.iter().enumerate() {
            let (r, c) = (i / usize::from(side), i % usize::from(side));
            cells[(r0 + r) * usize::from(cols) + c0 + c] = v;
        }
        maps.push(cells);
    }
    maps
}

/// Per posture of [`POSTURES`]: (correct, total). With `rotated`, every map is turned by 180°
/// (the mat installed head-to-foot) and the classifier is told so.
fn measure(rows: u16, cols: u16, noise: Noise, scheme: PostureScheme, rotated: bool) -> [(u32, u32); 5] {
    let mut counts = [(0u32, 0u32); 5];
    let orientation = if rotated { Orientation { head_at_far_end: true, left_at_far_side: true } } else { Orientation::default() };
    let classifier = PostureClassifier::new(scheme, orientation);
    for seed in 1..=3u64 {
        let mut rng = SmallRng::seed_from_u64(seed * 7919);
        let scenario = Scenario::BedOccupant(BedScript::default());
        let cycle = scenario.cycle();
        let mut synth = MapSynth::new(rows, cols, CellFormat::U8, scenario, seed);
        let mut maps = Vec::new();
        let mut t = Duration::ZERO;
        while t < cycle {
            let phase = synth.scenario().phase(t);
            let cells = synth.render(t);
            t += Duration::from_millis(900);
            if let Some(expected) = truth(phase) {
                maps.push((expected, cells));
            }
        }
        maps.extend(sitting_on_the_bed(rows, cols, seed).into_iter().map(|cells| (Posture::Seated, cells)));
        for (expected, mut cells) in maps {
            degrade(&mut cells, noise, &mut rng);
            if rotated {
                cells.reverse();
            }
            let map = PressureMap::new(rows, cols, CellFormat::U8, &cells).expect("shape");
            let got = classifier.classify(&map).map(|r| r.posture);
            let slot = POSTURES.iter().position(|&p| p == expected).expect("a measured posture");
            let expected = match (scheme, expected) {
                (PostureScheme::SleepMat, Posture::Supine) => Posture::Supine,
                (PostureScheme::SleepMat, _) => Posture::NoSupine,
                (_, p) => p,
            };
            counts[slot].1 += 1;
            counts[slot].0 += u32::from(got == Some(expected));
        }
    }
    counts
}

fn pct((ok, n): (u32, u32)) -> f64 {
    if n == 0 { 0.0 } else { 100.0 * f64::from(ok) / f64::from(n) }
}

#[test]
fn every_posture_of_the_simulator_is_read_on_every_grid() {
    let mut failures = Vec::new();
    println!("| mat | noise | supine | left lateral | right lateral | prone | seated |");
    println!("|---|---|---|---|---|---|---|");
    for (rows, cols) in SIZES {
        for (level, noise) in NOISE.iter().enumerate() {
            let c = measure(rows, cols, *noise, PostureScheme::Lying, false);
            let shown: Vec<String> = c.iter().map(|&x| format!("{:.0} %", pct(x))).collect();
            println!("| {rows}×{cols} | {} | {} |", noise.name, shown.join(" | "));
            let Some(floors) = floors(rows, cols, level) else { continue };
            for (k, posture) in POSTURES.iter().enumerate() {
                if pct(c[k]) < floors[k] {
                    failures.push(format!("{rows}×{cols} {}: {} {:.1} % < {}", noise.name, posture.name(), pct(c[k]), floors[k]));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn the_sleep_mat_reads_supine_and_no_supine() {
    let c = measure(24, 48, NOISE[0], PostureScheme::SleepMat, false);
    let shown: Vec<String> = POSTURES.iter().zip(c.iter()).map(|(p, &x)| format!("{} {:.1} %", p.name(), pct(x))).collect();
    println!("Sleep Mat 24×48 (supine / no supine), {}: {}", NOISE[0].name, shown.join(", "));
    for (k, posture) in POSTURES.iter().enumerate() {
        assert!(pct(c[k]) >= FLOOR[k], "sleep mat {}: {:.1} %", posture.name(), pct(c[k]));
    }
}

#[test]
fn a_mat_installed_head_to_foot_classifies_the_same_when_told() {
    for (rows, cols) in [(24, 48), (48, 48)] {
        let c = measure(rows, cols, NOISE[0], PostureScheme::Lying, true);
        let shown: Vec<String> = POSTURES.iter().zip(c.iter()).map(|(p, &x)| format!("{} {:.1} %", p.name(), pct(x))).collect();
        println!("{rows}×{cols} rotated 180°: {}", shown.join(", "));
        for (k, posture) in POSTURES.iter().enumerate() {
            assert!(pct(c[k]) >= FLOOR[k], "{rows}×{cols} rotated, {}: {:.1} %", posture.name(), pct(c[k]));
        }
    }
}
