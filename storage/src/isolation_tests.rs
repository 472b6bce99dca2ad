//! A company's handle never sees or changes another company's rows, in every repository it hands
//! out: two companies with one of everything each, and each handle asked about the other's.

use crate::model::{
    AnalysisFilter, DeviceLog, DeviceSettings, LayoutSettings, NewAnalysis, NewAuditEntry, NewDevice, PatientFields, PresenceLog,
};
use crate::{Store, StoreError, device_secret};

/// One company's rows.
struct Seeded {
    company: String,
    user: String,
    device: String,
    serial: String,
    patient: String,
    analysis: String,
    alarm_key: String,
}

fn patient_fields(name: &str) -> PatientFields {
    PatientFields {
        name: name.into(),
        weight: 70.0,
        height: 170.0,
        phone: "-1".into(),
        phone2: "-1".into(),
        postal_code: "-1".into(),
        size: -1.0,
        ..PatientFields::default()
    }
}

fn layout() -> LayoutSettings {
    LayoutSettings {
        map_color_index: 1,
        smoothen_index: 1,
        threshold_value: 10,
        contours_enabled: false,
        is3_dmode: false,
        camera_position: "{}".into(),
        manual_scale: false,
        manual_scale_value: 250,
        pressure_unit: "mmHg".into(),
    }
}

/// A company with a user, a device, a patient (selected by the user), an analysis, layout
/// settings, an alarm, a device log entry, a presence entry and an audit entry.
async fn seed(store: &Store, name: &str) -> Seeded {
    let hub = store.hub_wide();
    let company = hub.companies().create(name, "").await.unwrap();
    let user = hub.accounts().create(&format!("{}@example.com", name.to_lowercase()), "secret1", 2, &company).await.unwrap();
    let serial = format!("{name}-MAT");
    let new_device = NewDevice {
        name: format!("{name} mat"),
        device_type: "Mattress Mat IoT".into(),
        hardware_serial: serial.clone(),
        company_id: company.clone(),
        secret_hash: device_secret::hash("s"),
        ..NewDevice::default()
    };
    let device = hub.devices().create(&new_device).await.unwrap();
    let scoped = store.company(&company);
    let patient = scoped.patients().create(&user, &patient_fields(&format!("{name} patient"))).await.unwrap();
    scoped.patients().select(&user, &patient).await.unwrap();
    let new_analysis = NewAnalysis {
        patient_id: patient.clone(),
        user_id: user.clone(),
        analysis_type: "Static".into(),
        creation_date: 1,
        map_preview: "[[1]]".into(),
        additional_parameters: "[]".into(),
        ..NewAnalysis::default()
    };
    let analysis = scoped.analyses().create(&new_analysis).await.unwrap();
    scoped.layouts().save(&user, &layout()).await.unwrap();
    let alarm_key = format!("{device}-1");
    scoped.logs().raise_alarm_keyed(&device, &alarm_key, "Missing", 10).await.unwrap();
    let log = DeviceLog {
        device_id: device.clone(),
        creation_date: 5,
        max_pressure: 1,
        position: "bed".into(),
        posture: "Supine".into(),
        confidence: 0.5,
        pressure_map: "[[0]]".into(),
    };
    scoped.logs().add_device_log(&log).await.unwrap();
    scoped.logs().add_presence(&PresenceLog { device_id: device.clone(), creation_date: 6, log_id: "1".into() }).await.unwrap();
    scoped.logs().add_turn(&turn(&device, Some(user.clone()))).await.unwrap();
    scoped.device_confs().set_streaming_end(&device, Some(1_000)).await.unwrap();
    let entry = NewAuditEntry {
        company_id: company.clone(),
        actor_user_id: user.clone(),
        action: "device.update".into(),
        entity_type: "device".into(),
        entity_id: device.clone(),
        summary: "seeded".into(),
        ..NewAuditEntry::default()
    };
    scoped.audit().record(&entry).await.unwrap();
    Seeded { company, user, device, serial, patient, analysis, alarm_key }
}

