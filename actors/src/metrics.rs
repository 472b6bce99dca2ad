//! Hub-wide counters, shared by ingest, actors and sessions, rendered as Prometheus text.

use std::fmt::Write;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};

/// Monotonic counters and gauges. Relaxed atomics: they are statistics, not synchronisation.
#[derive(Debug, Default)]
pub struct HubMetrics {
    /// Frames decoded and accepted at ingest.
    pub frames_received: AtomicU64,
    /// Frames dropped at ingest because the device's actor was behind (its queue is bounded).
    pub frames_dropped_ingest: AtomicU64,
    /// Frames handled by mat actors.
    pub frames_processed: AtomicU64,
    /// Live maps taken from outboxes to be written to browser sockets.
    pub frames_delivered: AtomicU64,
    /// Live maps replaced in an outbox by a newer one before being sent.
    pub frames_conflated: AtomicU64,
    /// Device messages that could not be decoded, were oversized or had the wrong shape.
    pub device_messages_malformed: AtomicU64,
    /// Device connections refused (unknown serial, bad secret, bad hello).
    pub device_connections_refused: AtomicU64,
    /// Devices connected now.
    pub devices_connected: AtomicI64,
    /// Browser sessions connected now.
    pub sessions_connected: AtomicI64,
    /// Browser sessions closed because they could not keep up with status changes.
    pub sessions_slow_closed: AtomicU64,
    /// Actor restarts by a supervisor.
    pub actor_restarts: AtomicU64,
    /// Alarm reports (IHE PCD-04) the managers acknowledged (`AA`).
    pub alarm_reports_delivered: AtomicU64,
    /// Attempts that failed and will be tried again (`AE`, silence, a broken connection).
    pub alarm_reports_retried: AtomicU64,
    /// Reports a manager refused (`AR`): dead letters until an administrator resends them.
    pub alarm_reports_dead_lettered: AtomicU64,
    /// The alarm reports' queue as last read (every company's): see [`AlarmQueueGauges`].
    pub alarm_queue: AlarmQueueGauges,
    /// Backups of the embedded database that failed (`--backup-dir`).
    pub backups_failed: AtomicU64,
    /// Whether this hub makes backups: the backup gauge is rendered only then, so a hub
    /// without them reports no stale backup.
    pub backups_on: AtomicBool,
    /// When the last backup was written (Unix seconds; 0 before the first).
    pub backup_last_success_unix: AtomicI64,
    /// The storage writer's queue: see [`StorageGauges`].
    pub storage: StorageGauges,
    /// The database's and NATS's state as the hub's probe last saw them: see [`HealthGauges`].
    pub health: HealthGauges,
    /// A hub in a cluster: its leases and NATS (see [`ClusterCounters`]).
    pub cluster: ClusterCounters,
}

