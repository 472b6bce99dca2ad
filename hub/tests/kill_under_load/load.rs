//! The load of the kill tests, shared by the single-hub kill test (`hub/tests/kill_under_load.rs`)
//! and the cluster's (`dbserver/tests/cluster_failures.rs`), which include this file by path next
//! to the ledger: API writers (patients, weights, analyses, deletes, repositioning intervals), a
//! nurse listing and attending alarms, and the read-back of the hub checked against the ledger.
//! The including test's root provides `try_request` and `Response` (the HTTP client) and the
//! `ledger` module.
#![allow(clippy::unwrap_used)] // A test's helpers may unwrap: the panic is the failure it reports.

use std::collections::{BTreeMap, BTreeSet};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::{StreamExt, stream};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use tokio::sync::RwLock;

use crate::ledger::{Ledger, SeenAlarm, missing_without_alarm};
use crate::{Response, try_request};

/// One mat of the fleet.
#[derive(Debug, Clone)]
pub struct Mat {
    pub id: String,
    pub serial: String,
}

/// What the load tasks share.
pub struct Shared {
    pub http: SocketAddr,
    /// The hub that runs a device's actor, where its own reads and writes (its repositioning
    /// clock) go: the hub, or a cluster's owner of the device. (Asking another hub of a cluster
    /// would start an idle actor of the device there, which shows it offline on that hub 30 s
    /// later: docs/reliability.md.)
    pub owner: Box<dyn Fn(&str) -> SocketAddr + Send + Sync>,
    pub user: String,
    pub token: std::sync::RwLock<String>,
    pub mats: Vec<Mat>,
    pub ledger: Mutex<Ledger>,
    /// Held for reading around each client operation; the test holds it for writing while the
    /// hub is down and being checked, so the checks see a quiet hub.
    pub gate: RwLock<()>,
    pub stop: AtomicBool,
    /// Whether the writers set repositioning intervals (the cluster test does not: a PUT that a
    /// hub paused while it was in flight answers after its mat moved applies to that hub's idle
    /// actor, not to the owner's clock — docs/reliability.md §6, known issues).
    pub repositioning_writes: bool,
    /// Calls answered 5xx other than 503 `busy` or a proxy's 502/504 ([`Shared::call_on`]).
    pub server_errors: std::sync::atomic::AtomicU64,
    /// Contradictions seen while running (an attended alarm pending again).
    pub wrong: Mutex<Vec<String>>,
}

impl Shared {
    /// The load's shared state for `mats`, writing through `http` as `user`.
    pub fn new(
        http: SocketAddr,
        owner: Box<dyn Fn(&str) -> SocketAddr + Send + Sync>,
        user: String,
        token: String,
        mats: Vec<Mat>,
    ) -> Shared {
        Shared {
            http,
            owner,
            repositioning_writes: true,
            user,
            token: std::sync::RwLock::new(token),
            mats,
            ledger: Mutex::new(Ledger::default()),
            gate: RwLock::new(()),
            stop: AtomicBool::new(false),
            server_errors: std::sync::atomic::AtomicU64::new(0),
            wrong: Mutex::new(Vec::new()),
        }
    }

    pub fn token(&self) -> String {
        self.token.read().unwrap().clone()
    }

    pub async fn call(&self, method: &str, path: &str, body: Option<Value>) -> std::io::Result<Response> {
        self.call_on(self.http, method, path, body).await
    }

    /// [`Self::call`] on `hub`. Counts and prints an answer 5xx other than 503 `busy` (retry
    /// later) and a proxy's 502 and 504 (a hub that died with the request in flight, its outcome
    /// unknown as a cut connection's): a failure the API did not turn into a retry.
    pub async fn call_on(&self, hub: SocketAddr, method: &str, path: &str, body: Option<Value>) -> std::io::Result<Response> {
        let body = body.map(|b| b.to_string());
        let answer = try_request(hub, method, path, Some(&self.token()), body.as_deref()).await;
        if let Ok(response) = &answer
            && response.status >= 500
            && ![502, 503, 504].contains(&response.status)
        {
            eprintln!("{method} {path} on {hub} answered {}: {}", response.status, response.body);
            self.server_errors.fetch_add(1, Ordering::Relaxed);
        }
        answer
    }

    /// Records the outcome of a write: `Some(response)` when acknowledged (2xx).
    pub fn outcome(&self, answer: std::io::Result<Response>) -> Option<Response> {
        match answer {
            Ok(response) if (200..300).contains(&response.status) => Some(response),
            Ok(_) => {
                self.ledger.lock().unwrap().not_acknowledged(true);
                None
            }
            Err(_) => {
                self.ledger.lock().unwrap().not_acknowledged(false);
                None
            }
        }
    }
}

