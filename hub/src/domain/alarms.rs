//! A device's alarms: the device's alarm machine owns them, storage is its journal
//! (ARCHITECTURE.md, "Attending an alarm"). A parent (room set, horse) answers for its
//! sub-devices too: its alarms are theirs.

use std::collections::HashMap;

use actors::actor::session_commands::{CommandOutcome, DeviceCommand};
use actors::catalog::{Catalog, DeviceInfo};
use storage::CompanyStore;
use storage::model::{AlarmLog, PresenceLog};
use storage::repo::AlarmStatus;

use super::error::DomainError;
use super::{device_commands, records_stored};
use crate::http::state::AppState;

/// A device and those of its sub-devices in `company_id`, as ids.
pub fn device_and_members(catalog: &Catalog, company_id: &str, device: &DeviceInfo) -> Vec<String> {
    let mut ids = vec![device.id.to_string()];
    ids.extend(device.members.iter().filter(|m| catalog.get_in_company(m, company_id).is_some()).map(|m| m.to_string()));
    ids
}

/// Whether the device (or one of its sub-devices) has an unattended alarm.
pub async fn has_pending(store: CompanyStore<'_>, catalog: &Catalog, device: &DeviceInfo) -> Result<bool, DomainError> {
    let ids = device_and_members(catalog, store.company_id(), device);
    store.logs().has_unattended(&ids).await.map_err(DomainError::internal)
}

/// The alarms of a device and its sub-devices, newest first.
pub async fn alarms(store: CompanyStore<'_>, catalog: &Catalog, device: &DeviceInfo) -> Result<Vec<AlarmLog>, DomainError> {
    let mut alarms = Vec::new();
    for device_id in device_and_members(catalog, store.company_id(), device) {
        alarms.extend(store.logs().alarms(&device_id).await.map_err(DomainError::internal)?);
    }
    alarms.sort_by_key(|a| std::cmp::Reverse(a.creation_date));
    Ok(alarms)
}

/// What the company's alarm manager reported of the alarms of a device and its sub-devices
/// (IHE PCD-05), by alarm key, each alarm's oldest first.
pub async fn manager_statuses(
    store: CompanyStore<'_>,
    catalog: &Catalog,
    device: &DeviceInfo,
) -> Result<HashMap<String, Vec<AlarmStatus>>, DomainError> {
    let ids = device_and_members(catalog, store.company_id(), device);
    let mut by_alarm: HashMap<String, Vec<AlarmStatus>> = HashMap::new();
    for status in store.alarm_statuses().of_devices(&ids).await.map_err(DomainError::internal)? {
        by_alarm.entry(status.alarm.clone()).or_default().push(status);
    }
    Ok(by_alarm)
}

/// The entrances and exits of a device and its sub-devices, newest first.
pub async fn presence(store: CompanyStore<'_>, catalog: &Catalog, device: &DeviceInfo) -> Result<Vec<PresenceLog>, DomainError> {
    let mut entries = Vec::new();
    for device_id in device_and_members(catalog, store.company_id(), device) {
        entries.extend(store.logs().presence(&device_id).await.map_err(DomainError::internal)?);
    }
    entries.sort_by_key(|e| std::cmp::Reverse(e.creation_date));
    Ok(entries)
}

/// The reason of a 503 when a device changed hubs while its alarms were being attended.
const MOVED_WHILE_ATTENDED: &str = "the device moved to another hub while its alarms were attended; try again";

