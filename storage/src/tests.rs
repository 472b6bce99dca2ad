//! Repository tests on a real in-memory SurrealDB.

use crate::model::{NewDevice, StatusUpdate};
use crate::{Store, StoreError, device_secret, password};

async fn store_with_company() -> (Store, String) {
    let store = Store::memory().await.unwrap();
    let company = store.hub_wide().companies().create("Demo Clinic", "1 Main St").await.unwrap();
    (store, company)
}

/// A Mattress Mat IoT of `company` with two sub-devices, its secret "s" (also the backup tests').
pub(crate) fn device(company: &str, serial: &str) -> NewDevice {
    NewDevice {
        name: format!("Mat {serial}"),
        device_type: "Mattress Mat IoT".into(),
        hardware_serial: serial.into(),
        company_id: company.into(),
        number_of_subdevices: 2,
        secret_hash: device_secret::hash("s"),
        ..NewDevice::default()
    }
}

#[tokio::test]
async fn companies_have_spec_defaults_and_a_name_limit() {
    let (store, id) = store_with_company().await;
    let company = store.hub_wide().companies().get(&id).await.unwrap().unwrap();
    assert_eq!(company.page_color, "#f5f5f5");
    assert_eq!(company.layout_number, 2);
    assert!(store.hub_wide().companies().create(&"x".repeat(25), "").await.is_ok());
    assert!(matches!(
        store.hub_wide().companies().create(&"y".repeat(26), "").await,
        Err(StoreError::Invalid(_) | StoreError::Database(_))
    ));
    assert!(store.hub_wide().companies().create("z", &"a".repeat(201)).await.is_err(), "address at most 200");
}

#[tokio::test]
async fn company_variants_default_off_and_switch_for_one_company_only() {
    use crate::model::CompanyVariants;
    let (store, a) = store_with_company().await;
    let b = store.hub_wide().companies().create("Other", "").await.unwrap();
    assert_eq!(store.hub_wide().companies().get(&a).await.unwrap().unwrap().variants, CompanyVariants::default());
    let on = CompanyVariants { hide_centre_of_pressure: true, fitness: false, seating_labels: true };
    store.company(&a).profile().set_variants(&on).await.unwrap();
    assert_eq!(store.hub_wide().companies().get(&a).await.unwrap().unwrap().variants, on);
    assert_eq!(store.hub_wide().companies().get(&b).await.unwrap().unwrap().variants, CompanyVariants::default());
    // Branding saves leave the variants alone.
    store.company(&a).profile().update_branding("Renamed", "", None).await.unwrap();
    assert_eq!(store.hub_wide().companies().get(&a).await.unwrap().unwrap().variants, on);
    assert!(matches!(store.company("missing").profile().set_variants(&on).await, Err(StoreError::NotFound)));
}

#[tokio::test]
async fn ward_settings_default_to_full_names_and_switch_for_one_company_only() {
    use crate::model::WardSettings;
    let (store, a) = store_with_company().await;
    let b = store.hub_wide().companies().create("Other", "").await.unwrap();
    assert_eq!(store.company(&a).profile().ward_settings().await.unwrap(), WardSettings { patient_initials: false });
    let initials = WardSettings { patient_initials: true };
    store.company(&a).profile().set_ward_settings(&initials).await.unwrap();
    assert_eq!(store.company(&a).profile().ward_settings().await.unwrap(), initials);
    assert_eq!(store.company(&b).profile().ward_settings().await.unwrap(), WardSettings::default());
    // The variants and the branding are other settings.
    let v = store.hub_wide().companies().get(&a).await.unwrap().unwrap().variants;
    assert_eq!(v, crate::model::CompanyVariants::default());
    assert!(matches!(store.company("missing").profile().ward_settings().await, Err(StoreError::NotFound)));
    assert!(matches!(store.company("missing").profile().set_ward_settings(&initials).await, Err(StoreError::NotFound)));
}

#[tokio::test]
async fn companies_stored_before_the_variant_fields_read_as_all_off() {
    let store = Store::memory().await.unwrap();
    // A database from before the variant fields: drop their definitions, store a company, and
    // apply the schema again as the next start does.
    store
        .db
        .query("REMOVE FIELD hide_centre_of_pressure ON company; REMOVE FIELD fitness ON company; REMOVE FIELD seating_labels ON company;")
        .await
        .unwrap()
        .check()
        .unwrap();
    let a = store.hub_wide().companies().create("Older", "").await.unwrap();
    store.db.query(crate::schema::SCHEMA).await.unwrap().check().unwrap();
    assert_eq!(store.hub_wide().companies().get(&a).await.unwrap().unwrap().variants, crate::model::CompanyVariants::default());
}

#[tokio::test]
async fn users_store_argon2_hashes_and_unique_emails() {
    let (store, company) = store_with_company().await;
    store.hub_wide().accounts().create("Demo@Example.com", "demo1234", 2, &company).await.unwrap();
    let creds = store.hub_wide().accounts().credentials("demo@example.com").await.unwrap().unwrap();
    assert_eq!(creds.company_id, company);
    assert_eq!(creds.role, 2);
    assert!(password::verify("demo1234", &creds.password_hash));
    assert!(!creds.password_hash.contains("demo1234"));
    assert!(matches!(store.hub_wide().accounts().create("demo@example.com", "other1", 2, &company).await, Err(StoreError::Duplicate(_))));
    assert!(store.hub_wide().accounts().create("not-an-email", "secret1", 2, &company).await.is_err());
}

