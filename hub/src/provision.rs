//! `hub provision`: registers devices in the demo company and writes their one-time secrets. New
//! devices are registered as the REST registration registers them
//! (`crate::domain::registration::create`); a device that exists gets a new secret.

use anyhow::Context;
use mat_api::device::Registration;
use mat_protocol::device_type::DeviceType;
use serde::Serialize;
use storage::{Store, device_secret};

use crate::config::{ProvisionArgs, ServeConfig};
use crate::demo;
use crate::domain::registration;
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
    let device_type = DeviceType::from_name(&args.device_type).with_context(|| format!("unknown device type {:?}", args.device_type))?;
    // Refused before the database is opened (or created); `provision` checks it again.
    device_type.frame_shape().with_context(|| format!("{} does not stream frames", args.device_type))?;
    let store = crate::app::open_store(config).await.context("opening the database (is a hub running on it?)")?;
    let out = provision(&store, device_type, &args.prefix, args.count).await?;
    let json = serde_json::to_string_pretty(&out)?;
    write_private(&args.out, json.as_bytes())?;
    println!("provisioned {} devices of type {}; secrets written to {}", out.len(), args.device_type, args.out.display());
    Ok(())
}

/// Registers `count` devices of a type that streams frames in the demo company (created if
/// needed), serials `PREFIX-00001`, …, named `PREFIX 1`, …; a serial that exists gets a new secret.
pub async fn provision(store: &Store, device_type: DeviceType, prefix: &str, count: usize) -> anyhow::Result<Vec<Provisioned>> {
    let (rows, cols, _) = device_type.frame_shape().with_context(|| format!("{} does not stream frames", device_type.name()))?;
    let company = demo::seed_accounts(store).await.context("creating the demo company")?;
    let mut out = Vec::with_capacity(count);
    for i in 1..=count {
        let serial = format!("{prefix}-{i:05}");
        let (device_id, secret) = match store.hub_wide().devices().by_serial(&serial).await? {
            Some(existing) => {
                let secret = device_secret::generate();
                store.company(&company).devices().set_secret_hash(&existing.id, &device_secret::hash(&secret)).await?;
                (existing.id, secret)
            }
            None => {
                let planned = Registration {
                    hardware_serial: serial.clone(),
                    name: format!("{prefix} {i}"),
                    health_system: String::new(),
                    building: String::new(),
                    floor: String::new(),
                    room: "Load".into(),
                    bed: format!("{i}"),
                    device_type,
                    number_of_subdevices: 2,
                };
                let registered = registration::create(store.hub_wide(), &company, &planned).await?;
                let secret = registered.device_secret.with_context(|| format!("{} registered without a secret", device_type.name()))?;
                (registered.id, secret)
            }
        };
        out.push(Provisioned { serial, secret, device_type: device_type.name().to_owned(), rows, cols, device_id });
    }
    Ok(out)
}
