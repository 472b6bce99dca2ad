//! Viewer sessions: browsers' WebSocket `/ws` clients that authenticate, join the company and
//! subscribe to devices, timing every live map they receive.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use anyhow::{Context, Result, bail};
use futures_util::{SinkExt, StreamExt};
use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use crate::http::{BaseUrl, request};
use crate::latency::{SendLog, new_histogram, unix_us};

/// Signs in and returns the bearer token.
pub async fn login(base: &BaseUrl, email: &str, password: &str) -> Result<String> {
    #[derive(Serialize)]
    struct Login<'a> {
        email: &'a str,
        password: &'a str,
    }
    #[derive(Deserialize)]
    struct Token {
        token: String,
    }
    let body = serde_json::to_vec(&Login { email, password })?;
    let response = request(base, "POST", "/api/auth/login", Some(&body)).await?;
    if response.status != 200 {
        bail!("login as {email} failed: HTTP {}: {}", response.status, String::from_utf8_lossy(&response.body));
    }
    let token: Token = serde_json::from_slice(&response.body).context("login response without a token")?;
    Ok(token.token)
}

/// Where a device's frames are looked up: its index in the fleet, by the hub's device id.
pub type DeviceIndex = Arc<HashMap<String, usize>>;

/// Live counters of all viewers (only counted while `measuring` is set).
#[derive(Debug, Default)]
pub struct ViewerCounters {
    /// Viewers authenticated and subscribed.
    pub ready: AtomicU64,
    /// Viewers whose socket ended before shutdown.
    pub dropped: AtomicU64,
    /// Live maps received (not blank).
    pub maps: AtomicU64,
    /// Maps whose presence was PRESENCE.
    pub presence_maps: AtomicU64,
    /// Blank maps (no frame for 5 s).
    pub blank_maps: AtomicU64,
    /// `deviceConf` events.
    pub device_confs: AtomicU64,
    /// `error` events.
    pub errors: AtomicU64,
    /// Maps whose cells do not match rows × cols × bytesPerCell.
    pub bad_maps: AtomicU64,
    /// Seqs skipped between two maps of one device on one socket (conflation or loss).
    pub seq_gaps: AtomicU64,
    /// Maps timed from `deviceTimeMs` because the send time was no longer known.
    pub approximate: AtomicU64,
}

/// One viewer's histograms (microseconds / milliseconds).
pub struct ViewerHistograms {
    /// Device write → browser receive, µs.
    pub end_to_end_us: Histogram<u64>,
    /// `hubTimeMs` → browser receive, µs (ms resolution).
    pub hub_to_browser_us: Histogram<u64>,
    /// `deviceTimeMs` → `hubTimeMs`, µs (ms resolution).
    pub device_to_hub_us: Histogram<u64>,
}

impl Default for ViewerHistograms {
    fn default() -> Self {
        Self { end_to_end_us: new_histogram(), hub_to_browser_us: new_histogram(), device_to_hub_us: new_histogram() }
    }
}

impl ViewerHistograms {
    /// Adds another viewer's samples.
    pub fn merge(&mut self, other: &ViewerHistograms) {
        let _ = self.end_to_end_us.add(&other.end_to_end_us);
        let _ = self.hub_to_browser_us.add(&other.hub_to_browser_us);
        let _ = self.device_to_hub_us.add(&other.device_to_hub_us);
    }
}

/// Everything viewers share.
pub struct ViewerShared {
    pub counters: ViewerCounters,
    pub measuring: AtomicBool,
    pub logs: Vec<Arc<SendLog>>,
    pub index: DeviceIndex,
}

#[derive(Serialize)]
struct Outgoing<'a, T: Serialize> {
    event: &'a str,
    data: T,
}

#[derive(Serialize)]
struct Token<'a> {
    token: &'a str,
}

#[derive(Serialize)]
struct Empty {}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Join<'a> {
    device_id: &'a str,
}

#[derive(Deserialize)]
struct Head {
    event: String,
}

#[derive(Deserialize)]
struct Body<T> {
    data: T,
}

/// The fields of `pressureMap_SAToFront` the load test uses.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct MapEvent {
    device_id: String,
    seq: u64,
    device_time_ms: u64,
    hub_time_ms: u64,
    rows: u16,
    cols: u16,
    bytes_per_cell: u8,
    cells: serde_bytes::ByteBuf,
    #[serde(default)]
    presence: String,
    #[serde(default)]
    blank: bool,
}

#[derive(Deserialize, Debug)]
struct ErrorEvent {
    #[serde(default)]
    error: String,
    #[serde(default)]
    message: String,
}

fn event<T: Serialize>(name: &str, data: T) -> Message {
    Message::Binary(rmp_serde::to_vec_named(&Outgoing { event: name, data }).unwrap_or_default().into())
}

