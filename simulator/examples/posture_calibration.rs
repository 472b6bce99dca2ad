//! The posture model's accuracy and the calibration of its confidence under every augmentation of
//! `simulator::posture_augment` (other sensors' grids, gains, idle residue, noise, clipping,
//! shifts, turns), leave one subject out, and leave one sensor geometry out:
//! `cargo run -p simulator --release --example posture_calibration` (about a minute here; no
//! network). Prints the tables of docs/posture.md, "A confidence that holds"; `-- --prone` the
//! prone table (simulated prone people, real readings read Prone with certainty), `-- --inclined`
//! the inclined-bed counts and every certain side reading, `-- --time` the cost of a reading.

use mat_core::machine::posture::Posture;
use simulator::posture_augment::AUGMENTATIONS;
use simulator::posture_fit::{self, Calibration, HeldOut, Sample};
use simulator::real;

fn table(title: &str, samples: &[Sample], held: &HeldOut, calibration: Calibration, augmentations: &[usize]) {
    println!("\n{title}\n");
    println!("| augmentation | readings | right | confidence ≥ 0.9 | of them right | below 0.9 right |");
    println!("|---|---|---|---|---|---|");
    for &a in augmentations {
        let r = posture_fit::calibration_row(samples, held, calibration, |s| s.augmentation == a);
        println!("| {} | {} |", AUGMENTATIONS[a].name, r.cells());
    }
}

