//! `hub provision`: registers devices in the demo company and writes their one-time secrets.

use anyhow::Context;
use serde::Serialize;
use storage::model::NewDevice;
use storage::{device_secret, Store};

use crate::config::{ProvisionArgs, ServeConfig};
use crate::demo;
use crate::private_file::write_private;

/// One provisioned device, as the simulator and the load tests read it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Provisioned {
    pub serial: String,
    pub secret: String,
    pub device_type: String,
    pub rows: u16,
    pub cols: u16,
    pub device_id: String,
}

/// Runs the command against the configured database.
pub async fn run(config: &ServeConfig, args: &ProvisionArgs) -> anyhow::Result<()> {
    let device_type = mat_protocol::device_type::DeviceType::from_name(&args.device_type)
        .with_context(|| format!("unknown device type {:?}", args.device_type))?;
    let (rows, cols, _) = device_type.frame_shape().with_context(|| format!("{} does not stream frames", args.device_type))?;
    if config.database.is_none() {
        std::fs::create_dir_all(&config.data).with_context(|| format!("creating {}", config.data.display()))?;
    }
    let store = Store::open(&config.database_url()).await.context("opening the database (is a hub running on it?)")?;
    let company = demo::seed_accounts(&store).await.context("creating the demo company")?;
    let mut out = Vec::with_capacity(args.count);
    for i in 1..=args.count {
        let serial = format!("{}-{i:05}", args.prefix);
        let secret = device_secret::generate();
        let device_id = match store.hub_wide().devices().by_serial(&serial).await? {
            Some(existing) => {
                store.company(&company).devices().set_secret_hash(&existing.id, &device_secret::hash(&secret)).await?;
                existing.id
            }
            None => {
                store
                    .hub_wide()
                    .devices()
                    .create(&NewDevice {
                        name: format!("{} {i}", args.prefix),
                        bed: format!("{i}"),
                        room: "Load".into(),
                        device_type: args.device_type.clone(),
                        hardware_serial: serial.clone(),
                        company_id: company.clone(),
                        number_of_subdevices: 2,
                        secret_hash: device_secret::hash(&secret),
                        ..NewDevice::default()
                    })
                    .await?
            }
        };
        out.push(Provisioned { serial, secret, device_type: args.device_type.clone(), rows, cols, device_id });
    }
    let json = serde_json::to_string_pretty(&out)?;
    write_private(&args.out, json.as_bytes())?;
    println!("provisioned {} devices of type {}; secrets written to {}", out.len(), args.device_type, args.out.display());
    Ok(())
}
