//! Simulated mats that send pre-rendered frames to the hub over QUIC or WebSocket ingest.
//!
//! Each mat speaks the device protocol (`docs/device-protocol.md`): hello, welcome, then one
//! frame per schedule slot from the shared [`FramePool`] (a copy and two patches, no synthesis,
//! no encoding), answering commands with acks. Connections that drop are reopened with the
//! protocol's backoff, over QUIC to the next of the hubs the welcome listed (a mat whose hub died
//! moves to a live one, as the simulator's devices do); a terminal refusal ends the mat.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use anyhow::{Result, anyhow, bail};
use bytes::Bytes;
use futures_util::{SinkExt, StreamExt};
use mat_protocol::{Ack, CellFormat, DeviceMessage, Hello, HubMessage, decode, decode_framed, encode, encode_framed};
use simulator::policy::{Backoff, HubChoice, Rate, RateControl};
use simulator::{DeviceSpec, QuicClient, SimStats, is_terminal, seed_from};
use tokio::sync::watch;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

use crate::frames::FramePool;
use crate::latency::SendLog;
use crate::schedule::{GeneratorStats, Schedule, first_slot_offset};

/// What the mats are doing: sending, quiet but connected (so in-flight frames can land before
/// the hub's counters are read), or closing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Send,
    Drain,
    Stop,
}

/// How mats reach the hub.
#[derive(Debug, Clone)]
pub enum Connector {
    /// QUIC on one shared client endpoint.
    Quic { client: QuicClient, addr: SocketAddr },
    /// WebSocket to `ws://HOST:PORT/ingest`.
    Ws { url: String },
}

/// One mat's identity and geometry.
#[derive(Debug, Clone)]
pub struct MatPlan {
    pub serial: String,
    pub secret: String,
    pub device_type: String,
    pub rows: u16,
    pub cols: u16,
    pub cell_format: CellFormat,
}

impl MatPlan {
    /// The plan of the device `spec` describes.
    pub fn of(spec: &DeviceSpec) -> Self {
        MatPlan {
            serial: spec.serial.clone(),
            secret: spec.secret.clone(),
            device_type: spec.device_type.clone(),
            rows: spec.rows,
            cols: spec.cols,
            cell_format: spec.cell_format,
        }
    }
}

/// What every mat of a run shares.
pub struct Fleet {
    pub pool: Arc<FramePool>,
    pub interval: Duration,
    pub stats: Arc<SimStats>,
    pub schedule: Arc<GeneratorStats>,
    /// The Unix time (µs) of `anchor`, to stamp frames with their slot's wall-clock time.
    pub anchor_unix_us: u64,
    pub anchor: Instant,
}

impl Fleet {
    /// Unix microseconds of a monotonic instant.
    pub fn unix_us(&self, at: Instant) -> u64 {
        self.anchor_unix_us + at.saturating_duration_since(self.anchor).as_micros() as u64
    }
}

/// How long to wait for a connection and for the welcome.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Keeps the fleet's `connected` gauge (and `connects` count) right however a session ends.
pub struct Connected(Arc<SimStats>);

impl Connected {
    pub fn new(stats: Arc<SimStats>) -> Self {
        stats.connected.fetch_add(1, Ordering::Relaxed);
        stats.connects.fetch_add(1, Ordering::Relaxed);
        Self(stats)
    }
}

impl Drop for Connected {
    fn drop(&mut self) {
        self.0.connected.fetch_sub(1, Ordering::Relaxed);
    }
}

/// How a session ended.
enum Ended {
    Stop,
    Dropped(String),
    Refused(String),
}

