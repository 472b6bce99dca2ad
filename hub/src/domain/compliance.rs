//! Turn compliance (issue 23, item 4): reads a company's turn and alarm logs for the shifts of a
//! date range, places the shifts in the company's time zone and hands everything to the pure
//! arithmetic of `mat_core::compliance`. The shift settings (each shift's start and the time
//! zone) are the company's, set by its administrators (docs/decisions.md, "Turn compliance").

use std::collections::{BTreeMap, HashMap};

use jiff::civil::Date;
use jiff::tz::TimeZone;
use mat_core::compliance::{AlarmFact, ComplianceInput, ComplianceRow, ShiftPlan, ShiftWindow, TurnFact, UnitBeds, compliance, unit_key};
use mat_protocol::device_type::DeviceType;
use storage::CompanyStore;
use storage::model::{Device, NewAuditEntry};
use storage::repo::ShiftSettings;

use super::error::DomainError;

fn invalid(key: &'static str, message: impl Into<String>) -> DomainError {
    DomainError::Invalid(mat_api::Invalid::new(key, message))
}

/// The longest date range one report covers, days.
pub const MAX_RANGE_DAYS: i32 = 92;
/// The time zone of a company whose administrators have not chosen one.
pub const DEFAULT_TIME_ZONE: &str = "UTC";

/// A company's shifts and the zone their clock times are in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShiftSetup {
    pub plan: ShiftPlan,
    /// An IANA zone name.
    pub time_zone: String,
}

impl Default for ShiftSetup {
    fn default() -> Self {
        ShiftSetup { plan: ShiftPlan::default(), time_zone: DEFAULT_TIME_ZONE.to_owned() }
    }
}

/// The figures of a date range, and what they were computed with.
#[derive(Debug, Clone, PartialEq)]
pub struct ComplianceReport {
    pub from: Date,
    pub to: Date,
    pub setup: ShiftSetup,
    pub rows: Vec<ComplianceRow>,
}

/// The zone named `name` from the bundled IANA database.
pub fn time_zone(name: &str) -> Option<TimeZone> {
    jiff::tz::db().get(name).ok()
}

/// The stored settings, each part that is missing or no longer valid read as its default.
fn setup_of(stored: ShiftSettings) -> ShiftSetup {
    let plan = stored
        .shift_starts
        .and_then(|starts| starts.into_iter().map(|s| u16::try_from(s).ok()).collect::<Option<Vec<u16>>>())
        .map(|starts| ShiftPlan { starts })
        .filter(|plan| plan.check().is_ok())
        .unwrap_or_default();
    let time_zone = stored.time_zone.filter(|zone| time_zone(zone).is_some()).unwrap_or_else(|| DEFAULT_TIME_ZONE.to_owned());
    ShiftSetup { plan, time_zone }
}

/// Why shift settings were refused.
pub fn check_setup(setup: &ShiftSetup) -> Result<(), DomainError> {
    setup.plan.check().map_err(|e| invalid("invalidShifts", e.to_string()))?;
    if time_zone(&setup.time_zone).is_none() {
        return Err(invalid("invalidTimeZone", format!("{:?} is not an IANA time zone", setup.time_zone)));
    }
    Ok(())
}

/// The company's shift settings.
pub async fn shift_setup(store: CompanyStore<'_>) -> Result<ShiftSetup, DomainError> {
    let stored = store.compliance().shift_settings().await.map_err(DomainError::store("company", "duplicateCompany"))?;
    Ok(setup_of(stored))
}

/// Sets the company's shift settings (checked) with `audit`, in one transaction.
pub async fn set_shift_setup(store: CompanyStore<'_>, setup: &ShiftSetup, audit: &NewAuditEntry) -> Result<(), DomainError> {
    check_setup(setup)?;
    store
        .compliance()
        .set_shift_settings(&setup.plan.starts, &setup.time_zone, audit)
        .await
        .map_err(DomainError::store("company", "duplicateCompany"))
}

