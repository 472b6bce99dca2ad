//! The HTTP server: REST API (spec §7), browser WebSocket `/ws`, device WebSocket `/ingest`,
//! Prometheus `/metrics`, and the client files.

pub mod auth;
pub mod browser_ws;
pub mod devices;
pub mod error;
pub mod state;
pub mod static_files;

use std::net::SocketAddr;
use std::sync::Arc;

use warp::filters::BoxedFilter;
use warp::{Filter, Reply};

use self::auth::{authenticated, with_state, LOGIN_BODY_LIMIT};
use self::error::ApiError;
use self::state::AppState;
use crate::ingest::websocket::TRANSPORT_MESSAGE_LIMIT;

/// Largest browser WebSocket message accepted (browsers send small events).
const BROWSER_MESSAGE_LIMIT: usize = 64 * 1024;

/// Every route of the hub.
pub fn routes(state: Arc<AppState>) -> BoxedFilter<(warp::reply::Response,)> {
    let login = warp::path!("api" / "auth" / "login")
        .and(warp::post())
        .and(with_state(state.clone()))
        .and(warp::body::content_length_limit(LOGIN_BODY_LIMIT))
        .and(warp::body::json())
        .and_then(auth::login);
    let user_devices = warp::path!("api" / "userDevices")
        .and(warp::get())
        .and(with_state(state.clone()))
        .and(authenticated(state.clone()))
        .and_then(devices::user_devices);
    let device_confs = warp::path!("api" / "deviceConfCompany")
        .and(warp::get())
        .and(with_state(state.clone()))
        .and(authenticated(state.clone()))
        .and_then(devices::device_conf_company);
    let metrics = {
        let metrics = state.metrics.clone();
        warp::path!("metrics").and(warp::get()).map(move || {
            warp::reply::with_header(metrics.render(), "content-type", "text/plain; version=0.0.4").into_response()
        })
    };
    let browser_socket = warp::path!("ws")
        .and(warp::ws())
        .and(warp::header::optional::<String>("authorization"))
        .and(with_state(state.clone()))
        .map(|ws: warp::ws::Ws, header: Option<String>, state: Arc<AppState>| {
            let claims = header.as_deref().and_then(|h| h.strip_prefix("Bearer ")).and_then(|t| auth::verify(&state, t).ok());
            ws.max_message_size(BROWSER_MESSAGE_LIMIT).on_upgrade(move |socket| browser_ws::serve(socket, state, claims)).into_response()
        });
    let device_socket = warp::path!("ingest")
        .and(warp::ws())
        .and(warp::addr::remote())
        .and(with_state(state.clone()))
        .map(|ws: warp::ws::Ws, peer: Option<SocketAddr>, state: Arc<AppState>| {
            let ingest = state.ingest.clone();
            ws.max_message_size(TRANSPORT_MESSAGE_LIMIT)
                .max_frame_size(TRANSPORT_MESSAGE_LIMIT)
                .on_upgrade(move |socket| crate::ingest::websocket::serve(socket, peer, ingest))
                .into_response()
        });
    let unknown_api = warp::path("api").and_then(|| async {
        Err::<warp::reply::Response, _>(warp::reject::custom(ApiError::new(warp::http::StatusCode::NOT_FOUND, "notFound", "no such API call")))
    });
    login
        .or(user_devices)
        .unify()
        .or(device_confs)
        .unify()
        .or(metrics)
        .unify()
        .or(browser_socket)
        .unify()
        .or(device_socket)
        .unify()
        .or(unknown_api)
        .unify()
        .or(static_files::routes(state.client_dir.clone()))
        .unify()
        .recover(error::recover)
        .unify()
        .boxed()
}
