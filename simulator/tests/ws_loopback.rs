//! The WebSocket device client against a tiny tokio-tungstenite hub on loopback: the `/ingest`
//! path, unframed messages, hello, seq, the stream command changing the rate, acks, refusals.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{HubSide, assert_consecutive, collect};
use mat_protocol::{CellFormat, Command, DeviceMessage, ErrorCode};
use simulator::{DeviceSpec, Rate, SimError, SimStats, Transport, run_device};
use tokio::net::TcpListener;
use tokio_tungstenite::tungstenite::handshake::server::{Request, Response};

// The callback's error type is tungstenite's HTTP response, as its API dictates.
#[allow(clippy::result_large_err)]
async fn accept_ws(listener: &TcpListener) -> (HubSide, String) {
    let (stream, _) = tokio::time::timeout(Duration::from_secs(5), listener.accept()).await.expect("connection in time").expect("accept");
    let path = Arc::new(Mutex::new(String::new()));
    let seen = path.clone();
    let ws = tokio_tungstenite::accept_hdr_async(stream, move |request: &Request, response: Response| {
        if let Ok(mut p) = seen.lock() {
            *p = request.uri().path().to_owned();
        }
        Ok(response)
    })
    .await
    .expect("upgrade");
    let path = path.lock().map(|p| p.clone()).unwrap_or_default();
    (HubSide::Ws(Box::new(ws)), path)
}

#[tokio::test]
async fn hello_frames_stream_command_and_ack_over_websocket() {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("ws://{}/ingest", listener.local_addr().expect("addr"));
    let stats = Arc::new(SimStats::default());
    let (stop, shutdown) = tokio::sync::watch::channel(false);
    let mut spec = DeviceSpec::new("SIM-W1", "w-secret", "Force Mat").expect("preset");
    spec.rate = Rate::Follow { monitor_hz: 4.0, live_hz: 40.0 };
    let device = tokio::spawn(run_device(spec, Transport::WebSocket { url }, stats.clone(), shutdown));

    let (mut hub, path) = accept_ws(&listener).await;
    assert_eq!(path, "/ingest");
    let DeviceMessage::Hello(hello) = hub.read().await else { panic!("hello expected first") };
    assert_eq!((hello.serial.as_str(), hello.secret.as_str(), hello.device_type.as_str()), ("SIM-W1", "w-secret", "Force Mat"));
    assert_eq!((hello.rows, hello.cols, hello.cell_format), (1, 4, CellFormat::U16Le));
    // By default the simulator speaks version 2 and sends its cells as runs (the test hub reads both).
    assert_eq!(hello.version, mat_protocol::PROTOCOL_VERSION);
    hub.welcome("dev-w1").await;

    let monitor = collect(&mut hub, Duration::from_millis(1_000)).await;
    // At most 4 Hz; a loaded machine may send fewer, never more.
    assert!((1..=7).contains(&monitor.seqs.len()), "monitoring frames {:?}", monitor.seqs);
    assert_consecutive(&monitor.seqs);
    assert!(monitor.cells_len.iter().all(|&n| n == 8));

    hub.command(3, Command::Stream { seconds: 30 }).await;
    let live = collect(&mut hub, Duration::from_millis(800)).await;
    assert_eq!(live.acks.len(), 1);
    assert!(live.acks[0].ok && live.acks[0].command_id == 3);
    // Behaviour, not speed: clearly above the 4 Hz monitoring rate (3 frames in 800 ms).
    assert!(live.seqs.len() >= 7, "live frames {}", live.seqs.len());
    assert_consecutive(&live.seqs);

    hub.command(4, Command::Stream { seconds: 0 }).await;
    let _settle = collect(&mut hub, Duration::from_millis(150)).await;
    let back = collect(&mut hub, Duration::from_millis(1_000)).await;
    assert!(back.seqs.len() <= 7, "after stop {}", back.seqs.len());

    stop.send(true).expect("stop");
    let result = tokio::time::timeout(Duration::from_secs(2), device).await.expect("stops promptly").expect("join");
    assert!(result.is_ok(), "{result:?}");
    // The device closes the socket on shutdown.
    assert!(tokio::time::timeout(Duration::from_secs(2), hub.try_read()).await.expect("closed in time").is_none());
    let s = stats.snapshot();
    assert_eq!((s.connects, s.commands, s.acks, s.connected), (1, 2, 2, 0));
}

#[tokio::test]
async fn unknown_serial_is_fatal_over_websocket_but_shutting_down_is_retried() {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("ws://{}/ingest", listener.local_addr().expect("addr"));
    let stats = Arc::new(SimStats::default());
    let (_stop, shutdown) = tokio::sync::watch::channel(false);
    let spec = DeviceSpec::new("SIM-W2", "x", "Seating Mat IoT").expect("preset");
    let device = tokio::spawn(run_device(spec, Transport::WebSocket { url }, stats.clone(), shutdown));

    // A hub that is shutting down: the device comes back.
    let (mut hub, _) = accept_ws(&listener).await;
    assert!(matches!(hub.read().await, DeviceMessage::Hello(_)));
    hub.refuse(ErrorCode::ShuttingDown).await;
    hub.close().await;
    // Then a hub that does not know the serial: the device gives up.
    let (mut hub, _) = accept_ws(&listener).await;
    assert!(matches!(hub.read().await, DeviceMessage::Hello(_)));
    hub.refuse(ErrorCode::UnknownSerial).await;
    let result = tokio::time::timeout(Duration::from_secs(3), device).await.expect("ends promptly").expect("join");
    assert!(matches!(result, Err(SimError::Refused { code: ErrorCode::UnknownSerial, .. })), "{result:?}");
    assert_eq!(stats.snapshot().refusals, 2);
}
