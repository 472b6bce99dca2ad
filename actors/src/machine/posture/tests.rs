//! Unit tests of the posture classifier on hand-drawn maps. Accuracy on simulator ground truth is
//! measured in `simulator/tests/posture_accuracy.rs`.

use super::*;

const ROWS: usize = 24;
const COLS: usize = 48;

fn fill(cells: &mut [u8], rows: std::ops::Range<usize>, cols: std::ops::Range<usize>, value: u8) {
    for r in rows {
        for c in cols.clone() {
            cells[r * COLS + c] = value;
        }
    }
}

/// A body along the columns, head at column 2: a torso, and legs `leg_shift` rows off its line.
fn lying(torso_half_width: usize, leg_shift: isize, knees: u8, heels: u8) -> Vec<u8> {
    let mut cells = vec![0u8; ROWS * COLS];
    let mid = ROWS / 2;
    fill(&mut cells, mid - torso_half_width..mid + torso_half_width, 4..24, 120);
    let legs = (mid as isize + leg_shift) as usize;
    fill(&mut cells, legs - 4..legs + 4, 24..44, 80);
    fill(&mut cells, legs - 4..legs + 4, 32..36, knees);
    fill(&mut cells, legs - 4..legs + 4, 41..44, heels);
    cells
}

fn classify(cells: &[u8], scheme: PostureScheme, orientation: Orientation) -> Option<PostureReading> {
    let map = PressureMap::new(ROWS as u16, COLS as u16, CellFormat::U8, cells).expect("shape");
    PostureClassifier::new(scheme, orientation).classify(&map)
}

fn lying_posture(cells: &[u8]) -> Option<Posture> {
    classify(cells, PostureScheme::Lying, Orientation::default()).map(|r| r.posture)
}

#[test]
fn flat_bodies_split_on_where_the_legs_press_hardest() {
    assert_eq!(lying_posture(&lying(6, 0, 80, 200)), Some(Posture::Supine), "heels press hardest");
    assert_eq!(lying_posture(&lying(6, 0, 200, 80)), Some(Posture::Prone), "knees press hardest");
}

#[test]
fn legs_bent_to_one_side_mean_lying_on_that_side() {
    assert_eq!(lying_posture(&lying(3, -4, 80, 150)), Some(Posture::LeftLateral));
    assert_eq!(lying_posture(&lying(3, 4, 80, 150)), Some(Posture::RightLateral));
}

#[test]
fn orientation_flags_mirror_the_decision() {
    let left = lying(3, -4, 80, 150);
    let mirrored = Orientation { head_at_far_end: false, left_at_far_side: true };
    assert_eq!(classify(&left, PostureScheme::Lying, mirrored).map(|r| r.posture), Some(Posture::RightLateral));
    // The same body with the head at the far end: rotate the map by 180°.
    let rotated: Vec<u8> = left.iter().rev().copied().collect();
    let head_far = Orientation { head_at_far_end: true, left_at_far_side: true };
    assert_eq!(classify(&rotated, PostureScheme::Lying, head_far).map(|r| r.posture), Some(Posture::LeftLateral));
    let supine: Vec<u8> = lying(6, 0, 80, 200).iter().rev().copied().collect();
    assert_eq!(classify(&supine, PostureScheme::Lying, head_far).map(|r| r.posture), Some(Posture::Supine));
}

#[test]
fn a_compact_load_is_seated() {
    let mut cells = vec![0u8; ROWS * COLS];
    fill(&mut cells, 4..20, 16..32, 150);
    let reading = classify(&cells, PostureScheme::Lying, Orientation::default()).expect("a body");
    assert_eq!(reading.posture, Posture::Seated);
    assert!(reading.confidence > 0.8, "{reading:?}");
}

#[test]
fn nobody_and_scattered_spikes_give_no_posture() {
    assert_eq!(lying_posture(&vec![0u8; ROWS * COLS]), None);
    let mut spikes = vec![3u8; ROWS * COLS];
    for i in (0..ROWS * COLS).step_by(37) {
        spikes[i] = 255;
    }
    assert_eq!(lying_posture(&spikes), None, "isolated spikes are not a body");
}

#[test]
fn the_sleep_mat_only_tells_supine_from_the_rest() {
    let sleep = |cells: &[u8]| classify(cells, PostureScheme::SleepMat, Orientation::default()).map(|r| r.posture);
    assert_eq!(sleep(&lying(6, 0, 80, 200)), Some(Posture::Supine));
    assert_eq!(sleep(&lying(6, 0, 200, 80)), Some(Posture::NoSupine));
    assert_eq!(sleep(&lying(3, 4, 80, 150)), Some(Posture::NoSupine));
}

#[test]
fn confidence_grows_with_the_margin() {
    let classifier = PostureClassifier::new(PostureScheme::Lying, Orientation::default());
    let base = PostureFeatures { extent: 0.85, torso_spread: 0.07, leg_offset: 0.0, knee_ratio: 0.6, spread_ratio: 1.1 };
    let clear = classifier.decide(&base);
    let unsure = classifier.decide(&PostureFeatures { knee_ratio: 0.95, ..base });
    assert_eq!((clear.posture, unsure.posture), (Posture::Supine, Posture::Supine));
    assert!(clear.confidence > unsure.confidence && unsure.confidence >= 0.5, "{clear:?} {unsure:?}");
    assert!(clear.confidence <= 1.0);
}

#[test]
fn posture_ids_are_distinct() {
    let all = [Posture::Supine, Posture::Prone, Posture::LeftLateral, Posture::RightLateral, Posture::Seated, Posture::NoSupine];
    let mut ids: Vec<u8> = all.iter().map(|p| p.id()).collect();
    ids.dedup();
    assert_eq!(ids, vec![0, 1, 2, 3, 4, 5]);
}
