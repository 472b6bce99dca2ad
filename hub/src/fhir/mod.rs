//! FHIR R4, read-only, under `/fhir/r4` (docs/interfaces.md, "FHIR R4"): the company's patients,
//! mats (`Device`), their channels (`DeviceMetric`), what they observed (`Observation`) and their
//! alarms (`Communication`, with R6 `DeviceAlert`'s fields), read by id or searched into paged
//! `Bundle`s; refusals are `OperationOutcome`s. The same bearer token and company scope as the
//! REST API (`http::fhir` checks it and reads the caller's `CompanyStore`).
//!
//! Pure except [`source`]: [`request`] reads a path and query, [`answer`] answers it from the
//! records [`source::load`] read.

pub mod bundle;
pub mod capability;
pub mod codes;
pub mod resources;
pub mod search;
pub mod source;
pub mod time;

use serde_json::Value;

use self::bundle::{operation_outcome, searchset};
use self::resources::{Records, entries};
use self::search::{Query, ResourceType, parse};

/// The media type of every answer.
pub const CONTENT_TYPE: &str = "application/fhir+json; charset=utf-8";

/// An answer: status and FHIR JSON body.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub status: u16,
    pub body: Value,
}

impl Answer {
    /// A refusal as an `OperationOutcome`.
    pub fn refusal(status: u16, code: &str, diagnostics: &str) -> Answer {
        Answer { status, body: operation_outcome(code, diagnostics) }
    }
}

/// What a request asks.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// The CapabilityStatement.
    Metadata,
    /// One resource by id.
    Read(ResourceType, String),
    /// A search of one type.
    Search(ResourceType, Query),
}

impl Request {
    /// The type whose records the request needs (none for the statement).
    pub fn resource_type(&self) -> Option<ResourceType> {
        match self {
            Request::Metadata => None,
            Request::Read(t, _) | Request::Search(t, _) => Some(*t),
        }
    }
}

/// Reads the path segments after `/fhir/r4` and the query's (percent-decoded) pairs.
pub fn request(segments: &[String], pairs: &[(String, String)]) -> Result<Request, Answer> {
    let unknown_type =
        |name: &str| Answer::refusal(404, "not-supported", &format!("resource type '{name}' is not served; see /fhir/r4/metadata"));
    match segments {
        [metadata] if metadata == "metadata" => Ok(Request::Metadata),
        [name] => {
            let resource_type = ResourceType::from_name(name).ok_or_else(|| unknown_type(name))?;
            let query = parse(resource_type, pairs).map_err(|refusal| Answer::refusal(400, "not-supported", &refusal.0))?;
            Ok(Request::Search(resource_type, query))
        }
        [name, id] => {
            let resource_type = ResourceType::from_name(name).ok_or_else(|| unknown_type(name))?;
            if let Some((param, _)) = pairs.iter().find(|(param, _)| param != "_format") {
                return Err(Answer::refusal(400, "not-supported", &format!("a read takes no parameter '{param}'")));
            }
            Ok(Request::Read(resource_type, id.clone()))
        }
        _ => Err(Answer::refusal(404, "not-found", "no such FHIR endpoint; see /fhir/r4/metadata")),
    }
}

/// Answers a request from the records of the caller's company; `base` is the server's base URL.
pub fn answer(request: Request, records: &Records, base: &str) -> Answer {
    match request {
        Request::Metadata => Answer { status: 200, body: capability::capability_statement(base) },
        Request::Read(resource_type, id) => match entries(resource_type, records).into_iter().find(|e| e.keys.id == id) {
            Some(entry) => Answer { status: 200, body: entry.resource },
            None => Answer::refusal(404, "not-found", &format!("no {} with id '{id}'", resource_type.name())),
        },
        Request::Search(resource_type, query) => {
            let matches = entries(resource_type, records).into_iter().filter(|e| query.matches(&e.keys)).collect();
            Answer { status: 200, body: searchset(base, resource_type, &query, matches) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segments(path: &str) -> Vec<String> {
        path.split('/').map(str::to_owned).collect()
    }

    #[test]
    fn paths_name_the_statement_a_read_or_a_search() {
        assert_eq!(request(&segments("metadata"), &[]).unwrap(), Request::Metadata);
        assert!(matches!(request(&segments("Observation"), &[]).unwrap(), Request::Search(ResourceType::Observation, _)));
        assert_eq!(request(&segments("Device/d1"), &[]).unwrap(), Request::Read(ResourceType::Device, "d1".into()));
        assert_eq!(request(&segments("Medication"), &[]).unwrap_err().status, 404);
        assert_eq!(request(&segments("Medication/x"), &[]).unwrap_err().status, 404);
        assert_eq!(request(&segments("Device/d1/_history"), &[]).unwrap_err().status, 404);
        let unknown = request(&segments("Patient"), &[("colour".into(), "red".into())]).unwrap_err();
        assert_eq!((unknown.status, unknown.body["resourceType"].as_str()), (400, Some("OperationOutcome")));
        assert_eq!(request(&segments("Patient/p1"), &[("patient".into(), "x".into())]).unwrap_err().status, 400);
    }

    #[test]
    fn a_read_of_an_unknown_id_is_not_found() {
        let records = Records::default();
        let missing = answer(Request::Read(ResourceType::Patient, "p9".into()), &records, "b");
        assert_eq!((missing.status, missing.body["issue"][0]["code"].as_str()), (404, Some("not-found")));
    }
}
