//! A dead hub's devices on the other hubs (issue 25, docs/scale-out.md "A dead hub's devices"):
//! the mirror shows another hub's device as its owner last reported it, and a dead owner reports
//! nothing more. When the device's lease goes unwritten for a lease time (`lease_sightings`: its
//! hub is dead or cut off, and the device has not connected to another hub, whose takeover would
//! have written the key), every hub shows it as a device whose connection closed is shown (spec
//! §4, `mat_core::machine::live_map`: not functional, the card Offline, the map blank; the
//! patient status, the repositioning tier and a pending alarm as they were): on its board (REST)
//! and to its browsers, and to its set's actor if it is a set's member. When its lease is written
//! again (its hub came back, or it connected elsewhere) this hub asks every hub for its devices'
//! statuses (the sync of a join), since what the owner said meanwhile may not have been heard.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use actors::actor::publish::{mirror_picture, mirror_status};
use actors::actor::registry::RegistryMsg;
use actors::browser::DeviceConfEvent;
use actors::catalog::{Catalog, DeviceInfo};
use actors::fanout::{Bus, LivePicture};
use actors::live_board::LiveBoard;
use mat_core::machine::mat::DeviceStatus;
use mat_core::machine::presence::Presence;
use ractor::ActorRef;
use tokio::sync::watch;

use super::events_wire::{SYNC, SyncMessage, encode};
use super::lease_keeper::{LeaseKeeper, unix_ms};

/// How often the other hubs' devices are checked.
pub const CHECK_EVERY: Duration = Duration::from_millis(500);

/// Where an ownerless device is shown.
pub struct DeadOwnerParts {
    pub bus: Arc<Bus>,
    pub board: Arc<LiveBoard>,
    pub catalog: Arc<Catalog>,
    /// A set's member goes to its set's actor here.
    pub registry: ActorRef<RegistryMsg>,
    /// The sync request goes out on it.
    pub client: async_nats::Client,
}

/// How a device whose connection is gone is shown, from how it was last shown: as the mat
/// machine leaves it on a disconnection (not functional, no state code, the card Offline), the
/// patient status, repositioning tier and pending alarm kept.
pub fn shown_disconnected(device: &DeviceInfo, last: &DeviceConfEvent) -> DeviceStatus {
    DeviceStatus {
        repositioning: last.repositioning,
        unattended_alarm: last.unattended_alarm,
        ..DeviceStatus::offline(device.device_type, last.patient_status)
    }
}

/// Shows the other hubs' ownerless devices disconnected, every [`CHECK_EVERY`], until `stopped`.
pub async fn show_ownerless_devices(keeper: Arc<LeaseKeeper>, parts: DeadOwnerParts, mut stopped: watch::Receiver<bool>) {
    let mut tick = tokio::time::interval(CHECK_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = stopped.changed() => return,
        }
        let now = keeper.mono_ms();
        {
            let mut sightings = keeper.sightings();
            sightings.tick(now);
            if keeper.nats_reachable() && keeper.watch_running.load(Ordering::Relaxed) {
                sightings.watching(now);
            } else {
                sightings.not_watching();
            }
        }
        if keeper.revived.swap(false, Ordering::Relaxed) {
            let request = SyncMessage { origin: keeper.node.clone() };
            if let Err(error) = parts.client.publish(SYNC, encode(&request)).await {
                tracing::warn!(%error, "the statuses of a device with an owner again could not be asked for");
            }
        }
        // The leases first, under one lock: with every hub alive no lease has expired, and no
        // device's status is read.
        let devices = parts.catalog.all();
        let expired: Vec<Arc<DeviceInfo>> = {
            let sightings = keeper.sightings();
            // A set is computed on every hub from its members; its own lease only says who writes.
            devices.into_iter().filter(|d| d.members.is_empty() && sightings.lease_expired(&d.id, now)).collect()
        };
        for device in expired {
            if parts.bus.seam().owns(&device.id) {
                continue;
            }
            let Some(last) = parts.board.status(&device.company_id, &device.id) else { continue };
            let step = {
                let mut sightings = keeper.sightings();
                let declared_before = sightings.is_ownerless(&device.id);
                if !sightings.ownerless(&device.id, now) {
                    continue;
                }
                ownerless_step(last.device_functional, declared_before, device.parent.is_some())
            };
            match step {
                OwnerlessStep::ShowDisconnected => {
                    tracing::warn!(device = %device.serial, "the device's lease expired with no new owner: shown disconnected");
                    show_disconnected(&parts, &device, &last);
                }
                OwnerlessStep::TellTheSet => {
                    tracing::warn!(device = %device.serial, "the set's member's lease expired with no new owner: its set is told");
                    tell_the_set(&parts, &device, shown_disconnected(&device, &last));
                }
                OwnerlessStep::Nothing => {}
            }
        }
    }
}

