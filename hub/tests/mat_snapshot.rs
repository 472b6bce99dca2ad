//! A mat's snapshot across a hub restart, in process on one store: what the running hub wrote
//! (stream end, unattended alarm, Missing status, repositioning interval) is what the restarted
//! hub's actor resumes from (`hub::snapshots`). What a hub restart forgets on purpose is listed in
//! docs/decisions.md.
#![allow(clippy::unwrap_used)] // A test's helpers may unwrap: the panic is the failure it reports.

mod common;

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use actors::actor::mat::{FrameIn, MatMsg};
use actors::actor::registry::{MatHandle, RegistryMsg};
use actors::actor::storage_writer::WriterMsg;
use actors::browser::DeviceConfEvent;
use common::*;
use hub::app::RunningHub;
use mat_core::machine::alarm::AlarmId;
use mat_core::machine::status::PatientStatus;
use mat_protocol::CellFormat;
use ractor::rpc::CallResult;
use ractor::{ActorRef, RpcReplyPort};
use serde_json::json;

const WAIT: Option<Duration> = Some(Duration::from_secs(5));

async fn actor(hub: &RunningHub, device_id: &str) -> MatHandle {
    let device_id: Arc<str> = Arc::from(device_id);
    match hub.actors.registry.call(|reply| RegistryMsg::Resolve { device_id, reply }, WAIT).await.unwrap() {
        CallResult::Success(Ok(handle)) => handle,
        _ => panic!("no actor for the device"),
    }
}

async fn ask<T: Send + 'static>(actor: &ActorRef<MatMsg>, message: impl FnOnce(RpcReplyPort<T>) -> MatMsg) -> T {
    match actor.call(message, WAIT).await.unwrap() {
        CallResult::Success(answer) => answer,
        _ => panic!("the actor did not answer"),
    }
}

/// The device's status as the live board shows it (what REST answers), once its actor has handled
/// everything sent to it before (a call is answered in mailbox order).
async fn board_status(hub: &RunningHub, handle: &MatHandle, company_id: &str, device_id: &str) -> DeviceConfEvent {
    ask(&handle.actor, MatMsg::StreamingRemaining).await;
    hub.board.status(company_id, device_id).expect("the device has a status")
}

/// An empty 48×48 map, as ingest would hand it over.
fn empty_frame(handle: &MatHandle, seq: u64) {
    handle.inflight.fetch_add(1, Ordering::Relaxed);
    let frame = FrameIn { seq, device_time_ms: seq * 100, rows: 48, cols: 48, format: CellFormat::U8, cells: vec![0; 48 * 48] };
    handle.actor.cast(MatMsg::Frame(frame)).unwrap();
}

