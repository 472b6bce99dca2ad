//! The `additionalParameters` of an analysis record (spec §3): an ordered list of named values
//! whose positions the client reads (series 0–13 of a dynamic podology capture, entries 0–12 of
//! a seating capture).

use serde::{Deserialize, Serialize};

use super::frame::ActivePoint;

/// One named entry; serialised as `{"name": …, "value": …}` so the order survives storage.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NamedParameter {
    /// Entry name (spec §3 spelling where the spec names it).
    pub name: String,
    /// Entry value.
    pub value: ParameterValue,
}

impl NamedParameter {
    /// Builds an entry.
    pub fn new(name: &str, value: ParameterValue) -> Self {
        NamedParameter { name: name.to_owned(), value }
    }
}

/// The shapes an entry can take. Untagged: the JSON is the bare value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ParameterValue {
    /// A single number (a duration, an index).
    Number(f64),
    /// A series of numbers, one per frame.
    Series(Vec<f64>),
    /// A series of [x, y] points.
    Points(Vec<[f64; 2]>),
    /// Left/right load fractions per frame.
    Laterality(Vec<Laterality>),
    /// Active points per frame.
    Frames(Vec<Vec<ActivePoint>>),
    /// Active points of one map.
    ActivePoints(Vec<ActivePoint>),
    /// A map, as rows of cells.
    Map(Vec<Vec<u16>>),
    /// Any other structured value (histograms, push-ups).
    Other(serde_json::Value),
}

/// Share of the load on each half of a map, as fractions of 1.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Laterality {
    /// Left half.
    pub l: f64,
    /// Right half.
    pub r: f64,
}
