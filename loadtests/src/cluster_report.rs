//! What a cluster run adds to the report (pure): the CPU of the processes beside the measured hub
//! (hub B, `nats-server`, the database server) and the NATS traffic over the measuring window, each
//! per frame the mats sent, so the whole cluster's cost stands beside hub A's.

use std::fmt::Write as _;

use serde::Serialize;

use crate::cluster_plan::{NatsTraffic, ViewersOn};

/// One reading of a process beside the measured hub.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcessSample {
    pub name: &'static str,
    pub pid: u32,
    /// CPU ticks used so far (`None`: the process could not be read).
    pub ticks: Option<u64>,
}

/// The cluster's processes and NATS counters at one instant.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClusterSample {
    pub processes: Vec<ProcessSample>,
    pub nats: Option<NatsTraffic>,
}

/// One process over the window.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProcessCost {
    pub name: String,
    pub pid: u32,
    /// Percent of one core.
    pub cpu_percent: Option<f64>,
    /// CPU time per frame the mats sent, µs.
    pub cpu_us_per_frame: Option<f64>,
}

/// NATS over the window.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NatsCost {
    /// Messages published per second (every hub's).
    pub in_msgs_per_sec: f64,
    /// Messages delivered per second.
    pub out_msgs_per_sec: f64,
    /// Messages published per frame the mats sent.
    pub in_msgs_per_frame: f64,
    /// Bytes published per frame the mats sent.
    pub in_bytes_per_frame: f64,
}

/// The cluster part of a report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClusterReport {
    /// The measured hub's node name.
    pub measured_node: &'static str,
    /// Where the viewers watched.
    pub viewers_on: ViewersOn,
    /// The processes beside the measured hub, all on the generator's core.
    pub others: Vec<ProcessCost>,
    pub nats: Option<NatsCost>,
}

/// The cluster's figures between two samples: `frames` sent by the mats in `window_secs`, CPU
/// ticks at `ticks_per_sec`.
pub fn between(
    before: &ClusterSample,
    after: &ClusterSample,
    frames: u64,
    window_secs: f64,
    ticks_per_sec: u64,
    viewers_on: ViewersOn,
) -> ClusterReport {
    let others = after
        .processes
        .iter()
        .map(|a| {
            let b = before.processes.iter().find(|b| b.name == a.name && b.pid == a.pid);
            let seconds = match (b.and_then(|b| b.ticks), a.ticks) {
                (Some(b), Some(a)) if ticks_per_sec > 0 => Some(a.saturating_sub(b) as f64 / ticks_per_sec as f64),
                _ => None,
            };
            ProcessCost {
                name: a.name.to_owned(),
                pid: a.pid,
                cpu_percent: seconds.filter(|_| window_secs > 0.0).map(|s| s / window_secs * 100.0),
                cpu_us_per_frame: seconds.filter(|_| frames > 0).map(|s| s * 1e6 / frames as f64),
            }
        })
        .collect();
    let nats = match (before.nats, after.nats) {
        (Some(b), Some(a)) if window_secs > 0.0 && frames > 0 => {
            let in_msgs = a.in_msgs.saturating_sub(b.in_msgs) as f64;
            Some(NatsCost {
                in_msgs_per_sec: in_msgs / window_secs,
                out_msgs_per_sec: a.out_msgs.saturating_sub(b.out_msgs) as f64 / window_secs,
                in_msgs_per_frame: in_msgs / frames as f64,
                in_bytes_per_frame: a.in_bytes.saturating_sub(b.in_bytes) as f64 / frames as f64,
            })
        }
        _ => None,
    };
    ClusterReport { measured_node: crate::cluster_plan::NODE_A, viewers_on, others, nats }
}

