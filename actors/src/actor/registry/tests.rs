//! The registry's supervision of set actors: a restarted room set hears from its members at once.

use std::sync::Arc;
use std::time::Duration;

use super::*;
use crate::fanout::{Outbox, Viewer};
use crate::machine::device_type::DeviceType;
use crate::machine::status::PatientStatus;
use crate::protocol::CellFormat;

use crate::actor::mat::FrameIn;

fn device(id: &str, device_type: DeviceType, parent: Option<(&str, usize)>, members: &[&str]) -> DeviceInfo {
    DeviceInfo {
        id: id.into(),
        serial: format!("SN-{id}"),
        company_id: "c1".into(),
        device_type,
        name: id.to_owned(),
        parent: parent.map(|(p, i)| (Arc::from(p), i)),
        members: members.iter().map(|m| Arc::from(*m)).collect(),
        secret_hash: String::new(),
        functional: false,
        patient_status: PatientStatus::Correct,
    }
}

/// The room set's `deviceFunctional` in every `deviceConf` the viewer received so far, in order.
fn room_history(viewer: &Viewer, seen: &mut Vec<bool>) -> Vec<bool> {
    #[derive(serde::Deserialize)]
    struct Envelope {
        data: DeviceConfEvent,
    }
    while let Ok(Some(bytes)) = viewer.outbox.try_recv() {
        if let Ok(e) = rmp_serde::from_slice::<Envelope>(&bytes) {
            if e.data.device_id == "room" {
                seen.push(e.data.device_functional);
            }
        }
    }
    seen.clone()
}

async fn eventually(mut check: impl FnMut() -> bool) -> bool {
    for _ in 0..100 {
        if check() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    false
}

#[tokio::test]
async fn members_report_to_a_restarted_room_set_without_waiting_for_a_change() {
    let catalog = Catalog::new([
        device("room", DeviceType::RoomSet, None, &["bed", "seat", "floor"]),
        device("bed", DeviceType::ForceMat, Some(("room", 0)), &[]),
        device("seat", DeviceType::ForceMat, Some(("room", 1)), &[]),
        device("floor", DeviceType::ForceMat, Some(("room", 2)), &[]),
    ]);
    let bus = Bus::new();
    let metrics = Arc::new(HubMetrics::default());
    let viewer = Viewer { session: 1, outbox: Outbox::new(metrics.clone()) };
    bus.company("c1").join(viewer.clone());
    let mut seen = Vec::new();
    let args = RegistryArgs { catalog, bus: bus.clone(), writer: None, metrics, absence_delay: Duration::from_secs(30) };
    let (registry, _) = Actor::spawn(None, DeviceRegistry, args).await.expect("registry");

    let (link, _rx) = DeviceLink::new(1);
    let connected = registry.call(|reply| RegistryMsg::Connect { device_id: "bed".into(), link, reply }, None).await.expect("answered");
    let ractor::rpc::CallResult::Success(Ok(bed)) = connected else { panic!("bed not connected") };
    let cells: Vec<u8> = [300u16, 0, 0, 0].iter().flat_map(|v| v.to_le_bytes()).collect();
    bed.actor.cast(MatMsg::Frame(FrameIn { seq: 1, device_time_ms: 0, rows: 1, cols: 4, format: CellFormat::U16Le, cells })).expect("frame");
    assert!(eventually(|| room_history(&viewer, &mut seen).last() == Some(&true)).await, "the room set follows its bed sensor");
    let before = seen.len();

    // The set actor dies; the registry restarts it, and the new one starts with every member
    // offline. The bed sends nothing new, yet the set must learn that it is functional.
    let set = registry.get_children().into_iter().find(|child| child.get_id() != bed.actor.get_id()).expect("the set actor");
    set.kill();
    assert!(
        eventually(|| room_history(&viewer, &mut seen)[before..] == [false, true]).await,
        "the restarted set starts offline, then the bed tells it where it stands: {seen:?}"
    );
    registry.stop(None);
}
