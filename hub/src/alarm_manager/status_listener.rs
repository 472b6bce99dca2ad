//! IHE PCD-05 Report Alert Status: the hub's own MLLP listener (`--alarm-status-listen ADDR`,
//! `HUB_ALARM_STATUS_LISTEN`) where alarm managers send `ORA^R41` about the alarms the hub
//! reported to them (delivered, read, accepted by a named nurse, escalated…).
//!
//! Bytes go through `ihe_pcd::status_stream` (pure, fuzzed); this file is the I/O around it and
//! the decision of what a readable report is worth ([`receive`]):
//! - the report names an alarm (OBR-3) the hub reported to a manager: the `alarm_outbox` row of
//!   that alarm says which company it belongs to (a manager knows no other id of ours);
//! - it must come from an address the company's manager host resolves to (the company's own, or
//!   the hub-wide default it uses): another company's manager, or anyone else on the network,
//!   cannot write statuses on an alarm it was never sent;
//! - then it is stored on the alarm (`alarm_status`, once per control id), broadcast to the
//!   company's sessions (`alarmStatus`) — in a cluster to every hub's, whichever hub owns the
//!   device (issue 25) — and answered `AA`.
//!
//! An unknown alarm (or one from the wrong address, answered alike so nothing is revealed) is
//! `AE`; what is not a status report at all is `AR`; a frame over 64 KiB closes the connection.
//!
//! Over TLS when the hub has the listener's certificate (`super::tls::listener_config`): every
//! connection starts with the handshake (at most [`HANDSHAKE_TIMEOUT`]), and with a client CA set
//! a manager without a certificate of that CA is refused in it, before any byte of HL7 is read.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use actors::browser::{AlarmStatusEvent, encode_event, events};
use actors::fanout::Bus;
use ihe_pcd::pcd05::{AlertStatus, Answer, ack};
use ihe_pcd::status_stream::{Incoming, StatusStream};
use storage::Store;
use storage::repo::AlarmStatus;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tokio_rustls::TlsAcceptor;

use super::destination::DEFAULT_SENDING_APPLICATION;
use super::{AlarmReporter, unix_ms};

/// Connections served at once; more wait to be accepted.
const MAX_CONNECTIONS: usize = 32;
/// A connection silent this long is closed (managers reconnect).
const IDLE_TIMEOUT: Duration = Duration::from_secs(600);
/// How long a TLS handshake may take.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest control id or name kept (the table's limit).
const MAX_TEXT: usize = 200;

/// What the listener needs of the hub.
pub struct StatusContext {
    pub store: Store,
    pub reporter: Arc<AlarmReporter>,
    pub bus: Arc<Bus>,
}

/// Accepts managers' connections until `stop` turns true; over TLS when `tls` is set.
pub async fn run(listener: TcpListener, tls: Option<TlsAcceptor>, context: Arc<StatusContext>, mut stop: watch::Receiver<bool>) {
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let Ok(permit) = slots.clone().acquire_owned().await else { return };
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = stop.changed() => return,
        };
        match accepted {
            Ok((stream, peer)) => {
                let context = context.clone();
                let stop = stop.clone();
                let tls = tls.clone();
                tokio::spawn(async move {
                    let _ = stream.set_nodelay(true);
                    match tls {
                        None => serve(stream, peer, &context, stop).await,
                        Some(acceptor) => match tokio::time::timeout(HANDSHAKE_TIMEOUT, acceptor.accept(stream)).await {
                            Ok(Ok(secured)) => serve(secured, peer, &context, stop).await,
                            Ok(Err(error)) => tracing::warn!(%peer, %error, "alarm status connection refused: TLS handshake failed"),
                            Err(_) => tracing::warn!(%peer, "alarm status connection refused: no TLS handshake in time"),
                        },
                    }
                    drop(permit);
                });
            }
            Err(error) => {
                tracing::warn!(%error, "alarm status listener: accept failed");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

async fn serve(
    mut stream: impl AsyncRead + AsyncWrite + Unpin,
    peer: SocketAddr,
    context: &StatusContext,
    mut stop: watch::Receiver<bool>,
) {
    let mut reader = StatusStream::default();
    let mut buffer = vec![0u8; 8192];
    loop {
        let read = tokio::select! {
            read = tokio::time::timeout(IDLE_TIMEOUT, stream.read(&mut buffer)) => read,
            _ = stop.changed() => return,
        };
        let n = match read {
            Ok(Ok(0)) | Err(_) => return,
            Ok(Ok(n)) => n,
            Ok(Err(error)) => {
                tracing::debug!(%peer, %error, "alarm status connection failed");
                return;
            }
        };
        let Ok(incoming) = reader.push(&buffer[..n]) else {
            tracing::warn!(%peer, "alarm status report over 64 KiB: connection closed");
            return;
        };
        for item in incoming {
            let answer = match item {
                Incoming::Status(status) => receive(context, status, peer.ip(), unix_ms()).await,
                Incoming::Refused { control_id, why } => {
                    tracing::warn!(%peer, %why, "alarm status report refused (AR)");
                    Reply { control_id, code: Code::Reject(why), sending_application: DEFAULT_SENDING_APPLICATION.into() }
                }
            };
            if stream.write_all(&ihe_pcd::mllp::frame(&answer.message(unix_ms()))).await.is_err() {
                return;
            }
        }
    }
}

/// How a report is answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Code {
    Accept,
    Error(String),
    Reject(String),
}

/// The ACK to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub control_id: String,
    pub code: Code,
    pub sending_application: String,
}

