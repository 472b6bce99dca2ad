//! The hub side of QUIC ingest, alone, in one process: the CPU one thread spends per frame to
//! receive N mats' frames over loopback and read them (`OpenConnection::read`, as the hub's ingest
//! does), with the UDP datagrams and ACKs behind it. No database, no actors, no viewers: the
//! transport's share of the hub's CPU per frame, measured without a full load test.
//!
//! The receiving thread runs a current-thread runtime with the endpoint and every connection task
//! (the hub runs its endpoint on a `quic-io` thread the same way); its CPU time is read from
//! `/proc/thread-self/schedstat` (nanoseconds on a CPU, kernel time of its syscalls included).
//! The mats are the load generator's (`FramePool`: pre-encoded frames, one copy and two patches
//! per frame) on the main runtime, with the devices' QUIC client configuration
//! (`simulator::client_config`).
//!
//! ```sh
//! cargo run --release -p loadtests --example quic_ingest_cost -- --mats 200 --rate 10 --seconds 10 --encoding dense
//! cargo run --release -p loadtests --example quic_ingest_cost -- --mats 200 --rate 10 --seconds 10 --encoding runs
//! ```
#![allow(clippy::unwrap_used, clippy::expect_used)] // A benchmark may unwrap: a failure is a panic.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use clap::Parser;
use loadtests_frames::{FramePool, Framing};
use mat_protocol::connection::{Incoming, OpenConnection, read_hello};
use mat_protocol::{ALPN, CellFormat, DeviceMessage, FrameEncoding, Hello, decode_framed, encode, encode_framed};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use simulator::{Scenario, Trust};
use tokio::sync::{mpsc, oneshot};

#[path = "../src/frames.rs"]
#[allow(dead_code)]
mod loadtests_frames;

#[derive(Parser)]
struct Args {
    /// Mats sending at once.
    #[arg(long, default_value_t = 200)]
    mats: usize,
    /// Frames per second per mat.
    #[arg(long, default_value_t = 10.0)]
    rate: f64,
    /// Measured seconds (after a 3 s warm-up).
    #[arg(long, default_value_t = 10.0)]
    seconds: f64,
    /// `dense` (cells, protocol 1) or `runs` (protocol 2).
    #[arg(long, default_value = "runs")]
    encoding: String,
    /// The devices ask the hub to ACK only after this many ack-eliciting packets (the ACK
    /// frequency extension); unset: quinn's default (every other packet).
    #[arg(long)]
    ack_threshold: Option<u32>,
    /// With `--ack-threshold`: the longest the hub may delay an ACK, ms (quinn clamps it to at
    /// most the larger of the RTT and 25 ms).
    #[arg(long)]
    max_ack_delay_ms: Option<u64>,
    /// The devices' initial MTU (quinn's default 1,200; their MTU discovery still runs).
    #[arg(long)]
    initial_mtu: Option<u16>,
}

/// What the receiving thread reports at a mark.
#[derive(Debug, Clone, Copy, Default)]
struct Mark {
    cpu_ns: u64,
    frames: u64,
    datagrams_rx: u64,
    datagrams_tx: u64,
    acks_tx: u64,
}

impl std::ops::Sub for Mark {
    type Output = Mark;
    fn sub(self, o: Mark) -> Mark {
        Mark {
            cpu_ns: self.cpu_ns - o.cpu_ns,
            frames: self.frames - o.frames,
            datagrams_rx: self.datagrams_rx - o.datagrams_rx,
            datagrams_tx: self.datagrams_tx - o.datagrams_tx,
            acks_tx: self.acks_tx - o.acks_tx,
        }
    }
}

/// Nanoseconds the calling thread has spent on a CPU.
fn thread_cpu_ns() -> u64 {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").expect("schedstat");
    stat.split_whitespace().next().and_then(|n| n.parse().ok()).expect("schedstat's first field")
}