/// What this hub does about a device whose lease expired with no new owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OwnerlessStep {
    /// Show it disconnected: on the board, to the browsers and to its set.
    ShowDisconnected,
    /// The board shows it not functional already (its owner's last status arrived), but its set
    /// may not have heard it: the member's message is another message, and a hub dying right
    /// after its device disconnected sent one and not the other (a horse stayed functional on
    /// the other hubs with one side shown disconnected). Its set is told once.
    TellTheSet,
    Nothing,
}

/// The step for an ownerless device: `shown_functional` on this hub's board, already
/// `declared_before` ownerless (and not seen written since), a set's `member`.
pub fn ownerless_step(shown_functional: bool, declared_before: bool, member: bool) -> OwnerlessStep {
    if shown_functional {
        OwnerlessStep::ShowDisconnected
    } else if member && !declared_before {
        OwnerlessStep::TellTheSet
    } else {
        OwnerlessStep::Nothing
    }
}

fn show_disconnected(parts: &DeadOwnerParts, device: &DeviceInfo, last: &DeviceConfEvent) {
    let status = shown_disconnected(device, last);
    let live = parts.board.device(&device.company_id, &device.id);
    mirror_status(&live, &parts.bus.company(&device.company_id), &device.id, DeviceConfEvent::new(&device.identity(), &status, Vec::new()));
    mirror_picture(&live, &parts.bus.device(&device.id, &device.company_id), LivePicture::Blank { hub_time_ms: unix_ms() });
    tell_the_set(parts, device, status);
}

/// A set's member tells its set here it is disconnected (no-op for a device of no set).
fn tell_the_set(parts: &DeadOwnerParts, device: &DeviceInfo, status: DeviceStatus) {
    if device.parent.is_some() {
        let _ = parts.registry.cast(RegistryMsg::MemberElsewhere { device_id: device.id.clone(), status, presence: Presence::Absent });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mat_core::machine::pressure_ulcer::RepositioningTier;
    use mat_core::machine::status::{CardStatus, PatientStatus};
    use mat_protocol::device_type::DeviceType;

    #[test]
    fn an_ownerless_device_is_shown_disconnected_and_its_set_told_once() {
        use OwnerlessStep::*;
        assert_eq!(ownerless_step(true, false, false), ShowDisconnected);
        assert_eq!(ownerless_step(true, true, true), ShowDisconnected, "shown functional again meanwhile");
        assert_eq!(ownerless_step(false, false, true), TellTheSet, "the board heard its owner's last status; the set may not have");
        assert_eq!(ownerless_step(false, true, true), Nothing, "told once per expiry");
        assert_eq!(ownerless_step(false, false, false), Nothing, "no set to tell");
    }

    #[test]
    fn a_device_with_no_owner_is_shown_as_a_disconnected_one_keeping_its_patient_facts() {
        let device = DeviceInfo {
            id: Arc::from("d1"),
            serial: "S1".into(),
            company_id: Arc::from("c"),
            device_type: DeviceType::MattressMatIoT,
            name: "Bed 1".into(),
            parent: None,
            members: Vec::new(),
            secret_hash: String::new(),
            functional: true,
            patient_status: PatientStatus::Correct,
        };
        let live = DeviceStatus {
            repositioning: RepositioningTier::Due,
            unattended_alarm: true,
            ..DeviceStatus::new(true, PatientStatus::UlcerRisk, Some(2), CardStatus::Alarm)
        };
        let last = DeviceConfEvent::new(&device.identity(), &live, Vec::new());
        let shown = shown_disconnected(&device, &last);
        assert!(!shown.functional);
        assert_eq!(shown.state_code, None);
        assert_eq!(shown.card, CardStatus::Offline, "a device that is not connected shows Offline whatever its type");
        assert_eq!(shown.patient_status, PatientStatus::UlcerRisk);
        assert_eq!((shown.repositioning, shown.unattended_alarm), (RepositioningTier::Due, true), "the nurse still sees the open alarm");
        assert_eq!(
            shown,
            DeviceStatus {
                repositioning: RepositioningTier::Due,
                unattended_alarm: true,
                ..DeviceStatus::offline(DeviceType::MattressMatIoT, PatientStatus::UlcerRisk)
            }
        );
    }
}
