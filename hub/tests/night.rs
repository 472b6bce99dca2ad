//! A short night on a real hub: a simulated mattress streams over QUIC a patient who lies down,
//! stays supine past a (shortened) repositioning interval, turns, and leaves the bed. The REST API
//! then shows what the device machines decided: presence entries, the Ulcer Risk and Missing
//! alarms (attended through the API), and the Missing status.

mod common;

use std::sync::Arc;
use std::time::Duration;

use actors::actor::mat::MatMsg;
use actors::actor::registry::RegistryMsg;
use common::{eventually_async as eventually, get_json as get, request};
use serde_json::Value;
use simulator::synth::BedScript;
use simulator::{Rate, Scenario};

const SECOND: Duration = Duration::from_secs(1);

#[tokio::test]
async fn a_short_night_yields_presence_logs_alarms_and_statuses() {
    let hub = common::start_bed(2).await;
    let device = hub.devices[0].clone();
    let token = hub.login().await;

    // The API takes intervals in minutes (15 at least); the night is shortened further by hand.
    let path = format!("/api/device/{}/repositioning", device.id);
    let set = request(hub.http(), "PUT", &path, Some(&token), Some(r#"{"minutes": 90}"#)).await;
    assert_eq!((set.status, set.json::<Value>()["minutes"].as_i64()), (200, Some(90)), "{}", set.body);
    let too_short = request(hub.http(), "PUT", &path, Some(&token), Some(r#"{"minutes": 5}"#)).await;
    assert_eq!(too_short.error_code(), "invalidRepositioningInterval");
    let device_id: Arc<str> = Arc::from(device.id.as_str());
    let handle =
        hub.hub.actors.registry.call(|reply| RegistryMsg::Resolve { device_id, reply }, Some(5 * SECOND)).await.unwrap().unwrap().unwrap();
    handle.actor.cast(MatMsg::SetRepositioningInterval(8 * SECOND)).unwrap();

    let (mut spec, transport) = hub.quic_device(&device);
    spec.scenario = Scenario::BedOccupant(BedScript {
        // Long enough after leaving for the absence delay; the start skips most of it.
        empty: 30 * SECOND,
        lie_down: SECOND,
        supine: 14 * SECOND,
        turn: SECOND,
        left_lateral: 3 * SECOND,
        right_lateral: 2 * SECOND,
        prone: 2 * SECOND,
        leave: SECOND,
    });
    spec.rate = Rate::Fixed { hz: 10.0 };
    spec.time_offset = 29 * SECOND;
    let (stop, _stats) = hub.run_device(spec, transport);

    let alarms_path = format!("/api/iotAlarms/{}", device.id);
    let check_path = format!("/api/iotCheckAlarms/{}", device.serial);
    // Lying still past the interval raises Ulcer Risk, stored and visible to iotCheckAlarms.
    let ulcer = eventually(25 * SECOND, || async {
        get(&hub, &token, &alarms_path).await.as_array().is_some_and(|a| a.iter().any(|x| x["kind"] == "Ulcer Risk"))
    })
    .await;
    assert!(ulcer, "an Ulcer Risk alarm: {}", get(&hub, &token, &alarms_path).await);
    assert_eq!(get(&hub, &token, &check_path).await, "True");
    let confs = get(&hub, &token, "/api/deviceConfCompany").await;
    let card = confs.as_array().unwrap().iter().find(|c| c["deviceId"]["$oid"] == device.id.as_str()).unwrap().clone();
    assert_eq!(card["unattendedAlarm"], true, "the card shows its Attend button: {card}");
    assert_ne!(card["repositioning"], "ok", "{card}");
    let attended = request(hub.http(), "PUT", &format!("/api/attendAlarm/{}", device.serial), Some(&token), None).await;
    assert_eq!(attended.status, 200, "{}", attended.body);

    // Leaving the bed: an exit entry, then Missing after the absence delay, with its alarm.
    let presence_path = format!("/api/presenceLogs/{}", device.id);
    let left = eventually(40 * SECOND, || async {
        let alarms = get(&hub, &token, &alarms_path).await;
        alarms.as_array().is_some_and(|a| a.iter().any(|x| x["kind"] == "Missing"))
    })
    .await;
    assert!(left, "a Missing alarm: {}", get(&hub, &token, &alarms_path).await);
    // The exit is logged once the empty bed has held for the presence hold time.
    let logged = eventually(15 * SECOND, || async {
        let presence = get(&hub, &token, &presence_path).await;
        let ids: Vec<String> = presence.as_array().unwrap().iter().filter_map(|e| e["logId"].as_str().map(str::to_owned)).collect();
        ids.iter().any(|i| i == "1") && ids.iter().any(|i| i == "0")
    })
    .await;
    assert!(logged, "an entrance and an exit: {}", get(&hub, &token, &presence_path).await);
    let confs = get(&hub, &token, "/api/deviceConfCompany").await;
    let status = confs.as_array().unwrap().iter().find(|c| c["deviceId"]["$oid"] == device.id.as_str()).unwrap()["patientStatus"].clone();
    assert_eq!(status, "Missing", "the bed stays empty for 30 s after leaving");

    // Every alarm is attended through the API, with its time to attend.
    let attended = request(hub.http(), "PUT", &alarms_path, Some(&token), None).await;
    assert_eq!(attended.status, 200);
    assert_eq!(get(&hub, &token, &check_path).await, "False");
    let alarms = get(&hub, &token, &alarms_path).await;
    assert!(alarms.as_array().unwrap().iter().all(|a| a["hasBeenAttended"] == true && a["timeToAttend"].as_i64().is_some()), "{alarms}");
    // Who attended: the account's e-mail, for the card (issue 23).
    assert!(alarms.as_array().unwrap().iter().all(|a| a["attendedBy"] == hub.email.as_str()), "{alarms}");
    let _ = stop.send(true);
}
