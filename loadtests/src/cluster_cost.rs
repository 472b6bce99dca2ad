//! `loadtests cluster-cost`: the same load on a single hub and on hub A of a two-hub cluster
//! (watched on A, watched from B), alternating for `--rounds`, each run on fresh processes; then
//! the comparison (`cluster_summary.rs`) as a table and one JSON with every run's report (issue 25).

use std::path::Path;

use anyhow::{Context, Result, bail};
use serde::Serialize;

use crate::RunArgs;
use crate::cluster_summary::{self, CostSummary, RunFigures, Variant};
use crate::report::Report;

#[derive(Debug, clap::Args)]
pub struct ClusterCostArgs {
    /// Everything a run takes (--target and --viewers-on are set per variant; --json is the
    /// comparison's).
    #[command(flatten)]
    pub run: RunArgs,
    /// How many times the variants run, in turn.
    #[arg(long, default_value_t = 2)]
    rounds: usize,
    /// The variants of a round, in order.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "single,cluster-a,cluster-b")]
    variants: Vec<Variant>,
}

/// One run of the comparison with its full report.
#[derive(Debug, Serialize)]
struct RunRecord {
    figures: RunFigures,
    report: Report,
}

/// The JSON document.
#[derive(Debug, Serialize)]
struct CostDocument {
    command_line: Vec<String>,
    /// The load-average line of `/proc/loadavg` before the first run and after the last.
    loadavg_before: String,
    loadavg_after: String,
    summary: CostSummary,
    runs: Vec<RunRecord>,
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg").map(|s| s.trim().to_owned()).unwrap_or_default()
}

pub async fn run(args: ClusterCostArgs) -> Result<()> {
    if args.rounds == 0 || args.variants.is_empty() {
        bail!("--rounds and --variants need at least one");
    }
    if args.run.hub_bin.is_none() {
        bail!("cluster-cost starts its own hubs: give --hub-bin");
    }
    let command_line: Vec<String> = std::env::args().collect();
    let loadavg_before = loadavg();
    let mut runs = Vec::new();
    for round in 1..=args.rounds {
        for &variant in &args.variants {
            let mut run_args = args.run.clone();
            variant.apply(&mut run_args);
            run_args.json = None;
            eprintln!("round {round}/{}: {} (load average {})", args.rounds, variant.name(), loadavg());
            let report =
                crate::run_once(&run_args, command_line.clone()).await.with_context(|| format!("round {round}, {}", variant.name()))?;
            println!("{}", report.table());
            runs.push(RunRecord { figures: RunFigures::of(variant, round, &report), report });
        }
    }
    let figures: Vec<RunFigures> = runs.iter().map(|r| r.figures.clone()).collect();
    let summary = cluster_summary::summarize(&figures);
    println!("{}", summary.table());
    let doc = CostDocument { command_line, loadavg_before, loadavg_after: loadavg(), summary, runs };
    if let Some(path) = &args.run.json {
        write_json(path, &doc)?;
        println!("report written to {}", path.display());
    }
    Ok(())
}

fn write_json(path: &Path, doc: &CostDocument) -> Result<()> {
    let json = serde_json::to_string_pretty(doc)?;
    std::fs::write(path, json).with_context(|| format!("writing {}", path.display()))
}