/// Every shift that starts on a day from `from` to `to` (inclusive) in `zone`: a range of days
/// covers the shifts that begin on them, so the last night shift ends the morning after `to`.
/// A local time that a summer-time change skips or repeats is resolved as jiff's `compatible`
/// rule does (the later instant for a gap, the earlier for a fold), so a night shift across the
/// spring change lasts an hour less.
pub fn shift_windows(plan: &ShiftPlan, zone: &TimeZone, from: Date, to: Date) -> Result<Vec<ShiftWindow>, jiff::Error> {
    let local_ms = |day: Date, minutes: u16| -> Result<i64, jiff::Error> {
        let at = day.at((minutes / 60) as i8, (minutes % 60) as i8, 0, 0).to_zoned(zone.clone())?;
        Ok(at.timestamp().as_millisecond())
    };
    let mut windows = Vec::new();
    let mut day = from;
    while day <= to {
        let next_day = day.tomorrow()?;
        for (shift, &start) in plan.starts.iter().enumerate() {
            let end = match plan.starts.get(shift + 1) {
                Some(&next) => local_ms(day, next)?,
                None => local_ms(next_day, plan.starts[0])?,
            };
            windows.push(ShiftWindow { shift, start_ms: local_ms(day, start)?, end_ms: end });
        }
        day = next_day;
    }
    Ok(windows)
}

/// A device's unit: "building · floor", '' when neither is set (the ward board's rule).
pub fn unit_of(device: &Device) -> String {
    unit_key(&device.building, &device.floor)
}

/// Each device's unit (a room set's member without a place of its own is in its set's unit) and
/// the units' bed counts (the ward board's tiles: beds, seats and room sets that are no member of
/// another), units in name order.
fn units(devices: &[Device]) -> (HashMap<String, String>, Vec<UnitBeds>) {
    let own: HashMap<&str, String> = devices.iter().map(|d| (d.id.as_str(), unit_of(d))).collect();
    let mut unit_by_device = HashMap::new();
    let mut beds: BTreeMap<String, u32> = BTreeMap::new();
    for device in devices {
        let mut unit = own[device.id.as_str()].clone();
        if unit.is_empty()
            && let Some(parent) = device.parent_id.as_deref().and_then(|p| own.get(p))
        {
            unit = parent.clone();
        }
        let is_bed = device.parent_id.is_none() && DeviceType::from_name(&device.device_type).is_some_and(DeviceType::has_bedside_patient);
        if is_bed {
            *beds.entry(unit.clone()).or_default() += 1;
        }
        unit_by_device.insert(device.id.clone(), unit);
    }
    (unit_by_device, beds.into_iter().map(|(unit, beds)| UnitBeds { unit, beds }).collect())
}

/// The checked date range: `from` not after `to`, at most [`MAX_RANGE_DAYS`] days.
pub fn check_range(from: &str, to: &str) -> Result<(Date, Date), DomainError> {
    let parse = |text: &str| text.parse::<Date>().map_err(|_| invalid("invalidDate", format!("{text:?} is not a YYYY-MM-DD date")));
    let (from, to) = (parse(from)?, parse(to)?);
    let days = (to - from).get_days() + 1;
    if !(1..=MAX_RANGE_DAYS).contains(&days) {
        return Err(invalid("invalidRange", format!("the range must hold 1 to {MAX_RANGE_DAYS} days")));
    }
    Ok((from, to))
}

