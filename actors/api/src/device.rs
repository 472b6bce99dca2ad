//! Device settings and registration (spec §5): name, room and bed non-empty
//! (deviceParameters); registration needs a serial and a name, a known device type, and a
//! numeric number of sub-devices (default 2, Sensing Horse only).

use mat_protocol::device_type::DeviceType;
use serde::Deserialize;

use super::lenient::NumberOrText;
use super::{Invalid, char_len};

/// Longest name, room, bed, building, … accepted.
pub const FIELD_MAX: usize = 100;
/// Longest hardware serial.
pub const SERIAL_MAX: usize = 64;
/// Sub-devices of a Sensing Horse when none is given.
pub const DEFAULT_SUBDEVICES: i64 = 2;
/// Most sub-devices a Sensing Horse may have.
pub const SUBDEVICES_MAX: i64 = 16;

fn parameters(message: impl Into<String>) -> Invalid {
    Invalid::new("deviceParameters", message)
}

/// `PUT /api/device/{id}` body.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(default)]
#[schemars(extend("required" = ["name", "bed", "room"]))]
pub struct DeviceSettingsInput {
    #[schemars(length(max = FIELD_MAX), pattern(super::schema::NOT_BLANK))]
    pub name: String,
    #[schemars(length(max = FIELD_MAX), pattern(super::schema::NOT_BLANK))]
    pub bed: String,
    #[schemars(length(max = FIELD_MAX), pattern(super::schema::NOT_BLANK))]
    pub room: String,
}

/// The editable fields of a device (spec §5: name, room and bed non-empty).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DeviceSettings {
    pub name: String,
    pub bed: String,
    pub room: String,
}

/// Checks a device's name, bed and room.
pub fn validate_settings(input: &DeviceSettingsInput) -> Result<DeviceSettings, Invalid> {
    let settings =
        DeviceSettings { name: input.name.trim().to_owned(), bed: input.bed.trim().to_owned(), room: input.room.trim().to_owned() };
    for (field, value) in [("name", &settings.name), ("room", &settings.room), ("bed", &settings.bed)] {
        if value.is_empty() {
            return Err(parameters(format!("{field} is required")));
        }
        if char_len(value) > FIELD_MAX {
            return Err(parameters(format!("{field} is longer than {FIELD_MAX} characters")));
        }
    }
    Ok(settings)
}

/// `POST /api/deviceandconfRegistration` body (spec §7 field names).
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", default)]
#[schemars(extend("required" = ["hardwareSerial", "name", "deviceType"]))]
pub struct RegistrationInput {
    #[schemars(pattern(super::schema::SERIAL))]
    pub hardware_serial: String,
    /// The old app's device password; ignored, a random secret is issued instead.
    #[schemars(skip)]
    pub hardware_password: Option<String>,
    #[schemars(length(max = FIELD_MAX), pattern(super::schema::NOT_BLANK))]
    pub name: String,
    #[schemars(length(max = FIELD_MAX))]
    pub health_system: String,
    #[schemars(length(max = FIELD_MAX))]
    pub building: String,
    #[schemars(schema_with = "super::schema::location_text_or_number")]
    pub floor: NumberOrText,
    #[schemars(schema_with = "super::schema::location_text_or_number")]
    pub room: NumberOrText,
    #[schemars(schema_with = "super::schema::location_text_or_number")]
    pub bed: NumberOrText,
    #[schemars(schema_with = "super::schema::registrable_device_type")]
    pub device_type: String,
    /// The owning company's id (the old app's field name).
    #[serde(rename = "added_by")]
    pub added_by: Option<String>,
    #[schemars(skip)]
    pub current_patient: Option<String>,
    #[schemars(schema_with = "super::schema::number_of_subdevices")]
    pub number_of_subdevices: NumberOrText,
}

/// A checked registration.
#[derive(Debug, Clone, PartialEq)]
pub struct Registration {
    pub hardware_serial: String,
    pub name: String,
    pub health_system: String,
    pub building: String,
    pub floor: String,
    pub room: String,
    pub bed: String,
    pub device_type: DeviceType,
    pub number_of_subdevices: i64,
}

