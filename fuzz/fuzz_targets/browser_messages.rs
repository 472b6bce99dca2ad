//! What a browser may send on /ws: MessagePack (binary frames) or JSON (text frames) decoded as a
//! client event. Nothing may panic, whatever the bytes.
#![no_main]

use actors::browser::ClientEvent;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = rmp_serde::from_slice::<ClientEvent>(data);
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = serde_json::from_str::<ClientEvent>(text);
    }
});