/// `mine`'s handle reads its own rows and none of `other`'s, and cannot change `other`'s.
async fn sees_only_its_own(store: &Store, mine: &Seeded, other: &Seeded) {
    let scoped = store.company(&mine.company);
    assert_eq!(scoped.company_id(), mine.company);
    // Profile: the handle's company only.
    assert_eq!(scoped.profile().get().await.unwrap().unwrap().id, mine.company);
    // Users.
    assert!(scoped.users().get(&other.user).await.unwrap().is_none());
    assert_eq!(scoped.users().list().await.unwrap().into_iter().map(|u| u.id).collect::<Vec<_>>(), std::slice::from_ref(&mine.user));
    // Devices.
    let devices = scoped.devices();
    assert_eq!(devices.list().await.unwrap().into_iter().map(|d| d.id).collect::<Vec<_>>(), std::slice::from_ref(&mine.device));
    assert_eq!(devices.list_of_type("Mattress Mat IoT").await.unwrap().len(), 1);
    assert!(devices.get(&other.device).await.unwrap().is_none());
    assert!(devices.by_serial(&other.serial).await.unwrap().is_none());
    assert_eq!(devices.by_serial(&mine.serial).await.unwrap().unwrap().id, mine.device);
    let settings = DeviceSettings { name: "Renamed".into(), room: "1".into(), bed: "1".into() };
    assert!(matches!(devices.update_settings(&other.device, &settings).await, Err(StoreError::NotFound)));
    assert!(matches!(devices.set_secret_hash(&other.device, "x").await, Err(StoreError::NotFound)));
    let rotation = NewAuditEntry {
        company_id: mine.company.clone(),
        action: "device.rotateSecret".into(),
        entity_type: "device".into(),
        entity_id: other.device.clone(),
        ..NewAuditEntry::default()
    };
    assert!(matches!(devices.rotate_secret(&other.device, "x", &rotation).await, Err(StoreError::NotFound)));
    // Device configurations.
    let confs = scoped.device_confs();
    assert_eq!(confs.list().await.unwrap().into_iter().map(|c| c.device_id).collect::<Vec<_>>(), std::slice::from_ref(&mine.device));
    assert_eq!(confs.streaming_end(&other.device).await.unwrap(), None);
    assert_eq!(confs.streaming_end(&mine.device).await.unwrap(), Some(1_000));
    confs.set_streaming_end(&other.device, Some(5)).await.unwrap();
    assert!(matches!(confs.set_repositioning_minutes(&other.device, Some(30)).await, Err(StoreError::NotFound)));
    // Patients.
    let patients = scoped.patients();
    assert_eq!(patients.list().await.unwrap().into_iter().map(|p| p.id).collect::<Vec<_>>(), std::slice::from_ref(&mine.patient));
    assert!(patients.get(&other.patient).await.unwrap().is_none());
    assert!(matches!(patients.update(&other.patient, &patient_fields("Intruder")).await, Err(StoreError::NotFound)));
    assert!(matches!(patients.create(&other.user, &patient_fields("Intruder")).await, Err(StoreError::NotFound)));
    assert!(matches!(patients.select(&mine.user, &other.patient).await, Err(StoreError::NotFound)));
    assert!(matches!(patients.select(&other.user, &mine.patient).await, Err(StoreError::NotFound)));
    assert!(patients.selected(&other.user).await.unwrap().is_none());
    assert_eq!(patients.selected(&mine.user).await.unwrap().unwrap().id, mine.patient);
    // Analyses.
    let analyses = scoped.analyses();
    let all = AnalysisFilter::default();
    assert_eq!(
        analyses.page(&all, 0, 10).await.unwrap().into_iter().map(|a| a.id).collect::<Vec<_>>(),
        std::slice::from_ref(&mine.analysis)
    );
    assert_eq!(analyses.totals(&all).await.unwrap().count, 1);
    let of_other_patient = AnalysisFilter { patient_id: Some(other.patient.clone()), analysis_type: None, device_id: None };
    assert_eq!(analyses.totals(&of_other_patient).await.unwrap().count, 0);
    assert!(analyses.get(&other.analysis).await.unwrap().is_none());
    assert!(matches!(analyses.set_notes(&other.analysis, "x").await, Err(StoreError::NotFound)));
    assert!(matches!(analyses.delete(&other.analysis).await, Err(StoreError::NotFound)));
    let foreign = NewAnalysis {
        patient_id: other.patient.clone(),
        user_id: mine.user.clone(),
        analysis_type: "Static".into(),
        map_preview: "[[1]]".into(),
        additional_parameters: "[]".into(),
        ..NewAnalysis::default()
    };
    assert!(matches!(analyses.create(&foreign).await, Err(StoreError::NotFound)));
    // Layouts.
    assert!(scoped.layouts().get(&other.user).await.unwrap().is_none());
    assert!(scoped.layouts().get(&mine.user).await.unwrap().is_some());
    assert!(matches!(scoped.layouts().save(&other.user, &layout()).await, Err(StoreError::NotFound)));
    // Logs.
    let logs = scoped.logs();
    let theirs = vec![other.device.clone()];
    assert!(logs.alarms(&other.device).await.unwrap().is_empty());
    assert!(!logs.has_unattended(&theirs).await.unwrap());
    assert_eq!(logs.attend(&theirs, &mine.user, 20).await.unwrap(), 0);
    assert!(!logs.attend_keyed(&other.alarm_key, 20, None).await.unwrap());
    assert!(logs.device_logs(&other.device).await.unwrap().is_empty());
    assert!(logs.presence(&other.device).await.unwrap().is_empty());
    assert!(matches!(logs.raise_alarm(&other.device, "Missing", 30).await, Err(StoreError::NotFound)));
    let log = DeviceLog {
        device_id: other.device.clone(),
        creation_date: 7,
        max_pressure: 1,
        position: "bed".into(),
        posture: "Supine".into(),
        confidence: 0.5,
        pressure_map: "[[0]]".into(),
    };
    assert!(matches!(logs.add_device_log(&log).await, Err(StoreError::NotFound)));
    assert!(matches!(
        logs.add_presence(&PresenceLog { device_id: other.device.clone(), creation_date: 8, log_id: "0".into() }).await,
        Err(StoreError::NotFound)
    ));
    assert!(logs.turns(&other.device).await.unwrap().is_empty());
    assert!(matches!(logs.add_turn(&turn(&other.device, None)).await, Err(StoreError::NotFound)));
    assert_eq!(logs.alarms(&mine.device).await.unwrap().len(), 1);
    assert!(logs.has_unattended(std::slice::from_ref(&mine.device)).await.unwrap());
    // Clinical records (the FHIR export): one row of each table, the company's.
    let rows = scoped.clinical_records().all().await.unwrap();
    let devices_of = |ids: Vec<&String>| ids.into_iter().cloned().collect::<Vec<_>>();
    assert_eq!(devices_of(rows.device_logs.iter().map(|r| &r.device_id).collect()), std::slice::from_ref(&mine.device));
    assert_eq!(devices_of(rows.presence.iter().map(|r| &r.device_id).collect()), std::slice::from_ref(&mine.device));
    assert_eq!(devices_of(rows.alarms.iter().map(|r| &r.device_id).collect()), std::slice::from_ref(&mine.device));
    assert_eq!(rows.alarms[0].id, mine.alarm_key);
    assert_eq!(
        rows.analyses.iter().map(|a| (a.id.clone(), a.patient_id.clone())).collect::<Vec<_>>(),
        [(mine.analysis.clone(), mine.patient.clone())]
    );
    // Audit log: only entries about or by the company.
    // (the fixture's entry and its recorded turn's, audited with the turn).
    let page = scoped.audit().page(0, 50).await.unwrap();
    assert_eq!(page.total, 2);
    assert!(page.entries.iter().all(|e| e.company_id == mine.company));
    assert_eq!(page.entries.iter().filter(|e| e.action == "device.turn").count(), 1);
}

