//! Takeovers that arrive together go to storage together (issue 25): when a hub dies, hundreds of
//! its mats reconnect to this one within a second, and each takeover is a transaction on the
//! shared database server (the fence raised, the snapshot and rows read:
//! `storage`'s `device_takeovers`). One transaction each queued hundreds of commits on the server
//! and put failover p99 at 8.8 s with 335 mats moving at once (docs/reliability.md).
//!
//! Group commit (`crate::group_commit`): at most [`FLIGHTS`] transactions run at once, each of
//! up to [`MOST_PER_FLIGHT`] devices; a takeover alone goes at once.

use std::sync::Arc;

use storage::Store;
use storage::repo::{Takeover, TakeoverRequest};

use crate::group_commit::GroupCommit;

/// Transactions of takeovers in flight at once.
pub const FLIGHTS: usize = 4;
/// Devices in one transaction, at most (four statements each).
pub const MOST_PER_FLIGHT: usize = 32;

/// A takeover's outcome: what storage found, or why it failed (the transaction fails whole).
pub type TakeoverResult = Result<Takeover, String>;

/// The queue of this hub's takeovers and the flights that write them.
pub struct TakeoverBatches {
    commits: Arc<GroupCommit<TakeoverRequest, Takeover>>,
}

impl TakeoverBatches {
    pub fn new(store: Store, node: String) -> Arc<TakeoverBatches> {
        let commits = GroupCommit::new(
            FLIGHTS,
            MOST_PER_FLIGHT,
            Box::new(move |requests: Vec<TakeoverRequest>| {
                let (store, node) = (store.clone(), node.clone());
                Box::pin(async move {
                    let began = std::time::Instant::now();
                    let taken = store.hub_wide().device_takeovers().raise_and_read_many(&requests, &node).await;
                    let took_ms = began.elapsed().as_millis();
                    if took_ms >= 1_000 {
                        tracing::warn!(devices = requests.len(), took_ms, "takeover transaction slow");
                    }
                    taken.map_err(|error| error.to_string())
                })
            }),
        );
        Arc::new(TakeoverBatches { commits })
    }

    /// Raises `device`'s fence to `revision` for this hub and reads what it resumes from, in a
    /// transaction shared with the takeovers queued beside it.
    pub async fn take_over(self: &Arc<Self>, device: &str, revision: i64) -> TakeoverResult {
        self.commits.submit(TakeoverRequest { device_id: device.to_owned(), revision }).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use storage::model::NewDevice;

    async fn store_with_devices(count: usize) -> (Store, Vec<String>) {
        let store = Store::memory().await.unwrap();
        let company = store.hub_wide().companies().create("Demo Clinic", "1 Main St").await.unwrap();
        let mut devices = Vec::new();
        for index in 0..count {
            let device = NewDevice {
                name: format!("Bed {index}"),
                device_type: "Mattress Mat IoT".into(),
                hardware_serial: format!("MAT-T{index}"),
                company_id: company.clone(),
                secret_hash: storage::device_secret::hash("s"),
                ..NewDevice::default()
            };
            devices.push(store.hub_wide().devices().create(&device).await.unwrap());
        }
        (store, devices)
    }

    /// A burst of takeovers: every one is answered with its own device's fence raised, in fewer
    /// transactions than devices; the flights never exceed their bound.
    #[tokio::test]
    async fn a_burst_of_takeovers_is_answered_each_in_shared_transactions() {
        let (store, devices) = store_with_devices(100).await;
        let batches = TakeoverBatches::new(store.clone(), "b".into());
        let answers = futures_util::future::join_all(devices.iter().enumerate().map(|(index, device)| {
            let batches = batches.clone();
            async move { batches.take_over(device, 10 + index as i64).await }
        }))
        .await;
        for (index, (device, answer)) in devices.iter().zip(answers).enumerate() {
            assert!(answer.unwrap().raised, "{device}");
            assert_eq!(store.hub_wide().device_fences().revision(device).await.unwrap(), Some(10 + index as i64));
        }
        let transactions = batches.commits.transactions();
        assert!(transactions < devices.len() / 4, "{transactions} transactions for {} takeovers", devices.len());
        assert!(batches.commits.is_idle(), "every flight ended");
    }

    /// A device whose fence a newer owner raised higher is refused in its batch, and only it.
    #[tokio::test]
    async fn a_takeover_under_an_older_lease_is_refused_alone() {
        let (store, devices) = store_with_devices(2).await;
        assert!(store.hub_wide().device_fences().raise(&devices[0], 50, "c").await.unwrap());
        let batches = TakeoverBatches::new(store.clone(), "b".into());
        let (first, second) = tokio::join!(batches.take_over(&devices[0], 7), batches.take_over(&devices[1], 8));
        assert!(!first.unwrap().raised);
        assert!(second.unwrap().raised);
        assert_eq!(store.hub_wide().device_fences().revision(&devices[0]).await.unwrap(), Some(50));
    }
}
