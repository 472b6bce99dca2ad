//! The provisioned-devices file written by `hub provision`: a JSON array of
//! `{serial, secret, deviceType, rows, cols, deviceId}`.

use std::path::Path;

use serde::{Deserialize, Deserializer};

use crate::SimError;
use crate::spec::{DeviceSpec, preset};

/// One registered device as `hub provision` lists it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProvisionedDevice {
    /// Hardware serial.
    pub serial: String,
    /// Device secret.
    pub secret: String,
    /// Device type name.
    pub device_type: String,
    /// Rows, if the file gives them (otherwise the type's preset).
    #[serde(default)]
    pub rows: Option<u16>,
    /// Columns, if the file gives them (otherwise the type's preset).
    #[serde(default)]
    pub cols: Option<u16>,
    /// The hub's id of the device (a string or a `{"$oid": …}` object).
    #[serde(default, deserialize_with = "flexible_id")]
    pub device_id: Option<String>,
}

/// A string id, or a MongoDB-style `{"$oid": "..."}`, as the hub may write either.
#[derive(Deserialize)]
#[serde(untagged)]
enum IdRepr {
    Plain(String),
    Oid {
        #[serde(rename = "$oid")]
        oid: String,
    },
    Number(u64),
}

fn flexible_id<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(Option::<IdRepr>::deserialize(d)?.map(|id| match id {
        IdRepr::Plain(s) | IdRepr::Oid { oid: s } => s,
        IdRepr::Number(n) => n.to_string(),
    }))
}

impl ProvisionedDevice {
    /// The device spec: the type's preset, with the file's rows and cols when given.
    pub fn to_spec(&self) -> Result<DeviceSpec, SimError> {
        let mut p = preset(&self.device_type).ok_or_else(|| SimError::UnknownDeviceType(self.device_type.clone()))?;
        if let Some(rows) = self.rows {
            p.rows = rows;
        }
        if let Some(cols) = self.cols {
            p.cols = cols;
        }
        Ok(DeviceSpec::from_preset(self.serial.clone(), self.secret.clone(), &p))
    }
}

/// Parses the JSON text of a devices file.
pub fn parse_devices(json: &str) -> Result<Vec<ProvisionedDevice>, SimError> {
    serde_json::from_str(json).map_err(|e| SimError::DevicesFile(e.to_string()))
}

/// Reads and parses a devices file.
pub fn load_devices(path: &Path) -> Result<Vec<ProvisionedDevice>, SimError> {
    let text = std::fs::read_to_string(path).map_err(|source| SimError::Io { context: format!("reading {}", path.display()), source })?;
    parse_devices(&text).map_err(|e| SimError::DevicesFile(format!("{}: {e}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_provision_output_with_either_id_form() {
        let json = r#"[
            {"serial":"LOAD-0001","secret":"s1","deviceType":"Mattress Mat IoT","rows":48,"cols":48,"deviceId":"abc"},
            {"serial":"LOAD-0002","secret":"s2","deviceType":"Force Mat","deviceId":{"$oid":"def"}},
            {"serial":"LOAD-0003","secret":"s3","deviceType":"Seating Mat IoT"}
        ]"#;
        let devices = parse_devices(json).expect("parse");
        assert_eq!(devices.len(), 3);
        assert_eq!(devices[0].device_id.as_deref(), Some("abc"));
        assert_eq!(devices[1].device_id.as_deref(), Some("def"));
        assert_eq!(devices[2].device_id, None);
        let spec = devices[1].to_spec().expect("spec");
        assert_eq!((spec.rows, spec.cols), (1, 4));
        assert!(parse_devices("{").is_err());
    }

    #[test]
    fn unknown_types_are_reported() {
        let devices = parse_devices(r#"[{"serial":"a","secret":"b","deviceType":"Toaster"}]"#).expect("parse");
        assert!(matches!(devices[0].to_spec(), Err(SimError::UnknownDeviceType(_))));
    }
}
