//! Black-box device ingest over QUIC and WebSocket on loopback: a good device, an unknown
//! serial, a wrong secret, garbage bytes and an oversized message. None of them may crash or
//! stall the hub or another device.
#![allow(clippy::unwrap_used)] // A test's helpers may unwrap: the panic is the failure it reports.

mod common;

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use common::raw_quic::RawQuic;
use common::*;
use futures_util::{SinkExt, StreamExt};
use mat_protocol::{self as protocol, DeviceMessage, ErrorCode, Frame, FrameEncoding, HubMessage, MAX_MESSAGE_BYTES, PROTOCOL_VERSION};
use tokio_tungstenite::tungstenite::Message;

fn frame(seq: u64) -> DeviceMessage {
    DeviceMessage::Frame(Frame { seq, device_time_ms: seq, cells: vec![(seq % 200) as u8; 48 * 48] })
}

fn error_code(message: Option<HubMessage>) -> (ErrorCode, bool) {
    match message {
        Some(HubMessage::Error(e)) => (e.code, e.fatal),
        other => panic!("expected an error, got {other:?}"),
    }
}

#[tokio::test]
async fn a_good_device_is_welcomed_and_its_frames_are_processed() {
    let hub = start(&["Mattress Mat IoT"]).await;
    let device = &hub.devices[0];
    let mut quic = RawQuic::connect(hub.hub.quic_addr, &hub.hub.cert_path).await;
    quic.send(&hello(device, &device.secret)).await;
    match quic.recv().await {
        Some(HubMessage::Welcome(w)) => {
            assert_eq!(w.device_id, device.id);
            assert_eq!(w.version, PROTOCOL_VERSION);
        }
        other => panic!("expected a welcome, got {other:?}"),
    }
    for seq in 0..5 {
        quic.send(&frame(seq)).await;
    }
    let metrics = hub.hub.metrics.clone();
    assert!(eventually(Duration::from_secs(5), || metrics.frames_processed.load(Ordering::Relaxed) == 5).await);
    assert_eq!(metrics.devices_connected.load(Ordering::Relaxed), 1);
}

#[tokio::test]
async fn unknown_serials_and_wrong_secrets_are_refused_with_their_codes() {
    let hub = start(&["Mattress Mat IoT"]).await;
    let device = hub.devices[0].clone();
    let unknown = SeededDevice { serial: "NOT-REGISTERED".into(), ..device.clone() };
    let mut quic = RawQuic::connect(hub.hub.quic_addr, &hub.hub.cert_path).await;
    quic.send(&hello(&unknown, &device.secret)).await;
    assert_eq!(error_code(quic.recv().await), (ErrorCode::UnknownSerial, true));

    let mut quic = RawQuic::connect(hub.hub.quic_addr, &hub.hub.cert_path).await;
    quic.send(&hello(&device, "wrong-secret")).await;
    assert_eq!(error_code(quic.recv().await), (ErrorCode::BadSecret, true));

    let mut quic = RawQuic::connect(hub.hub.quic_addr, &hub.hub.cert_path).await;
    quic.send(&hello(&device, &device.serial)).await;
    assert_eq!(error_code(quic.recv().await), (ErrorCode::BadSecret, true), "the serial is not the secret");

    assert_eq!(hub.hub.metrics.device_connections_refused.load(Ordering::Relaxed), 3);
    assert_eq!(hub.hub.metrics.devices_connected.load(Ordering::Relaxed), 0);
}

#[tokio::test]
async fn garbage_is_counted_and_answered_and_the_device_goes_on() {
    let hub = start(&["Mattress Mat IoT"]).await;
    let device = &hub.devices[0];
    let mut quic = RawQuic::connect(hub.hub.quic_addr, &hub.hub.cert_path).await;
    quic.send(&hello(device, &device.secret)).await;
    assert!(matches!(quic.recv().await, Some(HubMessage::Welcome(_))));
    // A well-framed body that is not MessagePack.
    quic.send_raw(&protocol::encode_framed(&[0xc1, 0xff, 0x00, 0x42])).await;
    assert_eq!(error_code(quic.recv().await), (ErrorCode::Malformed, false));
    // A frame of the wrong size.
    quic.send(&DeviceMessage::Frame(Frame { seq: 1, device_time_ms: 1, cells: vec![1; 10] })).await;
    assert_eq!(error_code(quic.recv().await), (ErrorCode::ShapeMismatch, false));
    // A good frame still gets through.
    quic.send(&frame(2)).await;
    let metrics = hub.hub.metrics.clone();
    assert!(eventually(Duration::from_secs(5), || metrics.frames_processed.load(Ordering::Relaxed) == 1).await);
    assert_eq!(metrics.device_messages_malformed.load(Ordering::Relaxed), 2);
}

