//! Typed repositories, one per table. Each borrows the store's connection.

mod companies;
mod device_confs;
mod devices;
mod settings;
mod users;

pub use companies::Companies;
pub use device_confs::DeviceConfs;
pub use devices::Devices;
pub use settings::Settings;
pub use users::Users;