#[tokio::test]
async fn devices_are_scoped_to_their_company_and_serials_are_unique() {
    let (store, a) = store_with_company().await;
    let b = store.hub_wide().companies().create("Other", "").await.unwrap();
    let id = store.hub_wide().devices().create(&device(&a, "MAT-1")).await.unwrap();
    store.hub_wide().devices().create(&device(&b, "MAT-2")).await.unwrap();
    let listed = store.company(&a).devices().list().await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].id, id);
    assert_eq!(listed[0].company_id, a);
    assert!(matches!(store.hub_wide().devices().create(&device(&b, "MAT-1")).await, Err(StoreError::Duplicate(_))));
    // Another company cannot change the device's secret.
    assert!(matches!(store.company(&b).devices().set_secret_hash(&id, "x").await, Err(StoreError::NotFound)));
    store.company(&a).devices().set_secret_hash(&id, "y").await.unwrap();
    assert_eq!(store.hub_wide().devices().by_serial("MAT-1").await.unwrap().unwrap().secret_hash, "y");
}

#[tokio::test]
async fn a_family_is_created_in_one_transaction() {
    let (store, a) = store_with_company().await;
    let parent = NewDevice { device_type: "Room Set".into(), secret_hash: String::new(), ..device(&a, "ROOM") };
    let members = [device(&a, "ROOM-BED"), device(&a, "ROOM-SEAT"), device(&a, "ROOM-FLOOR")];
    let family = store.hub_wide().devices().create_family(&parent, &members).await.expect("the store answers");
    assert_eq!(family.member_ids.len(), 3);
    let all = store.hub_wide().devices().list_all().await.expect("the store answers");
    let find = |id: &str| all.iter().find(|d| d.id == id).expect("the device is listed").clone();
    assert_eq!(find(&family.parent_id).member_ids, family.member_ids);
    assert_eq!(find(&family.parent_id).parent_id, None, "the parent is nobody's member");
    for (index, id) in family.member_ids.iter().enumerate() {
        let member = find(id);
        assert_eq!((member.parent_id.as_deref(), member.member_index), (Some(family.parent_id.as_str()), Some(index as i64)));
        assert_eq!(member.hardware_serial, members[index].hardware_serial);
    }
    assert_eq!(store.company(&a).device_confs().list().await.expect("the store answers").len(), 4, "every device has its configuration");

    // The third device's serial is taken: the parent and the first member written before it are
    // rolled back with it, configurations included.
    let taken = [device(&a, "H-0"), device(&a, "ROOM-SEAT")];
    let refused = store.hub_wide().devices().create_family(&NewDevice { secret_hash: String::new(), ..device(&a, "H") }, &taken).await;
    assert!(matches!(refused, Err(StoreError::Duplicate(_))), "{refused:?}");
    // A family that repeats a serial within itself fails the same way.
    let twice = [device(&a, "T-0"), device(&a, "T-0")];
    assert!(matches!(store.hub_wide().devices().create_family(&device(&a, "T"), &twice).await, Err(StoreError::Duplicate(_))));
    for serial in ["H", "H-0", "T", "T-0"] {
        assert!(store.hub_wide().devices().by_serial(serial).await.expect("the store answers").is_none(), "{serial} was left behind");
    }
    assert_eq!(store.company(&a).devices().list().await.expect("the store answers").len(), 4);
    assert_eq!(store.company(&a).device_confs().list().await.expect("the store answers").len(), 4, "no configuration was left behind");
}

#[tokio::test]
async fn statuses_are_saved_in_batches_and_checked() {
    let (store, a) = store_with_company().await;
    let id = store.hub_wide().devices().create(&device(&a, "MAT-1")).await.unwrap();
    let confs = store.company(&a).device_confs().list().await.unwrap();
    assert_eq!((confs[0].device_functional, confs[0].patient_status.as_str()), (false, "Correct"));
    let update = StatusUpdate { device_id: id.clone(), device_functional: true, patient_status: "Missing".into() };
    store.hub_wide().device_confs().save_statuses(&[update]).await.unwrap();
    let confs = store.company(&a).device_confs().list().await.unwrap();
    assert_eq!((confs[0].device_functional, confs[0].patient_status.as_str()), (true, "Missing"));
    let bad = StatusUpdate { device_id: id, device_functional: true, patient_status: "Asleep".into() };
    assert!(store.hub_wide().device_confs().save_statuses(&[bad]).await.is_err(), "patient status must be one of the spec's five");
}

#[tokio::test]
async fn settings_initialise_once() {
    let store = Store::memory().await.unwrap();
    let first = store.hub_wide().settings().get_or_init("token_key", || "k1".into()).await.unwrap();
    let second = store.hub_wide().settings().get_or_init("token_key", || "k2".into()).await.unwrap();
    assert_eq!((first.as_str(), second.as_str()), ("k1", "k1"));
}

#[tokio::test]
async fn an_embedded_store_keeps_data_across_reopen() {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = Store::open_dir(dir.path()).await.unwrap();
        store.hub_wide().companies().create("Durable", "").await.unwrap();
    }
    // The engine releases its lock asynchronously once the last handle is gone.
    let mut reopened = None;
    for _ in 0..100 {
        match Store::open_dir(dir.path()).await {
            Ok(store) => {
                reopened = Some(store);
                break;
            }
            Err(_) => tokio::time::sleep(std::time::Duration::from_millis(50)).await,
        }
    }
    let store = reopened.expect("the store reopens once the first handle has shut down");
    assert!(store.hub_wide().companies().find_by_name("Durable").await.unwrap().is_some());
}

mod records {
    use super::*;
    use crate::model::{AnalysisFilter, DeviceLog, LayoutSettings, NewAnalysis, PatientFields, PresenceLog};

    fn patient(name: &str) -> PatientFields {
        PatientFields {
            name: name.into(),
            weight: 70.5,
            height: 172.0,
            phone: "-1".into(),
            phone2: "-1".into(),
            postal_code: "-1".into(),
            size: -1.0,
            ..PatientFields::default()
        }
    }

