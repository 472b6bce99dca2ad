//! What the cluster test prints with a contradiction about a mat, so that the failure message
//! alone says what happened: which hub answered the read-back through HAProxy, the hubs that ran
//! the mat in turn, what each live hub shows of it now, its stored alarm and presence rows, and
//! what the hubs logged about it.

use std::fmt::Write as _;
use std::net::SocketAddr;

use serde_json::Value;

use crate::cluster::NODES;
use crate::{read, status_on, try_request};

/// The hub HAProxy sends the test's calls to (`balance source`: every call of the test comes
/// from 127.0.0.1, so one hub while it lives): the server whose session count one call through
/// `browsers` raised, from HAProxy's statistics at `stats`.
pub async fn haproxy_choice(stats: SocketAddr, browsers: SocketAddr) -> String {
    let sessions = || async {
        let csv = try_request(stats, "GET", "/;csv", None, None).await.map(|r| r.body).unwrap_or_default();
        csv.lines()
            .filter(|l| l.starts_with("hubs,hub-"))
            .filter_map(|l| {
                let fields: Vec<&str> = l.split(',').collect();
                Some((fields.get(1)?.to_string(), fields.get(7)?.parse::<u64>().ok()?))
            })
            .collect::<Vec<(String, u64)>>()
    };
    let before = sessions().await;
    let _ = try_request(browsers, "GET", "/metrics", None, None).await;
    let after = sessions().await;
    let chosen: Vec<String> =
        after.iter().filter(|(name, n)| before.iter().any(|(b, m)| b == name && m < n)).map(|(name, _)| name.clone()).collect();
    // HAProxy names the servers hub-1, hub-2, hub-3 in the order of NODES.
    let named: Vec<String> = chosen
        .iter()
        .map(|c| {
            c.strip_prefix("hub-")
                .and_then(|k| k.parse::<usize>().ok())
                .and_then(|k| NODES.get(k - 1))
                .map_or(c.clone(), |n| (*n).to_owned())
        })
        .collect();
    if named.is_empty() { "unknown (no session counted)".to_owned() } else { named.join(", ") }
}

/// Everything the test knows about mat `id`, as lines under a contradiction.
/// `owners`: (test ms, node) of each welcome; `live`: the hubs that answer now (index, address);
/// `logs`: each hub's log.
pub async fn explain_mat(
    id: &str,
    token: &str,
    answered_by: &str,
    owners: &[(u64, String)],
    live: &[(usize, SocketAddr)],
    logs: &[String],
    now_ms: u64,
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "  diagnosis of {id} (test time now {now_ms} ms, Unix {}):", storage::unix_now());
    let _ = writeln!(out, "    the read-back went through HAProxy to {answered_by}");
    let turns: Vec<String> = owners.iter().map(|(ms, node)| format!("{node} at {ms} ms")).collect();
    let _ = writeln!(out, "    run by, in turn: {}", turns.join(" → "));
    for (k, hub) in live {
        let card = status_on(*hub, token, id).await.map_or("no answer".to_owned(), |s| {
            format!("patientStatus {} unattendedAlarm {} functional {}", s["patientStatus"], s["unattendedAlarm"], s["deviceFunctional"])
        });
        let _ = writeln!(out, "    {} shows: {card}", NODES[*k]);
    }
    if let Some((_, hub)) = live.first() {
        let alarms = read(*hub, token, &format!("/api/iotAlarms/{id}")).await.unwrap_or(Value::Null);
        let rows: Vec<String> = alarms.as_array().into_iter().flatten().map(Value::to_string).collect();
        let _ = writeln!(out, "    alarm rows:\n      {}", rows.join("\n      "));
        let presence = read(*hub, token, &format!("/api/presenceLogs/{id}")).await.unwrap_or(Value::Null);
        let mut entries: Vec<(i64, String)> = presence
            .as_array()
            .into_iter()
            .flatten()
            .map(|e| (e["creationDate"].as_i64().unwrap_or_default(), e["logId"].to_string()))
            .collect();
        entries.sort();
        let newest: Vec<String> = entries.iter().rev().take(12).rev().map(|(at, log)| format!("{log}@{at}")).collect();
        let _ = writeln!(out, "    presence rows (newest 12, logId@date; \"1\" is an entrance): {}", newest.join(" "));
    }
    for (k, log) in logs.iter().enumerate() {
        let lines: Vec<&str> = log.lines().filter(|l| l.contains(id)).collect();
        let tail = &lines[lines.len().saturating_sub(16)..];
        let _ = writeln!(out, "    {}'s log, {} lines naming it, the last {}:", NODES[k], lines.len(), tail.len());
        for line in tail {
            let _ = writeln!(out, "      {line}");
        }
    }
    out
}

/// The device a contradiction line names (`device ID …`, `mat ID …`, `alarm X of device ID …`).
pub fn device_named(line: &str) -> Option<&str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.windows(2).find(|w| w[0] == "device" || w[0] == "mat").map(|w| w[1].trim_end_matches([',', ':', '\'']))
}

/// What a hub's log says of its storage writer: its slow flushes (how long, how many rows, how
/// long the oldest record had waited), the last 12.
pub fn writer_lines(log: &str) -> String {
    let lines: Vec<&str> = log.lines().filter(|l| l.contains("storage writer") || l.contains("not written; will retry")).collect();
    let tail = &lines[lines.len().saturating_sub(12)..];
    format!("    its storage writer, {} slow flushes logged, the last {}:\n      {}", lines.len(), tail.len(), tail.join("\n      "))
}

/// What a hub's log says of its slow lease acquisitions (`kv_ms`: the key-value read and write)
/// and settlements (`steps`: fence raise, snapshot-and-rows read, registry): how many, the last 6.
pub fn takeover_lines(log: &str) -> String {
    let lines: Vec<&str> = log.lines().filter(|l| l.contains("lease acquisition slow") || l.contains("lease settlement slow")).collect();
    let tail = &lines[lines.len().saturating_sub(6)..];
    format!("    {} slow lease lines, the last {}:\n      {}", lines.len(), tail.len(), tail.join("\n      "))
}
