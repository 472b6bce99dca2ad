//! The cluster's hub addresses a welcome gives each device (issue 25, item 5): one shared list
//! the ingest reads at every welcome. Today it is set once from the command line
//! ([`crate::config::PeerConfig`]); a discovery (hubs announcing themselves on NATS) can replace
//! it while the hub runs, and the next welcome carries the new list.

use std::sync::{Arc, RwLock};

/// QUIC addresses (`HOST:PORT`) of the cluster's hubs, this one first; empty for a lone hub.
#[derive(Debug, Default)]
pub struct HubAddresses {
    current: RwLock<Arc<[String]>>,
}

impl HubAddresses {
    /// A list to start with.
    pub fn new(hubs: Vec<String>) -> Self {
        Self { current: RwLock::new(hubs.into()) }
    }

    /// Replaces the list; welcomes from now on carry the new one.
    pub fn replace(&self, hubs: Vec<String>) {
        *self.current.write().unwrap_or_else(|poisoned| poisoned.into_inner()) = hubs.into();
    }

    /// The list as the next welcome carries it.
    pub fn current(&self) -> Vec<String> {
        self.current.read().unwrap_or_else(|poisoned| poisoned.into_inner()).to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replaced_list_is_what_the_next_welcome_reads() {
        let hubs = HubAddresses::default();
        assert!(hubs.current().is_empty());
        hubs.replace(vec!["10.0.0.1:4433".into(), "10.0.0.2:4433".into()]);
        assert_eq!(hubs.current(), ["10.0.0.1:4433", "10.0.0.2:4433"]);
        hubs.replace(vec![]);
        assert!(hubs.current().is_empty());
    }
}
