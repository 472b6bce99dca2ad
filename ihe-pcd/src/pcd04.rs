//! PCD-04 Report Alert: one alarm's report as `ORU^R40^ORU_R40`, HL7 v2.6, after IHE PCD TF-2
//! (ACM profile, `MSH-21 = IHE_PCD_ACM_001`).
//!
//! Layout (docs/interfaces.md has an annotated example):
//! - `MSH`: sender and receiver, time, `ORU^R40^ORU_R40`, the stable control id, `P`, `2.6`,
//!   accept-ack `AL`, application-ack `NE`, `UNICODE UTF-8`, the profile in MSH-21.
//! - `PID`: the patient assigned to the device (id, name, birth date, sex), or only its set id
//!   (`PID|1`) when none.
//! - `PV1`: class `I` (inpatient), location `point of care^room^bed^facility^^^building^floor`.
//! - `OBR`: one per alarm, the alarm's identifier as placer and filler order number (the same in
//!   every phase of one alarm), `196616^MDC_EVT_ALARM^MDC`, start (and end) times.
//! - `OBX` 1–8, sub-ids `1.0.0.0.1` … `.8`: the alarm type (`MDCX_` code, abnormal flags
//!   priority~type, the device as equipment instance), the source, the event phase, the alarm
//!   state, the inactivation state, the priority, the alert type (`SP`) and the alert text.

use crate::priority::Condition;
use crate::segment::{Field, Segment};
use crate::timestamp::hl7_timestamp;

/// MSH-21, the message profile of IHE PCD ACM.
pub const PROFILE: [&str; 4] = ["IHE_PCD_ACM_001", "IHE PCD", "1.3.6.1.4.1.19376.1.6.4.4", "ISO"];

/// The event phase (`MDC_ATTR_EVENT_PHASE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The alarm begins.
    Start,
    /// Still active and unattended (sent at the reporter's interval).
    Continue,
    /// Attended (or cleared): the alarm is over.
    End,
}

impl Phase {
    /// `start`, `continue` or `end`.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Start => "start",
            Phase::Continue => "continue",
            Phase::End => "end",
        }
    }

    /// The phase of a [`Phase::name`].
    pub fn from_name(name: &str) -> Option<Phase> {
        [Phase::Start, Phase::Continue, Phase::End].into_iter().find(|p| p.name() == name)
    }
}

/// Who sends and who receives (MSH-3 … MSH-6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parties {
    pub sending_application: String,
    pub sending_facility: String,
    pub receiving_application: String,
    pub receiving_facility: String,
}

/// The device the alarm comes from and where it is.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Source {
    /// The device's serial (the equipment instance identifier).
    pub serial: String,
    /// Its type, as the hub names it (`Mattress Mat IoT`).
    pub device_type: String,
    /// Its name.
    pub name: String,
    pub bed: String,
    pub room: String,
    pub floor: String,
    pub building: String,
    /// The facility (the device's health system).
    pub facility: String,
}

/// The patient assigned to the device.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Patient {
    /// The hub's patient id (PID-3, type `PI`).
    pub id: String,
    pub family_name: String,
    pub given_name: String,
    /// `YYYYMMDD`, when known.
    pub birth_date: Option<String>,
    /// `F`, `M`, `O` or `U`, when known.
    pub sex: Option<String>,
}

/// One report of one alarm.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AlarmReport {
    /// MSH-10: stable across retries and restarts, so the manager can drop duplicates.
    pub control_id: String,
    /// MSH-7: when the report was made (Unix ms).
    pub created_at_ms: u64,
    /// The alarm's identifier, the same in all its phases (OBR-2, OBR-3).
    pub alarm_id: String,
    pub condition: Condition,
    pub phase: Phase,
    /// When the alarm began (OBR-7, OBX-14 of the alarm type).
    pub raised_at_ms: u64,
    /// When it ended (OBR-8), for the end phase.
    pub ended_at_ms: Option<u64>,
    pub source: Source,
    pub patient: Option<Patient>,
}

const ALARM: [&str; 3] = ["196616", "MDC_EVT_ALARM", "MDC"];

