//! The device loop: connect, hello, stream frames at the chosen rate, obey and acknowledge
//! commands, reconnect with backoff (over QUIC, to the next of the hubs the welcome listed),
//! stop on shutdown or on a terminal refusal.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use mat_protocol::device_type::DeviceType;
use mat_protocol::{Ack, DeviceMessage, FrameEncoding, Hello, HubMessage, MAX_MESSAGE_BYTES, encode_frame};
use tokio::sync::watch;
use tokio::time::Instant;

use crate::SimError;
use crate::error::is_terminal;
use crate::link::{Link, LinkError};
use crate::policy::{Backoff, HubChoice, Pacer, RateControl};
use crate::quic::{QuicClient, Trust};
use crate::spec::DeviceSpec;
use crate::stats::{ConnectedGuard, SimStats};
use crate::synth::MapSynth;

/// Where and how a device reaches the hub.
#[derive(Debug, Clone)]
pub enum Transport {
    /// QUIC with a client endpoint of the device's own (fine for a handful of devices).
    Quic {
        /// The hub's QUIC address.
        addr: SocketAddr,
        /// TLS server name (`localhost` for the hub's self-signed certificate).
        server_name: String,
        /// Which certificate to trust.
        trust: Trust,
    },
    /// QUIC over a shared client endpoint: build one [`QuicClient`] and clone it into every
    /// device so a fleet uses one UDP socket.
    QuicShared {
        /// The shared endpoint.
        client: QuicClient,
        /// The hub's QUIC address.
        addr: SocketAddr,
        /// TLS server name.
        server_name: String,
    },
    /// WebSocket to `ws://HOST:PORT/ingest`.
    WebSocket {
        /// The ingest URL.
        url: String,
    },
}

/// Told about every frame a device sends (load tests measure latency with it).
pub trait FrameObserver: Send + Sync {
    /// The hub welcomed the device and gave it this id.
    fn welcomed(&self, _device_id: &str) {}
    /// Right after [`Self::welcomed`]: the welcoming hub's QUIC address, the first of the
    /// welcome's `hubs` (`None` from a hub alone, which lists nobody).
    fn welcomed_by(&self, _hub: Option<&str>) {}
    /// Frame `seq` stamped `device_time_ms` is about to be written, at `sent_unix_us`
    /// (microseconds since the Unix epoch, same instant as `device_time_ms`).
    fn frame_sent(&self, seq: u64, device_time_ms: u64, sent_unix_us: u64);
}

/// Optional extras for [`run_device_with`].
#[derive(Clone, Default)]
pub struct RunOptions {
    /// Called for each welcome and each frame sent.
    pub observer: Option<Arc<dyn FrameObserver>>,
    /// How frames carry their cells, and so the protocol version of the hello: zero runs
    /// (version 2, the default) or every cell (version 1, as older devices do).
    pub encoding: FrameEncoding,
}

impl std::fmt::Debug for RunOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunOptions").field("observer", &self.observer.is_some()).field("encoding", &self.encoding).finish()
    }
}

/// How long to wait for a connection (QUIC handshake or WebSocket upgrade).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long to wait for the answer to the hello (the hub's own limit is 5 s for the hello).
const WELCOME_TIMEOUT: Duration = Duration::from_secs(10);

/// Runs one simulated device until `shutdown` becomes `true` (or every sender is dropped), or
/// until the hub refuses it for good.
///
/// Connection failures and drops are retried with capped exponential backoff (200 ms doubling to
/// 5 s, reset after a connection that lasted 5 s); they are counted in `stats`, not returned.
/// Over QUIC each retry goes to the next hub of the cluster's list the last welcome gave
/// ([`HubChoice`]), so a device whose hub died moves to a live one and comes back around.
/// Returns `Ok(())` on shutdown, [`SimError::Refused`] on a terminal refusal (unknown serial, bad
/// secret, unsupported version, wrong device type, shape mismatch), or a setup error
/// (bad spec, unusable TLS trust, no UDP socket). `seq` rises by one per frame for the lifetime
/// of the device, across reconnections.
pub async fn run_device(
    spec: DeviceSpec,
    transport: Transport,
    stats: Arc<SimStats>,
    shutdown: watch::Receiver<bool>,
) -> Result<(), SimError> {
    run_device_with(spec, transport, stats, shutdown, RunOptions::default()).await
}

