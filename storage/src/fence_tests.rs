//! Cluster mode's fences and device snapshots on a real in-memory SurrealDB (issue 25): a write
//! under a stale lease revision writes nothing, in the same transaction as its check.

use crate::model::{DeviceLog, NewDevice, PresenceLog, StatusUpdate, TurnLog};
use crate::repo::{AlarmClash, DeviceRow, DeviceRows, RowsWritten, SnapshotWrite, TakeoverRequest};
use crate::{Store, StoreError, device_secret};

async fn store_with_device() -> (Store, String, String) {
    let store = Store::memory().await.unwrap();
    let company = store.hub_wide().companies().create("Demo Clinic", "1 Main St").await.unwrap();
    let id = add_device(&store, &company, 1).await;
    (store, company, id)
}

/// Registers mat `MAT-F{number}` in `company`; its id.
async fn add_device(store: &Store, company: &str, number: u32) -> String {
    let device = NewDevice {
        name: format!("Bed {number}"),
        device_type: "Mattress Mat IoT".into(),
        hardware_serial: format!("MAT-F{number}"),
        company_id: company.to_owned(),
        secret_hash: device_secret::hash("s"),
        ..NewDevice::default()
    };
    store.hub_wide().devices().create(&device).await.unwrap()
}

/// What an owner under fence 5 leaves of `device` for the next owner to read: fence 5, a stream
/// end at 42, the Missing alarm `{device}-1` pending and a snapshot.
async fn owned_under_fence_five(store: &Store, company: &str, device: &str) {
    assert!(store.hub_wide().device_fences().raise(device, 5, "a").await.unwrap());
    let owner = store.company(company).fenced(5);
    owner.device_confs().set_streaming_end(device, Some(42)).await.unwrap();
    owner.logs().raise_alarm_with_reason(device, &format!("{device}-1"), "Missing", 1, None).await.unwrap();
    let write = SnapshotWrite { device: device.to_owned(), json: "{\"a\":1}".into(), saved_at_ms: 7, fence: 5 };
    store.hub_wide().device_snapshots().save(&[write]).await.unwrap();
}

fn log(device: &str, at: i64) -> DeviceLog {
    DeviceLog {
        device_id: device.into(),
        creation_date: at,
        max_pressure: 1,
        position: String::new(),
        posture: String::new(),
        confidence: 0.0,
        pressure_map: "[]".into(),
    }
}

#[tokio::test]
async fn a_fence_only_rises() {
    let (store, _, device) = store_with_device().await;
    let fences = store.hub_wide().device_fences();
    assert_eq!(fences.revision(&device).await.unwrap(), None);
    assert!(fences.raise(&device, 5, "a").await.unwrap());
    assert!(!fences.raise(&device, 3, "b").await.unwrap(), "an older lease cannot lower the fence");
    assert_eq!(fences.revision(&device).await.unwrap(), Some(5));
    assert!(fences.raise(&device, 9, "b").await.unwrap());
    assert!(fences.raise(&device, 9, "b").await.unwrap(), "raising to the same revision again holds");
    assert_eq!(fences.revision(&device).await.unwrap(), Some(9));
}

