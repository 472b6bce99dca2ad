//! Patient create and edit (spec §5): name required with at least 2 characters, weight in kg and
//! height in cm within plausible human ranges (issue 22; docs/decisions.md "Plausible patient
//! values"), a decimal comma or point, a non-empty e-mail must be an address, the birth date not
//! in the future, notes at most 154, gender Male or Female, the postal code digits (spec §3: a
//! number) and the data-treatment agreement on creation. Unset phone, phone2, size and postal
//! code become -1.
//!
//! Every limit is written once here: the OpenAPI document carries them (the `schemars`
//! attributes below) and the client's form reads them from it. Each field's refusal has its own
//! key ([`PatientField::key`]), the same the client's form uses, and every problem is found at
//! once ([`check_patient`]).

use serde::Deserialize;
#[cfg(feature = "surreal")]
use surrealdb::types::SurrealValue;

use super::email::is_email;
use super::lenient::NumberOrText;
use super::{Invalid, char_len};

/// Patient notes limit.
pub const NOTES_MAX: usize = 154;
/// Minimum characters of name, weight and height as typed.
pub const REQUIRED_MIN_CHARS: usize = 2;
/// Longest name, phone, … accepted (not in the spec; keeps rows bounded).
pub const TEXT_MAX: usize = 200;
/// Lightest plausible weight in kg: a newborn at term (the mats are not used in incubators).
pub const WEIGHT_MIN_KG: f64 = 2.0;
/// Heaviest plausible weight in kg: the rating of bariatric beds (1,000 lb).
pub const WEIGHT_MAX_KG: f64 = 450.0;
/// Shortest plausible height in cm: a newborn at term. A height typed in metres ("1,65") is
/// below it and refused with a message that asks for centimetres.
pub const HEIGHT_MIN_CM: f64 = 45.0;
/// Tallest plausible height in cm (the tallest people measured are about 250 cm).
pub const HEIGHT_MAX_CM: f64 = 250.0;
/// Shoe sizes (EU 15 to 55 and every other system's numbers fall inside).
pub const SIZE_MIN: f64 = 1.0;
pub const SIZE_MAX: f64 = 99.0;
/// Digits of a postal code (spec §3: a number; kept as text so leading zeros stay).
pub const POSTAL_CODE_MIN_DIGITS: usize = 3;
pub const POSTAL_CODE_MAX_DIGITS: usize = 10;
/// Longest phone number, in characters.
pub const PHONE_MAX: usize = 30;
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
    #[schemars(with = "String", length(min = REQUIRED_MIN_CHARS, max = TEXT_MAX), pattern(super::schema::TWO_CHARACTERS))]
    pub name: NumberOrText,
    #[schemars(with = "f64", range(min = WEIGHT_MIN_KG, max = WEIGHT_MAX_KG))]
    pub weight: NumberOrText,
    #[schemars(with = "f64", range(min = HEIGHT_MIN_CM, max = HEIGHT_MAX_CM))]
    pub height: NumberOrText,
    /// Unix seconds; not after the hub's clock plus a day (`BIRTH_DATE_SLACK_SECS`): a later one
    /// is 400 `invalidBirthDate` (a rule of the clock, which no static schema can state).
    #[schemars(with = "Option<i64>")]
    pub birth_date: NumberOrText,
    #[schemars(length(max = NOTES_MAX))]
    pub notes: Option<String>,
    #[schemars(pattern(super::schema::EMAIL_OR_EMPTY))]
    pub email: Option<String>,
    #[schemars(schema_with = "super::schema::phone")]
    pub phone: NumberOrText,
    #[schemars(schema_with = "super::schema::phone")]
    pub phone2: NumberOrText,
    #[schemars(with = "Option<Gender>")]
    pub gender: Option<String>,
    #[schemars(with = "Option<f64>", range(min = SIZE_MIN, max = SIZE_MAX))]
    pub size: NumberOrText,
    #[schemars(length(max = TEXT_MAX))]
    pub health_ins: Option<String>,
    #[schemars(length(max = TEXT_MAX))]
    pub medical_cond: Option<String>,
    #[schemars(length(max = TEXT_MAX))]
    pub profession: Option<String>,
    #[schemars(length(max = TEXT_MAX))]
    pub address: Option<String>,
    #[schemars(with = "Option<String>", length(min = POSTAL_CODE_MIN_DIGITS, max = POSTAL_CODE_MAX_DIGITS), pattern(super::schema::POSTAL_CODE))]
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

