//! The QUIC device client against a tiny quinn hub on loopback: hello, framing, seq, the stream
//! command changing the rate, acks, refusals, reconnection and the shared endpoint.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::{HubSide, assert_consecutive, collect, quic_server, test_cert, unix_ms};
use mat_protocol::{CellFormat, Command, DeviceMessage, ErrorCode, PROTOCOL_VERSION};
use simulator::{DeviceSpec, QuicClient, Rate, SimError, SimStats, Transport, Trust, run_device};

fn spec(serial: &str, rate: Rate) -> DeviceSpec {
    let mut spec = DeviceSpec::new(serial, "s3cret", "Mattress Mat IoT").expect("preset");
    spec.rate = rate;
    spec
}

#[tokio::test]
async fn hello_frames_stream_command_and_ack() {
    let cert = test_cert();
    let (server, addr) = quic_server(&cert);
    let stats = Arc::new(SimStats::default());
    let (stop, shutdown) = tokio::sync::watch::channel(false);
    let transport = Transport::Quic { addr, server_name: "localhost".into(), trust: Trust::Der(cert.der.to_vec()) };
    let device =
        tokio::spawn(run_device(spec("SIM-Q1", Rate::Follow { monitor_hz: 5.0, live_hz: 50.0 }), transport, stats.clone(), shutdown));

    let mut hub = HubSide::accept_quic(&server).await;
    let DeviceMessage::Hello(hello) = hub.read().await else { panic!("hello expected first") };
    assert_eq!(hello.version, PROTOCOL_VERSION);
    assert_eq!(hello.serial, "SIM-Q1");
    assert_eq!(hello.secret, "s3cret");
    assert_eq!(hello.device_type, "Mattress Mat IoT");
    assert_eq!((hello.rows, hello.cols, hello.cell_format), (48, 48, CellFormat::U8));
    assert!(hello.firmware.starts_with("simulator/"));
    hub.welcome("dev-1").await;

    // Monitoring rate: 5 Hz.
    let monitor = collect(&mut hub, Duration::from_millis(1_000)).await;
    // At most 5 Hz; a loaded machine may send fewer, never more.
    assert!((1..=8).contains(&monitor.seqs.len()), "monitoring frames {:?}", monitor.seqs);
    assert_eq!(monitor.seqs.first(), Some(&0));
    assert_consecutive(&monitor.seqs);
    assert!(monitor.cells_len.iter().all(|&n| n == 48 * 48));
    let now = unix_ms();
    assert!(monitor.device_times.iter().all(|&t| t + 5_000 > now && t <= now + 1_000), "{:?} vs {now}", monitor.device_times);

    // Stream: 50 Hz, and the command is acknowledged.
    hub.command(7, Command::Stream { seconds: 60 }).await;
    let live = collect(&mut hub, Duration::from_millis(800)).await;
    assert_eq!(live.acks.len(), 1);
    assert_eq!((live.acks[0].command_id, live.acks[0].ok), (7, true));
    // Behaviour, not speed: the command must lift the rate clearly above monitoring (5 Hz would
    // give 4 frames in 800 ms; 50 Hz gives 40 on an idle machine).
    assert!(live.seqs.len() >= 8, "live frames {}", live.seqs.len());
    assert_eq!(live.seqs.first().copied(), monitor.seqs.last().map(|s| s + 1));
    assert_consecutive(&live.seqs);

    // Stream 0: back to monitoring.
    hub.command(8, Command::Stream { seconds: 0 }).await;
    let _settle = collect(&mut hub, Duration::from_millis(150)).await;
    let back = collect(&mut hub, Duration::from_millis(1_000)).await;
    assert!(back.seqs.len() <= 8, "after stop {}", back.seqs.len());

    let s = stats.snapshot();
    assert_eq!((s.connects, s.connected, s.refusals, s.commands, s.acks), (1, 1, 0, 2, 2));
    stop.send(true).expect("stop");
    let result = tokio::time::timeout(Duration::from_secs(2), device).await.expect("stops promptly").expect("join");
    assert!(result.is_ok(), "{result:?}");
    assert_eq!(stats.snapshot().connected, 0);
}

#[tokio::test]
async fn fatal_refusal_ends_the_device_without_retrying() {
    let cert = test_cert();
    let dir = std::env::temp_dir().join(format!("sim-quic-refusal-{}", std::process::id()));
    std::fs::write(&dir, &cert.pem).expect("write pem");
    let (server, addr) = quic_server(&cert);
    let stats = Arc::new(SimStats::default());
    let (_stop, shutdown) = tokio::sync::watch::channel(false);
    let transport = Transport::Quic { addr, server_name: "localhost".into(), trust: Trust::PemFile(dir.clone()) };
    let device = tokio::spawn(run_device(spec("SIM-Q2", Rate::Fixed { hz: 10.0 }), transport, stats.clone(), shutdown));

    let mut hub = HubSide::accept_quic(&server).await;
    assert!(matches!(hub.read().await, DeviceMessage::Hello(_)));
    hub.refuse(ErrorCode::BadSecret).await;
    let result = tokio::time::timeout(Duration::from_secs(3), device).await.expect("ends promptly").expect("join");
    let _ = std::fs::remove_file(&dir);
    assert!(matches!(result, Err(SimError::Refused { code: ErrorCode::BadSecret, .. })), "{result:?}");
    assert!(tokio::time::timeout(Duration::from_millis(700), server.accept()).await.is_err(), "no retry after a fatal refusal");
    let s = stats.snapshot();
    assert_eq!((s.refusals, s.fatal, s.connects, s.frames_sent), (1, 1, 0, 0));
}

