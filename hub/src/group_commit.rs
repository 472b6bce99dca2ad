//! Group commit: writes that arrive together go to storage in one transaction (issue 25). A
//! database server commits about a thousand small transactions a second on two cores, whatever
//! their size (docs/reliability.md), so in cluster mode the writes a hub makes by the hundred
//! (takeovers when a hub dies, the storage writer's device records) share their commits.
//!
//! A request joins a queue; at most `flights` transactions run at once, and a transaction takes
//! everything queued, up to `most_per_flight` requests. A request alone goes at once (no waiting
//! for company); under a burst the queue fills while the flights run, and the next flight carries
//! the lot. A flight runs in a task of its own, so a caller that gives up does not strand the
//! others' answers.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use futures_util::future::BoxFuture;
use tokio::sync::{Semaphore, oneshot};

/// A flight's write: one answer per request, in the requests' order, or why the whole
/// transaction failed.
pub type Write<R, A> = Box<dyn Fn(Vec<R>) -> BoxFuture<'static, Result<Vec<A>, String>> + Send + Sync>;

struct Waiting<R, A> {
    request: R,
    answer: oneshot::Sender<Result<A, String>>,
}

/// A queue of requests and the flights that write them.
pub struct GroupCommit<R, A> {
    queue: Mutex<VecDeque<Waiting<R, A>>>,
    flights: Arc<Semaphore>,
    flight_count: usize,
    most_per_flight: usize,
    write: Write<R, A>,
    /// Transactions written so far (diagnostics and tests).
    transactions: AtomicUsize,
}

impl<R: Send + 'static, A: Send + 'static> GroupCommit<R, A> {
    /// At most `flights` transactions at once, each of at most `most_per_flight` requests.
    pub fn new(flights: usize, most_per_flight: usize, write: Write<R, A>) -> Arc<GroupCommit<R, A>> {
        Arc::new(GroupCommit {
            queue: Mutex::new(VecDeque::new()),
            flights: Arc::new(Semaphore::new(flights)),
            flight_count: flights,
            most_per_flight: most_per_flight.max(1),
            write,
            transactions: AtomicUsize::new(0),
        })
    }

    /// Writes `request` in a transaction shared with the requests queued beside it; its answer.
    pub async fn submit(self: &Arc<Self>, request: R) -> Result<A, String> {
        let (answer, mut answered) = oneshot::channel();
        self.queue().push_back(Waiting { request, answer });
        loop {
            tokio::select! {
                biased;
                result = &mut answered => return result.unwrap_or_else(|_| Err("the transaction was abandoned".into())),
                permit = self.flights.clone().acquire_owned() => {
                    let Ok(permit) = permit else { return Err("the writes are closed".into()) };
                    let batch = self.next_batch();
                    if batch.is_empty() {
                        // This request is in a flight already.
                        drop(permit);
                        return answered.await.unwrap_or_else(|_| Err("the transaction was abandoned".into()));
                    }
                    let commits = self.clone();
                    tokio::spawn(async move {
                        commits.fly(batch).await;
                        drop(permit);
                    });
                }
            }
        }
    }

    /// Transactions written so far.
    pub fn transactions(&self) -> usize {
        self.transactions.load(Ordering::Relaxed)
    }

    /// Whether no flight runs and nothing waits.
    pub fn is_idle(&self) -> bool {
        self.flights.available_permits() == self.flight_count && self.queue().is_empty()
    }

    fn queue(&self) -> std::sync::MutexGuard<'_, VecDeque<Waiting<R, A>>> {
        self.queue.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn next_batch(&self) -> Vec<Waiting<R, A>> {
        let mut queue = self.queue();
        let take = queue.len().min(self.most_per_flight);
        queue.drain(..take).collect()
    }

