//! The hub's PCD-05 listener input path: bytes from an alarm manager's connection, delivered in
//! uneven pieces, through `ihe_pcd::status_stream` (MLLP frames → status reports or refusals),
//! each answered with the ACK the listener would send. Nothing may panic, a frame never exceeds
//! the limit, and every answer reads back as an ACK of the right code and control id.
#![no_main]

use ihe_pcd::ack::{parse_ack, AckCode};
use ihe_pcd::escape::{escape, unescape};
use ihe_pcd::pcd05::{ack, Answer, STATUSES};
use ihe_pcd::status_stream::{Incoming, StatusStream};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut stream = StatusStream::default();
    let piece = 1 + data.first().map_or(0, |b| usize::from(*b % 97));
    for chunk in data.chunks(piece) {
        let Ok(incoming) = stream.push(chunk) else { return };
        for item in incoming {
            let (control_id, answer, code) = match &item {
                Incoming::Status(status) => {
                    assert!(STATUSES.contains(&status.status.as_str()));
                    assert!(!status.alarm_id.is_empty());
                    (status.control_id.clone(), Answer::Error("unknown alarm"), AckCode::Error)
                }
                Incoming::Refused { control_id, why } => (control_id.clone(), Answer::Reject(why), AckCode::Reject),
            };
            let read = parse_ack(ack(&control_id, answer, "PMAT_HUB", 0).as_bytes()).expect("the hub's own ACK parses");
            assert_eq!(read.code, code);
            assert_eq!(read.control_id, unescape(&escape(&control_id)));
        }
    }
});
