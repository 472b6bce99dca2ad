//! A patient as a FHIR `Patient`: name, gender, birth date, contact details. Pure.

use serde_json::{Value, json};
use storage::model::Patient;

use super::Entry;
use crate::fhir::search::Keys;
use crate::fhir::time;

/// A text field the patient form left unset (empty, or the form's `-1`).
fn given(text: &str) -> Option<&str> {
    let text = text.trim();
    (!text.is_empty() && text != "-1").then_some(text)
}

/// The `Patient`.
pub fn patient(p: &Patient) -> Entry {
    let f = &p.fields;
    let mut resource = json!({
        "resourceType": "Patient",
        "id": p.id,
        "active": true,
        "name": [{ "text": f.name }],
    });
    if let Some(gender) = f.gender.as_deref().and_then(|g| match g {
        "Male" => Some("male"),
        "Female" => Some("female"),
        _ => None,
    }) {
        resource["gender"] = json!(gender);
    }
    if let Some(born) = f.birth_date {
        resource["birthDate"] = json!(time::date(born));
    }
    let telecom: Vec<Value> = [("email", f.email.as_str()), ("phone", f.phone.as_str()), ("phone", f.phone2.as_str())]
        .into_iter()
        .filter_map(|(system, value)| given(value).map(|v| json!({ "system": system, "value": v })))
        .collect();
    if !telecom.is_empty() {
        resource["telecom"] = json!(telecom);
    }
    let mut address = serde_json::Map::new();
    if let Some(line) = given(&f.address) {
        address.insert("text".into(), json!(line));
    }
    if let Some(code) = given(&f.postal_code) {
        address.insert("postalCode".into(), json!(code));
    }
    if let Some(country) = given(&f.country) {
        address.insert("country".into(), json!(country));
    }
    if !address.is_empty() {
        resource["address"] = json!([address]);
    }
    Entry { resource, keys: Keys { id: p.id.clone(), patient: Some(p.id.clone()), ..Keys::default() } }
}

#[cfg(test)]
mod tests {
    use super::*;
    use storage::model::PatientFields;

    #[test]
    fn a_patient_keeps_what_the_form_set_and_drops_its_placeholders() {
        let p = Patient {
            id: "p1".into(),
            company_id: "c".into(),
            created_at: 0,
            fields: PatientFields {
                name: "Ana Ruiz".into(),
                birth_date: Some(-254_880_000),
                gender: Some("Female".into()),
                email: "ana@example.com".into(),
                phone: "-1".into(),
                phone2: "".into(),
                postal_code: "28001".into(),
                ..PatientFields::default()
            },
        };
        let r = patient(&p).resource;
        assert_eq!(r["name"][0]["text"], "Ana Ruiz");
        assert_eq!(r["gender"], "female");
        assert_eq!(r["birthDate"], "1961-12-04");
        assert_eq!(r["telecom"], json!([{ "system": "email", "value": "ana@example.com" }]));
        assert_eq!(r["address"], json!([{ "postalCode": "28001" }]));
    }
}
