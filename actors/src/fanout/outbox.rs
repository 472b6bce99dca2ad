//! A browser session's outbox: bounded, live maps conflated, control messages never dropped.
//!
//! Live maps are kept per device and a newer map replaces an unsent older one (counted as
//! conflated). Control messages (status changes, errors) queue in order; if more than
//! [`CONTROL_CAPACITY`] wait, the session cannot keep up, and the outbox closes with
//! [`CloseReason::SlowConsumer`] instead of growing or slowing the publisher. Publishing never
//! waits: it takes a short lock and returns.
//!
//! Live maps leave at most once per [`LIVE_FLUSH_INTERVAL`]: maps that arrive within it wait for
//! it and go out together, in one write ([`Outbox::batch_due`]). A control message never waits,
//! and takes the maps already pending with it. The outbox keeps the pace (when maps may leave
//! again, whether the socket is busy); its writer only waits and writes.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use bytes::Bytes;
use tokio::sync::Notify;
use tokio::time::Instant;

use crate::metrics::HubMetrics;

/// Control messages that may wait in one outbox. `joinCompany` replays one status per device, so
/// this bounds the devices of one company too (a status is ~200 bytes: ≤ 1.6 MB per session).
pub const CONTROL_CAPACITY: usize = 8192;
/// Devices one session may watch at once.
pub const MAX_LIVE_DEVICES: usize = 64;
/// The shortest time between two writes of live maps to one session: one animation frame of a
/// 60 Hz screen, which draws no faster. A browser watching one mat at 10 Hz gets every map at
/// once (they are 100 ms apart); a ward screen watching 100 gets about 16 per write instead of
/// 1,000 writes a second (docs/decisions.md, "Live maps leave in batches of one screen frame").
pub const LIVE_FLUSH_INTERVAL: std::time::Duration = std::time::Duration::from_millis(16);

/// Why an outbox stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CloseReason {
    /// The session did not drain status changes fast enough.
    SlowConsumer,
    /// The session or the hub is closing.
    Closed,
}

#[derive(Default)]
struct State {
    control: VecDeque<Bytes>,
    live: VecDeque<(Arc<str>, Bytes)>,
    closed: Option<CloseReason>,
    /// The writer is holding live maps back until their flush is due: a new one need not wake it.
    holding_live: bool,
    /// When live maps may leave again: [`LIVE_FLUSH_INTERVAL`] after the last was taken (`None`:
    /// at once).
    live_due: Option<Instant>,
    /// The last batch's maps were held back: the socket is busy, and its writer holds until
    /// `live_due` before a map comes (see [`Outbox::batch_due`]).
    busy: bool,
}

/// One session's outbox. Many publishers, one consumer.
pub struct Outbox {
    state: Mutex<State>,
    ready: Notify,
    closed: Notify,
    metrics: Arc<HubMetrics>,
}

impl std::fmt::Debug for Outbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Outbox").finish_non_exhaustive()
    }
}

