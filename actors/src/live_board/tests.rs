//! The live board: what a writer puts there is what its company reads, and nobody else.

use super::*;
use crate::browser::DeviceIdentity;
use mat_core::machine::mat::DeviceStatus;
use mat_core::machine::status::PatientStatus;
use mat_protocol::device_type::DeviceType;

fn status(device_id: &str, patient_status: PatientStatus) -> DeviceConfEvent {
    let identity = DeviceIdentity {
        device_id: device_id.to_owned(),
        hardware_serial: format!("SN-{device_id}"),
        device_type: DeviceType::MattressMatIoT,
        name: device_id.to_owned(),
    };
    DeviceConfEvent::new(&identity, &DeviceStatus::offline(DeviceType::MattressMatIoT, patient_status), Vec::new())
}

fn map(seq: u64, cells: Vec<u8>) -> LiveMap {
    let mut map = LiveMap::new(2, 2, CellFormat::U8, cells).expect("2×2");
    map.seq = seq;
    map.hub_time_ms = 1_000 + seq;
    map
}

#[test]
fn a_written_status_is_read_back_in_its_company() {
    let board = LiveBoard::new();
    assert_eq!(board.status("c1", "d1"), None, "nothing said yet");
    board.device("c1", "d1").set_status(status("d1", PatientStatus::Correct));
    assert_eq!(board.status("c1", "d1"), Some(status("d1", PatientStatus::Correct)));
    board.device("c1", "d1").set_status(status("d1", PatientStatus::Missing));
    assert_eq!(board.status("c1", "d1").map(|s| s.patient_status), Some(PatientStatus::Missing), "the newest status wins");
    assert_eq!(board.statuses("c1"), vec![status("d1", PatientStatus::Missing)]);
}

#[test]
fn a_company_reads_only_its_own_devices() {
    let board = LiveBoard::new();
    board.device("c1", "d1").set_status(status("d1", PatientStatus::Correct));
    board.device("c1", "d1").set_map(Arc::new(map(1, vec![1, 2, 3, 4])));
    board.device("c2", "d2").set_status(status("d2", PatientStatus::Missing));
    assert_eq!(board.status("c2", "d1"), None);
    assert_eq!(board.latest_map("c2", "d1"), None);
    assert_eq!(board.status("c1", "d2"), None);
    assert_eq!(board.statuses("c2"), vec![status("d2", PatientStatus::Missing)]);
    assert_eq!(board.statuses("c3"), Vec::new(), "a company without devices");
    assert_eq!(board.latest_map("c1", "d1").map(|m| m.seq), Some(1));
}

#[test]
fn the_latest_map_replaces_the_previous_one_and_a_reader_keeps_what_it_read() {
    let board = LiveBoard::new();
    let device = board.device("c1", "d1");
    assert_eq!(board.latest_map("c1", "d1"), None, "before the first frame");
    device.set_map(Arc::new(map(1, vec![1, 2, 3, 4])));
    let read = board.latest_map("c1", "d1").expect("a map");
    device.set_map(Arc::new(map(2, vec![5, 6, 7, 8])));
    let latest = board.latest_map("c1", "d1").expect("a map");
    assert_eq!((latest.seq, latest.hub_time_ms, latest.values()), (2, 1_002, vec![5, 6, 7, 8]));
    assert_eq!((read.seq, read.values()), (1, vec![1, 2, 3, 4]), "shared, not overwritten in place");
}

#[test]
fn a_blank_removes_the_map_and_keeps_the_status() {
    let board = LiveBoard::new();
    let device = board.device("c1", "d1");
    device.set_status(status("d1", PatientStatus::Correct));
    device.set_map(Arc::new(map(1, vec![1, 2, 3, 4])));
    device.clear_map();
    assert_eq!(board.latest_map("c1", "d1"), None);
    assert_eq!(board.status("c1", "d1"), Some(status("d1", PatientStatus::Correct)));
    device.set_map(Arc::new(map(2, vec![0; 4])));
    assert_eq!(board.latest_map("c1", "d1").map(|m| m.seq), Some(2), "the next frame shows again");
}

#[test]
fn statuses_list_the_devices_with_a_status_in_id_order() {
    let board = LiveBoard::new();
    board.device("c1", "b").set_status(status("b", PatientStatus::Correct));
    board.device("c1", "a").set_status(status("a", PatientStatus::Missing));
    board.device("c1", "m").set_map(Arc::new(map(1, vec![0; 4])));
    let ids: Vec<String> = board.statuses("c1").into_iter().map(|s| s.device_id).collect();
    assert_eq!(ids, ["a", "b"], "a device with only a map has no status to show");
}

#[test]
fn a_device_keeps_one_entry_so_a_restarted_actor_writes_where_the_last_one_did() {
    let board = LiveBoard::new();
    assert!(Arc::ptr_eq(&board.device("c1", "d1"), &board.device("c1", "d1")));
    assert!(!Arc::ptr_eq(&board.device("c1", "d1"), &board.device("c2", "d1")));
}

#[test]
fn a_map_is_checked_against_its_shape_and_read_in_its_cell_format() {
    assert!(LiveMap::new(2, 2, CellFormat::U8, vec![0; 3]).is_err());
    assert!(LiveMap::new(1, 2, CellFormat::U16Le, vec![0; 2]).is_err());
    let force = LiveMap::new(1, 2, CellFormat::U16Le, [4095u16, 300].iter().flat_map(|v| v.to_le_bytes()).collect()).expect("1×2");
    assert_eq!((force.rows(), force.cols(), force.format()), (1, 2, CellFormat::U16Le));
    assert_eq!(force.values(), vec![4095, 300]);
    assert_eq!(force.cells().len(), 4, "the bytes as the device sent them");
}
