//! PCD-04 reports built from arbitrary text (device names, locations, patient names typed by
//! people): the message must stay one well-formed HL7 message whatever the text — no stray segment
//! or field separators, every text field read back as written.
#![no_main]

use ihe_pcd::ack::{field, Parsed};
use ihe_pcd::escape::{escape, unescape};
use ihe_pcd::pcd04::{build, AlarmReport, Parties, Patient, Phase, Source};
use ihe_pcd::priority::Condition;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut parts = text.split('\u{0}').map(str::to_owned);
    let mut next = || parts.next().unwrap_or_default();
    let name = next();
    let room = next();
    let family = next();
    let app = next();
    let report = AlarmReport {
        control_id: next(),
        created_at_ms: data.len() as u64 * 1_000_003,
        alarm_id: next(),
        condition: Condition::PatientMissing,
        phase: Phase::Start,
        raised_at_ms: 0,
        ended_at_ms: None,
        source: Source { serial: next(), device_type: "Mattress Mat IoT".into(), name: name.clone(), room, ..Source::default() },
        patient: Some(Patient { id: "p".into(), family_name: family, ..Patient::default() }),
    };
    let parties = Parties { sending_application: app, sending_facility: String::new(), receiving_application: String::new(), receiving_facility: String::new() };
    let message = build(&report, &parties);
    assert_eq!(message.matches('\r').count(), 12, "segments: MSH PID PV1 OBR and 8 OBX");
    assert!(!message.contains('\n'));
    let parsed = Parsed::new(&message).expect("a message the hub builds parses");
    let pv1 = parsed.segment("PV1").expect("PV1");
    let expected_name = unescape(&escape(&name));
    assert_eq!(parsed.component(field(pv1, 3), 1), expected_name);
});
