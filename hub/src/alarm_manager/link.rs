//! The state of the path to each alarm manager, as administrators see it: up since the last
//! answered report or successful probe, down with the last error since a failed one.

use std::collections::HashMap;
use std::sync::Mutex;

use serde::Serialize;

use super::Destination;

/// One destination's link.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LinkState {
    /// `up`, `down` or `unknown` (not tried yet).
    pub state: String,
    /// When it last changed, Unix ms.
    pub since_ms: i64,
    /// When the manager last answered (an ACK or an accepted connection), Unix ms.
    pub last_ok_ms: Option<i64>,
    /// The last failure, while down.
    pub last_error: Option<String>,
}

impl LinkState {
    fn unknown() -> LinkState {
        LinkState { state: "unknown".into(), since_ms: 0, last_ok_ms: None, last_error: None }
    }
}

/// Every destination's link.
#[derive(Debug, Default)]
pub struct LinkStates(Mutex<HashMap<Destination, LinkState>>);

impl LinkStates {
    /// The link to `destination`.
    pub fn get(&self, destination: &Destination) -> LinkState {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).get(destination).cloned().unwrap_or_else(LinkState::unknown)
    }

    /// The manager answered at `now_ms`.
    pub fn up(&self, destination: &Destination, now_ms: i64) {
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let link = map.entry(destination.clone()).or_insert_with(LinkState::unknown);
        if link.state != "up" {
            link.state = "up".into();
            link.since_ms = now_ms;
        }
        link.last_ok_ms = Some(now_ms);
        link.last_error = None;
    }

    /// The path failed at `now_ms`.
    pub fn down(&self, destination: &Destination, now_ms: i64, error: &str) {
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let link = map.entry(destination.clone()).or_insert_with(LinkState::unknown);
        if link.state != "down" {
            link.state = "down".into();
            link.since_ms = now_ms;
        }
        link.last_error = Some(error.to_owned());
    }

    /// Forgets `destination` (no company reports there any more).
    pub fn forget(&self, destination: &Destination) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).remove(destination);
    }

    /// How many destinations are down now.
    pub fn down_count(&self) -> usize {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).values().filter(|l| l.state == "down").count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_goes_up_and_down_keeping_when_it_changed() {
        let links = LinkStates::default();
        let d: Destination = "mllp://am:2575".parse().unwrap();
        assert_eq!(links.get(&d).state, "unknown");
        assert_eq!(links.down_count(), 0);
        links.up(&d, 10);
        links.up(&d, 20);
        assert_eq!(links.get(&d), LinkState { state: "up".into(), since_ms: 10, last_ok_ms: Some(20), last_error: None });
        links.down(&d, 30, "connection refused");
        links.down(&d, 40, "timeout");
        assert_eq!(
            links.get(&d),
            LinkState { state: "down".into(), since_ms: 30, last_ok_ms: Some(20), last_error: Some("timeout".into()) }
        );
        let other: Destination = "mllp://other:2575".parse().unwrap();
        links.up(&other, 50);
        assert_eq!(links.down_count(), 1, "the metrics' links down");
        links.up(&d, 60);
        assert_eq!(links.down_count(), 0);
        links.down(&other, 70, "connection refused");
        links.forget(&other);
        assert_eq!((links.down_count(), links.get(&other).state.as_str()), (0, "unknown"), "a destination nobody reports to");
    }
}
