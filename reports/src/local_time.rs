//! The date and time a report prints, in the user's time zone.
//!
//! The hub has no time-zone database, so the client sends both its IANA zone name (printed, so
//! the reader knows which clock) and the zone's offset from UTC at the record's instant (the
//! browser knows it, summer time included: `-new Date(creationDate * 1000).getTimezoneOffset()`).
//! Without them the report prints UTC. See docs/decisions.md, "Reports a clinician hands over".

use mat_core::analysis::export::iso_8601_utc;
use serde::{Deserialize, Serialize};

/// The largest offset from UTC a zone has (UTC+14, Kiribati; UTC−12 is the other end).
pub const MAX_UTC_OFFSET_MINUTES: i16 = 14 * 60;
/// The longest IANA zone name accepted (the longest in use, `America/Argentina/ComodRivadavia`,
/// has 32 characters).
pub const MAX_ZONE_NAME_CHARS: usize = 64;

/// Minutes as any JSON integer (`60.0` included, as JSON Schema's `integer` allows); a fraction
/// or a number beyond `i16` is refused here, beyond ±840 by [`ReportClock::check`].
fn whole_minutes<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<i16>, D::Error> {
    match Option::<f64>::deserialize(deserializer)? {
        None => Ok(None),
        Some(v) if v.fract() == 0.0 && (f64::from(i16::MIN)..=f64::from(i16::MAX)).contains(&v) => Ok(Some(v as i16)),
        Some(v) => Err(serde::de::Error::custom(format!("invalid value: {v}, expected whole minutes"))),
    }
}

/// The user's clock for one record: its offset from UTC and the zone's name.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct ReportClock {
    /// Minutes east of UTC at the record's creation (UTC+01:00 is 60); UTC when absent.
    #[cfg_attr(feature = "json-schema", schemars(range(min = -840, max = 840)))]
    #[serde(deserialize_with = "whole_minutes")]
    pub utc_offset_minutes: Option<i16>,
    /// The IANA zone name (`Europe/Madrid`), printed beside the time.
    #[cfg_attr(feature = "json-schema", schemars(pattern(r"^[A-Za-z0-9/_+\-]{1,64}$")))]
    pub time_zone: Option<String>,
}

/// Why a clock was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    #[error("utcOffsetMinutes must be between -840 and 840")]
    Offset,
    #[error("timeZone must be an IANA zone name (letters, digits, '/', '_', '-', '+') of at most 64 characters")]
    Zone,
}

impl ReportClock {
    /// UTC, named as such.
    pub fn utc() -> ReportClock {
        ReportClock::default()
    }

    /// Checks the offset's range and the zone name's characters.
    pub fn check(&self) -> Result<(), ClockError> {
        if self.utc_offset_minutes.is_some_and(|m| m.abs() > MAX_UTC_OFFSET_MINUTES) {
            return Err(ClockError::Offset);
        }
        if let Some(zone) = &self.time_zone {
            let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '/' | '_' | '-' | '+');
            if zone.is_empty() || zone.chars().count() > MAX_ZONE_NAME_CHARS || !zone.chars().all(allowed) {
                return Err(ClockError::Zone);
            }
        }
        Ok(())
    }

    fn offset_minutes(&self) -> i64 {
        i64::from(self.utc_offset_minutes.unwrap_or(0))
    }

    /// `YYYY-MM-DDTHH:MM` of `unix_s` on this clock.
    fn local_iso(&self, unix_s: i64) -> String {
        let local_s = unix_s.saturating_add(self.offset_minutes() * 60);
        iso_8601_utc(local_s.saturating_mul(1000))[..16].to_owned()
    }

    /// `2026-11-26 15:31 (Europe/Madrid)`; `2026-11-26 14:31 UTC` without a zone; the offset
    /// (`UTC+01:00`) when only the offset is known.
    pub fn format(&self, unix_s: i64) -> String {
        let iso = self.local_iso(unix_s);
        let when = format!("{} {}", &iso[..10], &iso[11..16]);
        match (&self.time_zone, self.utc_offset_minutes) {
            (Some(zone), _) => format!("{when} ({zone})"),
            (None, None | Some(0)) => format!("{when} UTC"),
            (None, Some(m)) => {
                let sign = if m < 0 { '-' } else { '+' };
                format!("{when} UTC{sign}{:02}:{:02}", m.unsigned_abs() / 60, m.unsigned_abs() % 60)
            }
        }
    }

    /// `(YYYY-MM-DD, HHMM)` of `unix_s` on this clock, for file names.
    pub fn date_and_minute(&self, unix_s: i64) -> (String, String) {
        let iso = self.local_iso(unix_s);
        (iso[..10].to_owned(), format!("{}{}", &iso[11..13], &iso[14..16]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_offset_is_any_json_integer_and_whole_minutes_only() {
        let clock: ReportClock = serde_json::from_str(r#"{"utcOffsetMinutes": -286.0}"#).expect("an integral float");
        assert_eq!(clock.utc_offset_minutes, Some(-286));
        assert!(serde_json::from_str::<ReportClock>(r#"{"utcOffsetMinutes": 60.5}"#).is_err());
        assert_eq!(serde_json::from_str::<ReportClock>(r#"{"utcOffsetMinutes": null}"#).expect("null").utc_offset_minutes, None);
        assert_eq!(serde_json::from_str::<ReportClock>("{}").expect("absent").utc_offset_minutes, None);
    }

    // 1,764,171,060 s = 2025-11-26T15:31:00Z.
    const T: i64 = 1_764_171_060;

    #[test]
    fn the_time_is_printed_on_the_users_clock_with_its_name() {
        assert_eq!(ReportClock::utc().format(T), "2025-11-26 15:31 UTC");
        let madrid = ReportClock { utc_offset_minutes: Some(60), time_zone: Some("Europe/Madrid".into()) };
        assert_eq!(madrid.format(T), "2025-11-26 16:31 (Europe/Madrid)");
        // Across midnight and west of UTC, with only the offset known.
        let west = ReportClock { utc_offset_minutes: Some(-16 * 60 - 30), time_zone: None };
        assert!(west.check().is_err(), "no zone is 16 h 30 behind UTC");
        let kolkata = ReportClock { utc_offset_minutes: Some(330), time_zone: None };
        assert_eq!(kolkata.format(T), "2025-11-26 21:01 UTC+05:30");
        let honolulu = ReportClock { utc_offset_minutes: Some(-600), time_zone: Some("Pacific/Honolulu".into()) };
        assert_eq!(honolulu.date_and_minute(T), ("2025-11-26".into(), "0531".into()));
        let auckland = ReportClock { utc_offset_minutes: Some(780), time_zone: None };
        assert_eq!(auckland.date_and_minute(T), ("2025-11-27".into(), "0431".into()));
    }

    #[test]
    fn offsets_and_zone_names_are_checked() {
        assert!(ReportClock { utc_offset_minutes: Some(840), time_zone: Some("Pacific/Kiritimati".into()) }.check().is_ok());
        assert!(ReportClock { utc_offset_minutes: Some(-720), time_zone: Some("Etc/GMT+12".into()) }.check().is_ok());
        assert_eq!(ReportClock { utc_offset_minutes: Some(841), time_zone: None }.check(), Err(ClockError::Offset));
        for bad in ["", "Europe/Madrid\n", "<script>", &"A".repeat(65)] {
            assert_eq!(ReportClock { utc_offset_minutes: None, time_zone: Some(bad.into()) }.check(), Err(ClockError::Zone), "{bad:?}");
        }
    }
}