/// [`run_device`] with extra options.
pub async fn run_device_with(
    spec: DeviceSpec,
    transport: Transport,
    stats: Arc<SimStats>,
    mut shutdown: watch::Receiver<bool>,
    options: RunOptions,
) -> Result<(), SimError> {
    validate(&spec)?;
    let connector = match transport {
        Transport::Quic { addr, server_name, trust } => {
            Connector::Quic { client: QuicClient::for_server(&trust, addr)?, addr, server_name }
        }
        Transport::QuicShared { client, addr, server_name } => Connector::Quic { client, addr, server_name },
        Transport::WebSocket { url } => Connector::Ws { url },
    };
    let mut synth = MapSynth::new(spec.rows, spec.cols, spec.cell_format, spec.scenario.clone(), spec.seed);
    if let Some(device_type) = DeviceType::from_name(&spec.device_type) {
        synth = synth.for_device_type(device_type);
    }
    synth = synth.with_idle_level(spec.idle_level_steps, spec.seed);
    let mut device = Device {
        synth,
        rate: RateControl::new(spec.rate),
        started: Instant::now(),
        seq: 0,
        spec,
        stats,
        observer: options.observer,
        encoding: options.encoding,
    };
    let mut backoff = Backoff::new(device.spec.seed);
    let mut hubs = connector.first_hub();
    loop {
        if stopping(&shutdown) {
            return Ok(());
        }
        let end = tokio::select! {
            biased;
            () = wait_shutdown(&mut shutdown) => return Ok(()),
            link = tokio::time::timeout(CONNECT_TIMEOUT, connector.connect(hubs.as_ref())) => match link {
                Ok(Ok(link)) => device.session(link, &mut shutdown, &mut backoff, hubs.as_mut()).await,
                Ok(Err(e)) => Ended::Dropped(e.to_string()),
                Err(_) => Ended::Dropped("connection timed out".into()),
            },
        };
        match end {
            Ended::Shutdown => return Ok(()),
            Ended::Fatal(e) => {
                SimStats::bump(&device.stats.fatal);
                tracing::warn!(serial = %device.spec.serial, "{e}");
                return Err(e);
            }
            Ended::Dropped(reason) => {
                SimStats::bump(&device.stats.errors);
                let delay = backoff.on_disconnected(Instant::now().into_std());
                match hubs.as_mut() {
                    Some(hubs) if hubs.hubs().len() > 1 => {
                        let next = hubs.on_disconnected();
                        tracing::info!(serial = %device.spec.serial, %reason, ?delay, hub = next, "reconnecting to the next hub");
                    }
                    _ => tracing::debug!(serial = %device.spec.serial, %reason, ?delay, "reconnecting"),
                }
                tokio::select! {
                    biased;
                    () = wait_shutdown(&mut shutdown) => return Ok(()),
                    () = tokio::time::sleep(delay) => {}
                }
            }
        }
    }
}

fn validate(spec: &DeviceSpec) -> Result<(), SimError> {
    if spec.rows == 0 || spec.cols == 0 {
        return Err(SimError::InvalidSpec(format!("{}: rows and cols must be at least 1", spec.serial)));
    }
    let cells = usize::from(spec.rows) * usize::from(spec.cols) * spec.cell_format.bytes_per_cell();
    // Leave room for the message's other fields.
    if cells + 256 > MAX_MESSAGE_BYTES {
        return Err(SimError::InvalidSpec(format!(
            "{}: a {}×{} map of {cells} bytes does not fit in one {MAX_MESSAGE_BYTES}-byte message",
            spec.serial, spec.rows, spec.cols
        )));
    }
    Ok(())
}

fn stopping(shutdown: &watch::Receiver<bool>) -> bool {
    *shutdown.borrow()
}

/// Resolves once shutdown is requested or every sender is gone.
async fn wait_shutdown(shutdown: &mut watch::Receiver<bool>) {
    let _ = shutdown.wait_for(|stop| *stop).await;
}

enum Connector {
    Quic { client: QuicClient, addr: SocketAddr, server_name: String },
    Ws { url: String },
}

impl Connector {
    /// The hubs a QUIC device may move between, starting with the address it was given; none for
    /// a WebSocket device (a URL reaches the hubs through the HTTP balancer in front of them).
    fn first_hub(&self) -> Option<HubChoice> {
        match self {
            Connector::Quic { addr, .. } => Some(HubChoice::new(addr.to_string())),
            Connector::Ws { .. } => None,
        }
    }

