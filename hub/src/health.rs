//! The hub's health as its operators' monitoring reads it: whether the database answers,
//! whether NATS does (a hub in a cluster), how far behind the storage writer is, and whether
//! alarms reach the ward's alarm managers.
//!
//! A probe task asks the database every [`PROBE_EVERY`] (a trivial query, at most
//! [`PROBE_TIMEOUT`]) and reads the NATS connection's state; it keeps the answers in
//! [`HubMetrics`], which `/metrics` renders as gauges and `GET /health` as JSON. No request to
//! `/health` reaches the database, so a load balancer or a monitor polling it costs nothing.
//! Why a load balancer checks `/health/live` and not `/health`: docs/decisions.md, "The hub's
//! health for the IT team".

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use actors::metrics::{HubMetrics, unix_now_ms};
use serde::Serialize;
use storage::Store;
use tokio::sync::watch;

use crate::cluster::Cluster;

/// How often the probe asks the database.
pub const PROBE_EVERY: Duration = Duration::from_secs(5);
/// How long the database has to answer the probe.
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(3);
/// A record waiting longer than this for the database makes the hub degraded: what it holds in
/// memory would be lost with the process, and past the writer's bound the oldest is dropped.
pub const STORAGE_BEHIND_AFTER: Duration = Duration::from_secs(60);
/// An alarm report waiting longer than this for its alarm manager makes the hub degraded: an
/// alarm the ward's alarm system has not heard of (the sender reads its queue at least every
/// 30 s, so it is seen within 90 s).
pub const ALARM_REPORTS_BEHIND_AFTER: Duration = Duration::from_secs(60);