/// The message's text: segments ended by `\r`.
pub fn build(report: &AlarmReport, parties: &Parties) -> String {
    let mut out = String::new();
    out.push_str("MSH|^~\\&|");
    let mut msh = String::new();
    Segment::new("MSH")
        .set(1, Field::text(&parties.sending_application))
        .set(2, Field::text(&parties.sending_facility))
        .set(3, Field::text(&parties.receiving_application))
        .set(4, Field::text(&parties.receiving_facility))
        .set(5, Field::text(hl7_timestamp(report.created_at_ms)))
        .set(7, Field::components(["ORU", "R40", "ORU_R40"]))
        .set(8, Field::text(&report.control_id))
        .set(9, Field::text("P"))
        .set(10, Field::text("2.6"))
        .set(13, Field::text("AL"))
        .set(14, Field::text("NE"))
        .set(16, Field::text("UNICODE UTF-8"))
        .set(19, Field::components(PROFILE))
        .write(&mut msh);
    // The builder numbers from the field after MSH-2: field n here is MSH-(n + 2).
    out.push_str(&msh["MSH|".len()..]);
    out.push('\r');

    let mut pid = Segment::new("PID").set(1, Field::text("1"));
    if let Some(patient) = &report.patient {
        pid = pid
            .set(3, Field::components([patient.id.as_str(), "", "", parties.sending_application.as_str(), "PI"]))
            .set(5, Field::components([&patient.family_name, &patient.given_name]))
            .set(7, Field::text(patient.birth_date.clone().unwrap_or_default()))
            .set(8, Field::text(patient.sex.clone().unwrap_or_default()));
    }
    segment(&mut out, pid);

    let s = &report.source;
    let location = [s.name.as_str(), &s.room, &s.bed, &s.facility, "", "", &s.building, &s.floor];
    segment(&mut out, Segment::new("PV1").set(2, Field::text("I")).set(3, Field::components(location)));

    let order = Field::components([report.alarm_id.as_str(), parties.sending_application.as_str()]);
    let mut obr = Segment::new("OBR")
        .set(1, Field::text("1"))
        .set(2, order.clone())
        .set(3, order)
        .set(4, Field::components(ALARM))
        .set(7, Field::text(hl7_timestamp(report.raised_at_ms)));
    if let Some(ended) = report.ended_at_ms {
        obr = obr.set(8, Field::text(hl7_timestamp(ended)));
    }
    segment(&mut out, obr);

    let (code, name) = report.condition.code();
    let priority = report.condition.priority().code();
    let equipment = Field::components([s.serial.as_str(), parties.sending_application.as_str()]);
    let alarm_type = Segment::new("OBX")
        .set(1, Field::text("1"))
        .set(2, Field::text("CWE"))
        .set(3, Field::components(ALARM))
        .set(4, Field::text("1.0.0.0.1"))
        .set(5, Field::components([code.to_string().as_str(), name, "MDC"]))
        .set(8, Field::repeated([priority, "SP"]))
        .set(11, Field::text("F"))
        .set(14, Field::text(hl7_timestamp(report.raised_at_ms)))
        .set(18, equipment.clone());
    segment(&mut out, alarm_type);
    let (state, inactivation) = match report.phase {
        Phase::Start | Phase::Continue => ("active", "enabled"),
        Phase::End => ("inactive", "alert-acknowledged"),
    };
    let source = format!("{} {}", s.device_type, s.serial);
    let facets: [(&str, &str, &str); 7] = [
        ("68480", "MDC_ATTR_ALERT_SOURCE", source.as_str()),
        ("68481", "MDC_ATTR_EVENT_PHASE", report.phase.name()),
        ("68482", "MDC_ATTR_ALARM_STATE", state),
        ("68483", "MDC_ATTR_ALARM_INACTIVATION_STATE", inactivation),
        ("68484", "MDC_ATTR_ALARM_PRIORITY", priority),
        ("68485", "MDC_ATTR_ALERT_TYPE", "SP"),
        ("68546", "MDC_ATTR_ALERT_TEXT", report.condition.text()),
    ];
    for (i, (code, name, value)) in facets.into_iter().enumerate() {
        let n = i + 2;
        let mut obx = Segment::new("OBX")
            .set(1, Field::text(n.to_string()))
            .set(2, Field::text("ST"))
            .set(3, Field::components([code, name, "MDC"]))
            .set(4, Field::text(format!("1.0.0.0.{n}")))
            .set(5, Field::text(value))
            .set(11, Field::text("F"));
        if n == 2 {
            obx = obx.set(18, equipment.clone());
        }
        segment(&mut out, obx);
    }
    out
}

