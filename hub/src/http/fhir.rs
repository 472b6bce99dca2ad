//! `/fhir/r4/…`: the FHIR interface's HTTP half (the mapping is `crate::fhir`, pure). GET only;
//! the CapabilityStatement (`metadata`) is public, everything else takes the REST API's bearer
//! token and reads the caller's company through its `CompanyStore`. Every answer is
//! `application/fhir+json`; a refusal is an `OperationOutcome` (401 without a valid token, 404
//! for an unknown type or id, 400 for an unknown search parameter, 405 for another method).

use std::sync::Arc;

use warp::filters::BoxedFilter;
use warp::http::{Method, StatusCode};
use warp::{Filter, Reply};

use super::call::{Call, DEFAULT_BODY_LIMIT, call, path_segment};
use super::caller::{Caller, Verify};
use super::state::AppState;
use crate::fhir::resources::Records;
use crate::fhir::{Answer, CONTENT_TYPE, Request, answer, request, source};

/// The routes under `/fhir/r4`.
pub fn routes(state: Arc<AppState>) -> BoxedFilter<(warp::reply::Response,)> {
    let query = warp::query::raw().or(warp::any().map(String::new)).unify();
    warp::path!("fhir" / "r4" / ..)
        .and(warp::path::tail())
        .and(warp::method())
        .and(query)
        .and(warp::header::optional::<String>("host"))
        .and(call(state, DEFAULT_BODY_LIMIT))
        .then(|tail: warp::path::Tail, method: Method, query: String, host: Option<String>, call: Call| async move {
            serve(tail.as_str(), &method, &query, host.as_deref(), call).await
        })
        .boxed()
}

/// A query string's pairs, percent-decoded (`+` is a space).
fn query_pairs(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|part| !part.is_empty())
        .map(|part| {
            let (name, value) = part.split_once('=').unwrap_or((part, ""));
            (path_segment(&name.replace('+', " ")), path_segment(&value.replace('+', " ")))
        })
        .collect()
}

async fn serve(tail: &str, method: &Method, query: &str, host: Option<&str>, call: Call) -> warp::reply::Response {
    if method != Method::GET && method != Method::HEAD {
        let mut response = reply(Answer::refusal(405, "not-supported", "the FHIR interface is read-only: GET"));
        response.headers_mut().insert("allow", warp::http::HeaderValue::from_static("GET, HEAD"));
        return response;
    }
    let segments: Vec<String> = tail.split('/').filter(|s| !s.is_empty()).map(path_segment).collect();
    let base = format!("{}://{}/fhir/r4", call.state.http_scheme.as_str(), host.unwrap_or("localhost"));
    let is_metadata = segments.len() == 1 && segments[0] == "metadata";
    // Everything but the statement is the caller's company's: the token is checked first, so an
    // anonymous caller learns nothing of what is served.
    let caller = if is_metadata {
        None
    } else {
        match Caller::verify(call) {
            Ok(caller) => Some(caller),
            Err(error) => {
                let code = if error.status == StatusCode::FORBIDDEN { "forbidden" } else { "login" };
                let mut response = reply(Answer::refusal(error.status.as_u16(), code, &error.message));
                response.headers_mut().insert("www-authenticate", warp::http::HeaderValue::from_static("Bearer"));
                return response;
            }
        }
    };
    let request = match request(&segments, &query_pairs(query)) {
        Ok(request) => request,
        Err(refusal) => return reply(refusal),
    };
    let records = match (&caller, request.resource_type()) {
        (Some(caller), Some(resource_type)) => match source::load(caller.store(), &caller.state.board, resource_type).await {
            Ok(records) => records,
            Err(error) => {
                tracing::error!(%error, "a FHIR read failed");
                return reply(Answer::refusal(500, "exception", "the hub could not read its records"));
            }
        },
        _ => Records::default(),
    };
    reply(finish(request, records, base).await)
}

/// Maps the records on a blocking thread (a company's logs may be thousands of rows).
async fn finish(request: Request, records: Records, base: String) -> Answer {
    tokio::task::spawn_blocking(move || answer(request, &records, &base))
        .await
        .unwrap_or_else(|_| Answer::refusal(500, "exception", "the hub could not answer"))
}

fn reply(answer: Answer) -> warp::reply::Response {
    let status = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let body = warp::reply::with_header(answer.body.to_string(), "content-type", CONTENT_TYPE);
    warp::reply::with_status(body, status).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_pairs_are_percent_decoded() {
        assert_eq!(
            query_pairs("code=http%3A%2F%2Floinc.org%7C8361-8&date=ge2026-11-26T10:00:00%2B01:00&_count=2&flag"),
            [
                ("code".to_owned(), "http://loinc.org|8361-8".to_owned()),
                ("date".to_owned(), "ge2026-11-26T10:00:00+01:00".to_owned()),
                ("_count".to_owned(), "2".to_owned()),
                ("flag".to_owned(), String::new()),
            ]
        );
    }
}