pub fn oid(value: &Value) -> String {
    value["_id"]["$oid"].as_str().unwrap_or_else(|| panic!("an _id: {value}")).to_owned()
}

/// A client writing through the API: patients, their weights, analyses, deletes, repositioning
/// intervals. It updates only what it created, so the ledger's order of writes is the hub's.
pub async fn writer(shared: Arc<Shared>, index: usize, writers: usize, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut own_patients: Vec<String> = Vec::new();
    let mut own_analyses: Vec<String> = Vec::new();
    let own_mats: Vec<Mat> = shared.mats.iter().skip(index).step_by(writers.max(1)).cloned().collect();
    let mut n = 0u64;
    while !shared.stop.load(Ordering::Relaxed) {
        let open = shared.gate.read().await;
        // A hub that does not answer is down: wait a little rather than count a storm of refusals.
        if try_request(shared.http, "GET", "/metrics", None, None).await.is_err() {
            drop(open);
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        }
        n += 1;
        let choice = rng.random_range(0..100);
        if own_patients.is_empty() || choice < 20 {
            let weight = rng.random_range(40..120);
            let body = json!({ "name": format!("Patient {index}-{n}"), "weight": weight, "height": 170, "agreeDataTreatment": true });
            let answer = shared.call("POST", &format!("/api/podometry/patients/{}", shared.user), Some(body)).await;
            if let Some(response) = shared.outcome(answer) {
                let id = oid(&response.json());
                shared.ledger.lock().unwrap().patient_created(&id, weight);
                own_patients.push(id);
            }
        } else if choice < 40 {
            let id = own_patients[rng.random_range(0..own_patients.len())].clone();
            let weight = rng.random_range(40..120);
            shared.ledger.lock().unwrap().patient_update_sent(&id, weight);
            let body = json!({ "name": format!("Patient {index}-{id}"), "weight": weight, "height": 170 });
            let answer = shared.call("PUT", &format!("/api/podometry/patient/{id}"), Some(body)).await;
            if shared.outcome(answer).is_some() {
                shared.ledger.lock().unwrap().patient_update_acked(&id, weight);
            }
        } else if choice < 80 {
            let patient = own_patients[rng.random_range(0..own_patients.len())].clone();
            let body = json!({ "analysisType": "Static", "notes": format!("writer {index}, op {n}"), "creationDate": storage::unix_now(),
                "mapPreview": [[0, 5], [7, 0]], "additionalParameters": [{ "name": "activePoints", "value": 2 }] });
            let answer = shared.call("POST", &format!("/api/podometryAnalysis/{patient}"), Some(body)).await;
            if let Some(response) = shared.outcome(answer) {
                let id = oid(&response.json());
                shared.ledger.lock().unwrap().analysis_created(&id);
                own_analyses.push(id);
            }
        } else if choice < 90 && !own_analyses.is_empty() {
            let id = own_analyses.swap_remove(rng.random_range(0..own_analyses.len()));
            shared.ledger.lock().unwrap().analysis_delete_sent(&id);
            let answer = shared.call("DELETE", &format!("/api/podometryAnalysis/specific/{id}"), None).await;
            if shared.outcome(answer).is_some() {
                shared.ledger.lock().unwrap().analysis_delete_acked(&id);
            }
        } else if shared.repositioning_writes && !own_mats.is_empty() {
            let mat = &own_mats[rng.random_range(0..own_mats.len())];
            let minutes = rng.random_range(15..=1440);
            shared.ledger.lock().unwrap().repositioning_sent(&mat.id, minutes);
            let path = format!("/api/device/{}/repositioning", mat.id);
            let answer = shared.call_on((shared.owner)(&mat.id), "PUT", &path, Some(json!({ "minutes": minutes }))).await;
            if shared.outcome(answer).is_some() {
                shared.ledger.lock().unwrap().repositioning_acked(&mat.id, minutes);
            }
        }
    }
}

/// Parses `GET /api/iotAlarms/{id}`.
pub fn alarms_of(body: &Value) -> Vec<SeenAlarm> {
    body.as_array()
        .unwrap_or_else(|| panic!("a list of alarms: {body}"))
        .iter()
        .map(|a| SeenAlarm {
            id: oid(a),
            kind: a["kind"].as_str().unwrap_or_default().to_owned(),
            creation_date: a["creationDate"].as_i64().unwrap_or_default(),
            attended: a["hasBeenAttended"].as_bool().unwrap_or_default(),
            attended_at: a["attendedTime"].as_i64(),
        })
        .collect()
}