/// Attends every pending alarm of a device of `store`'s company and its sub-devices for a user;
/// answers how many.
///
/// Through each device's alarm machine first: the machine attends what it holds and its
/// `AlarmAttended` records are the journal, written (a writer flush) before this answers. Then the
/// store attends what no machine held (alarms of devices without an actor, or raised elsewhere).
/// The store was once written first and the actor's answer ignored: an actor that did not answer
/// in time kept an alarm the store called attended, and raised no alarm for the patient's next
/// absence (found by `hub/tests/kill_under_load.rs`, docs/reliability.md §2). A machine that does
/// not answer now fails the call, with nothing attended anywhere.
///
/// The store attends only the alarms that were pending **before** the machines were asked. It once
/// attended whatever was pending after them, which included an alarm a machine raised in between
/// (the patient still away after the attendance): that row was attended while its machine held
/// the alarm pending, and the machine raised no alarm for the patient's later absences (found by
/// the 300-mat cluster run, docs/reliability.md §6).
///
/// In cluster mode the storage attendance of each device is fenced by the device's fence as it
/// stood before its machine was asked (`Logs::attend_device`): a hub that takes the device over
/// meanwhile raises the fence before it reads the device's rows, so the attendance lands either
/// before that read (the new owner's machine reads it attended) or not at all (503, asked
/// again) — never after it, where the new owner's machine would keep the alarm pending while its
/// row is attended, and raise no alarm for the patient's next absence (docs/reliability.md §6).
pub async fn attend(hub: &AppState, store: CompanyStore<'_>, user_id: &str, device: &DeviceInfo) -> Result<usize, DomainError> {
    let ids = device_and_members(&hub.catalog, store.company_id(), device);
    // A hub on its own has no fences to read: no other hub can take its devices over.
    let mut fences = HashMap::new();
    if hub.cluster.is_some() {
        for id in &ids {
            let fence = hub.store.hub_wide().device_fences().revision(id).await.map_err(DomainError::internal)?;
            fences.insert(id.clone(), fence);
        }
    }
    // The alarms pending now (every one, however old: the devices are the company's, checked
    // above): the store attends those of them no machine held, and no other.
    let mut pending_before = HashMap::new();
    for id in &ids {
        let alarms = hub.store.hub_wide().logs().unattended_of(id).await.map_err(DomainError::internal)?;
        pending_before.insert(id.clone(), alarms.into_iter().map(|a| a.id).collect::<Vec<String>>());
    }
    let mut attended = 0;
    // Parents (horse, room set) have no actor of their own. A device another hub owns is
    // attended there (its machine holds the alarms; its writer stores the attendance).
    for id in &ids {
        let Some(member) = hub.catalog.get(id) else { continue };
        if member.device_type.frame_shape().is_none() {
            continue;
        }
        let command = DeviceCommand::AttendAlarm { alarm: None, by: Some(user_id.to_owned()) };
        match device_commands::run(hub, &member.id, command).await {
            CommandOutcome::Attended(count) => attended += count,
            CommandOutcome::Unavailable { reason } => return Err(DomainError::unavailable(reason)),
            _ => return Err(DomainError::internal("the device's alarm machine did not answer")),
        }
    }
    records_stored::flushed(hub, "attended alarms").await?;
    // What no machine held is attended in storage only; its alarm manager hears the end too
    // (the machines' attendances reach it through `records`).
    let now = storage::unix_now();
    let mut held_by_none = Vec::new();
    for id in &ids {
        let scope = match fences.get(id).copied().flatten() {
            Some(fence) => store.fenced(fence),
            None => store,
        };
        let keys = pending_before.get(id).map_or(&[][..], Vec::as_slice);
        match scope.logs().attend_device(id, keys, user_id, now).await {
            Ok(keys) => {
                attended += keys.len();
                held_by_none.extend(keys.into_iter().map(|key| (id.clone(), key)));
            }
            Err(storage::StoreError::Fenced) => return Err(DomainError::unavailable(MOVED_WHILE_ATTENDED)),
            Err(error) => return Err(DomainError::internal(error)),
        }
    }
    for (device_id, key) in held_by_none {
        let reported = hub.alarm_reporter.attended(store.company_id(), &device_id, &key, (now.max(0) as u64) * 1000).await;
        if let Err(error) = reported {
            tracing::warn!(alarm = %key, %error, "the end of an attended alarm could not be queued for the alarm manager (queued at the next start)");
        }
    }
    Ok(attended)
}