    async fn two_companies() -> (Store, [(String, String); 2]) {
        let (store, a) = store_with_company().await;
        let b = store.hub_wide().companies().create("Other", "").await.unwrap();
        let ua = store.hub_wide().accounts().create("a@example.com", "secret1", 2, &a).await.unwrap();
        let ub = store.hub_wide().accounts().create("b@example.com", "secret1", 2, &b).await.unwrap();
        (store, [(a, ua), (b, ub)])
    }

    #[tokio::test]
    async fn patients_belong_to_one_company_and_keep_unset_fields_as_minus_one() {
        let (store, [(a, ua), (b, ub)]) = two_companies().await;
        let id = store.company(&a).patients().create(&ua, &patient("Ana")).await.unwrap();
        let stored = store.company(&a).patients().get(&id).await.unwrap().unwrap();
        assert_eq!((stored.fields.phone.as_str(), stored.fields.postal_code.as_str(), stored.fields.size), ("-1", "-1", -1.0));
        assert_eq!(stored.fields.weight, 70.5);
        assert!(store.company(&b).patients().get(&id).await.unwrap().is_none(), "B cannot read A's patient");
        assert!(store.company(&b).patients().list().await.unwrap().is_empty());
        assert!(matches!(store.company(&b).patients().update(&id, &patient("Bob")).await, Err(StoreError::NotFound)));
        assert!(matches!(store.company(&a).patients().create(&ub, &patient("Eve")).await, Err(StoreError::NotFound)), "B's user in A");
        // The schema refuses what validation should have caught.
        assert!(store.company(&a).patients().create(&ua, &patient("X")).await.is_err(), "name of 1 character");
        let bad_notes = PatientFields { notes: "n".repeat(155), ..patient("Ana") };
        assert!(store.company(&a).patients().create(&ua, &bad_notes).await.is_err(), "notes over 154");
    }

    #[tokio::test]
    async fn a_user_selects_only_a_patient_of_their_company() {
        let (store, [(a, ua), (b, ub)]) = two_companies().await;
        let id = store.company(&a).patients().create(&ua, &patient("Ana")).await.unwrap();
        assert!(store.company(&a).patients().selected(&ua).await.unwrap().is_none());
        store.company(&a).patients().select(&ua, &id).await.unwrap();
        assert_eq!(store.company(&a).patients().selected(&ua).await.unwrap().unwrap().id, id);
        assert!(matches!(store.company(&b).patients().select(&ub, &id).await, Err(StoreError::NotFound)));
        assert!(store.company(&b).patients().selected(&ub).await.unwrap().is_none());
    }

    fn analysis(patient: &str, user: &str, kind: &str, at: i64) -> NewAnalysis {
        NewAnalysis {
            patient_id: patient.into(),
            user_id: user.into(),
            analysis_type: kind.into(),
            creation_date: at,
            map_preview: "[[1,2],[3,4]]".into(),
            additional_parameters: "[]".into(),
            ..NewAnalysis::default()
        }
    }

    #[tokio::test]
    async fn analyses_page_newest_first_filter_and_stay_in_their_company() {
        let (store, [(a, ua), (b, _)]) = two_companies().await;
        let p1 = store.company(&a).patients().create(&ua, &patient("Ana")).await.unwrap();
        let p2 = store.company(&a).patients().create(&ua, &patient("Bea")).await.unwrap();
        for i in 0..23 {
            let kind = if i % 2 == 0 { "Static" } else { "Dynamic" };
            let patient = if i < 20 { &p1 } else { &p2 };
            store.company(&a).analyses().create(&analysis(patient, &ua, kind, 1_000 + i)).await.unwrap();
        }
        let all = AnalysisFilter::default();
        let first = store.company(&a).analyses().page(&all, 0, 10).await.unwrap();
        assert_eq!(first.len(), 10);
        assert_eq!(first[0].creation_date, 1_022);
        assert_eq!(store.company(&a).analyses().page(&all, 2, 10).await.unwrap().len(), 3);
        let totals = store.company(&a).analyses().totals(&all).await.unwrap();
        assert_eq!(totals.count, 23);
        assert_eq!(totals.bytes, 23 * 15);
        let statics = AnalysisFilter { analysis_type: Some("Static".into()), patient_id: Some(p1.clone()), device_id: None };
        assert_eq!(store.company(&a).analyses().totals(&statics).await.unwrap().count, 10);
        assert_eq!(store.company(&b).analyses().totals(&all).await.unwrap().count, 0);
        let id = first[0].id.clone();
        assert!(store.company(&b).analyses().get(&id).await.unwrap().is_none());
        assert!(matches!(store.company(&b).analyses().set_notes(&id, "x").await, Err(StoreError::NotFound)));
        assert!(matches!(store.company(&b).analyses().delete(&id).await, Err(StoreError::NotFound)));
        store.company(&a).analyses().set_notes(&id, "better").await.unwrap();
        assert_eq!(store.company(&a).analyses().get(&id).await.unwrap().unwrap().notes, "better");
        store.company(&a).analyses().delete(&id).await.unwrap();
        assert_eq!(store.company(&a).analyses().totals(&all).await.unwrap().count, 22);
        assert!(store.company(&a).analyses().create(&analysis(&p1, &ua, "Walking", 1)).await.is_err(), "unknown analysis type");
        assert!(matches!(store.company(&b).analyses().create(&analysis(&p1, &ua, "Static", 1)).await, Err(StoreError::NotFound)));
    }

