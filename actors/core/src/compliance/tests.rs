//! The arithmetic on a hand-made day whose answers are counted by hand.

use super::*;

const MIN: i64 = 60_000;
const HOUR: i64 = 60 * MIN;
/// 2026-11-27 00:00 UTC.
const DAY: i64 = 1_795_737_600_000;
const NORTH: &str = "North · 2";
const SOUTH: &str = "South · 1";

fn windows() -> Vec<ShiftWindow> {
    vec![
        ShiftWindow { shift: 0, start_ms: DAY + 7 * HOUR, end_ms: DAY + 15 * HOUR },
        ShiftWindow { shift: 1, start_ms: DAY + 15 * HOUR, end_ms: DAY + 23 * HOUR },
        ShiftWindow { shift: 2, start_ms: DAY + 23 * HOUR, end_ms: DAY + 31 * HOUR },
    ]
}

fn turn(unit: &str, patient: &str, at_ms: i64, loaded_min: i64) -> TurnFact {
    TurnFact { unit: unit.into(), patient: patient.into(), at_ms, loaded_ms: loaded_min * MIN, interval_ms: 120 * MIN }
}

fn alarm(unit: &str, raised_ms: i64, attended_after_s: Option<i64>) -> AlarmFact {
    AlarmFact { unit: unit.into(), raised_ms, attended_ms: attended_after_s.map(|s| raised_ms + s * 1000) }
}

fn hand_made_day() -> ComplianceInput {
    let early = DAY + 7 * HOUR;
    ComplianceInput {
        plan: ShiftPlan::default(),
        windows: windows(),
        units: vec![UnitBeds { unit: NORTH.into(), beds: 4 }, UnitBeds { unit: SOUTH.into(), beds: 2 }],
        turns: vec![
            // The early shift on North: five turns of four patients, two on time.
            turn(NORTH, "A", early + HOUR, 100),
            turn(NORTH, "A", early + 3 * HOUR, 150),
            turn(NORTH, "B", early + 2 * HOUR, 130),
            // Exactly at the interval: the clock is already `due`, so late, by 0 minutes.
            turn(NORTH, "C", early + 4 * HOUR, 120),
            turn(NORTH, "D", early, 60),
            // 15:00 sharp belongs to the late shift.
            turn(NORTH, "A", DAY + 15 * HOUR, 200),
            // Another unit's turn in the same shift.
            turn(SOUTH, "E", early + HOUR, 500),
            // Before the first shift of the range: in none.
            turn(NORTH, "A", DAY + 6 * HOUR, 500),
        ],
        alarms: vec![
            alarm(NORTH, early + HOUR, Some(60)),
            alarm(NORTH, early + 2 * HOUR, Some(120)),
            alarm(NORTH, early + 3 * HOUR, Some(600)),
            alarm(NORTH, early + 4 * HOUR, None),
            alarm(SOUTH, DAY + 23 * HOUR + 30 * MIN, Some(30)),
        ],
    }
}

#[test]
fn the_early_shift_of_the_hand_made_day_has_the_counted_answers() {
    let rows = compliance(&hand_made_day());
    assert_eq!(rows.len(), 6, "two units × three shifts");
    let early = &rows[0];
    assert_eq!((early.unit.as_str(), early.shift, early.shift_label.as_str()), (NORTH, 0, "07:00–15:00"));
    assert_eq!((early.turns, early.turns_on_time), (5, 2));
    assert_eq!(early.on_time_share, Some(0.4));
    assert_eq!((early.alarms, early.alarms_attended), (4, 3));
    assert_eq!(early.attend_mean_seconds, Some(260.0), "(60 + 120 + 600) / 3; the unattended alarm has no time");
    assert_eq!(early.attend_p90_seconds, Some(600.0), "nearest rank ⌈0.9 × 3⌉ = 3rd");
    assert!((early.bed_days - 4.0 / 3.0).abs() < 1e-12, "4 beds × 8 h / 24 h: {}", early.bed_days);
    assert!((early.alarms_per_bed_day.unwrap() - 3.0).abs() < 1e-12);
    assert_eq!(early.patients, 4);
    assert_eq!(early.minutes_over_per_patient, Some(10.0), "(30 + 10 + 0) minutes over / 4 patients");
}

