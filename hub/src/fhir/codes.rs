//! The code systems, codes and extension URLs the FHIR interface writes (docs/interfaces.md,
//! "FHIR R4"): LOINC, SNOMED CT and IEEE 11073 (MDC) where one fits, the hub's own code system
//! ([`LOCAL`]) where none does. Every code the resources carry is named here once.

use serde_json::{Value, json};

/// LOINC.
pub const LOINC: &str = "http://loinc.org";
/// SNOMED CT.
pub const SNOMED: &str = "http://snomed.info/sct";
/// UCUM units.
pub const UCUM: &str = "http://unitsofmeasure.org";
/// IEEE 11073-10101 nomenclature (the alarm conditions' `MDCX_` codes, `ihe_pcd::priority`).
pub const MDC: &str = "urn:iso:std:iso:11073:10101";
/// FHIR's observation categories.
pub const OBSERVATION_CATEGORY: &str = "http://terminology.hl7.org/CodeSystem/observation-category";
/// FHIR's communication categories (`alert`).
pub const COMMUNICATION_CATEGORY: &str = "http://terminology.hl7.org/CodeSystem/communication-category";
/// The hub's own code system: what no standard code names (pressures at the skin–mat interface,
/// presence on a mat, a recorded turn, the analyses' figures, the device types).
pub const LOCAL: &str = "urn:pmat-hub:fhir:CodeSystem:pmat";
/// The hub's user accounts (who recorded a turn: `Observation.performer.identifier`).
pub const USER: &str = "urn:pmat-hub:fhir:NamingSystem:user";
/// FHIR's reasons for a missing value.
pub const DATA_ABSENT_REASON: &str = "http://terminology.hl7.org/CodeSystem/data-absent-reason";
/// Device serial numbers (`Device.identifier`).
pub const SERIAL: &str = "urn:pmat-hub:fhir:NamingSystem:serial";
/// The hub's extensions: the R6 `DeviceAlert` fields on a `Communication`, and the scale of a
/// `DeviceMetric`'s cells. Each extension's URL is this prefix and its name.
pub const EXTENSION: &str = "urn:pmat-hub:fhir:StructureDefinition:";

/// One code of a system.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Code {
    pub system: &'static str,
    pub code: &'static str,
    pub display: &'static str,
}

impl Code {
    /// A code of the hub's own system.
    pub const fn local(code: &'static str, display: &'static str) -> Code {
        Code { system: LOCAL, code, display }
    }

    /// The `Coding`.
    pub fn coding(&self) -> Value {
        json!({ "system": self.system, "code": self.code, "display": self.display })
    }

    /// A `CodeableConcept` of this code alone.
    pub fn concept(&self) -> Value {
        json!({ "coding": [self.coding()], "text": self.display })
    }

    /// (system, code), as a search tests it.
    pub fn pair(&self) -> (String, String) {
        (self.system.to_owned(), self.code.to_owned())
    }

    /// `system|code`, as a `code` search names it.
    pub fn token(&self) -> String {
        format!("{}|{}", self.system, self.code)
    }
}

