//! Queuing alarm reports. `records` calls [`AlarmReporter::raised`] once an alarm is stored and
//! [`AlarmReporter::attended`] once it is attended; each builds the `ORU^R40` report of the
//! company's route and queues it in storage under the control id `ALARMKEY-PHASE`, stable across
//! retries and restarts (queuing it again is a no-op), then wakes the sender.
//!
//! A kill between storing an alarm and queuing its start report is covered at start-up:
//! [`AlarmReporter::replay_unattended`] queues the start of every stored unattended alarm (a
//! no-op for those already queued).

use std::sync::Arc;

use actors::catalog::Catalog;
use ihe_pcd::pcd04::{self, AlarmReport, Phase, Source};
use ihe_pcd::priority::Condition;
use storage::model::Device;
use storage::repo::NewOutboxEntry;
use storage::{Store, StoreError};
use tokio::sync::Notify;

use super::destination::{HubDefault, Route, route};
use super::{Destination, LinkStates, unix_ms};

/// The hub's alarm reporter: the queue's writer, the hub-wide default and the link states.
pub struct AlarmReporter {
    store: Store,
    default: Option<HubDefault>,
    /// The path to each manager.
    pub links: LinkStates,
    pub(super) wake: Notify,
    /// Where the PCD-05 listener listens, once bound, `mllps://` when over TLS (shown to
    /// administrators).
    pub status_listener: std::sync::OnceLock<Destination>,
}

/// The stable control id of an alarm's report in a phase.
pub fn control_id(alarm_key: &str, phase: Phase) -> String {
    format!("{alarm_key}-{}", phase.name())
}

/// The condition a report of an alarm of `kind` carries: an Ulcer Risk alarm whose repositioning
/// is `overdue` now escalates to `RepositioningOverdue` (medium priority, docs/decisions.md).
pub fn condition_now(kind: &str, overdue: bool) -> Option<Condition> {
    match condition(kind)? {
        Condition::RepositioningDue if overdue => Some(Condition::RepositioningOverdue),
        other => Some(other),
    }
}

/// The condition of a stored alarm kind at its start.
pub fn condition(kind: &str) -> Option<Condition> {
    match kind {
        "Missing" => Some(Condition::PatientMissing),
        "Ulcer Risk" => Some(Condition::RepositioningDue),
        _ => None,
    }
}

/// What the report says of the device.
pub fn source(device: &Device) -> Source {
    Source {
        serial: device.hardware_serial.clone(),
        device_type: device.device_type.clone(),
        name: device.name.clone(),
        bed: device.bed.clone(),
        room: device.room.clone(),
        floor: device.floor.clone(),
        building: device.building.clone(),
        facility: device.health_system.clone(),
    }
}

/// One alarm's report in one phase, as queued.
pub struct ReportInput<'a> {
    pub alarm_key: &'a str,
    pub kind: &'a str,
    pub phase: Phase,
    pub raised_at_ms: u64,
    pub ended_at_ms: Option<u64>,
    pub device: &'a Device,
    /// The patient assigned to the device (PID), when there is one.
    pub patient: Option<pcd04::Patient>,
    /// The number of a `continue` report (`ihe_pcd::continuation`), part of its control id.
    pub continue_number: Option<u64>,
    /// The device's repositioning is overdue now: an Ulcer Risk alarm's report escalates.
    pub overdue: bool,
}

/// The queue entry of a report on a route; `None` when the route does not send this kind.
pub fn outbox_entry(route: &Route, input: ReportInput<'_>, now_ms: i64) -> Option<NewOutboxEntry> {
    if !route.kinds.iter().any(|k| k == input.kind) {
        return None;
    }
    let control_id = match (input.phase, input.continue_number) {
        (Phase::Continue, Some(n)) => ihe_pcd::continuation::control_id(input.alarm_key, n),
        (phase, _) => control_id(input.alarm_key, phase),
    };
    let report = AlarmReport {
        control_id,
        created_at_ms: now_ms.max(0) as u64,
        alarm_id: input.alarm_key.to_owned(),
        condition: condition_now(input.kind, input.overdue)?,
        phase: input.phase,
        raised_at_ms: input.raised_at_ms,
        ended_at_ms: input.ended_at_ms,
        source: source(input.device),
        patient: input.patient,
    };
    Some(NewOutboxEntry {
        message: pcd04::build(&report, &route.parties),
        control_id: report.control_id,
        alarm: input.alarm_key.to_owned(),
        phase: input.phase.name().to_owned(),
        created_ms: now_ms,
    })
}