#[tokio::test]
async fn a_stale_writer_writes_no_device_row() {
    let (store, company, device) = store_with_device().await;
    let fences = store.hub_wide().device_fences();
    assert!(fences.raise(&device, 5, "a").await.unwrap());
    let owner = store.company(&company).fenced(5);
    owner.logs().add_device_log(&log(&device, 1)).await.unwrap();
    owner.device_confs().set_streaming_end(&device, Some(42)).await.unwrap();
    owner.logs().raise_alarm_with_reason(&device, &format!("{device}-1"), "Missing", 1, None).await.unwrap();
    // Hub B takes the device over.
    assert!(fences.raise(&device, 8, "b").await.unwrap());
    let stale = store.company(&company).fenced(5);
    assert!(matches!(stale.logs().add_device_log(&log(&device, 2)).await, Err(StoreError::Fenced)));
    assert!(matches!(stale.device_confs().set_streaming_end(&device, None).await, Err(StoreError::Fenced)));
    assert!(matches!(stale.device_confs().set_tare(&device, "{}").await, Err(StoreError::Fenced)));
    assert!(matches!(stale.logs().attend_keyed(&format!("{device}-1"), 3, None).await, Err(StoreError::Fenced)));
    assert!(matches!(
        stale.logs().raise_alarm_with_reason(&device, &format!("{device}-2"), "Missing", 4, None).await,
        Err(StoreError::Fenced)
    ));
    let reader = store.company(&company);
    assert_eq!(reader.logs().device_logs(&device).await.unwrap().len(), 1, "the stale log was not written");
    assert_eq!(reader.device_confs().streaming_end(&device).await.unwrap(), Some(42), "the stale stream end was not written");
    let alarms = reader.logs().alarms(&device).await.unwrap();
    assert_eq!(alarms.len(), 1, "the stale alarm was not raised");
    assert!(!alarms[0].has_been_attended, "the stale attendance was not written");
    // The new owner writes.
    let owner = store.company(&company).fenced(8);
    owner.logs().add_device_log(&log(&device, 3)).await.unwrap();
    assert!(owner.logs().attend_keyed(&format!("{device}-1"), 5, None).await.unwrap());
    assert_eq!(reader.logs().device_logs(&device).await.unwrap().len(), 2);
    // A hub on its own (no fence) is not checked at all.
    reader.logs().add_device_log(&log(&device, 4)).await.unwrap();
}

#[tokio::test]
async fn fenced_status_and_snapshot_batches_skip_only_the_stale_devices() {
    let (store, company, device) = store_with_device().await;
    let fences = store.hub_wide().device_fences();
    assert!(fences.raise(&device, 5, "a").await.unwrap());
    let status = |s: &str| StatusUpdate { device_id: device.clone(), device_functional: true, patient_status: s.into() };
    let confs = store.hub_wide().device_confs();
    assert_eq!(confs.save_statuses_fenced(&[(status("Missing"), 5)]).await.unwrap(), Vec::<String>::new());
    assert_eq!(confs.save_statuses_fenced(&[(status("Correct"), 4)]).await.unwrap(), vec![device.clone()]);
    let stored = store.company(&company).device_confs().list().await.unwrap();
    assert_eq!(stored[0].patient_status, "Missing", "the stale status was not written");
    let snapshots = store.hub_wide().device_snapshots();
    let write = |json: &str, fence: i64| SnapshotWrite { device: device.clone(), json: json.into(), saved_at_ms: 7, fence };
    assert_eq!(snapshots.save(&[write("{\"a\":1}", 5)]).await.unwrap(), Vec::<String>::new());
    assert!(fences.raise(&device, 6, "b").await.unwrap());
    assert_eq!(snapshots.save(&[write("{\"a\":2}", 5)]).await.unwrap(), vec![device.clone()]);
    let loaded = snapshots.load(&device).await.unwrap().unwrap();
    assert_eq!((loaded.snapshot_json.as_str(), loaded.revision), ("{\"a\":1}", 5), "the stale snapshot was not written");
    assert_eq!(snapshots.load("nope").await.unwrap(), None);
}

