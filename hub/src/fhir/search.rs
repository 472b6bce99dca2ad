//! FHIR search over the served resources: which parameters each type takes (the
//! CapabilityStatement lists exactly these), a query string read into a [`Query`] (an unknown
//! parameter or a malformed value is refused, never ignored), what a resource's [`Keys`] must hold
//! to match, and the page of a result. Pure.

use super::time::{DateBound, parse_date_search};

/// The resource types served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResourceType {
    Patient,
    Device,
    DeviceMetric,
    Observation,
    Communication,
}

impl ResourceType {
    pub const ALL: [ResourceType; 5] =
        [ResourceType::Patient, ResourceType::Device, ResourceType::DeviceMetric, ResourceType::Observation, ResourceType::Communication];

    /// The FHIR name.
    pub fn name(self) -> &'static str {
        match self {
            ResourceType::Patient => "Patient",
            ResourceType::Device => "Device",
            ResourceType::DeviceMetric => "DeviceMetric",
            ResourceType::Observation => "Observation",
            ResourceType::Communication => "Communication",
        }
    }

    /// The type a path segment names, if it is served.
    pub fn from_name(name: &str) -> Option<ResourceType> {
        ResourceType::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The search parameters of this type (besides [`RESULT_PARAMS`]).
    pub fn search_params(self) -> &'static [SearchParam] {
        match self {
            ResourceType::Patient => &[ID],
            ResourceType::Device => &[
                ID,
                SearchParam {
                    name: "patient",
                    kind: Kind::Reference,
                    key: Key::Patient,
                    doc: "The patient at the device's bedside (Patient/id or id)",
                },
            ],
            ResourceType::DeviceMetric => &[
                ID,
                SearchParam {
                    name: "source",
                    kind: Kind::Reference,
                    key: Key::Device,
                    doc: "The device whose channel it is (Device/id or id)",
                },
            ],
            ResourceType::Observation => &[
                ID,
                PATIENT,
                SearchParam { name: "subject", kind: Kind::Reference, key: Key::Patient, doc: "The patient (Patient/id)" },
                SearchParam { name: "device", kind: Kind::Reference, key: Key::Device, doc: "The device that observed (Device/id or id)" },
                SearchParam {
                    name: "date",
                    kind: Kind::Date,
                    key: Key::Date,
                    doc: "When it was observed: eq, gt, lt, ge, le and a FHIR date or dateTime",
                },
                SearchParam {
                    name: "code",
                    kind: Kind::Token,
                    key: Key::Code,
                    doc: "What was observed: [system]|code, comma-separated for any of them",
                },
                CATEGORY,
            ],
            ResourceType::Communication => &[
                ID,
                PATIENT,
                SearchParam { name: "subject", kind: Kind::Reference, key: Key::Patient, doc: "The patient (Patient/id)" },
                SearchParam {
                    name: "sender",
                    kind: Kind::Reference,
                    key: Key::Device,
                    doc: "The device that raised the alarm (Device/id or id)",
                },
                SearchParam {
                    name: "sent",
                    kind: Kind::Date,
                    key: Key::Date,
                    doc: "When the alarm was raised: eq, gt, lt, ge, le and a FHIR date or dateTime",
                },
                CATEGORY,
            ],
        }
    }
}

/// What a search parameter's value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Token,
    Reference,
    Date,
}

impl Kind {
    /// The CapabilityStatement's spelling.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Token => "token",
            Kind::Reference => "reference",
            Kind::Date => "date",
        }
    }
}

/// Which of a resource's [`Keys`] a parameter tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Id,
    Patient,
    Device,
    Date,
    Code,
    Category,
}

/// One search parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchParam {
    pub name: &'static str,
    pub kind: Kind,
    pub key: Key,
    pub doc: &'static str,
}

const ID: SearchParam =
    SearchParam { name: "_id", kind: Kind::Token, key: Key::Id, doc: "The resource's id, comma-separated for any of them" };
const PATIENT: SearchParam =
    SearchParam { name: "patient", kind: Kind::Reference, key: Key::Patient, doc: "The patient (Patient/id or id)" };
const CATEGORY: SearchParam = SearchParam { name: "category", kind: Kind::Token, key: Key::Category, doc: "The category: [system]|code" };

/// The result parameters every search takes: `_count` (page size, default [`DEFAULT_COUNT`], at
/// most [`MAX_COUNT`]), `_offset` (the page's first match, what the `next` link carries) and
/// `_format` (`json` or `application/fhir+json`: the only format served).
pub const RESULT_PARAMS: [&str; 3] = ["_count", "_offset", "_format"];
/// A page's size when `_count` is not given.
pub const DEFAULT_COUNT: usize = 50;
/// The largest page.
pub const MAX_COUNT: usize = 1000;