    #[tokio::test]
    async fn the_storage_quota_refuses_the_analysis_that_would_pass_it() {
        let (store, [(a, ua), _]) = two_companies().await;
        let p = store.company(&a).patients().create(&ua, &patient("Ana")).await.unwrap();
        let big = "9".repeat(30 * 1024 * 1024);
        for _ in 0..3 {
            store.company(&a).analyses().create(&NewAnalysis { map_preview: big.clone(), ..analysis(&p, &ua, "Static", 1) }).await.unwrap();
        }
        let fourth = store.company(&a).analyses().create(&NewAnalysis { map_preview: big, ..analysis(&p, &ua, "Static", 1) }).await;
        assert!(matches!(fourth, Err(StoreError::QuotaExceeded)), "{fourth:?}");
        assert_eq!(store.company(&a).analyses().totals(&AnalysisFilter::default()).await.unwrap().count, 3);
    }

    fn layout(scale: i64) -> LayoutSettings {
        LayoutSettings {
            map_color_index: 1,
            smoothen_index: 2,
            threshold_value: 15,
            contours_enabled: true,
            is3_dmode: false,
            camera_position: "{}".into(),
            manual_scale: true,
            manual_scale_value: scale,
            pressure_unit: "kPa".into(),
        }
    }

    #[tokio::test]
    async fn layout_settings_are_created_by_the_first_save_and_updated_by_later_ones() {
        let (store, [(a, ua), (b, _)]) = two_companies().await;
        assert!(store.company(&a).layouts().get(&ua).await.unwrap().is_none());
        assert!(store.company(&a).layouts().save(&ua, &layout(250)).await.unwrap());
        assert!(!store.company(&a).layouts().save(&ua, &layout(300)).await.unwrap());
        assert_eq!(store.company(&a).layouts().get(&ua).await.unwrap().unwrap().manual_scale_value, 300);
        assert_eq!(store.company(&a).layouts().get(&ua).await.unwrap().unwrap().pressure_unit, "kPa", "the unit is kept");
        assert!(store.company(&b).layouts().get(&ua).await.unwrap().is_none());
        assert!(matches!(store.company(&b).layouts().save(&ua, &layout(300)).await, Err(StoreError::NotFound)));
        assert!(store.company(&a).layouts().save(&ua, &layout(1050)).await.is_err(), "scale above 1000");
        assert!(store.company(&a).layouts().save(&ua, &layout(225)).await.is_err(), "scale off the 50 step");
    }

    #[tokio::test]
    async fn an_alarms_reason_and_a_recorded_turn_are_kept_once_with_who() {
        let (store, [(a, ua), _]) = two_companies().await;
        let device = store.hub_wide().devices().create(&device(&a, "MAT-T")).await.unwrap();
        let logs = store.company(&a).logs();
        let reason = r#"{"region":"pelvis","loadedSeconds":7200,"offloadSeconds":900,"intervalSeconds":7200}"#;
        let key = format!("{device}-3");
        logs.raise_alarm_with_reason(&device, &key, "Ulcer Risk", 40, Some(reason.into())).await.unwrap();
        logs.raise_alarm_keyed(&device, &format!("{device}-4"), "Missing", 50).await.unwrap();
        let alarms = logs.alarms(&device).await.unwrap();
        assert_eq!((alarms[0].kind.as_str(), alarms[0].reason_json.as_deref()), ("Missing", None));
        assert_eq!(alarms[1].reason_json.as_deref(), Some(reason));
        let turn = crate::model::TurnLog {
            device_id: device.clone(),
            at_ms: 1_700_000_000_000,
            recorded_at_ms: 1_700_000_060_000,
            position: Some("Left Lateral".into()),
            by: Some(ua.clone()),
            tier_before: "overdue".into(),
            loaded_ms: 9_000_000,
            interval_ms: 7_200_000,
            detected: false,
        };
        logs.add_turn(&turn).await.unwrap();
        // A retried writer batch writes the same turn again: still one row.
        logs.add_turn(&turn).await.unwrap();
        logs.add_turn(&crate::model::TurnLog {
            at_ms: 1_700_000_100_000,
            recorded_at_ms: 1_700_000_100_000,
            position: None,
            by: None,
            detected: true,
            ..turn.clone()
        })
        .await
        .unwrap();
        let turns = logs.turns(&device).await.unwrap();
        assert_eq!(turns.len(), 2);
        assert_eq!((turns[0].position.as_deref(), turns[0].by.as_deref(), turns[0].detected), (None, None, true), "newest first");
        // The clinical records (FHIR) hold the recorded turn only: a detected one is not care given.
        let records = store.company(&a).clinical_records().all().await.unwrap();
        assert_eq!(records.turns.iter().map(|t| t.at_ms).collect::<Vec<_>>(), vec![turn.at_ms], "detected turns are not recorded turns");
        assert_eq!(turns[1], crate::model::TurnLog { by: Some("a@example.com".into()), ..turn.clone() }, "who, by the account's e-mail");
        assert!(logs.add_turn(&crate::model::TurnLog { tier_before: "late".into(), recorded_at_ms: 1, ..turn }).await.is_err());
        // The recorded turn is audited once, by its recorder, in its own transaction (the refused
        // one left no entry); the detected one is not an action of anybody.
        let audit = store.company(&a).audit().page(0, 20).await.unwrap();
        let turns_audited: Vec<_> = audit.entries.iter().filter(|e| e.action == "device.turn").collect();
        assert_eq!(turns_audited.len(), 1, "{audit:?}");
        assert_eq!(
            (turns_audited[0].actor_user_id.as_str(), turns_audited[0].actor_email.as_str(), turns_audited[0].entity_id.as_str()),
            (ua.as_str(), "a@example.com", device.as_str())
        );
        assert_eq!(turns_audited[0].summary, "MAT-T: patient turned to Left Lateral");
    }

