//! Unit tests of the posture classifier on hand-drawn maps and hand-made models. Accuracy on real
//! recordings is measured in `simulator/tests/real_posture.rs`, on simulator ground truth in
//! `simulator/tests/posture_accuracy.rs`.

use super::features::{ANTISYMMETRIC, FEATURE_COUNT};
use super::*;
use features::{Profiles, View};
use mat_protocol::CellFormat;

const ROWS: usize = 24;
const COLS: usize = 48;

fn fill(cells: &mut [u8], rows: std::ops::Range<usize>, cols: std::ops::Range<usize>, value: u8) {
    for r in rows {
        for c in cols.clone() {
            cells[r * COLS + c] = value;
        }
    }
}

/// A body along the columns, head at column 2: a torso pressing harder on one side, and legs
/// `leg_shift` rows off its line.
fn lying(leg_shift: isize) -> Vec<u8> {
    let mut cells = vec![0u8; ROWS * COLS];
    fill(&mut cells, 6..18, 4..24, 60);
    fill(&mut cells, 6..10, 8..14, 120);
    let legs = (12 + leg_shift) as usize;
    fill(&mut cells, legs - 4..legs + 4, 24..44, 50);
    fill(&mut cells, legs - 4..legs + 4, 41..44, 110);
    cells
}

fn map(cells: &[u8]) -> PressureMap<'_> {
    PressureMap::new(ROWS as u16, COLS as u16, CellFormat::U8, cells).expect("shape")
}

fn features(cells: &[u8], orientation: Orientation) -> BodyFeatures {
    PostureClassifier::new(PostureScheme::Lying, orientation).features(&map(cells)).expect("a body")
}

fn assert_close(a: &BodyFeatures, b: &BodyFeatures, tolerance: f32) {
    for i in 0..FEATURE_COUNT {
        assert!((a.values[i] - b.values[i]).abs() <= tolerance, "feature {i}: {} vs {}", a.values[i], b.values[i]);
    }
    assert!((a.extent - b.extent).abs() <= tolerance);
}

/// A model whose `class` prototypes sit at the origin (where hand-made all-zero features fall)
/// and the others a little away.
fn always(class: usize) -> PrototypeModel {
    let mut prototypes = [[0.3; FEATURE_COUNT]; PROTOTYPES];
    for p in &mut prototypes[class * PROTOTYPES_PER_CLASS..(class + 1) * PROTOTYPES_PER_CLASS] {
        *p = [0.0; FEATURE_COUNT];
    }
    PrototypeModel {
        mean: [0.0; FEATURE_COUNT],
        scale: [1.0; FEATURE_COUNT],
        prototypes,
        temperature: 1.0,
        familiar_distance: f32::INFINITY,
    }
}

#[test]
fn a_linear_gain_leaves_the_features_unchanged() {
    let body = lying(3);
    let doubled: Vec<u8> = body.iter().map(|&v| v * 2).collect();
    assert_close(&features(&body, Orientation::default()), &features(&doubled, Orientation::default()), 1e-4);
}

#[test]
fn faint_noise_and_isolated_spikes_are_not_body() {
    let body = lying(3);
    let mut noisy = body.clone();
    for (i, v) in noisy.iter_mut().enumerate() {
        if *v == 0 {
            *v = (i % 4) as u8;
        }
    }
    noisy[2 * COLS + 46] = 255;
    // The noise lifts the background to 1 step, taken off every cell (the body's 50–120 too).
    assert_close(&features(&body, Orientation::default()), &features(&noisy, Orientation::default()), 2e-2);
}

#[test]
fn an_idle_level_on_every_cell_leaves_the_features_unchanged() {
    // Another make of mat, or a tare's residue: 4 steps on every cell, under the body too.
    let body = lying(3);
    let offset: Vec<u8> = body.iter().map(|&v| v + 4).collect();
    assert_eq!(features::background(&map(&offset)), 4);
    assert_eq!(features::background(&map(&body)), 0);
    assert_close(&features(&body, Orientation::default()), &features(&offset, Orientation::default()), 1e-4);
}