impl AlarmReporter {
    /// A reporter on `store` with the hub-wide default manager.
    pub fn new(store: Store, default: Option<HubDefault>) -> Arc<AlarmReporter> {
        Arc::new(AlarmReporter {
            store,
            default,
            links: LinkStates::default(),
            wake: Notify::new(),
            status_listener: std::sync::OnceLock::new(),
        })
    }

    /// Wakes the sender (settings changed, a dead letter was resent).
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// The hub-wide default destination.
    pub fn default_destination(&self) -> Option<&Destination> {
        self.default.as_ref().map(|d| &d.destination)
    }

    /// The hub-wide default manager with the CA its TLS trusts.
    pub fn hub_default(&self) -> Option<&HubDefault> {
        self.default.as_ref()
    }

    /// Where a company's reports go now.
    pub async fn route_of(&self, company_id: &str) -> Result<Option<Route>, StoreError> {
        let settings = self.store.hub_wide().alarm_outbox().settings(company_id).await?;
        Ok(route(settings.as_ref(), self.default.as_ref()))
    }

    /// An alarm was stored: queue its start report.
    pub async fn raised(
        &self,
        company_id: &str,
        device_id: &str,
        alarm_key: &str,
        kind: &str,
        raised_at_ms: u64,
    ) -> Result<(), StoreError> {
        self.queue(company_id, device_id, alarm_key, kind, Phase::Start, raised_at_ms, None, None, false).await
    }

    /// An alarm is still unattended after `n` intervals (`ihe_pcd::continuation`): queue its
    /// `n`-th continue report, if its start was reported and its end was not.
    #[allow(clippy::too_many_arguments)]
    pub async fn continued(
        &self,
        company_id: &str,
        device_id: &str,
        alarm_key: &str,
        kind: &str,
        raised_at_ms: u64,
        n: u64,
        overdue: bool,
    ) -> Result<(), StoreError> {
        let reported = self.store.company(company_id).alarm_outbox().of_alarm(alarm_key).await?;
        let queued = ihe_pcd::continuation::control_id(alarm_key, n);
        let started = reported.iter().any(|r| r.phase == Phase::Start.name());
        let ended = reported.iter().any(|r| r.phase == Phase::End.name());
        if !started || ended || reported.iter().any(|r| r.control_id == queued) {
            return Ok(());
        }
        self.queue(company_id, device_id, alarm_key, kind, Phase::Continue, raised_at_ms, None, Some(n), overdue).await
    }

    /// An alarm was attended: queue its end report, if its start was reported.
    pub async fn attended(&self, company_id: &str, device_id: &str, alarm_key: &str, attended_at_ms: u64) -> Result<(), StoreError> {
        let company = self.store.company(company_id);
        let reported = company.alarm_outbox().of_alarm(alarm_key).await?;
        if !reported.iter().any(|r| r.phase == Phase::Start.name()) {
            return Ok(());
        }
        let Some(alarm) = company.logs().alarms(device_id).await?.into_iter().find(|a| a.id == alarm_key) else { return Ok(()) };
        let raised_at_ms = (alarm.creation_date.max(0) as u64) * 1000;
        self.queue(company_id, device_id, alarm_key, &alarm.kind, Phase::End, raised_at_ms, Some(attended_at_ms), None, false).await
    }