/// Checks a registration.
pub fn validate_registration(input: &RegistrationInput) -> Result<Registration, Invalid> {
    let serial = input.hardware_serial.trim().to_owned();
    let name = input.name.trim().to_owned();
    if serial.is_empty() || name.is_empty() {
        return Err(parameters("the serial number and the name are required"));
    }
    if char_len(&serial) > SERIAL_MAX || !serial.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)) {
        return Err(parameters(format!("the serial is up to {SERIAL_MAX} letters, digits, '-', '_' or '.'")));
    }
    let device_type = DeviceType::from_name(input.device_type.trim())
        .filter(|t| *t != DeviceType::SensingHorseSubdevice)
        .ok_or_else(|| Invalid::new("invalidDeviceType", format!("'{}' is not a device type that can be registered", input.device_type)))?;
    // Absent, null or an empty field is the default; anything else is an integer 1 to 16 (the
    // client's text "4" too), whatever the type: only a Sensing Horse uses it.
    let number_of_subdevices = match &input.number_of_subdevices {
        NumberOrText::Missing => DEFAULT_SUBDEVICES,
        NumberOrText::Text(t) if t.trim().is_empty() => DEFAULT_SUBDEVICES,
        NumberOrText::Number(_) | NumberOrText::Text(_) => {
            let n = input
                .number_of_subdevices
                .number()
                .filter(|n| n.fract() == 0.0)
                .ok_or_else(|| parameters("numberOfSubdevices must be a number"))?;
            n as i64
        }
        NumberOrText::Bool(_) => return Err(parameters("numberOfSubdevices must be a number")),
    };
    if !(1..=SUBDEVICES_MAX).contains(&number_of_subdevices) {
        return Err(parameters(format!("a Sensing Horse has 1 to {SUBDEVICES_MAX} sub-devices")));
    }
    for (field, value) in [("floor", &input.floor), ("room", &input.room), ("bed", &input.bed)] {
        if matches!(value, NumberOrText::Bool(_)) {
            return Err(parameters(format!("{field} is text or a number")));
        }
    }
    let registration = Registration {
        hardware_serial: serial,
        name,
        health_system: input.health_system.trim().to_owned(),
        building: input.building.trim().to_owned(),
        floor: input.floor.text(),
        room: input.room.text(),
        bed: input.bed.text(),
        device_type,
        number_of_subdevices,
    };
    for (field, value) in [
        ("name", &registration.name),
        ("healthSystem", &registration.health_system),
        ("building", &registration.building),
        ("floor", &registration.floor),
        ("room", &registration.room),
        ("bed", &registration.bed),
    ] {
        if char_len(value) > FIELD_MAX {
            return Err(parameters(format!("{field} is longer than {FIELD_MAX} characters")));
        }
    }
    Ok(registration)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(name: &str, room: &str, bed: &str) -> Result<DeviceSettings, Invalid> {
        validate_settings(&DeviceSettingsInput { name: name.into(), bed: bed.into(), room: room.into() })
    }

    #[test]
    fn name_room_and_bed_are_required() {
        assert!(settings("Bed 1", "101", "A").is_ok());
        for (name, room, bed) in [("", "101", "A"), ("Bed 1", " ", "A"), ("Bed 1", "101", "")] {
            assert_eq!(settings(name, room, bed).unwrap_err().key, "deviceParameters");
        }
        assert_eq!(settings(&"n".repeat(101), "1", "A").unwrap_err().key, "deviceParameters");
    }

    fn registration(json: serde_json::Value) -> Result<Registration, Invalid> {
        validate_registration(&serde_json::from_value(json).unwrap())
    }

    #[test]
    fn registration_needs_serial_name_and_a_known_type() {
        let ok = registration(serde_json::json!({"hardwareSerial": "MAT-1", "name": "Bed", "deviceType": "Mattress Mat IoT", "room": 101}))
            .unwrap();
        assert_eq!((ok.room.as_str(), ok.number_of_subdevices), ("101", 2));
        assert_eq!(registration(serde_json::json!({"name": "Bed", "deviceType": "Force Mat"})).unwrap_err().key, "deviceParameters");
        assert_eq!(
            registration(serde_json::json!({"hardwareSerial": "X", "deviceType": "Force Mat"})).unwrap_err().key,
            "deviceParameters"
        );
        assert_eq!(
            registration(serde_json::json!({"hardwareSerial": "X 1", "name": "B", "deviceType": "Force Mat"})).unwrap_err().key,
            "deviceParameters"
        );
        assert_eq!(
            registration(serde_json::json!({"hardwareSerial": "X", "name": "B", "deviceType": "Toaster"})).unwrap_err().key,
            "invalidDeviceType"
        );
        assert_eq!(
            registration(serde_json::json!({"hardwareSerial": "X", "name": "B", "deviceType": "Sensing Horse Subdevice"})).unwrap_err().key,
            "invalidDeviceType",
            "sub-devices are created with their parent"
        );
    }

    #[test]
    fn floor_room_and_bed_are_text_a_number_or_null_as_documented() {
        let with_room = |room: serde_json::Value| {
            registration(serde_json::json!({"hardwareSerial": "M", "name": "Bed", "deviceType": "Mattress Mat IoT", "room": room}))
        };
        assert_eq!(with_room("101 B".into()).unwrap().room, "101 B");
        assert_eq!(with_room(101.into()).unwrap().room, "101");
        assert_eq!(with_room(serde_json::Value::Null).unwrap().room, "", "null is unset");
        assert_eq!(with_room(true.into()).unwrap_err().key, "deviceParameters", "the schema has no boolean");
        assert_eq!(with_room("r".repeat(FIELD_MAX + 1).into()).unwrap_err().key, "deviceParameters");
    }

    #[test]
    fn sub_devices_are_numeric_and_default_to_two() {
        let horse = |n: serde_json::Value| {
            registration(
                serde_json::json!({"hardwareSerial": "H", "name": "Horse", "deviceType": "Sensing Horse", "numberOfSubdevices": n}),
            )
        };
        assert_eq!(horse(serde_json::Value::Null).unwrap().number_of_subdevices, 2);
        assert_eq!(horse("4".into()).unwrap().number_of_subdevices, 4);
        assert_eq!(horse("two".into()).unwrap_err().key, "deviceParameters");
        assert_eq!(horse(0.into()).unwrap_err().key, "deviceParameters");
        assert_eq!(horse(17.into()).unwrap_err().key, "deviceParameters");
        let mat = |n: serde_json::Value| {
            registration(serde_json::json!({"hardwareSerial": "M", "name": "Mat", "deviceType": "Podology IoT", "numberOfSubdevices": n}))
        };
        assert_eq!(mat(0.into()).unwrap_err().key, "deviceParameters", "the document's range holds for every type");
        assert_eq!(mat(17.into()).unwrap_err().key, "deviceParameters");
        assert_eq!(mat(serde_json::Value::Null).unwrap().number_of_subdevices, 2);
    }
}