    /// Connects to the hub `hubs` chooses now (QUIC), or to the ingest URL (WebSocket).
    async fn connect(&self, hubs: Option<&HubChoice>) -> Result<Link, LinkError> {
        match self {
            Connector::Quic { client, addr, server_name } => {
                let addr = match hubs {
                    Some(hubs) => resolve(hubs.current()).await?,
                    None => *addr,
                };
                let conn = client.connect(addr, server_name).await.map_err(LinkError::Connect)?;
                Link::quic(conn).await
            }
            Connector::Ws { url } => Link::ws(url).await,
        }
    }
}

/// The socket address of a hub listed as `HOST:PORT` (a literal address needs no lookup).
async fn resolve(hub: &str) -> Result<SocketAddr, LinkError> {
    if let Ok(addr) = hub.parse() {
        return Ok(addr);
    }
    let mut found = tokio::net::lookup_host(hub).await.map_err(|e| LinkError::Connect(format!("resolving {hub}: {e}")))?;
    found.next().ok_or_else(|| LinkError::Connect(format!("{hub} resolves to no address")))
}

/// How a session ended.
enum Ended {
    Shutdown,
    Dropped(String),
    Fatal(SimError),
}

impl From<LinkError> for Ended {
    fn from(e: LinkError) -> Self {
        Ended::Dropped(e.to_string())
    }
}

struct Device {
    spec: DeviceSpec,
    synth: MapSynth,
    rate: RateControl,
    started: Instant,
    seq: u64,
    stats: Arc<SimStats>,
    observer: Option<Arc<dyn FrameObserver>>,
    encoding: FrameEncoding,
}

impl Device {
    fn hello(&self) -> DeviceMessage {
        DeviceMessage::Hello(Hello {
            version: self.encoding.protocol_version(),
            serial: self.spec.serial.clone(),
            secret: self.spec.secret.clone(),
            device_type: self.spec.device_type.clone(),
            rows: self.spec.rows,
            cols: self.spec.cols,
            cell_format: self.spec.cell_format,
            firmware: self.spec.firmware.clone(),
        })
    }

    /// One connection: hello, welcome, then frames and commands until it ends.
    async fn session(
        &mut self,
        mut link: Link,
        shutdown: &mut watch::Receiver<bool>,
        backoff: &mut Backoff,
        hubs: Option<&mut HubChoice>,
    ) -> Ended {
        let end = self.converse(&mut link, shutdown, backoff, hubs).await;
        let reason = match &end {
            Ended::Shutdown => "shutdown",
            _ => "bye",
        };
        link.close(reason).await;
        end
    }

    async fn converse(
        &mut self,
        link: &mut Link,
        shutdown: &mut watch::Receiver<bool>,
        backoff: &mut Backoff,
        hubs: Option<&mut HubChoice>,
    ) -> Ended {
        if let Err(e) = self.send(link, shutdown, &self.hello()).await {
            return e;
        }
        let first = tokio::select! {
            biased;
            () = wait_shutdown(shutdown) => return Ended::Shutdown,
            first = tokio::time::timeout(WELCOME_TIMEOUT, link.recv()) => first,
        };
        match first {
            Err(_) => return Ended::Dropped("no answer to the hello".into()),
            Ok(Err(e)) => return e.into(),
            Ok(Ok(None)) => return Ended::Dropped("closed before the welcome".into()),
            Ok(Ok(Some(HubMessage::Welcome(welcome)))) => {
                SimStats::bump(&self.stats.connects);
                if let Some(observer) = &self.observer {
                    observer.welcomed(&welcome.device_id);
                    observer.welcomed_by(welcome.hubs.first().map(String::as_str));
                }
                if let Some(hubs) = hubs {
                    hubs.on_welcome(&welcome.hubs);
                }
                tracing::debug!(serial = %self.spec.serial, device_id = %welcome.device_id, "welcomed");
            }
            Ok(Ok(Some(HubMessage::Error(error)))) => {
                SimStats::bump(&self.stats.refusals);
                if is_terminal(error.code) {
                    return Ended::Fatal(SimError::Refused { code: error.code, message: error.message });
                }
                return Ended::Dropped(format!("hello refused: {:?}: {}", error.code, error.message));
            }
            Ok(Ok(Some(HubMessage::Command(_)))) => return Ended::Dropped("command before the welcome".into()),
        }
        backoff.on_connected(Instant::now().into_std());
        let _connected = ConnectedGuard::new(self.stats.clone());
        let end = self.stream(link, shutdown).await;
        if !matches!(end, Ended::Shutdown) {
            SimStats::bump(&self.stats.disconnects);
        }
        end
    }

