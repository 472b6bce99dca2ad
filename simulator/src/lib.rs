//! Simulated pressure mats speaking the device protocol over QUIC or WebSocket.
//!
//! The hub's demo mode and the load tests use this library; the `simulator` binary wraps it.
//!
//! - [`synth`]: pure map synthesis (scenario scripts rendered to frame cells; no I/O, no clock).
//! - [`policy`]: pure timing rules (reconnect backoff, frame rate, pacing).
//! - [`run_device`]: the I/O shell that connects a [`DeviceSpec`] to the hub and keeps it there.
//!
//! ```no_run
//! # async fn demo() -> Result<(), simulator::SimError> {
//! use std::sync::Arc;
//! use simulator::{DeviceSpec, QuicClient, SimStats, Transport, Trust, run_device};
//!
//! let (stop, shutdown) = tokio::sync::watch::channel(false);
//! let client = QuicClient::new(Trust::PemFile("data/tls/cert.pem".into()))?;
//! let stats = Arc::new(SimStats::default());
//! let spec = DeviceSpec::new("DEMO-0001", "secret", "Mattress Mat IoT")?;
//! let transport = Transport::QuicShared {
//!     client,
//!     addr: "127.0.0.1:4433".parse().expect("address"),
//!     server_name: "localhost".into(),
//! };
//! let device = tokio::spawn(run_device(spec, transport, stats.clone(), shutdown));
//! // ... later:
//! let _ = stop.send(true);
//! let _ = device.await;
//! # Ok(()) }
//! ```

pub mod cli;
mod device;
mod error;
mod link;
pub mod policy;
pub mod posture_augment;
pub mod posture_fit;
mod provisioned;
mod quic;
pub mod real;
mod spec;
mod stats;
pub mod synth;

pub use device::{FrameObserver, RunOptions, Transport, run_device, run_device_with};
pub use error::{SimError, is_terminal};
pub use policy::Rate;
pub use provisioned::{ProvisionedDevice, load_devices, parse_devices};
pub use quic::{IDLE_TIMEOUT as QUIC_IDLE_TIMEOUT, KEEP_ALIVE as QUIC_KEEP_ALIVE, QuicClient, Trust, client_config};
pub use spec::{DEVICE_TYPES, DeviceSpec, DeviceSpecPreset, preset, seed_from};
pub use stats::{SimStats, StatsSnapshot};
pub use synth::{MapSynth, Scenario, ScenarioPhase};

/// Re-exported so callers can name the cell format without depending on `actors` directly.
pub use mat_protocol::CellFormat;
