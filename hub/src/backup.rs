//! Backups of the embedded database, written by the running hub (`--backup-dir`): one when the
//! hub starts, then one every `--backup-every-hours`, each a consistent snapshot
//! ([`Store::export_to`]: one read transaction while the hub goes on writing); the newest
//! `--backup-keep` are kept. `hub restore` puts one back into a new data directory
//! ([`run_restore`]). A database server several hubs share is backed up on the server.
//!
//! The rules (names, which backups go, when the next is due) are pure functions; the task and
//! the files are below them.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use actors::metrics::HubMetrics;
use anyhow::Context;
use storage::Store;
use tokio::sync::watch;

use crate::config::{BackupConfig, RestoreArgs, ServeConfig};

/// Every backup's name starts with it.
pub const PREFIX: &str = "hub-backup-";
/// And ends with it (SurrealQL).
pub const SUFFIX: &str = ".surql";
/// A backup being written: renamed to its name once complete.
const PARTIAL: &str = ".partial";
/// How soon a backup that failed is tried again (at most the interval).
pub const RETRY_AFTER_FAILURE: Duration = Duration::from_secs(15 * 60);

/// The name of a backup written at `unix` seconds: `hub-backup-20261130T214500Z.surql` (UTC), so
/// that names sort as their times do.
pub fn file_name(unix: i64) -> String {
    let stamp = jiff::Timestamp::from_second(unix).unwrap_or(jiff::Timestamp::UNIX_EPOCH);
    format!("{PREFIX}{}{SUFFIX}", stamp.strftime("%Y%m%dT%H%M%SZ"))
}

/// Whether `name` is one of the hub's backups (the only files it ever deletes).
pub fn is_backup(name: &str) -> bool {
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    let stamp = name.strip_prefix(PREFIX).and_then(|rest| rest.strip_suffix(SUFFIX)).and_then(|stamp| stamp.strip_suffix('Z'));
    stamp.and_then(|stamp| stamp.split_once('T')).is_some_and(|(date, time)| digits(date, 8) && digits(time, 6))
}

/// The backups among `names` that go once a new one is written: all but the newest `keep`.
/// Other files are never named.
pub fn to_delete(names: &[String], keep: usize) -> Vec<String> {
    let mut backups: Vec<&String> = names.iter().filter(|n| is_backup(n)).collect();
    backups.sort();
    let surplus = backups.len().saturating_sub(keep.max(1));
    backups.into_iter().take(surplus).cloned().collect()
}

/// How long after a backup the next one is due: the interval after one written, sooner after
/// one that failed.
pub fn next_after(succeeded: bool, every: Duration) -> Duration {
    if succeeded { every } else { every.min(RETRY_AFTER_FAILURE) }
}

/// Writes one backup of `store` into `dir` (created with mode 0700 if missing) at `now_unix`,
/// then deletes the backups beyond the newest `keep`; the new backup's path. The file is written
/// under a temporary name, readable by the hub's user only, flushed to disk and then renamed: a
/// file with a backup's name is always complete.
pub async fn write_backup(store: &Store, dir: &Path, now_unix: i64, keep: usize) -> anyhow::Result<PathBuf> {
    create_private_dir(dir)?;
    let name = file_name(now_unix);
    let partial = dir.join(format!("{name}{PARTIAL}"));
    crate::private_file::write_private(&partial, b"")?;
    let written = async {
        store.export_to(&partial).await.context("exporting the database")?;
        // Flushing a large file can take seconds: off the runtime's workers, which carry the mats.
        let (partial, path, dir) = (partial.clone(), dir.join(&name), dir.to_path_buf());
        tokio::task::spawn_blocking(move || {
            std::fs::File::open(&partial).and_then(|f| f.sync_all()).context("flushing the backup")?;
            std::fs::rename(&partial, &path).context("naming the backup")?;
            std::fs::File::open(&dir).and_then(|d| d.sync_all()).context("flushing the backup directory")?;
            Ok::<_, anyhow::Error>(path)
        })
        .await
        .context("the backup's flush")?
    }
    .await;
    let path = match written {
        Ok(path) => path,
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            return Err(e);
        }
    };
    let names: Vec<String> = std::fs::read_dir(dir)
        .with_context(|| format!("listing {}", dir.display()))?
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .collect();
    for old in to_delete(&names, keep) {
        std::fs::remove_file(dir.join(&old)).with_context(|| format!("deleting the old backup {old}"))?;
    }
    Ok(path)
}

fn create_private_dir(dir: &Path) -> anyhow::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir).with_context(|| format!("creating the backup directory {}", dir.display()))
}

