//! One device connection, whatever carries it: hello and authentication, then frames to the
//! device's actor and commands back, with every bad input counted and answered, never fatal to
//! anyone but (at worst) this connection.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use actors::actor::link::DeviceLink;
use actors::actor::mat::{FrameIn, MAX_INFLIGHT_FRAMES, MatMsg};
use actors::actor::registry::{MatHandle, RegistryMsg};
use actors::catalog::{Catalog, DeviceInfo};
use actors::metrics::HubMetrics;
use bytes::Bytes;
use mat_protocol::connection::{self as sans_io, Incoming, OpenConnection, Refusal, Registered, error_reply};
use mat_protocol::{self as protocol, ErrorCode, Frame, HELLO_TIMEOUT_MS, Hello, HubMessage, MAX_MESSAGE_BYTES, ProtocolError, Welcome};
use ractor::ActorRef;

use super::hub_addresses::HubAddresses;
use crate::cluster::lease_keeper::{Acquisition, LeaseKeeper};

/// How long ingest waits for the registry.
const REGISTRY_TIMEOUT: Duration = Duration::from_secs(5);
/// Malformed messages are logged at most once per this interval per connection.
const MALFORMED_LOG_INTERVAL: Duration = Duration::from_secs(10);

/// What every connection shares.
pub struct IngestContext {
    pub catalog: Arc<Catalog>,
    pub registry: ActorRef<RegistryMsg>,
    pub metrics: Arc<HubMetrics>,
    /// The cluster's hubs, listed in every welcome.
    pub hubs: HubAddresses,
    next_connection: AtomicU64,
    /// Cluster mode: the device leases, acquired before a connection reaches the device's actor.
    pub leases: Option<Arc<LeaseKeeper>>,
    /// Bumped whenever a device secret is rotated: each connection then checks that the secret
    /// it authenticated with is still its device's.
    secret_rotations: tokio::sync::watch::Sender<u64>,
}

impl IngestContext {
    /// A context for a running registry.
    pub fn new(catalog: Arc<Catalog>, registry: ActorRef<RegistryMsg>, metrics: Arc<HubMetrics>) -> Arc<Self> {
        Self::in_cluster(catalog, registry, metrics, None)
    }

    /// A context whose connections acquire their device's lease first (cluster mode) when
    /// `leases` is given.
    pub fn in_cluster(
        catalog: Arc<Catalog>,
        registry: ActorRef<RegistryMsg>,
        metrics: Arc<HubMetrics>,
        leases: Option<Arc<LeaseKeeper>>,
    ) -> Arc<Self> {
        let (secret_rotations, _) = tokio::sync::watch::channel(0);
        Arc::new(IngestContext {
            catalog,
            registry,
            metrics,
            hubs: HubAddresses::default(),
            next_connection: AtomicU64::new(1),
            leases,
            secret_rotations,
        })
    }

    /// Tells the connected devices that a secret changed in the catalogue: the device whose
    /// secret it was is disconnected.
    pub fn secrets_rotated(&self) {
        self.secret_rotations.send_modify(|generation| *generation = generation.wrapping_add(1));
    }
}

/// Whether the secret a connection authenticated with (`authenticated`) is no longer its
/// device's in the catalogue (rotated, or the device removed).
pub fn secret_revoked(catalog: &Catalog, authenticated: &DeviceInfo) -> bool {
    catalog.get(&authenticated.id).is_none_or(|current| current.secret_hash != authenticated.secret_hash)
}

/// A message-oriented device transport.
pub trait DeviceTransport: Send {
    /// The next whole message body; `Ok(None)` when the peer closed. `Err(TooLarge)` means the
    /// stream cannot continue; `Err(Malformed)` a transport-level problem.
    /// A shared buffer, so a transport can hand on the bytes it received without copying them.
    fn recv(&mut self) -> impl std::future::Future<Output = Result<Option<Bytes>, ProtocolError>> + Send;
    /// Sends one message body.
    fn send(&mut self, body: Vec<u8>) -> impl std::future::Future<Output = Result<(), String>> + Send;
    /// Whether the transport stays usable after a `recv` error: a WebSocket keeps its message
    /// boundaries, a QUIC stream cannot be resynchronised after an unread body.
    fn recovers_from_errors(&self) -> bool;
    /// Closes the transport after the last message was sent.
    fn close(&mut self) -> impl std::future::Future<Output = ()> + Send;
}