impl HubMetrics {
    /// Adds one to a counter.
    pub fn inc(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// When the last backup was written (0: none yet); `None` on a hub that makes none.
    pub fn backup_last_success(&self) -> Option<i64> {
        self.backups_on.load(Ordering::Relaxed).then(|| self.backup_last_success_unix.load(Ordering::Relaxed))
    }

    /// The Prometheus text exposition of every counter and gauge.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for (name, help, value) in self.counters() {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} counter\n{name} {value}");
        }
        for (name, help, value) in self.gauges() {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} gauge\n{name} {value}");
        }
        out
    }

    /// Every counter: name, help, value (a cluster's only on a hub in one).
    fn counters(&self) -> Vec<(&'static str, &'static str, u64)> {
        let mut counters = vec![
            ("hub_frames_received_total", "Frames accepted at ingest.", load(&self.frames_received)),
            (
                "hub_frames_dropped_ingest_total",
                "Frames dropped at ingest because the device actor was behind.",
                load(&self.frames_dropped_ingest),
            ),
            ("hub_frames_processed_total", "Frames handled by mat actors.", load(&self.frames_processed)),
            ("hub_frames_delivered_total", "Live maps written to browser sockets.", load(&self.frames_delivered)),
            ("hub_frames_conflated_total", "Live maps replaced by a newer one before sending.", load(&self.frames_conflated)),
            (
                "hub_device_messages_malformed_total",
                "Malformed, oversized or misshapen device messages.",
                load(&self.device_messages_malformed),
            ),
            ("hub_device_connections_refused_total", "Refused device connections.", load(&self.device_connections_refused)),
            ("hub_sessions_slow_closed_total", "Browser sessions closed for not keeping up.", load(&self.sessions_slow_closed)),
            ("hub_actor_restarts_total", "Actor restarts by supervisors.", load(&self.actor_restarts)),
            ("hub_backups_failed_total", "Backups of the embedded database that failed.", load(&self.backups_failed)),
            (
                "hub_alarm_reports_delivered_total",
                "Alarm reports (IHE PCD-04) the managers acknowledged.",
                load(&self.alarm_reports_delivered),
            ),
            (
                "hub_alarm_reports_retried_total",
                "Alarm report attempts that failed and will be tried again.",
                load(&self.alarm_reports_retried),
            ),
            (
                "hub_alarm_reports_dead_lettered_total",
                "Alarm reports a manager refused (dead letters).",
                load(&self.alarm_reports_dead_lettered),
            ),
            (
                "hub_storage_writes_failed_total",
                "Batches the database did not take (they are tried again).",
                load(&self.storage.writes_failed),
            ),
            (
                "hub_storage_records_dropped_total",
                "Records dropped because the database was behind too long (lost).",
                load(&self.storage.records_dropped),
            ),
        ];
        let cluster = &self.cluster;
        if cluster.on.load(Ordering::Relaxed) {
            counters.extend([
                ("hub_cluster_leases_lost_total", "Devices' leases another hub took from this one.", load(&cluster.leases_lost)),
                (
                    "hub_cluster_fenced_writes_total",
                    "Writes of devices another hub owns now, dropped (fenced).",
                    load(&cluster.fenced_writes),
                ),
                (
                    "hub_cluster_nats_reconnections_total",
                    "Reconnections to NATS after a loss (each one resyncs the hubs' statuses).",
                    load(&cluster.nats_reconnections),
                ),
                (
                    "hub_cluster_nats_messages_dropped_total",
                    "Messages NATS delivered that this hub did not read in time, dropped by its client (each burst resyncs the hubs' statuses).",
                    load(&cluster.nats_messages_dropped),
                ),
            ]);
        }
        counters
    }

    /// Every gauge known now: name, help, value as printed (the database's once probed, NATS's
    /// on a hub in a cluster, the last backup's on a hub that makes backups).
    fn gauges(&self) -> Vec<(&'static str, &'static str, String)> {
        let queue = &self.alarm_queue;
        let gauge = |atomic: &AtomicU64| load(atomic).to_string();
        let mut gauges = vec![
            ("hub_devices_connected", "Devices connected now.", self.devices_connected.load(Ordering::Relaxed).to_string()),
            ("hub_sessions_connected", "Browser sessions connected now.", self.sessions_connected.load(Ordering::Relaxed).to_string()),
            ("hub_alarm_reports_pending", "Alarm reports waiting to be delivered (every company's).", gauge(&queue.pending)),
            ("hub_alarm_reports_dead_letters", "Dead letters waiting for an administrator's resend.", gauge(&queue.dead)),
            (
                "hub_alarm_reports_oldest_pending_age_seconds",
                "How long the oldest waiting alarm report has waited (0: none).",
                gauge(&queue.oldest_pending_age_s),
            ),
            ("hub_alarm_manager_links_down", "Alarm managers the hub cannot reach now.", gauge(&queue.links_down)),
            ("hub_storage_pending_records", "Records waiting to be written to the database.", gauge(&self.storage.pending_records)),
            (
                "hub_storage_oldest_pending_age_seconds",
                "How long the oldest record not yet written has waited (0: none).",
                self.storage.oldest_pending_age_s(unix_now_ms()).to_string(),
            ),
        ];
        let health = &self.health;
        // -1: not probed yet, or (NATS) a hub on its own: nothing to report.
        match health.database_up.load(Ordering::Relaxed) {
            -1 => {}
            up => gauges.push(("hub_database_up", "Whether the database answered the last probe (1) or not (0).", up.to_string())),
        }
        if health.database_up.load(Ordering::Relaxed) == 1 {
            let seconds = load(&health.database_probe_ms) as f64 / 1000.0;
            gauges.push(("hub_database_probe_seconds", "How long the database took to answer the last probe.", seconds.to_string()));
        }
        match health.nats_connected.load(Ordering::Relaxed) {
            -1 => {}
            connected => gauges.push((
                "hub_nats_connected",
                "Whether this hub is connected to its cluster's NATS (1) or not (0).",
                connected.to_string(),
            )),
        }
        if let Some(unix) = self.backup_last_success() {
            gauges.push((
                "hub_backup_last_success_timestamp_seconds",
                "When the last backup of the embedded database was written (0: none yet).",
                unix.to_string(),
            ));
        }
        gauges
    }
}

