//! `GET /health`: the hub's health as JSON (`crate::health::report`), 503 while it is degraded,
//! for the IT team's monitoring; `GET /health/live`: 200 while the hub serves HTTP, for a load
//! balancer (a database every hub shares going down must not take every hub out of rotation:
//! docs/decisions.md, "The hub's health for the IT team"). Neither needs a token nor reaches the
//! database, and neither says more than `/metrics` does.

use std::sync::Arc;

use actors::metrics::{HubMetrics, unix_now_ms};
use warp::Filter;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Reply;

/// Both routes.
pub fn routes(metrics: Arc<HubMetrics>) -> BoxedFilter<(warp::reply::Response,)> {
    let report = warp::path!("health").and(warp::get()).map(move || {
        let report = crate::health::report(&metrics, unix_now_ms());
        let status = if report.problems.is_empty() { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
        warp::reply::with_status(warp::reply::json(&report), status).into_response()
    });
    let live = warp::path!("health" / "live")
        .and(warp::get())
        .map(|| warp::reply::with_header("live\n", "content-type", "text/plain; charset=utf-8").into_response());
    report.or(live).unify().boxed()
}