#[tokio::test]
async fn garbage_instead_of_a_hello_is_refused() {
    let hub = start(&["Mattress Mat IoT"]).await;
    let mut quic = RawQuic::connect(hub.hub.quic_addr, &hub.hub.cert_path).await;
    quic.send_raw(&protocol::encode_framed(b"definitely not msgpack")).await;
    let (code, fatal) = error_code(quic.recv().await);
    assert!(fatal);
    assert!(matches!(code, ErrorCode::Malformed | ErrorCode::HelloExpected), "{code:?}");
    assert_eq!(hub.hub.metrics.device_connections_refused.load(Ordering::Relaxed), 1);
}

#[tokio::test]
async fn an_oversized_quic_message_closes_only_that_connection() {
    let hub = start(&["Mattress Mat IoT", "Mattress Mat IoT"]).await;
    let (good, bad) = (&hub.devices[0], &hub.devices[1]);
    let mut good_quic = RawQuic::connect(hub.hub.quic_addr, &hub.hub.cert_path).await;
    good_quic.send(&hello(good, &good.secret)).await;
    assert!(matches!(good_quic.recv().await, Some(HubMessage::Welcome(_))));
    let mut bad_quic = RawQuic::connect(hub.hub.quic_addr, &hub.hub.cert_path).await;
    bad_quic.send(&hello(bad, &bad.secret)).await;
    assert!(matches!(bad_quic.recv().await, Some(HubMessage::Welcome(_))));
    // Announce a body one byte over the limit.
    bad_quic.send_raw(&((MAX_MESSAGE_BYTES + 1) as u32).to_be_bytes()).await;
    assert_eq!(error_code(bad_quic.recv().await), (ErrorCode::TooLarge, true));
    assert!(bad_quic.recv().await.is_none(), "the oversized connection is closed");
    // The other device is untouched.
    good_quic.send(&frame(1)).await;
    let metrics = hub.hub.metrics.clone();
    assert!(eventually(Duration::from_secs(5), || metrics.frames_processed.load(Ordering::Relaxed) == 1).await);
}

async fn ws_device(hub: &TestHub) -> tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>> {
    tokio_tungstenite::connect_async(format!("ws://{}/ingest", hub.http())).await.unwrap().0
}

async fn ws_recv(
    socket: &mut tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
) -> Option<HubMessage> {
    loop {
        match tokio::time::timeout(Duration::from_secs(5), socket.next()).await.ok()??.ok()? {
            Message::Binary(bytes) => return Some(protocol::decode(&bytes).unwrap()),
            Message::Close(_) => return None,
            _ => continue,
        }
    }
}

#[tokio::test]
async fn websocket_ingest_speaks_the_same_protocol() {
    let hub = start(&["Mattress Mat IoT"]).await;
    let device = &hub.devices[0];
    let mut socket = ws_device(&hub).await;
    socket.send(Message::binary(protocol::encode(&hello(device, &device.secret)))).await.unwrap();
    assert!(matches!(ws_recv(&mut socket).await, Some(HubMessage::Welcome(_))));
    socket.send(Message::binary(protocol::encode(&frame(1)))).await.unwrap();
    // Garbage and an oversized message are answered, and the socket stays usable.
    socket.send(Message::binary(vec![0xc1u8; 16])).await.unwrap();
    assert_eq!(error_code(ws_recv(&mut socket).await), (ErrorCode::Malformed, false));
    socket.send(Message::binary(vec![0u8; MAX_MESSAGE_BYTES + 1])).await.unwrap();
    assert_eq!(error_code(ws_recv(&mut socket).await), (ErrorCode::TooLarge, false));
    socket.send(Message::binary(protocol::encode(&frame(2)))).await.unwrap();
    let metrics = hub.hub.metrics.clone();
    assert!(eventually(Duration::from_secs(5), || metrics.frames_processed.load(Ordering::Relaxed) == 2).await);
    assert_eq!(metrics.device_messages_malformed.load(Ordering::Relaxed), 2);
}

