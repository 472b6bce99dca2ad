//! The measurement examples' fleet on a database server: a company of 600 mats, each under fence
//! 1 (as if one hub owned them all).

use storage::model::NewDevice;
use storage::{Store, device_secret};

/// Connects to `url` with `HUB_DATABASE_USER` / `HUB_DATABASE_PASS` and registers a company
/// named `name` (with this process's id) and its 600 mats; the store, the company and the mats.
pub async fn on_server(url: &str, name: &str) -> anyhow::Result<(Store, String, Vec<String>)> {
    let credentials = storage::Credentials::from_env().map_err(|e| anyhow::anyhow!("{e:?}"))?;
    let store = Store::connect(url, credentials.as_ref()).await?;
    let company = store.hub_wide().companies().create(&format!("{name} {}", std::process::id() % 10_000), "").await?;
    let mut devices = Vec::new();
    for k in 0..600 {
        let device = NewDevice {
            name: format!("Bed {k}"),
            device_type: "Mattress Mat IoT".into(),
            hardware_serial: format!("{}-{}-{k}", name.to_uppercase(), std::process::id()),
            company_id: company.clone(),
            secret_hash: device_secret::hash("s"),
            ..NewDevice::default()
        };
        let id = store.hub_wide().devices().create(&device).await?;
        store.hub_wide().device_fences().raise(&id, 1, "a").await?;
        devices.push(id);
    }
    Ok((store, company, devices))
}
