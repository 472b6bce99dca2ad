//! The validation rules as JSON Schema keywords, for the OpenAPI document: patterns the input
//! types' `#[schemars(...)]` attributes name, and schemas built from the hub's own tables. A body
//! the document describes passes validation (the schema fuzzer of `scripts/api-fuzz.sh` checks it);
//! the hub also accepts the lenient forms the old client sends (numbers as text, aliases).

use mat_protocol::device_type::DeviceType;
use mat_protocol::scale::PressureUnit;
use schemars::generate::SchemaGenerator;
use schemars::{Schema, json_schema};

/// Text that is not empty once trimmed.
pub const NOT_BLANK: &str = r"\S";
/// Text of at least two characters once trimmed.
pub const TWO_CHARACTERS: &str = r"\S[\s\S]*\S";
/// Addresses [`super::email::is_email`] accepts: dot-separated local words and a domain whose
/// top level is letters (the hub also accepts more: hyphens, internationalised domains).
pub const EMAIL: &str = r"^[A-Za-z0-9_%+-]{1,32}(?:\.[A-Za-z0-9_%+-]{1,15}){0,2}@(?:[A-Za-z0-9]{1,20}\.){1,3}[A-Za-z]{2,10}$";
/// An e-mail, or nothing (patients).
pub const EMAIL_OR_EMPTY: &str = r"^$|^[A-Za-z0-9_%+-]{1,32}(?:\.[A-Za-z0-9_%+-]{1,15}){0,2}@(?:[A-Za-z0-9]{1,20}\.){1,3}[A-Za-z]{2,10}$";
/// A hardware serial: letters, digits, `-`, `_` and `.`, up to 64 (`device::SERIAL_MAX`).
pub const SERIAL: &str = r"^[A-Za-z0-9._-]{1,64}$";
/// `#rrggbb`.
pub const PAGE_COLOR: &str = r"^#[0-9A-Fa-f]{6}$";
/// A phone number: digits and `+-(). `, up to 30.
pub const PHONE: &str = r"^[0-9 +().-]{0,30}$";
/// A postal code (spec §3: a number): 3 to 10 digits (`patient::POSTAL_CODE_*_DIGITS`). Unset is
/// `null` or absent (the hub also takes the old app's `""` and `-1`).
pub const POSTAL_CODE: &str = r"^[0-9]{3,10}$";
/// A logo: nothing (removes it), or canonical base64 of a PNG (`iVBORw0KGg…`) or JPEG (`/9j/…`)
/// file, bare or as a `data:` URL.
pub const LOGO: &str = r"^$|^(?:data:image/(?:png|jpeg);base64,)?(?:iVBORw0KGg[o-r][A-Za-z0-9+/]|/9j/)(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/][AQgw]==|[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=)?$";

/// The device types a registration names: every type of the table but the sub-devices, which
/// are created with their parent.
pub fn registrable_device_type(_: &mut SchemaGenerator) -> Schema {
    let names: Vec<&str> = DeviceType::ALL.into_iter().filter(|t| *t != DeviceType::SensingHorseSubdevice).map(DeviceType::name).collect();
    json_schema!({ "type": "string", "enum": names })
}

/// A phone: text of digits and `+-(). ` ([`PHONE`]), or unset: `null`, `""`, or the old app's
/// `-1` (as text or as a number; no other number is a phone).
pub fn phone(_: &mut SchemaGenerator) -> Schema {
    json_schema!({ "anyOf": [{ "type": "string", "pattern": PHONE }, { "const": -1 }, { "type": "null" }] })
}

/// A Sensing Horse's number of sub-devices, 1 to [`super::device::SUBDEVICES_MAX`]; absent or
/// `null` is [`super::device::DEFAULT_SUBDEVICES`]. Checked whatever the device type.
pub fn number_of_subdevices(_: &mut SchemaGenerator) -> Schema {
    json_schema!({ "type": ["integer", "null"], "minimum": 1, "maximum": super::device::SUBDEVICES_MAX })
}

/// A registration's floor, room or bed: text of at most [`super::device::FIELD_MAX`] characters,
/// or a number (the old app sends `"room": 101`), or `null` (unset).
pub fn location_text_or_number(_: &mut SchemaGenerator) -> Schema {
    json_schema!({ "type": ["string", "number", "null"], "maxLength": super::device::FIELD_MAX })
}

/// The pressure units a user may choose (`mat_protocol::scale::PressureUnit`).
pub fn pressure_unit(_: &mut SchemaGenerator) -> Schema {
    let symbols: Vec<&str> = PressureUnit::ALL.into_iter().map(PressureUnit::symbol).collect();
    json_schema!({ "type": "string", "enum": symbols, "default": PressureUnit::default().symbol() })
}
