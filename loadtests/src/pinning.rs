//! CPU pinning: the target (hub or broker) on one core, the load generator on another, so the
//! run measures the target and not the two fighting over the same cores.
//!
//! The workspace forbids `unsafe`, so affinity is set with util-linux's `taskset`: the generator
//! pins its own process before its runtime starts any thread (threads inherit the mask), and the
//! target is started as `taskset -c CPU program …`.

use std::path::Path;

use anyhow::{Context, Result, bail};
use serde::Serialize;

/// Parses a Linux CPU list (`0-2,5`).
pub fn parse_cpu_list(text: &str) -> Result<Vec<usize>> {
    let mut cpus = Vec::new();
    for part in text.trim().split(',').filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (usize, usize) = (a.trim().parse()?, b.trim().parse()?);
                if b < a {
                    bail!("bad CPU range {part:?}");
                }
                cpus.extend(a..=b);
            }
            None => cpus.push(part.trim().parse().with_context(|| format!("bad CPU {part:?}"))?),
        }
    }
    cpus.sort_unstable();
    cpus.dedup();
    Ok(cpus)
}

/// The CPUs a process may run on, from the text of `/proc/<pid>/status`.
pub fn allowed_cpus_in_status(status: &str) -> Result<Vec<usize>> {
    let line = status.lines().find(|l| l.starts_with("Cpus_allowed_list:")).context("no Cpus_allowed_list line")?;
    parse_cpu_list(line.trim_start_matches("Cpus_allowed_list:"))
}

/// The CPUs process `pid` may run on.
pub fn allowed_cpus(pid: u32) -> Result<Vec<usize>> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).with_context(|| format!("reading /proc/{pid}/status"))?;
    allowed_cpus_in_status(&status)
}

/// The machine's online CPUs (whatever this process's affinity).
pub fn online_cpus() -> Vec<usize> {
    std::fs::read_to_string("/sys/devices/system/cpu/online").ok().and_then(|t| parse_cpu_list(&t).ok()).unwrap_or_else(|| vec![0])
}

/// Pins this whole process to `cpu`. Call it before any runtime thread exists.
pub fn pin_self(cpu: usize) -> Result<()> {
    let pid = std::process::id().to_string();
    let status = std::process::Command::new("taskset")
        .args(["-a", "-p", "-c", &cpu.to_string(), &pid])
        .stdout(std::process::Stdio::null())
        .status()
        .context("running taskset (util-linux) to pin the load generator")?;
    if !status.success() {
        bail!("`taskset -a -p -c {cpu} {pid}` failed ({status})");
    }
    Ok(())
}

/// A command that starts `program` pinned to `cpu` (or unpinned when `cpu` is `None`).
pub fn command(cpu: Option<usize>, program: &Path) -> tokio::process::Command {
    match cpu {
        Some(cpu) => {
            let mut c = tokio::process::Command::new("taskset");
            c.arg("-c").arg(cpu.to_string()).arg(program);
            c
        }
        None => tokio::process::Command::new(program),
    }
}

/// Where each side ran.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PinningReport {
    /// CPUs the target (hub or broker) may run on, when known.
    pub target_cpus: Option<Vec<usize>>,
    /// CPUs the generator may run on.
    pub generator_cpus: Vec<usize>,
    /// Whether the two sets are disjoint.
    pub separated: bool,
}

impl PinningReport {
    /// Compares the two sets.
    pub fn of(target_cpus: Option<Vec<usize>>, generator_cpus: Vec<usize>) -> Self {
        let separated = target_cpus.as_ref().is_some_and(|t| t.iter().all(|c| !generator_cpus.contains(c)));
        Self { target_cpus, generator_cpus, separated }
    }
}

/// Attach mode: exactly how to pin a hub that this program did not start.
pub fn attach_advice(hub_pid: Option<u32>, hub_cpu: usize, generator_cpu: usize) -> String {
    let pid = hub_pid.map(|p| p.to_string()).unwrap_or_else(|| "<hub pid>".to_owned());
    format!(
        "pin the hub and the generator to different cores: start the hub as `taskset -c {hub_cpu} hub …` \
         (or pin the running one with `taskset -a -p -c {hub_cpu} {pid}`), and this program with \
         `--generator-cpu {generator_cpu}` (or as `taskset -c {generator_cpu} loadtests run …`); pass --hub-pid so the check can see the hub"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_lists() {
        assert_eq!(parse_cpu_list("0-2,5\n").expect("list"), vec![0, 1, 2, 5]);
        assert_eq!(parse_cpu_list("1").expect("list"), vec![1]);
        assert!(parse_cpu_list("3-1").is_err());
        assert!(parse_cpu_list("x").is_err());
        let status = "Name:\thub\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\n";
        assert_eq!(allowed_cpus_in_status(status).expect("status"), vec![0, 1]);
        assert!(!allowed_cpus(std::process::id()).expect("own status").is_empty());
        assert!(online_cpus().contains(&0));
    }

    #[test]
    fn separation_needs_known_disjoint_sets() {
        assert!(PinningReport::of(Some(vec![0]), vec![1]).separated);
        assert!(!PinningReport::of(Some(vec![0, 1]), vec![1]).separated);
        assert!(!PinningReport::of(None, vec![1]).separated, "an unknown target cannot be called separated");
    }

    #[test]
    fn advice_names_the_commands() {
        let a = attach_advice(Some(4242), 0, 1);
        assert!(a.contains("taskset -c 0 hub"), "{a}");
        assert!(a.contains("taskset -a -p -c 0 4242"), "{a}");
        assert!(a.contains("--generator-cpu 1"), "{a}");
    }
}