#[tokio::test]
async fn a_stale_owners_capture_analysis_is_refused_in_its_transaction() {
    use crate::model::{NewAnalysis, PatientFields};
    let (store, company, device) = store_with_device().await;
    let user = store.hub_wide().accounts().create("nurse-fa@example.com", "secret1", 2, &company).await.unwrap();
    let fields = PatientFields { name: "Ana".into(), weight: 70.0, height: 170.0, ..PatientFields::default() };
    let patient = store.company(&company).patients().create(&user, &fields).await.unwrap();
    let analysis = |at: i64| NewAnalysis {
        patient_id: patient.clone(),
        user_id: user.clone(),
        device: Some(device.clone()),
        analysis_type: "Static".into(),
        creation_date: at,
        map_preview: "[[1]]".into(),
        additional_parameters: "[]".into(),
        ..NewAnalysis::default()
    };
    let fences = store.hub_wide().device_fences();
    assert!(fences.raise(&device, 5, "a").await.unwrap());
    store.company(&company).fenced(5).analyses().create(&analysis(1)).await.unwrap();
    // Hub B takes the device over while A's analysis engine still runs on a capture.
    assert!(fences.raise(&device, 8, "b").await.unwrap());
    let stale = store.company(&company).fenced(5).analyses().create(&analysis(2)).await;
    assert!(matches!(stale, Err(StoreError::Fenced)), "{stale:?}");
    let reader = store.company(&company);
    let kept = reader.analyses().page(&Default::default(), 0, 10).await.unwrap();
    assert_eq!(kept.len(), 1, "the stale owner's analysis was not written");
    store.company(&company).fenced(8).analyses().create(&analysis(3)).await.unwrap();
    // Browsers' analyses (no fence) are not checked.
    reader.analyses().create(&NewAnalysis { device: None, ..analysis(4) }).await.unwrap();
}

/// A hub that attends a device's alarms in storage read the device's fence before its machine
/// was asked; a hub that took the device over meanwhile raised the fence and read the rows. The
/// attendance under the fence read before must write nothing (else the new owner's machine keeps
/// the alarm pending while its row is attended: docs/reliability.md §6); under the current
/// fence, and on a hub on its own, it attends.
#[tokio::test]
async fn a_storage_attendance_under_a_fence_read_before_a_takeover_attends_nothing() {
    let (store, company, device) = store_with_device().await;
    let fences = store.hub_wide().device_fences();
    assert!(fences.raise(&device, 5, "a").await.unwrap());
    let owner = store.company(&company).fenced(5);
    owner.logs().raise_alarm_with_reason(&device, &format!("{device}-1"), "Missing", 1, None).await.unwrap();
    let read_before = fences.revision(&device).await.unwrap().unwrap();
    // Hub B takes the device over (and reads the alarm pending).
    assert!(fences.raise(&device, 8, "b").await.unwrap());
    let late = store.company(&company).fenced(read_before);
    let keys = [format!("{device}-1")];
    assert!(matches!(late.logs().attend_device(&device, &keys, "u1", 3).await, Err(StoreError::Fenced)));
    let reader = store.company(&company);
    assert!(!reader.logs().alarms(&device).await.unwrap()[0].has_been_attended, "the late attendance wrote nothing");
    let current = store.company(&company).fenced(8);
    assert_eq!(current.logs().attend_device(&device, &keys, "u1", 4).await.unwrap(), keys);
    assert!(reader.logs().alarms(&device).await.unwrap()[0].has_been_attended);
    // A hub on its own attends without a fence.
    let (alone, alone_company, alone_device) = store_with_device().await;
    let single = alone.company(&alone_company);
    single.logs().raise_alarm_with_reason(&alone_device, &format!("{alone_device}-1"), "Missing", 1, None).await.unwrap();
    let alone_keys = [format!("{alone_device}-1")];
    assert_eq!(single.logs().attend_device(&alone_device, &alone_keys, "u1", 2).await.unwrap(), alone_keys);
}