fn server_config(cert: &CertificateDer<'static>, key: &PrivatePkcs8KeyDer<'static>) -> quinn::ServerConfig {
    // As hub/src/ingest/quic.rs configures it.
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut tls = rustls::ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![cert.clone()], PrivateKeyDer::Pkcs8(key.clone_key()))
        .unwrap();
    tls.alpn_protocols = vec![ALPN.to_vec()];
    let mut config = quinn::ServerConfig::with_crypto(Arc::new(quinn::crypto::rustls::QuicServerConfig::try_from(tls).unwrap()));
    let mut transport = quinn::TransportConfig::default();
    transport.max_idle_timeout(Some(Duration::from_secs(30).try_into().unwrap()));
    transport.max_concurrent_bidi_streams(1u32.into());
    transport.max_concurrent_uni_streams(0u32.into());
    config.transport_config(Arc::new(transport));
    config
}

/// One connection as the hub's ingest reads it: the hello, then every message through the open
/// connection; frames are counted.
async fn serve(connection: quinn::Connection, frames: Arc<AtomicU64>) {
    let Ok((_send, mut recv)) = connection.accept_bi().await else { return };
    let mut buffer = bytes::BytesMut::new();
    let mut open: Option<OpenConnection> = None;
    loop {
        while let Ok(Some((body, total))) = decode_framed(&buffer) {
            let message = buffer.split_to(total).freeze().slice(body);
            match &open {
                None => open = read_hello(&message).ok().map(|hello| OpenConnection::new(&hello)),
                Some(open) => match open.read(&message) {
                    Incoming::Frame(frame) => {
                        std::hint::black_box(frame);
                        frames.fetch_add(1, Ordering::Relaxed);
                    }
                    other => panic!("unexpected {other:?}"),
                },
            }
        }
        match recv.read_chunk(usize::MAX, true).await {
            Ok(Some(chunk)) => buffer.extend_from_slice(&chunk.bytes),
            _ => return,
        }
    }
}

/// Starts the receiving thread; returns its address and a channel asking it for marks.
fn start_receiver(config: quinn::ServerConfig) -> (SocketAddr, mpsc::Sender<oneshot::Sender<Mark>>) {
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("quic-io".into())
        .spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            runtime.block_on(async move {
                let endpoint = quinn::Endpoint::server(config, "127.0.0.1:0".parse().unwrap()).unwrap();
                let (marks_tx, mut marks) = mpsc::channel::<oneshot::Sender<Mark>>(4);
                ready_tx.send((endpoint.local_addr().unwrap(), marks_tx)).unwrap();
                let frames = Arc::new(AtomicU64::new(0));
                let mut connections = Vec::new();
                loop {
                    tokio::select! {
                        incoming = endpoint.accept() => {
                            let Some(incoming) = incoming else { return };
                            let connection = incoming.await.unwrap();
                            connections.push(connection.clone());
                            tokio::spawn(serve(connection, frames.clone()));
                        }
                        reply = marks.recv() => {
                            let Some(reply) = reply else { return };
                            let mut mark = Mark { cpu_ns: thread_cpu_ns(), frames: frames.load(Ordering::Relaxed), ..Mark::default() };
                            for c in &connections {
                                let stats = c.stats();
                                mark.datagrams_rx += stats.udp_rx.datagrams;
                                mark.datagrams_tx += stats.udp_tx.datagrams;
                                mark.acks_tx += stats.frame_tx.acks;
                            }
                            let _ = reply.send(mark);
                        }
                    }
                }
            });
        })
        .unwrap();
    ready_rx.recv().unwrap()
}

async fn mark(marks: &mpsc::Sender<oneshot::Sender<Mark>>) -> Mark {
    let (tx, rx) = oneshot::channel();
    marks.send(tx).await.unwrap();
    rx.await.unwrap()
}