/// The alarm reports' queue and links as the sender last saw them (read at most every few
/// seconds, so a scrape is at most that old).
#[derive(Debug, Default)]
pub struct AlarmQueueGauges {
    /// Reports waiting to be delivered.
    pub pending: AtomicU64,
    /// Dead letters.
    pub dead: AtomicU64,
    /// Seconds the oldest waiting report has waited (0 when none waits).
    pub oldest_pending_age_s: AtomicU64,
    /// Destinations whose link is down.
    pub links_down: AtomicU64,
}

/// The storage writer's queue, written by the writer as records come and go.
#[derive(Debug, Default)]
pub struct StorageGauges {
    /// Flushes the database did not take (the batch is tried again).
    pub writes_failed: AtomicU64,
    /// Records dropped because too much waited for the database (lost).
    pub records_dropped: AtomicU64,
    /// Records waiting to be written (the writer's, and in a cluster those its store keeps).
    pub pending_records: AtomicU64,
    /// When the oldest record not yet written was queued, Unix ms (0: none waits).
    pub oldest_pending_unix_ms: AtomicU64,
}

impl StorageGauges {
    /// How long the oldest record not yet written has waited at `now_ms`, s (0: none waits).
    pub fn oldest_pending_age_s(&self, now_ms: u64) -> u64 {
        match self.oldest_pending_unix_ms.load(Ordering::Relaxed) {
            0 => 0,
            since => now_ms.saturating_sub(since) / 1000,
        }
    }
}

/// A hub in a cluster (`--nats`): its devices' leases and its NATS link, rendered only then.
#[derive(Debug, Default)]
pub struct ClusterCounters {
    /// Whether this hub is in a cluster.
    pub on: AtomicBool,
    /// Leases another hub took from this one (its devices moved: a pause, a partition, a device
    /// that reconnected elsewhere).
    pub leases_lost: AtomicU64,
    /// Writes of devices another hub owns now, dropped (the fence kept a stale hub's rows out).
    pub fenced_writes: AtomicU64,
    /// Reconnections to NATS after a loss (read by the health probe).
    pub nats_reconnections: AtomicU64,
    /// Messages its NATS client dropped, unread in time (read by the health probe).
    pub nats_messages_dropped: AtomicU64,
}

/// The database's and NATS's state as the hub's probe last saw them (`hub::health`).
#[derive(Debug)]
pub struct HealthGauges {
    /// 1: the database answered the last probe; 0: it did not; -1: not probed yet.
    pub database_up: AtomicI64,
    /// How long the last answered probe took, ms.
    pub database_probe_ms: AtomicU64,
    /// When the last probe ended, Unix ms (0: not yet).
    pub database_checked_unix_ms: AtomicU64,
    /// 1: connected to the cluster's NATS; 0: not; -1: a hub on its own.
    pub nats_connected: AtomicI64,
}

