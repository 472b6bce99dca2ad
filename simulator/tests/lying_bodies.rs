//! The simulator's still bodies on every grid, coarse ones and mats with an idle level included,
//! as other makes of mat send them: supine, side-lying and prone bodies read as themselves
//! (issue 28). Real recordings of inclined beds and wedges are checked held out in
//! `real_posture.rs` (the simulator has no inclined-bed body: one drawn from body mechanics did
//! not match the real recordings' load shares, docs/posture.md); there is no real prone
//! recording, so prone is shown here on the simulator's body (face, chest, iliac crests, knees and
//! the tops of the feet; no heels).
//! `cargo test -p simulator --test lying_bodies -- --nocapture` prints the readings.

use mat_core::machine::posture::{Orientation, Posture, PostureClassifier, PostureReading, PostureScheme};
use mat_core::machine::pressure_map::PressureMap;
use mat_protocol::CellFormat;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use simulator::synth::{LyingPose, lying_body};

/// Grids (rows × cols): the legacy 16×16, the Sleep Mat's 24×48, the Mattress Mat IoT's 48×48, a
/// coarse 30 × 11 mat of another make lying along the columns and a 64 × 32 one (the development
/// sensor's own grid) lying along the rows.
const GRIDS: [(usize, usize); 5] = [(16, 16), (24, 48), (48, 48), (11, 30), (64, 32)];
/// Idle levels, mean steps on every cell (each cell 0.6–1.4 × the mean), as other makes send
/// them: none, and the 4 steps issue 28 measured, left whole (no tare).
const IDLE: [f32; 2] = [0.0, 4.0];
/// A bed mat's step, mmHg.
const STEP_MMHG: f32 = 0.4;

fn read(pose: LyingPose, (rows, cols): (usize, usize), idle: f32) -> Option<PostureReading> {
    let mut rng = SmallRng::seed_from_u64(28);
    let cells: Vec<u8> = lying_body(pose, rows, cols, STEP_MMHG)
        .iter()
        .map(|&v| (v + idle * rng.random_range(0.6f32..=1.4)).round().clamp(0.0, 255.0) as u8)
        .collect();
    let map = PressureMap::new(rows as u16, cols as u16, CellFormat::U8, &cells).expect("shape");
    PostureClassifier::new(PostureScheme::Lying, Orientation::default()).classify(&map)
}

#[test]
fn still_bodies_read_as_themselves_on_every_grid_and_idle_level() {
    let mut failures = Vec::new();
    for grid in GRIDS {
        for idle in IDLE {
            for (pose, expected) in [
                (LyingPose::Supine, Posture::Supine),
                (LyingPose::LeftLateral, Posture::LeftLateral),
                (LyingPose::RightLateral, Posture::RightLateral),
                (LyingPose::Prone, Posture::Prone),
            ] {
                let reading = read(pose, grid, idle);
                println!("{}×{} idle {idle}: {pose:?} → {reading:?}", grid.0, grid.1);
                if reading.map(|r| r.posture) != Some(expected) {
                    failures.push(format!("{}×{} idle {idle} {pose:?}: {reading:?}", grid.0, grid.1));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn an_idle_level_does_not_move_the_reading() {
    // The background is taken off before the features: the same body with and without 4 steps
    // on every cell reads the same posture with nearly the same confidence.
    for grid in GRIDS {
        for pose in [LyingPose::Supine, LyingPose::LeftLateral, LyingPose::RightLateral, LyingPose::Prone] {
            let (clean, idle) = (read(pose, grid, 0.0).expect("a body"), read(pose, grid, 4.0).expect("a body"));
            assert_eq!(clean.posture, idle.posture, "{grid:?} {pose:?}");
            assert!((clean.confidence - idle.confidence).abs() < 0.1, "{grid:?} {pose:?}: {clean:?} vs {idle:?}");
        }
    }
}

#[test]
fn prone_is_certain_where_the_body_is_long_enough_and_uncertain_on_16x16() {
    // Issue 28: the knee caps against the feet's end and the pelvis (posture::prone_confidence)
    // are certain on a body at least posture::PRONE_MIN_LINES cells long; the 16×16 legacy grid
    // has 15, where supine knees and heels reach the same levels: read Prone, but uncertain.
    for grid in GRIDS {
        for idle in IDLE {
            let r = read(LyingPose::Prone, grid, idle).expect("a body");
            assert_eq!(r.posture, Posture::Prone, "{grid:?} idle {idle}");
            assert_eq!(r.is_certain(), grid != (16, 16), "{grid:?} idle {idle}: {r:?}");
        }
    }
}
