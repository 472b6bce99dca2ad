//! The browser's capture, streaming and alarm requests through a session to a real mat actor.

use std::sync::Arc;
use std::time::Duration;

use super::*;
use crate::actor::link::DeviceLink;
use crate::actor::mat::{FrameIn, MatMsg};
use crate::actor::registry::{DeviceRegistry, RegistryArgs};
use crate::catalog::DeviceInfo;
use crate::metrics::HubMetrics;
use mat_core::machine::status::PatientStatus;
use mat_core::test_maps::body;
use mat_protocol::CellFormat;
use mat_protocol::device_type::DeviceType;

#[derive(serde::Deserialize)]
struct Named {
    event: String,
    data: Data,
}

/// The fields of interest of any event's data (the rest is ignored).
#[derive(serde::Deserialize)]
struct Data {
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    phase: Option<String>,
}

/// Every message the session's outbox holds: (event, `error` field or capture `phase`).
fn received(outbox: &Outbox) -> Vec<(String, String)> {
    std::iter::from_fn(|| outbox.try_recv().ok().flatten())
        .filter_map(|bytes| rmp_serde::from_slice::<Named>(&bytes).ok())
        .map(|n| (n.event, n.data.error.or(n.data.phase).unwrap_or_default()))
        .collect()
}

/// A device registry over `catalog` with no writer, its bus, and one session's outbox.
async fn registry_of(catalog: &Arc<Catalog>) -> (Arc<Bus>, ActorRef<RegistryMsg>, Arc<Outbox>) {
    let bus = Bus::new();
    let metrics = Arc::new(HubMetrics::default());
    let registry_args = RegistryArgs {
        catalog: catalog.clone(),
        bus: bus.clone(),
        board: crate::live_board::LiveBoard::new(),
        writer: None,
        metrics: metrics.clone(),
        absence_delay: Duration::from_secs(30),
        repositioning_time_scale: 1,
        share_snapshots: false,
    };
    let (registry, _) = Actor::spawn(None, DeviceRegistry, registry_args).await.expect("registry");
    (bus, registry, Outbox::new(metrics))
}

async fn send(session: &ActorRef<SessionMsg>, event: ClientEvent) {
    session.call(|reply| SessionMsg::Client(event, reply), Some(CALL_TIMEOUT)).await.expect("handled");
}

fn capture(kind: &str, patient: Option<&str>) -> ClientEvent {
    ClientEvent::StartCapture { device_id: "bed".into(), analysis_type: kind.into(), seconds: 0, patient_id: patient.map(str::to_owned) }
}

#[tokio::test]
async fn capture_requests_are_refused_with_the_spec_keys_and_announced_when_accepted() {
    let catalog = Catalog::new([DeviceInfo {
        id: "bed".into(),
        serial: "SN-bed".into(),
        company_id: "c1".into(),
        device_type: DeviceType::MattressMatIoT,
        name: "Bed".into(),
        parent: None,
        members: Vec::new(),
        secret_hash: String::new(),
        functional: false,
        patient_status: PatientStatus::Correct,
    }]);
    let (bus, registry, outbox) = registry_of(&catalog).await;
    let args = SessionArgs {
        id: 1,
        user_id: "u1".into(),
        company_id: "c1".into(),
        outbox: outbox.clone(),
        bus,
        catalog,
        registry: registry.clone(),
        board_scope: None,
    };
    let (session, _) = Actor::spawn(None, SessionActor, args).await.expect("session");
    send(&session, ClientEvent::JoinCompany {}).await;
    received(&outbox);

    send(&session, capture("Static", Some("p1"))).await;
    assert_eq!(received(&outbox), vec![("error".to_owned(), "connectDevice".to_owned())]);

    let (link, _rx) = DeviceLink::new(1);
    let connected = registry.call(|reply| RegistryMsg::Connect { device_id: "bed".into(), link, reply }, None).await.expect("answered");
    let ractor::rpc::CallResult::Success(Ok(bed)) = connected else { panic!("bed not connected") };
    bed.actor
        .cast(MatMsg::Frame(FrameIn { seq: 1, device_time_ms: 0, rows: 48, cols: 48, format: CellFormat::U8, cells: body() }))
        .expect("frame");
    send(&session, capture("Static", None)).await;
    send(&session, capture("Sideways", Some("p1"))).await;
    let errors: Vec<String> = received(&outbox).into_iter().filter(|(e, _)| e == "error").map(|(_, code)| code).collect();
    assert_eq!(errors, vec!["patientSelected", "invalidAnalysisType"]);

    send(&session, capture("Static", Some("p1"))).await;
    send(&session, ClientEvent::StartStreaming { device_id: "bed".into(), seconds: 180 }).await;
    send(&session, ClientEvent::AttendAlarm { device_id: "bed".into(), alarm_id: Some(5) }).await;
    let out = received(&outbox);
    assert!(out.contains(&("capture".to_owned(), "announced".to_owned())), "{out:?}");
    let errors: Vec<String> = out.into_iter().filter(|(e, _)| e == "error").map(|(_, code)| code).collect();
    assert_eq!(errors, vec!["onGoing", "failedToBeAttended"]);
    registry.stop(None);
}

