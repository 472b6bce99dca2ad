//! The configuration of a hub started inside a test: loopback, ports chosen by the system, no
//! simulators, the embedded in-memory database. Shared by the hub's tests (`hub/tests/common`)
//! and the database server's (`dbserver/tests/support`, which includes this file by path and
//! points `database` at its server).

use hub::config::ServeConfig;

/// A test hub's configuration, its files under `data`.
pub fn config(data: &std::path::Path) -> ServeConfig {
    ServeConfig {
        demo: false,
        no_simulators: true,
        data: data.to_path_buf(),
        database: Some("mem://".into()),
        database_credentials: None,
        database_ca: None,
        http: "127.0.0.1:0".parse().unwrap(),
        https: false,
        allow_plain_http: false,
        quic: "127.0.0.1:0".parse().unwrap(),
        client_dir: data.join("no-client"),
        tls_cert: None,
        tls_key: None,
        absence_delay_secs: 30,
        demo_repositioning_time_scale: 1,
        demo_bed_leaves_after_secs: None,
        alarm_manager: None,
        alarm_manager_ca: None,
        alarm_continue_secs: 120,
        alarm_status_listen: None,
        alarm_status_tls_cert: None,
        alarm_status_tls_key: None,
        alarm_status_client_ca: None,
        token_hours: 12,
        nats: None,
        node: None,
        peers: Default::default(),
        backup: Default::default(),
    }
}