    #[allow(clippy::too_many_arguments)]
    async fn queue(
        &self,
        company_id: &str,
        device_id: &str,
        alarm_key: &str,
        kind: &str,
        phase: Phase,
        raised_at_ms: u64,
        ended_at_ms: Option<u64>,
        continue_number: Option<u64>,
        overdue: bool,
    ) -> Result<(), StoreError> {
        let Some(route) = self.route_of(company_id).await? else { return Ok(()) };
        let company = self.store.company(company_id);
        let Some(device) = company.devices().get(device_id).await? else { return Ok(()) };
        let patient = assigned_patient(&company, &device).await?;
        let input = ReportInput { alarm_key, kind, phase, raised_at_ms, ended_at_ms, device: &device, patient, continue_number, overdue };
        let Some(entry) = outbox_entry(&route, input, unix_ms()) else { return Ok(()) };
        if company.alarm_outbox().enqueue(&entry).await? {
            self.wake.notify_one();
        }
        Ok(())
    }

    /// At start-up: queues the start report of every stored unattended alarm and the end report
    /// of every reported alarm attended since (covers a kill between storing an alarm's change
    /// and queuing its report; already queued reports are left alone).
    pub async fn replay_unattended(&self, catalog: &Catalog) -> Result<(), StoreError> {
        for alarm in self.store.hub_wide().logs().unattended_all().await? {
            let Some(device) = catalog.get(&alarm.device_id) else { continue };
            let raised_at_ms = (alarm.creation_date.max(0) as u64) * 1000;
            self.raised(&device.company_id, &alarm.device_id, &alarm.id, &alarm.kind, raised_at_ms).await?;
        }
        for (company_id, key) in self.store.hub_wide().alarm_outbox().started_not_ended().await? {
            let Some((device_id, _)) = key.rsplit_once('-') else { continue };
            let stored = self.store.company(&company_id).logs().alarms(device_id).await?;
            if let Some(attended_at) = stored.iter().find(|a| a.id == key).and_then(|a| a.attended_time) {
                self.attended(&company_id, device_id, &key, (attended_at.max(0) as u64) * 1000).await?;
            }
        }
        Ok(())
    }
}

/// The patient PID names: the one assigned to the device, or to the room set it belongs to
/// (issue 22's bedside patient), read when the report is queued.
async fn assigned_patient(company: &storage::CompanyStore<'_>, device: &Device) -> Result<Option<pcd04::Patient>, StoreError> {
    let Some(id) = crate::domain::patients::bedside_patient_id(company, device).await? else { return Ok(None) };
    Ok(company.patients().get(&id).await?.map(|p| pid_patient(&p)))
}