/// A field of the patient form, as a refusal names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatientField {
    Name,
    Weight,
    Height,
    BirthDate,
    Email,
    Phone,
    Phone2,
    Gender,
    Size,
    HealthIns,
    MedicalCond,
    Profession,
    Address,
    PostalCode,
    Country,
    Notes,
    Agreement,
}

impl PatientField {
    /// The i18n key of this field's refusal; the client's form uses the same
    /// (`PATIENT_FIELD_KEYS` in client/src/features/patients/patientForm.ts).
    pub fn key(self) -> &'static str {
        match self {
            PatientField::Name => "patientName",
            PatientField::Weight => "patientWeight",
            PatientField::Height => "patientHeight",
            PatientField::BirthDate => "invalidBirthDate",
            PatientField::Email => "incorrectEmail",
            PatientField::Phone => "patientPhone",
            PatientField::Phone2 => "patientPhone2",
            PatientField::Gender => "patientGender",
            PatientField::Size => "patientSize",
            PatientField::HealthIns => "patientHealthIns",
            PatientField::MedicalCond => "patientMedicalCond",
            PatientField::Profession => "patientProfession",
            PatientField::Address => "patientAddress",
            PatientField::PostalCode => "patientPostalCode",
            PatientField::Country => "patientCountry",
            PatientField::Notes => "patientNotes",
            PatientField::Agreement => "agreeDataTreatment",
        }
    }
}

/// One refused field and why.
#[derive(Debug, Clone, PartialEq)]
pub struct PatientProblem {
    pub field: PatientField,
    pub message: String,
}

/// A number within `min..=max` typed in a required field: as JSON or as text with a decimal comma
/// or point.
fn number_in(value: &NumberOrText, min: f64, max: f64) -> Option<f64> {
    value.number().filter(|n| (min..=max).contains(n))
}

fn text_within(value: &Option<String>) -> Option<String> {
    let text = value.as_deref().unwrap_or("").trim().to_owned();
    (char_len(&text) <= TEXT_MAX).then_some(text)
}

/// Phone characters: digits, spaces, + - ( ) .
fn phone_char(c: char) -> bool {
    c.is_ascii_digit() || " +-().".contains(c)
}

/// A phone: '-1' when unset, else the text typed (at most [`PHONE_MAX`] phone characters).
fn phone(value: &NumberOrText) -> Option<String> {
    if value.is_unset() {
        return Some("-1".to_owned());
    }
    let text = value.text();
    // A JSON number is only the old app's unset `-1` (above): digits are sent as text.
    (matches!(value, NumberOrText::Text(_)) && char_len(&text) <= PHONE_MAX && text.chars().all(phone_char)).then_some(text)
}

/// A postal code: '-1' when unset, else its digits (spec §3: a number).
fn postal_code(value: &NumberOrText) -> Option<String> {
    if value.is_unset() {
        return Some("-1".to_owned());
    }
    let text = value.text();
    let digits = (POSTAL_CODE_MIN_DIGITS..=POSTAL_CODE_MAX_DIGITS).contains(&char_len(&text)) && text.chars().all(|c| c.is_ascii_digit());
    (!matches!(value, NumberOrText::Bool(_)) && digits).then_some(text)
}

