//! Patient create and edit (spec §5): name, weight and height required with at least 2
//! characters, weight and height stored as numbers, a non-empty e-mail must be an address,
//! the birth date not in the future, notes at most 154, gender Male or Female, and the
//! data-treatment agreement on creation. Unset phone, phone2, size and postal code become -1.

#[cfg(feature = "surreal")]
use surrealdb::types::SurrealValue;
use serde::Deserialize;

use super::email::is_email;
use super::lenient::NumberOrText;
use super::{char_len, Invalid};

/// Patient notes limit.
pub const NOTES_MAX: usize = 154;
/// Minimum characters of name, weight and height as typed.
pub const REQUIRED_MIN_CHARS: usize = 2;
/// Longest name, phone, … accepted (not in the spec; keeps rows bounded).
pub const TEXT_MAX: usize = 200;
/// Heaviest plausible weight in kg.
pub const WEIGHT_MAX_KG: f64 = 700.0;
/// Tallest plausible height in cm.
pub const HEIGHT_MAX_CM: f64 = 300.0;
/// Slack for "not in the future": birth dates are midnight of a day in the client's zone, and
/// today's date must pass wherever the clinic is.
pub const BIRTH_DATE_SLACK_SECS: i64 = 86_400;

/// A patient's gender as the client sends and the hub stores it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
pub enum Gender {
    Male,
    Female,
}

impl Gender {
    /// The gender a text names exactly, if any.
    pub fn parse(text: &str) -> Option<Gender> {
        serde_json::from_value(serde_json::Value::String(text.to_owned())).ok()
    }
}

/// A patient as the client sends it (spec §3 field names).
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", default)]
#[schemars(extend("required" = ["name", "weight", "height", "agreeDataTreatment"]))]
pub struct PatientInput {
    #[schemars(with = "String", length(max = TEXT_MAX), pattern(super::schema::TWO_CHARACTERS))]
    pub name: NumberOrText,
    #[schemars(with = "f64", range(min = 10.0, max = WEIGHT_MAX_KG))]
    pub weight: NumberOrText,
    #[schemars(with = "f64", range(min = 10.0), extend("exclusiveMaximum" = HEIGHT_MAX_CM))]
    pub height: NumberOrText,
    #[schemars(with = "Option<i64>")]
    pub birth_date: NumberOrText,
    #[schemars(length(max = NOTES_MAX))]
    pub notes: Option<String>,
    #[schemars(pattern(super::schema::EMAIL_OR_EMPTY))]
    pub email: Option<String>,
    #[schemars(with = "Option<String>", pattern(super::schema::PHONE))]
    pub phone: NumberOrText,
    #[schemars(with = "Option<String>", pattern(super::schema::PHONE))]
    pub phone2: NumberOrText,
    #[schemars(with = "Option<Gender>")]
    pub gender: Option<String>,
    #[schemars(with = "Option<f64>", range(min = 1.0, max = 99.0))]
    pub size: NumberOrText,
    #[schemars(length(max = TEXT_MAX))]
    pub health_ins: Option<String>,
    #[schemars(length(max = TEXT_MAX))]
    pub medical_cond: Option<String>,
    #[schemars(length(max = TEXT_MAX))]
    pub profession: Option<String>,
    #[schemars(length(max = TEXT_MAX))]
    pub address: Option<String>,
    #[schemars(with = "Option<String>", pattern(super::schema::POSTAL_CODE))]
    pub postal_code: NumberOrText,
    #[schemars(length(max = TEXT_MAX))]
    pub country: Option<String>,
    #[schemars(with = "bool", extend("const" = true))]
    pub agree_data_treatment: Option<bool>,
}

/// A patient's fields, as creating or updating one takes them (validated by the caller, asserted
/// by the schema) and as they are read back. Serialises to the spec's field names.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "surreal", derive(SurrealValue))]
#[serde(rename_all = "camelCase")]
pub struct PatientFields {
    pub name: String,
    pub weight: f64,
    pub height: f64,
    pub birth_date: Option<i64>,
    pub notes: String,
    pub email: String,
    pub phone: String,
    pub phone2: String,
    pub gender: Option<String>,
    pub size: f64,
    pub health_ins: String,
    pub medical_cond: String,
    pub profession: String,
    pub address: String,
    pub postal_code: String,
    pub country: String,
}

/// Creating or editing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatientMode {
    /// Registration: the data-treatment agreement is required.
    Create,
    /// Edit: the agreement was given at registration.
    Update,
}

fn invalid(message: impl Into<String>) -> Invalid {
    Invalid::new("invalidPatientData", message)
}

/// How a required number's upper limit counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Limit {
    Inclusive,
    /// The value stays below the limit (heights: storage's schema asserts `< 300`).
    Exclusive,
}

fn required_number(value: &NumberOrText, field: &str, max: f64, limit: Limit) -> Result<f64, Invalid> {
    if char_len(&value.text()) < REQUIRED_MIN_CHARS {
        return Err(invalid(format!("{field} is required, with at least {REQUIRED_MIN_CHARS} characters")));
    }
    let number = value.number().ok_or_else(|| invalid(format!("{field} must be a number")))?;
    if number <= 0.0 || number > max || (limit == Limit::Exclusive && number == max) {
        return Err(invalid(format!("{field} must be between 0 and {max}")));
    }
    Ok(number)
}

