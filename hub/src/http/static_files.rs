//! The built client: files from the client directory, and `index.html` for every other GET so
//! the single-page app's routes (/devices, /mattressMatIoT, …) load directly.

use std::path::PathBuf;

use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::{Filter, Reply};

const NOT_BUILT: &str = "<!doctype html><title>Pressure hub</title><body style=\"font-family:sans-serif\">\
<h1>The client is not built</h1><p>Run <code>npm --prefix client ci &amp;&amp; npm --prefix client run build</code> \
or start the hub with <code>--client-dir</code> pointing at a built client. The API is up.</p></body>";

/// Serves the client bundle with an SPA fallback.
pub fn routes(client_dir: PathBuf) -> BoxedFilter<(warp::reply::Response,)> {
    let index = client_dir.join("index.html");
    let files = warp::fs::dir(client_dir).map(Reply::into_response);
    let fallback = warp::get()
        .and(warp::path::full())
        .and_then(move |path: warp::path::FullPath| {
            let index = index.clone();
            async move {
                if path.as_str().starts_with("/api/") || path.as_str().starts_with("/local/") || path.as_str().starts_with("/assets/") {
                    return Err(warp::reject::not_found());
                }
                Ok::<_, warp::Rejection>(match tokio::fs::read(&index).await {
                    Ok(html) => warp::reply::with_header(html, "content-type", "text/html; charset=utf-8").into_response(),
                    Err(_) => warp::reply::with_status(warp::reply::html(NOT_BUILT), StatusCode::OK).into_response(),
                })
            }
        });
    warp::get().and(files.or(fallback).unify()).boxed()
}