/// A storage attendance attends the alarms its caller read before it asked the device's machine,
/// and no other: an alarm the machine raised meanwhile is the machine's and stays pending (found
/// by the 300-mat cluster run: a row attended in storage while its machine held it pending, and
/// no Missing alarm for that patient afterwards). Attended ones are not attended again.
#[tokio::test]
async fn a_storage_attendance_attends_only_the_alarms_read_before_it() {
    let (store, company, device) = store_with_device().await;
    let logs = store.company(&company).logs();
    let (first, second, raised_meanwhile) = (format!("{device}-1"), format!("{device}-2"), format!("{device}-3"));
    logs.raise_alarm_with_reason(&device, &first, "Missing", 1, None).await.unwrap();
    logs.raise_alarm_with_reason(&device, &second, "Missing", 2, None).await.unwrap();
    let hub = store.hub_wide();
    let read_before: Vec<String> = hub.logs().unattended_of(&device).await.unwrap().into_iter().map(|a| a.id).collect();
    assert_eq!(read_before, [first.clone(), second.clone()]);
    // The machine attends the first itself, and raises its next alarm.
    assert!(logs.attend_keyed(&first, 3, None).await.unwrap());
    logs.raise_alarm_with_reason(&device, &raised_meanwhile, "Missing", 3, None).await.unwrap();
    assert_eq!(logs.attend_device(&device, &read_before, "u1", 4).await.unwrap(), [second]);
    let pending: Vec<String> = hub.logs().unattended_of(&device).await.unwrap().into_iter().map(|a| a.id).collect();
    assert_eq!(pending, [raised_meanwhile], "the alarm raised meanwhile stays pending");
    assert!(logs.attend_device(&device, &[], "u1", 5).await.unwrap().is_empty());
}

/// A takeover raises the fence and reads what the device resumes from in one round trip; the
/// reads are the ones the four separate calls give, and an older lease raises nothing.
#[tokio::test]
async fn a_takeover_raises_the_fence_and_reads_the_snapshot_the_conf_and_the_unattended_alarms_at_once() {
    let (store, company, device) = store_with_device().await;
    let hub = store.hub_wide();
    owned_under_fence_five(&store, &company, &device).await;
    let owner = store.company(&company).fenced(5);
    let taken = hub.device_takeovers().raise_and_read(&device, 8, "b").await.unwrap();
    assert!(taken.raised);
    assert_eq!(hub.device_fences().revision(&device).await.unwrap(), Some(8));
    assert_eq!(taken.snapshot, hub.device_snapshots().load(&device).await.unwrap());
    assert_eq!(taken.conf, hub.device_confs().of_device(&device).await.unwrap());
    assert_eq!(taken.conf.as_ref().and_then(|c| c.streaming_end_ms), Some(42));
    assert_eq!(taken.unattended, hub.logs().unattended_of(&device).await.unwrap());
    assert_eq!(taken.unattended.len(), 1);
    let stale = hub.device_takeovers().raise_and_read(&device, 6, "a").await.unwrap();
    assert!(!stale.raised, "an older lease cannot lower the fence");
    assert_eq!(hub.device_fences().revision(&device).await.unwrap(), Some(8));
    assert!(matches!(owner.logs().add_device_log(&log(&device, 2)).await, Err(StoreError::Fenced)), "the old owner is fenced");
}

/// Devices taken over at the same moment go in one transaction: each gets its own fence and its
/// own reads, in the requests' order, and a device whose fence stands higher is refused alone.
#[tokio::test]
async fn takeovers_in_one_batch_raise_each_fence_and_read_each_devices_rows() {
    let (store, company, first) = store_with_device().await;
    let second = add_device(&store, &company, 2).await;
    let hub = store.hub_wide();
    owned_under_fence_five(&store, &company, &first).await;
    assert!(hub.device_fences().raise(&second, 20, "c").await.unwrap());

    let requests = [TakeoverRequest { device_id: first.clone(), revision: 8 }, TakeoverRequest { device_id: second.clone(), revision: 9 }];
    let taken = hub.device_takeovers().raise_and_read_many(&requests, "b").await.unwrap();
    assert_eq!(taken.len(), 2);
    assert!(taken[0].raised);
    assert_eq!(hub.device_fences().revision(&first).await.unwrap(), Some(8));
    assert_eq!(taken[0].snapshot, hub.device_snapshots().load(&first).await.unwrap());
    assert_eq!(taken[0].conf.as_ref().and_then(|c| c.streaming_end_ms), Some(42));
    assert_eq!(taken[0].unattended.len(), 1);
    assert!(!taken[1].raised, "a fence standing higher refuses that device alone");
    assert_eq!(hub.device_fences().revision(&second).await.unwrap(), Some(20));
    assert_eq!(taken[1].snapshot, None);
    assert!(taken[1].unattended.is_empty(), "the first device's alarm is not read for the second");
    assert!(hub.device_takeovers().raise_and_read_many(&[], "b").await.unwrap().is_empty());
}