#[tokio::test]
async fn websocket_refuses_a_wrong_secret() {
    let hub = start(&["Mattress Mat IoT"]).await;
    let device = &hub.devices[0];
    let mut socket = ws_device(&hub).await;
    socket.send(Message::binary(protocol::encode(&hello(device, "nope")))).await.unwrap();
    assert_eq!(error_code(ws_recv(&mut socket).await), (ErrorCode::BadSecret, true));
    assert!(ws_recv(&mut socket).await.is_none());
}

#[tokio::test]
async fn the_simulator_connects_over_quic_and_obeys_stream_commands() {
    let hub = start(&["Mattress Mat IoT"]).await;
    let (spec, transport) = hub.quic_device(&hub.devices[0]);
    let (_stop, stats) = hub.run_device(spec, transport);
    let metrics = hub.hub.metrics.clone();
    assert!(eventually(Duration::from_secs(10), || metrics.frames_processed.load(Ordering::Relaxed) >= 1).await);
    let before = stats.snapshot();
    assert!(before.frames_sent >= 1);
    assert_eq!(metrics.device_connections_refused.load(Ordering::Relaxed), 0);
}

#[tokio::test]
async fn a_websocket_text_message_is_answered_and_the_device_goes_on() {
    let hub = start(&["Mattress Mat IoT"]).await;
    let device = &hub.devices[0];
    let mut socket = ws_device(&hub).await;
    socket.send(Message::binary(protocol::encode(&hello(device, &device.secret)))).await.unwrap();
    assert!(matches!(ws_recv(&mut socket).await, Some(HubMessage::Welcome(_))));
    socket.send(Message::text("hello?")).await.unwrap();
    assert_eq!(error_code(ws_recv(&mut socket).await), (ErrorCode::Malformed, false));
    socket.send(Message::binary(protocol::encode(&frame(1)))).await.unwrap();
    let metrics = hub.hub.metrics.clone();
    assert!(eventually(Duration::from_secs(5), || metrics.frames_processed.load(Ordering::Relaxed) == 1).await);
}

/// A 48 × 48 map with a body's worth of loaded cells, most cells zero (as a bed reads).
fn bed_cells(seq: u64) -> Vec<u8> {
    let mut cells = vec![0u8; 48 * 48];
    for row in 10..38 {
        for col in 18..30 {
            cells[row * 48 + col] = 40 + ((row + col) as u64 + seq) as u8 % 150;
        }
    }
    cells
}