/// Checks a hello against the catalogue ([`sans_io::check_hello`]; the secret against its stored
/// hash): version, serial, secret, type and frame shape.
pub fn check_hello(catalog: &Catalog, hello: &Hello) -> Result<Arc<DeviceInfo>, Refusal> {
    sans_io::check_hello(hello, |hello| {
        let device = catalog.by_serial(&hello.serial)?;
        let secret_matches = storage::device_secret::verify(&hello.secret, &device.secret_hash);
        Some(Registered { device_type: device.device_type, secret_matches, device })
    })
}

fn error_body(code: ErrorCode, message: &str, fatal: bool) -> Vec<u8> {
    error_reply(code, message, fatal)
}

/// Serves one device connection until it closes.
pub async fn serve_device<T: DeviceTransport>(ctx: Arc<IngestContext>, mut transport: T, peer: SocketAddr) {
    let hello = match tokio::time::timeout(Duration::from_millis(HELLO_TIMEOUT_MS), transport.recv()).await {
        Ok(Ok(Some(body))) => match sans_io::read_hello(&body) {
            Ok(hello) => hello,
            Err(r) => return refuse(&ctx, &mut transport, peer, r, None).await,
        },
        Ok(Ok(None)) => return,
        Ok(Err(e)) => return refuse(&ctx, &mut transport, peer, Refusal::undecodable(&e), None).await,
        Err(_) => return refuse(&ctx, &mut transport, peer, Refusal::new(ErrorCode::HelloExpected, "no hello within 5 s"), None).await,
    };
    let device = match check_hello(&ctx.catalog, &hello) {
        Ok(device) => device,
        Err(r) => return refuse(&ctx, &mut transport, peer, r, Some(&hello.serial)).await,
    };
    // Cluster mode: this hub owns the device before its actor sees the connection (the newest
    // connection wins; a takeover raises the fence and resumes from the stored snapshot).
    if let Some(leases) = &ctx.leases
        && let Acquisition::Refused(why) = leases.acquire(&device.id).await
    {
        tracing::warn!(serial = %device.serial, %why, "device connection refused: its lease could not be taken");
        let _ = transport.send(error_body(ErrorCode::ShuttingDown, &why, true)).await;
        transport.close().await;
        return;
    }
    let connection_id = ctx.next_connection.fetch_add(1, Ordering::Relaxed);
    let (link, mut outgoing) = DeviceLink::new(connection_id);
    let handle = match connect(&ctx, &device, link).await {
        Ok(handle) => handle,
        Err(message) => {
            tracing::error!(serial = %device.serial, %message, "device could not be attached");
            let _ = transport.send(error_body(ErrorCode::ShuttingDown, &message, true)).await;
            transport.close().await;
            return;
        }
    };
    let welcome = HubMessage::Welcome(Welcome {
        // The connection speaks the version of the hello (check_hello accepted it).
        version: hello.version,
        device_id: device.id.to_string(),
        max_message_bytes: MAX_MESSAGE_BYTES as u32,
        hubs: ctx.hubs.current(),
    });
    if transport.send(protocol::encode(&welcome)).await.is_err() {
        disconnect(&ctx, &device, connection_id);
        return;
    }
    tracing::info!(serial = %device.serial, %peer, connection_id, "device connected");
    ctx.metrics.devices_connected.fetch_add(1, Ordering::Relaxed);
    let mut session = Session {
        ctx: ctx.clone(),
        device: device.clone(),
        handle,
        malformed: 0,
        last_malformed_log: None,
        open: OpenConnection::new(&hello),
    };
    let mut rotations = ctx.secret_rotations.subscribe();
    // A rotation between the hello check and this subscription must not be missed.
    rotations.mark_changed();
    // One future for the connection's life, not one per message: the rotations' channel is
    // shared by every connection, and a future made anew at each frame registered and removed a
    // waiter on it every time (a lock and a list shared by all devices).
    let revoked = secret_revocation(&ctx.catalog, &device, rotations);
    tokio::pin!(revoked);
    loop {
        tokio::select! {
            incoming = transport.recv() => match incoming {
                Ok(Some(body)) => {
                    if let Some(reply) = session.handle_body(&body).await
                        && transport.send(reply).await.is_err()
                    {
                        break;
                    }
                }
                Ok(None) => break,
                Err(error) => {
                    session.count_malformed(&error.to_string());
                    let fatal = !transport.recovers_from_errors();
                    let _ = transport.send(error_body(error.code(), &error.to_string(), fatal)).await;
                    if fatal { break; }
                }
            },
            command = outgoing.recv() => match command {
                Some(message) => {
                    let fatal = matches!(&message, HubMessage::Error(e) if e.fatal);
                    if transport.send(protocol::encode(&message)).await.is_err() || fatal { break; }
                }
                // The registry dropped this connection's link (it gave up on the device).
                None => break,
            },
            () = &mut revoked => {
                tracing::info!(serial = %device.serial, connection_id, "device secret rotated; disconnecting");
                let _ = transport.send(error_body(ErrorCode::BadSecret, "the device secret was rotated; reconnect with the new secret", true)).await;
                break;
            },
        }
    }
    transport.close().await;
    ctx.metrics.devices_connected.fetch_sub(1, Ordering::Relaxed);
    disconnect(&ctx, &device, connection_id);
    tracing::info!(serial = %device.serial, connection_id, "device disconnected");
}