#[tokio::test]
async fn a_ward_screens_session_follows_only_its_units_devices_and_acts_on_none() {
    let device = |id: &str| DeviceInfo {
        id: id.into(),
        serial: format!("SN-{id}"),
        company_id: "c1".into(),
        device_type: DeviceType::MattressMatIoT,
        name: id.into(),
        parent: None,
        members: Vec::new(),
        secret_hash: String::new(),
        functional: false,
        patient_status: PatientStatus::Correct,
    };
    let catalog = Catalog::new([device("in-unit"), device("elsewhere")]);
    let (bus, registry, outbox) = registry_of(&catalog).await;
    let scope: DeviceScope = Arc::new([Arc::<str>::from("in-unit")].into_iter().collect());
    let args = SessionArgs {
        id: 2,
        user_id: "screen1".into(),
        company_id: "c1".into(),
        outbox: outbox.clone(),
        bus: bus.clone(),
        catalog,
        registry: registry.clone(),
        board_scope: Some(scope),
    };
    let (session, _) = Actor::spawn(None, SessionActor, args).await.expect("session");
    send(&session, ClientEvent::JoinUser { device_id: "in-unit".into() }).await;
    send(&session, ClientEvent::JoinUser { device_id: "elsewhere".into() }).await;
    send(&session, ClientEvent::AttendAlarm { device_id: "in-unit".into(), alarm_id: None }).await;
    send(&session, ClientEvent::StartStreaming { device_id: "in-unit".into(), seconds: 60 }).await;
    send(&session, capture("Static", Some("p1"))).await;
    let errors: Vec<String> = received(&outbox).into_iter().filter(|(e, _)| e == "error").map(|(_, code)| code).collect();
    assert_eq!(errors, vec!["deviceNotFound", "readOnly", "readOnly", "readOnly"]);
    // Joining the company: its unit's statuses and alarms only.
    send(&session, ClientEvent::JoinCompany {}).await;
    received(&outbox);
    bus.company("c1").broadcast("elsewhere", bytes::Bytes::from_static(b"not for the screen"));
    assert!(outbox.try_recv().unwrap().is_none());
    bus.company("c1").broadcast("in-unit", bytes::Bytes::from_static(b"for the screen"));
    assert_eq!(outbox.try_recv().unwrap(), Some(bytes::Bytes::from_static(b"for the screen")));
    registry.stop(None);
}

/// A Sensing Horse (parent `horse`, sides `left` and `right`) in company c1.
fn horse_catalog() -> Arc<Catalog> {
    let info = |id: &str, device_type, parent: Option<(Arc<str>, usize)>, members: Vec<Arc<str>>| DeviceInfo {
        id: id.into(),
        serial: format!("SN-{id}"),
        company_id: "c1".into(),
        device_type,
        name: id.into(),
        parent,
        members,
        secret_hash: String::new(),
        functional: false,
        patient_status: PatientStatus::Correct,
    };
    Catalog::new([
        info("horse", DeviceType::SensingHorse, None, vec!["left".into(), "right".into()]),
        info("left", DeviceType::SensingHorseSubdevice, Some(("horse".into(), 0)), Vec::new()),
        info("right", DeviceType::SensingHorseSubdevice, Some(("horse".into(), 1)), Vec::new()),
    ])
}

/// Every `Stream` command a side's link received.
fn stream_commands(rx: &mut tokio::sync::mpsc::Receiver<mat_protocol::HubMessage>) -> Vec<u32> {
    std::iter::from_fn(|| rx.try_recv().ok())
        .filter_map(|m| match m {
            mat_protocol::HubMessage::Command(c) => match c.command {
                mat_protocol::Command::Stream { seconds } => Some(seconds),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn the_horse_streams_both_sides_or_says_a_side_is_offline() {
    let catalog = horse_catalog();
    let (bus, registry, outbox) = registry_of(&catalog).await;
    let args = SessionArgs {
        id: 1,
        user_id: "u1".into(),
        company_id: "c1".into(),
        outbox: outbox.clone(),
        bus,
        catalog,
        registry: registry.clone(),
        board_scope: None,
    };
    let (session, _) = Actor::spawn(None, SessionActor, args).await.expect("session");
    let connect = |id: &'static str, connection: u64| {
        let registry = registry.clone();
        async move {
            let (link, rx) = DeviceLink::new(connection);
            let connected =
                registry.call(|reply| RegistryMsg::Connect { device_id: id.into(), link, reply }, None).await.expect("answered");
            let ractor::rpc::CallResult::Success(Ok(side)) = connected else { panic!("{id} not connected") };
            let frame = FrameIn { seq: 1, device_time_ms: 0, rows: 24, cols: 24, format: CellFormat::U8, cells: vec![40; 24 * 24] };
            side.actor.cast(MatMsg::Frame(frame)).expect("frame");
            rx
        }
    };
    let start = ClientEvent::StartStreaming { device_id: "horse".into(), seconds: 180 };

    // Only the left side is connected: refused, and the left side is not streamed alone.
    let mut left = connect("left", 1).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    send(&session, start.clone()).await;
    assert_eq!(received(&outbox), vec![("error".to_owned(), SETS_SENSORS_OFFLINE.to_owned())]);
    assert_eq!(stream_commands(&mut left), Vec::<u32>::new());

    // Both sides: each is streamed (180 s + the hub's 5), and the horse's remaining time is theirs.
    let mut right = connect("right", 2).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    send(&session, start).await;
    send(&session, ClientEvent::StreamingRemaining { device_id: "horse".into() }).await;
    let out = received(&outbox);
    assert!(out.iter().all(|(event, _)| event != "error"), "{out:?}");
    assert!(out.iter().any(|(event, _)| event == "streamingRemaining"), "{out:?}");
    assert_eq!(stream_commands(&mut left), vec![185]);
    assert_eq!(stream_commands(&mut right), vec![185]);

    // Stopping the horse stops both sides.
    send(&session, ClientEvent::StartStreaming { device_id: "horse".into(), seconds: 0 }).await;
    assert_eq!((stream_commands(&mut left), stream_commands(&mut right)), (vec![0], vec![0]));
    registry.stop(None);
}
