//! Takeovers that arrive together go to storage together (issue 25): when a hub dies, hundreds of
//! its mats reconnect to this one within a second, and each takeover is a transaction on the
//! shared database server (the fence raised, the snapshot and rows read:
//! `storage`'s `device_takeovers`). One transaction each queued hundreds of commits on the server
//! and put failover p99 at 8.8 s with 335 mats moving at once (docs/reliability.md).
//!
//! Group commit: a takeover joins a queue; at most [`FLIGHTS`] transactions run at once, and a
//! transaction takes everything queued, up to [`MOST_PER_FLIGHT`] devices. A takeover alone
//! goes at once (no waiting for company); under a burst the queue fills while the flights run,
//! and the next flight carries the lot. A flight runs in a task of its own, so a caller that
//! gives up does not strand the others' answers.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use storage::Store;
use storage::repo::{Takeover, TakeoverRequest};
use tokio::sync::{Semaphore, oneshot};

/// Transactions of takeovers in flight at once.
pub const FLIGHTS: usize = 4;
/// Devices in one transaction, at most (four statements each).
pub const MOST_PER_FLIGHT: usize = 32;

/// A takeover's outcome: what storage found, or why it failed (the transaction fails whole).
pub type TakeoverResult = Result<Takeover, String>;

struct Waiting {
    request: TakeoverRequest,
    answer: oneshot::Sender<TakeoverResult>,
}

/// The queue of this hub's takeovers and the flights that write them.
pub struct TakeoverBatches {
    store: Store,
    node: String,
    queue: Mutex<VecDeque<Waiting>>,
    flights: Arc<Semaphore>,
    /// Transactions written so far (diagnostics and tests).
    pub transactions: AtomicUsize,
}

impl TakeoverBatches {
    pub fn new(store: Store, node: String) -> Arc<TakeoverBatches> {
        Arc::new(TakeoverBatches {
            store,
            node,
            queue: Mutex::new(VecDeque::new()),
            flights: Arc::new(Semaphore::new(FLIGHTS)),
            transactions: AtomicUsize::new(0),
        })
    }

    /// Raises `device`'s fence to `revision` for this hub and reads what it resumes from, in a
    /// transaction shared with the takeovers queued beside it.
    pub async fn take_over(self: &Arc<Self>, device: &str, revision: i64) -> TakeoverResult {
        let (answer, mut answered) = oneshot::channel();
        self.queue().push_back(Waiting { request: TakeoverRequest { device_id: device.to_owned(), revision }, answer });
        loop {
            tokio::select! {
                biased;
                result = &mut answered => return result.unwrap_or_else(|_| Err("the takeover's transaction was abandoned".into())),
                permit = self.flights.clone().acquire_owned() => {
                    let Ok(permit) = permit else { return Err("takeovers are closed".into()) };
                    let batch = self.next_batch();
                    if batch.is_empty() {
                        // This takeover is in a flight already.
                        drop(permit);
                        return answered.await.unwrap_or_else(|_| Err("the takeover's transaction was abandoned".into()));
                    }
                    let batches = self.clone();
                    tokio::spawn(async move {
                        batches.fly(batch).await;
                        drop(permit);
                    });
                }
            }
        }
    }

    fn queue(&self) -> std::sync::MutexGuard<'_, VecDeque<Waiting>> {
        self.queue.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn next_batch(&self) -> Vec<Waiting> {
        let mut queue = self.queue();
        let take = queue.len().min(MOST_PER_FLIGHT);
        queue.drain(..take).collect()
    }

    /// One transaction for `batch`, and each waiting takeover's answer.
    async fn fly(&self, batch: Vec<Waiting>) {
        let (requests, answers): (Vec<TakeoverRequest>, Vec<oneshot::Sender<TakeoverResult>>) =
            batch.into_iter().map(|waiting| (waiting.request, waiting.answer)).unzip();
        let began = std::time::Instant::now();
        let taken = self.store.hub_wide().device_takeovers().raise_and_read_many(&requests, &self.node).await;
        let took_ms = began.elapsed().as_millis();
        self.transactions.fetch_add(1, Ordering::Relaxed);
        if took_ms >= 1_000 {
            tracing::warn!(devices = requests.len(), took_ms, "takeover transaction slow");
        }
        match taken {
            Ok(taken) => {
                for (answer, takeover) in answers.into_iter().zip(taken) {
                    let _ = answer.send(Ok(takeover));
                }
            }
            Err(error) => {
                let error = error.to_string();
                for answer in answers {
                    let _ = answer.send(Err(error.clone()));
                }
            }
        }
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
        let transactions = batches.transactions.load(Ordering::Relaxed);
        assert!(transactions < devices.len() / 4, "{transactions} transactions for {} takeovers", devices.len());
        assert_eq!(batches.flights.available_permits(), FLIGHTS, "every flight ended");
        assert!(batches.queue().is_empty());
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

    /// The queue is drained `MOST_PER_FLIGHT` at a time, oldest first.
    #[test]
    fn a_flight_takes_the_oldest_queued_up_to_its_bound() {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let store = runtime.block_on(Store::memory()).unwrap();
        let batches = TakeoverBatches::new(store, "b".into());
        for index in 0..(MOST_PER_FLIGHT + 3) {
            let (answer, _) = oneshot::channel();
            let request = TakeoverRequest { device_id: format!("d{index}"), revision: 1 };
            batches.queue().push_back(Waiting { request, answer });
        }
        let first = batches.next_batch();
        assert_eq!(first.len(), MOST_PER_FLIGHT);
        assert_eq!(first[0].request.device_id, "d0");
        let rest = batches.next_batch();
        assert_eq!(rest.len(), 3);
        assert_eq!(rest[0].request.device_id, format!("d{MOST_PER_FLIGHT}"));
        assert!(batches.next_batch().is_empty());
    }
}
