//! The QUIC endpoint and its connections run on a thread of their own.
//!
//! quinn reads the UDP socket from one endpoint task, which reads for at most 50 µs per turn and
//! then yields. On the hub's runtime that task waits its turn behind every mat actor, viewer and
//! connection task, so under load datagrams queued in the socket while the core was not even busy:
//! at 2,000 mats × 10 Hz device → hub p99 was 59 ms with thousands of datagrams dropped, and
//! 5–11 ms with the endpoint on its own thread (docs/performance.md, "The goal load held"). The
//! operating system's scheduler now shares the core between this thread and the hub's runtime;
//! the device tasks reading the streams stay on the hub's runtime.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;
use tokio::sync::oneshot;

/// A [`quinn::Runtime`] whose tasks, timers and socket belong to a current-thread tokio runtime
/// on the `quic-io` thread. The thread ends when the last endpoint or connection using it is
/// dropped.
#[derive(Debug)]
pub struct QuicThread {
    handle: tokio::runtime::Handle,
    _stop: oneshot::Sender<()>,
}

impl QuicThread {
    /// Starts the `quic-io` thread and its runtime.
    pub fn start() -> anyhow::Result<Self> {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().context("building the QUIC runtime")?;
        let handle = runtime.handle().clone();
        let (stop, stopped) = oneshot::channel::<()>();
        std::thread::Builder::new()
            .name("quic-io".into())
            .spawn(move || {
                // Returns when `_stop` is dropped; the runtime, with any task left, is dropped after.
                let _ = runtime.block_on(stopped);
            })
            .context("starting the QUIC thread")?;
        Ok(Self { handle, _stop: stop })
    }
}

impl quinn::Runtime for QuicThread {
    fn new_timer(&self, at: Instant) -> Pin<Box<dyn quinn::AsyncTimer>> {
        let _context = self.handle.enter();
        quinn::TokioRuntime.new_timer(at)
    }

    fn spawn(&self, future: Pin<Box<dyn Future<Output = ()> + Send>>) {
        self.handle.spawn(future);
    }

    fn wrap_udp_socket(&self, socket: std::net::UdpSocket) -> std::io::Result<Arc<dyn quinn::AsyncUdpSocket>> {
        let _context = self.handle.enter();
        quinn::TokioRuntime.wrap_udp_socket(socket)
    }
}
