//! The comparison of `loadtests cluster-cost` (pure): each run's figures, the median of each
//! variant over the rounds, cluster mode's extra CPU per frame on the measured hub against the
//! single hub, and the NATS hop's share of the device → browser latency (viewers on B against
//! viewers on A, the same cluster and load).

use std::fmt::Write as _;

use serde::Serialize;

use crate::cluster_plan::ViewersOn;
use crate::report::Report;
use crate::{RunArgs, TargetKind};

/// One kind of run of the comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// A single hub (`--target hub`), as the other load tests run it.
    Single,
    /// Hub A of a cluster, viewers on A: nobody elsewhere watches.
    ClusterA,
    /// Hub A of a cluster, viewers on hub B: every map crosses NATS.
    ClusterB,
}

impl Variant {
    pub fn name(self) -> &'static str {
        match self {
            Variant::Single => "single",
            Variant::ClusterA => "cluster-a",
            Variant::ClusterB => "cluster-b",
        }
    }

    /// Sets the target and the viewers' hub of `args` for this variant.
    pub fn apply(self, args: &mut RunArgs) {
        (args.target, args.viewers_on) = match self {
            Variant::Single => (TargetKind::Hub, None),
            Variant::ClusterA => (TargetKind::HubCluster, Some(ViewersOn::A)),
            Variant::ClusterB => (TargetKind::HubCluster, Some(ViewersOn::B)),
        };
    }
}

/// The figures of one run the comparison uses.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunFigures {
    pub variant: Variant,
    /// 1, 2, …
    pub round: usize,
    /// The measured hub's CPU per frame the mats sent, µs.
    pub cpu_us_per_frame: Option<f64>,
    pub cpu_percent: Option<f64>,
    /// Device → browser, ms; `None` when the generator saturated or no map arrived.
    pub p50_ms: Option<f64>,
    pub p99_ms: Option<f64>,
    pub maps_per_sec: f64,
    pub frames_lost: Option<u64>,
    pub generator_saturated: bool,
    /// The cluster's other processes, µs per frame (name, figure).
    pub others_us_per_frame: Vec<(String, Option<f64>)>,
    /// Messages published on NATS per frame.
    pub nats_msgs_per_frame: Option<f64>,
}

impl RunFigures {
    pub fn of(variant: Variant, round: usize, report: &Report) -> RunFigures {
        let latencies = report.latencies_are_target_figures && report.latency_us.count > 0;
        let ms = |us: u64| latencies.then_some(us as f64 / 1_000.0);
        let cluster = report.cluster.as_ref();
        RunFigures {
            variant,
            round,
            cpu_us_per_frame: report.hub.cpu_us_per_frame,
            cpu_percent: report.hub.cpu_percent_avg,
            p50_ms: ms(report.latency_us.p50),
            p99_ms: ms(report.latency_us.p99),
            maps_per_sec: report.viewers.maps_per_sec,
            frames_lost: report.frames_lost,
            generator_saturated: report.generator.saturated,
            others_us_per_frame: cluster
                .map(|c| c.others.iter().map(|p| (p.name.clone(), p.cpu_us_per_frame)).collect())
                .unwrap_or_default(),
            nats_msgs_per_frame: cluster.and_then(|c| c.nats.as_ref()).map(|n| n.in_msgs_per_frame),
        }
    }
}

/// The median of `values` (the mean of the middle two for an even count); `None` when empty.
pub fn median(values: &[f64]) -> Option<f64> {
    let mut sorted: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    if sorted.is_empty() {
        return None;
    }
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    Some(if sorted.len().is_multiple_of(2) { (sorted[mid - 1] + sorted[mid]) / 2.0 } else { sorted[mid] })
}

/// One variant over the rounds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VariantSummary {
    pub variant: Variant,
    pub runs: usize,
    /// Every run's CPU per frame, in round order.
    pub cpu_us_per_frame: Vec<f64>,
    pub cpu_us_per_frame_median: Option<f64>,
    pub p50_ms: Vec<f64>,
    pub p50_ms_median: Option<f64>,
    pub p99_ms: Vec<f64>,
    pub p99_ms_median: Option<f64>,
}

