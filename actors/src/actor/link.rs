//! The hub's handle on one device connection: a bounded queue of messages to send to it.

use tokio::sync::mpsc;

use mat_protocol::{Command, CommandEnvelope, HubMessage};

/// Commands that may wait for one device connection's writer.
pub const LINK_CAPACITY: usize = 16;

/// One live connection of a device.
#[derive(Debug, Clone)]
pub struct DeviceLink {
    /// Unique per connection, so a late disconnect of a replaced connection is ignored.
    pub connection_id: u64,
    /// Messages for the connection's writer task.
    pub outgoing: mpsc::Sender<HubMessage>,
}

impl DeviceLink {
    /// A link and the receiving end its connection task drains.
    pub fn new(connection_id: u64) -> (Self, mpsc::Receiver<HubMessage>) {
        let (outgoing, rx) = mpsc::channel(LINK_CAPACITY);
        (DeviceLink { connection_id, outgoing }, rx)
    }

    /// Queues a command without waiting. Returns false when the connection is gone or its queue
    /// is full (a device that does not read its commands).
    pub fn send_command(&self, id: u32, command: Command) -> bool {
        self.outgoing.try_send(HubMessage::Command(CommandEnvelope { id, command })).is_ok()
    }

    /// Queues any message without waiting.
    pub fn send(&self, message: HubMessage) -> bool {
        self.outgoing.try_send(message).is_ok()
    }
}