fn client_config(cert: &CertificateDer<'static>, args: &Args) -> quinn::ClientConfig {
    let mut config = simulator::client_config(&Trust::Der(cert.to_vec())).unwrap();
    let mut transport = quinn::TransportConfig::default();
    transport.keep_alive_interval(Some(Duration::from_secs(5)));
    if let Some(mtu) = args.initial_mtu {
        transport.initial_mtu(mtu);
    }
    if let Some(threshold) = args.ack_threshold {
        let mut ack = quinn::AckFrequencyConfig::default();
        ack.ack_eliciting_threshold(threshold.into());
        ack.max_ack_delay(args.max_ack_delay_ms.map(Duration::from_millis));
        transport.ack_frequency_config(Some(ack));
    }
    config.transport_config(Arc::new(transport));
    config
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args = Args::parse();
    let encoding = FrameEncoding::from_name(&args.encoding).expect("--encoding dense or runs");
    let ck = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).unwrap();
    let cert = ck.cert.der().clone();
    let key = PrivatePkcs8KeyDer::from(ck.signing_key.serialize_der());
    let (addr, marks) = start_receiver(server_config(&cert, &key));

    let interval = Duration::from_secs_f64(1.0 / args.rate);
    let scenario = Scenario::from_name("bed").unwrap();
    let pool =
        Arc::new(FramePool::render("Mattress Mat IoT", 48, 48, CellFormat::U8, scenario, interval, Framing::LengthPrefixed, encoding));
    let mut endpoint = quinn::Endpoint::client("127.0.0.1:0".parse().unwrap()).unwrap();
    endpoint.set_default_client_config(client_config(&cert, &args));
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    for i in 0..args.mats {
        let (endpoint, pool, stop) = (endpoint.clone(), pool.clone(), stop.clone());
        tokio::spawn(async move {
            let connection = endpoint.connect(addr, "localhost").unwrap().await.unwrap();
            let (mut send, _recv) = connection.open_bi().await.unwrap();
            let hello = DeviceMessage::Hello(Hello {
                version: encoding.protocol_version(),
                serial: format!("BENCH-{i}"),
                secret: String::new(),
                device_type: "Mattress Mat IoT".into(),
                rows: 48,
                cols: 48,
                cell_format: CellFormat::U8,
                firmware: String::new(),
            });
            send.write_all(&encode_framed(&encode(&hello))).await.unwrap();
            // Spread the mats over the interval, as a fleet's clocks are.
            let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + interval.mul_f64(i as f64 / 997.0 % 1.0), interval);
            ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
            let mut seq = 0u64;
            while !stop.load(Ordering::Relaxed) {
                ticks.tick().await;
                send.write_chunk(pool.frame(i, seq, seq * 100)).await.unwrap();
                seq += 1;
            }
            connection.close(0u32.into(), b"done");
        });
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    let (start, started) = (mark(&marks).await, Instant::now());
    tokio::time::sleep(Duration::from_secs_f64(args.seconds)).await;
    let delta = mark(&marks).await - start;
    let elapsed = started.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    let per_frame = |n: u64| n as f64 / delta.frames.max(1) as f64;
    println!(
        "encoding {:?} (frame {} bytes with its prefix), {} mats × {} Hz, ack threshold {:?}, max ack delay {:?} ms, initial MTU {:?}",
        encoding,
        pool.frame_len(),
        args.mats,
        args.rate,
        args.ack_threshold,
        args.max_ack_delay_ms,
        args.initial_mtu
    );
    println!(
        "{} frames in {elapsed:.1} s ({:.0}/s): receiving thread {:.1} % of a core, {:.2} µs per frame; per frame {:.2} datagrams in, {:.2} out, {:.2} ACK frames out",
        delta.frames,
        delta.frames as f64 / elapsed,
        delta.cpu_ns as f64 / 1e7 / elapsed,
        delta.cpu_ns as f64 / 1e3 / delta.frames.max(1) as f64,
        per_frame(delta.datagrams_rx),
        per_frame(delta.datagrams_tx),
        per_frame(delta.acks_tx),
    );
}
