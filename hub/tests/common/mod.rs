//! Test harness: a real hub on loopback (port 0) over a real in-memory SurrealDB, with helpers
//! to seed devices, speak HTTP and the browser socket, and run simulated devices.
#![allow(clippy::unwrap_used)] // A test's helpers may unwrap: the panic is the failure it reports.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use hub::app::RunningHub;
use hub::config::ServeConfig;
use serde::{Deserialize, Serialize};
use storage::model::NewDevice;
use storage::{Store, device_secret};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

mod http;
mod loopback_config;
pub use loopback_config::config;
pub mod nats;
pub mod process;
pub mod raw_quic;
#[allow(unused_imports)] // Each test crate uses its own part of the client.
pub use http::{REQUEST_TIMEOUT, Response, request, try_request};

pub const PASSWORD: &str = "secret-password";

/// A company with one user and some devices, and the hub serving them.
pub struct TestHub {
    pub hub: RunningHub,
    pub company_id: String,
    pub email: String,
    pub devices: Vec<SeededDevice>,
    pub _data: tempfile::TempDir,
}

#[derive(Debug, Clone)]
pub struct SeededDevice {
    pub id: String,
    pub serial: String,
    pub secret: String,
    pub device_type: String,
}

/// Seeds a company "Clinic {tag}" with a user and one device per type, on `store`.
pub async fn seed_company(store: &Store, tag: &str, types: &[&str]) -> (String, String, Vec<SeededDevice>) {
    let company = store.hub_wide().companies().create(&format!("Clinic {tag}"), "").await.unwrap();
    let email = format!("nurse-{}@example.com", tag.to_lowercase());
    store.hub_wide().accounts().create(&email, PASSWORD, 2, &company).await.unwrap();
    let mut devices = Vec::new();
    for (i, device_type) in types.iter().enumerate() {
        let serial = format!("{tag}-{i:03}");
        let secret = device_secret::generate();
        let id = store
            .hub_wide()
            .devices()
            .create(&NewDevice {
                name: format!("{tag} {device_type} {i}"),
                device_type: (*device_type).into(),
                hardware_serial: serial.clone(),
                company_id: company.clone(),
                number_of_subdevices: 2,
                secret_hash: device_secret::hash(&secret),
                ..NewDevice::default()
            })
            .await
            .unwrap();
        devices.push(SeededDevice { id, serial, secret, device_type: (*device_type).into() });
    }
    (company, email, devices)
}

pub async fn start(types: &[&str]) -> TestHub {
    start_with(types, |c| c).await
}

/// One Mattress Mat IoT whose patient is Missing after `absence_delay_secs` of an empty map.
pub async fn start_bed(absence_delay_secs: u64) -> TestHub {
    start_with(&["Mattress Mat IoT"], |mut config| {
        config.absence_delay_secs = absence_delay_secs;
        config
    })
    .await
}

pub async fn start_with(types: &[&str], adjust: impl FnOnce(ServeConfig) -> ServeConfig) -> TestHub {
    let data = tempfile::tempdir().unwrap();
    let store = Store::memory().await.unwrap();
    let (company_id, email, devices) = seed_company(&store, "A", types).await;
    let hub = hub::app::start_with_store(adjust(config(data.path())), store).await.unwrap();
    TestHub { hub, company_id, email, devices, _data: data }
}

impl TestHub {
    pub fn http(&self) -> SocketAddr {
        self.hub.http_addr
    }

    pub async fn login(&self) -> String {
        login(self.http(), &self.email, PASSWORD).await
    }

    /// A simulated device for a seeded device, over QUIC.
    pub fn quic_device(&self, device: &SeededDevice) -> (simulator::DeviceSpec, simulator::Transport) {
        let spec = simulator::DeviceSpec::new(device.serial.clone(), device.secret.clone(), &device.device_type).unwrap();
        let transport = simulator::Transport::Quic {
            addr: self.hub.quic_addr,
            server_name: "localhost".into(),
            trust: simulator::Trust::PemFile(self.hub.cert_path.clone()),
        };
        (spec, transport)
    }

    /// Runs a simulated device until the returned sender is dropped or set.
    pub fn run_device(
        &self,
        spec: simulator::DeviceSpec,
        transport: simulator::Transport,
    ) -> (tokio::sync::watch::Sender<bool>, Arc<simulator::SimStats>) {
        let (stop, shutdown) = tokio::sync::watch::channel(false);
        let stats = Arc::new(simulator::SimStats::default());
        let s = stats.clone();
        tokio::spawn(async move {
            let _ = simulator::run_device(spec, transport, s, shutdown).await;
        });
        (stop, stats)
    }
}

pub async fn login(addr: SocketAddr, email: &str, password: &str) -> String {
    let body = serde_json::json!({ "email": email, "password": password }).to_string();
    let response = request(addr, "POST", "/api/auth/login", None, Some(&body)).await;
    assert_eq!(response.status, 200, "login failed: {}", response.body);
    let value: serde_json::Value = response.json();
    value["token"].as_str().unwrap().to_owned()
}

/// A browser-like socket client speaking MessagePack `{event, data}`.
pub struct Browser {
    pub socket: tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
}

#[derive(Serialize)]
pub struct Outgoing<'a, T: Serialize> {
    pub event: &'a str,
    pub data: T,
}

