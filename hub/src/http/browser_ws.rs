//! The browser WebSocket `/ws`: authenticate, then a `SessionActor` handles events and a writer
//! task drains the session's outbox into the socket. A paired ward screen's socket (role 3)
//! follows its unit's devices only and acts on none; it closes when the screen is unpaired.
//!
//! A browser that stops reading never slows anyone: publishers only touch its outbox, which
//! conflates live maps and, once too many status changes wait, closes. The writer races each
//! send against that close, so a stalled socket is torn down instead of lingering.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use actors::actor::session::{CALL_TIMEOUT, SessionActor, SessionArgs, SessionMsg};
use actors::browser::{ClientEvent, encode_event, error_event, events};
use actors::fanout::{CloseReason, DeviceScope, Outbox};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use serde::Serialize;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use super::auth::verify;
use super::state::AppState;
use super::ws_upgrade::ServerSocket as WebSocket;
use crate::auth::roles::ROLE_BOARD;
use crate::auth::token::Claims;
use crate::auth::verify::Refusal;

/// A browser must authenticate within this long.
pub const AUTH_TIMEOUT: Duration = Duration::from_secs(5);
/// Close code for an unauthenticated socket.
pub const CLOSE_UNAUTHORIZED: u16 = 4401;
/// Close code for a socket that could not keep up with status changes.
pub const CLOSE_SLOW_CONSUMER: u16 = 4008;
/// A send that takes longer than this means the browser stopped reading.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(10);
/// At most this many waiting messages are written with one flush.
const MAX_BATCH: usize = 64;
/// A close frame with an application's code and reason.
fn close_with(code: u16, reason: &'static str) -> Message {
    Message::Close(Some(CloseFrame { code: CloseCode::from(code), reason: reason.into() }))
}

static NEXT_SESSION: AtomicU64 = AtomicU64::new(1);

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Authenticated<'a> {
    user_id: &'a str,
    company_id: &'a str,
}

/// Serves one upgraded browser socket. `header_claims` are set when the upgrade request carried
/// a valid `Authorization` header.
pub async fn serve(socket: WebSocket, state: Arc<AppState>, header_claims: Option<Claims>) {
    let (mut sink, mut stream) = socket.split();
    let claims = match header_claims {
        Some(claims) => claims,
        None => match authenticate(&mut stream, &state).await {
            Ok(claims) => claims,
            Err(message) => {
                let _ = sink.send(Message::binary(error_event("unauthorized", &message))).await;
                let _ = sink.send(close_with(CLOSE_UNAUTHORIZED, "unauthorized")).await;
                return;
            }
        },
    };
    let board_scope = match board_scope(&state, &claims).await {
        Ok(scope) => scope,
        Err(message) => {
            let _ = sink.send(Message::binary(error_event("unauthorized", &message))).await;
            let _ = sink.send(close_with(CLOSE_UNAUTHORIZED, "unauthorized")).await;
            return;
        }
    };
    let outbox = Outbox::new(state.metrics.clone());
    if board_scope.is_some() {
        state.board_sockets.lock().unwrap_or_else(|p| p.into_inner()).entry(claims.user_id.clone()).or_default().push(outbox.clone());
    }
    outbox.push_control(encode_event(events::AUTHENTICATED, Authenticated { user_id: &claims.user_id, company_id: &claims.company_id }));
    let args = SessionArgs {
        id: NEXT_SESSION.fetch_add(1, Ordering::Relaxed),
        user_id: claims.user_id.clone(),
        company_id: claims.company_id.clone(),
        outbox: outbox.clone(),
        bus: state.bus.clone(),
        catalog: state.catalog.clone(),
        registry: state.actors.registry.clone(),
        board_scope: board_scope.clone(),
    };
    let session = match ractor::Actor::spawn_linked(None, SessionActor, args, state.actors.sessions.get_cell()).await {
        Ok((session, _)) => session,
        Err(error) => {
            tracing::error!(%error, "session actor could not start");
            let _ = sink.send(close_with(1011, "session unavailable")).await;
            return;
        }
    };
    state.metrics.sessions_connected.fetch_add(1, Ordering::Relaxed);
    // The reader has its own task, so it is polled only when the socket has something to read.
    // Raced in the writer's task it was polled at every outbox wake-up (every map sent), and each
    // poll of the socket's read side zeroed tungstenite's read buffer (then 128 KiB): the profile
    // of a loaded hub showed that memset at 11 % of its CPU (docs/performance.md).
    let mut reader = tokio::spawn({
        let (session, outbox) = (session.clone(), outbox.clone());
        async move { read_events(&mut stream, &session, &outbox).await }
    });
    let writer = write_outbox(&outbox, &mut sink);
    tokio::select! {
        _ = &mut reader => {}
        _ = writer => {}
    }
    reader.abort();
    session.stop(Some("socket closed".into()));
    outbox.close(CloseReason::Closed);
    if board_scope.is_some() {
        let mut sockets = state.board_sockets.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(open) = sockets.get_mut(&claims.user_id) {
            open.retain(|o| !Arc::ptr_eq(o, &outbox));
            if open.is_empty() {
                sockets.remove(&claims.user_id);
            }
        }
    }
    state.metrics.sessions_connected.fetch_sub(1, Ordering::Relaxed);
}