/// Empty frames every 100 ms for `length`.
async fn empty_bed(handle: &MatHandle, length: Duration) {
    let start = Instant::now();
    let mut seq = 0;
    while start.elapsed() < length {
        empty_frame(handle, seq);
        seq += 1;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The test hub's configuration with a 1 s absence delay, so an empty bed is Missing quickly.
fn one_second_absence(data: &std::path::Path) -> hub::config::ServeConfig {
    let mut config = config(data);
    config.absence_delay_secs = 1;
    config
}

#[tokio::test]
async fn what_a_mat_holds_survives_a_hub_restart() {
    let data = tempfile::tempdir().unwrap();
    let store = storage::Store::memory().await.unwrap();
    let (company, email, devices) = seed_company(&store, "S", &["Mattress Mat IoT"]).await;
    let device = &devices[0];
    let config = one_second_absence(data.path());
    let hub = hub::app::start_with_store(config.clone(), store.clone()).await.unwrap();
    let token = login(hub.http_addr, &email, PASSWORD).await;
    let path = format!("/api/device/{}/repositioning", device.id);
    let set = request(hub.http_addr, "PUT", &path, Some(&token), Some(&json!({ "minutes": 45 }).to_string())).await;
    assert_eq!(set.status, 200, "{}", set.body);

    // A stream runs, the bed stays empty past the absence delay: Missing, one alarm.
    let handle = actor(&hub, &device.id).await;
    empty_frame(&handle, 0);
    assert_eq!(ask(&handle.actor, |reply| MatMsg::StartStreaming { seconds: 180, reply }).await, Ok(()));
    empty_bed(&handle, Duration::from_millis(1_500)).await;
    let before = board_status(&hub, &handle, &company, &device.id).await;
    assert_eq!((before.patient_status, before.unattended_alarm), (PatientStatus::Missing, true));
    let remaining_before = ask(&handle.actor, MatMsg::StreamingRemaining).await;
    assert!(matches!(hub.actors.writer.call(WriterMsg::Flush, WAIT).await.unwrap(), CallResult::Success(Ok(()))));
    let alarms = store.company(&company).logs().alarms(&device.id).await.unwrap();
    assert_eq!(alarms.len(), 1);
    let number = hub::records::alarm_number(&device.id, &alarms[0].id).expect("the actor's numbering");

    hub.shutdown().await;
    let stopped = Instant::now();
    let hub = hub::app::start_with_store(config, store.clone()).await.unwrap();
    let handle = actor(&hub, &device.id).await;

    // The restarted hub's actor: offline (no connection survives), the patient still Missing with
    // the alarm pending, the stream resumed with the time left, the interval in force.
    let after = board_status(&hub, &handle, &company, &device.id).await;
    assert_eq!((after.device_functional, after.patient_status, after.unattended_alarm), (false, PatientStatus::Missing, true), "{after:?}");
    let remaining = ask(&handle.actor, MatMsg::StreamingRemaining).await;
    let elapsed = u32::try_from(stopped.elapsed().as_secs()).unwrap();
    assert!(
        (remaining_before.saturating_sub(elapsed + 2)..=remaining_before).contains(&remaining),
        "{remaining} s left of {remaining_before}"
    );
    let clock = ask(&handle.actor, MatMsg::GetRepositioning).await.expect("a bed mat has the clock");
    assert_eq!(clock.interval, Duration::from_secs(45 * 60));

    // Still an empty bed: the alarm is not raised a second time, and it is attended by its number.
    empty_bed(&handle, Duration::from_millis(1_500)).await;
    assert_eq!(ask(&handle.actor, |reply| MatMsg::AttendAlarm { alarm: Some(AlarmId(number)), by: None, reply }).await, Ok(1));
    assert!(matches!(hub.actors.writer.call(WriterMsg::Flush, WAIT).await.unwrap(), CallResult::Success(Ok(()))));
    let alarms = store.company(&company).logs().alarms(&device.id).await.unwrap();
    assert_eq!(alarms.len(), 1, "one alarm across the restart");
    assert!(alarms[0].has_been_attended);
    hub.shutdown().await;
}

/// A patient stored as Missing who had come back before the hub was killed (the entrance reached
/// the store, the Correct status did not: records are written first) is not restored Missing, so
/// leaving again raises an alarm (`hub::status_recovery`). One who has not come back since the
/// attended alarm stays Missing, without a second alarm.
#[tokio::test]
async fn a_patient_back_before_a_kill_is_not_restored_missing_and_leaving_again_raises_an_alarm() {
    let data = tempfile::tempdir().unwrap();
    let store = storage::Store::memory().await.unwrap();
    let (company, _email, devices) = seed_company(&store, "R", &["Mattress Mat IoT", "Mattress Mat IoT"]).await;
    let (back, gone) = (&devices[0], &devices[1]);
    let now_s = i64::try_from(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs()).unwrap();
    let missing = |device: &str| storage::model::StatusUpdate {
        device_id: device.to_owned(),
        device_functional: false,
        patient_status: PatientStatus::Missing.name().to_owned(),
    };
    store.hub_wide().device_confs().save_statuses(&[missing(&back.id), missing(&gone.id)]).await.unwrap();
    for (device, entered_at) in [(back, now_s - 50), (gone, now_s - 200)] {
        let key = format!("{}-1", device.id);
        store.company(&company).logs().raise_alarm_keyed(&device.id, &key, "Missing", now_s - 100).await.unwrap();
        assert!(store.company(&company).logs().attend_keyed(&key, now_s - 90, None).await.unwrap());
        let entrance = storage::model::PresenceLog { device_id: device.id.clone(), creation_date: entered_at, log_id: "1".into() };
        store.company(&company).logs().add_presence(&entrance).await.unwrap();
    }

    let config = one_second_absence(data.path());
    let hub = hub::app::start_with_store(config, store.clone()).await.unwrap();
    let stored: Vec<(String, String)> =
        store.hub_wide().device_confs().list_all().await.unwrap().into_iter().map(|c| (c.device_id, c.patient_status)).collect();
    assert!(stored.contains(&(back.id.clone(), "Correct".to_owned())), "{stored:?}");
    assert!(stored.contains(&(gone.id.clone(), "Missing".to_owned())), "{stored:?}");

    let (back_actor, gone_actor) = (actor(&hub, &back.id).await, actor(&hub, &gone.id).await);
    assert_eq!(board_status(&hub, &back_actor, &company, &back.id).await.patient_status, PatientStatus::Correct);
    empty_bed(&back_actor, Duration::from_millis(1_500)).await;
    let left_again = board_status(&hub, &back_actor, &company, &back.id).await;
    assert_eq!(
        (left_again.patient_status, left_again.unattended_alarm),
        (PatientStatus::Missing, true),
        "the new absence raises its alarm"
    );
    empty_bed(&gone_actor, Duration::from_millis(1_500)).await;
    let still_gone = board_status(&hub, &gone_actor, &company, &gone.id).await;
    assert_eq!((still_gone.patient_status, still_gone.unattended_alarm), (PatientStatus::Missing, false), "the attended absence goes on");
    hub.shutdown().await;
}

/// An alarm attended through the REST API is attended in the device's alarm machine too, before
/// the call answers, so the next absence raises a new alarm (the store was once written first and
/// the actor's answer ignored: a machine still holding the alarm raised nothing for the next
/// absence). Attending again finds nothing left.
#[tokio::test]
async fn an_alarm_attended_over_rest_is_attended_in_the_machine_and_the_next_absence_alarms_again() {
    let data = tempfile::tempdir().unwrap();
    let store = storage::Store::memory().await.unwrap();
    let (company, email, devices) = seed_company(&store, "A", &["Mattress Mat IoT"]).await;
    let device = &devices[0];
    let config = one_second_absence(data.path());
    let hub = hub::app::start_with_store(config, store.clone()).await.unwrap();
    let token = login(hub.http_addr, &email, PASSWORD).await;
    let handle = actor(&hub, &device.id).await;
    empty_bed(&handle, Duration::from_millis(1_500)).await;
    assert!(board_status(&hub, &handle, &company, &device.id).await.unattended_alarm, "the empty bed raised the Missing alarm");

    let path = format!("/api/iotAlarms/{}", device.id);
    let attended = request(hub.http_addr, "PUT", &path, Some(&token), None).await;
    assert_eq!(attended.status, 200, "{}", attended.body);
    assert_eq!(attended.json::<serde_json::Value>()["attended"], 1);
    assert!(!board_status(&hub, &handle, &company, &device.id).await.unattended_alarm, "the machine no longer holds it");
    let stored = store.company(&company).logs().alarms(&device.id).await.unwrap();
    assert_eq!((stored.len(), stored[0].has_been_attended), (1, true), "stored attended before the answer");
    let again = request(hub.http_addr, "PUT", &path, Some(&token), None).await;
    assert_eq!(again.json::<serde_json::Value>()["attended"], 0);

    // The patient comes back and leaves again: a second alarm.
    // A lying body, as `mat_core::test_maps::body` draws it.
    let mut frame = vec![0u8; 48 * 48];
    for r in 10..30 {
        for c in 15..30 {
            frame[r * 48 + c] = if (r + c) % 2 == 0 { 20 } else { 150 };
        }
    }
    for seq in 100..115 {
        handle.inflight.fetch_add(1, Ordering::Relaxed);
        let present = FrameIn { seq, device_time_ms: seq * 100, rows: 48, cols: 48, format: CellFormat::U8, cells: frame.clone() };
        handle.actor.cast(MatMsg::Frame(present)).unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(board_status(&hub, &handle, &company, &device.id).await.patient_status, PatientStatus::Correct);
    empty_bed(&handle, Duration::from_millis(1_500)).await;
    assert!(board_status(&hub, &handle, &company, &device.id).await.unattended_alarm, "the next absence raised a new alarm");
    hub.shutdown().await;
}

/// A device that connects to a restarted hub is shown functional even though what the killed hub
/// stored says it was functional already. The registry announces every device offline at a hub's
/// start; the device's new actor started functional from the stored status (a device without a
/// snapshot: no stream, alarm, interval or tare stored), said nothing since nothing changed for
/// it, and the bed showed Offline for as long as it streamed.
#[tokio::test]
async fn a_device_connecting_to_a_restarted_hub_is_shown_functional() {
    let data = tempfile::tempdir().unwrap();
    let store = storage::Store::memory().await.unwrap();
    let (company, _email, devices) = seed_company(&store, "F", &["Mattress Mat IoT"]).await;
    let device = &devices[0];
    // What a kill leaves behind: the last stored status says functional.
    let functional = storage::model::StatusUpdate {
        device_id: device.id.clone(),
        device_functional: true,
        patient_status: PatientStatus::Correct.name().to_owned(),
    };
    store.hub_wide().device_confs().save_statuses(&[functional]).await.unwrap();

    let hub = hub::app::start_with_store(config(data.path()), store.clone()).await.unwrap();
    assert!(!hub.board.status(&company, &device.id).unwrap().device_functional, "announced offline at start");
    let spec = simulator::DeviceSpec::new(device.serial.clone(), device.secret.clone(), &device.device_type).unwrap();
    let transport = simulator::Transport::Quic {
        addr: hub.quic_addr,
        server_name: "localhost".into(),
        trust: simulator::Trust::PemFile(hub.cert_path.clone()),
    };
    let (stop, shutdown) = tokio::sync::watch::channel(false);
    tokio::spawn(simulator::run_device(spec, transport, Arc::new(simulator::SimStats::default()), shutdown));
    let shown = eventually(Duration::from_secs(10), || hub.board.status(&company, &device.id).is_some_and(|s| s.device_functional)).await;
    assert!(shown, "the connected device still shows offline: {:?}", hub.board.status(&company, &device.id));
    let _ = stop.send(true);
    hub.shutdown().await;
}