/// The company's figures for the shifts starting on the days `from` to `to`, per unit and shift.
pub async fn report(store: CompanyStore<'_>, from: Date, to: Date) -> Result<ComplianceReport, DomainError> {
    let setup = shift_setup(store).await?;
    let zone = time_zone(&setup.time_zone).unwrap_or(TimeZone::UTC);
    let windows = shift_windows(&setup.plan, &zone, from, to).map_err(DomainError::internal)?;
    let (Some(first), Some(last)) = (windows.iter().map(|w| w.start_ms).min(), windows.iter().map(|w| w.end_ms).max()) else {
        return Ok(ComplianceReport { from, to, setup, rows: Vec::new() });
    };
    let devices = store.devices().list().await.map_err(DomainError::internal)?;
    let (unit_by_device, units) = units(&devices);
    let unit = |device: &str| unit_by_device.get(device).cloned();
    let records = store.compliance();
    let turns = records
        .turns_between(first, last)
        .await
        .map_err(DomainError::internal)?
        .into_iter()
        .filter_map(|t| {
            Some(TurnFact {
                unit: unit(&t.device_id)?,
                patient: t.patient.unwrap_or_else(|| format!("device:{}", t.device_id)),
                at_ms: t.at_ms,
                loaded_ms: t.loaded_ms,
                interval_ms: t.interval_ms,
            })
        })
        .collect();
    let alarms = records
        .alarms_between(first.div_euclid(1000), (last + 999).div_euclid(1000))
        .await
        .map_err(DomainError::internal)?
        .into_iter()
        .filter_map(|a| {
            Some(AlarmFact {
                unit: unit(&a.device_id)?,
                raised_ms: a.creation_date * 1000,
                attended_ms: a.attended_time.filter(|_| a.has_been_attended).map(|s| s * 1000),
            })
        })
        .collect();
    let input = ComplianceInput { plan: setup.plan.clone(), windows, units, turns, alarms };
    let rows = compliance(&input);
    Ok(ComplianceReport { from, to, setup, rows })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(text: &str) -> Date {
        text.parse().unwrap()
    }

    #[test]
    fn shifts_start_at_the_local_clock_times_and_the_spring_change_shortens_the_night() {
        let madrid = time_zone("Europe/Madrid").unwrap();
        // 2026-03-29: clocks go from 02:00 to 03:00 in Madrid.
        let windows = shift_windows(&ShiftPlan::default(), &madrid, date("2026-03-28"), date("2026-03-28")).unwrap();
        assert_eq!(windows.len(), 3);
        let hours = |w: &ShiftWindow| (w.end_ms - w.start_ms) as f64 / 3_600_000.0;
        assert_eq!(windows.iter().map(hours).collect::<Vec<_>>(), [8.0, 8.0, 7.0]);
        // 07:00 in Madrid on 28 March (UTC+1) is 06:00 UTC.
        let early = jiff::Timestamp::from_millisecond(windows[0].start_ms).unwrap();
        assert_eq!(early.to_string(), "2026-03-28T06:00:00Z");
        // Shifts follow each other without gaps.
        assert!(windows.windows(2).all(|pair| pair[0].end_ms == pair[1].start_ms));
    }

    #[test]
    fn a_range_of_days_covers_their_shifts_and_ranges_are_checked() {
        let windows = shift_windows(&ShiftPlan::default(), &TimeZone::UTC, date("2026-11-01"), date("2026-11-07")).unwrap();
        assert_eq!(windows.len(), 21);
        assert_eq!(windows.iter().filter(|w| w.shift == 2).count(), 7);
        assert!(check_range("2026-11-07", "2026-11-01").is_err(), "backwards");
        assert!(check_range("2026-11-01", "2026-11-01").is_ok(), "one day");
        assert!(check_range("2026-01-01", "2026-04-02").is_ok(), "92 days");
        assert!(check_range("2026-01-01", "2026-04-03").is_err(), "93 days");
        assert!(check_range("2026-13-01", "2026-12-01").is_err());
    }

    #[test]
    fn stored_settings_that_are_missing_or_invalid_read_as_the_defaults() {
        assert_eq!(setup_of(ShiftSettings::default()), ShiftSetup::default());
        let stored = ShiftSettings { shift_starts: Some(vec![360, 1080]), time_zone: Some("Europe/Madrid".into()) };
        assert_eq!(setup_of(stored), ShiftSetup { plan: ShiftPlan { starts: vec![360, 1080] }, time_zone: "Europe/Madrid".into() });
        let broken = ShiftSettings { shift_starts: Some(vec![900, 420]), time_zone: Some("Mars/Olympus".into()) };
        assert_eq!(setup_of(broken), ShiftSetup::default());
        assert!(check_setup(&ShiftSetup { time_zone: "Mars/Olympus".into(), ..ShiftSetup::default() }).is_err());
    }
}
