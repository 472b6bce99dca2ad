//! Turns on real maps: the repositioning clock fed one real recording's frames followed by
//! another's (1 frame a second, a simulated clock), on each bed-mat grid. A turn from supine to a
//! side or onto a 30° or 60° wedge, and back, must reset the clock; a knee raised or an arm moved
//! must not. Each subject's postures are read by the model fitted without that subject.
//! `cargo test -p simulator --test real_turns -- --nocapture` prints the table of docs/posture.md.

use std::time::{Duration, Instant};

use mat_core::machine::posture::{Orientation, PostureClassifier, model::MODEL};
use mat_core::machine::pressure_map::PressureMap;
use mat_core::machine::pressure_ulcer::{TurnReason, UlcerConfig, UlcerOutput, UlcerRiskMachine};
use mat_protocol::CellFormat;
use simulator::posture_fit::{self, Calibration, GEOMETRIES};
use simulator::real::{self, Recording};

/// Gain used for the sequences (raw 0–1000 → u8, clipped): 51 mmHg full scale.
const GAIN: f32 = 0.5;
/// How long the second posture is held (its frames repeated), well past the turn confirmation.
const HOLD: Duration = Duration::from_secs(180);

/// (from, to, is a turn).
const SEQUENCES: [(u8, u8, bool); 14] = [
    (1, 2, true),
    (1, 3, true),
    (1, 4, true),
    (1, 5, true),
    (1, 6, true),
    (1, 7, true),
    (2, 1, true),
    (3, 1, true),
    (4, 1, true),
    (7, 1, true),
    (1, 10, false),
    (1, 11, false),
    (1, 12, false),
    (1, 8, false),
];

/// When the clock saw a turn, in seconds from the start of the second recording (negative:
/// during the first), and why.
fn play(first: &Recording, second: &Recording, rows: u16, cols: u16, classifier: &mut PostureClassifier) -> Vec<(i64, TurnReason)> {
    let mut clock = UlcerRiskMachine::new(UlcerConfig::default());
    let t0 = Instant::now();
    let switch = first.frames.len() as u64;
    let frames = first.frames.iter().chain(second.frames.iter().cycle().take(HOLD.as_secs() as usize));
    let mut turns = Vec::new();
    for (i, frame) in frames.enumerate() {
        let now = t0 + Duration::from_secs(i as u64);
        let cells = posture_fit::to_cells(&real::place(frame, usize::from(rows), usize::from(cols)), GAIN);
        let map = PressureMap::new(rows, cols, CellFormat::U8, &cells).expect("placed on the grid");
        clock.handle_map(now, &map, classifier.classify(&map));
        while let Some(out) = clock.poll_output() {
            if let UlcerOutput::Turned(reason) = out {
                turns.push((i as i64 - switch as i64, reason));
            }
        }
    }
    turns
}

fn describe(turns: &[(i64, TurnReason)]) -> String {
    if turns.is_empty() {
        return "no turn".to_owned();
    }
    turns
        .iter()
        .map(|(at, reason)| match reason {
            TurnReason::Posture(a, b) => format!("{} → {} at {at:+} s", a.name(), b.name()),
            TurnReason::LoadShift => format!("load shift at {at:+} s"),
            TurnReason::Manual => format!("manual at {at:+} s"),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

#[test]
fn turns_on_real_maps_reset_the_clock_and_knees_and_arms_do_not() {
    let dir = real::dev_set_dir();
    let recordings = posture_fit::load_dev_set(&dir).expect("the development set");
    let samples = posture_fit::samples(&recordings, None);
    let folds = posture_fit::leave_one_subject_out(&samples);
    let find = |subject: u8, posture: u8| recordings.iter().find(|r| r.subject == subject && r.posture == posture).expect("a recording");
    let mut wrong = Vec::new();
    let mut right = 0;
    for geometry in GEOMETRIES {
        println!("\n### {}\n", geometry.name);
        println!("| sequence | expected | S1 | S2 | S3 | S4 |");
        println!("|---|---|---|---|---|---|");
        for (from, to, is_turn) in SEQUENCES {
            let mut cells = Vec::new();
            for subject in real::DEV_SUBJECTS {
                let model = posture_fit::fold_model(&folds, subject, Calibration::of(&MODEL));
                let mut classifier = PostureClassifier::with_model(geometry.scheme, Orientation::default(), model);
                let turns = play(find(subject, from), find(subject, to), geometry.rows, geometry.cols, &mut classifier);
                // A turn must come after the change (within the hold), and only one.
                let ok = if is_turn { turns.len() == 1 && turns[0].0 >= 0 } else { turns.is_empty() };
                if ok {
                    right += 1;
                } else {
                    wrong.push(format!("{} S{subject} {from}→{to}: {}", geometry.name, describe(&turns)));
                }
                cells.push(format!("{}{}", if ok { "" } else { "✗ " }, describe(&turns)));
            }
            println!(
                "| {} → {} | {} | {} |",
                real::description(from),
                real::description(to),
                if is_turn { "turn" } else { "no turn" },
                cells.join(" | ")
            );
        }
    }
    let total = right + wrong.len();
    println!("\n{right} of {total} decisions right");
    for w in &wrong {
        println!("  ✗ {w}");
    }
    assert!(right * 100 >= total * TURN_FLOOR, "{right} of {total} turn decisions right: {wrong:#?}");
}

/// Share of right decisions asserted (percent): today's level, a little below.
const TURN_FLOOR: usize = 90;
