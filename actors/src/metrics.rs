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

    /// The Prometheus text exposition of every counter.
    pub fn render(&self) -> String {
        let counters: [(&str, &str, u64); 13] = [
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
        ];
        let mut out = String::new();
        for (name, help, value) in counters {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} counter\n{name} {value}");
        }
        let queue = &self.alarm_queue;
        let gauge = |atomic: &AtomicU64| i64::try_from(load(atomic)).unwrap_or(i64::MAX);
        for (name, help, value) in [
            ("hub_devices_connected", "Devices connected now.", self.devices_connected.load(Ordering::Relaxed)),
            ("hub_sessions_connected", "Browser sessions connected now.", self.sessions_connected.load(Ordering::Relaxed)),
            ("hub_alarm_reports_pending", "Alarm reports waiting to be delivered (every company's).", gauge(&queue.pending)),
            ("hub_alarm_reports_dead_letters", "Dead letters waiting for an administrator's resend.", gauge(&queue.dead)),
            (
                "hub_alarm_reports_oldest_pending_age_seconds",
                "How long the oldest waiting alarm report has waited (0: none).",
                gauge(&queue.oldest_pending_age_s),
            ),
            ("hub_alarm_manager_links_down", "Alarm managers the hub cannot reach now.", gauge(&queue.links_down)),
        ] {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} gauge\n{name} {value}");
        }
        if let Some(unix) = self.backup_last_success() {
            let name = "hub_backup_last_success_timestamp_seconds";
            let _ = writeln!(
                out,
                "# HELP {name} When the last backup of the embedded database was written (0: none yet).\n# TYPE {name} gauge\n{name} {unix}"
            );
        }
        out
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
}