    #[tokio::test]
    async fn alarms_are_attended_once_and_logs_stay_in_their_company() {
        let (store, [(a, ua), (b, ub)]) = two_companies().await;
        let device = store.hub_wide().devices().create(&device(&a, "MAT-1")).await.unwrap();
        let ids = vec![device.clone()];
        assert!(matches!(store.company(&b).logs().raise_alarm(&device, "Missing", 10).await, Err(StoreError::NotFound)));
        store.company(&a).logs().raise_alarm(&device, "Missing", 10).await.unwrap();
        assert!(store.company(&a).logs().has_unattended(&ids).await.unwrap());
        assert!(!store.company(&b).logs().has_unattended(&ids).await.unwrap());
        assert_eq!(store.company(&b).logs().attend(&ids, &ub, 20).await.unwrap(), 0);
        assert_eq!(store.company(&a).logs().attend(&ids, &ua, 20).await.unwrap(), 1);
        assert_eq!(store.company(&a).logs().attend(&ids, &ua, 30).await.unwrap(), 0);
        let alarms = store.company(&a).logs().alarms(&device).await.unwrap();
        assert_eq!((alarms[0].has_been_attended, alarms[0].attended_time), (true, Some(20)));
        assert_eq!(alarms[0].attended_by.as_deref(), Some("a@example.com"), "who attended, by the account's e-mail");
        // Through the alarm machine's journal (a keyed alarm attended by a user id) too.
        let key = format!("{device}-9");
        store.company(&a).logs().raise_alarm_keyed(&device, &key, "Ulcer Risk", 40).await.unwrap();
        assert_eq!(store.company(&a).logs().alarms(&device).await.unwrap()[0].attended_by, None, "unattended: nobody");
        assert!(store.company(&a).logs().attend_keyed(&key, 50, Some(&ua)).await.unwrap());
        assert_eq!(store.company(&a).logs().alarms(&device).await.unwrap()[0].attended_by.as_deref(), Some("a@example.com"));
        assert!(store.company(&b).logs().alarms(&device).await.unwrap().is_empty());

        let entry = DeviceLog {
            device_id: device.clone(),
            creation_date: 5,
            max_pressure: 900,
            position: "bed".into(),
            posture: "Supine".into(),
            confidence: 0.9,
            pressure_map: "[[0]]".into(),
        };
        store.company(&a).logs().add_device_log(&entry).await.unwrap();
        assert!(store.company(&b).logs().add_device_log(&entry).await.is_err());
        assert_eq!(store.company(&a).logs().device_logs(&device).await.unwrap(), vec![entry]);
        assert!(store.company(&b).logs().device_logs(&device).await.unwrap().is_empty());
        store
            .company(&a)
            .logs()
            .add_presence(&PresenceLog { device_id: device.clone(), creation_date: 6, log_id: "1".into() })
            .await
            .unwrap();
        assert!(
            store
                .company(&a)
                .logs()
                .add_presence(&PresenceLog { device_id: device.clone(), creation_date: 6, log_id: "2".into() })
                .await
                .is_err()
        );
        assert_eq!(store.company(&a).logs().presence(&device).await.unwrap().len(), 1);
    }

    fn log_at(device: &str, at: i64) -> DeviceLog {
        DeviceLog {
            device_id: device.into(),
            creation_date: at,
            max_pressure: 1,
            position: "Supine".into(),
            posture: "0".into(),
            confidence: 0.5,
            pressure_map: "[[0]]".into(),
        }
    }

    #[tokio::test]
    async fn a_bed_keeps_its_own_patient_and_its_rows_name_whoever_lay_in_it() {
        let (store, [(a, ua), (b, ub)]) = two_companies().await;
        let bed = store.hub_wide().devices().create(&device(&a, "BED-1")).await.unwrap();
        let ana = store.company(&a).patients().create(&ua, &patient("Ana")).await.unwrap();
        let bea = store.company(&a).patients().create(&ua, &patient("Bea")).await.unwrap();
        let eve = store.company(&b).patients().create(&ub, &patient("Eve")).await.unwrap();
        // The user's selection is not the bed's patient.
        store.company(&a).patients().select(&ua, &bea).await.unwrap();
        assert_eq!(store.company(&a).devices().get(&bed).await.unwrap().unwrap().current_patient, None);
        store.company(&a).logs().add_device_log(&log_at(&bed, 1)).await.unwrap();

        store.company(&a).devices().set_current_patient(&bed, Some(&ana)).await.unwrap();
        let assigned = store.company(&a).devices().get(&bed).await.unwrap().unwrap();
        assert_eq!((assigned.current_patient.as_deref(), assigned.current_patient_name.as_deref()), (Some(ana.as_str()), Some("Ana")));
        assert_eq!(store.company(&a).patients().selected(&ua).await.unwrap().unwrap().id, bea, "assigning leaves the selection alone");
        store.company(&a).logs().add_device_log(&log_at(&bed, 2)).await.unwrap();
        store.company(&a).logs().raise_alarm(&bed, "Missing", 3).await.unwrap();
        store.company(&a).logs().add_presence(&PresenceLog { device_id: bed.clone(), creation_date: 4, log_id: "1".into() }).await.unwrap();

        // Released, then Bea lies in it.
        store.company(&a).devices().set_current_patient(&bed, None).await.unwrap();
        store.company(&a).logs().add_device_log(&log_at(&bed, 5)).await.unwrap();
        store.company(&a).devices().set_current_patient(&bed, Some(&bea)).await.unwrap();
        store.company(&a).logs().add_device_log(&log_at(&bed, 6)).await.unwrap();

        let of_ana = store.company(&a).logs().of_patient(&ana).await.unwrap();
        assert_eq!(of_ana.device_logs.iter().map(|l| l.creation_date).collect::<Vec<_>>(), vec![2]);
        assert_eq!((of_ana.alarms.len(), of_ana.presence.len()), (1, 1));
        let of_bea = store.company(&a).logs().of_patient(&bea).await.unwrap();
        assert_eq!(of_bea.device_logs.iter().map(|l| l.creation_date).collect::<Vec<_>>(), vec![6]);
        assert!(store.company(&b).logs().of_patient(&ana).await.unwrap().alarms.is_empty(), "another company reads none");

        // Only a patient and a device of the same company.
        assert!(matches!(store.company(&a).devices().set_current_patient(&bed, Some(&eve)).await, Err(StoreError::NotFound)));
        assert!(matches!(store.company(&b).devices().set_current_patient(&bed, Some(&eve)).await, Err(StoreError::NotFound)));
        assert!(matches!(store.company(&a).devices().set_current_patient(&bed, Some("nobody")).await, Err(StoreError::NotFound)));
        assert_eq!(
            store.company(&a).devices().get(&bed).await.unwrap().unwrap().current_patient.as_deref(),
            Some(bea.as_str()),
            "a refusal changes nothing"
        );
    }