/// Checks a patient; `now` is Unix seconds. Every refused field is reported, in the form's order.
pub fn check_patient(input: &PatientInput, mode: PatientMode, now: i64) -> Result<PatientFields, Vec<PatientProblem>> {
    let mut problems = Vec::new();
    let mut refuse = |field: PatientField, message: String| problems.push(PatientProblem { field, message });
    let name = input.name.text();
    // A name is text, as the document says (not `false` or `12`).
    if !matches!(input.name, NumberOrText::Text(_)) || !(REQUIRED_MIN_CHARS..=TEXT_MAX).contains(&char_len(&name)) {
        refuse(PatientField::Name, format!("name is required, {REQUIRED_MIN_CHARS} to {TEXT_MAX} characters"));
    }
    let weight = number_in(&input.weight, WEIGHT_MIN_KG, WEIGHT_MAX_KG);
    if weight.is_none() {
        refuse(PatientField::Weight, format!("weight is required, in kg from {WEIGHT_MIN_KG} to {WEIGHT_MAX_KG}"));
    }
    let height = number_in(&input.height, HEIGHT_MIN_CM, HEIGHT_MAX_CM);
    if height.is_none() {
        refuse(PatientField::Height, format!("height is required, in cm from {HEIGHT_MIN_CM} to {HEIGHT_MAX_CM}"));
    }
    let birth_date = if input.birth_date.is_unset() {
        None
    } else {
        // Whole seconds an i64 holds (the document's int64): a larger magnitude would saturate.
        match input.birth_date.whole_i64() {
            Some(seconds) if seconds <= now + BIRTH_DATE_SLACK_SECS => Some(seconds),
            Some(_) => {
                refuse(PatientField::BirthDate, "the birth date cannot be in the future".into());
                None
            }
            None => {
                refuse(PatientField::BirthDate, "the birth date must be Unix seconds".into());
                None
            }
        }
    };
    let email = input.email.as_deref().unwrap_or("").trim().to_owned();
    if !email.is_empty() && !is_email(&email) {
        refuse(PatientField::Email, "Please, select a valid email address".into());
    }
    let phone1 = phone(&input.phone);
    if phone1.is_none() {
        refuse(PatientField::Phone, format!("phone: digits, spaces and + - ( ) . only, at most {PHONE_MAX}"));
    }
    let phone2 = phone(&input.phone2);
    if phone2.is_none() {
        refuse(PatientField::Phone2, format!("phone2: digits, spaces and + - ( ) . only, at most {PHONE_MAX}"));
    }
    let gender = match input.gender.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(g) if Gender::parse(g).is_some() => Some(g.to_owned()),
        Some(_) => {
            refuse(PatientField::Gender, "gender is Male or Female".into());
            None
        }
    };
    let size = if input.size.is_unset() { Some(-1.0) } else { number_in(&input.size, SIZE_MIN, SIZE_MAX) };
    if size.is_none() {
        refuse(PatientField::Size, format!("size is a number from {SIZE_MIN} to {SIZE_MAX}"));
    }
    let mut text = |value: &Option<String>, field: PatientField, name: &str| {
        let kept = text_within(value);
        if kept.is_none() {
            refuse(field, format!("{name} is longer than {TEXT_MAX} characters"));
        }
        kept.unwrap_or_default()
    };
    let health_ins = text(&input.health_ins, PatientField::HealthIns, "healthIns");
    let medical_cond = text(&input.medical_cond, PatientField::MedicalCond, "medicalCond");
    let profession = text(&input.profession, PatientField::Profession, "profession");
    let address = text(&input.address, PatientField::Address, "address");
    let postal = postal_code(&input.postal_code);
    let country = text(&input.country, PatientField::Country, "country");
    if postal.is_none() {
        refuse(PatientField::PostalCode, format!("postalCode is {POSTAL_CODE_MIN_DIGITS} to {POSTAL_CODE_MAX_DIGITS} digits"));
    }
    let notes = input.notes.as_deref().unwrap_or("").to_owned();
    if char_len(&notes) > NOTES_MAX {
        refuse(PatientField::Notes, format!("notes are at most {NOTES_MAX} characters"));
    }
    if mode == PatientMode::Create && input.agree_data_treatment != Some(true) {
        refuse(PatientField::Agreement, "the patient's agreement to data treatment is required".into());
    }
    match (weight, height, phone1, phone2, size, postal) {
        (Some(weight), Some(height), Some(phone), Some(phone2), Some(size), Some(postal_code)) if problems.is_empty() => {
            Ok(PatientFields {
                name,
                weight,
                height,
                birth_date,
                notes,
                email,
                phone,
                phone2,
                gender,
                size,
                health_ins,
                medical_cond,
                profession,
                address,
                postal_code,
                country,
            })
        }
        _ => Err(problems),
    }
}