/// The running hub's backups until `stopped`: the first at once, the next [`next_after`] each.
/// A failure is logged and counted (`hub_backups_failed_total`); a success sets
/// `hub_backup_last_success_timestamp_seconds`.
pub async fn run(store: Store, config: BackupConfig, metrics: Arc<HubMetrics>, mut stopped: watch::Receiver<bool>) {
    let Some(dir) = config.dir else { return };
    let every = Duration::from_secs(u64::from(config.every_hours) * 3600);
    metrics.backups_on.store(true, Ordering::Relaxed);
    loop {
        let now = storage::unix_now();
        let began = std::time::Instant::now();
        let succeeded = match write_backup(&store, &dir, now, config.keep as usize).await {
            Ok(path) => {
                metrics.backup_last_success_unix.store(now, Ordering::Relaxed);
                let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
                tracing::info!(path = %path.display(), bytes, seconds = began.elapsed().as_secs_f64(), "database backed up");
                true
            }
            Err(e) => {
                HubMetrics::inc(&metrics.backups_failed);
                tracing::error!(dir = %dir.display(), error = format!("{e:#}"), "the database backup failed");
                false
            }
        };
        tokio::select! {
            _ = tokio::time::sleep(next_after(succeeded, every)) => {}
            _ = stopped.wait_for(|stop| *stop) => return,
        }
    }
}

/// `hub restore --from FILE`: the backup into DATA/db, which must hold no database yet.
pub async fn run_restore(config: &ServeConfig, args: &RestoreArgs) -> anyhow::Result<()> {
    if config.database.is_some() {
        anyhow::bail!("hub restore writes the embedded database in --data; a database server is restored on the server (`surreal import`)");
    }
    let dir = config.data.join("db");
    let store = storage::backup::restore_embedded(&dir, &args.from).await?;
    let companies = store.hub_wide().companies().list().await?.len();
    let devices = store.hub_wide().devices().list_all().await?.len();
    println!("restored {} into {}: {companies} companies, {devices} devices", args.from.display(), dir.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn a_backup_is_named_by_its_utc_time_and_names_sort_as_times() {
        assert_eq!(file_name(1_796_161_500), "hub-backup-20261201T214500Z.surql");
        assert!(file_name(1_796_161_500) < file_name(1_796_161_501));
        assert!(file_name(999_999_999) < file_name(1_000_000_000), "fixed width");
        assert!(is_backup(&file_name(1_796_161_500)));
        for other in
            ["hub-backup-20261201T214500Z.surql.partial", "hub-backup-latest.surql", "notes.txt", "hub-backup-2026120XT064500Z.surql"]
        {
            assert!(!is_backup(other), "{other}");
        }
    }

    #[test]
    fn the_newest_backups_are_kept_and_nothing_else_is_deleted() {
        let dir = names(&[
            "hub-backup-20261203T000000Z.surql",
            "hub-backup-20261201T000000Z.surql",
            "notes.txt",
            "hub-backup-20261202T000000Z.surql",
            "hub-backup-20261204T000000Z.surql.partial",
        ]);
        assert_eq!(to_delete(&dir, 2), ["hub-backup-20261201T000000Z.surql"]);
        assert_eq!(to_delete(&dir, 1), ["hub-backup-20261201T000000Z.surql", "hub-backup-20261202T000000Z.surql"]);
        assert!(to_delete(&dir, 3).is_empty());
        assert_eq!(to_delete(&dir, 0).len(), 2, "the newest is always kept");
    }

    #[test]
    fn a_failed_backup_is_tried_again_within_a_quarter_hour() {
        let day = Duration::from_secs(86_400);
        assert_eq!(next_after(true, day), day);
        assert_eq!(next_after(false, day), RETRY_AFTER_FAILURE);
        assert_eq!(next_after(false, Duration::from_secs(600)), Duration::from_secs(600));
    }

    #[tokio::test]
    async fn backups_are_private_complete_files_and_the_oldest_go() {
        let store = Store::memory().await.unwrap();
        store.hub_wide().companies().create("Demo Clinic", "").await.unwrap();
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("backups");
        std::fs::write(root.path().join("unrelated"), b"x").unwrap();
        let first = write_backup(&store, &dir, 1_796_161_500, 2).await.unwrap();
        std::fs::write(dir.join("notes.txt"), b"kept").unwrap();
        write_backup(&store, &dir, 1_796_161_600, 2).await.unwrap();
        let third = write_backup(&store, &dir, 1_796_161_700, 2).await.unwrap();
        let mut left: Vec<String> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        left.sort();
        assert_eq!(left, ["hub-backup-20261201T214640Z.surql", "hub-backup-20261201T214820Z.surql", "notes.txt"]);
        assert!(!first.exists());
        let text = std::fs::read_to_string(&third).unwrap();
        assert!(text.contains("Demo Clinic"), "the records are in it");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&third).unwrap().permissions().mode() & 0o777, 0o600);
            assert_eq!(std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777, 0o700);
        }
    }

    #[tokio::test]
    async fn a_backup_that_cannot_be_written_leaves_no_file_with_a_backups_name() {
        let store = Store::memory().await.unwrap();
        let root = tempfile::tempdir().unwrap();
        let not_a_dir = root.path().join("file");
        std::fs::write(&not_a_dir, b"x").unwrap();
        assert!(write_backup(&store, &not_a_dir, 1_796_161_500, 7).await.is_err());
        assert_eq!(std::fs::read_dir(root.path()).unwrap().count(), 1);
    }
}
