//! Smoke test of the load tester against the real hub: 5 mats × 5 Hz, 2 viewers, 3 s.
//!
//! Needs the hub binary: `HUB_BIN=/path/to/hub`, or `cargo build -p hub` so that
//! `<target>/debug/hub` exists next to this test's target directory. Without it the test fails
//! with instructions rather than passing silently.

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
        .args(["--mats", "5", "--rate", "5", "--viewers", "2", "--warmup", "3s", "--duration", "3s", "--ramp", "200ms", "--quiet", "--json"])
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
}