fn presence(device: &str, at: i64, log_id: &str) -> PresenceLog {
    PresenceLog { device_id: device.into(), creation_date: at, log_id: log_id.into() }
}

fn rows(company: &str, device: &str, fence: i64, rows: Vec<DeviceRow>) -> DeviceRows {
    DeviceRows { company_id: company.into(), device_id: device.into(), fence, rows }
}

fn raised(device: &str, number: u32, at: i64) -> DeviceRow {
    DeviceRow::AlarmRaised { key: format!("{device}-{number}"), kind: "Missing".into(), at, reason_json: None }
}

/// The writer's batch (issue 25): one transaction writes every device's rows under its own
/// fence; a device whose fence moved on, or that is another company's, is skipped and said so,
/// and the others' rows are all written, once each fence touched.
#[tokio::test]
async fn a_batch_writes_each_fresh_devices_rows_and_skips_the_stale_and_the_foreign() {
    let (store, company, fresh) = store_with_device().await;
    let stale = add_device(&store, &company, 2).await;
    let alarmed = add_device(&store, &company, 3).await;
    let other_company = store.hub_wide().companies().create("Other Clinic", "2 Main St").await.unwrap();
    let foreign = add_device(&store, &other_company, 4).await;
    let fences = store.hub_wide().device_fences();
    for device in [&fresh, &alarmed, &foreign] {
        assert!(fences.raise(device, 5, "a").await.unwrap());
    }
    assert!(fences.raise(&stale, 8, "b").await.unwrap(), "hub b took this one over");
    let turn = TurnLog {
        device_id: fresh.clone(),
        at_ms: 1_000,
        recorded_at_ms: 1_001,
        position: Some("Supine".into()),
        by: None,
        tier_before: "due".into(),
        loaded_ms: 7_200_000,
        interval_ms: 7_200_000,
        detected: true,
    };
    let batch = vec![
        rows(
            &company,
            &fresh,
            5,
            vec![
                DeviceRow::Presence(presence(&fresh, 1, "1")),
                DeviceRow::Log(log(&fresh, 2)),
                raised(&fresh, 1, 10),
                DeviceRow::Turn(turn),
                DeviceRow::StreamingEnd(Some(99)),
                DeviceRow::Tare("{\"t\":1}".into()),
                DeviceRow::AlarmAttended { key: format!("{fresh}-1"), at: 12, by: None },
            ],
        ),
        rows(&company, &stale, 5, vec![DeviceRow::Log(log(&stale, 2)), raised(&stale, 1, 10)]),
        rows(&company, &alarmed, 5, vec![raised(&alarmed, 1, 20)]),
        rows(&company, &foreign, 5, vec![DeviceRow::Log(log(&foreign, 2))]),
    ];
    let written = store.hub_wide().device_rows().write_fenced(&batch).await.unwrap();
    assert_eq!(
        written,
        vec![
            RowsWritten::Written { clashes: vec![] },
            RowsWritten::Fenced,
            RowsWritten::Written { clashes: vec![] },
            RowsWritten::NotFound
        ]
    );
    let reader = store.company(&company);
    assert_eq!(reader.logs().presence(&fresh).await.unwrap().len(), 1);
    assert_eq!(reader.logs().device_logs(&fresh).await.unwrap().len(), 1);
    let alarms = reader.logs().alarms(&fresh).await.unwrap();
    assert_eq!(alarms.len(), 1);
    assert!(alarms[0].has_been_attended, "attended after it was raised, in the rows' order");
    assert_eq!(alarms[0].attended_time, Some(12));
    assert_eq!(reader.logs().turns(&fresh).await.unwrap().len(), 1);
    assert_eq!(reader.device_confs().streaming_end(&fresh).await.unwrap(), Some(99));
    assert_eq!(store.hub_wide().device_confs().of_device(&fresh).await.unwrap().and_then(|c| c.tare_json).as_deref(), Some("{\"t\":1}"));
    assert_eq!(fences.holder(&fresh).await.unwrap().map(|(_, _, writes)| writes), Some(1), "one fence touch for the device's rows");
    assert!(reader.logs().device_logs(&stale).await.unwrap().is_empty(), "the stale writer wrote nothing");
    assert!(reader.logs().alarms(&stale).await.unwrap().is_empty());
    let alarms = reader.logs().alarms(&alarmed).await.unwrap();
    assert_eq!((alarms.len(), alarms[0].has_been_attended, alarms[0].creation_date), (1, false, 20));
    assert!(store.company(&other_company).logs().device_logs(&foreign).await.unwrap().is_empty(), "not this company's device");
}