fn summarize_variant(variant: Variant, runs: &[RunFigures]) -> VariantSummary {
    let of: Vec<&RunFigures> = runs.iter().filter(|r| r.variant == variant).collect();
    let cpu: Vec<f64> = of.iter().filter_map(|r| r.cpu_us_per_frame).collect();
    let p50: Vec<f64> = of.iter().filter_map(|r| r.p50_ms).collect();
    let p99: Vec<f64> = of.iter().filter_map(|r| r.p99_ms).collect();
    VariantSummary {
        variant,
        runs: of.len(),
        cpu_us_per_frame_median: median(&cpu),
        cpu_us_per_frame: cpu,
        p50_ms_median: median(&p50),
        p50_ms: p50,
        p99_ms_median: median(&p99),
        p99_ms: p99,
    }
}

/// Cluster mode against the single hub, and the NATS hop.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// Median CPU per frame, cluster watched on A − single hub, µs.
    pub cluster_a_extra_us: Option<f64>,
    /// The same as a ratio (cluster ÷ single).
    pub cluster_a_ratio: Option<f64>,
    /// Median CPU per frame, cluster watched from B − single hub, µs.
    pub cluster_b_extra_us: Option<f64>,
    pub cluster_b_ratio: Option<f64>,
    /// Each round's cluster-a − single, µs (the alternation's paired differences).
    pub cluster_a_extra_us_by_round: Vec<f64>,
    /// Each round's cluster-b − single, µs.
    pub cluster_b_extra_us_by_round: Vec<f64>,
    /// The NATS hop at p50: median p50 with viewers on B − on A, ms.
    pub nats_hop_p50_ms: Option<f64>,
    /// Its share of the cross-hub p50 (hop ÷ p50 on B).
    pub nats_hop_share_p50: Option<f64>,
    pub nats_hop_p99_ms: Option<f64>,
    pub nats_hop_share_p99: Option<f64>,
}

/// Every variant and the comparison.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CostSummary {
    pub variants: Vec<VariantSummary>,
    pub comparison: Comparison,
}

fn by_round(runs: &[RunFigures], variant: Variant) -> Vec<f64> {
    let mut rounds: Vec<usize> = runs.iter().map(|r| r.round).collect();
    rounds.sort_unstable();
    rounds.dedup();
    let cpu = |v: Variant, round: usize| runs.iter().find(|r| r.variant == v && r.round == round).and_then(|r| r.cpu_us_per_frame);
    rounds.into_iter().filter_map(|round| Some(cpu(variant, round)? - cpu(Variant::Single, round)?)).collect()
}

/// The comparison of `runs`.
pub fn summarize(runs: &[RunFigures]) -> CostSummary {
    let [single, a, b] = [Variant::Single, Variant::ClusterA, Variant::ClusterB].map(|v| summarize_variant(v, runs));
    let minus = |x: Option<f64>, y: Option<f64>| Some(x? - y?);
    let ratio = |x: Option<f64>, y: Option<f64>| Some(x? / y?).filter(|r| r.is_finite());
    let hop_p50 = minus(b.p50_ms_median, a.p50_ms_median);
    let hop_p99 = minus(b.p99_ms_median, a.p99_ms_median);
    let comparison = Comparison {
        cluster_a_extra_us: minus(a.cpu_us_per_frame_median, single.cpu_us_per_frame_median),
        cluster_a_ratio: ratio(a.cpu_us_per_frame_median, single.cpu_us_per_frame_median),
        cluster_b_extra_us: minus(b.cpu_us_per_frame_median, single.cpu_us_per_frame_median),
        cluster_b_ratio: ratio(b.cpu_us_per_frame_median, single.cpu_us_per_frame_median),
        cluster_a_extra_us_by_round: by_round(runs, Variant::ClusterA),
        cluster_b_extra_us_by_round: by_round(runs, Variant::ClusterB),
        nats_hop_p50_ms: hop_p50,
        nats_hop_share_p50: ratio(hop_p50, b.p50_ms_median),
        nats_hop_p99_ms: hop_p99,
        nats_hop_share_p99: ratio(hop_p99, b.p99_ms_median),
    };
    CostSummary { variants: vec![single, a, b].into_iter().filter(|v| v.runs > 0).collect(), comparison }
}

