//! The HTTP listener: plain or TLS (rustls, the QUIC certificate), HTTP/1.1 with upgrades (the
//! browser socket `/ws` and device socket `/ingest`), each connection served by the warp routes.
//!
//! warp 0.4 has no TLS of its own, so the hub accepts connections itself: a TLS handshake when
//! configured (bounded by [`TLS_HANDSHAKE_TIMEOUT`]), then hyper-util around warp's service. The
//! peer address reaches handlers as a [`PeerAddr`] request extension (read with [`remote`]).

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use anyhow::Context as _;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto::Builder;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio_rustls::TlsAcceptor;
use warp::Filter;
use warp::filters::BoxedFilter;

use crate::tls::ServerIdentity;

/// A client must finish its TLS handshake within this long.
pub const TLS_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// The address of the connection a request came on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PeerAddr(pub SocketAddr);

/// The client's address (`None` only if a request did not come through [`serve`]).
pub fn remote() -> impl Filter<Extract = (Option<SocketAddr>,), Error = Infallible> + Clone {
    warp::ext::optional::<PeerAddr>().map(|peer: Option<PeerAddr>| peer.map(|p| p.0))
}

/// A rustls server configuration for HTTPS from the hub's certificate (HTTP/1.1 only: the
/// sockets upgrade from HTTP/1.1).
pub fn tls_config(identity: &ServerIdentity) -> anyhow::Result<Arc<rustls::ServerConfig>> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .context("choosing TLS versions")?
        .with_no_client_auth()
        .with_single_cert(identity.chain.clone(), identity.key.clone_key())
        .context("the HTTPS certificate and key do not match")?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

/// Serves `routes` on `listener` until `stop` turns true, over TLS when `tls` is set.
pub async fn serve(
    listener: TcpListener,
    routes: BoxedFilter<(warp::reply::Response,)>,
    tls: Option<Arc<rustls::ServerConfig>>,
    mut stop: watch::Receiver<bool>,
) {
    // Every answer, whichever route gave it, carries the security headers (HSTS under TLS).
    let routes = super::security_headers::wrap(routes, tls.is_some());
    let acceptor = tls.map(TlsAcceptor::from);
    let graceful = GracefulShutdown::new();
    let stopping = async move {
        let _ = stop.wait_for(|s| *s).await;
    };
    tokio::pin!(stopping);
    loop {
        let (tcp, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(error) => {
                    // Out of file descriptors and the like: wait instead of spinning.
                    tracing::warn!(%error, "accepting an HTTP connection failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut stopping => break,
        };
        // Live maps go out as many small writes: with Nagle's algorithm on, a write waits for
        // the browser's delayed ACK of the one before it (40 ms on Linux; it was the p99 of
        // hub → browser under load). The writer already batches what is waiting.
        if let Err(error) = tcp.set_nodelay(true) {
            tracing::debug!(%peer, %error, "could not turn Nagle's algorithm off");
        }
        let service = TowerToHyperService::new(WithPeer { inner: warp::service(routes.clone()), peer: PeerAddr(peer) });
        let watcher = graceful.watcher();
        let acceptor = acceptor.clone();
        tokio::spawn(async move {
            let builder = Builder::new(TokioExecutor::new());
            let result = match acceptor {
                None => watcher.watch(builder.serve_connection_with_upgrades(TokioIo::new(tcp), service)).await,
                Some(acceptor) => match tokio::time::timeout(TLS_HANDSHAKE_TIMEOUT, acceptor.accept(tcp)).await {
                    Ok(Ok(stream)) => watcher.watch(builder.serve_connection_with_upgrades(TokioIo::new(stream), service)).await,
                    Ok(Err(error)) => {
                        tracing::debug!(%peer, %error, "TLS handshake failed");
                        return;
                    }
                    Err(_) => {
                        tracing::debug!(%peer, "TLS handshake timed out");
                        return;
                    }
                },
            };
            if let Err(error) = result {
                tracing::debug!(%peer, %error, "HTTP connection ended with an error");
            }
        });
    }
    drop(listener);
    graceful.shutdown().await;
}

/// Adds the connection's [`PeerAddr`] to every request.
#[derive(Clone)]
struct WithPeer<S> {
    inner: S,
    peer: PeerAddr,
}

impl<S, B> tower_service::Service<warp::http::Request<B>> for WithPeer<S>
where
    S: tower_service::Service<warp::http::Request<B>>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: warp::http::Request<B>) -> Self::Future {
        request.extensions_mut().insert(self.peer);
        self.inner.call(request)
    }
}