/// A nurse: lists a mat's alarms, and attends them about one time in three.
pub async fn nurse(shared: Arc<Shared>, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    while !shared.stop.load(Ordering::Relaxed) {
        let _open = shared.gate.read().await;
        let mat = shared.mats[rng.random_range(0..shared.mats.len())].clone();
        let Ok(listed) = shared.call("GET", &format!("/api/iotAlarms/{}", mat.id), None).await else { continue };
        if listed.status != 200 {
            continue;
        }
        let alarms = alarms_of(&listed.json());
        let wrong = shared.ledger.lock().unwrap().alarms_listed(&mat.id, &alarms);
        shared.wrong.lock().unwrap().extend(wrong);
        if alarms.iter().any(|a| !a.attended) && rng.random_bool(1.0 / 3.0) {
            let covered = shared.ledger.lock().unwrap().attend_sent(&mat.id);
            let answer = shared.call("PUT", &format!("/api/attendAlarm/{}", mat.serial), None).await;
            if shared.outcome(answer).is_some() {
                shared.ledger.lock().unwrap().attend_acked(&covered);
            }
        }
        drop(_open);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A read of `device`'s own state, answered by the hub that runs it.
pub async fn device_read(shared: &Shared, device: &str, path: &str) -> Value {
    let hub = (shared.owner)(device);
    let response = try_request(hub, "GET", path, Some(&shared.token()), None).await.unwrap_or_else(|e| panic!("GET {path} on {hub}: {e}"));
    assert_eq!(response.status, 200, "GET {path} on {hub}: {}", response.body);
    response.json()
}

pub async fn get(shared: &Shared, path: &str) -> Value {
    let response = shared.call("GET", path, None).await.unwrap_or_else(|e| panic!("GET {path}: {e}"));
    assert_eq!(response.status, 200, "GET {path}: {}", response.body);
    response.json()
}

/// Reads the hub back and checks it against the ledger; returns what is wrong.
/// How long a Missing card's alarm may take to reach the store: the writer flushes every 200 ms
/// and, after a database outage, retries with a back-off of up to
/// `actors::actor::storage_writer::MAX_RETRY_DELAY` (10 s), so an alarm raised while the database
/// was away reaches it up to that long after the database is back (the cluster test's read-back
/// starts 3 s after its restart). Only spent on a card that looks wrong.
const STORE_CATCH_UP: Duration = Duration::from_secs(12);

/// A device's entrances and exits (Unix seconds).
type Presence = (Vec<i64>, Vec<i64>);

/// A device's presence entries dated up to `until` (Unix seconds): entrances and exits.
async fn presence_of(shared: &Shared, device: &str, until: i64) -> Presence {
    let presence = get(shared, &format!("/api/presenceLogs/{device}")).await;
    let times = |log_id: &str| -> Vec<i64> {
        presence
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["logId"] == log_id)
            .filter_map(|e| e["creationDate"].as_i64())
            .filter(|at| *at <= until)
            .collect()
    };
    (times("1"), times("0"))
}

/// How many mats' rows the read-back reads at once. One at a time, a read-back of 150 mats on
/// debug hubs took about two minutes; each kind of read still finishes for every mat before the
/// next kind begins (the order the Missing ⇒ alarm check relies on).
const READS_AT_ONCE: usize = 8;

pub async fn verify(shared: &Shared) -> Vec<String> {
    let mut wrong = Vec::new();
    let began_at = storage::unix_now();
    // Missing ⇒ alarm, read in this order while the mats stream: entrances, then statuses, then
    // alarms. A status read as Missing had its alarm in the store when it was read (the invariant
    // under test), alarms are never deleted, and the entrance that alarm follows is no later than
    // the last one read before; so nothing a mat does during the reads can look like a lost alarm.
    // (Alarms first, as this once read them, failed the full run: a mat that went Missing between
    // the alarm read and the status read looked like a Missing patient without an alarm.)
    let (mut entrances, mut exits) = (BTreeMap::new(), BTreeMap::new());
    let presence: Vec<(String, Presence)> = stream::iter(&shared.mats)
        .map(|mat| async move { (mat.id.clone(), presence_of(shared, &mat.id, i64::MAX).await) })
        .buffer_unordered(READS_AT_ONCE)
        .collect()
        .await;
    for (id, (entered, left)) in presence {
        entrances.insert(id.clone(), entered);
        exits.insert(id, left);
    }
    let cards = get(shared, "/api/deviceConfCompany").await;
    let cards_read_at = storage::unix_now();
    let mut alarms: BTreeMap<String, Vec<SeenAlarm>> = stream::iter(&shared.mats)
        .map(|mat| async move { (mat.id.clone(), alarms_of(&get(shared, &format!("/api/iotAlarms/{}", mat.id)).await)) })
        .buffer_unordered(READS_AT_ONCE)
        .collect()
        .await;
    for card in cards.as_array().unwrap() {
        let Some(id) = card["deviceId"]["$oid"].as_str() else { continue };
        let (Some(status), Some(listed)) = (card["patientStatus"].as_str(), alarms.get_mut(id)) else { continue };
        if missing_without_alarm(id, status, listed, &entrances[id], &exits[id]).is_none() {
            continue;
        }
        // A card shows the live status, and a mat that reconnected at once (the restarted hub
        // resets the old connections) may have just gone Missing: its alarm reaches the store with
        // the writer's next flush (200 ms), since nothing on the frame path waits for storage.
        // So the alarm gets STORE_CATCH_UP to appear; a status restored Missing without its alarm
        // — the fault under test — never gets one (its machine takes the alarm as raised). The
        // presence rows dated up to the card's read get the same time: the exit that began this
        // absence comes through the same writer, as late after a database outage (the cluster
        // run failed on a card whose exit, at 1165, was not stored yet when the rows were read).
        let deadline = tokio::time::Instant::now() + STORE_CATCH_UP;
        let (mut entered, mut left) = (entrances[id].clone(), exits[id].clone());
        let mut still = missing_without_alarm(id, status, listed, &entered, &left);
        while still.is_some() && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(250)).await;
            *listed = alarms_of(&get(shared, &format!("/api/iotAlarms/{id}")).await);
            (entered, left) = presence_of(shared, id, cards_read_at).await;
            still = missing_without_alarm(id, status, listed, &entered, &left);
        }
        // When the rows and the card were read, for the diagnosis: a card read while the patient
        // lay in bed is a status restored wrong, one read just after an exit a store behind.
        wrong.extend(still.map(|line| {
            format!(
                "{line} [read-back began at Unix {began_at}, the card read at Unix {cards_read_at}, the rows re-read until Unix {}]",
                storage::unix_now()
            )
        }));
    }
    {
        let mut ledger = shared.ledger.lock().unwrap();
        for (device, listed) in &alarms {
            wrong.extend(ledger.verify_alarms(device, listed));
            // Every alarm read now is owed at the next restart too (pending ones stay pending).
            wrong.extend(ledger.alarms_listed(device, listed));
        }
    }

    let patients = get(shared, &format!("/api/podometry/patients/{}", shared.user)).await;
    let patients: BTreeMap<String, i64> =
        patients.as_array().unwrap().iter().map(|p| (oid(p), p["weight"].as_f64().unwrap_or(-1.0).round() as i64)).collect();
    wrong.extend(shared.ledger.lock().unwrap().verify_patients(&patients));

    // Every page of the history (10 analyses each: hundreds in a long run), the first for the
    // number of pages, the others READS_AT_ONCE at a time (the writers are held: nothing moves).
    let page_of = |page: u64| async move { get(shared, &format!("/api/podometryAnalysisPage/{}/all/{page}", shared.user)).await };
    let first = page_of(1).await;
    let pages = first["totalPages"].as_u64().unwrap_or(0);
    let rest: Vec<Value> = stream::iter(2..=pages).map(page_of).buffer_unordered(READS_AT_ONCE).collect().await;
    let mut analyses = BTreeSet::new();
    for listed in std::iter::once(&first).chain(&rest) {
        analyses.extend(listed["analyses"].as_array().unwrap().iter().map(oid));
    }
    wrong.extend(shared.ledger.lock().unwrap().verify_analyses(&analyses));

    let devices: Vec<String> = shared.ledger.lock().unwrap().repositioned_devices().map(str::to_owned).collect();
    for device in devices {
        let minutes = device_read(shared, &device, &format!("/api/device/{device}/repositioning")).await["minutes"].as_i64().unwrap();
        wrong.extend(shared.ledger.lock().unwrap().verify_repositioning(&device, minutes));
    }
    wrong
}

/// Signs in as the demo administrator through `addr` until it answers (the first successful REST
/// call after a start or a failover), within `limit`; returns the token and the user id.
pub async fn login_when_serving(addr: SocketAddr, limit: Duration) -> (String, String) {
    let body = json!({ "email": hub::demo::DEMO_EMAIL, "password": hub::demo::DEMO_PASSWORD }).to_string();
    let deadline = std::time::Instant::now() + limit;
    loop {
        if let Ok(response) = try_request(addr, "POST", "/api/auth/login", None, Some(&body)).await
            && response.status == 200
        {
            let value: Value = response.json();
            return (value["token"].as_str().unwrap().to_owned(), value["userId"].as_str().unwrap().to_owned());
        }
        assert!(std::time::Instant::now() < deadline, "{addr} does not serve REST calls");
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}