#[tokio::test]
async fn reconnects_after_a_drop_and_seq_keeps_rising() {
    let cert = test_cert();
    let (server, addr) = quic_server(&cert);
    let stats = Arc::new(SimStats::default());
    let (stop, shutdown) = tokio::sync::watch::channel(false);
    let transport = Transport::Quic { addr, server_name: "localhost".into(), trust: Trust::InsecureSkipVerify };
    let device = tokio::spawn(run_device(spec("SIM-Q3", Rate::Fixed { hz: 20.0 }), transport, stats.clone(), shutdown));

    let mut first = HubSide::accept_quic(&server).await;
    assert!(matches!(first.read().await, DeviceMessage::Hello(_)));
    first.welcome("dev-3").await;
    let before = collect(&mut first, Duration::from_millis(300)).await;
    assert!(!before.seqs.is_empty());
    first.close().await;

    let started = tokio::time::Instant::now();
    let mut second = HubSide::accept_quic(&server).await;
    // The first backoff is at most 200 ms (plus the handshake).
    assert!(started.elapsed() < Duration::from_secs(2), "reconnected after {:?}", started.elapsed());
    let DeviceMessage::Hello(hello) = second.read().await else { panic!("hello expected") };
    assert_eq!(hello.serial, "SIM-Q3");
    second.welcome("dev-3").await;
    let after = collect(&mut second, Duration::from_millis(300)).await;
    let last_before = before.seqs.last().copied().unwrap_or(0);
    assert!(after.seqs.first().is_some_and(|&s| s > last_before), "{:?} then {:?}", before.seqs, after.seqs);
    assert_consecutive(&after.seqs);
    assert_eq!(stats.snapshot().connects, 2);

    stop.send(true).expect("stop");
    let result = tokio::time::timeout(Duration::from_secs(2), device).await.expect("stops promptly").expect("join");
    assert!(result.is_ok());
}

#[tokio::test]
async fn many_devices_share_one_endpoint() {
    let cert = test_cert();
    let (server, addr) = quic_server(&cert);
    let client = QuicClient::new(Trust::Der(cert.der.to_vec())).expect("client");
    let stats = Arc::new(SimStats::default());
    let (stop, shutdown) = tokio::sync::watch::channel(false);
    let mut devices = Vec::new();
    for serial in ["SIM-S1", "SIM-S2", "SIM-S3"] {
        let transport = Transport::QuicShared { client: client.clone(), addr, server_name: "localhost".into() };
        devices.push(tokio::spawn(run_device(spec(serial, Rate::Fixed { hz: 5.0 }), transport, stats.clone(), shutdown.clone())));
    }
    let mut remotes = Vec::new();
    let mut serials = Vec::new();
    for _ in 0..3 {
        let mut hub = HubSide::accept_quic(&server).await;
        remotes.push(hub.quic_remote());
        let DeviceMessage::Hello(hello) = hub.read().await else { panic!("hello expected") };
        serials.push(hello.serial);
    }
    serials.sort();
    assert_eq!(serials, vec!["SIM-S1", "SIM-S2", "SIM-S3"]);
    assert!(remotes.windows(2).all(|w| w[0] == w[1]), "one UDP socket for all devices: {remotes:?}");
    stop.send(true).expect("stop");
    for device in devices {
        let _ = tokio::time::timeout(Duration::from_secs(2), device).await.expect("stops promptly");
    }
}

#[tokio::test]
async fn shutdown_while_the_hub_is_unreachable_is_prompt() {
    // Nothing listens on this port: connection attempts time out or fail, and backoff runs.
    let socket = std::net::UdpSocket::bind("127.0.0.1:0").expect("bind");
    let addr = socket.local_addr().expect("addr");
    drop(socket);
    let stats = Arc::new(SimStats::default());
    let (stop, shutdown) = tokio::sync::watch::channel(false);
    let transport = Transport::Quic { addr, server_name: "localhost".into(), trust: Trust::InsecureSkipVerify };
    let device = tokio::spawn(run_device(spec("SIM-Q5", Rate::Fixed { hz: 5.0 }), transport, stats.clone(), shutdown));
    tokio::time::sleep(Duration::from_millis(400)).await;
    stop.send(true).expect("stop");
    let result = tokio::time::timeout(Duration::from_secs(1), device).await.expect("stops promptly").expect("join");
    assert!(result.is_ok());
    assert_eq!(stats.snapshot().connects, 0);
}
