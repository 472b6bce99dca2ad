//! Start-up recovery of patient statuses from the record journal.
//!
//! The storage writer writes a step's records (presence entries, alarms) before any status, so a
//! hub killed between the two restarts with the records ahead of a device's stored status. One
//! such state is dangerous: a device stored as Missing whose patient came back — an entrance was
//! written after its newest Missing alarm — while the Correct status was lost with the process.
//! Restored as Missing, the device's machine takes the Missing condition as already on, so if the
//! patient left again it would raise no alarm. Before the catalogue is loaded, such a status is
//! set back to Correct: a machine that starts Correct and finds the bed empty raises the alarm
//! after the absence delay. (Found by `hub/tests/kill_under_load.rs`, docs/reliability.md §2.)

use anyhow::Context;
use mat_core::machine::alarm::AlarmKind;
use mat_core::machine::status::PatientStatus;
use storage::Store;
use storage::model::{AlarmLog, PresenceLog, StatusUpdate};

/// Whether a device stored as Missing had its patient back since: no Missing alarm is pending
/// and its newest entrance is later than its newest Missing alarm (or it has entrances and no
/// Missing alarm at all). `alarms` and `presence` are the device's rows, in any order.
pub fn came_back_after_missing(alarms: &[AlarmLog], presence: &[PresenceLog]) -> bool {
    let missing = alarms.iter().filter(|a| AlarmKind::from_name(&a.kind) == Some(AlarmKind::Missing));
    let mut newest_missing = None;
    for alarm in missing {
        if !alarm.has_been_attended {
            return false;
        }
        newest_missing = newest_missing.max(Some(alarm.creation_date));
    }
    let newest_entrance = presence.iter().filter(|p| p.log_id == "1").map(|p| p.creation_date).max();
    match (newest_entrance, newest_missing) {
        (Some(entered), Some(alarmed)) => entered > alarmed,
        (Some(_), None) => true,
        (None, _) => false,
    }
}

/// Sets every Missing status whose patient came back (see [`came_back_after_missing`]) to
/// Correct; returns how many.
pub async fn recover(store: &Store) -> anyhow::Result<usize> {
    let confs = store.hub_wide().device_confs().list_all().await.context("reading device statuses")?;
    let mut corrected = Vec::new();
    for conf in confs.iter().filter(|c| PatientStatus::from_name(&c.patient_status) == Some(PatientStatus::Missing)) {
        let alarms = store.company(&conf.company_id).logs().alarms(&conf.device_id).await.context("reading a device's alarms")?;
        let presence = store.company(&conf.company_id).logs().presence(&conf.device_id).await.context("reading a device's presence log")?;
        if came_back_after_missing(&alarms, &presence) {
            corrected.push(StatusUpdate {
                device_id: conf.device_id.clone(),
                device_functional: conf.device_functional,
                patient_status: PatientStatus::Correct.name().to_owned(),
            });
        }
    }
    if !corrected.is_empty() {
        store.hub_wide().device_confs().save_statuses(&corrected).await.context("correcting recovered statuses")?;
        tracing::warn!(
            devices = corrected.len(),
            "patients stored as Missing had come back before the hub stopped; their status is Correct again"
        );
    }
    Ok(corrected.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alarm(kind: &str, at: i64, attended: bool) -> AlarmLog {
        AlarmLog {
            device_id: "d".into(),
            id: format!("d-{at}"),
            kind: kind.into(),
            creation_date: at,
            has_been_attended: attended,
            attended_time: None,
            attended_by: None,
            reason_json: None,
        }
    }

    fn entrance(at: i64) -> PresenceLog {
        PresenceLog { device_id: "d".into(), creation_date: at, log_id: "1".into() }
    }

    fn exit(at: i64) -> PresenceLog {
        PresenceLog { device_id: "d".into(), creation_date: at, log_id: "0".into() }
    }

    #[test]
    fn a_patient_back_after_the_attended_alarm_is_no_longer_missing() {
        assert!(came_back_after_missing(&[alarm("Missing", 100, true)], &[entrance(50), entrance(200)]));
        assert!(came_back_after_missing(&[], &[entrance(200)]), "entered, and no Missing alarm since");
    }

    #[test]
    fn a_pending_alarm_or_no_entrance_since_keeps_the_patient_missing() {
        assert!(!came_back_after_missing(&[alarm("Missing", 100, false)], &[entrance(200)]), "the alarm still waits for a nurse");
        assert!(!came_back_after_missing(&[alarm("Missing", 300, true)], &[entrance(200)]), "missing again since the entrance");
        assert!(!came_back_after_missing(&[alarm("Missing", 100, true)], &[exit(200)]), "an exit is not a return");
        assert!(!came_back_after_missing(&[alarm("Missing", 100, true)], &[]));
        assert!(!came_back_after_missing(&[alarm("Missing", 200, true)], &[entrance(200)]), "the same second: not after");
    }

    #[test]
    fn other_alarm_kinds_do_not_count() {
        assert!(came_back_after_missing(&[alarm("Missing", 100, true), alarm("Ulcer Risk", 300, false)], &[entrance(200)]));
    }
}