#[test]
fn a_saturated_body_is_trusted_less_and_a_clipped_one_never_read_prone() {
    // Half the body's cells clipped at one level: its peaks are gone.
    let clipped: Vec<u8> = lying(3).iter().map(|&v| v.min(55)).collect();
    let f = features(&clipped, Orientation::default());
    assert!(f.saturation > 0.4, "{}", f.saturation);
    assert!(features(&lying(3), Orientation::default()).saturation < SATURATION_OK);
    let supine_model = PostureClassifier::with_model(PostureScheme::Lying, Orientation::default(), always(0));
    let knees_hardest = BodyFeatures { saturation: 0.3, ..flat(1.6, 1.0, 0.6) };
    let reading = supine_model.decide(&knees_hardest);
    assert_eq!(reading.posture, Posture::Supine, "the prone rule compares peaks a saturating sensor flattens");
    let clean = supine_model.decide(&flat(0.6, 0.5, 0.6));
    assert!((reading.confidence - clean.confidence * SATURATION_OK / 0.3).abs() < 1e-5, "{reading:?} {clean:?}");
    assert!(!reading.is_certain());
    // Up to PRONE_SATURATION the peaks still stand out: prone, and certain.
    let prone = supine_model.decide(&BodyFeatures { saturation: PRONE_SATURATION, ..flat(1.6, 1.0, 0.6) });
    assert_eq!(prone.posture, Posture::Prone);
    assert!(prone.is_certain(), "{prone:?}");
}

#[test]
fn orientation_flags_give_the_same_features_as_the_default_mat() {
    let body = lying(3);
    // Installed head-to-foot and left-to-right: the map turned by 180°.
    let rotated: Vec<u8> = body.iter().rev().copied().collect();
    let turned = Orientation { head_at_far_end: true, left_at_far_side: true };
    assert_close(&features(&body, Orientation::default()), &features(&rotated, turned), 1e-4);
    // Mirrored across: the antisymmetric features change sign, the others stay.
    let mirrored: Vec<u8> = (0..ROWS * COLS).map(|i| body[(ROWS - 1 - i / COLS) * COLS + i % COLS]).collect();
    let (a, b) = (features(&body, Orientation::default()), features(&mirrored, Orientation::default()));
    for (i, &anti) in ANTISYMMETRIC.iter().enumerate() {
        let expected = if anti { -a.values[i] } else { a.values[i] };
        assert!((b.values[i] - expected).abs() < 1e-4, "feature {i}");
    }
    let flipped = Orientation { head_at_far_end: false, left_at_far_side: true };
    assert_close(&a, &features(&mirrored, flipped), 1e-4);
}

#[test]
fn a_compact_load_is_seated() {
    let mut cells = vec![0u8; ROWS * COLS];
    fill(&mut cells, 4..20, 16..32, 150);
    let reading = PostureClassifier::new(PostureScheme::Lying, Orientation::default()).classify(&map(&cells)).expect("a body");
    assert_eq!(reading.posture, Posture::Seated);
    assert!(reading.confidence > 0.8, "{reading:?}");
}

#[test]
fn nobody_and_scattered_spikes_give_no_posture() {
    let classifier = PostureClassifier::new(PostureScheme::Lying, Orientation::default());
    assert_eq!(classifier.classify(&map(&vec![0u8; ROWS * COLS])), None);
    let mut spikes = vec![0u8; ROWS * COLS];
    for i in (0..ROWS * COLS).step_by(37) {
        spikes[i] = 255;
    }
    assert_eq!(classifier.classify(&map(&spikes)), None, "isolated spikes are not a body");
}

fn flat(knee_ratio: f32, knee_level: f32, upper_load: f32) -> BodyFeatures {
    BodyFeatures {
        extent: 0.85,
        knee_ratio,
        knee_clipped: 0.0,
        heel_clipped: 0.0,
        knee_level,
        upper_load,
        length_cells: 40.0,
        saturation: 0.0,
        values: [0.0; FEATURE_COUNT],
    }
}

#[test]
fn a_flat_body_whose_knees_press_hardest_is_prone() {
    let supine_model = PostureClassifier::with_model(PostureScheme::Lying, Orientation::default(), always(0));
    assert_eq!(supine_model.decide(&flat(0.6, 0.5, 0.6)).posture, Posture::Supine, "heels press hardest");
    assert_eq!(supine_model.decide(&flat(1.6, 1.0, 0.6)).posture, Posture::Prone, "knees press hardest");
    // Each condition is needed: knees light against the pelvis, or the weight on the buttocks of
    // someone sitting up in an inclined bed, is supine.
    assert_eq!(supine_model.decide(&flat(1.6, 0.45, 0.6)).posture, Posture::Supine);
    assert_eq!(supine_model.decide(&flat(1.6, 1.0, 0.4)).posture, Posture::Supine);
    assert_eq!(supine_model.decide(&flat(1.1, 1.0, 0.6)).posture, Posture::Supine);
    // Knees pressing several times harder than the pelvis are no prone body (knees up, feet
    // flat: the knee band holds the soles), nor knees far harder than anything at the feet's end.
    assert_eq!(supine_model.decide(&flat(1.6, 2.0, 0.6)).posture, Posture::Supine);
    assert_eq!(supine_model.decide(&flat(5.0, 1.0, 0.6)).posture, Posture::Supine);
    // A body the model reads as lateral stays lateral.
    let left_model = PostureClassifier::with_model(PostureScheme::Lying, Orientation::default(), always(1));
    assert_eq!(left_model.decide(&flat(1.6, 1.0, 0.6)).posture, Posture::LeftLateral);
}