/// What a resource is searched by.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Keys {
    pub id: String,
    pub patient: Option<String>,
    pub device: Option<String>,
    /// Unix seconds.
    pub date: Option<i64>,
    /// (system, code) of its code.
    pub codes: Vec<(String, String)>,
    /// (system, code) of its categories.
    pub categories: Vec<(String, String)>,
}

/// One token of a `token` search: `code`, `system|code`, `|code` (no system) or `system|`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Token {
    system: Option<String>,
    code: Option<String>,
}

impl Token {
    fn read(text: &str) -> Token {
        match text.split_once('|') {
            Some((system, code)) => Token { system: Some(system.to_owned()), code: (!code.is_empty()).then(|| code.to_owned()) },
            None => Token { system: None, code: Some(text.to_owned()) },
        }
    }

    fn matches(&self, (system, code): &(String, String)) -> bool {
        let system_ok = match self.system.as_deref() {
            None => true,
            Some("") => system.is_empty(),
            Some(s) => s == system,
        };
        system_ok && self.code.as_ref().is_none_or(|c| c == code)
    }
}

/// A search, read from the query string.
#[derive(Debug, Clone, PartialEq)]
pub struct Query {
    /// Each parameter's alternatives (comma-separated values are any of them; a repeated
    /// parameter must match each time).
    tests: Vec<(Key, Test)>,
    pub count: usize,
    pub offset: usize,
    /// The parameters as given, but `_offset`, for the paging links.
    pub params: Vec<(String, String)>,
}

#[derive(Debug, Clone, PartialEq)]
enum Test {
    AnyOf(Vec<String>),
    AnyToken(Vec<Token>),
    Date(DateBound),
}

/// A refused search: the OperationOutcome's diagnostics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal(pub String);

/// Reads `pairs` (percent-decoded) as a search of `resource`.
pub fn parse(resource: ResourceType, pairs: &[(String, String)]) -> Result<Query, Refusal> {
    let mut query = Query { tests: Vec::new(), count: DEFAULT_COUNT, offset: 0, params: Vec::new() };
    for (name, value) in pairs {
        match name.as_str() {
            "_count" => {
                query.count =
                    value.parse::<usize>().map_err(|_| Refusal(format!("_count must be a whole number, not '{value}'")))?.min(MAX_COUNT);
            }
            "_offset" => {
                query.offset = value.parse::<usize>().map_err(|_| Refusal(format!("_offset must be a whole number, not '{value}'")))?;
                continue;
            }
            "_format" => {
                if !matches!(value.as_str(), "json" | "application/fhir+json" | "application/json") {
                    return Err(Refusal(format!("_format '{value}' is not served: only application/fhir+json")));
                }
            }
            _ => {
                let param = resource
                    .search_params()
                    .iter()
                    .find(|p| p.name == name)
                    .ok_or_else(|| Refusal(format!("{} has no search parameter '{name}'", resource.name())))?;
                if value.is_empty() {
                    return Err(Refusal(format!("{name} needs a value")));
                }
                let test = match param.kind {
                    Kind::Date => Test::Date(parse_date_search(value).map_err(Refusal)?),
                    Kind::Token if param.key == Key::Id => Test::AnyOf(value.split(',').map(str::to_owned).collect()),
                    Kind::Token => Test::AnyToken(value.split(',').map(Token::read).collect()),
                    Kind::Reference => {
                        let target = match param.key {
                            Key::Patient => "Patient/",
                            _ => "Device/",
                        };
                        let ids = value
                            .split(',')
                            .map(|v| {
                                let id = v.strip_prefix(target).unwrap_or(v);
                                if id.is_empty() || id.contains('/') {
                                    Err(Refusal(format!("{name} takes {target}id or an id, not '{v}'")))
                                } else {
                                    Ok(id.to_owned())
                                }
                            })
                            .collect::<Result<Vec<_>, _>>()?;
                        Test::AnyOf(ids)
                    }
                };
                query.tests.push((param.key, test));
            }
        }
        query.params.push((name.clone(), value.clone()));
    }
    Ok(query)
}

impl Query {
    /// Whether a resource with these keys matches every parameter.
    pub fn matches(&self, keys: &Keys) -> bool {
        self.tests.iter().all(|(key, test)| match (key, test) {
            (Key::Id, Test::AnyOf(ids)) => ids.contains(&keys.id),
            (Key::Patient, Test::AnyOf(ids)) => keys.patient.as_ref().is_some_and(|p| ids.contains(p)),
            (Key::Device, Test::AnyOf(ids)) => keys.device.as_ref().is_some_and(|d| ids.contains(d)),
            (Key::Date, Test::Date(bound)) => keys.date.is_some_and(|secs| bound.admits(secs)),
            (Key::Code, Test::AnyToken(tokens)) => keys.codes.iter().any(|c| tokens.iter().any(|t| t.matches(c))),
            (Key::Category, Test::AnyToken(tokens)) => keys.categories.iter().any(|c| tokens.iter().any(|t| t.matches(c))),
            _ => false,
        })
    }

