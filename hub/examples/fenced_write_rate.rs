//! How many fenced records a SurrealDB server writes per second: one transaction per record at a
//! given concurrency (the cluster writer's shape until 2026-11-29), then in shared transactions
//! of 64 devices with two in flight (`hub::cluster::fenced_records`, storage's
//! `HubDeviceRows::write_fenced`), one and four records per device. A measurement, not a test.
//!
//! ```sh
//! SURREAL_USER=root SURREAL_PASS=root target/release/dbserver start --bind 127.0.0.1:8765 surrealkv:///tmp/rate-db &
//! HUB_DATABASE_USER=root HUB_DATABASE_PASS=root \
//!   cargo build -p hub --example fenced_write_rate && target/debug/examples/fenced_write_rate ws://127.0.0.1:8765 8 64 2000
//! ```
//! Arguments: the server, then the concurrencies to try, then the records per try. Then the
//! same server's rate of snapshot batches (`HubDeviceSnapshots::save`, what the cluster writer
//! sends every flush: one row per device whose machine changed) for 600 devices, with a snapshot
//! of 1 KB and of 4 KB.

use std::time::Instant;

use futures_util::StreamExt;
use storage::model::PresenceLog;
use storage::repo::{DeviceRow, DeviceRows, SnapshotWrite};

mod fleet;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let url = args.first().cloned().unwrap_or_else(|| "ws://127.0.0.1:8765".into());
    let records: usize = args.last().and_then(|a| a.parse().ok()).unwrap_or(2000);
    let concurrencies: Vec<usize> = args.iter().skip(1).take(args.len().saturating_sub(2)).filter_map(|a| a.parse().ok()).collect();
    let (store, company, devices) = fleet::on_server(&url, "Rate").await?;
    for concurrency in concurrencies {
        let began = Instant::now();
        let written = futures_util::stream::iter(0..records)
            .map(|n| {
                let (store, company, device) = (&store, &company, &devices[n % devices.len()]);
                async move {
                    let entry = PresenceLog { device_id: device.clone(), creation_date: n as i64, log_id: "1".into() };
                    store.company(company).fenced(1).logs().add_presence(&entry).await.is_ok()
                }
            })
            .buffer_unordered(concurrency)
            .filter(|ok| std::future::ready(*ok))
            .count()
            .await;
        let seconds = began.elapsed().as_secs_f64();
        println!(
            "concurrency {concurrency:>3}: {written} of {records} records in {seconds:.2} s = {:.0} per second",
            written as f64 / seconds
        );
    }
    for per_device in [1usize, 4] {
        let began = Instant::now();
        let batch_count = records.div_ceil(64 * per_device);
        let written: usize = futures_util::stream::iter(0..batch_count)
            .map(|batch| {
                let (store, company, devices) = (&store, &company, &devices);
                async move {
                    let rows: Vec<DeviceRows> = (0..64)
                        .map(|k| {
                            let device = &devices[(batch * 64 + k) % devices.len()];
                            let presence = |n: usize| {
                                DeviceRow::Presence(PresenceLog { device_id: device.clone(), creation_date: n as i64, log_id: "1".into() })
                            };
                            DeviceRows {
                                company_id: company.clone(),
                                device_id: device.clone(),
                                fence: 1,
                                rows: (0..per_device).map(|n| presence(batch * per_device + n)).collect(),
                            }
                        })
                        .collect();
                    match store.hub_wide().device_rows().write_fenced(&rows).await {
                        Ok(_) => rows.iter().map(|r| r.rows.len()).sum(),
                        Err(_) => 0,
                    }
                }
            })
            .buffer_unordered(2)
            .fold(0, |sum, n| std::future::ready(sum + n))
            .await;
        let seconds = began.elapsed().as_secs_f64();
        println!(
            "shared transactions, 64 devices x {per_device}: {written} records in {batch_count} transactions in {seconds:.2} s = {:.0} per second",
            written as f64 / seconds
        );
    }
    for bytes in [1024, 4096] {
        let json = format!("{{\"pad\":\"{}\"}}", "x".repeat(bytes));
        let began = Instant::now();
        let rounds = 5;
        for round in 0..rounds {
            let writes: Vec<SnapshotWrite> = devices
                .iter()
                .map(|device| SnapshotWrite { device: device.clone(), json: json.clone(), saved_at_ms: round, fence: 1 })
                .collect();
            store.hub_wide().device_snapshots().save(&writes).await?;
        }
        let seconds = began.elapsed().as_secs_f64();
        let rows = rounds as usize * devices.len();
        println!(
            "snapshots of {bytes} B: {rows} rows in {rounds} batches in {seconds:.2} s = {:.0} rows per second",
            rows as f64 / seconds
        );
    }
    Ok(())
}