    #[tokio::test]
    async fn a_room_sets_sensors_write_for_the_sets_patient() {
        let (store, [(a, ua), _]) = two_companies().await;
        let parent = NewDevice { device_type: "Room Set".into(), secret_hash: String::new(), ..device(&a, "ROOM") };
        let family = store.hub_wide().devices().create_family(&parent, &[device(&a, "ROOM-BED"), device(&a, "ROOM-SEAT")]).await.unwrap();
        let ana = store.company(&a).patients().create(&ua, &patient("Ana")).await.unwrap();
        store.company(&a).devices().set_current_patient(&family.parent_id, Some(&ana)).await.unwrap();
        store.company(&a).logs().raise_alarm(&family.member_ids[1], "Missing", 7).await.unwrap();
        let of_ana = store.company(&a).logs().of_patient(&ana).await.unwrap();
        assert_eq!(of_ana.alarms.iter().map(|l| l.device_id.as_str()).collect::<Vec<_>>(), vec![family.member_ids[1].as_str()]);
    }

    #[tokio::test]
    async fn patient_and_analysis_changes_write_their_audit_entry_in_the_same_transaction() {
        use crate::model::NewAuditEntry;
        let (store, [(a, ua), _]) = two_companies().await;
        let entry = |action: &str| NewAuditEntry {
            company_id: a.clone(),
            actor_user_id: ua.clone(),
            actor_email: "a@example.com".into(),
            action: action.into(),
            entity_type: "patient".into(),
            entity_id: String::new(),
            summary: String::new(),
        };
        let broken = |action: &str| NewAuditEntry { action: "x".repeat(65), ..entry(action) };
        let patients = store.company(&a).patients();
        assert!(patients.create_audited(&ua, &patient("Nobody"), &broken("patient.create")).await.is_err());
        assert!(patients.list().await.unwrap().is_empty(), "no patient without its entry");
        let ana = patients.create_audited(&ua, &patient("Ana"), &entry("patient.create")).await.unwrap();
        assert!(patients.update_audited(&ana, &patient("Ana B"), &broken("patient.update")).await.is_err());
        assert_eq!(patients.get(&ana).await.unwrap().unwrap().fields.name, "Ana", "no edit without its entry");
        patients.update_audited(&ana, &patient("Ana B"), &entry("patient.update")).await.unwrap();
        let analyses = store.company(&a).analyses();
        let id = analyses.create(&analysis(&ana, &ua, "Static", 1)).await.unwrap();
        assert!(analyses.set_notes_audited(&id, "new", &broken("analysis.notes")).await.is_err());
        assert_eq!(analyses.get(&id).await.unwrap().unwrap().notes, "");
        analyses.set_notes_audited(&id, "new", &entry("analysis.notes")).await.unwrap();
        assert!(analyses.delete_audited(&id, &broken("analysis.delete")).await.is_err());
        assert!(analyses.get(&id).await.unwrap().is_some(), "no deletion without its entry");
        analyses.delete_audited(&id, &entry("analysis.delete")).await.unwrap();
        assert!(matches!(analyses.delete_audited(&id, &entry("analysis.delete")).await, Err(StoreError::NotFound)));
        let entries = store.company(&a).audit().page(0, 10).await.unwrap().entries;
        let mut actions: Vec<(String, String)> = entries.into_iter().map(|e| (e.action, e.entity_id)).collect();
        actions.sort();
        assert_eq!(
            actions,
            [
                ("analysis.delete".into(), String::new()),
                ("analysis.notes".into(), String::new()),
                ("patient.create".into(), ana.clone()),
                ("patient.update".into(), String::new())
            ]
        );
    }