/// LOINC 8361-8: the posture, valued with SNOMED CT body positions.
pub const BODY_POSITION: Code = Code { system: LOINC, code: "8361-8", display: "Body position with respect to gravity" };
/// SNOMED CT body positions, by the hub's posture names (`mat_core::machine::posture::Posture::name`).
pub const POSTURES: [(&str, Code); 6] = [
    ("Supine", Code { system: SNOMED, code: "40199007", display: "Supine body position" }),
    ("Prone", Code { system: SNOMED, code: "1240000", display: "Prone body position" }),
    ("Left Lateral", Code { system: SNOMED, code: "102536004", display: "Left lateral decubitus position" }),
    ("Right Lateral", Code { system: SNOMED, code: "102535000", display: "Right lateral decubitus position" }),
    ("Seated", Code { system: SNOMED, code: "33586001", display: "Sitting position" }),
    // The Sleep Mat tells supine from anything else only: SNOMED has no "not supine".
    ("No Supine", Code::local("not-supine", "Not supine (Sleep Mat)")),
];
/// The posture classifier's confidence, a component of the posture observation.
pub const POSTURE_CONFIDENCE: Code = Code::local("posture-confidence", "Posture classifier confidence");
/// The highest pressure of the map at the skin–mat interface (no LOINC or MDC code names it).
pub const PEAK_PRESSURE: Code = Code::local("peak-interface-pressure", "Peak interface pressure");
/// A device-log entry's mean pressure: the mean of the loaded blocks of its downsampled map (a
/// block at the body's edge counts at its block mean, so it reads lower than the cells' own mean).
pub const BLOCK_MEAN_PRESSURE: Code = Code::local("mean-block-pressure", "Mean pressure of the loaded blocks of the logged map");
/// The mean pressure over the loaded area of the map (an analysis's active cells).
pub const MEAN_PRESSURE: Code = Code::local("mean-interface-pressure", "Mean interface pressure over the loaded area");
/// Someone is on the mat (an entrance) or not (an exit).
pub const PRESENCE: Code = Code::local("presence-on-mat", "Patient present on the mat");
/// A turn the device log recorded: its posture differs from the previous entry's.
pub const TURN: Code = Code::local("repositioning-turn", "Repositioning turn recorded");
/// The posture before a turn, a component of the turn observation.
pub const TURN_FROM: Code = Code::local("posture-before-turn", "Posture before the turn");
/// A turn a nurse recorded (`POST /api/device/{id}/turns`), valued with the position the patient
/// was turned to. Not [`TURN`], which the mat saw by itself.
pub const RECORDED_TURN: Code = Code::local("recorded-turn", "Turn of the patient recorded by staff");
/// Whether a recorded turn came before the repositioning interval ended, a component valued with
/// [`TURN_ON_TIME`] or [`TURN_LATE`].
pub const TURN_TIMELINESS: Code = Code::local("turn-timeliness", "Turn on time or late");
/// The repositioning tier before the turn was ok or due soon.
pub const TURN_ON_TIME: Code = Code::local("turn-on-time", "On time (before the repositioning interval ended)");
/// The repositioning tier before the turn was due or overdue.
pub const TURN_LATE: Code = Code::local("turn-late", "Late (after the repositioning interval ended)");
/// The longest load episode before a recorded turn, a component in minutes.
pub const LOAD_BEFORE_TURN: Code = Code::local("load-before-turn", "Longest load before the turn");
/// The repositioning interval when a turn was recorded, a component in minutes.
pub const REPOSITIONING_INTERVAL: Code = Code::local("repositioning-interval", "Repositioning interval");
/// The pressure channel of a mat (`DeviceMetric.type`).
pub const PRESSURE_CHANNEL: Code = Code::local("interface-pressure-map", "Interface pressure map");
/// The raw channel of a force mat or a room-set sensor (0–4095, no physical unit).
pub const READING_CHANNEL: Code = Code::local("sensor-reading", "Sensor reading (0-4095)");
/// An alarm's Observation when its condition has no code (an alarm kind the hub no longer raises).
pub const OTHER_ALARM: Code = Code::local("device-alarm", "Device alarm");

