//! The `continue` phase: while an alarm stays unattended, the reporter tells the manager again
//! every interval (`--alarm-continue-secs`, `HUB_ALARM_CONTINUE_SECS`; 0 turns it off). One task
//! reads the stored unattended alarms every few seconds and queues the `continue` report that is
//! due by `ihe_pcd::continuation` (pure, tested on a simulated clock); its control id carries its
//! number, so reading the schedule again queues nothing twice, and the sender delivers it like any
//! report (retries, dead letters, order). An attended alarm's `end` stops it.
//!
//! An Ulcer Risk alarm whose device's repositioning is overdue now (the live board's tier)
//! escalates: its continue reports carry `RepositioningOverdue`, medium priority
//! (`super::reporter::condition_now`).

use std::sync::Arc;
use std::time::Duration;

use actors::catalog::Catalog;
use actors::live_board::LiveBoard;
use mat_core::machine::pressure_ulcer::RepositioningTier;
use storage::Store;
use tokio::sync::watch;

use super::{AlarmReporter, unix_ms};

/// How often the schedule is read at most (a report is at most this late).
pub const SCAN_INTERVAL: Duration = Duration::from_secs(2);

/// How often the schedule is read for an interval: a quarter of it, between 250 ms and
/// [`SCAN_INTERVAL`], so a report is seldom skipped for the next one.
pub fn scan_period(interval: Duration) -> Duration {
    (interval / 4).clamp(Duration::from_millis(250), SCAN_INTERVAL)
}

/// Runs until `stop` turns true; does nothing when `interval` is zero.
pub async fn run(
    store: Store,
    reporter: Arc<AlarmReporter>,
    catalog: Arc<Catalog>,
    board: Arc<LiveBoard>,
    interval: Duration,
    mut stop: watch::Receiver<bool>,
) {
    if interval.is_zero() {
        return;
    }
    let interval_ms = interval.as_millis() as u64;
    loop {
        if *stop.borrow() {
            return;
        }
        if let Err(error) = scan(&store, &reporter, &catalog, &board, interval_ms).await {
            tracing::warn!(%error, "alarm reports: the continue phase could not be queued");
        }
        tokio::select! {
            _ = tokio::time::sleep(scan_period(interval)) => {}
            _ = stop.changed() => {}
        }
    }
}

async fn scan(
    store: &Store,
    reporter: &AlarmReporter,
    catalog: &Catalog,
    board: &LiveBoard,
    interval_ms: u64,
) -> Result<(), storage::StoreError> {
    let now = unix_ms().max(0) as u64;
    for alarm in store.hub_wide().logs().unattended_all().await? {
        let Some(device) = catalog.get(&alarm.device_id) else { continue };
        let raised_at_ms = (alarm.creation_date.max(0) as u64) * 1000;
        if let Some(n) = ihe_pcd::continuation::due(raised_at_ms, now, interval_ms) {
            let overdue = board.status(&device.company_id, &alarm.device_id).is_some_and(|s| s.repositioning == RepositioningTier::Overdue);
            reporter.continued(&device.company_id, &alarm.device_id, &alarm.id, &alarm.kind, raised_at_ms, n, overdue).await?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_is_read_four_times_an_interval_within_bounds() {
        assert_eq!(scan_period(Duration::from_secs(120)), SCAN_INTERVAL);
        assert_eq!(scan_period(Duration::from_secs(2)), Duration::from_millis(500));
        assert_eq!(scan_period(Duration::from_millis(100)), Duration::from_millis(250));
    }
}
