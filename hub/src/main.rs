//! The `hub` binary: parses the command line and runs the server or a maintenance command.

use std::io::IsTerminal;

use anyhow::Context;
use clap::Parser;
use hub::config::{Cli, Command, LogFormat};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    malloc_tuning::return_large_blocks_to_the_system();
    let mut cli = Cli::parse();
    let log = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_env("HUB_LOG").unwrap_or_else(|_| "info".into()))
        .with_writer(std::io::stderr)
        // Colours on a terminal only: a log file or the journal gets plain text.
        .with_ansi(std::io::stderr().is_terminal());
    match cli.log_format {
        LogFormat::Text => log.init(),
        LogFormat::Json => log.json().flatten_event(true).init(),
    }
    cli.serve.database_credentials = storage::Credentials::from_env()?;
    // `wss://` to a database server: its TLS client takes the process's default provider, and a
    // build that links two (ring here, aws-lc in the workspace's dbserver) must name one.
    let _ = rustls::crypto::ring::default_provider().install_default();
    match cli.command {
        Some(Command::Provision(args)) => hub::provision::run(&cli.serve, &args).await.context("provisioning failed"),
        Some(Command::CreateAdmin(args)) => hub::admin::run(&cli.serve, &args).await.context("creating the administrator failed"),
        Some(Command::Restore(args)) => hub::backup::run_restore(&cli.serve, &args).await.context("the restore failed"),
        None => {
            let running = hub::app::start(cli.serve).await.context("the hub could not start")?;
            running.wait_for_shutdown_signal().await
        }
    }
}