/// An analysis's key figures without a standard code (the pressures use [`PEAK_PRESSURE`] and
/// [`MEAN_PRESSURE`] as the device logs do).
pub const LEFT_FOOT_LOAD: Code = Code::local("left-foot-load", "Left foot's share of the load");
pub const RIGHT_FOOT_LOAD: Code = Code::local("right-foot-load", "Right foot's share of the load");
pub const LEFT_FOOT_AREA: Code = Code::local("left-foot-contact-area", "Left foot's contact area");
pub const RIGHT_FOOT_AREA: Code = Code::local("right-foot-contact-area", "Right foot's contact area");
pub const LEFT_LOAD: Code = Code::local("left-load", "Left half's share of the load");
pub const RIGHT_LOAD: Code = Code::local("right-load", "Right half's share of the load");
pub const CONTACT_AREA: Code = Code::local("contact-area", "Contact area");
pub const PEAK_PRESSURE_INDEX: Code = Code::local("peak-pressure-index", "Peak pressure index (10 cm x 10 cm window)");
pub const DISPERSION_INDEX: Code = Code::local("dispersion-index", "Dispersion index (ischial load share)");
pub const LEFT_FOOT_STEPS: Code = Code::local("left-foot-steps", "Left foot's steps");
pub const RIGHT_FOOT_STEPS: Code = Code::local("right-foot-steps", "Right foot's steps");
pub const DURATION: Code = Code::local("capture-duration", "Capture duration");
pub const SWAY_PATH: Code = Code::local("sway-path-length", "Sway path length");
pub const SWAY_VELOCITY: Code = Code::local("sway-mean-velocity", "Sway mean velocity");
pub const SWAY_AREA: Code = Code::local("sway-ellipse-area", "95 % confidence ellipse area of the sway");
pub const CENTRE_DISTANCE: Code = Code::local("centre-distance", "Distance of the mean centre of pressure from the target");

/// Observation categories.
pub const ACTIVITY: Code = Code { system: OBSERVATION_CATEGORY, code: "activity", display: "Activity" };
pub const EXAM: Code = Code { system: OBSERVATION_CATEGORY, code: "exam", display: "Exam" };
/// The communication category of an alarm.
pub const ALERT: Code = Code { system: COMMUNICATION_CATEGORY, code: "alert", display: "Alert" };

/// The SNOMED CT (or local) code of a posture name, if it is one.
pub fn posture(name: &str) -> Option<Code> {
    POSTURES.iter().find(|(n, _)| *n == name).map(|(_, code)| *code)
}

/// The device type's code in the hub's system (the type's name, spec §3 spelling).
pub fn device_type(name: &str) -> Value {
    json!({ "coding": [{ "system": LOCAL, "code": format!("device-type-{}", name.replace(' ', "-").to_lowercase()), "display": name }], "text": name })
}

/// A UCUM quantity.
pub fn quantity(value: f64, unit: &str, ucum: &str) -> Value {
    json!({ "value": value, "unit": unit, "system": UCUM, "code": ucum })
}

/// A pressure in mmHg, to one decimal.
pub fn mmhg(value: f64) -> Value {
    quantity(round1(value), "mmHg", "mm[Hg]")
}

/// A reading of the sensor's highest cell, marked with FHIR's `comparator` ">=" when that cell was
/// at the sensor's full scale (`mat_core::analysis::units::at_full_scale`): the pressure was that
/// or more, as the screen's and the PDF's "≥" say.
pub fn reading(mut quantity: Value, at_full_scale: bool) -> Value {
    if at_full_scale {
        quantity["comparator"] = json!(">=");
    }
    quantity
}

/// A value to one decimal place.
pub fn round1(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}

/// An extension of the hub's own.
pub fn extension(name: &str, value_key: &str, value: Value) -> Value {
    let mut ext = json!({ "url": format!("{EXTENSION}{name}") });
    ext[value_key] = value;
    ext
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_posture_the_classifier_names_has_a_code() {
        use mat_core::machine::posture::Posture;
        for posture_kind in
            [Posture::Supine, Posture::Prone, Posture::LeftLateral, Posture::RightLateral, Posture::Seated, Posture::NoSupine]
        {
            assert!(posture(posture_kind.name()).is_some(), "{}", posture_kind.name());
        }
        assert_eq!(posture("Supine").unwrap().token(), "http://snomed.info/sct|40199007");
        assert_eq!(posture("Nowhere"), None);
    }

    #[test]
    fn device_type_codes_are_tokens() {
        assert_eq!(device_type("Mattress Mat IoT")["coding"][0]["code"], "device-type-mattress-mat-iot");
    }
}
