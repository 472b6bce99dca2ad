//! A write the API acknowledged survives `kill -9` of the hub: the real binary on the embedded
//! SurrealKV store in a temporary directory, killed with SIGKILL, restarted on the same data.

mod common;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::{login, request};
use serde_json::{Value, json};

const HUB: &str = env!("CARGO_BIN_EXE_hub");

fn hub_command(data: &std::path::Path) -> Command {
    let mut command = Command::new(HUB);
    command
        .arg("--data")
        .arg(data)
        .args(["--http", "127.0.0.1:0", "--quic", "127.0.0.1:0", "--client-dir"])
        .arg(data.join("no-client"))
        .env("HUB_LOG", "warn")
        .stdin(Stdio::null());
    command
}

/// Starts the hub; returns the process and its HTTP address (read from its first line).
fn start(data: &std::path::Path) -> (Child, SocketAddr) {
    let mut child = hub_command(data).stdout(Stdio::piped()).stderr(Stdio::inherit()).spawn().expect("the hub binary starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).expect("a first line");
    let address = line
        .split_whitespace()
        .find_map(|part| part.strip_prefix("http=http://"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .parse()
        .expect("an address");
    (child, address)
}

/// Starts the hub again on data a killed hub held: the embedded store's lock may outlive the
/// process for a moment, so a start that fails is retried.
fn start_when_unlocked(data: &std::path::Path) -> (Child, SocketAddr) {
    for _ in 0..50 {
        let mut child = hub_command(data).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("the hub binary starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        if let Some(address) = line.split_whitespace().find_map(|part| part.strip_prefix("http=http://")) {
            return (child, address.parse().expect("an address"));
        }
        let _ = child.wait();
        std::thread::sleep(Duration::from_millis(200));
    }
    panic!("the hub did not restart on its data directory");
}

fn kill_9(child: &mut Child) {
    let status = Command::new("kill").arg("-9").arg(child.id().to_string()).status().expect("kill runs");
    assert!(status.success());
    let exit = child.wait().expect("the hub exits");
    assert!(!exit.success(), "killed, not shut down");
}

#[tokio::test]
async fn acknowledged_writes_survive_kill_9() {
    let data = tempfile::tempdir().unwrap();
    let created = Command::new(HUB)
        .arg("--data")
        .arg(data.path())
        .args(["create-admin", "--email", "root@durable.example.com", "--company", "Durable Clinic"])
        .env("HUB_ADMIN_PASSWORD", "durable-pass")
        .output()
        .expect("create-admin runs");
    assert!(created.status.success(), "{}", String::from_utf8_lossy(&created.stderr));

    let (mut hub, addr) = start(data.path());
    let token = login(addr, "root@durable.example.com", "durable-pass").await;
    let user = {
        let response = request(
            addr,
            "POST",
            "/api/auth/login",
            None,
            Some(&json!({"email": "root@durable.example.com", "password": "durable-pass"}).to_string()),
        )
        .await;
        response.json::<Value>()["userId"].as_str().unwrap().to_owned()
    };
    let patient = json!({ "name": "Durable Patient", "weight": 70, "height": 170, "agreeDataTreatment": true });
    let response = request(addr, "POST", &format!("/api/podometry/patients/{user}"), Some(&token), Some(&patient.to_string())).await;
    assert_eq!(response.status, 201, "{}", response.body);
    let patient_id = response.json::<Value>()["_id"]["$oid"].as_str().unwrap().to_owned();
    let device = json!({ "hardwareSerial": "DURABLE-1", "name": "Bed 1", "deviceType": "Mattress Mat IoT" });
    let response = request(addr, "POST", "/api/deviceandconfRegistration", Some(&token), Some(&device.to_string())).await;
    assert_eq!(response.status, 201, "{}", response.body);
    let settings = json!({ "thresholdValue": 25, "manualScaleValue": 450 });
    let response = request(addr, "PUT", &format!("/api/LayoutSettings/{user}"), Some(&token), Some(&settings.to_string())).await;
    assert_eq!(response.status, 201, "{}", response.body);

    kill_9(&mut hub);
    let (mut hub, addr) = start_when_unlocked(data.path());
    let token = login(addr, "root@durable.example.com", "durable-pass").await;
    let patients: Value = request(addr, "GET", &format!("/api/podometry/patients/{user}"), Some(&token), None).await.json();
    assert_eq!(patients[0]["_id"]["$oid"], patient_id.as_str());
    let devices: Value = request(addr, "GET", "/api/userDevices", Some(&token), None).await.json();
    assert_eq!(devices[0]["hardwareSerial"], "DURABLE-1");
    let layout: Value = request(addr, "GET", &format!("/api/LayoutSettings/{user}"), Some(&token), None).await.json();
    assert_eq!((layout["thresholdValue"].as_i64(), layout["manualScaleValue"].as_i64()), (Some(25), Some(450)));
    kill_9(&mut hub);
}
