//! The welcome's hub list (issue 25, item 5) is an addition old devices never notice: a device
//! built before it decodes the new welcome, and a new device decodes an old hub's welcome.

use mat_protocol::{HubMessage, MAX_MESSAGE_BYTES, PROTOCOL_VERSION, Welcome, decode, encode};
use serde::{Deserialize, Serialize};

/// The welcome exactly as devices built before the hub list decode (and old hubs encode) it.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct OldWelcome {
    version: u16,
    device_id: String,
    max_message_bytes: u32,
}

/// The hub's messages as those devices know them (the command and error variants are not needed
/// to decode a welcome).
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum OldHubMessage {
    Welcome(OldWelcome),
}

fn cluster_welcome() -> HubMessage {
    HubMessage::Welcome(Welcome {
        version: PROTOCOL_VERSION,
        device_id: "device:42".into(),
        max_message_bytes: MAX_MESSAGE_BYTES as u32,
        hubs: vec!["10.0.0.1:4433".into(), "10.0.0.2:4433".into(), "hub-c.ward.local:4433".into()],
    })
}

#[test]
fn an_old_device_decodes_a_welcome_that_lists_the_hubs() {
    let bytes = encode(&cluster_welcome());
    let old: OldHubMessage = decode(&bytes).expect("an old device decodes the new welcome");
    assert_eq!(
        old,
        OldHubMessage::Welcome(OldWelcome {
            version: PROTOCOL_VERSION,
            device_id: "device:42".into(),
            max_message_bytes: MAX_MESSAGE_BYTES as u32
        })
    );
}

#[test]
fn a_new_device_decodes_an_old_hubs_welcome_with_no_hubs() {
    let old = OldHubMessage::Welcome(OldWelcome { version: PROTOCOL_VERSION, device_id: "device:7".into(), max_message_bytes: 65_536 });
    let bytes = rmp_serde::to_vec_named(&old).unwrap();
    match decode::<HubMessage>(&bytes).unwrap() {
        HubMessage::Welcome(welcome) => assert_eq!((welcome.device_id.as_str(), welcome.hubs.len()), ("device:7", 0)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_hub_list_round_trips_and_a_single_hubs_welcome_is_unchanged_on_the_wire() {
    let welcome = cluster_welcome();
    assert_eq!(decode::<HubMessage>(&encode(&welcome)), Ok(welcome));
    let single = HubMessage::Welcome(Welcome { version: 1, device_id: "d".into(), max_message_bytes: 65_536, hubs: vec![] });
    let old = OldHubMessage::Welcome(OldWelcome { version: 1, device_id: "d".into(), max_message_bytes: 65_536 });
    assert_eq!(encode(&single), rmp_serde::to_vec_named(&old).unwrap(), "no hubs: the same bytes as before the field existed");
}