/// Checks a patient as the hub's handlers do: the first refused field's key, and every problem
/// in the message.
pub fn validate_patient(input: &PatientInput, mode: PatientMode, now: i64) -> Result<PatientFields, Invalid> {
    check_patient(input, mode, now).map_err(|problems| {
        let key = problems.first().map(|p| p.field.key()).unwrap_or("invalidPatientData");
        let message = problems.iter().map(|p| p.message.as_str()).collect::<Vec<_>>().join("; ");
        Invalid::new(key, message)
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
    fn the_name_needs_two_characters() {
        assert_eq!(key(validate_patient(&with("name", "A".into()), PatientMode::Create, NOW)), "patientName");
        assert_eq!(key(validate_patient(&with("name", " A ".into()), PatientMode::Create, NOW)), "patientName");
        assert_eq!(key(validate_patient(&with("name", "Al".into()), PatientMode::Create, NOW)), "ok");
        assert_eq!(key(validate_patient(&with("name", "x".repeat(201).into()), PatientMode::Create, NOW)), "patientName");
    }

    #[test]
    fn weight_is_a_plausible_number_of_kg_with_a_decimal_comma_or_point() {
        let weight = |v: serde_json::Value| key(validate_patient(&with("weight", v), PatientMode::Create, NOW));
        assert_eq!(weight(6.into()), "ok", "an infant's 6 kg is plausible");
        assert_eq!(weight(2.into()), "ok");
        assert_eq!(weight(1.9.into()), "patientWeight");
        assert_eq!(weight(450.into()), "ok");
        assert_eq!(weight(450.5.into()), "patientWeight");
        assert_eq!(weight("68,5".into()), "ok");
        assert_eq!(weight("68.5".into()), "ok");
        assert_eq!(weight("heavy".into()), "patientWeight");
        assert_eq!(weight(serde_json::Value::Null), "patientWeight");
        assert_eq!(weight((-50).into()), "patientWeight");
        assert_eq!(validate_patient(&with("weight", "68,5".into()), PatientMode::Create, NOW).unwrap().weight, 68.5);
    }

    #[test]
    fn height_is_a_plausible_number_of_cm_so_metres_are_refused() {
        let height = |v: serde_json::Value| key(validate_patient(&with("height", v), PatientMode::Create, NOW));
        assert_eq!(height("1,65".into()), "patientHeight", "1,65 is metres, not a height in cm");
        assert_eq!(height(1.65.into()), "patientHeight");
        assert_eq!(height(45.into()), "ok");
        assert_eq!(height(44.9.into()), "patientHeight");
        assert_eq!(height("165,5".into()), "ok");
        assert_eq!(height(250.into()), "ok");
        assert_eq!(height(250.1.into()), "patientHeight");
        assert_eq!(height("tall".into()), "patientHeight");
    }

    #[test]
    fn every_problem_is_found_at_once_in_the_forms_order_each_with_its_key() {
        let json =
            serde_json::json!({"name": "A", "weight": 6000, "height": "1,65", "postalCode": "ABC", "notes": "n".repeat(155), "size": 0});
        let problems = check_patient(&input(json), PatientMode::Create, NOW).unwrap_err();
        let keys: Vec<&str> = problems.iter().map(|p| p.field.key()).collect();
        assert_eq!(
            keys,
            ["patientName", "patientWeight", "patientHeight", "patientSize", "patientPostalCode", "patientNotes", "agreeDataTreatment"]
        );
        let invalid = validate_patient(
            &input(serde_json::json!({"name": "Ana", "weight": 70, "height": 1.65, "postalCode": "ABC"})),
            PatientMode::Update,
            NOW,
        )
        .unwrap_err();
        assert_eq!(invalid.key, "patientHeight", "the hub answers the first field's key");
        assert!(
            invalid.message.contains("height is required, in cm from 45 to 250")
                && invalid.message.contains("postalCode is 3 to 10 digits"),
            "{}",
            invalid.message
        );
    }

    #[test]
    fn the_schema_carries_the_same_limits() {
        let schema = serde_json::to_value(schemars::schema_for!(PatientInput)).unwrap();
        let property = |name: &str| schema["properties"][name].clone();
        assert_eq!(
            (property("weight")["minimum"].as_f64(), property("weight")["maximum"].as_f64()),
            (Some(WEIGHT_MIN_KG), Some(WEIGHT_MAX_KG))
        );
        assert_eq!(
            (property("height")["minimum"].as_f64(), property("height")["maximum"].as_f64()),
            (Some(HEIGHT_MIN_CM), Some(HEIGHT_MAX_CM))
        );
        assert_eq!(property("name")["minLength"].as_u64(), Some(REQUIRED_MIN_CHARS as u64));
        assert_eq!((property("postalCode")["minLength"].as_u64(), property("postalCode")["maxLength"].as_u64()), (Some(3), Some(10)));
        assert_eq!(property("notes")["maxLength"].as_u64(), Some(NOTES_MAX as u64));
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
        assert_eq!(
            key(validate_patient(&with("birthDate", (NOW + BIRTH_DATE_SLACK_SECS + 1).into()), PatientMode::Create, NOW)),
            "invalidBirthDate"
        );
        assert_eq!(key(validate_patient(&with("birthDate", "yesterday".into()), PatientMode::Create, NOW)), "invalidBirthDate");
        // Beyond an int64 (the document's format) it is refused, not saturated.
        let beyond: serde_json::Value = serde_json::from_str("-9223372036854775809").unwrap();
        assert_eq!(key(validate_patient(&with("birthDate", beyond), PatientMode::Create, NOW)), "invalidBirthDate");
    }

    #[test]
    fn notes_are_at_most_154_characters_and_gender_male_or_female() {
        assert_eq!(key(validate_patient(&with("notes", "ñ".repeat(154).into()), PatientMode::Create, NOW)), "ok");
        assert_eq!(key(validate_patient(&with("notes", "n".repeat(155).into()), PatientMode::Create, NOW)), "patientNotes");
        assert_eq!(key(validate_patient(&with("gender", "Female".into()), PatientMode::Create, NOW)), "ok");
        assert_eq!(key(validate_patient(&with("gender", "female".into()), PatientMode::Create, NOW)), "patientGender");
    }

    #[test]
    fn phones_keep_their_form_and_postal_codes_are_digits() {
        let fields = validate_patient(&with("phone", "+34 600 123 456".into()), PatientMode::Create, NOW).unwrap();
        assert_eq!(fields.phone, "+34 600 123 456");
        let fields = validate_patient(&with("postalCode", "08001".into()), PatientMode::Create, NOW).unwrap();
        assert_eq!(fields.postal_code, "08001", "leading zeros stay");
        assert_eq!(validate_patient(&with("postalCode", 28013.into()), PatientMode::Create, NOW).unwrap().postal_code, "28013");
        assert_eq!(validate_patient(&with("postalCode", "".into()), PatientMode::Create, NOW).unwrap().postal_code, "-1");
        assert_eq!(key(validate_patient(&with("phone", "call me".into()), PatientMode::Create, NOW)), "patientPhone");
        assert_eq!(key(validate_patient(&with("phone2", "1".repeat(31).into()), PatientMode::Create, NOW)), "patientPhone2");
        assert_eq!(key(validate_patient(&with("phone2", 0.into()), PatientMode::Create, NOW)), "patientPhone2", "a number is no phone");
        assert_eq!(key(validate_patient(&with("name", false.into()), PatientMode::Create, NOW)), "patientName", "a name is text");
        assert_eq!(validate_patient(&with("phone2", (-1).into()), PatientMode::Create, NOW).unwrap().phone2, "-1", "but the unset -1");
        for bad in ["ABC", "12", "12345678901", "SW1A 1AA"] {
            assert_eq!(key(validate_patient(&with("postalCode", bad.into()), PatientMode::Create, NOW)), "patientPostalCode", "{bad}");
        }
    }
}