/// Runs mat `index` until [`Phase::Stop`]; `Err` when the hub refused it for good.
pub async fn run_mat(
    index: usize,
    plan: MatPlan,
    connector: Connector,
    fleet: Arc<Fleet>,
    log: Arc<SendLog>,
    mut phase: watch::Receiver<Phase>,
) -> Result<()> {
    let mut backoff = Backoff::new(seed_from(&plan.serial));
    let mut hubs = match &connector {
        Connector::Quic { addr, .. } => Some(HubChoice::new(addr.to_string())),
        Connector::Ws { .. } => None,
    };
    let mut seq = 0u64;
    let offset = first_slot_offset(index, fleet.interval);
    loop {
        if *phase.borrow() == Phase::Stop {
            return Ok(());
        }
        let session = async {
            let version = fleet.pool.encoding().protocol_version();
            let link = tokio::time::timeout(CONNECT_TIMEOUT, Link::open(&connector, hubs.as_ref(), &plan, version)).await;
            match link {
                Ok(Ok((mut link, listed))) => {
                    if let Some(hubs) = hubs.as_mut() {
                        hubs.on_welcome(&listed);
                    }
                    backoff.on_connected(std::time::Instant::now());
                    let end = stream(&mut link, index, offset, &mut seq, &fleet, &log, &mut phase).await;
                    link.close().await;
                    end
                }
                Ok(Err(Opened::Refused(why))) => Ended::Refused(why),
                Ok(Err(Opened::Failed(why))) => Ended::Dropped(why),
                Err(_) => Ended::Dropped("no connection or welcome within 10 s".to_owned()),
            }
        };
        match session.await {
            Ended::Stop => return Ok(()),
            Ended::Refused(why) => {
                fleet.stats.fatal.fetch_add(1, Ordering::Relaxed);
                bail!("{}: refused: {why}", plan.serial);
            }
            Ended::Dropped(why) => {
                fleet.stats.errors.fetch_add(1, Ordering::Relaxed);
                let delay = backoff.on_disconnected(std::time::Instant::now());
                let next = hubs.as_mut().map(|hubs| hubs.on_disconnected().to_owned());
                tracing::debug!(serial = %plan.serial, %why, ?delay, ?next, "reconnecting");
                tokio::select! {
                    _ = phase.wait_for(|p| *p == Phase::Stop) => return Ok(()),
                    () = tokio::time::sleep(delay) => {}
                }
            }
        }
    }
}

/// Welcomed: frames on the schedule, acks for commands, until the phase says stop.
async fn stream(
    link: &mut Link,
    index: usize,
    offset: Duration,
    seq: &mut u64,
    fleet: &Fleet,
    log: &SendLog,
    phase: &mut watch::Receiver<Phase>,
) -> Ended {
    let _connected = Connected::new(fleet.stats.clone());
    let mut rate = RateControl::new(Rate::Fixed { hz: 1.0 / fleet.interval.as_secs_f64() });
    let start = Instant::now() + offset;
    let mut schedule = Schedule::new(start, fleet.interval);
    let mut last_write_done = Instant::now();
    loop {
        let sending = *phase.borrow() == Phase::Send;
        let due = schedule.due();
        tokio::select! {
            biased;
            changed = phase.changed() => {
                if changed.is_err() || *phase.borrow() == Phase::Stop {
                    return Ended::Stop;
                }
            }
            message = link.recv() => match message {
                Ok(Some(HubMessage::Command(envelope))) => {
                    fleet.stats.commands.fetch_add(1, Ordering::Relaxed);
                    let outcome = rate.on_command(std::time::Instant::now(), &envelope.command);
                    let ack = DeviceMessage::Ack(Ack { command_id: envelope.id, ok: outcome.ok, reason: outcome.reason });
                    if let Err(e) = link.send_message(&ack).await {
                        return Ended::Dropped(e.to_string());
                    }
                    fleet.stats.acks.fetch_add(1, Ordering::Relaxed);
                }
                Ok(Some(HubMessage::Error(error))) if error.fatal => {
                    if is_terminal(error.code) {
                        return Ended::Refused(format!("{:?}: {}", error.code, error.message));
                    }
                    return Ended::Dropped(format!("{:?}: {}", error.code, error.message));
                }
                Ok(Some(_)) => {}
                Ok(None) => return Ended::Dropped("closed by the hub".to_owned()),
                Err(e) => return Ended::Dropped(e.to_string()),
            },
            () = tokio::time::sleep_until(due), if sending => {
                let woke = Instant::now();
                fleet.schedule.record_slot(due, woke, last_write_done);
                let slot_us = fleet.unix_us(due);
                let frame = fleet.pool.frame(index, *seq, slot_us / 1_000);
                log.record(*seq, slot_us);
                *seq += 1;
                let len = frame.len();
                if let Err(e) = link.send_frame(frame).await {
                    return Ended::Dropped(e.to_string());
                }
                last_write_done = Instant::now();
                fleet.stats.frames_sent.fetch_add(1, Ordering::Relaxed);
                fleet.stats.bytes_sent.fetch_add(len as u64, Ordering::Relaxed);
                fleet.schedule.record_skipped(schedule.advance(last_write_done));
            }
        }
    }
}

/// The socket address of a hub listed as `HOST:PORT`.
async fn resolve(hub: &str) -> Result<SocketAddr> {
    if let Ok(addr) = hub.parse() {
        return Ok(addr);
    }
    tokio::net::lookup_host(hub).await?.next().ok_or_else(|| anyhow!("{hub} resolves to no address"))
}

/// Why a connection could not be opened.
enum Opened {
    Refused(String),
    Failed(String),
}

