//! Per-frame costs on a 48×48 map: decoding a device frame, the presence check, the posture
//! classifier (alone and with presence: the budget for both is 10 µs), the whole mat machine step,
//! encoding the browser message, and publishing a live map as the mat actor does after its step;
//! then what ingest does with a frame's bytes (`ingest …`: the old copy-and-decode against the
//! borrowed read of protocol versions 1 and 2) and the whole in-process path of one frame from
//! its received bytes to the viewers (`frame path …`). Results go to docs/performance.md.
#![allow(clippy::unwrap_used)] // A benchmark may unwrap: a failure is a panic.

use std::hint::black_box;
use std::time::{Duration, Instant};

use std::sync::Arc;

use actors::actor::publish::publish_map;
use actors::browser::{PressureMapEvent, encode_event, events};
use actors::fanout::{Bus, Outbox, Viewer};
use actors::live_board::{LiveBoard, LiveMap};
use actors::metrics::HubMetrics;
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use mat_core::machine::mat::{MatConfig, MatMachine};
use mat_core::machine::posture::{Orientation, PostureClassifier, PostureScheme};
use mat_core::machine::presence::{Presence, PresenceDetector, PresenceScale};
use mat_core::machine::pressure_map::PressureMap;
use mat_core::machine::status::PatientStatus;
use mat_protocol::device_type::DeviceType;
use mat_protocol::frame_message::{FrameRead, read_frame};
use mat_protocol::{self as protocol, CellFormat, DeviceMessage, Frame, FrameEncoding, encode_frame};

/// A lying body: an ellipse of pressure with a smooth falloff and some texture.
fn body_map() -> Vec<u8> {
    let mut cells = vec![0u8; 48 * 48];
    for r in 0..48 {
        for c in 0..48 {
            let (dy, dx) = ((r as f64 - 24.0) / 18.0, (c as f64 - 24.0) / 8.0);
            let d = dy * dy + dx * dx;
            if d < 1.0 {
                cells[r * 48 + c] = (40.0 + 200.0 * (1.0 - d) * (0.6 + 0.4 * ((r * 7 + c * 3) % 5) as f64 / 4.0)) as u8;
            }
        }
    }
    cells
}

fn benches(c: &mut Criterion) {
    let cells = body_map();
    let encoded = protocol::encode(&DeviceMessage::Frame(Frame { seq: 42, device_time_ms: 1_763_779_200_000, cells: cells.clone() }));

    c.bench_function("decode 48x48 frame", |b| b.iter(|| protocol::decode::<DeviceMessage>(black_box(&encoded)).unwrap()));

    let map = PressureMap::new(48, 48, CellFormat::U8, &cells).unwrap();
    let mut detector = PresenceDetector::new();
    assert_eq!(detector.check(&map), Presence::Present);
    c.bench_function("presence 48x48", |b| b.iter(|| detector.check(black_box(&map))));
    // As a Mattress Mat IoT reads it: 0.4 mmHg steps, two-step floor, the whole-bed load rule.
    let mut bed = PresenceDetector::with_scale(PresenceScale::for_device(DeviceType::MattressMatIoT));
    assert_eq!(bed.check(&map), Presence::Present);
    c.bench_function("presence 48x48 bed scale", |b| b.iter(|| bed.check(black_box(&map))));

    let classifier = PostureClassifier::new(PostureScheme::Lying, Orientation::default());
    assert!(classifier.classify(&map).is_some());
    c.bench_function("posture 48x48", |b| b.iter(|| classifier.classify(black_box(&map))));
    c.bench_function("presence + posture 48x48", |b| b.iter(|| (detector.check(black_box(&map)), classifier.classify(black_box(&map)))));

    let mut machine = MatMachine::new(MatConfig {
        device_type: DeviceType::MattressMatIoT,
        functional: true,
        patient_status: PatientStatus::Correct,
        absence_delay: Duration::from_secs(30),
    });
    let t0 = Instant::now();
    let mut tick = 0u64;
    c.bench_function("mat machine step 48x48", |b| {
        b.iter(|| {
            tick += 1;
            let presence = machine.handle_frame(t0 + Duration::from_millis(tick * 100), black_box(&map));
            while machine.poll_output().is_some() {}
            presence
        })
    });

    c.bench_function("encode pressureMap event 48x48", |b| {
        b.iter(|| {
            encode_event(
                events::PRESSURE_MAP,
                PressureMapEvent {
                    device_id: "abcdefghij0123456789",
                    seq: 42,
                    device_time_ms: 1,
                    hub_time_ms: 2,
                    rows: 48,
                    cols: 48,
                    bytes_per_cell: 1,
                    cells: black_box(&cells),
                    presence: Presence::Present,
                    blank: false,
                },
            )
        })
    });

    // What the mat actor does with a frame around its machine step, with one viewer watching: the
    // frame's cells (a fresh vector each time, as ingest decodes them; made outside the timing)
    // are checked, become the board's latest map, are encoded once into the event and pushed into
    // the viewer's outbox.
    let bus = Bus::new();
    let board = LiveBoard::new();
    let channel = bus.device("abcdefghij0123456789", "c1");
    let live = board.device("c1", "abcdefghij0123456789");
    channel.join(Viewer::new(1, Outbox::new(Arc::new(HubMetrics::default()))));
    c.bench_function("publish live map 48x48", |b| {
        b.iter_batched(
            || cells.clone(),
            |cells| {
                black_box(PressureMap::new(48, 48, CellFormat::U8, &cells).expect("48×48"));
                let mut map = LiveMap::new(48, 48, CellFormat::U8, cells).expect("48×48");
                (map.seq, map.device_time_ms, map.hub_time_ms, map.presence) = (42, 1, 2, Presence::Present);
                publish_map(&live, &channel, map);
            },
            BatchSize::SmallInput,
        )
    });
}