fn num(v: Option<f64>, decimals: usize) -> String {
    v.map(|v| format!("{v:.decimals$}")).unwrap_or_else(|| "n/a".to_owned())
}

fn list(values: &[f64], decimals: usize) -> String {
    values.iter().map(|v| format!("{v:.decimals$}")).collect::<Vec<_>>().join(", ")
}

impl CostSummary {
    /// The comparison for people.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "| variant | runs | hub CPU per frame, µs (median; each run) | p50 ms (median) | p99 ms (median) |");
        let _ = writeln!(out, "|---|---|---|---|---|");
        for v in &self.variants {
            let _ = writeln!(
                out,
                "| {} | {} | {} ({}) | {} | {} |",
                v.variant.name(),
                v.runs,
                num(v.cpu_us_per_frame_median, 1),
                list(&v.cpu_us_per_frame, 1),
                num(v.p50_ms_median, 2),
                num(v.p99_ms_median, 2)
            );
        }
        let c = &self.comparison;
        let pct = |r: Option<f64>| r.map(|r| format!("{:.0} %", r * 100.0)).unwrap_or_else(|| "n/a".to_owned());
        for (viewers_on, extra_us, ratio, by_round) in [
            ("A", c.cluster_a_extra_us, c.cluster_a_ratio, &c.cluster_a_extra_us_by_round),
            ("B", c.cluster_b_extra_us, c.cluster_b_ratio, &c.cluster_b_extra_us_by_round),
        ] {
            let _ = writeln!(
                out,
                "cluster (viewers on {viewers_on}) − single: {} µs per frame ({} ×; by round: {})",
                num(extra_us, 1),
                num(ratio, 2),
                list(by_round, 1)
            );
        }
        let _ = writeln!(
            out,
            "NATS hop (viewers on B − on A): p50 {} ms ({} of B's p50), p99 {} ms ({} of B's p99)",
            num(c.nats_hop_p50_ms, 2),
            pct(c.nats_hop_share_p50),
            num(c.nats_hop_p99_ms, 2),
            pct(c.nats_hop_share_p99)
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(variant: Variant, round: usize, cpu: f64, p50: f64, p99: f64) -> RunFigures {
        RunFigures {
            variant,
            round,
            cpu_us_per_frame: Some(cpu),
            cpu_percent: None,
            p50_ms: Some(p50),
            p99_ms: Some(p99),
            maps_per_sec: 0.0,
            frames_lost: Some(0),
            generator_saturated: false,
            others_us_per_frame: vec![],
            nats_msgs_per_frame: None,
        }
    }

    #[test]
    fn the_median_of_odd_and_even_counts_and_of_nothing() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[f64::NAN, 5.0]), Some(5.0), "a NaN is no figure");
    }

    #[test]
    fn the_extra_cost_is_against_the_single_hub_and_the_hop_is_b_against_a() {
        let runs = vec![
            run(Variant::Single, 1, 40.0, 2.0, 10.0),
            run(Variant::ClusterA, 1, 44.0, 2.1, 11.0),
            run(Variant::ClusterB, 1, 50.0, 3.0, 14.0),
            run(Variant::Single, 2, 42.0, 2.2, 12.0),
            run(Variant::ClusterA, 2, 45.0, 2.3, 12.0),
            run(Variant::ClusterB, 2, 49.0, 3.2, 16.0),
        ];
        let s = summarize(&runs);
        assert_eq!(s.variants.len(), 3);
        assert_eq!(s.variants[0].cpu_us_per_frame_median, Some(41.0));
        assert_eq!(s.variants[1].cpu_us_per_frame, vec![44.0, 45.0]);
        let c = &s.comparison;
        assert!((c.cluster_a_extra_us.unwrap() - 3.5).abs() < 1e-9, "44.5 − 41");
        assert!((c.cluster_a_ratio.unwrap() - 44.5 / 41.0).abs() < 1e-9);
        assert!((c.cluster_b_extra_us.unwrap() - 8.5).abs() < 1e-9, "49.5 − 41");
        assert_eq!(c.cluster_a_extra_us_by_round, vec![4.0, 3.0]);
        assert_eq!(c.cluster_b_extra_us_by_round, vec![10.0, 7.0]);
        // p50: B 3.1, A 2.2 → hop 0.9 ms, 0.9 / 3.1 of B's p50; p99: B 15, A 11.5 → 3.5 ms.
        assert!((c.nats_hop_p50_ms.unwrap() - 0.9).abs() < 1e-9);
        assert!((c.nats_hop_share_p50.unwrap() - 0.9 / 3.1).abs() < 1e-9);
        assert!((c.nats_hop_p99_ms.unwrap() - 3.5).abs() < 1e-9);
        assert!((c.nats_hop_share_p99.unwrap() - 3.5 / 15.0).abs() < 1e-9);
        let table = s.table();
        assert!(table.contains("| single | 2 | 41.0 (40.0, 42.0) | 2.10 | 11.00 |"), "{table}");
        assert!(table.contains("cluster (viewers on A) − single: 3.5 µs per frame (1.09 ×; by round: 4.0, 3.0)"), "{table}");
        assert!(table.contains("NATS hop (viewers on B − on A): p50 0.90 ms (29 % of B's p50), p99 3.50 ms (23 % of B's p99)"), "{table}");
    }

    #[test]
    fn a_missing_run_or_withheld_latency_leaves_its_figures_out_not_zero() {
        let mut saturated = run(Variant::ClusterB, 1, 60.0, 9.0, 90.0);
        (saturated.p50_ms, saturated.p99_ms) = (None, None);
        let runs = vec![run(Variant::Single, 1, 40.0, 2.0, 10.0), saturated, run(Variant::ClusterA, 2, 44.0, 2.0, 10.0)];
        let s = summarize(&runs);
        let c = &s.comparison;
        assert_eq!(c.nats_hop_p50_ms, None, "B's latencies were withheld");
        assert_eq!(c.cluster_b_extra_us, Some(20.0), "its CPU per frame stays a figure");
        assert_eq!(c.cluster_a_extra_us_by_round, Vec::<f64>::new(), "round 2 has no single run to pair with");
        assert_eq!(c.cluster_b_extra_us_by_round, vec![20.0]);
        let only_single = summarize(&[run(Variant::Single, 1, 40.0, 2.0, 10.0)]);
        assert_eq!(only_single.variants.len(), 1);
        assert_eq!(only_single.comparison.cluster_a_extra_us, None);
        assert!(only_single.table().contains("cluster (viewers on A) − single: n/a"));
    }

    #[test]
    fn each_variant_sets_its_target_and_viewers() {
        use clap::Parser;
        #[derive(Parser)]
        struct Wrap {
            #[command(flatten)]
            run: RunArgs,
        }
        let mut args = Wrap::parse_from(["x", "--hub-bin", "/bin/hub"]).run;
        Variant::ClusterB.apply(&mut args);
        assert_eq!((args.target, args.viewers_on), (TargetKind::HubCluster, Some(ViewersOn::B)));
        assert!(args.check().is_ok());
        Variant::ClusterA.apply(&mut args);
        assert_eq!((args.target, args.viewers_on), (TargetKind::HubCluster, Some(ViewersOn::A)));
        Variant::Single.apply(&mut args);
        assert_eq!((args.target, args.viewers_on), (TargetKind::Hub, None));
        assert!(args.check().is_ok(), "a single hub with no --viewers-on");
    }
}