    /// The query string of the page starting at `offset` (the parameters as given, then
    /// `_offset`), for the paging links.
    pub fn query_string(&self, offset: usize) -> String {
        let mut parts: Vec<String> = self.params.iter().map(|(name, value)| format!("{}={}", encode(name), encode(value))).collect();
        parts.push(format!("_offset={offset}"));
        if !self.params.iter().any(|(name, _)| name == "_count") {
            parts.push(format!("_count={}", self.count));
        }
        parts.join("&")
    }
}

/// Percent-encodes a query component (RFC 3986 unreserved characters kept).
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(n, v)| ((*n).to_owned(), (*v).to_owned())).collect()
    }

    fn observation() -> Keys {
        Keys {
            id: "log-1-posture".into(),
            patient: Some("p1".into()),
            device: Some("d1".into()),
            date: Some(1_795_725_255),
            codes: vec![("http://loinc.org".into(), "8361-8".into())],
            categories: vec![("http://terminology.hl7.org/CodeSystem/observation-category".into(), "activity".into())],
        }
    }

    #[test]
    fn each_parameter_tests_its_key() {
        let keys = observation();
        let matching = [
            ("patient", "Patient/p1"),
            ("patient", "p1,p2"),
            ("subject", "Patient/p1"),
            ("device", "Device/d1"),
            ("date", "ge2026-11-26"),
            ("date", "2026-11-26"),
            ("code", "http://loinc.org|8361-8"),
            ("code", "8361-8"),
            ("code", "http://snomed.info/sct|x,http://loinc.org|"),
            ("category", "activity"),
            ("_id", "log-1-posture"),
        ];
        for (name, value) in matching {
            let query = parse(ResourceType::Observation, &pairs(&[(name, value)])).unwrap();
            assert!(query.matches(&keys), "{name}={value}");
        }
        let failing = [
            ("patient", "p2"),
            ("device", "d2"),
            ("date", "lt2026-11-26"),
            ("date", "gt2026-11-26"),
            ("code", "http://snomed.info/sct|8361-8"),
            ("code", "|8361-8"),
            ("category", "exam"),
            ("_id", "log-2-posture"),
        ];
        for (name, value) in failing {
            let query = parse(ResourceType::Observation, &pairs(&[(name, value)])).unwrap();
            assert!(!query.matches(&keys), "{name}={value}");
        }
        let both = parse(ResourceType::Observation, &pairs(&[("date", "ge2026-11-26"), ("date", "lt2026-11-26T20:34:15Z")])).unwrap();
        assert!(!both.matches(&keys), "a repeated parameter must match each time");
        let unassigned = Keys { patient: None, ..observation() };
        assert!(!parse(ResourceType::Observation, &pairs(&[("patient", "p1")])).unwrap().matches(&unassigned));
    }

    #[test]
    fn unknown_parameters_and_bad_values_are_refused() {
        for (resource, name, value) in [
            (ResourceType::Observation, "color", "red"),
            (ResourceType::Patient, "patient", "p1"),
            (ResourceType::Communication, "date", "2026"),
            (ResourceType::Observation, "date", "yesterday"),
            (ResourceType::Observation, "_count", "-1"),
            (ResourceType::Observation, "_offset", "x"),
            (ResourceType::Observation, "_format", "xml"),
            (ResourceType::Observation, "patient", "Device/d1"),
            (ResourceType::Observation, "code", ""),
        ] {
            assert!(parse(resource, &pairs(&[(name, value)])).is_err(), "{}?{name}={value}", resource.name());
        }
    }

    #[test]
    fn paging_parameters_are_read_and_carried() {
        let query = parse(ResourceType::Observation, &pairs(&[("patient", "p 1"), ("_count", "2"), ("_offset", "4")])).unwrap();
        assert_eq!((query.count, query.offset), (2, 4));
        assert_eq!(query.query_string(6), "patient=p%201&_count=2&_offset=6");
        let default = parse(ResourceType::Patient, &[]).unwrap();
        assert_eq!((default.count, default.offset), (DEFAULT_COUNT, 0));
        assert_eq!(default.query_string(50), "_offset=50&_count=50");
        assert_eq!(parse(ResourceType::Patient, &pairs(&[("_count", "100000")])).unwrap().count, MAX_COUNT);
    }
}
