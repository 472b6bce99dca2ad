//! A cluster's relay and command route for tests: the relay records what the bus and the actors
//! hand it; the route has no other hub to send to.

use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;

use bytes::Bytes;
use mat_core::machine::mat::DeviceStatus;
use mat_core::machine::presence::Presence;

use super::{CommandRoute, LivePicture, Relay, RouteOutcome};
use crate::actor::session_commands::DeviceCommand;
use crate::browser::DeviceConfEvent;

/// Records what it is asked to relay: one line per call, and the statuses themselves.
#[derive(Default)]
pub struct Recorder {
    lines: Mutex<Vec<String>>,
    statuses: Mutex<Vec<DeviceConfEvent>>,
}

impl Recorder {
    /// Each call, in order: `claimed d`, `status d`, `map d`, …
    pub fn lines(&self) -> Vec<String> {
        self.lines.lock().unwrap().clone()
    }

    /// The statuses relayed, in order.
    pub fn statuses(&self) -> Vec<DeviceConfEvent> {
        self.statuses.lock().unwrap().clone()
    }

    fn line(&self, line: String) {
        self.lines.lock().unwrap().push(line);
    }
}

impl Relay for Recorder {
    fn claimed(&self, _: &str, device_id: &str) {
        self.line(format!("claimed {device_id}"));
    }
    fn released(&self, _: &str, device_id: &str) {
        self.line(format!("released {device_id}"));
    }
    fn status(&self, _: &str, status: &DeviceConfEvent) {
        self.line(format!("status {}", status.device_id));
        self.statuses.lock().unwrap().push(status.clone());
    }
    fn event(&self, _: &str, device_id: &str, _: &Bytes) {
        self.line(format!("event {device_id}"));
    }
    fn map(&self, _: &str, device_id: &str, _: &LivePicture) {
        self.line(format!("map {device_id}"));
    }
    fn watching(&self, _: &str, device_id: &str) {
        self.line(format!("watching {device_id}"));
    }
    fn member(&self, _: &str, device_id: &str, _: DeviceStatus, _: Presence) {
        self.line(format!("member {device_id}"));
    }
    fn received(&self, _: &str, device_id: &str, _: &Bytes) {
        self.line(format!("received {device_id}"));
    }
}

/// A route with no other hub: every command finds no owner.
pub struct NoRoute;

impl CommandRoute for NoRoute {
    fn send(&self, _: &str, _: DeviceCommand) -> Pin<Box<dyn Future<Output = RouteOutcome> + Send>> {
        Box::pin(async { RouteOutcome::NoOwner })
    }
}
