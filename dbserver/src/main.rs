//! `dbserver`: SurrealDB's own server, built from the `surrealdb-server` crate with the storage
//! engines the project uses (SurrealKV for one node, memory for throwaway runs), so hubs started
//! with `--database ws://HOST:PORT` share one store (issue 25, docs/scale-out.md).
//!
//! It is SurrealDB's command line unchanged (`surrealdb_server::init` is what the `surreal`
//! binary runs), so SurrealDB's documentation applies as written:
//!
//! ```text
//! SURREAL_USER=root SURREAL_PASS=… dbserver start --bind 127.0.0.1:8000 surrealkv://DIR
//! ```
//!
//! The root credentials come from the environment (`SURREAL_USER`, `SURREAL_PASS`), not the
//! command line, where every user of the machine could read them.

// The release build of SurrealDB's query engine, monomorphised here, overflows rustc's default
// query depth ("queries overflow the depth limit!" in `surrealdb_core::legacy::expr`); rustc asks
// for 256 in the crate being built, which is this one.
#![recursion_limit = "256"]

use std::process::ExitCode;

fn main() -> ExitCode {
    surrealdb_server::init(surrealdb_server::core::CommunityComposer())
}