fn optional_text(value: &Option<String>, field: &str) -> Result<String, Invalid> {
    let text = value.as_deref().unwrap_or("").trim().to_owned();
    if char_len(&text) > TEXT_MAX {
        return Err(invalid(format!("{field} is longer than {TEXT_MAX} characters")));
    }
    Ok(text)
}

/// Phone characters: digits, spaces, + - ( ) .
fn phone_char(c: char) -> bool {
    c.is_ascii_digit() || " +-().".contains(c)
}

/// Postal code characters: letters and digits (UK, NL and CA codes have letters), spaces, -.
fn postal_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || " -".contains(c)
}

/// A phone or postal code: '-1' when unset, else the text typed.
fn code_or_unset(value: &NumberOrText, field: &str, allowed: fn(char) -> bool) -> Result<String, Invalid> {
    if value.is_unset() {
        return Ok("-1".to_owned());
    }
    let text = value.text();
    if matches!(value, NumberOrText::Bool(_)) || char_len(&text) > 30 || !text.chars().all(allowed) {
        return Err(invalid(format!("{field} is not a valid number")));
    }
    Ok(text)
}

/// Checks a patient; `now` is Unix seconds.
pub fn validate_patient(input: &PatientInput, mode: PatientMode, now: i64) -> Result<PatientFields, Invalid> {
    if mode == PatientMode::Create && input.agree_data_treatment != Some(true) {
        return Err(Invalid::new("agreeDataTreatment", "the patient's agreement to data treatment is required"));
    }
    let name = input.name.text();
    if char_len(&name) < REQUIRED_MIN_CHARS {
        return Err(invalid(format!("name is required, with at least {REQUIRED_MIN_CHARS} characters")));
    }
    if char_len(&name) > TEXT_MAX {
        return Err(invalid(format!("name is longer than {TEXT_MAX} characters")));
    }
    let weight = required_number(&input.weight, "weight", WEIGHT_MAX_KG, Limit::Inclusive)?;
    let height = required_number(&input.height, "height", HEIGHT_MAX_CM, Limit::Exclusive)?;
    let email = input.email.as_deref().unwrap_or("").trim().to_owned();
    if !email.is_empty() && !is_email(&email) {
        return Err(Invalid::new("incorrectEmail", "Please, select a valid email address"));
    }
    let birth_date = if input.birth_date.is_unset() {
        None
    } else {
        let seconds = input.birth_date.number().filter(|s| s.fract() == 0.0).ok_or_else(|| Invalid::new("invalidBirthDate", "the birth date must be Unix seconds"))? as i64;
        if seconds > now + BIRTH_DATE_SLACK_SECS {
            return Err(Invalid::new("invalidBirthDate", "the birth date cannot be in the future"));
        }
        Some(seconds)
    };
    let notes = input.notes.as_deref().unwrap_or("").to_owned();
    if char_len(&notes) > NOTES_MAX {
        return Err(invalid(format!("notes are at most {NOTES_MAX} characters")));
    }
    let gender = match input.gender.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(g) if Gender::parse(g).is_some() => Some(g.to_owned()),
        Some(_) => return Err(invalid("gender is Male or Female")),
    };
    let size = if input.size.is_unset() {
        -1.0
    } else {
        input.size.number().filter(|s| *s > 0.0 && *s < 100.0).ok_or_else(|| invalid("size must be a number"))?
    };
    Ok(PatientFields {
        name,
        weight,
        height,
        birth_date,
        notes,
        email,
        phone: code_or_unset(&input.phone, "phone", phone_char)?,
        phone2: code_or_unset(&input.phone2, "phone2", phone_char)?,
        gender,
        size,
        health_ins: optional_text(&input.health_ins, "healthIns")?,
        medical_cond: optional_text(&input.medical_cond, "medicalCond")?,
        profession: optional_text(&input.profession, "profession")?,
        address: optional_text(&input.address, "address")?,
        postal_code: code_or_unset(&input.postal_code, "postalCode", postal_char)?,
        country: optional_text(&input.country, "country")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_800_000_000;

    fn input(json: serde_json::Value) -> PatientInput {
        serde_json::from_value(json).unwrap()
    }

    fn base() -> serde_json::Value {
        serde_json::json!({"name": "Ana", "weight": 70, "height": "172", "agreeDataTreatment": true})
    }

    fn with(field: &str, value: serde_json::Value) -> PatientInput {
        let mut json = base();
        json[field] = value;
        input(json)
    }

    fn key(result: Result<PatientFields, Invalid>) -> &'static str {
        result.err().map(|e| e.key).unwrap_or("ok")
    }

    #[test]
    fn a_minimal_patient_passes_with_unset_fields_as_minus_one() {
        let fields = validate_patient(&input(base()), PatientMode::Create, NOW).unwrap();
        assert_eq!((fields.weight, fields.height), (70.0, 172.0));
        assert_eq!((fields.phone.as_str(), fields.phone2.as_str(), fields.postal_code.as_str(), fields.size), ("-1", "-1", "-1", -1.0));
        assert_eq!(fields.birth_date, None);
    }

    #[test]
    fn creation_needs_the_data_treatment_agreement_but_editing_does_not() {
        for agreement in [serde_json::json!(false), serde_json::Value::Null] {
            assert_eq!(key(validate_patient(&with("agreeDataTreatment", agreement), PatientMode::Create, NOW)), "agreeDataTreatment");
        }
        assert_eq!(key(validate_patient(&with("agreeDataTreatment", serde_json::Value::Null), PatientMode::Update, NOW)), "ok");
    }

    #[test]
    fn name_weight_and_height_need_two_characters() {
        assert_eq!(key(validate_patient(&with("name", "A".into()), PatientMode::Create, NOW)), "invalidPatientData");
        assert_eq!(key(validate_patient(&with("name", " A ".into()), PatientMode::Create, NOW)), "invalidPatientData");
        assert_eq!(key(validate_patient(&with("name", "Al".into()), PatientMode::Create, NOW)), "ok");
        assert_eq!(key(validate_patient(&with("weight", 9.into()), PatientMode::Create, NOW)), "invalidPatientData");
        assert_eq!(key(validate_patient(&with("weight", 10.into()), PatientMode::Create, NOW)), "ok");
        assert_eq!(key(validate_patient(&with("height", "9".into()), PatientMode::Create, NOW)), "invalidPatientData");
        assert_eq!(key(validate_patient(&with("height", "tall".into()), PatientMode::Create, NOW)), "invalidPatientData");
        assert_eq!(key(validate_patient(&with("weight", serde_json::Value::Null), PatientMode::Create, NOW)), "invalidPatientData");
        assert_eq!(key(validate_patient(&with("weight", (-50).into()), PatientMode::Create, NOW)), "invalidPatientData");
    }

    #[test]
    fn weight_reaches_its_limit_and_height_stays_below_it_as_storage_asserts() {
        assert_eq!(key(validate_patient(&with("weight", 700.into()), PatientMode::Create, NOW)), "ok");
        assert_eq!(key(validate_patient(&with("weight", 700.5.into()), PatientMode::Create, NOW)), "invalidPatientData");
        assert_eq!(key(validate_patient(&with("height", 299.5.into()), PatientMode::Create, NOW)), "ok");
        assert_eq!(key(validate_patient(&with("height", 300.into()), PatientMode::Create, NOW)), "invalidPatientData");
    }

    #[test]
    fn a_non_empty_email_must_be_an_address() {
        assert_eq!(key(validate_patient(&with("email", "".into()), PatientMode::Create, NOW)), "ok");
        assert_eq!(key(validate_patient(&with("email", "ana@clinic.es".into()), PatientMode::Create, NOW)), "ok");
        assert_eq!(key(validate_patient(&with("email", "ana@clinic".into()), PatientMode::Create, NOW)), "incorrectEmail");
    }

    #[test]
    fn the_birth_date_is_not_in_the_future() {
        assert_eq!(key(validate_patient(&with("birthDate", NOW.into()), PatientMode::Create, NOW)), "ok");
        assert_eq!(key(validate_patient(&with("birthDate", (NOW + BIRTH_DATE_SLACK_SECS).into()), PatientMode::Create, NOW)), "ok");
        assert_eq!(key(validate_patient(&with("birthDate", (NOW + BIRTH_DATE_SLACK_SECS + 1).into()), PatientMode::Create, NOW)), "invalidBirthDate");
        assert_eq!(key(validate_patient(&with("birthDate", "yesterday".into()), PatientMode::Create, NOW)), "invalidBirthDate");
    }

    #[test]
    fn notes_are_at_most_154_characters_and_gender_male_or_female() {
        assert_eq!(key(validate_patient(&with("notes", "ñ".repeat(154).into()), PatientMode::Create, NOW)), "ok");
        assert_eq!(key(validate_patient(&with("notes", "n".repeat(155).into()), PatientMode::Create, NOW)), "invalidPatientData");
        assert_eq!(key(validate_patient(&with("gender", "Female".into()), PatientMode::Create, NOW)), "ok");
        assert_eq!(key(validate_patient(&with("gender", "female".into()), PatientMode::Create, NOW)), "invalidPatientData");
    }

    #[test]
    fn phones_and_postal_codes_keep_their_form() {
        let fields = validate_patient(&with("phone", "+34 600 123 456".into()), PatientMode::Create, NOW).unwrap();
        assert_eq!(fields.phone, "+34 600 123 456");
        let fields = validate_patient(&with("postalCode", "08001".into()), PatientMode::Create, NOW).unwrap();
        assert_eq!(fields.postal_code, "08001");
        assert_eq!(key(validate_patient(&with("phone", "call me".into()), PatientMode::Create, NOW)), "invalidPatientData");
    }
}
