//! The one task that delivers the queued alarm reports (I/O around `ihe_pcd`).
//!
//! Each round reads the pending reports that are due, oldest first, and sends each over MLLP to
//! its company's manager on a connection kept open per destination, then waits up to
//! [`ACK_TIMEOUT`] for the ACK. `ihe_pcd::retry::disposition` decides: `AA` delivered, `AE` /
//! silence / a closed socket / a failed TLS handshake retried after `ihe_pcd::retry::backoff`, `AR` a dead letter. A report
//! that failed keeps the reports behind it to the same destination for the next round, so a
//! manager sees one alarm's phases in order. A report stays `pending` until its answer is stored:
//! a hub killed in between sends it again after its restart with the same control id (at least
//! once; the manager drops the duplicate by MSH-10).
//!
//! A company's manager with TLS on is reached over TLS (`super::tls`), trusting only the CA its
//! administrators set.
//!
//! Keep-alive: every [`PROBE_INTERVAL`] without traffic, the sender opens (or checks) the
//! connection to each destination in use, so the link state administrators see is at most that
//! old; no HL7 message is sent for it (docs/decisions.md, "PCD-04 link keep-alive").

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use actors::metrics::HubMetrics;
use ihe_pcd::ack::parse_ack;
use ihe_pcd::mllp::{FrameReader, frame};
use ihe_pcd::retry::{Disposition, backoff, disposition};
use storage::Store;
use storage::repo::OutboxEntry;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::watch;

use super::in_use::InUse;
use super::{AlarmReporter, Destination, unix_ms};

/// How long a report waits for its ACK.
pub const ACK_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a connection attempt may take.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How often an idle path is checked.
pub const PROBE_INTERVAL: Duration = Duration::from_secs(30);
/// Reports read per round.
const BATCH: usize = 64;
/// An ACK longer than this is not one.
const MAX_ACK_BYTES: usize = 64 * 1024;
/// How long a round waits when a company has no manager any more (the report stays queued).
const NO_ROUTE_RETRY: Duration = Duration::from_secs(60);

/// A byte stream to a manager: plain TCP or TLS over it.
trait Io: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}

/// A connection to one manager.
struct Link {
    stream: Box<dyn Io>,
    reader: FrameReader,
}

/// Runs until `stop` turns true, counting what it delivers, retries and dead-letters in
/// `metrics` and reading its queue gauges after every round: a round follows every new report,
/// resend and retry, and comes at least every [`PROBE_INTERVAL`], so the gauges are never older.
pub async fn run(store: Store, reporter: Arc<AlarmReporter>, metrics: Arc<HubMetrics>, mut stop: watch::Receiver<bool>) {
    let mut links: HashMap<Destination, Link> = HashMap::new();
    let mut used = InUse::default();
    let mut last_probe = tokio::time::Instant::now();
    loop {
        if *stop.borrow() {
            return;
        }
        let wait = match round(&store, &reporter, &metrics, &mut links, &mut used).await {
            Ok(next) => next,
            Err(error) => {
                tracing::warn!(%error, "alarm reports: the queue could not be read");
                Duration::from_secs(1)
            }
        };
        if last_probe.elapsed() >= PROBE_INTERVAL {
            last_probe = tokio::time::Instant::now();
            for gone in used.retain_routed(&routes_now(&reporter, &used).await) {
                reporter.links.forget(&gone);
                links.remove(&gone);
            }
            for (destination, ca_pem) in used.iter() {
                probe(destination, ca_pem, &reporter, &mut links).await;
            }
        }
        read_gauges(&store, &reporter, &metrics).await;
        let wait = wait.min(PROBE_INTERVAL.saturating_sub(last_probe.elapsed())).max(Duration::from_millis(10));
        tokio::select! {
            _ = tokio::time::sleep(wait) => {}
            _ = reporter.wake.notified() => {}
            _ = stop.changed() => {}
        }
    }
}

