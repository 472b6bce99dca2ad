//! Smoke tests of the load tester against the real hub (QUIC and WebSocket ingest) and the real
//! Mosquitto (plain and TLS): a few mats for a few seconds. They assert behaviour — frames arrive,
//! nothing is lost at this load, reports and plots are written, a generator that cannot keep its
//! schedule is called saturated and its latencies withheld — never speed.
//!
//! Needs the hub binary: `HUB_BIN=/path/to/hub`, or `cargo build -p hub` so that
//! `<target>/debug/hub` exists next to this test's target directory. Without it the tests fail
//! with instructions rather than passing silently. Mosquitto (`apt-get install -y mosquitto`,
//! which scripts/test-all.sh does) is needed for the baseline parts: without it they are skipped
//! with a message, except under CI (`CI` set), where they fail.

use std::path::PathBuf;
use std::process::Command;

fn hub_binary() -> PathBuf {
    if let Some(path) = std::env::var_os("HUB_BIN") {
        return PathBuf::from(path);
    }
    // This executable lives in <target>/debug/deps/; the hub in <target>/debug/.
    let exe = std::env::current_exe().expect("test executable path");
    let debug_dir = exe.parent().and_then(|deps| deps.parent()).expect("target/debug directory");
    debug_dir.join(format!("hub{}", std::env::consts::EXE_SUFFIX))
}

#[test]
fn five_mats_two_viewers_deliver_maps_with_latencies() {
    let hub = hub_binary();
    assert!(
        hub.is_file(),
        "hub binary not found at {}: build it with `cargo build -p hub` (same target directory) or set HUB_BIN",
        hub.display()
    );
    let out_dir = tempfile::tempdir().expect("temp dir");
    let json = out_dir.path().join("smoke.json");
    let output = Command::new(env!("CARGO_BIN_EXE_loadtests"))
        .args(["run", "--hub-bin"])
        .arg(&hub)
        .args([
            "--mats",
            "5",
            "--rate",
            "5",
            "--viewers",
            "2",
            "--warmup",
            "3s",
            "--duration",
            "3s",
            "--ramp",
            "200ms",
            "--quiet",
            "--json",
        ])
        .arg(&json)
        .output()
        .expect("run loadtests");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "loadtests failed ({}):\n{stdout}\n{stderr}", output.status);
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).expect("report written")).expect("report is JSON");
    let n = |pointer: &str| report.pointer(pointer).and_then(serde_json::Value::as_u64).unwrap_or(0);
    assert!(n("/devices/frames_sent") >= 5 * 5 * 2, "frames sent: {report:#}");
    assert_eq!(n("/devices/failed"), 0, "device failures: {report:#}");
    assert!(n("/viewers/maps_delivered") > 0, "no maps delivered: {report:#}");
    assert!(n("/latency_us/count") > 0, "no latencies recorded: {report:#}");
    assert!(n("/latency_us/p50") > 0);
    assert!(n("/hub/frames_received") > 0, "hub counters: {report:#}");
    assert_eq!(report.pointer("/parameters/mats").and_then(serde_json::Value::as_u64), Some(5));
    assert!(report.pointer("/command_line").and_then(serde_json::Value::as_array).is_some_and(|a| !a.is_empty()));
    assert_eq!(report.pointer("/frames_lost").and_then(serde_json::Value::as_u64), Some(0), "every frame reached the hub: {report:#}");
    // Whether the generator kept up depends on the machine's load, so only the consistency of the
    // verdict is asserted here (the forced case is the next test).
    let saturated = report.pointer("/generator/saturated").and_then(serde_json::Value::as_bool).expect("a verdict");
    assert_eq!(report.pointer("/latencies_are_target_figures").and_then(serde_json::Value::as_bool), Some(!saturated));
    assert_eq!(stdout.contains("device → browser latency"), !saturated, "latencies printed exactly when the generator kept up: {stdout}");
    assert!(n("/generator/schedule/on_schedule") + n("/generator/schedule/late_wakeups") > 0, "{report:#}");
    if std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1) >= 2 {
        assert_eq!(
            report.pointer("/pinning/separated"),
            Some(&serde_json::Value::Bool(true)),
            "hub and generator pinned apart: {report:#}"
        );
        assert_eq!(report.pointer("/pinning/target_cpus"), Some(&serde_json::json!([0])));
        assert_eq!(report.pointer("/pinning/generator_cpus"), Some(&serde_json::json!([1])));
    }
}