impl Reply {
    fn message(&self, now_ms: i64) -> String {
        let answer = match &self.code {
            Code::Accept => Answer::Accept,
            Code::Error(why) => Answer::Error(why),
            Code::Reject(why) => Answer::Reject(why),
        };
        ack(&self.control_id, answer, &self.sending_application, now_ms.max(0) as u64)
    }
}

/// The answer to a report naming an alarm the hub does not know (or not for this sender).
pub const UNKNOWN_ALARM: &str = "unknown alarm";

/// Decides, stores and broadcasts one readable status report from `peer`.
pub async fn receive(context: &StatusContext, status: AlertStatus, peer: IpAddr, now_ms: i64) -> Reply {
    let reply = |code, sending_application: &str| Reply {
        control_id: status.control_id.clone(),
        code,
        sending_application: sending_application.to_owned(),
    };
    if status.control_id.chars().count() > MAX_TEXT {
        return reply(Code::Reject(format!("MSH-10 is longer than {MAX_TEXT} characters")), DEFAULT_SENDING_APPLICATION);
    }
    let unknown = || {
        tracing::info!(alarm = %status.alarm_id, %peer, "alarm status for an alarm this manager was not sent (AE)");
        reply(Code::Error(UNKNOWN_ALARM.into()), DEFAULT_SENDING_APPLICATION)
    };
    let company = match context.store.hub_wide().alarm_outbox().company_of_alarm(&status.alarm_id).await {
        Ok(Some(company)) => company,
        Ok(None) => return unknown(),
        Err(error) => return store_failed(&status, &error),
    };
    let route = match context.reporter.route_of(&company).await {
        Ok(Some(route)) => route,
        Ok(None) => return unknown(),
        Err(error) => return store_failed(&status, &error),
    };
    if !sent_by_manager(&route.destination.host, route.destination.port, peer).await {
        return unknown();
    }
    let Some((device, _)) = status.alarm_id.rsplit_once('-') else { return unknown() };
    let row = AlarmStatus {
        alarm: status.alarm_id.clone(),
        device: device.to_owned(),
        status: status.status.clone(),
        who: status.by.as_ref().map(|w| w.chars().take(MAX_TEXT).collect()),
        at_ms: status.at.as_deref().and_then(ihe_pcd::parse_hl7_timestamp),
        received_ms: now_ms,
        control_id: status.control_id.clone(),
    };
    let application = route.parties.sending_application.as_str();
    match context.store.company(&company).alarm_statuses().add(&row).await {
        Ok(true) => {
            tracing::info!(alarm = %row.alarm, status = %row.status, who = ?row.who, "alarm manager status");
            let event = AlarmStatusEvent {
                device_id: row.device.clone(),
                alarm: row.alarm.clone(),
                status: row.status.clone(),
                who: row.who.clone(),
                at_ms: row.at_ms.unwrap_or(row.received_ms),
            };
            context.bus.company(&company).broadcast_received(&row.device, encode_event(events::ALARM_STATUS, event));
            reply(Code::Accept, application)
        }
        // The same report again (the manager's retry): already stored, acknowledged again.
        Ok(false) => reply(Code::Accept, application),
        Err(error) => store_failed(&status, &error),
    }
}

fn store_failed(status: &AlertStatus, error: &storage::StoreError) -> Reply {
    tracing::warn!(alarm = %status.alarm_id, %error, "an alarm status could not be stored (AE)");
    Reply {
        control_id: status.control_id.clone(),
        code: Code::Error("the hub cannot store the status now".into()),
        sending_application: DEFAULT_SENDING_APPLICATION.into(),
    }
}

/// Whether `peer` is an address the manager's host resolves to.
async fn sent_by_manager(host: &str, port: u16, peer: IpAddr) -> bool {
    let peer = canonical(peer);
    if let Ok(ip) = host.parse::<IpAddr>() {
        return canonical(ip) == peer;
    }
    match tokio::net::lookup_host((host, port)).await {
        Ok(addresses) => addresses.map(|a| canonical(a.ip())).any(|ip| ip == peer),
        Err(_) => false,
    }
}

/// An IPv4 address seen through an IPv6 socket is the IPv4 address.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
        v4 => v4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_status_counts_only_from_the_managers_address() {
        let loopback: IpAddr = "127.0.0.1".parse().unwrap();
        assert!(sent_by_manager("127.0.0.1", 2575, loopback).await);
        assert!(sent_by_manager("127.0.0.1", 2575, "::ffff:127.0.0.1".parse().unwrap()).await, "v4 through a v6 socket");
        assert!(sent_by_manager("localhost", 2575, loopback).await, "a host name resolved");
        assert!(!sent_by_manager("127.0.0.2", 2575, loopback).await);
        assert!(!sent_by_manager("no-such-host.invalid", 2575, loopback).await);
    }

    #[test]
    fn replies_are_acks_of_the_reports_control_id() {
        use ihe_pcd::ack::{AckCode, parse_ack};
        let reply = |code| Reply { control_id: "st-1".into(), code, sending_application: "PMAT_WARD".into() };
        for (code, expected) in [
            (Code::Accept, AckCode::Accept),
            (Code::Error(UNKNOWN_ALARM.into()), AckCode::Error),
            (Code::Reject("garbage".into()), AckCode::Reject),
        ] {
            let read = parse_ack(reply(code).message(0).as_bytes()).unwrap();
            assert_eq!((read.code, read.control_id.as_str()), (expected, "st-1"));
        }
    }
}