/// Where each company reported to since the start reports now (a company whose settings
/// cannot be read is left out, so kept).
async fn routes_now(reporter: &AlarmReporter, used: &InUse) -> HashMap<String, Option<Destination>> {
    let mut routes = HashMap::new();
    for company_id in used.companies() {
        match reporter.route_of(&company_id).await {
            Ok(route) => {
                routes.insert(company_id, route.map(|r| r.destination));
            }
            Err(error) => tracing::warn!(%error, company_id, "alarm reports: the company's manager could not be read"),
        }
    }
    routes
}

/// The queue's gauges for `/metrics`: every company's waiting reports and dead letters, the
/// oldest waiting one's age, the links down. A failed read keeps the last figures.
async fn read_gauges(store: &Store, reporter: &AlarmReporter, metrics: &HubMetrics) {
    let queue = &metrics.alarm_queue;
    queue.links_down.store(reporter.links.down_count() as u64, Ordering::Relaxed);
    match store.hub_wide().alarm_outbox().overview().await {
        Ok(overview) => {
            queue.pending.store(overview.counts.pending, Ordering::Relaxed);
            queue.dead.store(overview.counts.dead, Ordering::Relaxed);
            let age_s = overview.oldest_pending_ms.map_or(0, |created| ((unix_ms() - created).max(0) / 1000) as u64);
            queue.oldest_pending_age_s.store(age_s, Ordering::Relaxed);
        }
        Err(error) => tracing::warn!(%error, "alarm reports: the queue's figures could not be read"),
    }
}

/// Sends what is due; returns how long to wait before the next round.
async fn round(
    store: &Store,
    reporter: &AlarmReporter,
    metrics: &HubMetrics,
    links: &mut HashMap<Destination, Link>,
    used: &mut InUse,
) -> Result<Duration, storage::StoreError> {
    let outbox = store.hub_wide().alarm_outbox();
    let due = outbox.due(unix_ms(), BATCH).await?;
    let mut blocked: HashSet<Destination> = HashSet::new();
    let mut routes = HashMap::new();
    for entry in &due {
        if !routes.contains_key(&entry.company_id) {
            routes.insert(entry.company_id.clone(), reporter.route_of(&entry.company_id).await?);
        }
        let Some(route) = routes[&entry.company_id].as_ref() else {
            let next = unix_ms() + NO_ROUTE_RETRY.as_millis() as i64;
            outbox.mark_retry(&entry.control_id, next, "no alarm manager is configured for the company").await?;
            continue;
        };
        let destination = &route.destination;
        used.note(destination, route.ca_pem.as_deref(), &entry.company_id);
        if blocked.contains(destination) {
            continue;
        }
        let answer = exchange(destination, route.ca_pem.as_deref(), entry, links).await;
        let now = unix_ms();
        match &answer {
            Ok(_) => reporter.links.up(destination, now),
            Err(why) => reporter.links.down(destination, now, why),
        }
        match disposition(&entry.control_id, answer) {
            Disposition::Delivered => {
                outbox.mark_delivered(&entry.control_id, now).await?;
                HubMetrics::inc(&metrics.alarm_reports_delivered);
            }
            Disposition::Retry(why) => {
                HubMetrics::inc(&metrics.alarm_reports_retried);
                tracing::info!(control_id = %entry.control_id, %destination, %why, "alarm report: will retry");
                let attempts = u32::try_from(entry.attempts + 1).unwrap_or(u32::MAX);
                outbox.mark_retry(&entry.control_id, now + backoff(attempts).as_millis() as i64, &why).await?;
                blocked.insert(destination.clone());
            }
            Disposition::DeadLetter(why) => {
                tracing::warn!(control_id = %entry.control_id, %destination, %why, "alarm report refused: dead letter");
                outbox.mark_dead(&entry.control_id, &why).await?;
                HubMetrics::inc(&metrics.alarm_reports_dead_lettered);
            }
        }
    }
    if due.len() == BATCH && blocked.is_empty() {
        return Ok(Duration::ZERO);
    }
    let next = outbox.next_due_ms().await?;
    Ok(next.map_or(PROBE_INTERVAL, |at| Duration::from_millis((at - unix_ms()).max(0) as u64)))
}

