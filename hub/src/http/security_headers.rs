//! The headers every answer of the hub carries, added in one place ([`wrap`], around all routes in
//! `server::serve`), so a page, a static file, an API answer, an error and the sockets' upgrades
//! all get them.
//!
//! The bearer token lives in the browser's local storage (spec §3): one injected script could act
//! as the signed-in nurse. The policy lets the page run only the hub's own scripts (no inline
//! script, no `eval`), reach only its own origin (REST and the `/ws` socket: CSP Level 3's `'self'`
//! covers `ws:`/`wss:` on the same host and port), and never be framed (clickjacking of Attend or
//! Delete). docs/decisions.md, "A hardened web surface", says why each directive is what it is.

use warp::Filter;
use warp::filters::BoxedFilter;
use warp::http::header::{CACHE_CONTROL, HeaderMap, HeaderName, HeaderValue};

/// The page's Content-Security-Policy. `data:`/`blob:` images: the logo preview (a data URL)
/// and the map textures; `blob:` workers: pixi.js decodes images in a worker made from a blob;
/// `style-src 'unsafe-inline'` is not allowed: React sets styles through the DOM, which CSP does
/// not govern.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; \
script-src 'self'; \
style-src 'self'; \
img-src 'self' data: blob:; \
font-src 'self' data:; \
connect-src 'self'; \
worker-src 'self' blob:; \
manifest-src 'self'; \
media-src 'self' data: blob:; \
object-src 'none'; \
frame-src 'none'; \
child-src 'self' blob:; \
base-uri 'none'; \
form-action 'self'; \
frame-ancestors 'none'";

/// Browser features the app does not use, denied to the page and anything it could embed.
/// (`clipboard-write` stays allowed: the administrator copies a device's one-time secret.)
pub const PERMISSIONS_POLICY: &str = "accelerometer=(), ambient-light-sensor=(), autoplay=(self), bluetooth=(), camera=(), \
display-capture=(), encrypted-media=(), geolocation=(), gyroscope=(), hid=(), idle-detection=(), magnetometer=(), \
microphone=(), midi=(), payment=(), publickey-credentials-get=(), screen-wake-lock=(), serial=(), usb=(), \
xr-spatial-tracking=(), browsing-topics=()";

/// HSTS under `--https`: a year, this host only (the hub does not own its domain's other hosts).
pub const STRICT_TRANSPORT_SECURITY: &str = "max-age=31536000";

/// API answers carry patient data (names, alarms, analyses): never stored by a browser or a proxy.
pub const NO_STORE: &str = "no-store";

/// Whether the answer to `path` comes from the API or the hub's other data endpoints (not a file
/// of the client).
pub fn is_data_path(path: &str) -> bool {
    path.starts_with("/api/") || path == "/api" || path == "/metrics"
}

/// Adds the security headers to an answer for `path`; `https`: the hub serves HTTPS. A
/// `Cache-Control` the route chose (the client's files) is kept; data answers get `no-store`.
pub fn apply(headers: &mut HeaderMap, path: &str, https: bool) {
    let fixed: [(&str, &'static str); 7] = [
        ("content-security-policy", CONTENT_SECURITY_POLICY),
        ("x-content-type-options", "nosniff"),
        ("x-frame-options", "DENY"),
        ("referrer-policy", "no-referrer"),
        ("permissions-policy", PERMISSIONS_POLICY),
        ("cross-origin-opener-policy", "same-origin"),
        ("cross-origin-resource-policy", "same-origin"),
    ];
    for (name, value) in fixed {
        headers.insert(HeaderName::from_static(name), HeaderValue::from_static(value));
    }
    if https {
        headers.insert(HeaderName::from_static("strict-transport-security"), HeaderValue::from_static(STRICT_TRANSPORT_SECURITY));
    }
    // An answer that chose no caching of its own (an error, an upgrade) has nothing to keep either.
    if is_data_path(path) || !headers.contains_key(CACHE_CONTROL) {
        headers.insert(CACHE_CONTROL, HeaderValue::from_static(NO_STORE));
    }
}

/// `routes` with [`apply`] on every answer.
pub fn wrap(routes: BoxedFilter<(warp::reply::Response,)>, https: bool) -> BoxedFilter<(warp::reply::Response,)> {
    warp::path::full()
        .and(routes)
        .map(move |path: warp::path::FullPath, mut response: warp::reply::Response| {
            apply(response.headers_mut(), path.as_str(), https);
            response
        })
        .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn applied(path: &str, https: bool, cache: Option<&'static str>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Some(cache) = cache {
            headers.insert(CACHE_CONTROL, HeaderValue::from_static(cache));
        }
        apply(&mut headers, path, https);
        headers
    }

    #[test]
    fn every_answer_gets_the_policy_and_hsts_only_under_https() {
        let plain = applied("/devices", false, None);
        assert_eq!(plain["content-security-policy"], CONTENT_SECURITY_POLICY);
        assert_eq!(plain["x-content-type-options"], "nosniff");
        assert_eq!(plain["referrer-policy"], "no-referrer");
        assert_eq!(plain["x-frame-options"], "DENY");
        assert!(plain["permissions-policy"].to_str().unwrap().contains("camera=()"));
        assert!(!plain.contains_key("strict-transport-security"));
        assert_eq!(applied("/devices", true, None)["strict-transport-security"], STRICT_TRANSPORT_SECURITY);
    }

    #[test]
    fn the_policy_allows_no_inline_script_no_eval_and_no_framing() {
        let script = CONTENT_SECURITY_POLICY.split(';').map(str::trim).find(|d| d.starts_with("script-src")).unwrap();
        assert_eq!(script, "script-src 'self'");
        assert!(!CONTENT_SECURITY_POLICY.contains("unsafe-inline") && !CONTENT_SECURITY_POLICY.contains("unsafe-eval"));
        assert!(CONTENT_SECURITY_POLICY.ends_with("frame-ancestors 'none'"));
        assert!(CONTENT_SECURITY_POLICY.contains("connect-src 'self'"));
    }

    #[test]
    fn data_answers_are_never_stored_and_files_keep_their_caching() {
        assert_eq!(applied("/api/userDevices", false, None)[CACHE_CONTROL], NO_STORE);
        assert_eq!(applied("/api/x", false, Some("public, max-age=60"))[CACHE_CONTROL], NO_STORE);
        assert_eq!(applied("/metrics", false, None)[CACHE_CONTROL], NO_STORE);
        let asset = "public, max-age=31536000, immutable";
        assert_eq!(applied("/assets/index-abc.js", false, Some(asset))[CACHE_CONTROL], asset);
        assert_eq!(applied("/ws", false, None)[CACHE_CONTROL], NO_STORE);
    }
}