#[test]
fn prone_is_certain_only_well_inside_its_evidence_on_a_long_enough_body() {
    let supine_model = PostureClassifier::with_model(PostureScheme::Lying, Orientation::default(), always(0));
    let p_supine = always(0).probabilities(&[0.0; FEATURE_COUNT])[0];
    assert!(p_supine >= CONFIDENT, "{p_supine}");
    let read = |f: BodyFeatures| supine_model.decide(&f);
    // At the evidence's certain levels, certain; just past where the rule fires, not.
    let at_certain = read(flat(PRONE_KNEE_RATIO.certain, PRONE_KNEE_LEVEL.certain, 0.6));
    assert_eq!(at_certain.posture, Posture::Prone);
    assert!(at_certain.is_certain(), "{at_certain:?}");
    for weak in [flat(PRONE_KNEE_RATIO.fires * 1.01, 1.0, 0.6), flat(1.6, PRONE_KNEE_LEVEL.fires * 1.01, 0.6)] {
        let r = read(weak);
        assert_eq!(r.posture, Posture::Prone);
        assert!(!r.is_certain() && r.confidence > 0.5, "{r:?}");
    }
    // On a body too short to tell a knee cap from a heel (the 16 × 16 legacy grid), uncertain.
    let short = read(BodyFeatures { length_cells: 15.0, ..flat(1.6, 1.0, 0.6) });
    assert_eq!(short.posture, Posture::Prone);
    assert!(!short.is_certain(), "{short:?}");
    // An unfamiliar body is as uncertain read prone as read supine: a little off the supine
    // prototypes (still far nearer them than the others), beyond the familiar distance.
    let mut far = always(0);
    far.familiar_distance = 1e-3;
    let off = BodyFeatures { values: [0.01; FEATURE_COUNT], ..flat(1.6, 1.0, 0.6) };
    assert!(far.probabilities(&off.values)[0] >= CONFIDENT);
    let unfamiliar = PostureClassifier::with_model(PostureScheme::Lying, Orientation::default(), far).decide(&off);
    assert_eq!(unfamiliar.posture, Posture::Prone);
    assert!(!unfamiliar.is_certain(), "{unfamiliar:?}");
}

#[test]
fn evidence_is_half_sure_where_it_fires_and_certain_where_it_says() {
    let e = PRONE_KNEE_RATIO;
    assert!((e.confidence(e.fires) - 0.5).abs() < 1e-6);
    assert!((e.confidence(e.certain) - CONFIDENT).abs() < 1e-5);
    assert!(e.confidence(e.certain * 1.1) > CONFIDENT);
    assert!(e.fires(e.most) && !e.fires(e.most * 1.01) && !e.fires(e.fires * 0.99));
}

#[test]
fn the_sleep_mat_only_tells_supine_from_the_rest() {
    let sleep = |class: usize, f: BodyFeatures| {
        PostureClassifier::with_model(PostureScheme::SleepMat, Orientation::default(), always(class)).decide(&f)
    };
    let supine = sleep(0, flat(0.6, 0.5, 0.6));
    assert_eq!(supine.posture, Posture::Supine);
    assert_eq!(sleep(0, flat(1.6, 1.0, 0.6)).posture, Posture::NoSupine, "prone");
    let right = sleep(2, flat(0.6, 0.5, 0.6));
    assert_eq!(right.posture, Posture::NoSupine);
    // The confidence of No Supine is the probability of either side.
    let p = always(2).probabilities(&[0.0; FEATURE_COUNT]);
    assert!((right.confidence - (p[1] + p[2])).abs() < 1e-6, "{right:?} {p:?}");
}

#[test]
fn probabilities_sum_to_one_and_a_higher_temperature_is_less_sure() {
    let mut model = always(2);
    let p = model.probabilities(&[0.0; FEATURE_COUNT]);
    assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    assert!(p[2] > 0.8, "{p:?}");
    model.temperature = 4.0;
    let cooler = model.probabilities(&[0.0; FEATURE_COUNT]);
    assert!(cooler[2] < p[2] && cooler[2] > cooler[0], "{cooler:?}");
}