impl ClusterReport {
    /// Lines for the run's table.
    pub fn table_lines(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "  {:<34} {:>14}",
            "cluster: measured hub / viewers on",
            format!("{} / {}", self.measured_node, self.viewers_on.node())
        );
        for p in &self.others {
            let cpu = match (p.cpu_percent, p.cpu_us_per_frame) {
                (Some(pct), Some(us)) => format!("{pct:.1} %, {us:.1} µs per frame"),
                _ => "n/a".to_owned(),
            };
            let _ = writeln!(out, "  {:<34} {cpu}", format!("{} CPU (generator's core)", p.name));
        }
        if let Some(n) = &self.nats {
            let _ = writeln!(
                out,
                "  {:<34} {:.0} in/s, {:.0} out/s, {:.2} msgs and {:.0} bytes in per frame",
                "NATS messages", n.in_msgs_per_sec, n.out_msgs_per_sec, n.in_msgs_per_frame, n.in_bytes_per_frame
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(b_ticks: Option<u64>, nats: Option<NatsTraffic>) -> ClusterSample {
        ClusterSample {
            processes: vec![
                ProcessSample { name: "hub-b", pid: 10, ticks: b_ticks },
                ProcessSample { name: "nats-server", pid: 11, ticks: Some(b_ticks.unwrap_or(0) * 2) },
            ],
            nats,
        }
    }

    #[test]
    fn every_process_and_the_traffic_per_frame_over_the_window() {
        let before = sample(Some(100), Some(NatsTraffic { in_msgs: 1_000, out_msgs: 2_000, in_bytes: 10_000, out_bytes: 0 }));
        let after = sample(Some(400), Some(NatsTraffic { in_msgs: 31_000, out_msgs: 62_000, in_bytes: 73_000_000, out_bytes: 0 }));
        // 300 ticks at 100/s = 3 s of CPU over a 30 s window and 30,000 frames.
        let r = between(&before, &after, 30_000, 30.0, 100, ViewersOn::B);
        assert_eq!(r.viewers_on, ViewersOn::B);
        assert_eq!(r.measured_node, "hub-a");
        let b = &r.others[0];
        assert_eq!((b.name.as_str(), b.pid), ("hub-b", 10));
        assert!((b.cpu_percent.unwrap() - 10.0).abs() < 1e-9);
        assert!((b.cpu_us_per_frame.unwrap() - 100.0).abs() < 1e-9);
        assert!((r.others[1].cpu_us_per_frame.unwrap() - 200.0).abs() < 1e-9, "nats-server used twice hub B's ticks");
        let n = r.nats.clone().unwrap();
        assert!((n.in_msgs_per_sec - 1_000.0).abs() < 1e-9);
        assert!((n.out_msgs_per_sec - 2_000.0).abs() < 1e-9);
        assert!((n.in_msgs_per_frame - 1.0).abs() < 1e-9);
        assert!((n.in_bytes_per_frame - 2_433.0).abs() < 1e-9);
        let table = r.table_lines();
        assert!(table.contains("hub-a / hub-b"), "{table}");
        assert!(table.contains(&format!("{:<34} 10.0 %, 100.0 µs per frame", "hub-b CPU (generator's core)")), "{table}");
        assert!(table.contains("1.00 msgs and 2433 bytes in per frame"), "{table}");
    }

    #[test]
    fn an_unreadable_process_or_an_empty_window_gives_no_figure_rather_than_a_wrong_one() {
        let r = between(&sample(None, None), &sample(Some(400), None), 30_000, 30.0, 100, ViewersOn::A);
        assert_eq!(r.others[0].cpu_percent, None);
        assert_eq!(r.nats, None);
        let traffic = Some(NatsTraffic::default());
        let r = between(&sample(Some(1), traffic), &sample(Some(2), traffic), 0, 30.0, 100, ViewersOn::A);
        assert_eq!(r.others[0].cpu_us_per_frame, None, "no frames: no per-frame figure");
        assert!(r.others[0].cpu_percent.is_some());
        assert_eq!(r.nats, None);
        // A process that restarted (another pid) is not compared with its predecessor.
        let mut after = sample(Some(400), None);
        after.processes[0].pid = 99;
        assert_eq!(between(&sample(Some(100), None), &after, 10, 1.0, 100, ViewersOn::A).others[0].cpu_percent, None);
        assert!(r.table_lines().contains(&format!("{:<34} n/a", "hub-b CPU (generator's core)")), "{}", r.table_lines());
    }
}