/// What ingest and the mat actor do with one received 48×48 frame, up to the viewers' outboxes.
fn ingest_benches(c: &mut Criterion) {
    let cells = body_map();
    let dense = encode_frame(42, 1_763_779_200_000, &cells, FrameEncoding::Dense);
    let runs = encode_frame(42, 1_763_779_200_000, &cells, FrameEncoding::Runs);
    let active = cells.iter().filter(|&&c| c > 0).count();
    eprintln!("48x48 body map: {active} non-zero cells; frame message {} bytes dense (v1), {} bytes as runs (v2)", dense.len(), runs.len());

    // Before: the QUIC transport copied the body out of its buffer, then the generic decode
    // (serde's tagged enum) copied the cells again.
    let decode_before = |body: &[u8]| {
        let copied = black_box(body.to_vec());
        match protocol::decode::<DeviceMessage>(&copied).unwrap() {
            DeviceMessage::Frame(frame) => frame,
            _ => unreachable!("a frame"),
        }
    };
    let read_after = |body: &[u8], version: u16| match read_frame(body, version, 48 * 48) {
        FrameRead::Frame(frame) => frame,
        other => panic!("{other:?}"),
    };
    assert_eq!(decode_before(&dense), read_after(&runs, 2));
    c.bench_function("ingest decode v1 frame, before (copy + generic decode)", |b| b.iter(|| decode_before(black_box(&dense))));
    c.bench_function("ingest read v1 frame (borrowed view)", |b| b.iter(|| read_after(black_box(&dense), 1)));
    c.bench_function("ingest read v2 runs frame (borrowed view)", |b| b.iter(|| read_after(black_box(&runs), 2)));

    // The whole path of the mat actor's `handle_frame` after decoding, with one viewer: the
    // tare in place, presence and the machine step, the live map on the board and to the viewer.
    let bus = Bus::new();
    let board = LiveBoard::new();
    let channel = bus.device("abcdefghij0123456789", "c1");
    let live = board.device("c1", "abcdefghij0123456789");
    channel.join(Viewer::new(1, Outbox::new(Arc::new(HubMetrics::default()))));
    let mut machine = MatMachine::new(MatConfig {
        device_type: DeviceType::MattressMatIoT,
        functional: true,
        patient_status: PatientStatus::Correct,
        absence_delay: Duration::from_secs(30),
    });
    let t0 = Instant::now();
    let mut tick = 0u64;
    let mut actor_step = |frame: Frame| {
        tick += 1;
        let now = t0 + Duration::from_millis(tick * 100);
        let mut cells = frame.cells;
        machine.tare_frame(now, 1_763_779_200_000 + tick * 100, 48, 48, CellFormat::U8, &mut cells);
        let mut map = LiveMap::new(48, 48, CellFormat::U8, cells).expect("48×48");
        let presence = machine.handle_frame(now, &map.pressure_map());
        while machine.poll_output().is_some() {}
        (map.seq, map.device_time_ms, map.hub_time_ms, map.presence) = (frame.seq, frame.device_time_ms, 2, presence);
        publish_map(&live, &channel, map);
    };
    c.bench_function("frame path v1, before (copy + generic decode + actor step + publish)", |b| {
        b.iter(|| actor_step(decode_before(black_box(&dense))))
    });
    c.bench_function("frame path v2 runs (borrowed read + actor step + publish)", |b| {
        b.iter(|| actor_step(read_after(black_box(&runs), 2)))
    });
}

criterion_group!(frame_path, benches, ingest_benches);
criterion_main!(frame_path);
