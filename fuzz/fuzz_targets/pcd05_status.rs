//! An alarm manager's PCD-05 alert status report (`ORA^R41`), as a PCD-05 listener would read it
//! from the network: any bytes give a status or a refusal, never a panic, and the ACK built for any
//! control id reads back as that control id.
#![no_main]

use ihe_pcd::ack::parse_ack;
use ihe_pcd::pcd05::{ack, control_id, parse_status, Answer, STATUSES};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(status) = parse_status(data) {
        assert!(STATUSES.contains(&status.status.as_str()));
        assert!(!status.alarm_id.is_empty());
    }
    if let Some(id) = control_id(data) {
        let answer = ack(&id, Answer::Reject("refused"), "PMAT_HUB", 0);
        let read = parse_ack(answer.as_bytes()).expect("the hub's own ACK parses");
        let expected: String = ihe_pcd::escape::unescape(&ihe_pcd::escape::escape(&id));
        assert_eq!(read.control_id, expected);
    }
});
