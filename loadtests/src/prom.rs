//! Parsing the hub's Prometheus text exposition (`GET /metrics`).

use std::collections::BTreeMap;

/// Metric values by name (label sets are folded into the name as written).
pub type Metrics = BTreeMap<String, f64>;

/// Parses `name value` lines, skipping comments, blank lines and timestamps.
pub fn parse(text: &str) -> Metrics {
    let mut out = Metrics::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        // The name may carry labels with spaces inside quotes; the value follows the last '}'
        // or the first whitespace.
        let (name, rest) = match line.rfind('}') {
            Some(end) => (&line[..=end], &line[end + 1..]),
            None => match line.split_once(char::is_whitespace) {
                Some((n, r)) => (n, r),
                None => continue,
            },
        };
        if let Some(value) = rest.split_whitespace().next().and_then(|v| v.parse::<f64>().ok()) {
            out.insert(name.to_owned(), value);
        }
    }
    out
}

/// Increase of a counter between two scrapes (0 when absent or reset).
pub fn delta(before: &Metrics, after: &Metrics, name: &str) -> Option<u64> {
    let b = before.get(name).copied().unwrap_or(0.0);
    after.get(name).map(|a| (a - b).max(0.0) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_counters_gauges_and_labels() {
        let text = "# HELP hub_frames_received_total Frames.\n# TYPE hub_frames_received_total counter\nhub_frames_received_total 1234\nhub_devices_connected 5\nx{a=\"b c\"} 2.5 1700000000\n\ngarbage\n";
        let m = parse(text);
        assert_eq!(m.get("hub_frames_received_total"), Some(&1234.0));
        assert_eq!(m.get("hub_devices_connected"), Some(&5.0));
        assert_eq!(m.get("x{a=\"b c\"}"), Some(&2.5));
        assert_eq!(m.len(), 3);
        let after = parse("hub_frames_received_total 1300\n");
        assert_eq!(delta(&m, &after, "hub_frames_received_total"), Some(66));
        assert_eq!(delta(&m, &after, "missing"), None);
    }
}
