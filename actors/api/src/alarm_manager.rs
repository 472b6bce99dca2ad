//! A company's alarm manager (IHE PCD-04 over MLLP), as administrators set it: host and port,
//! the MSH sending and receiving application and facility (HL7 v2.6 HD namespace ids: at most
//! 20 characters, no HL7 delimiter), which alarm kinds go out, and MLLP over TLS with the
//! certificate authority to trust (PEM; the hub reads the certificates themselves).

use serde::{Deserialize, Serialize};

use super::{Invalid, char_len};

/// Longest host name (DNS).
pub const HOST_MAX: usize = 253;
/// Longest application or facility name (HL7 v2.6 HD-1, IS 20).
pub const NAME_MAX: usize = 20;
/// Longest certificate-authority text (PEM, a bundle included).
pub const CA_PEM_MAX: usize = 65_536;
/// How a PEM certificate begins.
pub const PEM_CERTIFICATE: &str = "-----BEGIN CERTIFICATE-----";
/// The alarm kinds that can go out, in the hub's stored spelling.
pub const ALARM_KINDS: [&str; 2] = ["Missing", "Ulcer Risk"];

/// A port as any JSON integer (`464.0` included, as JSON Schema's `integer` allows), out of range
/// of `u32` refused here and outside 1–65535 by [`validate_alarm_manager`].
fn port_number<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    let value = super::lenient::integer(deserializer)?;
    u32::try_from(value).map_err(|_| serde::de::Error::custom(format!("invalid value: {value}, expected a port from 1 to 65535")))
}

/// The body of `PUT /api/alarmManager`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AlarmManagerInput {
    /// Reports go out only while enabled.
    pub enabled: bool,
    /// The manager's host name or address.
    #[schemars(length(min = 1, max = HOST_MAX), pattern(r"^[A-Za-z0-9.:\-\[\]]+$"))]
    pub host: String,
    /// Its MLLP port (a JSON integer; `2575.0` is the same number).
    #[serde(deserialize_with = "port_number")]
    #[schemars(range(min = 1, max = 65535))]
    pub port: u32,
    /// MSH-3 (empty: `PMAT_HUB`).
    #[serde(default)]
    #[schemars(length(max = NAME_MAX), pattern(r"^[^|^~\\&\x00-\x1f\x7f]*$"))]
    pub sending_application: String,
    /// MSH-4.
    #[serde(default)]
    #[schemars(length(max = NAME_MAX), pattern(r"^[^|^~\\&\x00-\x1f\x7f]*$"))]
    pub sending_facility: String,
    /// MSH-5.
    #[serde(default)]
    #[schemars(length(max = NAME_MAX), pattern(r"^[^|^~\\&\x00-\x1f\x7f]*$"))]
    pub receiving_application: String,
    /// MSH-6.
    #[serde(default)]
    #[schemars(length(max = NAME_MAX), pattern(r"^[^|^~\\&\x00-\x1f\x7f]*$"))]
    pub receiving_facility: String,
    /// The alarm kinds that go out: `Missing`, `Ulcer Risk`.
    #[schemars(extend("uniqueItems" = true), inner(pattern(r"^(Missing|Ulcer Risk)$")))]
    pub kinds: Vec<String>,
    /// MLLP over TLS: the manager's certificate must chain to `caPem` and name `host`.
    #[serde(default)]
    pub tls: bool,
    /// The certificate authority to trust over TLS, as PEM (one or more certificates); required
    /// with `tls`.
    #[serde(default)]
    #[schemars(length(max = CA_PEM_MAX))]
    pub ca_pem: String,
}

