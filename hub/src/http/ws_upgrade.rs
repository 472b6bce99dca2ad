//! A WebSocket upgrade finished by us rather than by warp, so that the socket gets our tungstenite
//! configuration. warp 0.4's `Ws` sets only the message, frame and write limits: its sockets keep
//! tungstenite's default 128 KiB read buffer, allocated for every connection and zeroed before
//! every read attempt (`FrameCodec::read_in` resizes it to its capacity). That was most of what an
//! idle browser cost the hub (issue 26 §3), and two 128 KiB memsets per frame a WebSocket device
//! sends (the read, then the attempt that finds nothing more; issue 26 §1, docs/performance.md).
//! Browsers (`/ws`) and devices (`/ingest`) are both upgraded here.
//!
//! `warp::ws()` still checks the request (GET, `Connection: upgrade`, `Upgrade: websocket`,
//! version 13, a key) and rejects it as before; we answer the 101 and take the upgraded
//! connection from hyper ourselves.

use std::future::Future;

use hyper_util::rt::TokioIo;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};
use warp::filters::BoxedFilter;
use warp::http::{StatusCode, header};
use warp::hyper::upgrade::{OnUpgrade, Upgraded};
use warp::{Filter, Reply};

/// What each socket reserves to read into: a browser's authentication is a few hundred bytes, a
/// device's 48 × 48 frame 2.3 KB (1.1 KB packed); a larger message grows the buffer for itself,
/// up to the message limit, and several small ones are read at once.
pub const READ_BUFFER: usize = 4 * 1024;

/// A socket's configuration: messages and frames up to `message_limit`, a read buffer of
/// [`READ_BUFFER`] (or the limit, if smaller).
pub fn socket_config(message_limit: usize) -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(READ_BUFFER.min(message_limit))
        .max_message_size(Some(message_limit))
        .max_frame_size(Some(message_limit))
}

/// A server-side WebSocket over an upgraded HTTP connection.
pub type ServerSocket = WebSocketStream<TokioIo<Upgraded>>;

/// A checked upgrade request, finished by [`Upgrade::on_upgrade`].
pub struct Upgrade {
    key: String,
    on_upgrade: Option<OnUpgrade>,
}

/// Extracts an [`Upgrade`] from a valid WebSocket request; rejects other requests as
/// `warp::ws()` does.
pub fn upgrade() -> BoxedFilter<(Upgrade,)> {
    // hyper's upgrade handle is taken before `warp::ws()`, which removes it from the request.
    warp::ext::optional::<OnUpgrade>()
        .and(warp::ws())
        .and(warp::header::<String>("sec-websocket-key"))
        .map(|on_upgrade: Option<OnUpgrade>, _checked: warp::ws::Ws, key: String| Upgrade { key, on_upgrade })
        .boxed()
}

impl Upgrade {
    /// Answers `101 Switching Protocols` and, once hyper hands the connection over, runs `serve`
    /// on it as a WebSocket with `config`.
    pub fn on_upgrade<F, U>(self, config: WebSocketConfig, serve: F) -> warp::reply::Response
    where
        F: FnOnce(ServerSocket) -> U + Send + 'static,
        U: Future<Output = ()> + Send + 'static,
    {
        match self.on_upgrade {
            Some(on_upgrade) => {
                tokio::spawn(async move {
                    match on_upgrade.await {
                        Ok(upgraded) => {
                            serve(WebSocketStream::from_raw_socket(TokioIo::new(upgraded), Role::Server, Some(config)).await).await
                        }
                        Err(error) => tracing::debug!(%error, "websocket upgrade failed"),
                    }
                });
            }
            None => tracing::debug!("websocket request without hyper's upgrade handle"),
        }
        let accept = derive_accept_key(self.key.as_bytes());
        let reply = warp::reply::with_status(warp::reply(), StatusCode::SWITCHING_PROTOCOLS);
        let reply = warp::reply::with_header(reply, header::CONNECTION, "upgrade");
        let reply = warp::reply::with_header(reply, header::UPGRADE, "websocket");
        warp::reply::with_header(reply, header::SEC_WEBSOCKET_ACCEPT, accept).into_response()
    }
}