    /// Welcomed: frames on the pacer's schedule, commands as they come.
    async fn stream(&mut self, link: &mut Link, shutdown: &mut watch::Receiver<bool>) -> Ended {
        let mut pacer = Pacer::new(Instant::now().into_std());
        loop {
            let due = Instant::from_std(pacer.due());
            tokio::select! {
                biased;
                () = wait_shutdown(shutdown) => return Ended::Shutdown,
                message = link.recv() => match message {
                    Ok(Some(HubMessage::Command(envelope))) => {
                        SimStats::bump(&self.stats.commands);
                        let now = Instant::now().into_std();
                        let outcome = self.rate.on_command(now, &envelope.command);
                        self.patient_follows(&envelope.command);
                        if outcome.rate_changed {
                            pacer.on_rate_changed(now, self.rate.interval(now));
                        }
                        tracing::debug!(serial = %self.spec.serial, command = ?envelope.command, "command");
                        let ack = DeviceMessage::Ack(Ack { command_id: envelope.id, ok: outcome.ok, reason: outcome.reason });
                        if let Err(e) = self.send(link, shutdown, &ack).await {
                            return e;
                        }
                        SimStats::bump(&self.stats.acks);
                    }
                    Ok(Some(HubMessage::Error(error))) => {
                        if error.fatal && is_terminal(error.code) {
                            return Ended::Fatal(SimError::Refused { code: error.code, message: error.message });
                        }
                        if error.fatal {
                            return Ended::Dropped(format!("{:?}: {}", error.code, error.message));
                        }
                        SimStats::bump(&self.stats.errors);
                        tracing::debug!(serial = %self.spec.serial, code = ?error.code, message = %error.message, "hub error");
                    }
                    Ok(Some(HubMessage::Welcome(_))) => {
                        tracing::debug!(serial = %self.spec.serial, "unexpected second welcome ignored");
                    }
                    Ok(None) => return Ended::Dropped("closed by the hub".into()),
                    Err(e) => return e.into(),
                },
                () = tokio::time::sleep_until(due) => {
                    if let Err(e) = self.send_frame(link, shutdown).await {
                        return e;
                    }
                    let now = Instant::now().into_std();
                    pacer.on_sent(now, self.rate.interval(now));
                }
            }
        }
    }

    /// The simulated patient answers the clinician: a plate streamed for a dynamic capture's
    /// length has its patient walk across it for that long (`MapSynth::walks_for_stream`).
    fn patient_follows(&mut self, command: &mat_protocol::Command) {
        if let mat_protocol::Command::Stream { seconds } = *command
            && self.synth.walks_for_stream(seconds)
        {
            let now = self.started.elapsed() + self.spec.time_offset;
            self.synth.begin_walk(now, Duration::from_secs(u64::from(seconds)));
            tracing::debug!(serial = %self.spec.serial, seconds, "the simulated patient walks across the plate");
        }
    }

    async fn send_frame(&mut self, link: &mut Link, shutdown: &mut watch::Receiver<bool>) -> Result<(), Ended> {
        let t = self.started.elapsed() + self.spec.time_offset;
        let cells = self.synth.render(t);
        let sent_unix_us = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_micros() as u64).unwrap_or(0);
        let device_time_ms = sent_unix_us / 1_000;
        let seq = self.seq;
        self.seq += 1;
        if let Some(observer) = &self.observer {
            observer.frame_sent(seq, device_time_ms, sent_unix_us);
        }
        let frame = encode_frame(seq, device_time_ms, &cells, self.encoding);
        let bytes = tokio::select! {
            biased;
            () = wait_shutdown(shutdown) => return Err(Ended::Shutdown),
            sent = link.send_body(frame) => sent.map_err(Ended::from)?,
        };
        SimStats::bump(&self.stats.frames_sent);
        self.stats.bytes_sent.fetch_add(bytes as u64, std::sync::atomic::Ordering::Relaxed);
        Ok(())
    }

    /// Sends, giving up at once on shutdown (a hub that stopped reading must not hold us).
    async fn send(&self, link: &mut Link, shutdown: &mut watch::Receiver<bool>, message: &DeviceMessage) -> Result<usize, Ended> {
        tokio::select! {
            biased;
            () = wait_shutdown(shutdown) => Err(Ended::Shutdown),
            sent = link.send(message) => sent.map_err(Ended::from),
        }
    }
}