/// What `GET /health` answers (503 when `status` is `degraded`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HealthJson {
    /// `ok`, or `degraded` when anything in `problems`.
    pub status: &'static str,
    /// What is wrong: `database` (it did not answer the last probe), `nats` (a hub in a cluster
    /// that lost NATS), `storageBehind` (a record has waited more than a minute to be written),
    /// `alarmManagerUnreachable` (an alarm manager a company reports to does not answer),
    /// `alarmReportsBehind` (an alarm report has waited more than a minute to be delivered).
    pub problems: Vec<&'static str>,
    pub database: DatabaseJson,
    /// `null` on a hub on its own.
    pub nats: Option<NatsJson>,
    pub storage: StorageJson,
    pub alarm_reports: AlarmReportsJson,
    pub devices_connected: i64,
    pub sessions_connected: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DatabaseJson {
    /// Whether the last probe was answered (`null` before the first).
    pub reachable: Option<bool>,
    /// How long the last answered probe took, ms.
    pub latency_ms: Option<u64>,
    /// When the last probe ended, Unix ms (`null` before the first).
    pub checked_at_ms: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NatsJson {
    pub connected: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StorageJson {
    /// Records (device logs, alarms, turns, captures) waiting for the database.
    pub pending_records: u64,
    /// How long the oldest of them has waited, s (0 when none waits).
    pub oldest_pending_seconds: u64,
    /// Records dropped since the hub started because the database was behind too long (lost).
    pub dropped_records: u64,
}

/// The alarm reports to the companies' alarm managers (IHE PCD-04) as the sender last read them
/// (every company's).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AlarmReportsJson {
    /// Reports waiting to be delivered.
    pub pending: u64,
    /// How long the oldest of them has waited, s (0 when none waits).
    pub oldest_pending_seconds: u64,
    /// Reports an alarm manager refused, waiting for a company administrator's resend.
    pub dead_letters: u64,
    /// Alarm managers the hub cannot reach now.
    pub links_down: u64,
}

/// The hub's health from what the probe and the storage writer last wrote into `metrics`, at
/// `now_ms` (Unix ms).
pub fn report(metrics: &HubMetrics, now_ms: u64) -> HealthJson {
    let health = &metrics.health;
    let reachable = match health.database_up.load(Ordering::Relaxed) {
        1 => Some(true),
        0 => Some(false),
        _ => None,
    };
    let nats = match health.nats_connected.load(Ordering::Relaxed) {
        1 => Some(NatsJson { connected: true }),
        0 => Some(NatsJson { connected: false }),
        _ => None,
    };
    let storage = StorageJson {
        pending_records: metrics.storage.pending_records.load(Ordering::Relaxed),
        oldest_pending_seconds: metrics.storage.oldest_pending_age_s(now_ms),
        dropped_records: metrics.storage.records_dropped.load(Ordering::Relaxed),
    };
    let queue = &metrics.alarm_queue;
    let alarm_reports = AlarmReportsJson {
        pending: queue.pending.load(Ordering::Relaxed),
        oldest_pending_seconds: queue.oldest_pending_age_s.load(Ordering::Relaxed),
        dead_letters: queue.dead.load(Ordering::Relaxed),
        links_down: queue.links_down.load(Ordering::Relaxed),
    };
    let mut problems = Vec::new();
    if reachable == Some(false) {
        problems.push("database");
    }
    if nats.as_ref().is_some_and(|n| !n.connected) {
        problems.push("nats");
    }
    if storage.oldest_pending_seconds > STORAGE_BEHIND_AFTER.as_secs() {
        problems.push("storageBehind");
    }
    if alarm_reports.links_down > 0 {
        problems.push("alarmManagerUnreachable");
    }
    if alarm_reports.oldest_pending_seconds > ALARM_REPORTS_BEHIND_AFTER.as_secs() {
        problems.push("alarmReportsBehind");
    }
    let checked_at_ms = health.database_checked_unix_ms.load(Ordering::Relaxed);
    HealthJson {
        status: if problems.is_empty() { "ok" } else { "degraded" },
        problems,
        database: DatabaseJson {
            reachable,
            latency_ms: (reachable == Some(true)).then(|| health.database_probe_ms.load(Ordering::Relaxed)),
            checked_at_ms: (checked_at_ms > 0).then_some(checked_at_ms),
        },
        nats,
        storage,
        alarm_reports,
        devices_connected: metrics.devices_connected.load(Ordering::Relaxed),
        sessions_connected: metrics.sessions_connected.load(Ordering::Relaxed),
    }
}

/// Probes the database (and reads NATS's state, reconnections and dropped messages, in a
/// cluster) every [`PROBE_EVERY`] until the hub stops. A change of the database's is logged
/// once, not every probe.
pub async fn run(store: Store, cluster: Option<Cluster>, metrics: Arc<HubMetrics>, mut stopped: watch::Receiver<bool>) {
    let health = &metrics.health;
    loop {
        let began = std::time::Instant::now();
        let answered = match tokio::time::timeout(PROBE_TIMEOUT, store.ping()).await {
            Ok(Ok(())) => Ok(began.elapsed()),
            Ok(Err(e)) => Err(format!("{e:#}")),
            Err(_) => Err(format!("no answer within {} s", PROBE_TIMEOUT.as_secs())),
        };
        let was = health.database_up.load(Ordering::Relaxed);
        match &answered {
            Ok(took) => {
                health.database_probe_ms.store(took.as_millis() as u64, Ordering::Relaxed);
                health.database_up.store(1, Ordering::Relaxed);
                if was == 0 {
                    tracing::info!("the database answers again");
                }
            }
            Err(error) => {
                health.database_up.store(0, Ordering::Relaxed);
                if was != 0 {
                    tracing::error!(%error, "the database does not answer");
                }
            }
        }
        health.database_checked_unix_ms.store(unix_now_ms(), Ordering::Relaxed);
        if let Some(cluster) = &cluster {
            let connected = cluster.client.connection_state() == async_nats::connection::State::Connected;
            health.nats_connected.store(i64::from(connected), Ordering::Relaxed);
            let reconnections = *cluster.link.reconnections().borrow();
            metrics.cluster.nats_reconnections.store(reconnections, Ordering::Relaxed);
            metrics.cluster.nats_messages_dropped.store(cluster.link.dropped(), Ordering::Relaxed);
        }
        tokio::select! {
            _ = tokio::time::sleep(PROBE_EVERY) => {}
            _ = stopped.wait_for(|stop| *stop) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hub_is_degraded_by_its_database_its_nats_or_a_writer_a_minute_behind() {
        let metrics = HubMetrics::default();
        let now = 1_800_000_000_000;
        let fresh = report(&metrics, now);
        assert_eq!((fresh.status, fresh.database.reachable, fresh.nats.clone()), ("ok", None, None), "before the first probe, on its own");
        metrics.health.database_up.store(1, Ordering::Relaxed);
        metrics.health.database_probe_ms.store(4, Ordering::Relaxed);
        metrics.health.database_checked_unix_ms.store(now - 1_000, Ordering::Relaxed);
        let ok = report(&metrics, now);
        assert_eq!((ok.status, ok.database.latency_ms, ok.database.checked_at_ms), ("ok", Some(4), Some(now - 1_000)));
        metrics.health.database_up.store(0, Ordering::Relaxed);
        let down = report(&metrics, now);
        assert_eq!((down.status, down.problems.clone(), down.database.latency_ms), ("degraded", vec!["database"], None));
        metrics.health.database_up.store(1, Ordering::Relaxed);
        metrics.health.nats_connected.store(0, Ordering::Relaxed);
        assert_eq!(report(&metrics, now).problems, vec!["nats"]);
        metrics.health.nats_connected.store(1, Ordering::Relaxed);
        assert_eq!(report(&metrics, now).status, "ok");
        // A record waiting a minute is still ok; a minute and a second is behind.
        metrics.storage.pending_records.store(3, Ordering::Relaxed);
        metrics.storage.oldest_pending_unix_ms.store(now - 60_000, Ordering::Relaxed);
        assert_eq!(report(&metrics, now).status, "ok");
        metrics.storage.oldest_pending_unix_ms.store(now - 61_000, Ordering::Relaxed);
        let behind = report(&metrics, now);
        assert_eq!(
            (behind.problems.clone(), behind.storage.pending_records, behind.storage.oldest_pending_seconds),
            (vec!["storageBehind"], 3, 61)
        );
    }

    #[test]
    fn a_hub_is_degraded_by_an_alarm_manager_it_cannot_reach_or_an_alarm_report_a_minute_old() {
        let metrics = HubMetrics::default();
        let now = 1_800_000_000_000;
        let queue = &metrics.alarm_queue;
        // Waiting reports and dead letters alone: a hub that delivers, and an administrator's resend.
        queue.pending.store(2, Ordering::Relaxed);
        queue.oldest_pending_age_s.store(60, Ordering::Relaxed);
        queue.dead.store(1, Ordering::Relaxed);
        let ok = report(&metrics, now);
        assert_eq!(
            (ok.status, ok.alarm_reports.clone()),
            ("ok", AlarmReportsJson { pending: 2, oldest_pending_seconds: 60, dead_letters: 1, links_down: 0 })
        );
        queue.oldest_pending_age_s.store(61, Ordering::Relaxed);
        assert_eq!(report(&metrics, now).problems, vec!["alarmReportsBehind"]);
        queue.links_down.store(1, Ordering::Relaxed);
        let down = report(&metrics, now);
        assert_eq!((down.status, down.problems), ("degraded", vec!["alarmManagerUnreachable", "alarmReportsBehind"]));
        queue.oldest_pending_age_s.store(0, Ordering::Relaxed);
        assert_eq!(
            report(&metrics, now).problems,
            vec!["alarmManagerUnreachable"],
            "a link down with nothing waiting: the next alarm would wait"
        );
    }
}