fn mosquitto_present() -> bool {
    let present = std::path::Path::new("/usr/sbin/mosquitto").is_file();
    if !present {
        assert!(std::env::var_os("CI").is_none(), "CI must install mosquitto (apt-get install -y mosquitto; scripts/test-all.sh does)");
        eprintln!("mosquitto is not installed: the baseline part of this smoke test is skipped (apt-get install -y mosquitto)");
    }
    present
}

/// A slot woken later than 0 ms counts as late, so every run saturates: the report must say so
/// and withhold the latencies, while the frames (over WebSocket ingest) still arrive.
#[test]
fn a_generator_behind_its_schedule_is_reported_saturated_and_its_latencies_withheld() {
    let hub = hub_binary();
    assert!(hub.is_file(), "hub binary not found at {}: build it with `cargo build -p hub` or set HUB_BIN", hub.display());
    let out_dir = tempfile::tempdir().expect("temp dir");
    let json = out_dir.path().join("saturated.json");
    let output = Command::new(env!("CARGO_BIN_EXE_loadtests"))
        .args(["run", "--transport", "ws", "--hub-bin"])
        .arg(&hub)
        .args([
            "--mats",
            "3",
            "--rate",
            "5",
            "--viewers",
            "1",
            "--warmup",
            "2s",
            "--duration",
            "2s",
            "--ramp",
            "100ms",
            "--late-threshold",
            "0ms",
            "--quiet",
            "--json",
        ])
        .arg(&json)
        .output()
        .expect("run loadtests");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "loadtests failed:\n{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).expect("report written")).expect("JSON");
    assert_eq!(report.pointer("/parameters/transport").and_then(serde_json::Value::as_str), Some("ws"));
    assert!(
        report.pointer("/hub/frames_received").and_then(serde_json::Value::as_u64).unwrap_or(0) > 0,
        "frames arrived over /ingest: {report:#}"
    );
    assert_eq!(report.pointer("/frames_lost").and_then(serde_json::Value::as_u64), Some(0), "{report:#}");
    assert_eq!(report.pointer("/generator/saturated"), Some(&serde_json::Value::Bool(true)), "{report:#}");
    assert_eq!(report.pointer("/latencies_are_target_figures"), Some(&serde_json::Value::Bool(false)));
    assert!(stdout.contains("GENERATOR SATURATED"), "{stdout}");
    assert!(!stdout.contains("device → browser latency"), "latencies of a saturated run are not printed as hub figures: {stdout}");
}