impl Outbox {
    /// An empty, open outbox.
    pub fn new(metrics: Arc<HubMetrics>) -> Arc<Self> {
        Arc::new(Outbox { state: Mutex::new(State::default()), ready: Notify::new(), closed: Notify::new(), metrics })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding this lock cannot leave the queues inconsistent (every operation
        // is a single push or pop), so a poisoned lock is still safe to use.
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Queues a live map of `device`, replacing an unsent one of the same device.
    pub fn push_live(&self, device: &Arc<str>, message: Bytes) {
        let mut state = self.lock();
        if state.closed.is_some() {
            return;
        }
        if let Some(slot) = state.live.iter_mut().find(|(d, _)| d == device) {
            slot.1 = message;
            HubMetrics::inc(&self.metrics.frames_conflated);
            return;
        }
        if state.live.len() >= MAX_LIVE_DEVICES {
            // More devices than a session may watch: the oldest pending map gives way.
            state.live.pop_front();
            HubMetrics::inc(&self.metrics.frames_conflated);
        }
        state.live.push_back((device.clone(), message));
        let holding = state.holding_live;
        drop(state);
        if !holding {
            self.ready.notify_one();
        }
    }

    /// Queues a control message. Returns `false`, and closes the outbox as a slow consumer, when
    /// the queue is full.
    pub fn push_control(&self, message: Bytes) -> bool {
        let mut state = self.lock();
        if state.closed.is_some() {
            return false;
        }
        if state.control.len() >= CONTROL_CAPACITY {
            state.closed = Some(CloseReason::SlowConsumer);
            state.control.clear();
            state.live.clear();
            HubMetrics::inc(&self.metrics.sessions_slow_closed);
            drop(state);
            self.ready.notify_one();
            self.closed.notify_waiters();
            return false;
        }
        state.control.push_back(message);
        drop(state);
        self.ready.notify_one();
        true
    }

    /// Closes the outbox; the consumer's next `recv` returns the reason.
    pub fn close(&self, reason: CloseReason) {
        self.lock().closed.get_or_insert(reason);
        self.ready.notify_one();
        self.closed.notify_waiters();
    }

    /// Resolves once the outbox is closed, whatever the consumer is doing (a writer blocked on a
    /// stalled socket races its send against this).
    pub async fn wait_closed(&self) -> CloseReason {
        loop {
            let notified = self.closed.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if let Some(reason) = self.lock().closed {
                return reason;
            }
            notified.await;
        }
    }

    /// Whether the outbox is closed.
    pub fn is_closed(&self) -> bool {
        self.lock().closed.is_some()
    }

    /// Takes the next message without waiting: control messages first, then live maps in the
    /// order their devices first became pending. A live map taken starts the interval
    /// ([`LIVE_FLUSH_INTERVAL`]) before the next ones may leave.
    pub fn try_recv(&self) -> Result<Option<Bytes>, CloseReason> {
        let mut state = self.lock();
        if let Some(reason) = state.closed {
            return Err(reason);
        }
        if let Some(message) = state.control.pop_front() {
            return Ok(Some(message));
        }
        let Some((_, message)) = state.live.pop_front() else { return Ok(None) };
        state.live_due = Some(Instant::now() + LIVE_FLUSH_INTERVAL);
        drop(state);
        HubMetrics::inc(&self.metrics.frames_delivered);
        Ok(Some(message))
    }

    /// Waits until the next batch is due: at once when a control message waits, when live maps
    /// wait and their interval has passed ([`LIVE_FLUSH_INTERVAL`] after the last one taken), or
    /// when the outbox closes (its reason). Live maps pushed before then do not wake the waiter;
    /// a control message does.
    ///
    /// A busy socket's writer (its last maps were held back) holds until the interval's end even
    /// before a map arrives, so the maps of the next interval wake it once, at its end, instead
    /// of the first of them waking it to start the wait. An interval that ends empty makes it
    /// quiet again.
    pub async fn batch_due(&self) -> Result<(), CloseReason> {
        let mut held = false;
        loop {
            let notified = self.ready.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            let hold_until = {
                let mut state = self.lock();
                if let Some(reason) = state.closed {
                    return Err(reason);
                }
                let live = !state.live.is_empty();
                let holding = match state.live_due {
                    Some(due) if Instant::now() < due && (live || state.busy) => Some(due),
                    _ => None,
                };
                if !state.control.is_empty() || (live && holding.is_none()) {
                    state.holding_live = false;
                    state.busy = held && live;
                    return Ok(());
                }
                state.holding_live = holding.is_some();
                holding
            };
            if let Some(due) = hold_until {
                held = true;
                tokio::select! {
                    biased;
                    _ = &mut notified => {}
                    _ = tokio::time::sleep_until(due) => {}
                }
            } else {
                // Nothing came while holding: the socket is quiet again.
                held = false;
                notified.await;
            }
        }
    }

    /// Waits for the next message, live maps paced as a writer's ([`Outbox::batch_due`]).
    pub async fn recv(&self) -> Result<Bytes, CloseReason> {
        loop {
            self.batch_due().await?;
            if let Some(message) = self.try_recv()? {
                return Ok(message);
            }
        }
    }

    /// Pending messages (control, live), for tests and diagnostics.
    pub fn pending(&self) -> (usize, usize) {
        let state = self.lock();
        (state.control.len(), state.live.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    fn outbox() -> (Arc<Outbox>, Arc<HubMetrics>) {
        let metrics = Arc::new(HubMetrics::default());
        (Outbox::new(metrics.clone()), metrics)
    }

    #[test]
    fn live_maps_conflate_per_device() {
        let (o, m) = outbox();
        let (a, b): (Arc<str>, Arc<str>) = ("a".into(), "b".into());
        o.push_live(&a, Bytes::from_static(b"a1"));
        o.push_live(&b, Bytes::from_static(b"b1"));
        o.push_live(&a, Bytes::from_static(b"a2"));
        assert_eq!(m.frames_conflated.load(Ordering::Relaxed), 1);
        assert_eq!(o.try_recv(), Ok(Some(Bytes::from_static(b"a2"))));
        assert_eq!(o.try_recv(), Ok(Some(Bytes::from_static(b"b1"))));
        assert_eq!(o.try_recv(), Ok(None));
    }

    #[test]
    fn control_messages_go_first_and_are_never_conflated() {
        let (o, _) = outbox();
        let a: Arc<str> = "a".into();
        o.push_live(&a, Bytes::from_static(b"map"));
        assert!(o.push_control(Bytes::from_static(b"s1")));
        assert!(o.push_control(Bytes::from_static(b"s2")));
        assert_eq!(o.try_recv(), Ok(Some(Bytes::from_static(b"s1"))));
        assert_eq!(o.try_recv(), Ok(Some(Bytes::from_static(b"s2"))));
        assert_eq!(o.try_recv(), Ok(Some(Bytes::from_static(b"map"))));
    }

    #[test]
    fn a_full_control_queue_closes_the_outbox_as_slow() {
        let (o, m) = outbox();
        for _ in 0..CONTROL_CAPACITY {
            assert!(o.push_control(Bytes::from_static(b"s")));
        }
        assert!(!o.push_control(Bytes::from_static(b"one too many")));
        assert_eq!(o.try_recv(), Err(CloseReason::SlowConsumer));
        assert_eq!(m.sessions_slow_closed.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn live_maps_are_bounded_by_the_watch_limit() {
        let (o, _) = outbox();
        for i in 0..(MAX_LIVE_DEVICES + 10) {
            let d: Arc<str> = format!("d{i}").into();
            o.push_live(&d, Bytes::from_static(b"m"));
        }
        assert_eq!(o.pending(), (0, MAX_LIVE_DEVICES));
    }

    /// [`Outbox::batch_due`] waiting in a task of its own.
    fn spawn_batch_due(o: &Arc<Outbox>) -> tokio::task::JoinHandle<Result<(), CloseReason>> {
        let o = o.clone();
        tokio::spawn(async move { o.batch_due().await })
    }

    /// Polls `future` once: `Some` with its output when it is ready.
    fn poll_once<F: std::future::Future + Unpin>(future: &mut F) -> Option<F::Output> {
        let waker = std::task::Waker::noop();
        match std::pin::Pin::new(future).poll(&mut std::task::Context::from_waker(waker)) {
            std::task::Poll::Ready(output) => Some(output),
            std::task::Poll::Pending => None,
        }
    }

    /// A live map of `device` taken now, as a writer does: the next interval starts. Returns
    /// when the next maps are due.
    fn take_a_live_map(o: &Outbox, device: &Arc<str>) -> Instant {
        o.push_live(device, Bytes::from_static(b"earlier"));
        assert_eq!(o.try_recv(), Ok(Some(Bytes::from_static(b"earlier"))));
        Instant::now() + LIVE_FLUSH_INTERVAL
    }

    /// Makes the outbox's socket busy: a map held back for its interval, then taken. Returns
    /// when the next maps are due.
    async fn make_busy(o: &Arc<Outbox>, device: &Arc<str>) -> Instant {
        take_a_live_map(o, device);
        o.push_live(device, Bytes::from_static(b"held"));
        assert_eq!(o.batch_due().await, Ok(()));
        assert!(o.lock().busy, "the map was held back");
        assert_eq!(o.try_recv(), Ok(Some(Bytes::from_static(b"held"))));
        Instant::now() + LIVE_FLUSH_INTERVAL
    }

    #[tokio::test(start_paused = true)]
    async fn the_first_live_map_goes_at_once() {
        let (o, _) = outbox();
        let a: Arc<str> = "a".into();
        o.push_live(&a, Bytes::from_static(b"map"));
        assert_eq!(poll_once(&mut Box::pin(o.batch_due())), Some(Ok(())));
        assert!(!o.lock().busy);
    }

    #[tokio::test(start_paused = true)]
    async fn live_maps_wait_for_their_flush_and_go_together() {
        let (o, _) = outbox();
        let (a, b): (Arc<str>, Arc<str>) = ("a".into(), "b".into());
        let due = take_a_live_map(&o, &a);
        o.push_live(&a, Bytes::from_static(b"a1"));
        let waiting = spawn_batch_due(&o);
        tokio::time::sleep(LIVE_FLUSH_INTERVAL / 2).await;
        o.push_live(&b, Bytes::from_static(b"b1"));
        tokio::time::sleep(LIVE_FLUSH_INTERVAL / 4).await;
        assert!(!waiting.is_finished(), "a live map does not wake a writer before its flush is due");
        tokio::time::sleep_until(due).await;
        assert_eq!(waiting.await.unwrap(), Ok(()));
        assert_eq!(Instant::now(), due);
        assert!(o.lock().busy, "the maps were held back");
        assert_eq!(o.try_recv(), Ok(Some(Bytes::from_static(b"a1"))));
        assert_eq!(o.try_recv(), Ok(Some(Bytes::from_static(b"b1"))));
        assert_eq!(o.lock().live_due, Some(due + LIVE_FLUSH_INTERVAL), "the next interval starts when they are taken");
    }

    #[tokio::test(start_paused = true)]
    async fn a_control_message_does_not_wait_for_the_live_flush() {
        let (o, _) = outbox();
        let a: Arc<str> = "a".into();
        let start = Instant::now();
        take_a_live_map(&o, &a);
        o.push_live(&a, Bytes::from_static(b"map"));
        let waiting = spawn_batch_due(&o);
        tokio::time::sleep(std::time::Duration::from_millis(3)).await;
        assert!(!waiting.is_finished());
        assert!(o.push_control(Bytes::from_static(b"alarmOn")));
        assert_eq!(waiting.await.unwrap(), Ok(()));
        assert_eq!(Instant::now(), start + std::time::Duration::from_millis(3), "the alarm went at once");
        assert_eq!(o.try_recv(), Ok(Some(Bytes::from_static(b"alarmOn"))));
        assert_eq!(o.try_recv(), Ok(Some(Bytes::from_static(b"map"))), "the map rides along");
    }

    #[tokio::test(start_paused = true)]
    async fn control_messages_alone_start_no_interval() {
        let (o, _) = outbox();
        let a: Arc<str> = "a".into();
        assert!(o.push_control(Bytes::from_static(b"status")));
        assert_eq!(o.batch_due().await, Ok(()));
        assert_eq!(o.try_recv(), Ok(Some(Bytes::from_static(b"status"))));
        o.push_live(&a, Bytes::from_static(b"map"));
        assert_eq!(poll_once(&mut Box::pin(o.batch_due())), Some(Ok(())), "the map goes at once");
    }

    #[tokio::test(start_paused = true)]
    async fn a_live_map_after_a_quiet_interval_goes_at_once() {
        let (o, _) = outbox();
        let a: Arc<str> = "a".into();
        take_a_live_map(&o, &a);
        tokio::time::sleep(LIVE_FLUSH_INTERVAL * 2).await;
        o.push_live(&a, Bytes::from_static(b"map"));
        assert_eq!(poll_once(&mut Box::pin(o.batch_due())), Some(Ok(())), "due already: no wait at all");
        assert!(!o.lock().busy);
    }

    #[tokio::test(start_paused = true)]
    async fn a_closing_ends_the_wait_for_the_live_flush() {
        let (o, _) = outbox();
        let a: Arc<str> = "a".into();
        take_a_live_map(&o, &a);
        o.push_live(&a, Bytes::from_static(b"map"));
        let waiting = spawn_batch_due(&o);
        tokio::task::yield_now().await;
        o.close(CloseReason::Closed);
        assert_eq!(waiting.await.unwrap(), Err(CloseReason::Closed));
    }

    #[tokio::test(start_paused = true)]
    async fn a_busy_writer_holds_until_the_interval_ends_before_any_map_comes() {
        let (o, _) = outbox();
        let a: Arc<str> = "a".into();
        let due = make_busy(&o, &a).await;
        let waiting = spawn_batch_due(&o);
        tokio::time::sleep(std::time::Duration::from_millis(4)).await;
        assert!(o.lock().holding_live, "holding with nothing pending: the next map will not wake it");
        o.push_live(&a, Bytes::from_static(b"map"));
        tokio::time::sleep(std::time::Duration::from_millis(4)).await;
        assert!(!waiting.is_finished(), "the map waits for the interval's end");
        assert_eq!(waiting.await.unwrap(), Ok(()));
        assert_eq!(Instant::now(), due);
        assert!(o.lock().busy, "still busy");
    }

    #[tokio::test(start_paused = true)]
    async fn a_writer_that_is_not_busy_waits_for_a_map_without_holding() {
        let (o, _) = outbox();
        let a: Arc<str> = "a".into();
        take_a_live_map(&o, &a);
        let waiting = spawn_batch_due(&o);
        tokio::time::sleep(std::time::Duration::from_millis(4)).await;
        assert!(!o.lock().holding_live, "not busy: the first map wakes it");
        o.push_live(&a, Bytes::from_static(b"map"));
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        assert!(o.lock().holding_live, "then it holds the map for the interval");
        waiting.abort();
    }

    #[tokio::test(start_paused = true)]
    async fn a_busy_writer_whose_interval_ends_empty_is_quiet_again() {
        let (o, _) = outbox();
        let a: Arc<str> = "a".into();
        make_busy(&o, &a).await;
        let waiting = spawn_batch_due(&o);
        tokio::time::sleep(LIVE_FLUSH_INTERVAL * 3).await;
        assert!(!waiting.is_finished(), "nothing to send");
        let arrived = Instant::now();
        o.push_live(&a, Bytes::from_static(b"map"));
        assert_eq!(waiting.await.unwrap(), Ok(()));
        assert_eq!(Instant::now(), arrived, "a map after a quiet interval went at once");
        assert!(!o.lock().busy, "and the socket is quiet again");
    }

    #[tokio::test]
    async fn recv_wakes_on_push() {
        let (o, _) = outbox();
        let consumer = {
            let o = o.clone();
            tokio::spawn(async move { o.recv().await })
        };
        tokio::task::yield_now().await;
        o.push_control(Bytes::from_static(b"hello"));
        assert_eq!(consumer.await.unwrap(), Ok(Bytes::from_static(b"hello")));
    }
}
