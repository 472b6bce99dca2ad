//! Where a company's alarm reports go: its own alarm manager when one is set and enabled, else
//! the hub-wide default (`--alarm-manager mllp://HOST:PORT`, or `mllps://HOST:PORT` with
//! `--alarm-manager-ca FILE` for MLLP over TLS; `HUB_ALARM_MANAGER`, `HUB_ALARM_MANAGER_CA`), else
//! nowhere.

use std::fmt;
use std::path::Path;

use storage::repo::AlarmManagerSettings;

/// The MSH-3 the hub signs with when nobody named it.
pub const DEFAULT_SENDING_APPLICATION: &str = "PMAT_HUB";

/// The alarm kinds that can go out, in their stored spelling.
pub const KINDS: [&str; 2] = ["Missing", "Ulcer Risk"];

/// An alarm manager's MLLP address, and whether MLLP runs over TLS there.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Destination {
    pub host: String,
    pub port: u16,
    /// MLLP over TLS (a company's setting, or the default's `mllps://`).
    pub tls: bool,
}

impl fmt::Display for Destination {
    /// `mllp://HOST:PORT`, or `mllps://HOST:PORT` over TLS.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scheme = if self.tls { "mllps" } else { "mllp" };
        if self.host.contains(':') && !self.host.starts_with('[') {
            write!(f, "{scheme}://[{}]:{}", self.host, self.port)
        } else {
            write!(f, "{scheme}://{}:{}", self.host, self.port)
        }
    }
}

impl std::str::FromStr for Destination {
    type Err = String;

    /// `mllp://HOST:PORT`, or `mllps://HOST:PORT` for MLLP over TLS (an IPv6 host in brackets).
    fn from_str(text: &str) -> Result<Destination, String> {
        let trimmed = text.trim();
        let (rest, tls) = match (trimmed.strip_prefix("mllp://"), trimmed.strip_prefix("mllps://")) {
            (Some(rest), _) => (rest, false),
            (_, Some(rest)) => (rest, true),
            _ => return Err(format!("{text:?} is not mllp://HOST:PORT or mllps://HOST:PORT")),
        };
        let rest = rest.strip_suffix('/').unwrap_or(rest);
        let (host, port) = rest.rsplit_once(':').ok_or_else(|| format!("{text:?} has no port"))?;
        let host = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')).unwrap_or(host);
        let port: u16 = port.parse().map_err(|_| format!("{text:?}: the port is not a number from 1 to 65535"))?;
        if host.is_empty() || port == 0 || host.contains(['/', '@', ' ']) {
            return Err(format!("{text:?} is not mllp://HOST:PORT"));
        }
        Ok(Destination { host: host.to_owned(), port, tls })
    }
}

/// The hub-wide default manager: its address and, over TLS, the certificate authority (PEM) its
/// certificate must chain to (as a company's `caPem`: no system roots).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HubDefault {
    pub destination: Destination,
    pub ca_pem: Option<String>,
}

/// The hub-wide default of `--alarm-manager` and `--alarm-manager-ca`: `mllps://` needs the CA
/// file (a readable PEM certificate), and a CA file without `mllps://` is a mistake, not ignored.
pub fn hub_default(destination: Option<Destination>, ca_file: Option<&Path>) -> Result<Option<HubDefault>, String> {
    match (destination, ca_file) {
        (None, None) => Ok(None),
        (None, Some(_)) => Err("--alarm-manager-ca is set without --alarm-manager".into()),
        (Some(destination), None) if destination.tls => {
            Err(format!("{destination}: MLLP over TLS needs --alarm-manager-ca, the CA the manager's certificate chains to"))
        }
        (Some(destination), Some(file)) if !destination.tls => {
            Err(format!("--alarm-manager-ca {} is set but {destination} is plain MLLP: use mllps://", file.display()))
        }
        (Some(destination), None) => Ok(Some(HubDefault { destination, ca_pem: None })),
        (Some(destination), Some(file)) => {
            let ca_pem = std::fs::read_to_string(file).map_err(|e| format!("reading --alarm-manager-ca {}: {e}", file.display()))?;
            super::tls::roots(&ca_pem).map_err(|why| format!("--alarm-manager-ca {}: {why}", file.display()))?;
            super::tls::server_name(&destination.host)?;
            Ok(Some(HubDefault { destination, ca_pem: Some(ca_pem) }))
        }
    }
}

/// Where one company's reports go and how they are signed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    pub destination: Destination,
    pub parties: ihe_pcd::pcd04::Parties,
    /// The kinds that go out.
    pub kinds: Vec<String>,
    /// The certificate authority (PEM) the manager's certificate must chain to, over TLS.
    pub ca_pem: Option<String>,
}

