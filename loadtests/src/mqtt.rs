//! The baseline's clients: one MQTT publisher per mat sending the same pre-rendered frames on the
//! same schedule to `mats/<index>`, and one subscriber per viewer subscribed to the same mats a
//! hub viewer would watch, timing every message from its slot to its arrival.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, Result};
use rumqttc::{AsyncClient, Event, MqttOptions, Packet, QoS, TlsConfiguration, Transport};
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use tokio::sync::watch;
use tokio::time::Instant;

use crate::frames::FramePool;
use crate::generator::{Connected, Fleet, Phase};
use crate::latency::{SendLog, unix_us};
use crate::schedule::{Schedule, first_slot_offset};
use crate::viewer::{ViewerHistograms, ViewerShared};

/// Largest MQTT packet either side accepts (a device message is at most 64 KiB).
const MAX_PACKET: usize = 128 * 1024;

/// The topic of mat `index`.
pub fn topic(index: usize) -> String {
    format!("mats/{index}")
}

/// The mat index of a topic made by [`topic`].
pub fn mat_of(topic: &str) -> Option<usize> {
    topic.strip_prefix("mats/")?.parse().ok()
}

/// How clients reach the broker.
#[derive(Clone)]
pub struct BrokerAddress {
    pub addr: SocketAddr,
    /// The broker's certificate (PEM) when it speaks TLS.
    pub ca_pem: Option<Vec<u8>>,
}

impl BrokerAddress {
    fn options(&self, client_id: String) -> Result<MqttOptions> {
        let mut options = MqttOptions::new(client_id, self.addr.ip().to_string(), self.addr.port());
        options.set_keep_alive(Duration::from_secs(30));
        options.set_max_packet_size(MAX_PACKET, MAX_PACKET);
        options.set_clean_session(true);
        if let Some(pem) = &self.ca_pem {
            options.set_transport(Transport::tls_with_config(TlsConfiguration::Rustls(Arc::new(tls_config(pem)?))));
        }
        Ok(options)
    }
}

