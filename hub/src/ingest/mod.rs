//! Device ingest: the device protocol over QUIC and over WebSocket `/ingest`.
//!
//! Both transports hand whole message bodies to [`connection::serve_device`], which does the
//! hello, authentication, frame checks and command forwarding the same way for both.

pub mod connection;
pub mod hub_addresses;
pub mod quic;
mod quic_thread;
pub mod reset_key;
pub mod websocket;

pub use connection::IngestContext;