/// The generator's WebSocket clients (viewers, and devices over `/ingest`) read into 16 KiB
/// rather than tungstenite's default 128 KiB, which it zeroes before every read attempt: two
/// 128 KiB memsets per batch a viewer receives were a large share of the generator's CPU, which
/// must stay well under its core for the target's figures to count (a larger batch is read in
/// more reads, or grows the buffer for one message).
pub fn client_socket_config() -> WebSocketConfig {
    WebSocketConfig::default().read_buffer_size(16 * 1024)
}

/// Runs one viewer until `shutdown`; returns its histograms.
pub async fn run_viewer(
    ws_url: String,
    token: String,
    devices: Vec<String>,
    shared: Arc<ViewerShared>,
    histograms: Arc<Mutex<ViewerHistograms>>,
    mut shutdown: watch::Receiver<bool>,
) -> Result<()> {
    let (mut ws, _) = tokio_tungstenite::connect_async_with_config(&ws_url, Some(client_socket_config()), false)
        .await
        .with_context(|| format!("opening {ws_url}"))?;
    ws.send(event("authenticate", Token { token: &token })).await?;
    // Wait for `authenticated` before joining (the hub refuses other events before it).
    loop {
        let next = tokio::time::timeout(std::time::Duration::from_secs(10), ws.next()).await.context("no answer to authenticate")?;
        match next {
            Some(Ok(Message::Binary(bytes))) => {
                let head: Head = rmp_serde::from_slice(&bytes).context("undecodable message")?;
                match head.event.as_str() {
                    "authenticated" => break,
                    "error" => {
                        let e: Body<ErrorEvent> = rmp_serde::from_slice(&bytes)?;
                        bail!("authentication refused: {} {}", e.data.error, e.data.message);
                    }
                    _ => {}
                }
            }
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(e.into()),
            None => bail!("socket closed during authentication"),
        }
    }
    ws.send(event("joinCompany", Empty {})).await?;
    for device_id in &devices {
        ws.send(event("joinUser", Join { device_id })).await?;
    }
    shared.counters.ready.fetch_add(1, Ordering::Relaxed);
    let mut last_seq: HashMap<String, u64> = HashMap::new();
    let result = loop {
        let message = tokio::select! {
            biased;
            _ = shutdown.wait_for(|stop| *stop) => break Ok(()),
            message = ws.next() => message,
        };
        match message {
            Some(Ok(Message::Binary(bytes))) => handle(&bytes, &shared, &histograms, &mut last_seq),
            Some(Ok(Message::Close(frame))) => break Err(anyhow::anyhow!("hub closed the viewer socket: {frame:?}")),
            Some(Ok(_)) => {}
            Some(Err(e)) => break Err(e.into()),
            None => break Err(anyhow::anyhow!("viewer socket ended")),
        }
    };
    let _ = ws.close(None).await;
    if result.is_err() {
        shared.counters.dropped.fetch_add(1, Ordering::Relaxed);
    }
    result
}

fn handle(bytes: &[u8], shared: &ViewerShared, histograms: &Mutex<ViewerHistograms>, last_seq: &mut HashMap<String, u64>) {
    let received_us = unix_us();
    let measuring = shared.measuring.load(Ordering::Relaxed);
    let c = &shared.counters;
    let Ok(head) = rmp_serde::from_slice::<Head>(bytes) else {
        if measuring {
            c.errors.fetch_add(1, Ordering::Relaxed);
        }
        return;
    };
    match head.event.as_str() {
        "pressureMap_SAToFront" => {
            let Ok(Body { data: map }) = rmp_serde::from_slice::<Body<MapEvent>>(bytes) else {
                if measuring {
                    c.bad_maps.fetch_add(1, Ordering::Relaxed);
                }
                return;
            };
            if map.blank {
                if measuring {
                    c.blank_maps.fetch_add(1, Ordering::Relaxed);
                }
                return;
            }
            let previous = last_seq.insert(map.device_id.clone(), map.seq);
            if !measuring {
                return;
            }
            c.maps.fetch_add(1, Ordering::Relaxed);
            if map.presence == "PRESENCE" {
                c.presence_maps.fetch_add(1, Ordering::Relaxed);
            }
            let expected = usize::from(map.rows) * usize::from(map.cols) * usize::from(map.bytes_per_cell);
            if map.cells.len() != expected {
                c.bad_maps.fetch_add(1, Ordering::Relaxed);
            }
            if let Some(prev) = previous
                && map.seq > prev + 1
            {
                c.seq_gaps.fetch_add(map.seq - prev - 1, Ordering::Relaxed);
            }
            let sent_us = shared
                .index
                .get(&map.device_id)
                .and_then(|&i| shared.logs.get(i))
                .and_then(|log| log.sent_at(map.seq))
                // The ring slot could hold a frame of a previous connection with the same seq
                // only if seqs restarted; the device time must agree to the millisecond.
                .filter(|&us| us / 1_000 == map.device_time_ms);
            let end_to_end = match sent_us {
                Some(us) => received_us.saturating_sub(us),
                None => {
                    c.approximate.fetch_add(1, Ordering::Relaxed);
                    received_us.saturating_sub(map.device_time_ms * 1_000)
                }
            };
            if let Ok(mut h) = histograms.lock() {
                h.end_to_end_us.saturating_record(end_to_end.max(1));
                h.hub_to_browser_us.saturating_record(received_us.saturating_sub(map.hub_time_ms * 1_000).max(1));
                h.device_to_hub_us.saturating_record(map.hub_time_ms.saturating_sub(map.device_time_ms).saturating_mul(1_000).max(1));
            }
        }
        "deviceConf" if measuring => {
            c.device_confs.fetch_add(1, Ordering::Relaxed);
        }
        "error" => {
            c.errors.fetch_add(1, Ordering::Relaxed);
            if let Ok(e) = rmp_serde::from_slice::<Body<ErrorEvent>>(bytes) {
                tracing::warn!(error = %e.data.error, message = %e.data.message, "hub error event");
            }
        }
        _ => {}
    }
}

