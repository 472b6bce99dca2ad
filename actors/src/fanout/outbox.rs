//! A browser session's outbox: bounded, live maps conflated, control messages never dropped.
//!
//! Live maps are kept per device and a newer map replaces an unsent older one (counted as
//! conflated). Control messages (status changes, errors) queue in order; if more than
//! [`CONTROL_CAPACITY`] wait, the session cannot keep up, and the outbox closes with
//! [`CloseReason::SlowConsumer`] instead of growing or slowing the publisher. Publishing never
//! waits: it takes a short lock and returns.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use bytes::Bytes;
use tokio::sync::Notify;

use crate::metrics::HubMetrics;

/// Control messages that may wait in one outbox. `joinCompany` replays one status per device, so
/// this bounds the devices of one company too (a status is ~200 bytes: ≤ 1.6 MB per session).
pub const CONTROL_CAPACITY: usize = 8192;
/// Devices one session may watch at once.
pub const MAX_LIVE_DEVICES: usize = 64;

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
        drop(state);
        self.ready.notify_one();
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
    /// order their devices first became pending.
    pub fn try_recv(&self) -> Result<Option<Bytes>, CloseReason> {
        let mut state = self.lock();
        if let Some(reason) = state.closed {
            return Err(reason);
        }
        if let Some(message) = state.control.pop_front() {
            return Ok(Some(message));
        }
        let live = state.live.pop_front().map(|(_, message)| message);
        if live.is_some() {
            HubMetrics::inc(&self.metrics.frames_delivered);
        }
        Ok(live)
    }

    /// Waits for the next message.
    pub async fn recv(&self) -> Result<Bytes, CloseReason> {
        loop {
            if let Some(message) = self.try_recv()? {
                return Ok(message);
            }
            self.ready.notified().await;
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