    /// One transaction for `batch`, and each waiting request's answer.
    async fn fly(&self, batch: Vec<Waiting<R, A>>) {
        let (requests, answers): (Vec<R>, Vec<oneshot::Sender<Result<A, String>>>) =
            batch.into_iter().map(|waiting| (waiting.request, waiting.answer)).unzip();
        let count = requests.len();
        let written = (self.write)(requests).await;
        self.transactions.fetch_add(1, Ordering::Relaxed);
        match written {
            Ok(written) if written.len() == count => {
                for (answer, outcome) in answers.into_iter().zip(written) {
                    let _ = answer.send(Ok(outcome));
                }
            }
            Ok(written) => {
                let error = format!("{} answers for {count} requests", written.len());
                for answer in answers {
                    let _ = answer.send(Err(error.clone()));
                }
            }
            Err(error) => {
                for answer in answers {
                    let _ = answer.send(Err(error.clone()));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    /// Doubles each number; each transaction takes 20 ms and records its size.
    fn doubling(sizes: Arc<Mutex<Vec<usize>>>) -> Write<u32, u32> {
        Box::new(move |batch: Vec<u32>| {
            let sizes = sizes.clone();
            Box::pin(async move {
                sizes.lock().unwrap().push(batch.len());
                tokio::time::sleep(Duration::from_millis(20)).await;
                Ok(batch.into_iter().map(|n| n * 2).collect())
            })
        })
    }

    /// A burst is answered each with its own answer, in fewer transactions than requests, none
    /// larger than its bound; afterwards no flight runs and nothing waits.
    #[tokio::test]
    async fn a_burst_is_answered_each_in_shared_bounded_transactions() {
        let sizes = Arc::new(Mutex::new(Vec::new()));
        let commits = GroupCommit::new(2, 8, doubling(sizes.clone()));
        let answers = futures_util::future::join_all((0..100u32).map(|n| {
            let commits = commits.clone();
            async move { commits.submit(n).await }
        }))
        .await;
        for (n, answer) in answers.into_iter().enumerate() {
            assert_eq!(answer, Ok(n as u32 * 2));
        }
        let sizes = sizes.lock().unwrap().clone();
        assert_eq!(sizes.iter().sum::<usize>(), 100);
        assert!(sizes.iter().all(|&size| size <= 8), "{sizes:?}");
        assert!(commits.transactions() < 25, "{} transactions for 100 requests", commits.transactions());
        assert!(commits.is_idle());
    }

    /// A request alone goes at once, in a transaction of its own.
    #[tokio::test]
    async fn a_request_alone_goes_at_once() {
        let sizes = Arc::new(Mutex::new(Vec::new()));
        let commits = GroupCommit::new(2, 8, doubling(sizes.clone()));
        assert_eq!(commits.submit(21).await, Ok(42));
        assert_eq!(*sizes.lock().unwrap(), vec![1]);
    }

    /// The queue is drained at most `most_per_flight` at a time, oldest first.
    #[test]
    fn a_flight_takes_the_oldest_queued_up_to_its_bound() {
        let commits = GroupCommit::new(1, 3, doubling(Arc::new(Mutex::new(Vec::new()))));
        for request in 0..5u32 {
            let (answer, _) = oneshot::channel();
            commits.queue().push_back(Waiting { request, answer });
        }
        let requests = |batch: Vec<Waiting<u32, u32>>| batch.into_iter().map(|w| w.request).collect::<Vec<_>>();
        assert_eq!(requests(commits.next_batch()), vec![0, 1, 2]);
        assert_eq!(requests(commits.next_batch()), vec![3, 4]);
        assert!(commits.next_batch().is_empty());
    }

    /// A failed transaction fails every request in it, with its reason.
    #[tokio::test]
    async fn a_failed_transaction_fails_each_of_its_requests() {
        let commits: Arc<GroupCommit<u32, u32>> =
            GroupCommit::new(1, 8, Box::new(|_| Box::pin(async { Err::<Vec<u32>, String>("server gone".into()) })));
        let (a, b) = tokio::join!(commits.submit(1), commits.submit(2));
        assert_eq!((a, b), (Err("server gone".into()), Err("server gone".into())));
    }
}
