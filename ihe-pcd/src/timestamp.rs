//! HL7 DTM timestamps from Unix milliseconds (UTC, written with its `+0000` offset), and read
//! back from what another system sent (any precision down to the minute, any offset).

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

/// Unix milliseconds of an HL7 DTM `YYYYMMDDHHMM[SS[.S…]][+/-ZZZZ]` (no offset: UTC); `None`
/// for anything else (a date alone is too coarse for an alarm's status). Total on any text.
pub fn parse_hl7_timestamp(text: &str) -> Option<i64> {
    let text = text.trim();
    let (main, offset) = match text.find(['+', '-']) {
        Some(i) => (&text[..i], Some(&text[i..])),
        None => (text, None),
    };
    let (whole, fraction) = main.split_once('.').unwrap_or((main, ""));
    if !(whole.len() == 12 || whole.len() == 14) || !whole.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if !fraction.bytes().all(|b| b.is_ascii_digit()) || fraction.len() > 4 || (!fraction.is_empty() && whole.len() != 14) {
        return None;
    }
    let number = |range: std::ops::Range<usize>| whole[range].parse::<i64>().ok();
    let (year, month, day) = (number(0..4)?, number(4..6)?, number(6..8)?);
    let (hour, minute) = (number(8..10)?, number(10..12)?);
    let second = if whole.len() == 14 { number(12..14)? } else { 0 };
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let millis = format!("{fraction:0<3}")[..3].parse::<i64>().ok()?;
    let offset_minutes = match offset {
        None => 0,
        Some(o) if o.len() == 5 && o[1..].bytes().all(|b| b.is_ascii_digit()) => {
            let minutes = o[1..3].parse::<i64>().ok()? * 60 + o[3..5].parse::<i64>().ok()?;
            if o.starts_with('-') { -minutes } else { minutes }
        }
        Some(_) => return None,
    };
    let days = days_from_civil(year, month as u32, day as u32);
    Some((((days * 24 + hour) * 60 + minute - offset_minutes) * 60 + second) * 1000 + millis)
}

/// Howard Hinnant's civil-to-days algorithm (proleptic Gregorian).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = i64::from((m + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
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

    #[test]
    fn timestamps_read_back_with_their_offset() {
        for ms in [0, 1_795_713_511_250, 1_709_251_199_999] {
            assert_eq!(parse_hl7_timestamp(&hl7_timestamp(ms)), Some(ms as i64));
        }
        assert_eq!(parse_hl7_timestamp("20261126171831"), Some(1_795_713_511_000));
        assert_eq!(parse_hl7_timestamp("202611261718"), Some(1_795_713_480_000));
        assert_eq!(parse_hl7_timestamp("20261126181831.25+0100"), Some(1_795_713_511_250));
        assert_eq!(parse_hl7_timestamp("20261126121831-0500"), Some(1_795_713_511_000));
        for bad in [
            "",
            "20261126",
            "2026112617183",
            "20261326171831",
            "20261126171831+01",
            "2026112617x831",
            "20261126171831.12345",
            "é2026112617183",
        ] {
            assert_eq!(parse_hl7_timestamp(bad), None, "{bad}");
        }
    }
}
