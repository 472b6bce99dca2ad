//! Small response helpers shared by the handlers.

use serde::{Deserialize, Serialize};
use warp::Reply;
use warp::http::StatusCode;

/// `{ "$oid": id }`, the id shape of spec §3.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct Oid {
    #[serde(rename = "$oid")]
    pub oid: String,
}

impl Oid {
    /// The id as `{ "$oid": id }`.
    pub fn new(id: &str) -> Self {
        Oid { oid: id.to_owned() }
    }
}

/// 200 with a JSON body.
pub fn ok<T: Serialize>(body: &T) -> warp::reply::Response {
    warp::reply::json(body).into_response()
}

/// 201 with a JSON body.
pub fn created<T: Serialize>(body: &T) -> warp::reply::Response {
    warp::reply::with_status(warp::reply::json(body), StatusCode::CREATED).into_response()
}
