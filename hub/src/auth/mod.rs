//! Authentication: signed, expiring bearer tokens.

pub mod token;
