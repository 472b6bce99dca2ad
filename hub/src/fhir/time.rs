//! FHIR dates and times: the hub's Unix seconds written as FHIR `instant`/`dateTime` (UTC) and
//! `date`, and a `date` search value (`ge2026-11-26`, `lt2026-11-26T10:00:00+01:00`) read as the
//! Unix seconds it admits. Pure.

use std::ops::Range;

/// A date search's comparator (FHIR search prefixes; `ne`, `sa`, `eb` and `ap` are not served).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Comparator {
    Eq,
    Gt,
    Lt,
    Ge,
    Le,
}

/// One `date` search value: a comparator and the span of seconds its precision covers
/// (`2026-11` covers the whole month).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DateBound {
    pub comparator: Comparator,
    pub span: Range<i64>,
}

impl DateBound {
    /// Whether a record at `secs` (a point in time) matches.
    pub fn admits(&self, secs: i64) -> bool {
        match self.comparator {
            Comparator::Eq => self.span.contains(&secs),
            Comparator::Gt => secs >= self.span.end,
            Comparator::Ge => secs >= self.span.start,
            Comparator::Lt => secs < self.span.start,
            Comparator::Le => secs < self.span.end,
        }
    }
}

/// Unix seconds as a FHIR `instant` in UTC: `2026-11-26T20:47:35Z`.
pub fn instant(secs: i64) -> String {
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rest / 3600, rest % 3600 / 60, rest % 60)
}

/// Unix seconds as a FHIR `date` (the UTC day): `2026-11-26`.
pub fn date(secs: i64) -> String {
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    format!("{y:04}-{m:02}-{d:02}")
}

/// Reads a `date` search value: an optional prefix (`eq`, `gt`, `lt`, `ge`, `le`), then a FHIR
/// date or dateTime (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`, `YYYY-MM-DDThh:mm[:ss[.fff]]` with `Z` or
/// `±hh:mm`; a time without a zone is UTC). The error says what is wrong.
pub fn parse_date_search(value: &str) -> Result<DateBound, String> {
    let prefixes = [("eq", Comparator::Eq), ("gt", Comparator::Gt), ("lt", Comparator::Lt), ("ge", Comparator::Ge), ("le", Comparator::Le)];
    let (comparator, rest) = match prefixes.iter().find(|(p, _)| value.starts_with(p)) {
        Some((p, c)) => (*c, &value[p.len()..]),
        None if value.starts_with(|c: char| c.is_ascii_alphabetic()) => {
            return Err(format!("the date prefix of '{value}' is not served (eq, gt, lt, ge, le)"));
        }
        None => (Comparator::Eq, value),
    };
    let span = parse_span(rest).ok_or_else(|| format!("'{rest}' is not a FHIR date or dateTime"))?;
    Ok(DateBound { comparator, span })
}

fn number(text: &str, digits: usize) -> Option<i64> {
    (text.len() == digits && text.bytes().all(|b| b.is_ascii_digit())).then(|| text.parse().ok()).flatten()
}

fn parse_span(text: &str) -> Option<Range<i64>> {
    let (day_part, time_part) = match text.split_once('T') {
        Some((d, t)) => (d, Some(t)),
        None => (text, None),
    };
    let mut fields = day_part.split('-');
    let year = number(fields.next()?, 4)?;
    let month = fields.next().map(|m| number(m, 2)).unwrap_or(Some(0))?;
    let day = fields.next().map(|d| number(d, 2)).unwrap_or(Some(0))?;
    if fields.next().is_some() || month > 12 || (day > 0 && (month == 0 || day > days_in_month(year, month))) {
        return None;
    }
    let Some(time) = time_part else {
        return Some(match (month, day) {
            (0, _) => days_from_civil(year, 1, 1) * 86_400..days_from_civil(year + 1, 1, 1) * 86_400,
            (m, 0) => {
                let next = if m == 12 { (year + 1, 1) } else { (year, m + 1) };
                days_from_civil(year, m, 1) * 86_400..days_from_civil(next.0, next.1, 1) * 86_400
            }
            (m, d) => {
                let start = days_from_civil(year, m, d) * 86_400;
                start..start + 86_400
            }
        });
    };
    if day == 0 {
        return None;
    }
    let (clock, offset) = split_zone(time)?;
    let mut parts = clock.split(':');
    let hour = number(parts.next()?, 2)?;
    let minute = number(parts.next()?, 2)?;
    let (second, precision) = match parts.next() {
        Some(s) => {
            let whole = s.split_once('.').map_or(s, |(w, fraction)| if fraction.bytes().all(|b| b.is_ascii_digit()) { w } else { "x" });
            (number(whole, 2)?, 1)
        }
        None => (0, 60),
    };
    if parts.next().is_some() || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let start = days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset;
    Some(start..start + precision)
}

