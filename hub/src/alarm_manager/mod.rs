//! IHE PCD-04: the hub as an Alarm Reporter. Every Missing and Ulcer Risk alarm of a company with
//! an alarm manager (its own, set by its administrators, or the hub-wide default
//! `--alarm-manager mllp://HOST:PORT`) is queued in storage as an `ORU^R40` report when it is
//! raised (phase start), at an interval while unattended (continue) and when it is attended
//! (phase end), and one sender delivers the queue
//! over MLLP, waiting for each report's ACK. The messages and the answers are `ihe_pcd`'s pure
//! code; this module is the I/O around it.
//!
//! - `destination`: `mllp://HOST:PORT` and which manager a company's reports go to (pure).
//! - `reporter`: [`AlarmReporter`], called by `records` when an alarm is stored: builds and queues
//!   the report (keyed by a stable control id, so a retried batch or a replay queues it once).
//! - `sender`: the tokio task draining the queue (retries with backoff, `AR` → dead letter) and
//!   probing each manager's path (the link state administrators see).
//! - `continuation`: the `continue` phase, queued at an interval while an alarm is unattended.
//! - `link`: the link state per destination.
//! - `in_use`: the destinations reported to, probed until no company's reports go there (pure).
//! - `tls`: MLLP over TLS to a company's manager, trusting the CA its administrators set.
//! - `status_listener`: PCD-05, the hub's MLLP listener for what managers report back of the
//!   alarms (delivered, read, accepted by a named nurse, escalated), stored on the alarm.

pub mod continuation;
pub mod destination;
pub mod in_use;
pub mod link;
pub mod reporter;
pub mod sender;
pub mod status_listener;
pub mod tls;

pub use destination::Destination;
pub use link::{LinkState, LinkStates};
pub use reporter::AlarmReporter;

/// Unix milliseconds now.
pub fn unix_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}
