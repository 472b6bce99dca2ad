//! Reading a REST body: a JSON object as the request type, as every handler reads it.

use serde::de::DeserializeOwned;

/// A JSON object as `T`; the error is a message for people. Arrays and scalars are refused even
/// where serde would accept them (it reads a struct from an array of its fields), so `[]` is never
/// an empty patient.
pub fn parse_object<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, String> {
    let value: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| format!("the body is not JSON: {e}"))?;
    if !value.is_object() {
        return Err("the body must be a JSON object".into());
    }
    serde_json::from_value(value).map_err(|e| format!("the body is not the expected JSON: {e}"))
}

#[cfg(test)]
mod tests {
    use super::parse_object;
    use crate::account::AccountInput;

    #[test]
    fn only_a_json_object_is_a_body() {
        let account: AccountInput = parse_object(br#"{"email": "a@b.c", "password": "secret"}"#).expect("an object");
        assert_eq!(account.email, "a@b.c");
        assert_eq!(parse_object::<AccountInput>(br#"["a@b.c", "secret"]"#).unwrap_err(), "the body must be a JSON object");
        assert!(parse_object::<AccountInput>(b"{").unwrap_err().starts_with("the body is not JSON"));
        assert!(parse_object::<AccountInput>(br#"{"email": 5}"#).unwrap_err().starts_with("the body is not the expected JSON"));
    }
}
