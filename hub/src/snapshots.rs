//! The mat snapshots a hub restart resumes from, loaded from storage in one place.
//!
//! The snapshots themselves are not stored: what a hub restart keeps of a mat is written where
//! the durability rules already put it (docs/decisions.md, "A mat's snapshot across a hub
//! restart"): its patient status (`device_conf`, by the storage writer after the step's records),
//! its unattended alarms (`alarm_log`, written before that status), its stream end, its
//! repositioning interval and its tare (`device_conf`). [`load`] reads them back and builds one
//! [`MatSnapshot`] per device that has any of them; the registry hands each to the device's first
//! actor.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use actors::catalog::Catalog;
use anyhow::Context;
use mat_core::machine::alarm::{AlarmKind, PendingAlarm};
use mat_core::machine::mat::{MatSnapshot, StoredMatState};
use mat_core::machine::tare::Tare;
use storage::Store;
use storage::model::{AlarmLog, DeviceConf};

use crate::records::alarm_number;

/// One snapshot per catalogued device with a stored stream end, unattended alarm or
/// repositioning interval.
pub async fn load(store: &Store, catalog: &Catalog) -> anyhow::Result<Vec<(Arc<str>, MatSnapshot)>> {
    let confs = store.hub_wide().device_confs().list_all().await.context("reading device configurations")?;
    let alarms = store.hub_wide().logs().unattended_all().await.context("reading unattended alarms")?;
    Ok(stored_states(&confs, &alarms)
        .into_iter()
        .filter_map(|(device_id, stored)| {
            let info = catalog.get(&device_id)?;
            Some((info.id.clone(), MatSnapshot::from_stored(info.device_type, info.patient_status, stored)))
        })
        .collect())
}

/// What one device's rows say (its configuration row and unattended alarms, read already: a
/// cluster hub taking it over makes the shared snapshot true to them,
/// `MatSnapshot::reconciled_with_rows`).
pub fn stored_state_from(device: &str, conf: Option<DeviceConf>, alarms: &[AlarmLog]) -> StoredMatState {
    stored_states(conf.as_slice(), alarms).remove(device).unwrap_or_default()
}

/// What the stored rows say of each device.
fn stored_states(confs: &[DeviceConf], alarms: &[AlarmLog]) -> HashMap<String, StoredMatState> {
    let mut states: HashMap<String, StoredMatState> = HashMap::new();
    for conf in confs {
        let stream_ends_at_ms = conf.streaming_end_ms.and_then(|ms| u64::try_from(ms).ok());
        let repositioning_interval = conf.repositioning_minutes.and_then(|m| u64::try_from(m).ok()).map(|m| Duration::from_secs(m * 60));
        let tare = conf.tare_json.as_deref().and_then(|json| match serde_json::from_str::<Tare>(json) {
            Ok(tare) => Some(tare),
            Err(error) => {
                tracing::warn!(device = %conf.device_id, %error, "a stored tare could not be read; the mat learns it again");
                None
            }
        });
        if stream_ends_at_ms.is_some() || repositioning_interval.is_some() || tare.is_some() {
            let state = states.entry(conf.device_id.clone()).or_default();
            state.stream_ends_at_ms = stream_ends_at_ms;
            state.repositioning_interval = repositioning_interval;
            state.tare = tare;
        }
    }
    for alarm in alarms {
        // Alarms raised elsewhere (random keys) or of another kind are not the actor's to attend.
        let (Some(id), Some(kind)) = (alarm_number(&alarm.device_id, &alarm.id), AlarmKind::from_name(&alarm.kind)) else { continue };
        let raised_at_ms = u64::try_from(alarm.creation_date).unwrap_or(0).saturating_mul(1000);
        let state = states.entry(alarm.device_id.clone()).or_default();
        let reason = alarm.reason_json.as_deref().and_then(|json| serde_json::from_str(json).ok());
        state.alarms.pending.push(PendingAlarm { id, kind, raised_at_ms, reason });
        state.alarms.next_id = state.alarms.next_id.max(id + 1);
    }
    states
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conf(device_id: &str, streaming_end_ms: Option<i64>, repositioning_minutes: Option<i64>) -> DeviceConf {
        DeviceConf {
            device_id: device_id.into(),
            company_id: "c".into(),
            device_functional: false,
            patient_status: "Correct".into(),
            image_saved: false,
            streaming_end_ms,
            repositioning_minutes,
            tare_json: None,
        }
    }

    fn alarm(device_id: &str, key: &str, kind: &str, creation_date: i64) -> AlarmLog {
        AlarmLog {
            device_id: device_id.into(),
            id: key.into(),
            kind: kind.into(),
            creation_date,
            has_been_attended: false,
            attended_time: None,
            attended_by: None,
            reason_json: None,
        }
    }

    #[test]
    fn stored_rows_become_each_devices_stream_end_interval_and_pending_alarms() {
        let confs = [conf("a", Some(5_000), None), conf("b", None, Some(45)), conf("idle", None, None)];
        let alarms = [
            alarm("a", "a-41", "Missing", 3),
            alarm("a", "a-42", "Ulcer Risk", 4),
            alarm("b", "k3j2h4", "Missing", 5),
            alarm("b", "b-7", "Something else", 5),
        ];
        let states = stored_states(&confs, &alarms);
        let a = &states["a"];
        assert_eq!(a.stream_ends_at_ms, Some(5_000));
        assert_eq!(a.alarms.next_id, 43);
        let pending: Vec<(u64, AlarmKind, u64)> = a.alarms.pending.iter().map(|p| (p.id, p.kind, p.raised_at_ms)).collect();
        assert_eq!(pending, vec![(41, AlarmKind::Missing, 3_000), (42, AlarmKind::UlcerRisk, 4_000)]);
        let b = &states["b"];
        assert_eq!(b.repositioning_interval, Some(Duration::from_secs(45 * 60)));
        assert!(b.alarms.pending.is_empty(), "a random key or an unknown kind is not the actor's alarm");
        assert!(!states.contains_key("idle"), "nothing stored, nothing to resume");
    }
}
