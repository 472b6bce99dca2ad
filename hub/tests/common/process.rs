//! The real hub binary as a child process, for the hub's own tests: `hub_process` (shared by
//! path with other packages' tests) and the binary Cargo built for these tests.

#[path = "hub_process.rs"]
mod hub_process;
#[allow(unused_imports)] // Each test crate uses its own part.
pub use hub_process::*;

/// The hub binary Cargo built for these tests.
pub const HUB_BIN: &str = env!("CARGO_BIN_EXE_hub");
