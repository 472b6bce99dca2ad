//! Errors that end a simulated device (transient network trouble is retried, not returned).

use mat_protocol::ErrorCode;

/// Why a simulated device stopped for good.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// The hub refused the device in a way that retrying cannot fix (unknown serial, bad
    /// secret, unsupported version, wrong device type, shape mismatch).
    #[error("refused by the hub: {code:?}: {message}")]
    Refused {
        /// The hub's error code.
        code: ErrorCode,
        /// The hub's explanation.
        message: String,
    },
    /// The device type is not one of spec §3.
    #[error("unknown device type {0:?}")]
    UnknownDeviceType(String),
    /// The device description cannot be sent (for example a map too large for one message).
    #[error("invalid device spec: {0}")]
    InvalidSpec(String),
    /// The TLS trust settings are unusable (unreadable or empty PEM, bad DER).
    #[error("tls setup: {0}")]
    Tls(String),
    /// A local I/O operation failed (binding the UDP socket, reading a file).
    #[error("{context}: {source}")]
    Io {
        /// What was being done.
        context: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A provisioned-devices file could not be read or parsed.
    #[error("devices file: {0}")]
    DevicesFile(String),
}

impl SimError {
    /// Whether this is a refusal by the hub (as opposed to a local configuration problem).
    pub fn is_refusal(&self) -> bool {
        matches!(self, SimError::Refused { .. })
    }
}

/// Error codes after which a device gives up instead of reconnecting: repeating the same hello
/// would only be refused again (docs/device-protocol.md §4). Every other disconnection, including
/// `replaced` and `shutting_down`, is retried with backoff.
pub fn is_terminal(code: ErrorCode) -> bool {
    matches!(
        code,
        ErrorCode::UnsupportedVersion
            | ErrorCode::UnknownSerial
            | ErrorCode::BadSecret
            | ErrorCode::WrongDeviceType
            | ErrorCode::ShapeMismatch
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_identity_and_shape_errors_are_terminal() {
        assert!(is_terminal(ErrorCode::BadSecret));
        assert!(is_terminal(ErrorCode::UnknownSerial));
        assert!(is_terminal(ErrorCode::UnsupportedVersion));
        assert!(is_terminal(ErrorCode::WrongDeviceType));
        assert!(is_terminal(ErrorCode::ShapeMismatch));
        assert!(!is_terminal(ErrorCode::ShuttingDown));
        assert!(!is_terminal(ErrorCode::Replaced));
        assert!(!is_terminal(ErrorCode::Malformed));
        assert!(!is_terminal(ErrorCode::HelloExpected));
    }
}