/// Checks an alarm manager's settings (`invalidAlarmManager` with what is wrong).
pub fn validate_alarm_manager(input: &AlarmManagerInput) -> Result<(), Invalid> {
    let bad = |message: String| Err(Invalid::new("invalidAlarmManager", message));
    let host = input.host.as_str();
    if host.is_empty() || char_len(host) > HOST_MAX || !host.chars().all(|c| c.is_ascii_alphanumeric() || ".:-[]".contains(c)) {
        return bad(format!("the host is a name or address of 1 to {HOST_MAX} characters (letters, digits, '.', '-', ':')"));
    }
    if !(1..=65535).contains(&input.port) {
        return bad("the port is 1 to 65535".into());
    }
    for (name, value) in [
        ("sendingApplication", &input.sending_application),
        ("sendingFacility", &input.sending_facility),
        ("receivingApplication", &input.receiving_application),
        ("receivingFacility", &input.receiving_facility),
    ] {
        if char_len(value) > NAME_MAX || value.contains(['|', '^', '~', '\\', '&']) || value.chars().any(char::is_control) {
            return bad(format!("{name} is at most {NAME_MAX} characters, without | ^ ~ \\ &"));
        }
    }
    if char_len(&input.ca_pem) > CA_PEM_MAX || input.ca_pem.chars().any(|c| c.is_control() && !c.is_ascii_whitespace()) {
        return bad(format!("caPem is PEM text of at most {CA_PEM_MAX} characters"));
    }
    if input.tls && !input.ca_pem.contains(PEM_CERTIFICATE) {
        return bad(format!("over TLS, caPem holds the certificate authority to trust ({PEM_CERTIFICATE} …)"));
    }
    for (i, kind) in input.kinds.iter().enumerate() {
        if !ALARM_KINDS.contains(&kind.as_str()) || input.kinds[..i].contains(kind) {
            return bad(format!("kinds are distinct values of {ALARM_KINDS:?}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_port_is_any_json_integer_and_nothing_else() {
        let body = |port: &str| format!(r#"{{"enabled":true,"host":"nurse-call","port":{port},"kinds":["Missing"]}}"#);
        let parsed: AlarmManagerInput = serde_json::from_str(&body("464.0")).expect("an integral float is an integer");
        assert_eq!(parsed.port, 464);
        assert!(serde_json::from_str::<AlarmManagerInput>(&body("464.5")).is_err());
        assert!(serde_json::from_str::<AlarmManagerInput>(&body("-1")).is_err());
    }

    fn input() -> AlarmManagerInput {
        AlarmManagerInput {
            enabled: true,
            host: "am.ward3.local".into(),
            port: 2575,
            sending_application: "PMAT_HUB".into(),
            sending_facility: "WARD3".into(),
            receiving_application: "".into(),
            receiving_facility: "".into(),
            kinds: vec!["Missing".into(), "Ulcer Risk".into()],
            tls: false,
            ca_pem: "".into(),
        }
    }

    #[test]
    fn accepts_a_manager_and_refuses_each_broken_field() {
        assert_eq!(validate_alarm_manager(&input()), Ok(()));
        assert_eq!(validate_alarm_manager(&AlarmManagerInput { host: "[::1]".into(), kinds: vec![], ..input() }), Ok(()));
        let pem = format!("{PEM_CERTIFICATE}\r\nMIIB\r\n-----END CERTIFICATE-----\n");
        assert_eq!(
            validate_alarm_manager(&AlarmManagerInput { tls: true, ca_pem: pem, ..input() }),
            Ok(()),
            "the hub reads the certificate"
        );
        let broken = [
            AlarmManagerInput { host: "".into(), ..input() },
            AlarmManagerInput { host: "a b".into(), ..input() },
            AlarmManagerInput { host: "h".repeat(254), ..input() },
            AlarmManagerInput { port: 0, ..input() },
            AlarmManagerInput { port: 65536, ..input() },
            AlarmManagerInput { sending_application: "A|B".into(), ..input() },
            AlarmManagerInput { sending_facility: "x".repeat(21), ..input() },
            AlarmManagerInput { receiving_facility: "a\rb".into(), ..input() },
            AlarmManagerInput { kinds: vec!["Shapes".into()], ..input() },
            AlarmManagerInput { kinds: vec!["Missing".into(), "Missing".into()], ..input() },
            AlarmManagerInput { tls: true, ..input() },
            AlarmManagerInput { tls: true, ca_pem: "my CA".into(), ..input() },
            AlarmManagerInput { ca_pem: "x".repeat(CA_PEM_MAX + 1), ..input() },
            AlarmManagerInput { ca_pem: "\u{0}".into(), ..input() },
        ];
        for input in broken {
            assert_eq!(validate_alarm_manager(&input).map_err(|e| e.key), Err("invalidAlarmManager"), "{input:?}");
        }
    }
}
