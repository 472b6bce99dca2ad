//! The hub: configuration, device ingest over QUIC and WebSocket, the REST API, the browser
//! WebSocket, static client files, metrics and demo mode. Business rules live in `actors` and
//! `mat-core`; each entity's operations live in `domain`, which the REST handlers, the demo,
//! `provision` and the storage writer's records call; the rest wires them to the network and to
//! storage.

pub mod admin;
pub mod alarm_manager;
pub mod app;
pub mod auth;
pub mod backup;
pub mod catalog_load;
pub mod cluster;
pub mod config;
pub mod demo;
pub mod domain;
pub mod fhir;
pub mod group_commit;
pub mod health;
pub mod http;
pub mod ingest;
pub mod private_file;
pub mod provision;
pub mod records;
pub mod snapshots;
pub mod status_recovery;
pub mod tls;