/// The route of a company with these settings, under this hub-wide default.
pub fn route(settings: Option<&AlarmManagerSettings>, default: Option<&HubDefault>) -> Option<Route> {
    match settings {
        Some(s) if s.enabled => Some(Route {
            destination: Destination { host: s.host.clone(), port: u16::try_from(s.port).ok().filter(|p| *p > 0)?, tls: s.tls },
            parties: ihe_pcd::pcd04::Parties {
                sending_application: if s.sending_application.is_empty() {
                    DEFAULT_SENDING_APPLICATION.into()
                } else {
                    s.sending_application.clone()
                },
                sending_facility: s.sending_facility.clone(),
                receiving_application: s.receiving_application.clone(),
                receiving_facility: s.receiving_facility.clone(),
            },
            kinds: s.kinds.clone(),
            ca_pem: s.tls.then(|| s.ca_pem.clone()),
        }),
        // A company that switched its own manager off sends nothing, even with a default.
        Some(_) => None,
        None => default.map(|default| Route {
            destination: default.destination.clone(),
            parties: ihe_pcd::pcd04::Parties {
                sending_application: DEFAULT_SENDING_APPLICATION.into(),
                sending_facility: String::new(),
                receiving_application: String::new(),
                receiving_facility: String::new(),
            },
            kinds: KINDS.iter().map(|k| k.to_string()).collect(),
            ca_pem: default.ca_pem.clone(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_mllp_urls() {
        assert_eq!("mllp://127.0.0.1:2575".parse(), Ok(Destination { host: "127.0.0.1".into(), port: 2575, tls: false }));
        assert_eq!("mllp://am.ward3.local:6661/".parse(), Ok(Destination { host: "am.ward3.local".into(), port: 6661, tls: false }));
        let over_tls = Destination { host: "am.ward3.local".into(), port: 6661, tls: true };
        assert_eq!(over_tls.to_string(), "mllps://am.ward3.local:6661");
        let v6: Destination = "mllp://[::1]:2575".parse().unwrap();
        assert_eq!((v6.host.as_str(), v6.to_string().as_str()), ("::1", "mllp://[::1]:2575"));
        let secure: Destination = "mllps://am.ward3.local:6661".parse().unwrap();
        assert_eq!(secure, over_tls, "mllps:// is MLLP over TLS");
        assert_eq!(over_tls.to_string().parse::<Destination>().unwrap(), over_tls, "written as read");
        for bad in [
            "127.0.0.1:2575",
            "mllp://host",
            "mllp://:2575",
            "mllp://host:0",
            "mllp://host:70000",
            "http://h:1",
            "mllp://u@h:1",
            "mllps:/h:1",
        ] {
            assert!(bad.parse::<Destination>().is_err(), "{bad}");
        }
    }

    fn settings(enabled: bool) -> AlarmManagerSettings {
        AlarmManagerSettings {
            enabled,
            host: "am".into(),
            port: 2575,
            sending_application: "".into(),
            sending_facility: "Ward 3".into(),
            receiving_application: "AM".into(),
            receiving_facility: "".into(),
            kinds: vec!["Missing".into()],
            tls: false,
            ca_pem: "".into(),
        }
    }

    #[test]
    fn a_companys_own_manager_wins_and_switching_it_off_sends_nothing() {
        let default = HubDefault { destination: "mllp://central:2575".parse().unwrap(), ca_pem: None };
        let own = route(Some(&settings(true)), Some(&default)).unwrap();
        assert_eq!(own.destination.host, "am");
        assert_eq!(own.parties.sending_application, DEFAULT_SENDING_APPLICATION);
        assert_eq!(own.kinds, ["Missing"]);
        assert_eq!((own.destination.tls, own.ca_pem), (false, None));
        let secure = AlarmManagerSettings { tls: true, ca_pem: "PEM".into(), ..settings(true) };
        let secure = route(Some(&secure), Some(&default)).unwrap();
        assert_eq!((secure.destination.tls, secure.ca_pem.as_deref()), (true, Some("PEM")), "TLS with the company's CA");
        assert_eq!(route(Some(&settings(false)), Some(&default)), None);
        let fallback = route(None, Some(&default)).unwrap();
        assert_eq!((fallback.destination, fallback.kinds.len(), fallback.ca_pem), (default.destination.clone(), 2, None));
        assert_eq!(route(None, None), None);
        let secure_default = HubDefault { destination: "mllps://central:2575".parse().unwrap(), ca_pem: Some("CA".into()) };
        let fallback = route(None, Some(&secure_default)).unwrap();
        assert_eq!((fallback.destination.tls, fallback.ca_pem.as_deref()), (true, Some("CA")), "TLS with the default's CA");
    }

    #[test]
    fn a_default_over_tls_needs_a_readable_ca_file_and_a_ca_file_needs_tls() {
        let dir = tempfile::tempdir().unwrap();
        let ca = rcgen::generate_simple_self_signed(vec!["central".to_owned()]).unwrap().cert.pem();
        let (ca_file, junk) = (dir.path().join("ca.pem"), dir.path().join("junk.pem"));
        std::fs::write(&ca_file, &ca).unwrap();
        std::fs::write(&junk, "not a certificate").unwrap();
        let plain: Destination = "mllp://central:2575".parse().unwrap();
        let secure: Destination = "mllps://central:2575".parse().unwrap();
        assert_eq!(hub_default(None, None), Ok(None));
        assert_eq!(hub_default(Some(plain.clone()), None), Ok(Some(HubDefault { destination: plain.clone(), ca_pem: None })));
        assert_eq!(
            hub_default(Some(secure.clone()), Some(&ca_file)),
            Ok(Some(HubDefault { destination: secure.clone(), ca_pem: Some(ca) }))
        );
        assert!(hub_default(Some(secure.clone()), None).unwrap_err().contains("--alarm-manager-ca"));
        assert!(hub_default(Some(plain), Some(&ca_file)).unwrap_err().contains("mllps://"));
        assert!(hub_default(None, Some(&ca_file)).is_err());
        assert!(hub_default(Some(secure.clone()), Some(&junk)).unwrap_err().contains("no certificate"));
        assert!(hub_default(Some(secure), Some(&dir.path().join("missing.pem"))).unwrap_err().contains("reading"));
    }
}
