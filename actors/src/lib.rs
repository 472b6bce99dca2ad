//! Per-device behaviour of the hub: the device wire protocol, pure sans-IO state machines, and
//! the thin ractor actors that drive them.
//!
//! `protocol` and `machine` import no tokio, ractor, quinn, warp or surrealdb: they take time as
//! an argument and expose what they want done as drained outputs, so every timing rule of the
//! spec is testable with a simulated clock. `actor` holds the ractor shells; `fanout` the
//! bounded per-session outboxes; `browser` the browser protocol's message types.

pub mod actor;
pub mod analysis;
pub mod browser;
pub mod catalog;
pub mod fanout;
pub mod machine;
pub mod metrics;
pub mod protocol;
#[cfg(test)]
mod test_maps;