    #[tokio::test]
    async fn deleting_a_patient_erases_their_analyses_releases_their_bed_and_is_audited_in_one_transaction() {
        use crate::model::NewAuditEntry;
        let (store, [(a, ua), (b, ub)]) = two_companies().await;
        let bed = store.hub_wide().devices().create(&device(&a, "BED-D")).await.unwrap();
        let ana = store.company(&a).patients().create(&ua, &patient("Ana")).await.unwrap();
        let bea = store.company(&a).patients().create(&ua, &patient("Bea")).await.unwrap();
        for at in 0..3 {
            store.company(&a).analyses().create(&analysis(&ana, &ua, "Static", at)).await.unwrap();
        }
        store.company(&a).analyses().create(&analysis(&bea, &ua, "Static", 9)).await.unwrap();
        store.company(&a).devices().set_current_patient(&bed, Some(&ana)).await.unwrap();
        store.company(&a).patients().select(&ua, &ana).await.unwrap();
        store.company(&a).logs().raise_alarm(&bed, "Missing", 3).await.unwrap();
        let audit = NewAuditEntry {
            company_id: a.clone(),
            actor_user_id: ua.clone(),
            actor_email: "a@example.com".into(),
            action: "patient.delete".into(),
            entity_type: "patient".into(),
            entity_id: ana.clone(),
            summary: "Deleted patient".into(),
        };
        // Another company's handle deletes nothing and records nothing.
        assert!(matches!(
            store
                .company(&b)
                .patients()
                .delete(&ana, &NewAuditEntry { company_id: b.clone(), actor_user_id: ub.clone(), ..audit.clone() })
                .await,
            Err(StoreError::NotFound)
        ));
        assert!(store.company(&b).audit().page(0, 10).await.unwrap().entries.is_empty());
        assert!(store.company(&a).patients().get(&ana).await.unwrap().is_some());

        // A failing audit entry (action too long for the schema) rolls the whole deletion back.
        let refused = store.company(&a).patients().delete(&ana, &NewAuditEntry { action: "x".repeat(65), ..audit.clone() }).await;
        assert!(refused.is_err());
        assert!(store.company(&a).patients().get(&ana).await.unwrap().is_some(), "the patient is still there");
        let of_ana = AnalysisFilter { patient_id: Some(ana.clone()), analysis_type: None, device_id: None };
        assert_eq!(store.company(&a).analyses().totals(&of_ana).await.unwrap().count, 3, "their analyses too");
        assert_eq!(store.company(&a).devices().get(&bed).await.unwrap().unwrap().current_patient.as_deref(), Some(ana.as_str()));

        store.company(&a).patients().delete(&ana, &audit).await.unwrap();
        assert!(store.company(&a).patients().get(&ana).await.unwrap().is_none());
        assert_eq!(store.company(&a).analyses().totals(&of_ana).await.unwrap().count, 0);
        assert_eq!(store.company(&a).analyses().totals(&AnalysisFilter::default()).await.unwrap().count, 1, "Bea's analysis stays");
        assert_eq!(store.company(&a).devices().get(&bed).await.unwrap().unwrap().current_patient, None, "the bed is released");
        assert!(store.company(&a).patients().selected(&ua).await.unwrap().is_none(), "nobody has them selected");
        assert!(store.company(&a).logs().of_patient(&ana).await.unwrap().alarms.is_empty(), "no row names them");
        assert_eq!(store.company(&a).logs().alarms(&bed).await.unwrap().len(), 1, "the bed's alarm history stays");
        let entries = store.company(&a).audit().page(0, 10).await.unwrap().entries;
        assert_eq!(
            entries.iter().map(|e| (e.action.as_str(), e.entity_id.as_str())).collect::<Vec<_>>(),
            vec![("patient.delete", ana.as_str())]
        );
        assert!(matches!(store.company(&a).patients().delete(&ana, &audit).await, Err(StoreError::NotFound)), "deleted once");
    }
}

#[tokio::test]
async fn keyed_alarms_are_raised_once_and_attended_once() {
    let (store, a) = store_with_company().await;
    let b = store.hub_wide().companies().create("Other", "").await.unwrap();
    let device = store.hub_wide().devices().create(&device(&a, "MAT-K")).await.unwrap();
    let key = format!("{device}-7");
    store.company(&a).logs().raise_alarm_keyed(&device, &key, "Missing", 100).await.unwrap();
    store.company(&a).logs().raise_alarm_keyed(&device, &key, "Missing", 100).await.unwrap();
    assert_eq!(store.company(&a).logs().alarms(&device).await.unwrap().len(), 1, "a retried batch does not double it");
    assert!(!store.company(&b).logs().attend_keyed(&key, 150, None).await.unwrap(), "not by another company");
    assert!(store.company(&a).logs().attend_keyed(&key, 160, None).await.unwrap());
    assert!(!store.company(&a).logs().attend_keyed(&key, 170, None).await.unwrap(), "once");
    assert_eq!(store.company(&a).logs().alarms(&device).await.unwrap()[0].attended_time, Some(160));
    store.company(&a).device_confs().set_streaming_end(&device, Some(1_234)).await.unwrap();
    assert_eq!(store.company(&a).device_confs().streaming_end(&device).await.unwrap(), Some(1_234));
    store.company(&a).device_confs().set_streaming_end(&device, None).await.unwrap();
    assert_eq!(store.company(&a).device_confs().streaming_end(&device).await.unwrap(), None);
}

fn audit_entry(company: &str, action: &str, entity_id: &str) -> crate::model::NewAuditEntry {
    crate::model::NewAuditEntry {
        company_id: company.into(),
        actor_user_id: "u1".into(),
        actor_email: "admin@example.com".into(),
        action: action.into(),
        entity_type: "device".into(),
        entity_id: entity_id.into(),
        summary: format!("{action} {entity_id}"),
    }
}

#[tokio::test]
async fn the_audit_log_is_company_scoped_newest_first_and_paginated() {
    let (store, a) = store_with_company().await;
    let b = store.hub_wide().companies().create("Other Clinic", "").await.unwrap();
    let c = store.hub_wide().companies().create("Third Clinic", "").await.unwrap();
    for i in 0..5 {
        store.company(&a).audit().record(&audit_entry(&a, "device.update", &format!("d{i}"))).await.unwrap();
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    }
    // An administrator of A acting on B: both companies see it; C sees nothing.
    store.company(&a).audit().record(&audit_entry(&b, "company.create", &b)).await.unwrap();
    let first = store.company(&a).audit().page(0, 4).await.unwrap();
    assert_eq!(first.total, 6);
    assert_eq!(first.entries.len(), 4);
    assert_eq!(first.entries[0].action, "company.create", "newest first");
    assert_eq!(first.entries[1].entity_id, "d4");
    let second = store.company(&a).audit().page(1, 4).await.unwrap();
    assert_eq!(second.entries.iter().map(|e| e.entity_id.as_str()).collect::<Vec<_>>(), ["d1", "d0"]);
    let of_b = store.company(&b).audit().page(0, 50).await.unwrap();
    assert_eq!((of_b.total, of_b.entries[0].company_id.as_str()), (1, b.as_str()));
    assert_eq!(store.company(&c).audit().page(0, 50).await.unwrap().total, 0);
}

