//! The QUIC stateless-reset key, kept in `DATA/tls/quic-reset.key` so that it outlives the process.
//!
//! A hub that is killed cannot close its devices' connections. When it comes back on the same
//! port, a device's next packet carries a connection id the new process does not know; the new
//! process answers with a stateless reset whose token is an HMAC of that id under this key. The
//! device checks the token against the one the old process gave it — equal only when the key is
//! the same — and drops the connection at once, then reconnects, instead of waiting out its idle
//! timeout (20–30 s) while its frames go nowhere.

use std::path::Path;

use anyhow::Context;

use crate::private_file::write_private;

/// Bytes of the key (HMAC-SHA-256).
pub const RESET_KEY_LEN: usize = 32;

/// The least time between two stateless resets the endpoint sends: none. quinn's default (20 ms)
/// throttles a restarted hub's answers to its fleet, and any interval at all drops most of them:
/// mats killed at the same moment back their retransmissions off on the same schedule, so their
/// packets arrive in bursts that quinn handles at one instant. A mat whose packet got no reset
/// waits for its next retransmission, seconds later. Resets answer only packets whose connection
/// id passes the keyed check below (garbage is dropped unanswered), and each is smaller than the
/// packet it answers, so answering every one adds no amplification and no reset loop.
pub const MIN_RESET_INTERVAL: std::time::Duration = std::time::Duration::ZERO;

/// Loads the key from `DATA/tls/quic-reset.key`, or creates it with fresh random bytes.
pub fn load_or_create(data: &Path) -> anyhow::Result<[u8; RESET_KEY_LEN]> {
    let dir = data.join("tls");
    let path = dir.join("quic-reset.key");
    if let Ok(bytes) = std::fs::read(&path) {
        if let Ok(key) = <[u8; RESET_KEY_LEN]>::try_from(bytes.as_slice()) {
            return Ok(key);
        }
        tracing::warn!(path = %path.display(), "the QUIC reset key is not {RESET_KEY_LEN} bytes; a new one is made");
    }
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let key: [u8; RESET_KEY_LEN] = rand::random();
    write_private(&path, &key)?;
    Ok(key)
}

/// The key in the form quinn signs reset tokens with.
pub fn hmac_key(key: &[u8; RESET_KEY_LEN]) -> std::sync::Arc<dyn quinn::crypto::HmacKey> {
    std::sync::Arc::new(ring::hmac::Key::new(ring::hmac::HMAC_SHA256, key))
}

/// The endpoint configuration of a hub with this key. Its connection ids carry a check keyed
/// from the same key (quinn's default draws that key at random per process, and an endpoint
/// silently drops packets whose connection id fails the check instead of resetting them).
pub fn endpoint_config(key: &[u8; RESET_KEY_LEN]) -> quinn::EndpointConfig {
    let cid_key = connection_id_key(key);
    let mut config = quinn::EndpointConfig::new(hmac_key(key));
    config.cid_generator(move || Box::new(quinn_proto::HashedConnectionIdGenerator::from_key(cid_key)));
    config.min_reset_interval(MIN_RESET_INTERVAL);
    config
}

/// The key of the connection-id check, derived from the reset key.
fn connection_id_key(key: &[u8; RESET_KEY_LEN]) -> u64 {
    let mut label = [0u8; 32];
    hmac_key(key).sign(b"pmat connection id check", &mut label);
    u64::from_le_bytes([label[0], label[1], label[2], label[3], label[4], label[5], label[6], label[7]])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_is_made_once_and_read_back_by_the_next_process() {
        let data = tempfile::tempdir().expect("temp dir");
        let first = load_or_create(data.path()).expect("created");
        assert_eq!(load_or_create(data.path()).expect("read"), first);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(data.path().join("tls/quic-reset.key")).expect("file").permissions().mode();
            assert_eq!(mode & 0o077, 0, "only the hub's user reads it");
        }
        // Another data directory, another key.
        let other = tempfile::tempdir().expect("temp dir");
        assert_ne!(load_or_create(other.path()).expect("created"), first);
    }

    #[test]
    fn the_same_key_signs_the_same_reset_token() {
        let key = [7u8; RESET_KEY_LEN];
        let (a, b) = (hmac_key(&key), hmac_key(&key));
        let (mut ta, mut tb) = ([0u8; 32], [0u8; 32]);
        a.sign(b"connection id", &mut ta);
        b.sign(b"connection id", &mut tb);
        assert_eq!(ta, tb);
        let mut other = [0u8; 32];
        hmac_key(&[8u8; RESET_KEY_LEN]).sign(b"connection id", &mut other);
        assert_ne!(ta, other);
    }

    #[test]
    fn a_new_process_accepts_the_connection_ids_of_the_one_before_it() {
        use quinn_proto::ConnectionIdGenerator;
        let key = [7u8; RESET_KEY_LEN];
        let generator = |key: &[u8; RESET_KEY_LEN]| quinn_proto::HashedConnectionIdGenerator::from_key(connection_id_key(key));
        let cid = generator(&key).generate_cid();
        assert!(generator(&key).validate(&cid).is_ok(), "same key: a packet of the old process is reset, not dropped");
        assert!(generator(&[8u8; RESET_KEY_LEN]).validate(&cid).is_err());
    }

    /// A killed fleet's packets reach the restarted hub in bursts handled at one instant: each
    /// one must get its reset (with quinn's default 20 ms interval only the first did).
    #[test]
    fn every_packet_of_a_burst_to_a_restarted_hub_is_answered_with_a_reset() {
        use quinn_proto::{ConnectionIdGenerator, DatagramEvent};
        let key = [7u8; RESET_KEY_LEN];
        let mut old_process = quinn_proto::HashedConnectionIdGenerator::from_key(connection_id_key(&key));
        let mut restarted = quinn_proto::Endpoint::new(std::sync::Arc::new(endpoint_config(&key)), None, false, Some([1; 32]));
        let now = std::time::Instant::now();
        let mats = 20u16;
        let answered = (0..mats)
            .filter(|&mat| {
                // A 1-RTT (short header) packet of a connection the old process had with this mat.
                let mut packet = bytes::BytesMut::from(&[0x40u8][..]);
                packet.extend_from_slice(&old_process.generate_cid());
                packet.resize(1200, 0x5a);
                let remote = std::net::SocketAddr::from(([127, 0, 0, 1], 40_000 + mat));
                let mut reply = Vec::new();
                matches!(restarted.handle(now, remote, None, None, packet, &mut reply), Some(DatagramEvent::Response(_)))
            })
            .count();
        assert_eq!(answered, usize::from(mats), "every mat of the burst gets its stateless reset");
    }
}
