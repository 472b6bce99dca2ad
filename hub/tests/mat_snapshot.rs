//! A mat's snapshot across a hub restart, in process on one store: what the running hub wrote
//! (stream end, unattended alarm, Missing status, repositioning interval) is what the restarted
//! hub's actor resumes from (`hub::snapshots`). What a hub restart forgets on purpose is listed in
//! docs/decisions.md.

mod common;

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use actors::actor::mat::{FrameIn, MatMsg};
use actors::actor::registry::{MatHandle, RegistryMsg};
use actors::actor::storage_writer::WriterMsg;
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

#[tokio::test]
async fn what_a_mat_holds_survives_a_hub_restart() {
    let data = tempfile::tempdir().unwrap();
    let store = storage::Store::memory().await.unwrap();
    let (company, email, devices) = seed_company(&store, "S", &["Mattress Mat IoT"]).await;
    let device = &devices[0];
    let mut config = config(data.path());
    config.absence_delay_secs = 1;
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
    let before = ask(&handle.actor, MatMsg::GetStatus).await;
    assert_eq!((before.patient_status, before.unattended_alarm), (PatientStatus::Missing, true));
    let remaining_before = ask(&handle.actor, MatMsg::StreamingRemaining).await;
    assert!(matches!(hub.actors.writer.call(WriterMsg::Flush, WAIT).await.unwrap(), CallResult::Success(Ok(()))));
    let alarms = store.logs().alarms(&company, &device.id).await.unwrap();
    assert_eq!(alarms.len(), 1);
    let number = hub::records::alarm_number(&device.id, &alarms[0].id).expect("the actor's numbering");

    hub.shutdown().await;
    let stopped = Instant::now();
    let hub = hub::app::start_with_store(config, store.clone()).await.unwrap();
    let handle = actor(&hub, &device.id).await;

    // The restarted hub's actor: offline (no connection survives), the patient still Missing with
    // the alarm pending, the stream resumed with the time left, the interval in force.
    let after = ask(&handle.actor, MatMsg::GetStatus).await;
    assert_eq!((after.functional, after.patient_status, after.unattended_alarm), (false, PatientStatus::Missing, true), "{after:?}");
    let remaining = ask(&handle.actor, MatMsg::StreamingRemaining).await;
    let elapsed = u32::try_from(stopped.elapsed().as_secs()).unwrap();
    assert!((remaining_before.saturating_sub(elapsed + 2)..=remaining_before).contains(&remaining), "{remaining} s left of {remaining_before}");
    let clock = ask(&handle.actor, MatMsg::GetRepositioning).await.expect("a bed mat has the clock");
    assert_eq!(clock.interval, Duration::from_secs(45 * 60));

    // Still an empty bed: the alarm is not raised a second time, and it is attended by its number.
    empty_bed(&handle, Duration::from_millis(1_500)).await;
    assert_eq!(ask(&handle.actor, |reply| MatMsg::AttendAlarm { alarm: Some(AlarmId(number)), reply }).await, Ok(1));
    assert!(matches!(hub.actors.writer.call(WriterMsg::Flush, WAIT).await.unwrap(), CallResult::Success(Ok(()))));
    let alarms = store.logs().alarms(&company, &device.id).await.unwrap();
    assert_eq!(alarms.len(), 1, "one alarm across the restart");
    assert!(alarms[0].has_been_attended);
    hub.shutdown().await;
}