/// A batch written again (the writer retries after a broken connection) raises each alarm once;
/// a key that already holds an alarm of another date is not overwritten, and is reported.
#[tokio::test]
async fn a_batch_raises_each_alarm_once_and_reports_a_key_held_by_another_alarm() {
    let (store, company, device) = store_with_device().await;
    assert!(store.hub_wide().device_fences().raise(&device, 5, "a").await.unwrap());
    let writer = store.hub_wide().device_rows();
    let batch = [rows(&company, &device, 5, vec![raised(&device, 1, 10)])];
    assert_eq!(writer.write_fenced(&batch).await.unwrap(), vec![RowsWritten::Written { clashes: vec![] }]);
    assert_eq!(writer.write_fenced(&batch).await.unwrap(), vec![RowsWritten::Written { clashes: vec![] }], "written before");
    let reused = [rows(&company, &device, 5, vec![raised(&device, 2, 30), raised(&device, 1, 11)])];
    let clash = AlarmClash { key: format!("{device}-1"), stored_at: 10, at: 11 };
    assert_eq!(writer.write_fenced(&reused).await.unwrap(), vec![RowsWritten::Written { clashes: vec![clash] }]);
    let alarms = store.company(&company).logs().alarms(&device).await.unwrap();
    let dates: Vec<i64> = alarms.iter().map(|a| a.creation_date).collect();
    assert_eq!(dates, vec![30, 10], "the first alarm kept its date");
}

/// A value the schema refuses fails the whole transaction: nothing of the batch is written (the
/// hub's writer then writes its records one by one and drops only the refused one). SurrealDB
/// 3 says "must conform to" for a failed ASSERT: that is `Invalid`, never a database failure.
#[tokio::test]
async fn a_refused_value_fails_the_whole_batch() {
    let (store, company, device) = store_with_device().await;
    assert!(store.hub_wide().device_fences().raise(&device, 5, "a").await.unwrap());
    let batch = [rows(&company, &device, 5, vec![DeviceRow::Log(log(&device, 1)), DeviceRow::Presence(presence(&device, 2, "7"))])];
    let result = store.hub_wide().device_rows().write_fenced(&batch).await;
    assert!(matches!(result, Err(StoreError::Invalid(_))), "{result:?}");
    assert!(store.company(&company).logs().device_logs(&device).await.unwrap().is_empty());
    // Written alone, the refused row is invalid too (the writer drops it, and does not retry it
    // forever as a database failure).
    let alone = store.company(&company).fenced(5).logs().add_presence(&presence(&device, 2, "7")).await;
    assert!(matches!(alone, Err(StoreError::Invalid(_))), "{alone:?}");
}