#[derive(Debug, Deserialize)]
pub struct Incoming {
    pub event: String,
    pub data: rmpv::Value,
}

impl Browser {
    pub async fn connect(addr: SocketAddr) -> Browser {
        let (socket, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws")).await.unwrap();
        Browser { socket }
    }

    /// A browser whose socket has a tiny, fixed receive buffer, so a reader that stops reading
    /// makes the hub's side fill up within a second instead of after megabytes.
    pub async fn connect_small_buffer(addr: SocketAddr) -> Browser {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.set_recv_buffer_size(4096).unwrap();
        let stream = socket.connect(addr).await.unwrap();
        let (socket, _) =
            tokio_tungstenite::client_async(format!("ws://{addr}/ws"), tokio_tungstenite::MaybeTlsStream::Plain(stream)).await.unwrap();
        Browser { socket }
    }

    pub async fn authenticated(addr: SocketAddr, token: &str) -> Browser {
        let browser = Browser::connect(addr).await;
        browser.authenticate(token).await
    }

    pub async fn authenticate(self, token: &str) -> Browser {
        let mut browser = self;
        browser.send("authenticate", serde_json::json!({ "token": token })).await;
        let first = browser.next_event(Duration::from_secs(5)).await.expect("an answer to authenticate");
        assert_eq!(first.event, "authenticated", "{first:?}");
        browser
    }

    pub async fn send<T: Serialize>(&mut self, event: &str, data: T) {
        let bytes = rmp_serde::to_vec_named(&Outgoing { event, data }).unwrap();
        self.socket.send(Message::binary(bytes)).await.unwrap();
    }

    /// The next `{event, data}` message, or None on close or timeout.
    pub async fn next_event(&mut self, timeout: Duration) -> Option<Incoming> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let message = tokio::time::timeout_at(deadline, self.socket.next()).await.ok()??.ok()?;
            match message {
                Message::Binary(bytes) => return Some(rmp_serde::from_slice(&bytes).expect("msgpack {event, data}")),
                Message::Close(_) => return None,
                _ => continue,
            }
        }
    }

    /// Waits for an event with this name, skipping others.
    pub async fn wait_for(&mut self, event: &str, timeout: Duration) -> Option<Incoming> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let next = self.next_event(left).await?;
            if next.event == event {
                return Some(next);
            }
        }
    }
}

/// A field of a MessagePack map.
pub fn field<'a>(value: &'a rmpv::Value, name: &str) -> &'a rmpv::Value {
    value.as_map().and_then(|m| m.iter().find(|(k, _)| k.as_str() == Some(name)).map(|(_, v)| v)).unwrap_or(&rmpv::Value::Nil)
}

/// Polls until `check` is true or the timeout passes.
pub async fn eventually(timeout: Duration, mut check: impl FnMut() -> bool) -> bool {
    let deadline = tokio::time::Instant::now() + timeout;
    while tokio::time::Instant::now() < deadline {
        if check() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    check()
}

/// Polls the async `check` every 250 ms until it holds or `limit` passes (checks that call the API).
pub async fn eventually_async<F, Fut>(limit: Duration, mut check: F) -> bool
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = tokio::time::Instant::now() + limit;
    while tokio::time::Instant::now() < deadline {
        if check().await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    false
}

/// GETs `path` with `token`, asserts 200 and returns the JSON body.
pub async fn get_json(hub: &TestHub, token: &str, path: &str) -> serde_json::Value {
    let response = request(hub.http(), "GET", path, Some(token), None).await;
    assert_eq!(response.status, 200, "{path}: {}", response.body);
    response.json()
}

/// A response with its raw head and body bytes (for binary bodies such as PDFs).
pub struct RawResponse {
    pub status: u16,
    pub head: String,
    pub body: Vec<u8>,
}

impl RawResponse {
    /// A header's value (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<String> {
        self.head.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.trim().eq_ignore_ascii_case(name).then(|| value.trim().to_owned())
        })
    }
}

/// The head of a JSON request with `Connection: close` (and the bearer token, if any).
pub fn request_head(host: &str, method: &str, path: &str, token: Option<&str>, body: &str) -> String {
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
        body.len()
    );
    if let Some(token) = token {
        head.push_str(&format!("Authorization: Bearer {token}\r\n"));
    }
    head.push_str("\r\n");
    head
}

/// The hello of a seeded 48 × 48 device with `secret`.
pub fn hello(device: &SeededDevice, secret: &str) -> mat_protocol::DeviceMessage {
    mat_protocol::DeviceMessage::Hello(mat_protocol::Hello {
        version: mat_protocol::PROTOCOL_VERSION,
        serial: device.serial.clone(),
        secret: secret.into(),
        device_type: device.device_type.clone(),
        rows: 48,
        cols: 48,
        cell_format: mat_protocol::CellFormat::U8,
        firmware: "test".into(),
    })
}

/// One HTTP/1.1 request with `Connection: close`, body bytes untouched (not chunked).
pub async fn request_raw(addr: SocketAddr, method: &str, path: &str, token: Option<&str>, body: &str) -> RawResponse {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let head = request_head(&addr.to_string(), method, path, token, body);
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.unwrap();
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap_or(raw.len());
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let body = raw.get(split + 4..).unwrap_or_default().to_vec();
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    RawResponse { status, head, body }
}