/// A two-point sweep of the hub over QUIC and of Mosquitto over TLS: the JSON, the SVG next to it,
/// frames relayed by the broker with nothing lost, and the comparison table.
#[test]
fn a_small_sweep_writes_points_a_plot_and_the_broker_comparison() {
    let hub = hub_binary();
    assert!(hub.is_file(), "hub binary not found at {}: build it with `cargo build -p hub` or set HUB_BIN", hub.display());
    let targets = if mosquitto_present() { "hub-quic,mosquitto-tls" } else { "hub-quic" };
    let out_dir = tempfile::tempdir().expect("temp dir");
    let json = out_dir.path().join("sweep.json");
    let output = Command::new(env!("CARGO_BIN_EXE_loadtests"))
        .args(["sweep", "--targets", targets, "--from", "2", "--step", "2", "--max", "4", "--mats-per-viewer", "2", "--hub-bin"])
        .arg(&hub)
        .args(["--rate", "5", "--warmup", "2s", "--duration", "2s", "--ramp", "100ms", "--quiet", "--json"])
        .arg(&json)
        .output()
        .expect("run loadtests sweep");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "sweep failed:\n{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).expect("sweep written")).expect("JSON");
    let svg = std::fs::read_to_string(out_dir.path().join("sweep.svg")).expect("plot written next to the JSON");
    assert!(svg.starts_with("<svg") && svg.contains(r#"data-target="hub-quic""#), "{svg}");
    let points = doc["points"].as_array().expect("points");
    let of = |t: &str| points.iter().filter(|p| p["target"] == t).collect::<Vec<_>>();
    let hub_points = of("hub-quic");
    assert!(!hub_points.is_empty(), "{doc:#}");
    assert_eq!(hub_points[0]["mats"], 2);
    assert!(hub_points.iter().all(|p| p["frames_lost"] == 0), "{doc:#}");
    if targets.contains("mosquitto") {
        let broker = of("mosquitto-tls");
        assert!(!broker.is_empty(), "{doc:#}");
        assert!(
            broker.iter().all(|p| p["frames_lost"] == 0 && p["delivered_fps"].as_f64().unwrap_or(0.0) > 0.0),
            "the broker relayed every frame: {doc:#}"
        );
        assert!(svg.contains(r#"data-target="mosquitto-tls""#));
        assert_eq!(doc["ratios"].as_array().map(Vec::len), Some(1), "{doc:#}");
        assert!(stdout.contains("| hub-quic ÷ mosquitto-tls |"), "{stdout}");
        assert!(stdout.contains("The broker only relays"), "{stdout}");
    }
}

#[test]
fn a_storm_reads_memory_per_mat_and_times_the_fleet_back_after_a_kill() {
    let hub = hub_binary();
    assert!(hub.is_file(), "hub binary not found at {}: build it with `cargo build -p hub` or set HUB_BIN", hub.display());
    let out_dir = tempfile::tempdir().expect("temp dir");
    let json = out_dir.path().join("storm.json");
    let output = Command::new(env!("CARGO_BIN_EXE_loadtests"))
        .args(["storm", "--hub-bin"])
        .arg(&hub)
        .args(["--mats", "12", "--rate", "2", "--ramp", "500ms", "--settle", "2s", "--timeout", "60s", "--ending", "kill", "--json"])
        .arg(&json)
        .output()
        .expect("run loadtests storm");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "loadtests storm failed ({}):\n{stdout}\n{stderr}", output.status);
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).expect("report written")).expect("report is JSON");
    assert_eq!(report["mats"], 12);
    assert_eq!(report["ending"], "kill");
    // Every milestone reached, on the first connection and after the restart: the new process
    // counted all 12 mats (the killed one's connections were reset, or timed out, and reopened).
    for phase in ["first_connection", "reconnection"] {
        let milestones = report[phase].as_array().unwrap_or_else(|| panic!("{phase}: {report:#}"));
        assert_eq!(milestones.len(), 4, "{report:#}");
        assert_eq!(milestones.last().and_then(|m| m["mats"].as_u64()), Some(12));
        assert!(milestones.iter().all(|m| m["secs"].as_f64().is_some()), "{phase} not complete: {report:#}");
    }
    assert!(report["hub_rss_with_mats_mib"].as_f64().unwrap_or(0.0) > 0.0, "{report:#}");
    assert!(report["restart_serving_secs"].as_f64().is_some_and(|s| s > 0.0), "{report:#}");
    assert!(
        report["warnings"].as_array().is_some_and(|w| w.iter().all(|w| !w.as_str().unwrap_or("").contains("not every mat"))),
        "{report:#}"
    );
    assert!(stdout.contains("mats back:"), "{stdout}");
}
