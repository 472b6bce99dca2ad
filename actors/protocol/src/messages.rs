//! The message types of the device protocol, both directions.

use serde::{Deserialize, Serialize};

/// How the bytes of a frame's `cells` encode one cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CellFormat {
    /// One byte per cell, 0–255.
    U8,
    /// Two bytes per cell, little-endian unsigned (force channels use 0–4095).
    U16Le,
}

impl CellFormat {
    /// Bytes used by one cell.
    pub fn bytes_per_cell(self) -> usize {
        match self {
            CellFormat::U8 => 1,
            CellFormat::U16Le => 2,
        }
    }
}

/// Everything a device sends to the hub.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum DeviceMessage {
    /// First message on every connection: who the device is and the shape of its frames.
    Hello(Hello),
    /// One pressure map.
    Frame(Frame),
    /// The device carried out (or refused) a command.
    Ack(Ack),
}

/// The device introduces itself and proves it holds its secret.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    /// Protocol version the device speaks; must equal [`super::PROTOCOL_VERSION`].
    pub version: u16,
    /// Hardware serial, as registered in the hub.
    pub serial: String,
    /// The per-device secret issued at registration (never the serial).
    pub secret: String,
    /// Device type name as in spec §3 (for example `Mattress Mat IoT`).
    pub device_type: String,
    /// Rows of every frame this connection will send.
    pub rows: u16,
    /// Columns of every frame this connection will send.
    pub cols: u16,
    /// Encoding of the cells.
    pub cell_format: CellFormat,
    /// Free-form firmware identification, for logs.
    #[serde(default)]
    pub firmware: String,
}

/// One pressure map, row-major.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Frame {
    /// Increases by one per frame on a connection; gaps mean the device dropped frames.
    pub seq: u64,
    /// The device's clock when the map was sampled, milliseconds since the Unix epoch.
    pub device_time_ms: u64,
    /// `rows × cols` cells encoded as announced in the hello.
    #[serde(with = "serde_bytes")]
    pub cells: Vec<u8>,
}

/// Answer to a [`Command`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ack {
    /// The `id` of the command being answered.
    pub command_id: u32,
    /// `true` when the device carried the command out.
    pub ok: bool,
    /// Why not, when `ok` is false.
    #[serde(default)]
    pub reason: String,
}

/// Everything the hub sends to a device.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum HubMessage {
    /// The hello was accepted; frames may follow.
    Welcome(Welcome),
    /// Something the device should do; answer with an [`Ack`].
    Command(CommandEnvelope),
    /// Something went wrong; when `fatal` the hub closes the connection after sending it.
    Error(ProtocolErrorMessage),
}

/// Acceptance of a hello.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Welcome {
    /// Protocol version the hub speaks.
    pub version: u16,
    /// The hub's identifier for this device.
    pub device_id: String,
    /// Largest message the hub accepts.
    pub max_message_bytes: u32,
    /// QUIC addresses (`HOST:PORT`) of the cluster's hubs, this one included: a device whose hub
    /// stops answering tries the next of them. Empty (and absent on the wire, so a single hub's
    /// welcome is the same bytes as before) when the hub knows no other; a device that does not
    /// know the field ignores it, as it ignores every unknown field of a map.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hubs: Vec<String>,
}

/// A command with the id the device echoes in its [`Ack`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandEnvelope {
    /// Chosen by the hub, unique per connection.
    pub id: u32,
    /// What to do.
    pub command: Command,
}

/// The commands a device understands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "name", rename_all = "snake_case")]
pub enum Command {
    /// Stream frames at the live rate for `seconds`; 0 stops and returns to the monitoring rate.
    Stream { seconds: u32 },
    /// Take a static capture every `period_ms`, `repetitions` times (the 24 h series).
    StartSeries { period_ms: u64, repetitions: u32 },
    /// Start a capture from the device side (remote activation), for example `dynamic`.
    RemoteActivation { kind: String },
}

/// Error codes the hub sends to devices; stable strings on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The hello's version is not supported.
    UnsupportedVersion,
    /// No device with this serial is registered.
    UnknownSerial,
    /// The secret does not match the registered device.
    BadSecret,
    /// The first message was not a hello, or no hello arrived in time.
    HelloExpected,
    /// The message could not be decoded.
    Malformed,
    /// The message exceeds the size limit.
    TooLarge,
    /// A frame's cell count does not match the hello's rows × cols × cell size.
    ShapeMismatch,
    /// The hello's device type differs from the registered one.
    WrongDeviceType,
    /// Another connection took over this serial.
    Replaced,
    /// The hub is shutting down.
    ShuttingDown,
}

/// An error report to the device.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProtocolErrorMessage {
    /// Machine-readable reason.
    pub code: ErrorCode,
    /// Human-readable detail, for logs.
    pub message: String,
    /// The hub closes the connection after a fatal error.
    pub fatal: bool,
}
