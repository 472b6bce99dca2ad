//! Numbers and texts as the old client sends them: weight as `70` or `"70"`, an unset phone as
//! `-1`, `"-1"`, `""` or `null`. Deserialised leniently, then checked by the validators.

use serde::Deserialize;

/// A JSON number or string (or null), kept as the text the user typed.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(untagged)]
pub enum NumberOrText {
    /// Absent or `null`.
    #[default]
    Missing,
    /// A JSON number.
    Number(serde_json::Number),
    /// A JSON string.
    Text(String),
    /// A boolean (never valid where a number is expected, kept so it can be refused clearly).
    Bool(bool),
}

impl NumberOrText {
    /// The value as typed: numbers in their shortest form, strings trimmed; empty when missing.
    pub fn text(&self) -> String {
        match self {
            NumberOrText::Missing => String::new(),
            NumberOrText::Number(n) => n.to_string(),
            NumberOrText::Text(t) => t.trim().to_owned(),
            NumberOrText::Bool(b) => b.to_string(),
        }
    }

    /// A whole number an i64 holds (Unix seconds, say): an integer, or a number or text with no
    /// fraction strictly inside the i64 range. `None` beyond it (never saturated).
    pub fn whole_i64(&self) -> Option<i64> {
        if let NumberOrText::Number(n) = self
            && let Some(whole) = n.as_i64()
        {
            return Some(whole);
        }
        // 2^63 as f64: every f64 strictly between ±2^63 with no fraction fits an i64.
        const LIMIT: f64 = 9_223_372_036_854_775_808.0;
        self.number().filter(|v| v.fract() == 0.0 && v.abs() < LIMIT).map(|v| v as i64)
    }

    /// The value as a finite number, if it is one.
    pub fn number(&self) -> Option<f64> {
        let value = match self {
            NumberOrText::Number(n) => n.as_f64()?,
            NumberOrText::Text(t) => t.trim().replace(',', ".").parse().ok()?,
            NumberOrText::Missing | NumberOrText::Bool(_) => return None,
        };
        value.is_finite().then_some(value)
    }

    /// Whether the value means "unset": missing, empty, or the old app's `-1`.
    pub fn is_unset(&self) -> bool {
        let text = self.text();
        text.is_empty() || text == "-1"
    }
}

/// An integer field that also takes an integral float (`3.0`): JSON Schema's `integer` includes
/// those, and clients built from the OpenAPI document may send them.
pub fn integer<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<i64, D::Error> {
    let number = serde_json::Number::deserialize(deserializer)?;
    integral(&number).ok_or_else(|| serde::de::Error::custom(format!("invalid type: {number}, expected an integer")))
}

/// [`integer`] for an optional field (`null` is `None`).
pub fn optional_integer<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<i64>, D::Error> {
    match Option::<serde_json::Number>::deserialize(deserializer)? {
        None => Ok(None),
        Some(number) => {
            integral(&number).map(Some).ok_or_else(|| serde::de::Error::custom(format!("invalid type: {number}, expected an integer")))
        }
    }
}

fn integral(number: &serde_json::Number) -> Option<i64> {
    number.as_i64().or_else(|| number.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < i64::MAX as f64).map(|f| f as i64))
}

#[cfg(test)]
mod tests {
    use super::NumberOrText;

    fn parse(json: &str) -> NumberOrText {
        #[derive(serde::Deserialize)]
        struct Holder {
            #[serde(default)]
            v: NumberOrText,
        }
        serde_json::from_str::<Holder>(json).unwrap().v
    }

    #[test]
    fn numbers_and_texts_read_alike() {
        assert_eq!(parse(r#"{"v": 70}"#).number(), Some(70.0));
        assert_eq!(parse(r#"{"v": " 70,5 "}"#).number(), Some(70.5));
        assert_eq!(parse(r#"{"v": "70"}"#).text(), "70");
        assert_eq!(parse(r#"{"v": "abc"}"#).number(), None);
        assert_eq!(parse(r#"{"v": true}"#).number(), None);
    }

    #[test]
    fn integers_may_come_as_integral_floats() {
        #[derive(serde::Deserialize)]
        struct Holder {
            #[serde(deserialize_with = "super::integer")]
            n: i64,
            #[serde(default, deserialize_with = "super::optional_integer")]
            m: Option<i64>,
        }
        let read = |json: &str| serde_json::from_str::<Holder>(json).map(|h| (h.n, h.m));
        assert_eq!(read(r#"{"n": 3}"#).ok(), Some((3, None)));
        assert_eq!(read(r#"{"n": 3.0, "m": -15.0}"#).ok(), Some((3, Some(-15))));
        assert_eq!(read(r#"{"n": 1, "m": null}"#).ok(), Some((1, None)));
        for refused in [r#"{"n": 3.5}"#, r#"{"n": "3"}"#, r#"{"n": 1e300}"#, r#"{"n": 1, "m": 0.5}"#] {
            assert!(read(refused).is_err(), "{refused}");
        }
    }

    #[test]
    fn unset_is_missing_null_empty_or_minus_one() {
        for json in [r#"{}"#, r#"{"v": null}"#, r#"{"v": ""}"#, r#"{"v": -1}"#, r#"{"v": "-1"}"#] {
            assert!(parse(json).is_unset(), "{json}");
        }
        assert!(!parse(r#"{"v": 0}"#).is_unset());
    }
}
