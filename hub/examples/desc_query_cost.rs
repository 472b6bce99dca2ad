//! What a newest-first query costs as the database server's memtable fills (vendor/README.md):
//! a device's presence (`presence_log`, sorting after most tables) and a company's history page
//! (`analysis`, sorting before them), timed before and after rounds of snapshot writes (600
//! devices' `device_snapshot` rows, as the cluster writer sends every second). A measurement, not
//! a test.
//!
//! ```sh
//! SURREAL_USER=root SURREAL_PASS=root target/release/dbserver start --bind 127.0.0.1:8765 surrealkv:///tmp/desc-db &
//! cargo build --workspace --examples
//! HUB_DATABASE_USER=root HUB_DATABASE_PASS=root target/debug/examples/desc_query_cost
//! ```

use std::time::Instant;
use storage::model::PresenceLog;
use storage::repo::SnapshotWrite;

mod fleet;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let (store, company, devices) = fleet::on_server("ws://127.0.0.1:8765", "Desc").await?;
    for n in 0..20 {
        store
            .company(&company)
            .logs()
            .add_presence(&PresenceLog { device_id: devices[0].clone(), creation_date: n, log_id: "1".into() })
            .await?;
    }
    let time = |label: &'static str| {
        let store = store.clone();
        let company = company.clone();
        let device = devices[0].clone();
        async move {
            let began = Instant::now();
            for _ in 0..20 {
                store.company(&company).logs().presence(&device).await.expect("the presence list");
            }
            println!("{label}: presence DESC {:.2} ms each", began.elapsed().as_secs_f64() * 1000.0 / 20.0);
            let began = Instant::now();
            for _ in 0..20 {
                store.company(&company).analyses().page(&storage::model::AnalysisFilter::default(), 5, 10).await.expect("the history page");
            }
            println!("{label}: history page {:.2} ms each", began.elapsed().as_secs_f64() * 1000.0 / 20.0);
        }
    };
    time("before").await;
    let json = format!("{{\"pad\":\"{}\"}}", "x".repeat(1024));
    for round in 0..100 {
        let writes: Vec<SnapshotWrite> = devices
            .iter()
            .map(|device| SnapshotWrite { device: device.clone(), json: json.clone(), saved_at_ms: round, fence: 1 })
            .collect();
        store.hub_wide().device_snapshots().save(&writes).await?;
        if round % 25 == 24 {
            time("after snapshots").await;
        }
    }
    Ok(())
}