#[tokio::test]
async fn audit_summaries_are_cut_to_their_limit() {
    let (store, a) = store_with_company().await;
    let mut entry = audit_entry(&a, "company.branding", &a);
    entry.summary = "é".repeat(crate::repo::AUDIT_SUMMARY_MAX + 50);
    store.company(&a).audit().record(&entry).await.unwrap();
    let page = store.company(&a).audit().page(0, 10).await.unwrap();
    assert_eq!(page.entries[0].summary.chars().count(), crate::repo::AUDIT_SUMMARY_MAX);
}

#[tokio::test]
async fn rotating_a_secret_replaces_the_hash_and_audits_it_in_one_transaction() {
    let (store, a) = store_with_company().await;
    let b = store.hub_wide().companies().create("Other Clinic", "").await.unwrap();
    let id = store.hub_wide().devices().create(&device(&a, "ROT-1")).await.unwrap();
    let new_hash = device_secret::hash("new-secret");
    store.company(&a).devices().rotate_secret(&id, &new_hash, &audit_entry(&a, "device.rotateSecret", &id)).await.unwrap();
    assert_eq!(store.company(&a).devices().get(&id).await.unwrap().unwrap().secret_hash, new_hash);
    assert_eq!(store.company(&a).audit().page(0, 10).await.unwrap().entries[0].action, "device.rotateSecret");
    // Another company's administrator: not found, nothing changed, nothing audited.
    let refused =
        store.company(&b).devices().rotate_secret(&id, &device_secret::hash("x"), &audit_entry(&b, "device.rotateSecret", &id)).await;
    assert!(matches!(refused, Err(StoreError::NotFound)), "{refused:?}");
    assert_eq!(store.company(&a).devices().get(&id).await.unwrap().unwrap().secret_hash, new_hash);
    assert_eq!(store.company(&b).audit().page(0, 10).await.unwrap().total, 0);
    assert_eq!(store.company(&a).audit().page(0, 10).await.unwrap().total, 1);
    // A device without a secret (a parent that never connects) has none to rotate.
    let parent = store.hub_wide().devices().create(&NewDevice { secret_hash: String::new(), ..device(&a, "PARENT-1") }).await.unwrap();
    let refused = store.company(&a).devices().rotate_secret(&parent, &new_hash, &audit_entry(&a, "device.rotateSecret", &parent)).await;
    assert!(matches!(refused, Err(StoreError::NotFound)), "{refused:?}");
    assert_eq!(store.company(&a).audit().page(0, 10).await.unwrap().total, 1, "the refused rotation left no entry");
}

#[tokio::test]
async fn revoked_tokens_are_kept_until_they_expire() {
    let store = Store::memory().await.unwrap();
    store.hub_wide().revoked_tokens().revoke("t1", 1_000).await.unwrap();
    store.hub_wide().revoked_tokens().revoke("t2", 2_000).await.unwrap();
    store.hub_wide().revoked_tokens().revoke("t2", 2_000).await.unwrap();
    let ids = |list: Vec<crate::repo::RevokedToken>| list.into_iter().map(|t| t.id).collect::<Vec<_>>();
    let mut both = ids(store.hub_wide().revoked_tokens().unexpired(500).await.unwrap());
    both.sort();
    assert_eq!(both, ["t1", "t2"]);
    assert_eq!(ids(store.hub_wide().revoked_tokens().unexpired(1_000).await.unwrap()), ["t2"]);
    // The expired one is gone for good.
    assert_eq!(ids(store.hub_wide().revoked_tokens().unexpired(0).await.unwrap()), ["t2"]);
}

#[tokio::test]
async fn board_screens_are_paired_listed_seen_and_unpaired_with_their_audit_entries() {
    let store = Store::memory().await.unwrap();
    let a = store.hub_wide().companies().create("Clinic A", "").await.unwrap();
    let b = store.hub_wide().companies().create("Clinic B", "").await.unwrap();
    let screen = crate::repo::BoardScreen {
        id: "screen1".into(),
        company_id: a.clone(),
        unit: "North · 2".into(),
        paired_at: 100,
        paired_by_email: "admin@example.com".into(),
        last_seen: 100,
    };
    store.company(&a).board_screens().pair(&screen, &audit_entry(&a, "boardScreen.pair", "screen1")).await.unwrap();
    assert_eq!(store.company(&a).board_screens().list().await.unwrap(), vec![screen.clone()]);
    assert!(store.company(&b).board_screens().list().await.unwrap().is_empty(), "another company's screens are not listed");
    store.company(&a).board_screens().seen("screen1", 500).await.unwrap();
    store.company(&b).board_screens().seen("screen1", 900).await.unwrap();
    assert_eq!(store.hub_wide().board_screens().all().await.unwrap()[0].last_seen, 500, "only its own company touches it");
    let refused = store.company(&b).board_screens().unpair("screen1", &audit_entry(&b, "boardScreen.unpair", "screen1")).await;
    assert!(matches!(refused, Err(StoreError::NotFound)), "{refused:?}");
    assert_eq!(store.company(&b).audit().page(0, 10).await.unwrap().total, 0, "the refused unpairing left no entry");
    store.company(&a).board_screens().unpair("screen1", &audit_entry(&a, "boardScreen.unpair", "screen1")).await.unwrap();
    assert!(store.hub_wide().board_screens().all().await.unwrap().is_empty());
    let actions: Vec<String> = store.company(&a).audit().page(0, 10).await.unwrap().entries.into_iter().map(|e| e.action).collect();
    assert_eq!(actions, ["boardScreen.unpair", "boardScreen.pair"]);
}