/// Which devices viewer `v` of `viewers` subscribes to: consecutive blocks of `per_viewer`
/// wrapping around, so with `per_viewer = ceil(mats / viewers)` every mat has a viewer.
pub fn assignment(v: usize, per_viewer: usize, mats: usize) -> Vec<usize> {
    if mats == 0 {
        return Vec::new();
    }
    let mut out: Vec<usize> = (0..per_viewer.min(mats)).map(|k| (v * per_viewer + k) % mats).collect();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mat_gets_a_viewer_with_the_default_split() {
        for (mats, viewers) in [(500usize, 50usize), (5, 2), (7, 3), (3, 10)] {
            let per = mats.div_ceil(viewers);
            let mut covered = vec![false; mats];
            for v in 0..viewers {
                for i in assignment(v, per, mats) {
                    covered[i] = true;
                }
            }
            assert!(covered.iter().all(|&c| c), "{mats} mats, {viewers} viewers");
        }
        assert_eq!(assignment(1, 3, 5), vec![3, 4, 0]);
        assert!(assignment(0, 3, 0).is_empty());
    }

    #[test]
    fn outgoing_events_are_named_maps() {
        let Message::Binary(bytes) = event("joinUser", Join { device_id: "d1" }) else { panic!("binary") };
        let v: serde_json::Value = rmp_serde::from_slice(&bytes).expect("decode");
        assert_eq!(v, serde_json::json!({"event": "joinUser", "data": {"deviceId": "d1"}}));
        let Message::Binary(bytes) = event("joinCompany", Empty {}) else { panic!("binary") };
        let v: serde_json::Value = rmp_serde::from_slice(&bytes).expect("decode");
        assert_eq!(v, serde_json::json!({"event": "joinCompany", "data": {}}));
    }

    #[test]
    fn map_events_are_timed_from_the_send_log() {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Out<'a> {
            device_id: &'a str,
            seq: u64,
            device_time_ms: u64,
            hub_time_ms: u64,
            rows: u16,
            cols: u16,
            bytes_per_cell: u8,
            #[serde(with = "serde_bytes")]
            cells: &'a [u8],
            presence: &'a str,
            blank: bool,
        }
        let log = Arc::new(SendLog::default());
        let now = unix_us();
        let sent = now - 3_000;
        log.record(9, sent);
        let shared = ViewerShared {
            counters: ViewerCounters::default(),
            measuring: AtomicBool::new(true),
            logs: vec![log],
            index: Arc::new(HashMap::from([("dev".to_owned(), 0)])),
        };
        let histograms = Mutex::new(ViewerHistograms::default());
        let mut last = HashMap::from([("dev".to_owned(), 6u64)]);
        let out = Out {
            device_id: "dev",
            seq: 9,
            device_time_ms: sent / 1_000,
            hub_time_ms: sent / 1_000 + 1,
            rows: 2,
            cols: 2,
            bytes_per_cell: 1,
            cells: &[1, 2, 3, 4],
            presence: "PRESENCE",
            blank: false,
        };
        let bytes = rmp_serde::to_vec_named(&Outgoing { event: "pressureMap_SAToFront", data: out }).expect("encode");
        handle(&bytes, &shared, &histograms, &mut last);
        let c = &shared.counters;
        assert_eq!(c.maps.load(Ordering::Relaxed), 1);
        assert_eq!(c.presence_maps.load(Ordering::Relaxed), 1);
        assert_eq!(c.seq_gaps.load(Ordering::Relaxed), 2);
        assert_eq!(c.approximate.load(Ordering::Relaxed), 0);
        assert_eq!(c.bad_maps.load(Ordering::Relaxed), 0);
        let h = histograms.lock().expect("lock");
        assert_eq!(h.end_to_end_us.len(), 1);
        assert!(h.end_to_end_us.max() >= 3_000 && h.end_to_end_us.max() < 1_000_000);
    }
}
