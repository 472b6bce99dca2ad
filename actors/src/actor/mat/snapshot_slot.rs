//! Where a mat's latest [`MatSnapshot`] waits between its actors: the registry holds one slot per
//! device for the hub's lifetime, the device's actor refreshes it, a restarted actor (or the first
//! actor after a hub restart, which the registry seeds from storage) restores from it.

use std::sync::{Arc, Mutex, MutexGuard};

use mat_core::machine::mat::MatSnapshot;

/// One device's snapshot, shared.
#[derive(Debug, Clone, Default)]
pub struct SnapshotSlot(Arc<Mutex<Option<MatSnapshot>>>);

impl SnapshotSlot {
    /// The latest snapshot (`None`: the device's machine never ran and storage had nothing).
    pub fn load(&self) -> Option<MatSnapshot> {
        self.lock().clone()
    }

    /// Replaces the snapshot.
    pub fn save(&self, snapshot: MatSnapshot) {
        *self.lock() = Some(snapshot);
    }

    /// Changes the snapshot in place, if there is one.
    pub fn update(&self, change: impl FnOnce(&mut MatSnapshot)) {
        if let Some(snapshot) = self.lock().as_mut() {
            change(snapshot);
        }
    }

    fn lock(&self) -> MutexGuard<'_, Option<MatSnapshot>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}