/// A stored patient as PID carries it: the hub keeps one name field, sent whole as the family
/// name (XPN-1) rather than guessed apart.
fn pid_patient(patient: &storage::model::Patient) -> pcd04::Patient {
    pcd04::Patient {
        id: patient.id.clone(),
        family_name: patient.fields.name.clone(),
        given_name: String::new(),
        birth_date: patient.fields.birth_date.map(ihe_pcd::hl7_date),
        sex: patient.fields.gender.as_deref().map(|g| {
            match g {
                "Male" => "M",
                "Female" => "F",
                _ => "U",
            }
            .to_owned()
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn device() -> Device {
        Device {
            id: "dev1".into(),
            name: "Bed 12A".into(),
            bed: "A".into(),
            room: "12".into(),
            building: "North".into(),
            floor: "3".into(),
            health_system: "St Mary".into(),
            device_type: "Mattress Mat IoT".into(),
            hardware_serial: "MAT-1".into(),
            company_id: "c1".into(),
            current_patient: None,
            current_patient_name: None,
            number_of_subdevices: 2,
            parent_id: None,
            member_index: None,
            member_ids: vec![],
            secret_hash: String::new(),
        }
    }

    fn route(kinds: &[&str]) -> Route {
        super::route(None, Some(&HubDefault { destination: "mllp://am:2575".parse().unwrap(), ca_pem: None }))
            .map(|r| Route { kinds: kinds.iter().map(|k| k.to_string()).collect(), ..r })
            .unwrap()
    }

    #[test]
    fn a_report_is_keyed_by_alarm_and_phase_and_only_for_chosen_kinds() {
        let device = device();
        let input = |kind, phase| ReportInput {
            alarm_key: "dev1-4",
            kind,
            phase,
            raised_at_ms: 1_000,
            ended_at_ms: None,
            device: &device,
            patient: None,
            continue_number: None,
            overdue: false,
        };
        let entry = outbox_entry(&route(&["Missing", "Ulcer Risk"]), input("Ulcer Risk", Phase::Start), 5_000).unwrap();
        assert_eq!((entry.control_id.as_str(), entry.phase.as_str(), entry.alarm.as_str()), ("dev1-4-start", "start", "dev1-4"));
        assert!(entry.message.contains("|dev1-4-start|P|2.6|"));
        assert!(entry.message.contains("MDCX_EVT_PMAT_REPOSITION_DUE"));
        assert!(entry.message.contains("PV1||I|Bed 12A^12^A^St Mary^^^North^3\r"));
        assert_eq!(outbox_entry(&route(&["Missing"]), input("Ulcer Risk", Phase::Start), 5_000), None, "kind not chosen");
        assert_eq!(outbox_entry(&route(&["Missing"]), input("Missing", Phase::End), 5_000).unwrap().control_id, "dev1-4-end");
        let second = ReportInput { continue_number: Some(2), ..input("Missing", Phase::Continue) };
        let entry = outbox_entry(&route(&["Missing"]), second, 5_000).unwrap();
        assert_eq!((entry.control_id.as_str(), entry.phase.as_str()), ("dev1-4-continue-2", "continue"));
        assert!(entry.message.contains("|continue||||||F\r") && entry.message.contains("|active||||||F\r"), "{}", entry.message);
        // Overdue: an Ulcer Risk alarm's continue report escalates to medium; a Missing one stays high.
        let overdue = ReportInput { continue_number: Some(3), overdue: true, ..input("Ulcer Risk", Phase::Continue) };
        let entry = outbox_entry(&route(&["Ulcer Risk"]), overdue, 5_000).unwrap();
        assert!(entry.message.contains("MDCX_EVT_PMAT_REPOSITION_OVERDUE") && entry.message.contains("|PM~SP|"), "{}", entry.message);
        assert_eq!(entry.control_id, "dev1-4-continue-3", "the same schedule, escalated");
        assert_eq!(condition_now("Missing", true), Some(Condition::PatientMissing));
        assert_eq!(condition_now("Ulcer Risk", false), Some(Condition::RepositioningDue));
        assert_eq!(condition_now("Alarm", true), None);
    }

    #[test]
    fn a_stored_patient_becomes_pid_with_birth_date_and_sex() {
        let patient = storage::model::Patient {
            id: "p7".into(),
            company_id: "c1".into(),
            created_at: 0,
            fields: storage::model::PatientFields {
                name: "Ana García Pérez".into(),
                birth_date: Some(-254_880_000),
                gender: Some("Female".into()),
                ..storage::model::PatientFields::default()
            },
        };
        let pid = pid_patient(&patient);
        assert_eq!(pid.id, "p7");
        assert_eq!(pid.family_name, "Ana García Pérez");
        assert_eq!(pid.birth_date.as_deref(), Some("19611204"));
        assert_eq!(pid.sex.as_deref(), Some("F"));
    }

    #[test]
    fn a_patient_assigned_to_the_device_goes_into_pid() {
        let device = device();
        let patient = pcd04::Patient {
            id: "p9".into(),
            family_name: "Durand".into(),
            given_name: "Marie".into(),
            birth_date: None,
            sex: Some("F".into()),
        };
        let input = ReportInput {
            alarm_key: "dev1-5",
            kind: "Missing",
            phase: Phase::Start,
            raised_at_ms: 1,
            ended_at_ms: None,
            device: &device,
            patient: Some(patient),
            continue_number: None,
            overdue: false,
        };
        let entry = outbox_entry(&route(&["Missing"]), input, 2).unwrap();
        assert!(entry.message.contains("\rPID|1||p9^^^PMAT_HUB^PI||Durand^Marie|||F\r"), "{}", entry.message);
    }
}