#[tokio::test]
async fn an_old_version_1_device_and_a_version_2_device_are_served_side_by_side() {
    let hub = start(&["Mattress Mat IoT", "Mattress Mat IoT"]).await;
    let (old, new) = (&hub.devices[0], &hub.devices[1]);
    let latest = |device: &SeededDevice| hub.hub.board.latest_map(&hub.company_id, &device.id);

    // A version 1 device: welcomed in version 1, its whole cells read as before.
    let mut v1 = RawQuic::connect(hub.hub.quic_addr, &hub.hub.cert_path).await;
    let DeviceMessage::Hello(hello_v1) = hello(old, &old.secret) else { unreachable!() };
    v1.send(&DeviceMessage::Hello(mat_protocol::Hello { version: 1, ..hello_v1 })).await;
    match v1.recv().await {
        Some(HubMessage::Welcome(w)) => assert_eq!(w.version, 1, "the connection speaks the hello's version"),
        other => panic!("expected a welcome, got {other:?}"),
    }
    v1.send_raw(&protocol::encode_framed(&protocol::encode_frame(1, 1, &bed_cells(1), FrameEncoding::Dense))).await;
    assert!(eventually(Duration::from_secs(5), || latest(old).is_some_and(|m| m.seq == 1)).await);
    assert_eq!(latest(old).unwrap().cells(), &bed_cells(1)[..]);
    // Runs are not version 1: the frame lacks its cells, and the device goes on.
    v1.send_raw(&protocol::encode_framed(&protocol::encode_frame(2, 2, &bed_cells(2), FrameEncoding::Runs))).await;
    assert_eq!(error_code(v1.recv().await), (ErrorCode::Malformed, false));

    // A version 2 device: runs (one written in two pieces, as a stream may deliver it) and whole
    // cells both arrive as the same cells.
    let mut v2 = RawQuic::connect(hub.hub.quic_addr, &hub.hub.cert_path).await;
    v2.send(&hello(new, &new.secret)).await;
    match v2.recv().await {
        Some(HubMessage::Welcome(w)) => assert_eq!(w.version, PROTOCOL_VERSION),
        other => panic!("expected a welcome, got {other:?}"),
    }
    let runs = protocol::encode_framed(&protocol::encode_frame(5, 5, &bed_cells(5), FrameEncoding::Runs));
    assert!(runs.len() < 1_000, "a bed frame as runs is {} bytes", runs.len());
    v2.send_raw(&runs[..100]).await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    v2.send_raw(&runs[100..]).await;
    assert!(eventually(Duration::from_secs(5), || latest(new).is_some_and(|m| m.seq == 5)).await);
    assert_eq!(latest(new).unwrap().cells(), &bed_cells(5)[..]);
    // Two messages in one write: a dense frame and a runs frame.
    let mut both = protocol::encode_framed(&protocol::encode_frame(6, 6, &bed_cells(6), FrameEncoding::Dense));
    both.extend_from_slice(&protocol::encode_framed(&protocol::encode_frame(7, 7, &bed_cells(7), FrameEncoding::Runs)));
    v2.send_raw(&both).await;
    assert!(eventually(Duration::from_secs(5), || latest(new).is_some_and(|m| m.seq == 7)).await);
    assert_eq!(latest(new).unwrap().cells(), &bed_cells(7)[..]);
    // Runs that describe another length are a shape mismatch, not fatal.
    v2.send_raw(&protocol::encode_framed(&protocol::encode_frame(8, 8, &bed_cells(8)[..2000], FrameEncoding::Runs))).await;
    assert_eq!(error_code(v2.recv().await), (ErrorCode::ShapeMismatch, false));

    let metrics = hub.hub.metrics.clone();
    assert!(eventually(Duration::from_secs(5), || metrics.frames_processed.load(Ordering::Relaxed) == 4).await);
    assert_eq!(metrics.device_messages_malformed.load(Ordering::Relaxed), 2);

    // Over WebSocket too: a version 1 device's frame, then a version 2 device's runs.
    drop((v1, v2));
    for (device, version, encoding, seq) in [(old, 1, FrameEncoding::Dense, 11), (new, 2, FrameEncoding::Runs, 12)] {
        let mut socket = ws_device(&hub).await;
        let DeviceMessage::Hello(h) = hello(device, &device.secret) else { unreachable!() };
        socket.send(Message::binary(protocol::encode(&DeviceMessage::Hello(mat_protocol::Hello { version, ..h })))).await.unwrap();
        match ws_recv(&mut socket).await {
            Some(HubMessage::Welcome(w)) => assert_eq!(w.version, version),
            other => panic!("expected a welcome, got {other:?}"),
        }
        socket.send(Message::binary(protocol::encode_frame(seq, seq, &bed_cells(seq), encoding))).await.unwrap();
        assert!(eventually(Duration::from_secs(5), || latest(device).is_some_and(|m| m.seq == seq)).await);
        assert_eq!(latest(device).unwrap().cells(), &bed_cells(seq)[..]);
    }
}

#[tokio::test]
async fn the_simulator_speaks_version_1_when_told_to() {
    let hub = start(&["Mattress Mat IoT"]).await;
    let (spec, transport) = hub.quic_device(&hub.devices[0]);
    let (stop, shutdown) = tokio::sync::watch::channel(false);
    let stats = Arc::new(simulator::SimStats::default());
    let options = simulator::RunOptions { encoding: FrameEncoding::Dense, ..simulator::RunOptions::default() };
    tokio::spawn(simulator::run_device_with(spec, transport, stats.clone(), shutdown, options));
    let metrics = hub.hub.metrics.clone();
    assert!(eventually(Duration::from_secs(10), || metrics.frames_processed.load(Ordering::Relaxed) >= 2).await);
    // Whole cells: every frame written is more than its 2,304 cells.
    let sent = stats.snapshot();
    assert!(sent.bytes_sent >= sent.frames_sent * 2_304, "{sent:?}");
    assert_eq!(metrics.device_messages_malformed.load(Ordering::Relaxed), 0);
    let _ = stop.send(true);
}