/// The clock and the zone's offset east of UTC, seconds.
fn split_zone(time: &str) -> Option<(&str, i64)> {
    if let Some(clock) = time.strip_suffix('Z') {
        return Some((clock, 0));
    }
    match time.rfind(['+', '-']) {
        Some(at) => {
            let (clock, zone) = time.split_at(at);
            let sign = if zone.starts_with('-') { -1 } else { 1 };
            let (h, m) = zone[1..].split_once(':')?;
            let (h, m) = (number(h, 2)?, number(m, 2)?);
            (h <= 14 && m <= 59).then_some((clock, sign * (h * 3600 + m * 60)))
        }
        None => Some((time, 0)),
    }
}

fn is_leap(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day since 1970-01-01.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { yoe + era * 400 + 1 } else { yoe + era * 400 }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_are_written_as_utc_instants_and_dates() {
        assert_eq!(instant(0), "1970-01-01T00:00:00Z");
        assert_eq!(instant(1_795_725_255), "2026-11-26T20:34:15Z");
        assert_eq!(date(-254_880_000), "1961-12-04");
        assert_eq!(instant(951_782_400), "2000-02-29T00:00:00Z");
    }

    #[test]
    fn civil_dates_round_trip() {
        for days in [-800_000, -1, 0, 59, 60, 11_016, 20_000, 2_000_000] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
    }

    #[test]
    fn a_date_search_covers_its_precision() {
        let day = parse_date_search("2026-11-26").unwrap();
        assert_eq!(day.comparator, Comparator::Eq);
        assert_eq!(day.span, 1_795_651_200..1_795_737_600);
        assert_eq!(parse_date_search("2026-11").unwrap().span, 1_793_491_200..1_796_083_200);
        assert_eq!(parse_date_search("2026").unwrap().span.end, days_from_civil(2027, 1, 1) * 86_400);
        let moment = parse_date_search("ge2026-11-26T20:34:15Z").unwrap();
        assert_eq!((moment.comparator, moment.span), (Comparator::Ge, 1_795_725_255..1_795_725_256));
        let zoned = parse_date_search("lt2026-11-26T21:34+01:00").unwrap();
        assert_eq!(zoned.span, 1_795_725_240..1_795_725_300);
        assert_eq!(parse_date_search("le2026-11-26T20:34:15.250Z").unwrap().span.start, 1_795_725_255);
    }

    #[test]
    fn comparators_admit_what_fhir_says() {
        let at = |s: &str| parse_date_search(s).unwrap();
        let noon = 1_795_651_200 + 12 * 3600;
        assert!(at("2026-11-26").admits(noon));
        assert!(!at("2026-11-27").admits(noon));
        assert!(at("gt2026-11-25").admits(noon) && !at("gt2026-11-26").admits(noon));
        assert!(at("ge2026-11-26").admits(noon) && !at("ge2026-11-27").admits(noon));
        assert!(at("lt2026-11-27").admits(noon) && !at("lt2026-11-26").admits(noon));
        assert!(at("le2026-11-26").admits(noon) && !at("le2026-11-25").admits(noon));
    }

    #[test]
    fn malformed_dates_and_unserved_prefixes_are_refused() {
        for bad in [
            "",
            "26-11-2026",
            "2026-13",
            "2026-02-30",
            "2026-11-26T25:00Z",
            "2026-11-26T10",
            "ap2026",
            "ne2026-11-26",
            "sa2026",
            "2026-11-26T10:00+15:00",
            "yesterday",
        ] {
            assert!(parse_date_search(bad).is_err(), "{bad}");
        }
        assert!(parse_date_search("2024-02-29").is_ok());
    }
}
