//! The alarm managers the sender has reported to since the hub started, and for which
//! companies: what it probes every `sender::PROBE_INTERVAL` (so a link's state is never older),
//! until no company's reports go there any more. Without the last part a manager a company
//! moved away from, once switched off, stayed down on the hub's `/metrics` and `/health` for
//! ever.

use std::collections::{BTreeSet, HashMap};

use super::Destination;

/// Destinations in use, with the CA their TLS trusts and the companies reported there.
#[derive(Debug, Default)]
pub struct InUse(HashMap<Destination, Users>);

#[derive(Debug)]
struct Users {
    ca_pem: Option<String>,
    companies: BTreeSet<String>,
}

impl InUse {
    /// A report of `company_id` goes to `destination`, over TLS trusting `ca_pem` if any.
    pub fn note(&mut self, destination: &Destination, ca_pem: Option<&str>, company_id: &str) {
        let users = self.0.entry(destination.clone()).or_insert_with(|| Users { ca_pem: None, companies: BTreeSet::new() });
        users.ca_pem = ca_pem.map(str::to_owned);
        users.companies.insert(company_id.to_owned());
    }

    /// Every company noted.
    pub fn companies(&self) -> BTreeSet<String> {
        self.0.values().flat_map(|u| u.companies.iter().cloned()).collect()
    }

    /// Keeps each destination for the companies whose reports go there now (`routes`: each
    /// company's destination now, `None` when it reports nowhere; a company missing from it,
    /// its settings unread, is kept) and drops those left with none; returns the dropped.
    pub fn retain_routed(&mut self, routes: &HashMap<String, Option<Destination>>) -> Vec<Destination> {
        let mut dropped = Vec::new();
        self.0.retain(|destination, users| {
            users.companies.retain(|company| routes.get(company).is_none_or(|now| now.as_ref() == Some(destination)));
            let kept = !users.companies.is_empty();
            if !kept {
                dropped.push(destination.clone());
            }
            kept
        });
        dropped
    }

    /// Each destination in use with the CA its TLS trusts.
    pub fn iter(&self) -> impl Iterator<Item = (&Destination, Option<&str>)> {
        self.0.iter().map(|(destination, users)| (destination, users.ca_pem.as_deref()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(url: &str) -> Destination {
        url.parse().unwrap()
    }

    #[test]
    fn a_destination_stays_in_use_while_a_company_reports_there() {
        let (old, new) = (d("mllp://old-am:2575"), d("mllp://new-am:2575"));
        let mut in_use = InUse::default();
        in_use.note(&old, None, "ward3");
        in_use.note(&old, None, "ward4");
        assert_eq!(in_use.companies(), BTreeSet::from(["ward3".to_owned(), "ward4".to_owned()]));
        // ward3 moved to a new manager; ward4's settings could not be read: kept.
        let routes = HashMap::from([("ward3".to_owned(), Some(new.clone()))]);
        assert!(in_use.retain_routed(&routes).is_empty());
        assert_eq!(in_use.companies(), BTreeSet::from(["ward4".to_owned()]));
        // ward4 switched its manager off: nobody reports to the old one any more.
        let routes = HashMap::from([("ward4".to_owned(), None)]);
        assert_eq!(in_use.retain_routed(&routes), vec![old.clone()]);
        assert_eq!(in_use.iter().count(), 0);
        // Noted again when a report goes there again, with the CA of its last report.
        in_use.note(&old, Some("CA"), "ward3");
        assert_eq!(in_use.iter().collect::<Vec<_>>(), vec![(&old, Some("CA"))]);
    }
}
