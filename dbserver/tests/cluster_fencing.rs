//! Fencing on the real SurrealDB server (issue 25, item 2): a device's writer keeps writing under
//! its lease revision while a new owner raises the device's fence on another connection. Every
//! write that succeeded began before the raise finished; none that began after it was written;
//! the rows in the store are exactly the successful writes. (The check touches the fence row, so
//! a write racing the raise conflicts with it and is retried, then fenced.)

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use storage::StoreError;
use storage::model::{DeviceLog, NewDevice};
use support::*;

fn log(device: &str, seq: i64) -> DeviceLog {
    DeviceLog {
        device_id: device.into(),
        creation_date: seq,
        max_pressure: seq,
        position: String::new(),
        posture: String::new(),
        confidence: 0.0,
        pressure_map: "[]".into(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn no_write_under_a_stale_fence_lands_after_the_new_owner_raised_it() {
    let server = DbServer::start().await;
    let (old_owner, new_owner) = (server.store().await, server.store().await);
    let company = old_owner.hub_wide().companies().create("Clinic Fence", "").await.unwrap();
    let device = NewDevice {
        name: "Bed".into(),
        device_type: "Mattress Mat IoT".into(),
        hardware_serial: "FENCE-1".into(),
        company_id: company.clone(),
        secret_hash: storage::device_secret::hash("s"),
        ..NewDevice::default()
    };
    let device = old_owner.hub_wide().devices().create(&device).await.unwrap();
    assert!(old_owner.hub_wide().device_fences().raise(&device, 10, "hub-a").await.unwrap());

    // Four writers of the old owner, each writing one log after the other.
    let started = Instant::now();
    let successes = Arc::new(AtomicUsize::new(0));
    let writers = (0..4i64).map(|w| {
        let (store, company, device, successes) = (old_owner.clone(), company.clone(), device.clone(), successes.clone());
        tokio::spawn(async move {
            let mut written = Vec::new();
            // At most 4 × 80 rows, under the 350 a device's log list reads back.
            for i in 0..80i64 {
                let seq = w * 1_000 + i;
                let began = started.elapsed();
                match store.company(&company).fenced(10).logs().add_device_log(&log(&device, seq)).await {
                    Ok(()) => {
                        written.push((seq, began));
                        successes.fetch_add(1, Ordering::Relaxed);
                    }
                    Err(StoreError::Fenced) => break,
                    Err(error) => panic!("write {seq}: {error}"),
                }
                tokio::time::sleep(Duration::from_millis(3)).await;
            }
            written
        })
    });
    let writers: Vec<_> = writers.collect();
    // The new owner raises the fence while they write (after a few of their writes, however
    // slow the machine).
    while successes.load(Ordering::Relaxed) < 8 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(new_owner.hub_wide().device_fences().raise(&device, 11, "hub-b").await.unwrap());
    let raised = started.elapsed();
    let mut written: Vec<(i64, Duration)> = Vec::new();
    for writer in writers {
        written.extend(writer.await.unwrap());
    }
    assert!(!written.is_empty(), "the old owner wrote before the raise");
    let late: Vec<_> = written.iter().filter(|(_, began)| *began > raised).collect();
    assert!(late.is_empty(), "writes begun after the raise landed: {late:?}");
    let mut stored: Vec<i64> =
        new_owner.company(&company).logs().device_logs(&device).await.unwrap().iter().map(|l| l.max_pressure).collect();
    let mut expected: Vec<i64> = written.iter().map(|(seq, _)| *seq).collect();
    stored.sort_unstable();
    expected.sort_unstable();
    assert_eq!(stored, expected, "the store holds exactly the writes that succeeded");
    assert!(expected.len() < 320, "the writers were stopped by the fence, not by their count");
    // And the new owner writes.
    new_owner.company(&company).fenced(11).logs().add_device_log(&log(&device, 99_999)).await.unwrap();
}