/// A rustls client configuration (ring, like the rest of the workspace) trusting `pem`.
fn tls_config(pem: &[u8]) -> Result<rustls::ClientConfig> {
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(pem) {
        roots.add(cert.context("broker certificate")?)?;
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    Ok(rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_root_certificates(roots)
        .with_no_client_auth())
}

/// Totals over the whole run, for the loss count: frames published per mat, messages received.
#[derive(Default)]
pub struct Totals {
    pub published: Vec<AtomicU64>,
    pub received: AtomicU64,
}

impl Totals {
    pub fn new(mats: usize) -> Self {
        Self { published: (0..mats).map(|_| AtomicU64::new(0)).collect(), received: AtomicU64::new(0) }
    }
}

/// Runs publisher `index` until [`Phase::Stop`].
pub async fn run_publisher(
    index: usize,
    broker: BrokerAddress,
    fleet: Arc<Fleet>,
    totals: Arc<Totals>,
    log: Arc<SendLog>,
    mut phase: watch::Receiver<Phase>,
) -> Result<()> {
    let (client, mut eventloop) = AsyncClient::new(broker.options(format!("pub-{index}"))?, 64);
    let stats = fleet.stats.clone();
    let driver = tokio::spawn(async move {
        let mut connected: Option<Connected> = None;
        loop {
            match eventloop.poll().await {
                Ok(Event::Incoming(Packet::ConnAck(_))) => connected = Some(Connected::new(stats.clone())),
                Ok(_) => {}
                Err(e) => {
                    if connected.take().is_some() {
                        stats.errors.fetch_add(1, Ordering::Relaxed);
                    }
                    tracing::debug!("publisher {index}: {e}");
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        }
    });
    let topic = topic(index);
    let offset = first_slot_offset(index, fleet.interval);
    let mut schedule = Schedule::new(Instant::now() + offset, fleet.interval);
    let mut last_write_done = Instant::now();
    let mut seq = 0u64;
    loop {
        let sending = *phase.borrow() == Phase::Send;
        let due = schedule.due();
        tokio::select! {
            biased;
            changed = phase.changed() => {
                if changed.is_err() || *phase.borrow() == Phase::Stop {
                    break;
                }
            }
            () = tokio::time::sleep_until(due), if sending => {
                fleet.schedule.record_slot(due, Instant::now(), last_write_done);
                let slot_us = fleet.unix_us(due);
                let frame = fleet.pool.frame(index, seq, slot_us / 1_000);
                log.record(seq, slot_us);
                seq += 1;
                let len = frame.len();
                if client.publish_bytes(topic.clone(), QoS::AtMostOnce, false, frame).await.is_err() {
                    break;
                }
                last_write_done = Instant::now();
                totals.published[index].fetch_add(1, Ordering::Relaxed);
                fleet.stats.frames_sent.fetch_add(1, Ordering::Relaxed);
                fleet.stats.bytes_sent.fetch_add(len as u64, Ordering::Relaxed);
                fleet.schedule.record_skipped(schedule.advance(last_write_done));
            }
        }
    }
    let _ = tokio::time::timeout(Duration::from_secs(1), client.disconnect()).await;
    driver.abort();
    Ok(())
}

/// Runs subscriber `v` on `mats` until shutdown.
#[allow(clippy::too_many_arguments)]
pub async fn run_subscriber(
    v: usize,
    mats: Vec<usize>,
    broker: BrokerAddress,
    pool: Arc<FramePool>,
    shared: Arc<ViewerShared>,
    totals: Arc<Totals>,
    histograms: Arc<Mutex<ViewerHistograms>>,
    mut shutdown: watch::Receiver<bool>,
) -> Result<()> {
    let (client, mut eventloop) = AsyncClient::new(broker.options(format!("sub-{v}"))?, 64);
    let filters: Vec<rumqttc::SubscribeFilter> = mats.iter().map(|&m| rumqttc::SubscribeFilter::new(topic(m), QoS::AtMostOnce)).collect();
    client.subscribe_many(filters).await.context("queueing the subscription")?;
    let mut last_seq: HashMap<usize, u64> = HashMap::new();
    let result = loop {
        let event = tokio::select! {
            biased;
            _ = shutdown.wait_for(|stop| *stop) => break Ok(()),
            event = eventloop.poll() => event,
        };
        match event {
            Ok(Event::Incoming(Packet::SubAck(_))) => {
                shared.counters.ready.fetch_add(1, Ordering::Relaxed);
            }
            Ok(Event::Incoming(Packet::Publish(p))) => {
                totals.received.fetch_add(1, Ordering::Relaxed);
                on_message(&p.topic, &p.payload, &pool, &shared, &histograms, &mut last_seq);
            }
            Ok(_) => {}
            Err(e) => break Err(anyhow::anyhow!("subscriber {v}: {e}")),
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), client.disconnect()).await;
    if result.is_err() {
        shared.counters.dropped.fetch_add(1, Ordering::Relaxed);
    }
    result
}

/// Times one relayed frame against its slot.
fn on_message(
    topic: &str,
    payload: &[u8],
    pool: &FramePool,
    shared: &ViewerShared,
    histograms: &Mutex<ViewerHistograms>,
    last_seq: &mut HashMap<usize, u64>,
) {
    let received_us = unix_us();
    let c = &shared.counters;
    let (Some(mat), Some((seq, device_time_ms))) = (mat_of(topic), pool.read_stamp(payload)) else {
        c.bad_maps.fetch_add(1, Ordering::Relaxed);
        return;
    };
    let previous = last_seq.insert(mat, seq);
    if !shared.measuring.load(Ordering::Relaxed) {
        return;
    }
    c.maps.fetch_add(1, Ordering::Relaxed);
    if payload.len() != pool.frame_len() {
        c.bad_maps.fetch_add(1, Ordering::Relaxed);
    }
    if let Some(prev) = previous
        && seq > prev + 1
    {
        c.seq_gaps.fetch_add(seq - prev - 1, Ordering::Relaxed);
    }
    let sent = shared.logs.get(mat).and_then(|log| log.sent_at(seq)).filter(|&us| us / 1_000 == device_time_ms);
    let latency = match sent {
        Some(us) => received_us.saturating_sub(us),
        None => {
            c.approximate.fetch_add(1, Ordering::Relaxed);
            received_us.saturating_sub(device_time_ms * 1_000)
        }
    };
    if let Ok(mut h) = histograms.lock() {
        h.end_to_end_us.saturating_record(latency.max(1));
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::frames::Framing;
    use crate::viewer::ViewerCounters;

    #[test]
    fn topics_round_trip() {
        assert_eq!(topic(17), "mats/17");
        assert_eq!(mat_of(&topic(17)), Some(17));
        assert_eq!(mat_of("other/1"), None);
    }

    #[test]
    fn relayed_frames_are_timed_from_their_slot_and_gaps_counted() {
        let pool = FramePool::from_cells(&[vec![3u8; 16]], Framing::Bare, mat_protocol::FrameEncoding::Dense);
        let log = Arc::new(SendLog::default());
        let slot = unix_us() - 4_000;
        log.record(8, slot);
        let shared = ViewerShared {
            counters: ViewerCounters::default(),
            measuring: AtomicBool::new(true),
            logs: vec![Arc::new(SendLog::default()), log],
            index: Arc::default(),
        };
        let histograms = Mutex::new(ViewerHistograms::default());
        let mut last = HashMap::from([(1usize, 5u64)]);
        on_message("mats/1", &pool.frame(0, 8, slot / 1_000), &pool, &shared, &histograms, &mut last);
        let c = &shared.counters;
        assert_eq!(c.maps.load(Ordering::Relaxed), 1);
        assert_eq!(c.seq_gaps.load(Ordering::Relaxed), 2);
        assert_eq!(c.approximate.load(Ordering::Relaxed), 0);
        let h = histograms.lock().expect("lock");
        assert!(h.end_to_end_us.max() >= 4_000 && h.end_to_end_us.max() < 1_000_000);
        drop(h);
        on_message("mats/x", b"junk", &pool, &shared, &histograms, &mut last);
        assert_eq!(c.bad_maps.load(Ordering::Relaxed), 1);
    }
}