/// What the other company's handle tried left the company's rows as they were.
async fn untouched(store: &Store, seeded: &Seeded, name: &str) {
    let scoped = store.company(&seeded.company);
    let device = scoped.devices().get(&seeded.device).await.unwrap().unwrap();
    assert_eq!((device.name.as_str(), device.secret_hash.as_str()), (format!("{name} mat").as_str(), device_secret::hash("s").as_str()));
    assert_eq!(scoped.device_confs().streaming_end(&seeded.device).await.unwrap(), Some(1_000));
    assert_eq!(scoped.device_confs().list().await.unwrap()[0].repositioning_minutes, None);
    assert_eq!(scoped.patients().get(&seeded.patient).await.unwrap().unwrap().fields.name, format!("{name} patient"));
    assert_eq!(scoped.analyses().get(&seeded.analysis).await.unwrap().unwrap().notes, "");
    let alarms = scoped.logs().alarms(&seeded.device).await.unwrap();
    assert!(!alarms[0].has_been_attended, "not attended by the other company");
    assert_eq!(scoped.logs().device_logs(&seeded.device).await.unwrap().len(), 1);
    assert_eq!(scoped.logs().presence(&seeded.device).await.unwrap().len(), 1);
    assert_eq!(scoped.logs().turns(&seeded.device).await.unwrap().len(), 1);
}

/// A recorded turn of `device` (by a user id, or nobody).
fn turn(device: &str, by: Option<String>) -> crate::model::TurnLog {
    crate::model::TurnLog {
        device_id: device.to_owned(),
        at_ms: 1_000,
        recorded_at_ms: 2_000,
        position: Some("Left Lateral".into()),
        by,
        tier_before: "due".into(),
        loaded_ms: 7_300_000,
        interval_ms: 7_200_000,
        detected: false,
    }
}

#[tokio::test]
async fn a_company_handle_never_sees_or_changes_another_companys_rows() {
    let store = Store::memory().await.unwrap();
    let a = seed(&store, "Alpha").await;
    let b = seed(&store, "Beta").await;
    sees_only_its_own(&store, &a, &b).await;
    sees_only_its_own(&store, &b, &a).await;
    untouched(&store, &a, "Alpha").await;
    untouched(&store, &b, "Beta").await;
}