fn segment(out: &mut String, segment: Segment) {
    segment.write(out);
    out.push('\r');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ack::{Parsed, field};

    fn parties() -> Parties {
        Parties {
            sending_application: "PMAT_HUB".into(),
            sending_facility: "St Mary|Ward 3".into(),
            receiving_application: "AM".into(),
            receiving_facility: "".into(),
        }
    }

    fn report(phase: Phase, patient: Option<Patient>) -> AlarmReport {
        AlarmReport {
            control_id: "abc-7-start".into(),
            created_at_ms: 1_795_713_511_250,
            alarm_id: "abc-7".into(),
            condition: Condition::PatientMissing,
            phase,
            raised_at_ms: 1_795_713_500_000,
            ended_at_ms: (phase == Phase::End).then_some(1_795_713_600_000),
            source: Source {
                serial: "MAT-0001".into(),
                device_type: "Mattress Mat IoT".into(),
                name: "Bed 12A".into(),
                bed: "A".into(),
                room: "12".into(),
                floor: "3".into(),
                building: "North^Wing".into(),
                facility: "St Mary".into(),
            },
            patient,
        }
    }

    #[test]
    fn a_start_report_has_the_profile_and_every_facet() {
        let text = build(&report(Phase::Start, None), &parties());
        let parsed = Parsed::new(&text).unwrap();
        let msh = parsed.segment("MSH").unwrap();
        // Split fields: index n is MSH-(n + 1) because MSH-1 is the separator itself.
        assert_eq!(field(msh, 2), "PMAT_HUB");
        assert_eq!(field(msh, 3), r"St Mary\F\Ward 3");
        assert_eq!(field(msh, 6), "20261126171831.250+0000");
        assert_eq!(field(msh, 8), "ORU^R40^ORU_R40");
        assert_eq!(field(msh, 9), "abc-7-start");
        assert_eq!((field(msh, 10), field(msh, 11), field(msh, 14), field(msh, 15)), ("P", "2.6", "AL", "NE"));
        assert_eq!(field(msh, 17), "UNICODE UTF-8");
        assert_eq!(field(msh, 20), "IHE_PCD_ACM_001^IHE PCD^1.3.6.1.4.1.19376.1.6.4.4^ISO");
        assert_eq!(parsed.segment("PID").unwrap(), ["PID", "1"], "no patient: a PID with its set id only");
        assert_eq!(field(parsed.segment("PV1").unwrap(), 3), r"Bed 12A^12^A^St Mary^^^North\S\Wing^3");
        let obr = parsed.segment("OBR").unwrap();
        assert_eq!((field(obr, 2), field(obr, 3), field(obr, 4)), ("abc-7^PMAT_HUB", "abc-7^PMAT_HUB", "196616^MDC_EVT_ALARM^MDC"));
        assert_eq!(field(obr, 7), "20261126171820.000+0000");
        let obx: Vec<_> = parsed.segments("OBX").collect();
        assert_eq!(obx.len(), 8);
        assert_eq!(field(obx[0], 5), "258049^MDCX_EVT_PMAT_PATIENT_MISSING^MDC");
        assert_eq!(field(obx[0], 8), "PH~SP");
        assert_eq!(field(obx[0], 18), "MAT-0001^PMAT_HUB");
        let facet = |name: &str| obx.iter().find(|s| field(s, 3).contains(name)).map(|s| field(s, 5)).unwrap();
        assert_eq!(facet("MDC_ATTR_ALERT_SOURCE"), "Mattress Mat IoT MAT-0001");
        assert_eq!(facet("MDC_ATTR_EVENT_PHASE"), "start");
        assert_eq!(facet("MDC_ATTR_ALARM_STATE"), "active");
        assert_eq!(facet("MDC_ATTR_ALARM_INACTIVATION_STATE"), "enabled");
        assert_eq!(facet("MDC_ATTR_ALARM_PRIORITY"), "PH");
        assert_eq!(facet("MDC_ATTR_ALERT_TYPE"), "SP");
        for (i, s) in obx.iter().enumerate() {
            assert_eq!(field(s, 1), (i + 1).to_string());
            assert_eq!(field(s, 4), format!("1.0.0.0.{}", i + 1));
        }
        assert!(text.ends_with('\r') && !text.contains('\n'));
    }

    #[test]
    fn an_end_report_is_inactive_and_acknowledged_with_its_end_time() {
        let text = build(&report(Phase::End, None), &parties());
        assert!(text.contains("|68481^MDC_ATTR_EVENT_PHASE^MDC|1.0.0.0.3|end|"));
        assert!(text.contains("|68482^MDC_ATTR_ALARM_STATE^MDC|1.0.0.0.4|inactive|"));
        assert!(text.contains("|68483^MDC_ATTR_ALARM_INACTIVATION_STATE^MDC|1.0.0.0.5|alert-acknowledged|"));
        let parsed = Parsed::new(&text).unwrap();
        assert_eq!(field(parsed.segment("OBR").unwrap(), 8), "20261126172000.000+0000");
    }

    #[test]
    fn the_assigned_patient_fills_pid() {
        let patient = Patient {
            id: "p-17".into(),
            family_name: "O'Brien".into(),
            given_name: "Ana&Lu".into(),
            birth_date: Some("19400102".into()),
            sex: Some("F".into()),
        };
        let text = build(&report(Phase::Continue, Some(patient)), &parties());
        assert!(text.contains("\rPID|1||p-17^^^PMAT_HUB^PI||O'Brien^Ana\\T\\Lu||19400102|F\r"), "{text}");
        assert!(text.contains("|continue|"));
    }

    #[test]
    fn phases_round_trip_their_names() {
        for phase in [Phase::Start, Phase::Continue, Phase::End] {
            assert_eq!(Phase::from_name(phase.name()), Some(phase));
        }
        assert_eq!(Phase::from_name("escalate"), None);
    }
}