/// Resolves when the secret `device` authenticated with is no longer its own (checked at each
/// rotation); never, if the hub stops announcing rotations.
async fn secret_revocation(catalog: &Catalog, device: &DeviceInfo, mut rotations: tokio::sync::watch::Receiver<u64>) {
    while rotations.changed().await.is_ok() {
        if secret_revoked(catalog, device) {
            return;
        }
    }
    std::future::pending().await
}

async fn refuse<T: DeviceTransport>(ctx: &IngestContext, transport: &mut T, peer: SocketAddr, refusal: Refusal, serial: Option<&str>) {
    HubMetrics::inc(&ctx.metrics.device_connections_refused);
    tracing::warn!(%peer, serial = serial.unwrap_or("-"), code = ?refusal.code, reason = %refusal.message, "device connection refused");
    let _ = transport.send(error_body(refusal.code, &refusal.message, true)).await;
    transport.close().await;
}

async fn connect(ctx: &IngestContext, device: &DeviceInfo, link: DeviceLink) -> Result<MatHandle, String> {
    let device_id = device.id.clone();
    match ctx.registry.call(|reply| RegistryMsg::Connect { device_id, link, reply }, Some(REGISTRY_TIMEOUT)).await {
        Ok(ractor::rpc::CallResult::Success(Ok(handle))) => Ok(handle),
        Ok(ractor::rpc::CallResult::Success(Err(e))) => Err(e.to_string()),
        Ok(_) => Err("the registry did not answer".into()),
        Err(e) => Err(e.to_string()),
    }
}

fn disconnect(ctx: &IngestContext, device: &DeviceInfo, connection_id: u64) {
    let _ = ctx.registry.cast(RegistryMsg::Disconnect { device_id: device.id.clone(), connection_id });
}

struct Session {
    ctx: Arc<IngestContext>,
    device: Arc<DeviceInfo>,
    handle: MatHandle,
    malformed: u64,
    last_malformed_log: Option<Instant>,
    open: OpenConnection,
}

impl Session {
    /// Handles one message; returns a reply to send, if any.
    async fn handle_body(&mut self, body: &[u8]) -> Option<Vec<u8>> {
        match self.open.read(body) {
            Incoming::Frame(frame) => self.handle_frame(frame).await,
            Incoming::Ack(ack) => {
                if !ack.ok {
                    tracing::warn!(serial = %self.device.serial, command = ack.command_id, reason = %ack.reason, "device refused a command");
                }
                None
            }
            Incoming::Malformed(refusal) => {
                self.count_malformed(&refusal.message);
                Some(refusal.reply(false))
            }
        }
    }

