//! The hub's CPU time and resident memory from `/proc/<pid>/stat` and `/proc/<pid>/status`.

use anyhow::{Context, Result};

/// User + system CPU time of a process, in clock ticks, from the text of `/proc/<pid>/stat`.
pub fn cpu_ticks(stat: &str) -> Result<u64> {
    // The command name (field 2) may contain spaces and parentheses: fields after the last ')'.
    let rest = &stat[stat.rfind(')').context("no ')' in /proc stat")? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // After the name: state(3) ppid(4) … utime(14) stime(15) → indices 11 and 12 here.
    let utime: u64 = fields.get(11).context("no utime")?.parse()?;
    let stime: u64 = fields.get(12).context("no stime")?.parse()?;
    Ok(utime + stime)
}

/// Resident set size in KiB from the text of `/proc/<pid>/status`.
pub fn rss_kib(status: &str) -> Result<u64> {
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).context("no VmRSS line")?;
    line.split_whitespace().nth(1).context("no VmRSS value")?.parse().context("bad VmRSS value")
}

/// Clock ticks per second (`getconf CLK_TCK`, 100 when that is unavailable).
pub fn clock_ticks_per_second() -> u64 {
    std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse().ok())
        .filter(|&t| t > 0)
        .unwrap_or(100)
}

/// One reading of a process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sample {
    /// CPU ticks used so far.
    pub ticks: u64,
    /// Resident memory now, KiB.
    pub rss_kib: u64,
}

/// Reads a process's CPU ticks and RSS.
pub fn sample(pid: u32) -> Result<Sample> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).with_context(|| format!("reading /proc/{pid}/stat"))?;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).with_context(|| format!("reading /proc/{pid}/status"))?;
    Ok(Sample { ticks: cpu_ticks(&stat)?, rss_kib: rss_kib(&status)? })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_stat_with_a_tricky_name() {
        let stat = "4242 (hub (x) y) S 1 4242 4242 0 -1 4194560 1000 0 0 0 250 125 0 0 20 0 9 0 12345 1000000 2000 18446744073709551615";
        assert_eq!(cpu_ticks(stat).expect("ticks"), 375);
        assert!(cpu_ticks("no parens").is_err());
    }

    #[test]
    fn parses_status() {
        let status = "Name:\thub\nVmPeak:\t  100 kB\nVmRSS:\t   51234 kB\nThreads:\t9\n";
        assert_eq!(rss_kib(status).expect("rss"), 51_234);
        assert!(rss_kib("Name: x").is_err());
    }

    #[test]
    fn reads_our_own_process() {
        let s = sample(std::process::id()).expect("own /proc");
        assert!(s.rss_kib > 0);
        assert!(clock_ticks_per_second() > 0);
    }
}
