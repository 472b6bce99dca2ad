//! The built client: files from the client directory, and `index.html` for every other GET so
//! the single-page app's routes (/devices, /mattressMatIoT, …) load directly.
//!
//! Served as a web server serves them: `GET` and `HEAD`, `Last-Modified` with
//! `If-Modified-Since` (304) and ranges (warp's `fs::dir`). Vite names the files under `/assets/`
//! by their content's hash, so a browser keeps them a year without asking again; `index.html`
//! (which names the current hashes) is never stored, so a new build is picked up on the next load;
//! the other files (translations, the icon) are revalidated each time.

use std::path::PathBuf;

use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::http::header::{CACHE_CONTROL, HeaderValue};
use warp::{Filter, Reply};

const NOT_BUILT: &str = "<!doctype html><title>Pressure hub</title><body style=\"font-family:sans-serif\">\
<h1>The client is not built</h1><p>Run <code>npm --prefix client ci &amp;&amp; npm --prefix client run build</code> \
or start the hub with <code>--client-dir</code> pointing at a built client. The API is up.</p></body>";

/// A content-hashed build file: cached for a year, never revalidated.
pub const HASHED_ASSET_CACHE: &str = "public, max-age=31536000, immutable";
/// The page itself: never stored.
pub const PAGE_CACHE: &str = "no-store";
/// Any other client file: stored, but revalidated (304 when unchanged).
pub const OTHER_FILE_CACHE: &str = "no-cache";

/// How a client file at `url_path` (the request's path), served from `file_name`, may be cached.
pub fn cache_control(url_path: &str, file_name: &str) -> &'static str {
    if file_name == "index.html" {
        PAGE_CACHE
    } else if url_path.starts_with("/assets/") {
        HASHED_ASSET_CACHE
    } else {
        OTHER_FILE_CACHE
    }
}

/// Serves the client bundle with an SPA fallback.
pub fn routes(client_dir: PathBuf) -> BoxedFilter<(warp::reply::Response,)> {
    let index = client_dir.join("index.html");
    let files = warp::path::full().and(warp::fs::dir(client_dir)).map(|path: warp::path::FullPath, file: warp::fs::File| {
        let name = file.path().file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
        let mut response = file.into_response();
        response.headers_mut().insert(CACHE_CONTROL, HeaderValue::from_static(cache_control(path.as_str(), &name)));
        response
    });
    let fallback = warp::path::full().and_then(move |path: warp::path::FullPath| {
        let index = index.clone();
        async move {
            if path.as_str().starts_with("/api/") || path.as_str().starts_with("/local/") || path.as_str().starts_with("/assets/") {
                return Err(warp::reject::not_found());
            }
            let mut response = match tokio::fs::read(&index).await {
                Ok(html) => warp::reply::with_header(html, "content-type", "text/html; charset=utf-8").into_response(),
                Err(_) => warp::reply::with_status(warp::reply::html(NOT_BUILT), StatusCode::OK).into_response(),
            };
            response.headers_mut().insert(CACHE_CONTROL, HeaderValue::from_static(PAGE_CACHE));
            Ok::<_, warp::Rejection>(response)
        }
    });
    warp::get().or(warp::head()).unify().and(files.or(fallback).unify()).boxed()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashed_assets_are_kept_the_page_never_and_the_rest_revalidated() {
        assert_eq!(cache_control("/assets/index-3f9a.js", "index-3f9a.js"), HASHED_ASSET_CACHE);
        assert_eq!(cache_control("/", "index.html"), PAGE_CACHE);
        assert_eq!(cache_control("/index.html", "index.html"), PAGE_CACHE);
        assert_eq!(cache_control("/local/en/translation.json", "translation.json"), OTHER_FILE_CACHE);
        assert_eq!(cache_control("/favicon.svg", "favicon.svg"), OTHER_FILE_CACHE);
    }
}
