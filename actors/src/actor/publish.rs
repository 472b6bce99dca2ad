//! How a device's live facts leave its actors: into the [`LiveBoard`](crate::live_board::LiveBoard)
//! first, which REST reads, then encoded once into the [`Bus`](crate::fanout::Bus) for every
//! browser session watching. Writing the board first means that a session told of a change finds
//! the same state over REST.
//!
//! In a cluster (issue 25) the status of a device this hub owns also goes to the other hubs
//! (through the bus's relay); the `mirror_*` functions are where the other hubs' facts land:
//! board and sessions alike, never relayed again and never stored (the owner stores its own).

use std::sync::Arc;

use crate::browser::{DeviceConfEvent, encode_event, events};
use crate::fanout::{CompanyChannel, DeviceChannel, LivePicture};
use crate::live_board::{DeviceLive, LiveMap};

/// A device's new status: on the board, then to the company's sessions (and remembered for those
/// joining later).
pub fn publish_status(live: &DeviceLive, company: &CompanyChannel, device_id: &Arc<str>, status: DeviceConfEvent) {
    if let Some(relay) = company.seam().relay_for_owned(device_id) {
        relay.status(company.company_id(), &status);
    }
    mirror_status(live, company, device_id, status);
}

/// Another hub's device's new status: on this hub's board and to its sessions, as its own
/// devices' statuses are, and not relayed.
pub fn mirror_status(live: &DeviceLive, company: &CompanyChannel, device_id: &Arc<str>, status: DeviceConfEvent) {
    let message = encode_event(events::DEVICE_CONF, &status);
    live.set_status(status);
    company.publish(device_id, message);
}

/// A device's status without telling the sessions already watching (the registry shows every
/// device offline at start-up and a newly registered one at once): on the board, and remembered
/// for the sessions joining later.
pub fn seed_status(live: &DeviceLive, company: &CompanyChannel, device_id: &Arc<str>, status: DeviceConfEvent) {
    let message = encode_event(events::DEVICE_CONF, &status);
    live.set_status(status);
    company.seed(device_id, message);
}

/// A device's new live map: on the board (kept whole, shared by `Arc`), then to the device's
/// channel, which encodes it once if anyone watches.
pub fn publish_map(live: &DeviceLive, channel: &DeviceChannel, map: LiveMap) {
    let map = Arc::new(map);
    live.set_map(map.clone());
    channel.publish(LivePicture::Map(map));
}

/// The live map goes blank (the device stopped sending): the board has no map, the viewers clear
/// theirs.
pub fn publish_blank(live: &DeviceLive, channel: &DeviceChannel, hub_time_ms: u64) {
    live.clear_map();
    channel.publish(LivePicture::Blank { hub_time_ms });
}

/// Another hub's device's new live picture: on this hub's board and to its viewers, not relayed.
pub fn mirror_picture(live: &DeviceLive, channel: &DeviceChannel, picture: LivePicture) {
    match &picture {
        LivePicture::Map(map) => live.set_map(map.clone()),
        LivePicture::Blank { .. } => live.clear_map(),
    }
    channel.publish_mirrored(picture);
}
