//! HL7 DTM timestamps from Unix milliseconds (UTC, written with its `+0000` offset).

/// `YYYYMMDDHHMMSS.SSS+0000` for Unix milliseconds.
pub fn hl7_timestamp(unix_ms: u64) -> String {
    let secs = unix_ms / 1000;
    let millis = unix_ms % 1000;
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let (year, month, day) = civil_from_days(days);
    format!("{year:04}{month:02}{day:02}{:02}{:02}{:02}.{millis:03}+0000", rem / 3600, rem % 3600 / 60, rem % 60)
}

/// `YYYYMMDD` (HL7 DT) for Unix seconds, before 1970 too (a birth date is one).
pub fn hl7_date(unix_secs: i64) -> String {
    let (year, month, day) = civil_from_days(unix_secs.div_euclid(86_400));
    format!("{year:04}{month:02}{day:02}")
}

/// Howard Hinnant's days-to-civil algorithm (proleptic Gregorian).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_before_and_after_1970() {
        assert_eq!(hl7_date(0), "19700101");
        assert_eq!(hl7_date(-1), "19691231");
        assert_eq!(hl7_date(365 * 86_400), "19710101");
        // 4 December 1961, 00:00 UTC.
        assert_eq!(hl7_date(-254_880_000), "19611204");
    }

    #[test]
    fn timestamps_are_utc_with_milliseconds() {
        assert_eq!(hl7_timestamp(0), "19700101000000.000+0000");
        // 2026-11-26 17:18:31.250 UTC
        assert_eq!(hl7_timestamp(1_795_713_511_250), "20261126171831.250+0000");
        // 2024-02-29 23:59:59.999 UTC (a leap day)
        assert_eq!(hl7_timestamp(1_709_251_199_999), "20240229235959.999+0000");
    }
}
