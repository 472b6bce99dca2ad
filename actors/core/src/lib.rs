//! The pure core of the hub: per-device state machines ([`machine`]) and the analyses of a
//! capture ([`analysis`]).
//!
//! Pure by construction: this crate depends on std, serde and the protocol crate only (its
//! Cargo.toml is the check, `tests/purity.rs` guards it), so it cannot import tokio, ractor,
//! quinn, warp or surrealdb. Machines take time as an argument and expose what they want done as
//! drained outputs; analyses are functions of the capture. The runtime crate (`actors`) drives
//! them from ractor actors.

pub mod analysis;
pub mod compliance;
pub mod machine;
#[cfg(any(test, feature = "test-maps"))]
pub mod test_maps;
