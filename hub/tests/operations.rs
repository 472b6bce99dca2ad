//! What a hospital's IT team runs, with the real hub binary. Backups of the embedded database:
//! the running hub writes one when it starts (`--backup-dir`) and reports it on `/metrics`;
//! `hub restore` puts it into a new data directory, never over a database; a hub started there
//! signs the same people in and lists the same mats. The log as a collector reads it
//! (`--log-format json`: one JSON object per line). `GET /health` on the embedded store (a
//! database server's outage: `dbserver/tests/health.rs`).
#![allow(clippy::unwrap_used)] // A test's helpers may unwrap: the panic is the failure it reports.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::process::{HUB_BIN, HubProcess, metric, provision};
use common::{eventually, eventually_async, login, request};

fn backups_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| Some(e.ok()?.path()))
                .filter(|p| hub::backup::is_backup(&p.file_name().unwrap().to_string_lossy()))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

fn restore(data: &Path, backup: &Path) -> std::process::Output {
    Command::new(HUB_BIN).arg("--data").arg(data).args(["restore", "--from"]).arg(backup).output().expect("hub restore runs")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_written_by_the_running_hub_restores_into_a_hub_with_the_same_people_and_mats() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    let backups = root.path().join("backups");
    std::fs::create_dir_all(&data).unwrap();
    let devices: serde_json::Value = serde_json::from_slice(&std::fs::read(provision(Path::new(HUB_BIN), &data, 2)).unwrap()).unwrap();
    let serials: Vec<String> = devices.as_array().unwrap().iter().map(|d| d["serial"].as_str().unwrap().to_owned()).collect();

    let hub = HubProcess::start(Path::new(HUB_BIN), &data, &["--backup-dir", backups.to_str().unwrap()]);
    assert!(eventually(Duration::from_secs(30), || backups_in(&backups).len() == 1).await, "a backup when the hub starts");
    // The file has its name a moment before the gauge is set.
    let gauge_set = eventually_async(Duration::from_secs(10), || async {
        let metrics = request(hub.listening.http, "GET", "/metrics", None, None).await.body;
        metric(&metrics, "hub_backup_last_success_timestamp_seconds").is_some_and(|written| written > 0.0)
    });
    assert!(gauge_set.await, "the backup gauge is set");
    let metrics = request(hub.listening.http, "GET", "/metrics", None, None).await.body;
    let written = metric(&metrics, "hub_backup_last_success_timestamp_seconds").expect("the backup gauge");
    assert!((written - storage::unix_now() as f64).abs() < 60.0, "{written}");
    assert_eq!(metric(&metrics, "hub_backups_failed_total"), Some(0.0));
    let backup = backups_in(&backups).remove(0);

    // Its health: the embedded database answers the probe; no NATS on a hub on its own.
    let healthy = eventually_async(Duration::from_secs(30), || async {
        let response = request(hub.listening.http, "GET", "/health", None, None).await;
        let body: serde_json::Value = serde_json::from_str(&response.body).unwrap();
        response.status == 200 && body["status"] == "ok" && body["database"]["reachable"] == true && body["nats"].is_null()
    });
    assert!(healthy.await, "{}", request(hub.listening.http, "GET", "/health", None, None).await.body);
    assert_eq!(request(hub.listening.http, "GET", "/health/live", None, None).await.status, 200);

    // Restored while the first hub runs on, into another directory.
    let restored = root.path().join("restored");
    let output = restore(&restored, &backup);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(String::from_utf8_lossy(&output.stdout).contains("2 devices"), "{}", String::from_utf8_lossy(&output.stdout));
    let again = restore(&restored, &backup);
    assert!(!again.status.success(), "never over a database");
    assert!(String::from_utf8_lossy(&again.stderr).contains("already holds a database"), "{}", String::from_utf8_lossy(&again.stderr));

    let second = HubProcess::start(Path::new(HUB_BIN), &restored, &[]);
    let token = login(second.listening.http, hub::demo::DEMO_EMAIL, hub::demo::DEMO_PASSWORD).await;
    let listed = request(second.listening.http, "GET", "/api/userDevices", Some(&token), None).await;
    assert_eq!(listed.status, 200, "{}", listed.body);
    for serial in &serials {
        assert!(listed.body.contains(serial.as_str()), "{serial} in {}", listed.body);
    }
    drop(hub);
}

#[tokio::test]
async fn a_hub_on_a_database_server_refuses_to_back_it_up() {
    let data = tempfile::tempdir().unwrap();
    let mut config = common::config(data.path());
    config.database = Some("ws://127.0.0.1:9".into());
    config.backup.dir = Some(data.path().join("backups"));
    let refused = hub::app::start(config).await.err().expect("refused");
    assert!(format!("{refused:#}").contains("surreal export"), "{refused:#}");
}

#[test]
fn the_json_log_is_one_object_per_line_with_its_time_level_and_message() {
    let data = tempfile::tempdir().unwrap();
    let run = |format: &str| {
        let output = Command::new(HUB_BIN)
            .env("HUB_LOG", "info")
            .args(["--log-format", format, "--data"])
            .arg(data.path())
            .args(["provision", "--count", "1", "--out"])
            .arg(data.path().join("devices.json"))
            .output()
            .expect("hub provision runs");
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stderr).unwrap()
    };
    let json = run("json");
    assert!(json.lines().count() >= 2, "{json}");
    for line in json.lines() {
        let event: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        for field in ["timestamp", "level", "target", "message"] {
            assert!(event[field].is_string(), "{field} in {line}");
        }
    }
    let text = run("text");
    assert!(text.lines().all(|line| !line.starts_with('{')), "{text}");
    assert!(!text.contains('\u{1b}'), "no terminal colours in a log that is not a terminal: {text}");
}
