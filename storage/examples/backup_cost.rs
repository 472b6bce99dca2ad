//! What a backup of the embedded store costs, and its restore: an embedded store (SurrealKV in a
//! temporary directory) filled with a ward's device-log rows, each with its 48 × 48 map as the hub
//! stores it (JSON, a body's oval of pressures), backed up with `Store::export_to` and restored
//! with `backup::restore_embedded`. Prints one Markdown row (docs/reliability.md, "Backups").
//!
//! `cargo run -p storage --release --example backup_cost -- ROWS` (20,000 by default).

use std::time::Instant;

use storage::model::{DeviceLog, NewDevice};
use storage::{Store, backup, device_secret};

/// A 48 × 48 map as a device log stores it: a lying body's oval of pressures, zeros around it.
fn map_json(seed: usize) -> String {
    let rows: Vec<String> = (0..48)
        .map(|r| {
            let cells: Vec<String> = (0..48)
                .map(|c| {
                    let (dr, dc) = ((r as f64 - 24.0) / 22.0, (c as f64 - 24.0) / 9.0);
                    let inside = dr * dr + dc * dc;
                    if inside < 1.0 { (((1.0 - inside) * 90.0) as usize + (r * 7 + c * 3 + seed) % 11).to_string() } else { "0".into() }
                })
                .collect();
            format!("[{}]", cells.join(","))
        })
        .collect();
    format!("[{}]", rows.join(","))
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows: usize = std::env::args().nth(1).map_or(Ok(20_000), |n| n.parse())?;
    let root = tempfile::tempdir()?;
    let store = Store::open_dir(&root.path().join("db")).await?;
    let company = store.hub_wide().companies().create("Ward", "").await?;
    let device = store
        .hub_wide()
        .devices()
        .create(&NewDevice {
            name: "Bed 1".into(),
            device_type: "Mattress Mat IoT".into(),
            hardware_serial: "BED-1".into(),
            company_id: company.clone(),
            secret_hash: device_secret::hash("secret"),
            ..NewDevice::default()
        })
        .await?;
    let filled = Instant::now();
    for i in 0..rows {
        let entry = DeviceLog {
            device_id: device.clone(),
            creation_date: 1_790_000_000_000 + i as i64 * 60_000,
            max_pressure: 90,
            position: "1".into(),
            posture: "Supine".into(),
            confidence: 0.97,
            pressure_map: map_json(i),
        };
        store.company(&company).logs().add_device_log(&entry).await?;
    }
    let filled = filled.elapsed();

    let file = root.path().join("backup.surql");
    let exported = Instant::now();
    store.export_to(&file).await?;
    let exported = exported.elapsed();
    let bytes = std::fs::metadata(&file)?.len();
    let on_disk = dir_size(&root.path().join("db"));

    let restored = Instant::now();
    let copy = backup::restore_embedded(&root.path().join("restored"), &file).await?;
    let restored = restored.elapsed();
    let newest = |store: &Store| {
        let (store, company, device) = (store.clone(), company.clone(), device.clone());
        async move { store.company(&company).logs().device_logs(&device).await }
    };
    assert_eq!(newest(&copy).await?, newest(&store).await?, "the newest rows restored as they were");

    println!("| rows | store on disk | backup | backup written | restored | filled in |");
    println!("|---|---|---|---|---|---|");
    println!(
        "| {rows} | {:.1} MB | {:.1} MB | {:.2} s | {:.2} s | {:.1} s |",
        on_disk as f64 / 1e6,
        bytes as f64 / 1e6,
        exported.as_secs_f64(),
        restored.as_secs_f64(),
        filled.as_secs_f64()
    );
    Ok(())
}

fn dir_size(dir: &std::path::Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| match e.metadata() {
                    Ok(m) if m.is_dir() => dir_size(&e.path()),
                    Ok(m) => m.len(),
                    Err(_) => 0,
                })
                .sum()
        })
        .unwrap_or(0)
}
