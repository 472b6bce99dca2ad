//! A hub's name in the cluster, pure.

/// A hub's name: 1–32 ASCII letters, digits, `-` or `_`, so that it can stand in a NATS subject
/// token and a key-value key as it is.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeName(String);

/// The longest name.
pub const MAX_LEN: usize = 32;

impl NodeName {
    /// Checks a name (clap's value parser for `--node`).
    pub fn parse(text: &str) -> Result<NodeName, String> {
        if text.is_empty() || text.len() > MAX_LEN {
            return Err(format!("a node name has 1 to {MAX_LEN} characters"));
        }
        if !text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
            return Err("a node name has only ASCII letters, digits, '-' and '_'".into());
        }
        Ok(NodeName(text.to_owned()))
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for NodeName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_fit_in_a_subject_token() {
        assert_eq!(NodeName::parse("hub-a_1").unwrap().as_str(), "hub-a_1");
        for bad in ["", "a.b", "a b", "a*", "a>", "é", &"x".repeat(MAX_LEN + 1)] {
            assert!(NodeName::parse(bad).is_err(), "{bad:?} was accepted");
        }
        assert!(NodeName::parse(&"x".repeat(MAX_LEN)).is_ok());
    }
}
