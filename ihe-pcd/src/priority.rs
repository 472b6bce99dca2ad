//! The alarm conditions the hub reports, their codes and their priorities.
//!
//! IEEE 11073-10101 has no event code for a patient missing from a pressure mat or for a
//! repositioning reminder, so each gets a private code in the private range of the events
//! partition (partition 3: codes 0xF000–0xFFFF, context-free 196608 + 61440 + n), spelled `MDCX_`
//! as the IHE PCD profiles do for codes not (yet) in the nomenclature (docs/interfaces.md).
//!
//! Priorities after IEC 60601-1-8 Table 1 (potential result of failure to respond × onset of
//! potential harm); the reasons are in docs/decisions.md ("PCD-04 alarm priorities"):
//! - Missing: a frail patient out of bed or chair may fall (fracture, head injury: irreversible
//!   injury) within minutes (prompt onset) → high (`PH`).
//! - Repositioning due (Ulcer Risk raised): a stage 1–2 pressure injury is reversible and develops
//!   over hours (delayed onset) → low (`PL`).
//! - Repositioning overdue (the same episode past its grace period): deep tissue injury becomes
//!   possible (irreversible), still over hours (delayed) → medium (`PM`).

/// What an alarm is about, as the alarm manager sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Condition {
    /// The patient has left the mat for longer than the absence delay (alarm kind `Missing`).
    PatientMissing,
    /// A body region has stayed loaded for the repositioning interval (`Ulcer Risk`, tier due).
    RepositioningDue,
    /// The same episode is past its grace period (tier overdue).
    RepositioningOverdue,
}

/// IEC 60601-1-8 alarm priority, as HL7 abnormal flags spell it (OBX-8, `MDC_ATTR_ALARM_PRIORITY`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Priority {
    /// `PL`: operator awareness.
    Low,
    /// `PM`: prompt response.
    Medium,
    /// `PH`: immediate response.
    High,
}

impl Priority {
    /// `PL`, `PM` or `PH`.
    pub fn code(self) -> &'static str {
        match self {
            Priority::Low => "PL",
            Priority::Medium => "PM",
            Priority::High => "PH",
        }
    }
}

/// The private events-partition base: 196608 (partition 3 × 65536) + 0xF000.
const PRIVATE_EVENT_BASE: u32 = 3 * 65_536 + 0xF000;

impl Condition {
    /// The context-free code and its reference id.
    pub fn code(self) -> (u32, &'static str) {
        match self {
            Condition::PatientMissing => (PRIVATE_EVENT_BASE + 1, "MDCX_EVT_PMAT_PATIENT_MISSING"),
            Condition::RepositioningDue => (PRIVATE_EVENT_BASE + 2, "MDCX_EVT_PMAT_REPOSITION_DUE"),
            Condition::RepositioningOverdue => (PRIVATE_EVENT_BASE + 3, "MDCX_EVT_PMAT_REPOSITION_OVERDUE"),
        }
    }

    /// Its priority (see the module's documentation).
    pub fn priority(self) -> Priority {
        match self {
            Condition::PatientMissing => Priority::High,
            Condition::RepositioningDue => Priority::Low,
            Condition::RepositioningOverdue => Priority::Medium,
        }
    }

    /// The alert text (English, the manager's pagers show it as sent).
    pub fn text(self) -> &'static str {
        match self {
            Condition::PatientMissing => "Patient missing from the mat",
            Condition::RepositioningDue => "Pressure ulcer risk: repositioning due",
            Condition::RepositioningOverdue => "Pressure ulcer risk: repositioning overdue",
        }
    }

    /// The configuration name of the alarm kind it belongs to (`Missing` or `Ulcer Risk`, the
    /// hub's stored spelling), for "which kinds go out".
    pub fn kind_name(self) -> &'static str {
        match self {
            Condition::PatientMissing => "Missing",
            Condition::RepositioningDue | Condition::RepositioningOverdue => "Ulcer Risk",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_patient_outranks_a_repositioning_reminder() {
        assert_eq!(Condition::PatientMissing.priority(), Priority::High);
        assert_eq!(Condition::RepositioningDue.priority(), Priority::Low);
        assert_eq!(Condition::RepositioningOverdue.priority(), Priority::Medium);
        assert!(Condition::RepositioningOverdue.priority() > Condition::RepositioningDue.priority());
        assert_eq!([Priority::Low, Priority::Medium, Priority::High].map(Priority::code), ["PL", "PM", "PH"]);
    }

    #[test]
    fn private_codes_sit_in_the_private_event_range() {
        for condition in [Condition::PatientMissing, Condition::RepositioningDue, Condition::RepositioningOverdue] {
            let (code, name) = condition.code();
            assert!((258_048..=262_143).contains(&code), "{name} {code}");
            assert!(name.starts_with("MDCX_EVT_PMAT_"));
        }
    }
}