/// Sends one report and reads its ACK; the connection is dropped on any failure.
async fn exchange(
    destination: &Destination,
    ca_pem: Option<&str>,
    entry: &OutboxEntry,
    links: &mut HashMap<Destination, Link>,
) -> Result<ihe_pcd::ack::Ack, String> {
    let result = async {
        let link = connected(destination, ca_pem, links).await?;
        link.stream.write_all(&frame(&entry.message)).await.map_err(|e| format!("sending: {e}"))?;
        let bytes = tokio::time::timeout(ACK_TIMEOUT, read_frame(link))
            .await
            .map_err(|_| format!("no ACK within {} s", ACK_TIMEOUT.as_secs()))??;
        parse_ack(&bytes).map_err(|e| e.to_string())
    }
    .await;
    if result.is_err() {
        links.remove(destination);
    }
    result
}

async fn read_frame(link: &mut Link) -> Result<Vec<u8>, String> {
    let mut buffer = [0u8; 4096];
    loop {
        let n = link.stream.read(&mut buffer).await.map_err(|e| format!("reading the ACK: {e}"))?;
        if n == 0 {
            return Err("the manager closed the connection without an ACK".into());
        }
        let frames = link.reader.push(&buffer[..n]).map_err(|_| "the answer is longer than an ACK can be".to_string())?;
        if let Some(first) = frames.into_iter().next() {
            return Ok(first);
        }
    }
}

/// The open connection to `destination`, opened if needed (and reopened if the manager closed
/// it); over TLS trusting `ca_pem` when the destination asks for TLS.
async fn connected<'a>(
    destination: &Destination,
    ca_pem: Option<&str>,
    links: &'a mut HashMap<Destination, Link>,
) -> Result<&'a mut Link, String> {
    if let Some(link) = links.get_mut(destination)
        && peer_closed(link).await
    {
        links.remove(destination);
    }
    if !links.contains_key(destination) {
        let opened = tokio::time::timeout(CONNECT_TIMEOUT, open(destination, ca_pem))
            .await
            .map_err(|_| format!("connecting to {destination}: timed out"))??;
        links.insert(destination.clone(), Link { stream: opened, reader: FrameReader::new(MAX_ACK_BYTES) });
    }
    Ok(links.get_mut(destination).expect("inserted above"))
}

/// A new connection: TCP, then the TLS handshake when the destination asks for TLS.
async fn open(destination: &Destination, ca_pem: Option<&str>) -> Result<Box<dyn Io>, String> {
    let tcp =
        TcpStream::connect((destination.host.as_str(), destination.port)).await.map_err(|e| format!("connecting to {destination}: {e}"))?;
    let _ = tcp.set_nodelay(true);
    if !destination.tls {
        return Ok(Box::new(tcp));
    }
    let ca_pem = ca_pem.ok_or_else(|| format!("{destination}: no certificate authority to trust"))?;
    Ok(Box::new(super::tls::connect(tcp, &destination.host, ca_pem).await?))
}

/// Whether the peer has closed an idle connection (a read would return end of stream now).
/// Bytes that arrive unasked are kept for the frame reader; TLS records are read through.
async fn peer_closed(link: &mut Link) -> bool {
    let mut bytes = [0u8; 512];
    match tokio::time::timeout(Duration::ZERO, link.stream.read(&mut bytes)).await {
        Err(_) => false,
        Ok(Ok(0)) | Ok(Err(_)) => true,
        Ok(Ok(n)) => link.reader.push(&bytes[..n]).is_err(),
    }
}

/// Checks the path to `destination` (connects if no connection is open).
async fn probe(destination: &Destination, ca_pem: Option<&str>, reporter: &AlarmReporter, links: &mut HashMap<Destination, Link>) {
    match connected(destination, ca_pem, links).await {
        Ok(_) => reporter.links.up(destination, unix_ms()),
        Err(why) => reporter.links.down(destination, unix_ms(), &why),
    }
}