/// An open, welcomed connection.
enum Link {
    Quic { conn: quinn::Connection, send: quinn::SendStream, recv: quinn::RecvStream, buf: Vec<u8> },
    Ws(Box<tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>>),
}

impl Link {
    /// Connects (over QUIC to the hub `hubs` chooses now), says hello in protocol `version` (the
    /// one of the pool's frame encoding) and waits for the welcome; answers the link and the hubs
    /// the welcome lists.
    async fn open(connector: &Connector, hubs: Option<&HubChoice>, plan: &MatPlan, version: u16) -> Result<(Self, Vec<String>), Opened> {
        let failed = |e: &dyn std::fmt::Display| Opened::Failed(e.to_string());
        let mut link = match connector {
            Connector::Quic { client, addr } => {
                let addr = match hubs {
                    Some(hubs) => resolve(hubs.current()).await.map_err(|e| failed(&e))?,
                    None => *addr,
                };
                let conn = client.connect(addr, "localhost").await.map_err(|e| failed(&e))?;
                let (send, recv) = conn.open_bi().await.map_err(|e| failed(&e))?;
                Link::Quic { conn, send, recv, buf: Vec::with_capacity(8 * 1024) }
            }
            Connector::Ws { url } => {
                let (ws, _) = tokio_tungstenite::connect_async_with_config(url, Some(crate::viewer::client_socket_config()), false)
                    .await
                    .map_err(|e| failed(&e))?;
                Link::Ws(Box::new(ws))
            }
        };
        let hello = DeviceMessage::Hello(Hello {
            version,
            serial: plan.serial.clone(),
            secret: plan.secret.clone(),
            device_type: plan.device_type.clone(),
            rows: plan.rows,
            cols: plan.cols,
            cell_format: plan.cell_format,
            firmware: "loadtests".to_owned(),
        });
        link.send_message(&hello).await.map_err(|e| failed(&e))?;
        match link.recv().await {
            Ok(Some(HubMessage::Welcome(welcome))) => Ok((link, welcome.hubs)),
            Ok(Some(HubMessage::Error(error))) if is_terminal(error.code) => {
                Err(Opened::Refused(format!("{:?}: {}", error.code, error.message)))
            }
            Ok(Some(other)) => Err(Opened::Failed(format!("expected a welcome, got {other:?}"))),
            Ok(None) => Err(Opened::Failed("closed before the welcome".to_owned())),
            Err(e) => Err(failed(&e)),
        }
    }

    async fn send_message(&mut self, message: &DeviceMessage) -> Result<()> {
        let body = encode(message);
        match self {
            Link::Quic { send, .. } => send.write_all(&encode_framed(&body)).await?,
            Link::Ws(ws) => ws.send(Message::Binary(body.into())).await?,
        }
        Ok(())
    }

    /// Sends a pre-encoded frame (length-prefixed for QUIC, bare for WebSocket).
    async fn send_frame(&mut self, frame: Bytes) -> Result<()> {
        match self {
            Link::Quic { send, .. } => send.write_chunk(frame).await?,
            Link::Ws(ws) => ws.send(Message::Binary(frame)).await?,
        }
        Ok(())
    }

    /// The next message from the hub; `None` when it closed. Cancel-safe.
    async fn recv(&mut self) -> Result<Option<HubMessage>> {
        match self {
            Link::Quic { recv, buf, .. } => loop {
                if let Some((body, total)) = decode_framed(buf)? {
                    let message = decode(&buf[body]);
                    buf.drain(..total);
                    return Ok(Some(message?));
                }
                let mut chunk = [0u8; 4096];
                match recv.read(&mut chunk).await {
                    Ok(Some(n)) => buf.extend_from_slice(&chunk[..n]),
                    Ok(None) | Err(quinn::ReadError::ConnectionLost(quinn::ConnectionError::ApplicationClosed(_))) => return Ok(None),
                    Err(e) => return Err(e.into()),
                }
            },
            Link::Ws(ws) => loop {
                match ws.next().await {
                    None | Some(Ok(Message::Close(_))) => return Ok(None),
                    Some(Ok(Message::Binary(bytes))) => return Ok(Some(decode(&bytes)?)),
                    Some(Ok(Message::Text(_))) => return Err(anyhow!("text message on the ingest socket")),
                    Some(Ok(_)) => continue,
                    Some(Err(e)) => return Err(e.into()),
                }
            },
        }
    }

    async fn close(self) {
        match self {
            Link::Quic { conn, mut send, .. } => {
                let _ = send.finish();
                conn.close(0u32.into(), b"loadtests done");
            }
            Link::Ws(mut ws) => {
                let _ = tokio::time::timeout(Duration::from_secs(1), ws.close()).await;
            }
        }
    }
}
