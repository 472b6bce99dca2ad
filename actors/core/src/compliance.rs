//! Turn compliance (issue 23, item 4): per ward unit and shift, over the shifts of a date range,
//! the share of turns on time, the time to attend alarms (mean and 90th percentile), alarms per
//! bed-day and the minutes over the repositioning interval per patient. Pure arithmetic: the hub
//! reads the turn and alarm logs, places the shifts in the company's time zone and hands them
//! here; the page, the CSV and the PDF print what this returns. The definitions are written down
//! in docs/decisions.md, "Turn compliance".

use serde::{Deserialize, Serialize};

/// Minutes in a day.
pub const MINUTES_PER_DAY: u16 = 24 * 60;
/// The most shifts a day is divided into.
pub const MAX_SHIFTS: usize = 6;
/// The shortest shift, minutes.
pub const MIN_SHIFT_MINUTES: u16 = 60;
/// The shifts a company starts with: 07:00, 15:00 and 23:00 (early, late, night).
pub const DEFAULT_SHIFT_STARTS: [u16; 3] = [7 * 60, 15 * 60, 23 * 60];
/// The share of alarms whose time to attend is at or below the percentile figure.
pub const ATTEND_PERCENTILE: f64 = 0.9;

const MS_PER_DAY: f64 = 86_400_000.0;

/// How a day divides into shifts: each shift starts at one of `starts` (minutes after local
/// midnight, in increasing order) and ends when the next begins; the last ends at the first's
/// start the next day.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ShiftPlan {
    /// Start of each shift, minutes after local midnight (0–1439), increasing.
    pub starts: Vec<u16>,
}

impl Default for ShiftPlan {
    fn default() -> Self {
        ShiftPlan { starts: DEFAULT_SHIFT_STARTS.to_vec() }
    }
}

/// Why a shift plan was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ShiftPlanError {
    #[error("between 1 and 6 shifts")]
    Count,
    #[error("a shift starts between 00:00 and 23:59")]
    OutOfDay,
    #[error("shifts start in increasing order, at least 60 minutes apart")]
    TooShort,
}

impl ShiftPlan {
    /// Checks the count, the range and that every shift lasts at least [`MIN_SHIFT_MINUTES`].
    pub fn check(&self) -> Result<(), ShiftPlanError> {
        if self.starts.is_empty() || self.starts.len() > MAX_SHIFTS {
            return Err(ShiftPlanError::Count);
        }
        if self.starts.iter().any(|&s| s >= MINUTES_PER_DAY) {
            return Err(ShiftPlanError::OutOfDay);
        }
        if (0..self.starts.len()).any(|i| self.length_minutes(i) < MIN_SHIFT_MINUTES) {
            return Err(ShiftPlanError::TooShort);
        }
        Ok(())
    }

    /// How long shift `index` lasts, minutes (a single shift lasts the whole day). A plan out of
    /// order gives a shift of 0 minutes, which [`ShiftPlan::check`] refuses.
    pub fn length_minutes(&self, index: usize) -> u16 {
        let start = self.starts[index];
        match self.starts.get(index + 1) {
            Some(&next) => next.saturating_sub(start),
            None if self.starts.len() == 1 => MINUTES_PER_DAY,
            None => (MINUTES_PER_DAY - start) + self.starts[0],
        }
    }

    /// `07:00–15:00`: the shift's start and end on the local clock.
    pub fn label(&self, index: usize) -> String {
        let start = self.starts[index];
        let end = (start + self.length_minutes(index)) % MINUTES_PER_DAY;
        format!("{}–{}", clock(start), clock(end))
    }
}

fn clock(minutes: u16) -> String {
    format!("{:02}:{:02}", minutes / 60, minutes % 60)
}

/// One occurrence of a shift: shift `shift` of the plan from `start_ms` to `end_ms` (Unix ms).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShiftWindow {
    pub shift: usize,
    pub start_ms: i64,
    pub end_ms: i64,
}

/// Between a unit's building and floor in its key, as the ward board writes it
/// (`client/src/features/ward/unit.ts`).
pub const UNIT_SEPARATOR: &str = " · ";

/// A unit's key: "building · floor" (each trimmed), '' when neither is set (the ward board's rule).
pub fn unit_key(building: &str, floor: &str) -> String {
    let (building, floor) = (building.trim(), floor.trim());
    if building.is_empty() && floor.is_empty() { String::new() } else { format!("{building}{UNIT_SEPARATOR}{floor}") }
}

/// The building and the floor of a unit's key (both '' for the unit of devices with neither).
pub fn unit_parts(key: &str) -> (&str, &str) {
    key.split_once(UNIT_SEPARATOR).unwrap_or((key, ""))
}

/// A unit and how many beds it has (the tiles of its board).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitBeds {
    pub unit: String,
    pub beds: u32,
}

/// A turn of the turn log: recorded by a nurse or detected by the clock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnFact {
    pub unit: String,
    /// Who was turned: the patient's id, or the device's when no patient was assigned.
    pub patient: String,
    /// When the patient was turned, Unix ms.
    pub at_ms: i64,
    /// How long the longest load had lasted at the turn, ms.
    pub loaded_ms: i64,
    /// The repositioning interval then, ms.
    pub interval_ms: i64,
}

impl TurnFact {
    /// On time: the turn came before the interval elapsed, i.e. while the clock still stood at
    /// `ok` or `dueSoon` (the clock is `due` from the moment the load reaches the interval).
    pub fn on_time(&self) -> bool {
        self.loaded_ms < self.interval_ms
    }

    /// Minutes the load had lasted beyond the interval (0 for a turn on time).
    pub fn minutes_over(&self) -> f64 {
        (self.loaded_ms - self.interval_ms).max(0) as f64 / 60_000.0
    }
}

