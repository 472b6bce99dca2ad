//! The one naming rule of device families, pure: a Sensing Horse's sides and a Room Set's
//! members, with the serials and names they get from their parent's (docs/api.md,
//! "Registration"). The REST registration, the demo and `provision` all create devices through
//! [`super::registration::create`], which plans them here.

use mat_protocol::device_type::DeviceType;

/// One device of a family as it is to be created.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedDevice {
    /// Its hardware serial.
    pub serial: String,
    /// Its display name.
    pub name: String,
    /// Its type.
    pub device_type: DeviceType,
}

/// The members a parent of this type gets, in order; none for a device that is not a parent.
///
/// A Sensing Horse gets `number_of_subdevices` Sensing Horse Subdevices, alternately left and
/// right: `SERIAL-0` "NAME left 1", `SERIAL-1` "NAME right 1", `SERIAL-2` "NAME left 2", … A Room
/// Set gets three Force Mats: `SERIAL-BED` "NAME bed", `SERIAL-SEAT` "NAME seat",
/// `SERIAL-FLOOR` "NAME floor".
pub fn members(serial: &str, name: &str, device_type: DeviceType, number_of_subdevices: i64) -> Vec<PlannedDevice> {
    let member = |serial_suffix: &str, name_suffix: &str, device_type| PlannedDevice {
        serial: format!("{serial}{serial_suffix}"),
        name: format!("{name}{name_suffix}"),
        device_type,
    };
    match device_type {
        DeviceType::SensingHorse => (0..number_of_subdevices)
            .map(|i| {
                let side = if i % 2 == 0 { "left" } else { "right" };
                member(&format!("-{i}"), &format!(" {side} {}", i / 2 + 1), DeviceType::SensingHorseSubdevice)
            })
            .collect(),
        DeviceType::RoomSet => [("-BED", " bed"), ("-SEAT", " seat"), ("-FLOOR", " floor")]
            .into_iter()
            .map(|(serial_suffix, name_suffix)| member(serial_suffix, name_suffix, DeviceType::ForceMat))
            .collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parents_get_their_members() {
        let horse = members("P", "Parent", DeviceType::SensingHorse, 4);
        let named: Vec<(&str, &str)> = horse.iter().map(|m| (m.serial.as_str(), m.name.as_str())).collect();
        assert_eq!(named, [("P-0", "Parent left 1"), ("P-1", "Parent right 1"), ("P-2", "Parent left 2"), ("P-3", "Parent right 2")]);
        assert!(horse.iter().all(|m| m.device_type == DeviceType::SensingHorseSubdevice));
        let room = members("P", "Room", DeviceType::RoomSet, 2);
        let named: Vec<(&str, &str)> = room.iter().map(|m| (m.serial.as_str(), m.name.as_str())).collect();
        assert_eq!(named, [("P-BED", "Room bed"), ("P-SEAT", "Room seat"), ("P-FLOOR", "Room floor")]);
        assert!(room.iter().all(|m| m.device_type == DeviceType::ForceMat));
        assert!(members("P", "Bed", DeviceType::MattressMatIoT, 2).is_empty());
    }
}