#[test]
fn the_fitted_model_is_finite_and_calibrated() {
    let m = &model::MODEL;
    assert!(m.temperature > 0.0);
    assert!(m.scale.iter().all(|s| s.is_finite() && *s > 0.0));
    assert!(m.prototypes.iter().flatten().chain(m.mean.iter()).all(|v| v.is_finite()));
    // The right-lateral prototypes mirror the left-lateral ones, so both sides are treated alike.
    for j in 0..PROTOTYPES_PER_CLASS {
        let (left, right) = (m.prototypes[PROTOTYPES_PER_CLASS + j], m.prototypes[2 * PROTOTYPES_PER_CLASS + j]);
        for i in 0..FEATURE_COUNT {
            let mirrored = if ANTISYMMETRIC[i] { -left[i] } else { left[i] };
            assert_eq!(right[i], mirrored, "prototype {j} feature {i}");
        }
    }
}

#[test]
fn posture_ids_are_distinct() {
    let all = [Posture::Supine, Posture::Prone, Posture::LeftLateral, Posture::RightLateral, Posture::Seated, Posture::NoSupine];
    let mut ids: Vec<u8> = all.iter().map(|p| p.id()).collect();
    ids.dedup();
    assert_eq!(ids, vec![0, 1, 2, 3, 4, 5]);
}

#[test]
fn the_extent_and_the_footprint_widths_follow_the_body_outline() {
    let index = |name: &str| (0..FEATURE_COUNT).find(|&i| features::feature_name(i) == name).expect(name);
    let strip = |rows: std::ops::Range<usize>, cols: std::ops::Range<usize>| {
        let mut cells = vec![0u8; ROWS * COLS];
        fill(&mut cells, rows, cols, 60);
        features(&cells, Orientation::default())
    };
    // The extent feature is the body's length over the map's long side: half the length, half
    // the extent (a body sitting up or curled is short).
    let (long, short) = (strip(6..18, 4..44), strip(6..18, 4..24));
    let extent = index("extent along the map");
    assert!((long.values[extent] - long.extent).abs() < 1e-6);
    assert!((short.values[extent] / long.values[extent] - 0.5).abs() < 0.05, "{} {}", short.values[extent], long.values[extent]);
    // The footprint width is the contact strip's width across: five times as broad, five times
    // the width (a back against a side), in every band.
    let (narrow, broad) = (strip(6..10, 4..44), strip(2..22, 4..44));
    for band in 1..=features::BANDS {
        let width = index(&format!("footprint width, band {band}"));
        let ratio = broad.values[width] / narrow.values[width];
        assert!((4.5..5.5).contains(&ratio), "band {band}: {ratio}");
    }
}

#[test]
fn every_classifier_shares_the_one_fitted_model() {
    let a = PostureClassifier::new(PostureScheme::Lying, Orientation::default());
    let b = PostureClassifier::new(PostureScheme::SleepMat, Orientation::default());
    assert!(std::sync::Arc::ptr_eq(&a.model, &b.model), "a mat's classifier must not carry its own 18 KiB copy");
    assert_eq!(*a.model, model::MODEL);
}

#[test]
fn a_certain_reading_must_hold_half_a_cell_further_on() {
    let certain = PostureReading { posture: Posture::RightLateral, confidence: 0.97 };
    // Read the same half a cell further on: the mean of the two, never more than its own.
    let surely = confirmed(certain, Some(PostureReading { confidence: 0.93, ..certain }));
    assert!((surely.confidence - 0.95).abs() < 1e-6 && surely.posture == certain.posture, "{surely:?}");
    assert_eq!(confirmed(certain, Some(PostureReading { confidence: 1.0, ..certain })), certain);
    let less = confirmed(certain, Some(PostureReading { confidence: 0.8, ..certain }));
    assert!(!less.is_certain() && (less.confidence - 0.885).abs() < 1e-6, "{less:?}");
    // Read otherwise, or no body there: the posture stays, just below certain.
    for other in [Some(PostureReading { posture: Posture::Supine, confidence: 0.95 }), None] {
        let r = confirmed(certain, other);
        assert_eq!(r.posture, certain.posture);
        assert_eq!(r.confidence, UNCONFIRMED, "{other:?}");
        assert!(!r.is_certain());
    }
    let unsure = PostureReading { confidence: 0.7, ..certain };
    assert_eq!(confirmed(unsure, None), unsure, "an uncertain reading is left as it is");
}

