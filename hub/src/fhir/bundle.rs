//! A search's `Bundle` (type `searchset`, with its total and `self`, `first`, `previous`, `next`
//! paging links) and the `OperationOutcome` of a refusal. Pure.

use serde_json::{Value, json};

use super::resources::Entry;
use super::search::{Query, ResourceType};

/// The page of `matches` the query asks for, as a searchset. `base` is the server's base URL
/// (`https://host/fhir/r4`).
pub fn searchset(base: &str, resource_type: ResourceType, query: &Query, matches: Vec<Entry>) -> Value {
    let total = matches.len();
    let name = resource_type.name();
    let link =
        |relation: &str, offset: usize| json!({ "relation": relation, "url": format!("{base}/{name}?{}", query.query_string(offset)) });
    let mut links = vec![link("self", query.offset), link("first", 0)];
    if query.offset > 0 {
        links.push(link("previous", query.offset.saturating_sub(query.count.max(1))));
    }
    if query.count > 0 && query.offset + query.count < total {
        links.push(link("next", query.offset + query.count));
    }
    let entries: Vec<Value> = matches
        .into_iter()
        .skip(query.offset)
        .take(query.count)
        .map(|entry| {
            json!({
                "fullUrl": format!("{base}/{name}/{}", entry.keys.id),
                "resource": entry.resource,
                "search": { "mode": "match" },
            })
        })
        .collect();
    let mut bundle = json!({ "resourceType": "Bundle", "type": "searchset", "total": total, "link": links });
    if !entries.is_empty() {
        bundle["entry"] = json!(entries);
    }
    bundle
}

/// An `OperationOutcome` of one error: `code` from FHIR's issue types (`not-found`, `invalid`,
/// `not-supported`, `login`, `forbidden`, `exception`), `diagnostics` in English.
pub fn operation_outcome(code: &str, diagnostics: &str) -> Value {
    json!({
        "resourceType": "OperationOutcome",
        "issue": [{ "severity": "error", "code": code, "diagnostics": diagnostics }],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fhir::search::{Keys, parse};

    fn patients(n: usize) -> Vec<Entry> {
        (0..n)
            .map(|i| Entry {
                resource: json!({ "resourceType": "Patient", "id": format!("p{i}") }),
                keys: Keys { id: format!("p{i}"), ..Keys::default() },
            })
            .collect()
    }

    fn relation<'a>(bundle: &'a Value, name: &str) -> Option<&'a str> {
        bundle["link"].as_array().unwrap().iter().find(|l| l["relation"] == name).and_then(|l| l["url"].as_str())
    }

    #[test]
    fn a_page_has_its_total_and_links() {
        let pairs = vec![("_count".to_owned(), "2".to_owned()), ("_offset".to_owned(), "2".to_owned())];
        let query = parse(ResourceType::Patient, &pairs).unwrap();
        let bundle = searchset("http://h/fhir/r4", ResourceType::Patient, &query, patients(5));
        assert_eq!(bundle["total"], 5);
        assert_eq!(bundle["type"], "searchset");
        let ids: Vec<&str> = bundle["entry"].as_array().unwrap().iter().map(|e| e["resource"]["id"].as_str().unwrap()).collect();
        assert_eq!(ids, ["p2", "p3"]);
        assert_eq!(bundle["entry"][0]["fullUrl"], "http://h/fhir/r4/Patient/p2");
        assert_eq!(relation(&bundle, "self"), Some("http://h/fhir/r4/Patient?_count=2&_offset=2"));
        assert_eq!(relation(&bundle, "next"), Some("http://h/fhir/r4/Patient?_count=2&_offset=4"));
        assert_eq!(relation(&bundle, "previous"), Some("http://h/fhir/r4/Patient?_count=2&_offset=0"));
    }

    #[test]
    fn the_last_page_has_no_next_and_an_empty_search_no_entries() {
        let query = parse(ResourceType::Patient, &[("_count".to_owned(), "2".to_owned()), ("_offset".to_owned(), "4".to_owned())]).unwrap();
        let last = searchset("b", ResourceType::Patient, &query, patients(5));
        assert_eq!(last["entry"].as_array().unwrap().len(), 1);
        assert_eq!(relation(&last, "next"), None);
        let empty = searchset("b", ResourceType::Patient, &parse(ResourceType::Patient, &[]).unwrap(), Vec::new());
        assert_eq!((empty["total"].as_u64(), empty.get("entry")), (Some(0), None));
        let count_only = parse(ResourceType::Patient, &[("_count".to_owned(), "0".to_owned())]).unwrap();
        let totals = searchset("b", ResourceType::Patient, &count_only, patients(3));
        assert_eq!((totals["total"].as_u64(), totals.get("entry"), relation(&totals, "next")), (Some(3), None, None));
    }
}
