//! When an alarm's `continue` reports fall due (IHE PCD ACM event phase `continue`: the alarm is
//! still active and unattended). The reporter sends one every `interval` after the alarm was
//! raised, numbered from 1, until it is attended (`end`). The number is part of the report's
//! control id (`{alarm}-continue-{n}`), so a report is queued once however often the schedule
//! is read, and a hub restarted late sends only the latest one due rather than every one it
//! missed. No clock: times are passed in (Unix ms).

/// The number of the latest `continue` report due at `now_ms` for an alarm raised at
/// `raised_at_ms`: `n` once `n` whole intervals have passed (n ≥ 1); `None` before the first, or
/// when the interval is 0 (continue reports off).
pub fn due(raised_at_ms: u64, now_ms: u64, interval_ms: u64) -> Option<u64> {
    if interval_ms == 0 {
        return None;
    }
    let n = now_ms.saturating_sub(raised_at_ms) / interval_ms;
    (n >= 1).then_some(n)
}

/// When the report after the one due at `now_ms` falls due (Unix ms); `None` when off.
pub fn next_at(raised_at_ms: u64, now_ms: u64, interval_ms: u64) -> Option<u64> {
    if interval_ms == 0 {
        return None;
    }
    let n = due(raised_at_ms, now_ms, interval_ms).unwrap_or(0);
    raised_at_ms.checked_add(interval_ms.checked_mul(n + 1)?)
}

/// The control id (MSH-10) of an alarm's `n`-th continue report.
pub fn control_id(alarm: &str, n: u64) -> String {
    format!("{alarm}-continue-{n}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_report_per_interval_while_unattended_on_a_simulated_clock() {
        let raised = 1_000_000;
        let interval = 60_000;
        let mut sent = Vec::new();
        // The reporter reads the schedule every 7 s for ten minutes.
        for now in (raised..=raised + 600_000).step_by(7_000) {
            if let Some(n) = due(raised, now, interval)
                && sent.last() != Some(&n)
            {
                sent.push(n);
                assert!(now >= raised + n * interval && now < raised + n * interval + 7_000, "report {n} at {now}: late");
            }
        }
        assert_eq!(sent, (1..=9).collect::<Vec<_>>(), "nine whole minutes within ten, each once");
        assert_eq!(due(raised, raised + interval - 1, interval), None, "none before the first interval");
        assert_eq!(due(raised, raised + interval, interval), Some(1));
        assert_eq!(due(raised, raised - 5, interval), None, "a clock behind the alarm");
    }

    #[test]
    fn after_a_long_stop_only_the_latest_is_due_and_off_means_none() {
        assert_eq!(due(0, 10 * 60_000 + 1, 60_000), Some(10), "not the nine missed ones");
        assert_eq!(next_at(0, 10 * 60_000 + 1, 60_000), Some(11 * 60_000));
        assert_eq!(next_at(0, 5, 60_000), Some(60_000));
        assert_eq!((due(0, u64::MAX, 0), next_at(0, 1, 0)), (None, None), "interval 0: continue reports off");
        assert_eq!(next_at(u64::MAX - 1, u64::MAX, 10), None, "no overflow");
        assert_eq!(control_id("dev7-3", 2), "dev7-3-continue-2");
    }
}