    /// A frame of the announced shape ([`OpenConnection::read`] checked it).
    async fn handle_frame(&mut self, frame: Frame) -> Option<Vec<u8>> {
        HubMetrics::inc(&self.ctx.metrics.frames_received);
        let OpenConnection { rows, cols, format, .. } = self.open;
        let frame_in = FrameIn { seq: frame.seq, device_time_ms: frame.device_time_ms, rows, cols, format, cells: frame.cells };
        if self.handle.inflight.fetch_add(1, Ordering::Relaxed) >= MAX_INFLIGHT_FRAMES {
            // The actor is behind: drop this frame rather than queue without bound.
            self.handle.inflight.fetch_sub(1, Ordering::Relaxed);
            HubMetrics::inc(&self.ctx.metrics.frames_dropped_ingest);
            return None;
        }
        if let Err(error) = self.handle.actor.cast(MatMsg::Frame(frame_in)) {
            // The actor stopped (it is being restarted); find its successor for the next frame.
            self.handle.inflight.fetch_sub(1, Ordering::Relaxed);
            tracing::debug!(serial = %self.device.serial, %error, "mat actor unavailable; resolving again");
            let device_id = self.device.id.clone();
            if let Ok(ractor::rpc::CallResult::Success(Ok(handle))) =
                self.ctx.registry.call(|reply| RegistryMsg::Resolve { device_id, reply }, Some(REGISTRY_TIMEOUT)).await
            {
                self.handle = handle;
            }
        }
        None
    }

    fn count_malformed(&mut self, what: &str) {
        HubMetrics::inc(&self.ctx.metrics.device_messages_malformed);
        self.malformed += 1;
        let now = Instant::now();
        if self.last_malformed_log.is_none_or(|t| now.duration_since(t) >= MALFORMED_LOG_INTERVAL) {
            self.last_malformed_log = Some(now);
            tracing::warn!(serial = %self.device.serial, total = self.malformed, what, "malformed device message");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mat_core::machine::status::PatientStatus;
    use mat_protocol::device_type::DeviceType;
    use mat_protocol::{CellFormat, PROTOCOL_VERSION};

    fn catalog() -> (Arc<Catalog>, String) {
        let secret = storage::device_secret::generate();
        let info = DeviceInfo {
            id: "d1".into(),
            serial: "MAT-1".into(),
            company_id: "c1".into(),
            device_type: DeviceType::MattressMatIoT,
            name: "Bed 1".into(),
            parent: None,
            members: vec![],
            secret_hash: storage::device_secret::hash(&secret),
            functional: false,
            patient_status: PatientStatus::Correct,
        };
        (Catalog::new([info]), secret)
    }

    fn hello(secret: &str) -> Hello {
        Hello {
            version: PROTOCOL_VERSION,
            serial: "MAT-1".into(),
            secret: secret.into(),
            device_type: "Mattress Mat IoT".into(),
            rows: 48,
            cols: 48,
            cell_format: CellFormat::U8,
            firmware: String::new(),
        }
    }

    #[test]
    fn a_registered_device_with_its_secret_is_accepted() {
        let (catalog, secret) = catalog();
        assert_eq!(check_hello(&catalog, &hello(&secret)).unwrap().id.as_ref(), "d1");
    }

    #[test]
    fn each_bad_hello_gets_its_own_code() {
        let (catalog, secret) = catalog();
        let code = |h: Hello| check_hello(&catalog, &h).unwrap_err().code;
        assert_eq!(code(Hello { version: PROTOCOL_VERSION + 1, ..hello(&secret) }), ErrorCode::UnsupportedVersion);
        assert_eq!(code(Hello { serial: "NOPE".into(), ..hello(&secret) }), ErrorCode::UnknownSerial);
        assert_eq!(code(hello("wrong")), ErrorCode::BadSecret);
        assert_eq!(code(hello("MAT-1")), ErrorCode::BadSecret, "the serial is not the secret");
        assert_eq!(code(Hello { device_type: "Floor Mat".into(), ..hello(&secret) }), ErrorCode::WrongDeviceType);
        assert_eq!(code(Hello { rows: 16, ..hello(&secret) }), ErrorCode::ShapeMismatch);
    }
}