#[test]
fn a_turn_on_a_shift_boundary_and_other_units_fall_where_they_belong() {
    let rows = compliance(&hand_made_day());
    let late = &rows[1];
    assert_eq!((late.shift_label.as_str(), late.turns, late.turns_on_time), ("15:00–23:00", 1, 0));
    assert_eq!(late.minutes_over_per_patient, Some(80.0));
    assert_eq!((late.alarms, late.attend_mean_seconds, late.alarms_per_bed_day), (0, None, Some(0.0)));
    let north_night = &rows[2];
    assert_eq!((north_night.shift_label.as_str(), north_night.turns, north_night.on_time_share), ("23:00–07:00", 0, None));
    assert_eq!(north_night.minutes_over_per_patient, None, "no turn, no figure");
    let south_early = &rows[3];
    assert_eq!((south_early.unit.as_str(), south_early.turns, south_early.on_time_share), (SOUTH, 1, Some(0.0)));
    assert_eq!(south_early.minutes_over_per_patient, Some(380.0));
    let south_night = &rows[5];
    assert_eq!((south_night.alarms, south_night.attend_p90_seconds), (1, Some(30.0)), "23:30 is the night shift");
    assert!((south_night.alarms_per_bed_day.unwrap() - 1.5).abs() < 1e-12, "1 alarm / (2 beds × 8 h / 24 h)");
}

#[test]
fn bed_days_add_up_over_every_occurrence_of_a_shift() {
    let mut input = hand_made_day();
    let next_day: Vec<ShiftWindow> =
        windows().into_iter().map(|w| ShiftWindow { start_ms: w.start_ms + 24 * HOUR, end_ms: w.end_ms + 24 * HOUR, ..w }).collect();
    input.windows.extend(next_day);
    input.turns.push(turn(NORTH, "A", DAY + 24 * HOUR + 8 * HOUR, 30));
    let early = &compliance(&input)[0];
    assert!((early.bed_days - 8.0 / 3.0).abs() < 1e-12, "4 beds × 2 × 8 h / 24 h");
    assert_eq!((early.turns, early.turns_on_time, early.patients), (6, 3, 4));
}

#[test]
fn the_percentile_is_the_nearest_rank() {
    let ten: Vec<f64> = (1..=10).map(f64::from).collect();
    assert_eq!(percentile(&ten, 0.9), Some(9.0));
    let twenty: Vec<f64> = (1..=20).rev().map(f64::from).collect();
    assert_eq!(percentile(&twenty, 0.9), Some(18.0), "order of the input does not matter");
    assert_eq!(percentile(&[42.0], 0.9), Some(42.0));
    assert_eq!(percentile(&[], 0.9), None);
    assert_eq!(mean(&[1.0, 2.0, 6.0]), Some(3.0));
}

#[test]
fn shift_plans_are_checked_and_labelled() {
    let plan = ShiftPlan::default();
    assert_eq!(plan.check(), Ok(()));
    assert_eq!((0..3).map(|i| plan.label(i)).collect::<Vec<_>>(), ["07:00–15:00", "15:00–23:00", "23:00–07:00"]);
    assert_eq!(ShiftPlan { starts: vec![480] }.label(0), "08:00–08:00");
    assert_eq!(ShiftPlan { starts: vec![480] }.length_minutes(0), 1440);
    assert_eq!(ShiftPlan { starts: vec![] }.check(), Err(ShiftPlanError::Count));
    assert_eq!(ShiftPlan { starts: vec![0, 240, 480, 720, 960, 1200, 1300] }.check(), Err(ShiftPlanError::Count));
    assert_eq!(ShiftPlan { starts: vec![420, 1440] }.check(), Err(ShiftPlanError::OutOfDay));
    assert_eq!(ShiftPlan { starts: vec![900, 420] }.check(), Err(ShiftPlanError::TooShort), "out of order");
    assert_eq!(ShiftPlan { starts: vec![420, 450] }.check(), Err(ShiftPlanError::TooShort));
    assert_eq!(ShiftPlan { starts: vec![30, 1420] }.check(), Err(ShiftPlanError::TooShort), "23:40 to 00:30 is 50 minutes");
    assert_eq!(ShiftPlan { starts: vec![30, 1410] }.check(), Ok(()), "23:30 to 00:30 is an hour");
}

#[test]
fn a_unit_is_building_and_floor_as_the_client_writes_it() {
    assert_eq!(unit_key(" North ", "2"), "North · 2");
    assert_eq!(unit_key("North", ""), "North · ");
    assert_eq!(unit_key("", "3"), " · 3");
    assert_eq!(unit_key(" ", ""), "");
    assert_eq!(unit_parts("North · 2"), ("North", "2"));
}