fn main() -> std::io::Result<()> {
    let recordings = posture_fit::load_dev_set(&real::dev_set_dir())?;
    // The cost of one reading on a 48×48 map (features and decision), optimised as the hub is.
    if std::env::args().any(|a| a == "--time") {
        use mat_core::machine::posture::{Orientation, PostureClassifier, PostureScheme};
        use mat_core::machine::pressure_map::PressureMap;
        let classifier = PostureClassifier::new(PostureScheme::Lying, Orientation::default());
        let maps: Vec<Vec<u8>> = recordings
            .iter()
            .flat_map(|r| r.frames.iter().step_by(10))
            .map(|f| posture_fit::to_cells(&real::place(f, 48, 48), 0.255))
            .collect();
        let start = std::time::Instant::now();
        let mut read = 0usize;
        for _ in 0..200 {
            for cells in &maps {
                let map = PressureMap::new(48, 48, mat_protocol::CellFormat::U8, cells).expect("48×48");
                read += usize::from(std::hint::black_box(classifier.classify(&map)).is_some());
            }
        }
        let per = start.elapsed().as_secs_f64() / (200 * maps.len()) as f64;
        println!("posture 48×48: {:.2} µs per reading, wall clock ({read} readings)", per * 1e6);
        return Ok(());
    }

    // The rule features of the simulator's still bodies and of the real recordings.
    if std::env::args().any(|a| a == "--bodies") {
        use mat_core::machine::posture::Orientation;
        use mat_core::machine::posture::features::Profiles;
        use mat_core::machine::pressure_map::PressureMap;
        use simulator::synth::{LyingPose, lying_body};
        for (rows, cols) in [(16usize, 16usize), (48, 48), (11, 30)] {
            for pose in [LyingPose::Supine, LyingPose::RightLateral, LyingPose::Prone] {
                let cells: Vec<u8> = lying_body(pose, rows, cols, 0.4).iter().map(|v| v.round().clamp(0.0, 255.0) as u8).collect();
                let map = PressureMap::new(rows as u16, cols as u16, mat_protocol::CellFormat::U8, &cells).expect("shape");
                let f = Profiles::default().extract(&map, Orientation::default()).expect("a body");
                println!(
                    "{rows}×{cols} {pose:?}: extent {:.2} knee ratio {:.2} knee level {:.2} upper load {:.2} saturation {:.3}",
                    f.extent, f.knee_ratio, f.knee_level, f.upper_load, f.saturation
                );
            }
        }
        let clean = posture_fit::samples(&recordings, None);
        for rec in real::POSTURES {
            let mut u: Vec<f32> = clean.iter().filter(|s| s.recording == rec).filter_map(|s| s.features.map(|f| f.upper_load)).collect();
            u.sort_by(f32::total_cmp);
            let q = |x: f32| u[((u.len() - 1) as f32 * x) as usize];
            println!(
                "{rec:>2} {:<26} upper load p1 {:.2} p5 {:.2} p50 {:.2} p95 {:.2}",
                real::description(rec),
                q(0.01),
                q(0.05),
                q(0.5),
                q(0.95)
            );
        }
        return Ok(());
    }

    let training = posture_fit::samples(&recordings, None);
    let shipped = Calibration::of(&mat_core::machine::posture::model::MODEL);
    let eval = posture_fit::evaluation_samples(&recordings);
    let all: Vec<usize> = (0..AUGMENTATIONS.len()).collect();

    let folds = posture_fit::leave_one_subject_out(&training);
    let held = HeldOut::new(&eval, &folds);
    table("Leave one subject out (the shipped model's calibration)", &eval, &held, shipped, &all);

    // Prone (issue 28): the simulator's prone people under every augmentation, and the real
    // supine and side-lying bodies read Prone with certainty, held out, per augmentation.
    if std::env::args().any(|a| a == "--prone") {
        let frames = posture_fit::prone_frames(posture_fit::PRONE_BODIES);
        println!("\nProne: {} simulated people × 3 grids per augmentation; real readings held out\n", frames.len());
        println!(
            "| augmentation | read prone (all grids) | certain prone 48×48 | certain No Supine 24×48 | certain prone 16×16 | real readings | real read prone with certainty |"
        );
        println!("|---|---|---|---|---|---|---|");
        let (mut total, mut certain, mut false_total, mut real_total) = ([0usize; 3], [0usize; 3], 0usize, 0usize);
        let mut rules: Vec<[f32; 4]> = Vec::new();
        for &a in &all {
            let prone = posture_fit::prone_samples(&frames, a);
            let row = posture_fit::prone_row(&prone);
            let per: Vec<_> =
                (0..3).map(|g| posture_fit::prone_row(&prone.iter().filter(|s| s.geometry == g).cloned().collect::<Vec<_>>())).collect();
            let real_n = eval.iter().filter(|s| s.augmentation == a).count();
            let false_prone = posture_fit::certain_false_prone(&eval, &held, shipped, |s| s.augmentation == a);
            let pct = |r: &posture_fit::CalibrationRow| 100.0 * r.confident_right as f64 / r.readings.max(1) as f64;
            println!(
                "| {} | {:.1} % | {:.1} % | {:.1} % | {:.1} % | {real_n} | {false_prone} |",
                AUGMENTATIONS[a].name,
                row.accuracy(),
                pct(&per[0]),
                pct(&per[1]),
                pct(&per[2]),
            );
            for g in 0..3 {
                total[g] += per[g].readings;
                certain[g] += per[g].confident_right;
            }
            false_total += false_prone;
            real_total += real_n;
            for s in &prone {
                if let Some(f) = s.features {
                    let p = mat_core::machine::posture::model::MODEL.probabilities(&f.values);
                    rules.push([f.knee_ratio, f.knee_level, f.upper_load, p[0]]);
                }
            }
        }
        let pct = |g: usize| 100.0 * certain[g] as f64 / total[g].max(1) as f64;
        println!("| all | | {:.1} % | {:.1} % | {:.1} % | {real_total} | {false_total} |", pct(0), pct(1), pct(2));
        for (k, name) in ["knee ratio", "knee level", "upper load", "p(supine)"].iter().enumerate() {
            let mut v: Vec<f32> = rules.iter().map(|r| r[k]).collect();
            v.sort_by(f32::total_cmp);
            let q = |x: f32| v[((v.len() - 1) as f32 * x) as usize];
            println!("prone {name}: p5 {:.2} p20 {:.2} p50 {:.2} p80 {:.2} p95 {:.2}", q(0.05), q(0.2), q(0.5), q(0.8), q(0.95));
        }
        // Every reading's rule features and a few of the model's (torso bands 2–5 averaged), held
        // out, for study: `--prone --dump FILE` (CSV; docs/posture.md, "Prone and inclined beds").
        if let Some(path) = std::env::args().skip_while(|a| a != "--dump").nth(1) {
            use std::io::Write;
            let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
            writeln!(
                out,
                "source,subject,recording,augmentation,geometry,gain,best,p_supine,knee_ratio,knee_level,upper_load,saturation,extent,confidence,read,length_cells,familiarity,torso_tilt,fine_tilt,torso_footprint,concentration,spread,lower_skewness,certain,raw_read,raw_confidence,coarse_read,coarse_confidence,knee_clipped,heel_clipped"
            )?;
            let mut write =
                |source: &str,
                 s: &Sample,
                 r: Option<mat_core::machine::posture::PostureReading>,
                 raw: (Option<mat_core::machine::posture::PostureReading>, Option<mat_core::machine::posture::PostureReading>),
                 model: &mat_core::machine::posture::PrototypeModel|
                 -> std::io::Result<()> {
                    let Some(f) = s.features else { return Ok(()) };
                    let p = model.probabilities(&f.values);
                    let best = (0..3).max_by(|&a, &b| p[a].total_cmp(&p[b])).unwrap_or(0);
                    writeln!(
                        out,
                        "{source},{},{},{},{},{},{best},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                        s.subject,
                        s.recording,
                        s.augmentation,
                        s.geometry,
                        s.gain,
                        p[0],
                        f.knee_ratio,
                        f.knee_level,
                        f.upper_load,
                        f.saturation,
                        f.extent,
                        r.map_or(0.0, |r| r.confidence),
                        r.map_or("nothing", |r| r.posture.name()),
                        f.length_cells,
                        mat_core::machine::posture::familiarity(model.distances(&f.values), model.familiar_distance),
                        f.values[7..11].iter().sum::<f32>() / 4.0,
                        f.values[38..46].iter().sum::<f32>() / 8.0,
                        f.values[31..35].iter().sum::<f32>() / 4.0,
                        f.values[27],
                        f.values[28],
                        f.values[26],
                        r.is_some_and(|r| r.is_certain()),
                        raw.0.map_or("nothing", |r| r.posture.name()),
                        raw.0.map_or(0.0, |r| r.confidence),
                        raw.1.map_or("nothing", |r| r.posture.name()),
                        raw.1.map_or(0.0, |r| r.confidence),
                        f.knee_clipped,
                        f.heel_clipped
                    )
                };
            for &a in &all {
                for s in posture_fit::prone_samples(&frames, a) {
                    let decider = mat_core::machine::posture::PostureClassifier::new(
                        posture_fit::GEOMETRIES[s.geometry].scheme,
                        mat_core::machine::posture::Orientation::default(),
                    );
                    let raw = (s.features.map(|f| decider.decide(&f)), s.confirming.map(|f| decider.decide(&f)));
                    write("prone", &s, posture_fit::shipped_reading(&s), raw, &mat_core::machine::posture::model::MODEL)?;
                }
            }
            for (i, s) in eval.iter().enumerate() {
                let model = posture_fit::fold_model(&folds, s.subject, shipped);
                write("real", s, held.reading(&eval, i, shipped), held.readings(&eval, i, shipped), &model)?;
            }
        }
        return Ok(());
    }

    // Inclined beds and wedges, held out: what they are read as, certain or not.
    if std::env::args().any(|a| a == "--inclined") {
        for rec in [4u8, 6, 15, 16, 17] {
            let mut counts = std::collections::BTreeMap::<(String, bool), usize>::new();
            for (i, _) in eval.iter().enumerate().filter(|(_, s)| s.recording == rec) {
                let r = held.reading(&eval, i, shipped);
                *counts
                    .entry((r.map_or("nothing".to_owned(), |r| r.posture.name().to_owned()), r.is_some_and(|r| r.is_certain())))
                    .or_default() += 1;
            }
            println!("{rec} {}: {counts:?}", real::description(rec));
        }
        // The inclined-bed readings of a side with certainty, one by one.
        for (i, s) in eval.iter().enumerate().filter(|(_, s)| (15..=17).contains(&s.recording)) {
            let Some(r) = held.reading(&eval, i, shipped) else { continue };
            if r.is_certain() && matches!(r.posture, Posture::LeftLateral | Posture::RightLateral | Posture::NoSupine) {
                let f = s.features.expect("read");
                println!(
                    "S{} rec {} frame {} {} {} gain {}: {} {:.3} extent {:.2} upper load {:.2} knee level {:.2} values {:?}",
                    s.subject,
                    s.recording,
                    s.frame,
                    AUGMENTATIONS[s.augmentation].name,
                    posture_fit::GEOMETRIES[s.geometry].name,
                    posture_fit::GAINS[s.gain],
                    r.posture.name(),
                    r.confidence,
                    f.extent,
                    f.upper_load,
                    f.knee_level,
                    f.values.map(|v| (v * 100.0).round() / 100.0)
                );
            }
        }
    }

    // The confident mistakes, by augmentation: what was read instead of what.
    if std::env::args().any(|a| a == "--mistakes") {
        let mut mistakes = std::collections::BTreeMap::<(String, String, String), usize>::new();
        for (i, s) in eval.iter().enumerate() {
            if let Some(r) = held.reading(&eval, i, shipped).filter(|r| r.is_certain() && r.posture != posture_fit::expected(s)) {
                *mistakes
                    .entry((AUGMENTATIONS[s.augmentation].name.to_owned(), s.label.name().to_owned(), r.posture.name().to_owned()))
                    .or_default() += 1;
            }
        }
        for ((aug, truth, read), n) in mistakes {
            println!("{aug}: {truth} read {read} × {n}");
        }
    }

    // Leave one geometry out: the calibration chosen without a coarse sensor (and without the
    // subject), measured on it.
    let inclined = posture_fit::inclined_samples(&recordings);
    let inclined_held = HeldOut::new(&inclined, &folds);
    for (name, left_out) in posture_fit::GEOMETRY_FOLDS {
        let mut calibrating = training.clone();
        for aug in posture_fit::CALIBRATION_AUGMENTATIONS.iter().filter(|a| !left_out.contains(a)) {
            calibrating.extend(posture_fit::augmented_samples(
                &recordings,
                simulator::posture_augment::index(aug),
                posture_fit::AUGMENTED_FRAME_STEP,
            ));
        }
        let calibration = HeldOut::new(&calibrating, &folds).calibrate(&calibrating, 0.995, (&inclined_held, &inclined));
        let tested: Vec<usize> = all.iter().copied().filter(|&a| left_out.contains(&AUGMENTATIONS[a].name)).collect();
        table(
            &format!(
                "Leave one geometry out: calibrated without {name} (temperature {:.3}, familiar distance {:.1})",
                calibration.temperature, calibration.familiar_distance
            ),
            &eval,
            &held,
            calibration,
            &tested,
        );
    }
    // Leave one device grid out: the prototypes fitted on the other two grids (and without the
    // subject), every augmentation measured on the grid left out.
    println!("\nLeave one device grid out (fitted on the other grids, the subject held out too)\n");
    println!("| grid left out | clean | sensor 30×11 | idle residue | 30×11, all of them | confidence ≥ 0.9 right (worst augmentation) |");
    println!("|---|---|---|---|---|---|");
    for (g, geometry) in posture_fit::GEOMETRIES.iter().enumerate() {
        let without: Vec<Sample> = training.iter().filter(|s| s.geometry != g).cloned().collect();
        let folds = posture_fit::leave_one_subject_out(&without);
        let held = HeldOut::new(&eval, &folds);
        let row = |name: &str| {
            let a = simulator::posture_augment::index(name);
            posture_fit::calibration_row(&eval, &held, shipped, |s| s.augmentation == a && s.geometry == g)
        };
        let worst = all
            .iter()
            .map(|&a| posture_fit::calibration_row(&eval, &held, shipped, |s| s.augmentation == a && s.geometry == g).confident_accuracy())
            .fold(100.0, f64::min);
        println!(
            "| {} | {:.1} % | {:.1} % | {:.1} % | {:.1} % | {worst:.2} % |",
            geometry.name,
            row("clean").accuracy(),
            row("sensor 30×11").accuracy(),
            row("idle residue 2 steps").accuracy(),
            row("30×11, all of them").accuracy()
        );
    }
    Ok(())
}