/// A ward screen's devices (its unit's, read when the socket opens: a device moved to another
/// unit later is followed until the screen reconnects); `None` for a person's socket.
async fn board_scope(state: &AppState, claims: &Claims) -> Result<Option<DeviceScope>, String> {
    if claims.role != ROLE_BOARD {
        return Ok(None);
    }
    let unit = state.board_screens.lock().unwrap_or_else(|p| p.into_inner()).unit(&claims.user_id, &claims.company_id).map(str::to_owned);
    let Some(unit) = unit else { return Err(Refusal::Unpaired.message().to_owned()) };
    let devices = state.store.hub_wide().devices().list_of_company(&claims.company_id).await.map_err(|e| e.to_string())?;
    Ok(Some(Arc::new(super::ward_screens::unit_scope(&devices, &unit))))
}

async fn authenticate(stream: &mut SplitStream<WebSocket>, state: &AppState) -> Result<Claims, String> {
    let first = tokio::time::timeout(AUTH_TIMEOUT, stream.next()).await.map_err(|_| "authenticate within 5 s".to_owned())?;
    let Some(Ok(message)) = first else { return Err("the socket closed".into()) };
    match rmp_serde::from_slice::<ClientEvent>(&message.into_data()) {
        Ok(ClientEvent::Authenticate { token }) => verify(state, &token).map_err(|e| e.message),
        _ => Err("the first message must be authenticate".into()),
    }
}

async fn read_events(stream: &mut SplitStream<WebSocket>, session: &ractor::ActorRef<SessionMsg>, outbox: &Outbox) {
    while let Some(Ok(message)) = stream.next().await {
        if message.is_close() {
            return;
        }
        if !message.is_binary() {
            continue;
        }
        match rmp_serde::from_slice::<ClientEvent>(&message.into_data()) {
            Ok(event) => {
                if session.call(|reply| SessionMsg::Client(event, reply), Some(CALL_TIMEOUT)).await.is_err() {
                    return;
                }
            }
            Err(error) => {
                outbox.push_control(error_event("invalidMessage", &format!("not a known {{event, data}} message: {error}")));
            }
        }
    }
}

async fn write_outbox(outbox: &Outbox, sink: &mut SplitSink<WebSocket, Message>) {
    // Live maps go out at most once per `LIVE_FLUSH_INTERVAL`, in one write; a control message
    // goes at once and takes the pending maps with it (the outbox keeps the pace:
    // `Outbox::batch_due`).
    loop {
        match outbox.batch_due().await {
            Ok(()) => {}
            Err(CloseReason::SlowConsumer) => {
                tracing::warn!("closing a browser session that cannot keep up with status changes");
                let farewell = async {
                    sink.send(Message::binary(error_event("slowConsumer", "too many unread status changes"))).await?;
                    sink.send(close_with(CLOSE_SLOW_CONSUMER, "slow consumer")).await
                };
                let _ = tokio::time::timeout(Duration::from_secs(1), farewell).await;
                return;
            }
            Err(CloseReason::Closed) => {
                let _ = tokio::time::timeout(Duration::from_secs(1), sink.send(Message::Close(None))).await;
                return;
            }
        }
        // What is waiting goes out together, flushed once (one write for the batch).
        let batch = async {
            for _ in 0..MAX_BATCH {
                let Ok(Some(message)) = outbox.try_recv() else { break };
                sink.feed(Message::binary(message)).await?;
            }
            sink.flush().await
        };
        // Biased: the batch is polled first, and a batch the socket takes at once (the usual
        // case) never registers a waiter for the outbox's closing, which is for a stalled socket.
        tokio::select! {
            biased;
            sent = tokio::time::timeout(SEND_TIMEOUT, batch) => {
                if !matches!(sent, Ok(Ok(()))) {
                    return;
                }
            }
            reason = outbox.wait_closed() => {
                tracing::warn!(?reason, "browser session closed while its socket was stalled");
                return;
            }
        }
    }
}
