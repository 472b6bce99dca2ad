//! What clients send the REST API, and its validation (spec §5), as pure functions: the request
//! bodies as the client sends them in, checked values out, or a [`Invalid`] naming the i18n key of
//! spec §8. No database and no runtime here, so the bodies can be fuzzed on their own.
//!
//! The hub's handlers call these before storage; the schema's assertions are a second line that
//! should never fire for input that passed here. The checked values (`DeviceSettings`,
//! `CompanyBranding`, `PatientFields`, `LayoutSettings`) are what storage keeps.

pub mod account;
pub mod alarm_manager;
pub mod body;
pub mod company;
pub mod device;
pub mod email;
pub mod layout;
pub mod lenient;
pub mod patient;
pub mod schema;
pub mod turn;

/// Why a value was refused: the i18n key the client shows, and a message for people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    /// An i18n key of spec §8 (`invalidPatientData`, `shortPassword`, …) or of docs/api.md.
    pub key: &'static str,
    /// What is wrong, in English, for logs and API users.
    pub message: String,
    /// Whether the refusal is about size (answered with 413 rather than 400).
    pub too_large: bool,
}

impl Invalid {
    /// A refusal with this key and message.
    pub fn new(key: &'static str, message: impl Into<String>) -> Self {
        Invalid { key, message: message.into(), too_large: false }
    }

    /// A refusal because something is too large.
    pub fn too_large(key: &'static str, message: impl Into<String>) -> Self {
        Invalid { key, message: message.into(), too_large: true }
    }
}

/// Characters in `text` (not bytes: limits are what people type).
pub fn char_len(text: &str) -> usize {
    text.chars().count()
}