/// An alarm of the alarm log (any kind).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AlarmFact {
    pub unit: String,
    /// When it was raised, Unix ms.
    pub raised_ms: i64,
    /// When someone attended it, Unix ms; `None` while it waits.
    pub attended_ms: Option<i64>,
}

/// Everything the figures are computed from.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ComplianceInput {
    pub plan: ShiftPlan,
    /// Every shift of the range, in order.
    pub windows: Vec<ShiftWindow>,
    /// The units to report, in the order to print them.
    pub units: Vec<UnitBeds>,
    pub turns: Vec<TurnFact>,
    pub alarms: Vec<AlarmFact>,
}

/// The figures of one unit in one shift, over every occurrence of that shift in the range.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ComplianceRow {
    /// The unit: "building · floor", as the ward board keys it ('' for devices with neither).
    pub unit: String,
    /// The unit's building ([`unit_parts`] of `unit`): the page and the PDF label the unit with
    /// it and `floor` in the reader's language ("Main · floor 1"), never with the key.
    pub building: String,
    /// The unit's floor.
    pub floor: String,
    /// The shift's index in the company's plan.
    pub shift: u32,
    /// The shift on the local clock, `07:00–15:00`.
    pub shift_label: String,
    /// Beds of the unit.
    pub beds: u32,
    /// Turns (recorded or detected) in these shifts.
    pub turns: u32,
    /// Of which before the interval elapsed.
    pub turns_on_time: u32,
    /// `turns_on_time / turns`, 0–1; `null` without turns.
    pub on_time_share: Option<f64>,
    /// Alarms raised in these shifts.
    pub alarms: u32,
    /// Of which attended.
    pub alarms_attended: u32,
    /// Mean time from an alarm to its attendance, seconds (attended alarms only).
    pub attend_mean_seconds: Option<f64>,
    /// 90th percentile (nearest rank) of the time to attend, seconds.
    pub attend_p90_seconds: Option<f64>,
    /// Beds × the shifts' hours ÷ 24.
    pub bed_days: f64,
    /// `alarms / bed_days`; `null` when the unit had no bed-days.
    pub alarms_per_bed_day: Option<f64>,
    /// Patients turned in these shifts.
    pub patients: u32,
    /// Minutes the loads lasted beyond the interval, summed over the turns, per patient turned;
    /// `null` without turns.
    pub minutes_over_per_patient: Option<f64>,
}

/// The shift a moment falls in, if any of the windows holds it (a window includes its start,
/// not its end).
fn window_of(windows: &[ShiftWindow], at_ms: i64) -> Option<usize> {
    windows.iter().find(|w| w.start_ms <= at_ms && at_ms < w.end_ms).map(|w| w.shift)
}

/// The mean of `values`, `None` when empty.
pub fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// The nearest-rank percentile `p` (0–1) of `values`: the smallest value that at least a share
/// `p` of the values do not exceed; `None` when empty.
pub fn percentile(values: &[f64], p: f64) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let rank = (p * sorted.len() as f64).ceil().max(1.0) as usize;
    Some(sorted[rank.min(sorted.len()) - 1])
}

/// One row per unit and shift, units in the input's order, shifts in the plan's.
pub fn compliance(input: &ComplianceInput) -> Vec<ComplianceRow> {
    let shifts = input.plan.starts.len();
    let mut rows = Vec::with_capacity(input.units.len() * shifts);
    for unit in &input.units {
        for shift in 0..shifts {
            let in_shift = |unit_name: &str, at_ms: i64| unit_name == unit.unit && window_of(&input.windows, at_ms) == Some(shift);
            let turns: Vec<&TurnFact> = input.turns.iter().filter(|t| in_shift(&t.unit, t.at_ms)).collect();
            let alarms: Vec<&AlarmFact> = input.alarms.iter().filter(|a| in_shift(&a.unit, a.raised_ms)).collect();
            let on_time = turns.iter().filter(|t| t.on_time()).count();
            let attend: Vec<f64> =
                alarms.iter().filter_map(|a| a.attended_ms.map(|at| (at - a.raised_ms).max(0) as f64 / 1000.0)).collect();
            let shift_ms: i64 = input.windows.iter().filter(|w| w.shift == shift).map(|w| (w.end_ms - w.start_ms).max(0)).sum();
            let bed_days = f64::from(unit.beds) * shift_ms as f64 / MS_PER_DAY;
            let mut patients: Vec<&str> = turns.iter().map(|t| t.patient.as_str()).collect();
            patients.sort_unstable();
            patients.dedup();
            let minutes_over: f64 = turns.iter().map(|t| t.minutes_over()).sum();
            let (building, floor) = unit_parts(&unit.unit);
            rows.push(ComplianceRow {
                unit: unit.unit.clone(),
                building: building.to_owned(),
                floor: floor.to_owned(),
                shift: shift as u32,
                shift_label: input.plan.label(shift),
                beds: unit.beds,
                turns: turns.len() as u32,
                turns_on_time: on_time as u32,
                on_time_share: (!turns.is_empty()).then(|| on_time as f64 / turns.len() as f64),
                alarms: alarms.len() as u32,
                alarms_attended: attend.len() as u32,
                attend_mean_seconds: mean(&attend),
                attend_p90_seconds: percentile(&attend, ATTEND_PERCENTILE),
                bed_days,
                alarms_per_bed_day: (bed_days > 0.0).then(|| alarms.len() as f64 / bed_days),
                patients: patients.len() as u32,
                minutes_over_per_patient: (!patients.is_empty()).then(|| minutes_over / patients.len() as f64),
            });
        }
    }
    rows
}

#[cfg(test)]
mod tests;
