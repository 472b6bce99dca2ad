//! The hub's runtime for devices and browsers: the thin ractor actors that drive the pure
//! machines of `mat-core`, the bounded fan-out to browser sessions, the device catalogue and the
//! browser protocol's message types. The device wire protocol and the device-type table are in
//! `mat-protocol`; the machines and analyses, which import no tokio or ractor, in `mat-core`.
//!
//! `actor` holds the ractor shells; `live_board` the typed live state of every device (what REST
//! reads); `fanout` the bounded per-session outboxes, where that state travels encoded; `browser`
//! the browser protocol's message types.

pub mod actor;
pub mod browser;
pub mod catalog;
pub mod fanout;
pub mod live_board;
pub mod metrics;
