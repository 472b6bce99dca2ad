//! The set actor's own saves, in its order.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::*;
use crate::actor::storage_writer::WriterMsg;
use mat_core::machine::status::CardStatus;

/// A writer that notes the statuses it is handed, in order.
struct SavedStatuses;

type Saved = Arc<Mutex<Vec<(bool, PatientStatus)>>>;

impl Actor for SavedStatuses {
    type Msg = WriterMsg;
    type State = Saved;
    type Arguments = Saved;

    async fn pre_start(&self, _myself: ActorRef<WriterMsg>, saved: Saved) -> Result<Saved, ActorProcessingErr> {
        Ok(saved)
    }

    async fn handle(&self, _myself: ActorRef<WriterMsg>, message: WriterMsg, saved: &mut Saved) -> Result<(), ActorProcessingErr> {
        match message {
            WriterMsg::Save(status) => saved.lock().unwrap_or_else(|p| p.into_inner()).push((status.functional, status.patient_status)),
            WriterMsg::Flush(reply) => {
                let _ = reply.send(Ok(()));
            }
            _ => {}
        }
        Ok(())
    }
}

fn horse() -> Arc<DeviceInfo> {
    Arc::new(DeviceInfo {
        id: "horse".into(),
        serial: "SN-horse".to_owned(),
        company_id: "c1".into(),
        device_type: DeviceType::SensingHorse,
        name: "horse".to_owned(),
        parent: None,
        members: vec!["left".into(), "right".into()],
        secret_hash: String::new(),
        functional: false,
        patient_status: PatientStatus::Correct,
    })
}

/// What the writer holds once both mailboxes are drained: a `CanStream` call is answered after
/// every message cast to the set before it, and a `Flush` after every save the set cast before.
async fn saved_after(set: &ActorRef<RoomSetMsg>, writer: &ActorRef<WriterMsg>, saved: &Saved) -> Vec<(bool, PatientStatus)> {
    set.call(RoomSetMsg::CanStream, None).await.expect("the set answers");
    writer.call(WriterMsg::Flush, None).await.expect("the writer answers");
    saved.lock().unwrap_or_else(|p| p.into_inner()).clone()
}

/// Issue 25 (found by `hub/tests/cluster_events.rs` under load): a hub taking a horse's lease read
/// the horse "not functional" on its board, the horse's actor then handed the writer "functional",
/// and the hub's save of what it had read went after it and overwrote it there: the horse stayed
/// stored not functional. The actor saves its own status now, in its order, unless the row says the
/// same.
#[tokio::test]
async fn a_set_saves_its_own_status_when_its_lease_is_taken_unless_the_row_says_the_same() {
    let saved: Saved = Arc::default();
    let (writer, _) = Actor::spawn(None, SavedStatuses, saved.clone()).await.expect("writer");
    let args = RoomSetArgs {
        info: horse(),
        bus: Bus::new(),
        board: LiveBoard::new(),
        writer: Some(writer.clone()),
        absence_delay: Duration::from_secs(30),
    };
    let (set, _) = Actor::spawn(None, RoomSetActor, args).await.expect("set");
    let side = DeviceStatus::new(true, PatientStatus::Correct, Some(0), CardStatus::Correct);
    for index in 0..2 {
        set.cast(RoomSetMsg::Member { index, status: side, presence: Presence::Absent }).expect("member");
    }
    let functional = saved_after(&set, &writer, &saved).await;
    let now = *functional.last().expect("the horse's change is saved");
    assert!(now.0, "both sides functional: the horse is: {functional:?}");

    // The lease's holder read an older row: the actor saves what it says now, not the row's.
    set.cast(RoomSetMsg::SaveUnlessStored { stored: Some((false, PatientStatus::Correct)) }).expect("cast");
    let after = saved_after(&set, &writer, &saved).await;
    assert_eq!(after.len(), functional.len() + 1, "{after:?}");
    assert_eq!(after.last(), Some(&now), "the set's own status, never the row's");

    // A row that says the same, or an unknown one.
    set.cast(RoomSetMsg::SaveUnlessStored { stored: Some(now) }).expect("cast");
    assert_eq!(saved_after(&set, &writer, &saved).await.len(), after.len(), "the row says the same: nothing written twice");
    set.cast(RoomSetMsg::SaveUnlessStored { stored: None }).expect("cast");
    assert_eq!(saved_after(&set, &writer, &saved).await.last(), Some(&now));
    assert_eq!(saved_after(&set, &writer, &saved).await.len(), after.len() + 1, "a row not read: saved");
}