impl Default for HealthGauges {
    fn default() -> Self {
        HealthGauges {
            database_up: AtomicI64::new(-1),
            database_probe_ms: AtomicU64::new(0),
            database_checked_unix_ms: AtomicU64::new(0),
            nats_connected: AtomicI64::new(-1),
        }
    }
}

/// Now, Unix ms.
pub fn unix_now_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

fn load(counter: &AtomicU64) -> u64 {
    counter.load(Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backup_gauge_is_shown_only_on_a_hub_that_makes_backups() {
        let metrics = HubMetrics::default();
        let text = metrics.render();
        assert!(text.contains("hub_backups_failed_total 0"));
        assert!(!text.contains("hub_backup_last_success_timestamp_seconds"));
        metrics.backups_on.store(true, Ordering::Relaxed);
        assert!(metrics.render().contains("\nhub_backup_last_success_timestamp_seconds 0\n"), "none yet");
        metrics.backup_last_success_unix.store(1_796_161_500, Ordering::Relaxed);
        assert!(metrics.render().contains("\nhub_backup_last_success_timestamp_seconds 1796161500\n"));
    }

    #[test]
    fn the_database_and_nats_gauges_are_shown_once_known() {
        let metrics = HubMetrics::default();
        let text = metrics.render();
        assert!(!text.contains("hub_database_up") && !text.contains("hub_nats_connected"), "not probed, on its own: {text}");
        metrics.health.database_up.store(0, Ordering::Relaxed);
        metrics.health.nats_connected.store(1, Ordering::Relaxed);
        let text = metrics.render();
        assert!(text.contains("\nhub_database_up 0\n") && text.contains("\nhub_nats_connected 1\n"), "{text}");
        assert!(!text.contains("hub_database_probe_seconds"), "no latency for an unanswered probe");
        metrics.health.database_up.store(1, Ordering::Relaxed);
        metrics.health.database_probe_ms.store(7, Ordering::Relaxed);
        assert!(metrics.render().contains("\nhub_database_probe_seconds 0.007\n"));
    }

    #[test]
    fn the_cluster_counters_are_shown_on_a_hub_in_a_cluster_only() {
        let metrics = HubMetrics::default();
        HubMetrics::inc(&metrics.cluster.leases_lost);
        assert!(!metrics.render().contains("hub_cluster_"), "a hub on its own");
        metrics.cluster.on.store(true, Ordering::Relaxed);
        let text = metrics.render();
        assert!(text.contains("\nhub_cluster_leases_lost_total 1\n") && text.contains("\nhub_cluster_fenced_writes_total 0\n"), "{text}");
        assert!(text.contains("\nhub_cluster_nats_reconnections_total 0\n"), "{text}");
        assert!(text.contains("\nhub_cluster_nats_messages_dropped_total 0\n"), "{text}");
    }

    #[test]
    fn the_storage_queue_is_rendered_with_the_age_of_its_oldest_record() {
        let metrics = HubMetrics::default();
        assert!(metrics.render().contains("\nhub_storage_oldest_pending_age_seconds 0\n"), "none waits");
        metrics.storage.pending_records.store(12, Ordering::Relaxed);
        metrics.storage.oldest_pending_unix_ms.store(unix_now_ms() - 90_000, Ordering::Relaxed);
        HubMetrics::inc(&metrics.storage.writes_failed);
        let text = metrics.render();
        assert!(text.contains("\nhub_storage_pending_records 12\n") && text.contains("\nhub_storage_writes_failed_total 1\n"), "{text}");
        let age: u64 = text.lines().find_map(|l| l.strip_prefix("hub_storage_oldest_pending_age_seconds ")).unwrap().parse().unwrap();
        assert!((90..=91).contains(&age), "{age}");
        assert_eq!(metrics.storage.oldest_pending_age_s(1_000), 0, "a clock before the record reads no age, not a wrapped one");
    }
}
