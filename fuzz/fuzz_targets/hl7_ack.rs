//! The alarm manager's answer to a PCD-04 report, as the hub's sender reads it: bytes from the
//! network through the MLLP frame reader, each frame through the ACK parser, and the parsed ACK
//! through the retry decision. Nothing may panic; a frame never exceeds the reader's limit.
#![no_main]

use ihe_pcd::ack::parse_ack;
use ihe_pcd::mllp::FrameReader;
use ihe_pcd::retry::disposition;
use libfuzzer_sys::fuzz_target;

const LIMIT: usize = 4096;

fuzz_target!(|data: &[u8]| {
    let _ = parse_ack(data);
    let mut reader = FrameReader::new(LIMIT);
    // Feed in uneven chunks, as a socket would deliver them.
    for chunk in data.chunks(1 + data.first().map_or(0, |b| usize::from(*b % 64))) {
        if let Ok(frames) = reader.push(chunk) {
            for frame in frames {
                assert!(frame.len() <= LIMIT + 2, "a frame beyond the limit");
                let answer = parse_ack(&frame).map_err(|e| e.to_string());
                let _ = disposition("ctrl-1", answer);
            }
        }
    }
});
