//! Every REST body the hub validates, as its handler reads it: the first byte picks the body type,
//! the rest is the JSON body, parsed with `parse_object` and checked by the type's validator.
//! Nothing may panic; saved layout settings must read back as a body that saves the same settings.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mat_api::account::{validate_account, AccountInput};
use mat_api::body::parse_object;
use mat_api::company::{validate_company, CompanyInput};
use mat_api::device::{validate_registration, validate_settings, DeviceSettingsInput, RegistrationInput};
use mat_api::layout::{layout_json, validate_layout, LayoutJson};
use mat_api::patient::{validate_patient, PatientInput, PatientMode};

/// "Now" for the birth-date check: 2025-11-25 00:00 UTC.
const NOW: i64 = 1_764_028_800;

fuzz_target!(|data: &[u8]| {
    let Some((&kind, body)) = data.split_first() else { return };
    match kind % 6 {
        0 => {
            if let Ok(input) = parse_object::<AccountInput>(body) {
                let _ = validate_account(&input);
            }
        }
        1 => {
            if let Ok(input) = parse_object::<CompanyInput>(body) {
                let _ = validate_company(&input);
            }
        }
        2 => {
            if let Ok(input) = parse_object::<DeviceSettingsInput>(body) {
                let _ = validate_settings(&input);
            }
        }
        3 => {
            if let Ok(input) = parse_object::<RegistrationInput>(body) {
                let _ = validate_registration(&input);
            }
        }
        4 => {
            if let Ok(input) = parse_object::<PatientInput>(body) {
                let _ = validate_patient(&input, PatientMode::Create, NOW);
                let _ = validate_patient(&input, PatientMode::Update, NOW);
            }
        }
        _ => {
            if let Ok(input) = parse_object::<LayoutJson>(body)
                && let Ok(saved) = validate_layout(&input)
            {
                let read_back = layout_json(&saved);
                assert_eq!(validate_layout(&read_back).as_ref(), Ok(&saved), "saved settings read back and save the same");
            }
        }
    }
});
