//! `StorageWriter`: batches status changes off the frame path and hands them to the store.
//!
//! Mat actors cast `Save` and move on. The writer keeps the latest record per device, flushes
//! every [`FLUSH_INTERVAL`] (or at once on `Flush`), and retries a failed batch with backoff.
//! The store is behind [`StatusStore`] so this crate does not depend on the database.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort};

use crate::machine::status::PatientStatus;

/// How long status changes gather before they are written together.
pub const FLUSH_INTERVAL: Duration = Duration::from_millis(200);
/// Longest wait before retrying a failed write.
pub const MAX_RETRY_DELAY: Duration = Duration::from_secs(10);

/// One device's status to persist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusRecord {
    pub device_id: Arc<str>,
    pub functional: bool,
    pub patient_status: PatientStatus,
}

/// The future a store returns.
pub type StoreFuture<'a> = Pin<Box<dyn Future<Output = Result<(), String>> + Send + 'a>>;

/// Where statuses go. Implemented by the hub on top of the `storage` crate.
pub trait StatusStore: Send + Sync + 'static {
    /// Writes a batch of statuses in one transaction.
    fn save_statuses(&self, batch: Vec<StatusRecord>) -> StoreFuture<'_>;
}

/// Messages of the writer.
pub enum WriterMsg {
    /// Persist this status (the latest per device wins within a batch).
    Save(StatusRecord),
    /// Timer: write what is pending.
    FlushDue,
    /// Write what is pending now and reply when done (shutdown, tests).
    Flush(RpcReplyPort<Result<(), String>>),
}

/// The writer's state.
pub struct WriterState {
    store: Arc<dyn StatusStore>,
    pending: BTreeMap<Arc<str>, StatusRecord>,
    flush_armed: bool,
    retry_delay: Duration,
}

/// The writer actor.
pub struct StorageWriter;

impl Actor for StorageWriter {
    type Msg = WriterMsg;
    type State = WriterState;
    type Arguments = Arc<dyn StatusStore>;

    async fn pre_start(&self, _myself: ActorRef<WriterMsg>, store: Arc<dyn StatusStore>) -> Result<WriterState, ActorProcessingErr> {
        Ok(WriterState { store, pending: BTreeMap::new(), flush_armed: false, retry_delay: FLUSH_INTERVAL })
    }

    async fn handle(&self, myself: ActorRef<WriterMsg>, message: WriterMsg, state: &mut WriterState) -> Result<(), ActorProcessingErr> {
        match message {
            WriterMsg::Save(record) => {
                state.pending.insert(record.device_id.clone(), record);
                if !state.flush_armed {
                    state.flush_armed = true;
                    myself.send_after(FLUSH_INTERVAL, || WriterMsg::FlushDue);
                }
            }
            WriterMsg::FlushDue => {
                state.flush_armed = false;
                if state.flush().await.is_err() {
                    state.flush_armed = true;
                    state.retry_delay = (state.retry_delay * 2).min(MAX_RETRY_DELAY);
                    myself.send_after(state.retry_delay, || WriterMsg::FlushDue);
                }
            }
            WriterMsg::Flush(reply) => {
                let _ = reply.send(state.flush().await);
            }
        }
        Ok(())
    }
}

impl WriterState {
    async fn flush(&mut self) -> Result<(), String> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let batch: Vec<StatusRecord> = self.pending.values().cloned().collect();
        match self.store.save_statuses(batch).await {
            Ok(()) => {
                self.pending.clear();
                self.retry_delay = FLUSH_INTERVAL;
                Ok(())
            }
            Err(error) => {
                tracing::warn!(%error, pending = self.pending.len(), "status batch not written; will retry");
                Err(error)
            }
        }
    }
}