#[test]
fn the_confirming_view_moves_the_body_half_a_cell_along_it_on_wide_and_tall_maps() {
    let body = lying(3);
    let mut profiles = Profiles::default();
    let wide = map(&body);
    let plain = profiles.extract(&wide, Orientation::default()).expect("a body");
    assert_eq!(profiles.extract_view(&wide, Orientation::default(), View::default()), Some(plain));
    let half = profiles.extract_view(&wide, Orientation::default(), CONFIRMING_VIEW).expect("a body");
    // Each cell the mean of itself and the next one along: the same body, about as long.
    assert!((half.extent - plain.extent).abs() <= 1.0 / COLS as f32, "{} vs {}", half.extent, plain.extent);
    assert_ne!(half.values, plain.values, "the view is another grid's");
    // The same body on a tall map (along the rows): the view moves it along the rows, so its
    // features are the wide map's.
    let transposed: Vec<u8> = (0..ROWS * COLS).map(|i| body[(i % ROWS) * COLS + i / ROWS]).collect();
    let tall = PressureMap::new(COLS as u16, ROWS as u16, CellFormat::U8, &transposed).expect("shape");
    let tall_half = profiles.extract_view(&tall, Orientation::default(), CONFIRMING_VIEW).expect("a body");
    assert_close(&half, &tall_half, 1e-4);
}

#[test]
fn on_a_clipping_sensor_the_knees_compare_by_their_cells_at_full_scale() {
    let supine_model = PostureClassifier::with_model(PostureScheme::Lying, Orientation::default(), always(0));
    // The top sixth of the body clipped: the knee caps' level is flattened to the feet's (ratio
    // 1.05, where the rule would not fire), but the knee caps reach full scale and the feet not.
    let clipped = |knee_clipped: f32, heel_clipped: f32, saturation: f32| BodyFeatures {
        knee_clipped,
        heel_clipped,
        saturation,
        ..flat(1.05, 0.8, 0.6)
    };
    let prone = supine_model.decide(&clipped(0.15, 0.02, 0.16));
    assert_eq!(prone.posture, Posture::Prone);
    assert!(prone.is_certain(), "{prone:?}");
    assert_eq!(knee_clipped_ratio(&clipped(0.15, 0.0, 0.16)), Some(0.15 / PRONE_HEEL_CLIPPED_FLOOR), "no heel cell clips");
    // The heels clip as often as the knees (supine), too few knee cells clip, or the body does
    // not clip at all (then the levels are the knees' and the feet's own): supine.
    for (f, why) in [
        (clipped(0.15, 0.12, 0.16), "heels clip too"),
        (clipped(0.05, 0.0, 0.16), "too few knee cells clip"),
        (clipped(0.15, 0.02, SATURATION_OK), "no clipping sensor"),
    ] {
        assert_eq!(supine_model.decide(&f).posture, Posture::Supine, "{why}");
    }
    // On a body too short to tell knee caps from heels, never by clipped cells.
    let short = supine_model.decide(&BodyFeatures { length_cells: 15.0, ..clipped(0.15, 0.02, 0.16) });
    assert_eq!(short.posture, Posture::Supine, "{short:?}");
}

#[test]
fn a_body_read_flat_less_surely_can_be_certainly_prone_but_not_one_read_on_a_side() {
    assert!((PRONE_FLAT.confidence(PRONE_FLAT.certain) - CONFIDENT).abs() < 1e-5);
    // The supine prototypes at the origin, the others 0.3 away on every feature: at this
    // temperature p(supine) is 0.85 (a smaller body on a longer mat reads so).
    let mut model = always(0);
    model.temperature = 0.09 * FEATURE_COUNT as f32 / (2.0f32 / (1.0 / 0.85 - 1.0)).ln();
    let p = model.probabilities(&[0.0; FEATURE_COUNT]);
    assert!((p[0] - 0.85).abs() < 1e-3, "{p:?}");
    let classifier = PostureClassifier::with_model(PostureScheme::Lying, Orientation::default(), model.clone());
    assert!(!classifier.decide(&flat(0.6, 0.5, 0.6)).is_certain(), "supine at 0.85 is uncertain");
    let prone = classifier.decide(&flat(1.6, 1.0, 0.6));
    assert_eq!(prone.posture, Posture::Prone);
    assert!(prone.is_certain(), "the knees say prone, the model says flat: {prone:?}");
    // Read flat barely (p(supine) 0.6): prone, uncertain.
    model.temperature = 0.09 * FEATURE_COUNT as f32 / (2.0f32 / (1.0 / 0.6 - 1.0)).ln();
    let barely = PostureClassifier::with_model(PostureScheme::Lying, Orientation::default(), model).decide(&flat(1.6, 1.0, 0.6));
    assert_eq!(barely.posture, Posture::Prone);
    assert!(!barely.is_certain(), "{barely:?}");
}
