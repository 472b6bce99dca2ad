//! Backups of the embedded store: the whole database (its schema and every record) written as
//! SurrealQL in one read transaction, and a backup restored into a new data directory.
//!
//! A SurrealDB server several hubs share is backed up on the server (`surreal export`): the
//! SurrealDB client exports and imports over HTTP only, and the hubs reach their server over
//! WebSocket.

use std::path::Path;

use crate::{DATABASE, NAMESPACE, Store, StoreError, schema};

impl Store {
    /// Writes the whole database to `path` as SurrealQL: one read transaction, so a consistent
    /// snapshot while the hub goes on writing.
    pub async fn export_to(&self, path: &Path) -> Result<(), StoreError> {
        self.db.export(path).await?;
        Ok(())
    }
}

/// Why a restore was refused before anything was written.
#[derive(Debug, thiserror::Error)]
pub enum RestoreRefused {
    /// The directory already holds a database: a restore never writes over one.
    #[error("{0} already holds a database: restore into a new directory (move the old one aside first)")]
    NotEmpty(String),
    /// The backup file cannot be read.
    #[error("cannot read the backup {0}: {1}")]
    Unreadable(String, String),
    /// The import failed; the directory holds whatever was imported before the failure.
    #[error("the backup {0} could not be imported: {1}")]
    Import(String, String),
    /// Opening the new database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Restores `backup` (written by [`Store::export_to`]) into `dir`, a new embedded database
/// directory (absent or empty), and opens it. The schema of this build is applied after the
/// import, as on any start: a backup of an older build is upgraded as its database would be.
pub async fn restore_embedded(dir: &Path, backup: &Path) -> Result<Store, RestoreRefused> {
    if std::fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_some()) {
        return Err(RestoreRefused::NotEmpty(dir.display().to_string()));
    }
    std::fs::File::open(backup).map_err(|e| RestoreRefused::Unreadable(backup.display().to_string(), e.to_string()))?;
    let url = format!("surrealkv://{}", dir.display());
    let opened = |e: surrealdb::Error| StoreError::Open(url.clone(), e.to_string());
    let db = surrealdb::engine::any::connect(url.as_str()).await.map_err(opened)?;
    db.use_ns(NAMESPACE).use_db(DATABASE).await.map_err(opened)?;
    db.import(backup).await.map_err(|e| RestoreRefused::Import(backup.display().to_string(), e.to_string()))?;
    schema::apply(&db, schema::SCHEMA).await?;
    Ok(Store { db })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device_secret;

    async fn clinic(store: &Store) -> (String, String) {
        let company = store.hub_wide().companies().create("Demo Clinic", "1 Main St").await.unwrap();
        store.hub_wide().accounts().create("nurse@clinic.org", "longenough", 2, &company).await.unwrap();
        let device = store.hub_wide().devices().create(&crate::tests::device(&company, "SN-1")).await.unwrap();
        (company, device)
    }

    #[tokio::test]
    async fn a_backup_restored_into_a_new_directory_holds_the_same_rows_and_passwords() {
        let live = Store::memory().await.unwrap();
        let (company, device) = clinic(&live).await;
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("backup.surql");
        live.export_to(&file).await.unwrap();
        // Written after the backup: not in it.
        live.hub_wide().companies().create("Later", "").await.unwrap();

        let restored = restore_embedded(&dir.path().join("db"), &file).await.unwrap();
        let companies = restored.hub_wide().companies().list().await.unwrap();
        assert_eq!(companies.iter().map(|c| c.company_name.as_str()).collect::<Vec<_>>(), ["Demo Clinic"]);
        assert_eq!(companies[0].id, company);
        let devices = restored.hub_wide().devices().list_all().await.unwrap();
        assert_eq!(devices.iter().map(|d| (d.id.as_str(), d.hardware_serial.as_str())).collect::<Vec<_>>(), [(device.as_str(), "SN-1")]);
        assert!(device_secret::verify("s", &devices[0].secret_hash));
        let login = restored.hub_wide().accounts().credentials("nurse@clinic.org").await.unwrap().expect("the user");
        assert!(crate::password::verify("longenough", &login.password_hash));
        // The restored database takes writes and keeps its unique indexes.
        assert!(matches!(restored.hub_wide().companies().create("Demo Clinic", "").await, Err(StoreError::Duplicate(_))));
    }

    #[tokio::test]
    async fn a_restore_never_writes_over_a_database() {
        let live = Store::memory().await.unwrap();
        clinic(&live).await;
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("backup.surql");
        live.export_to(&file).await.unwrap();
        let target = dir.path().join("db");
        drop(restore_embedded(&target, &file).await.unwrap());
        assert!(matches!(restore_embedded(&target, &file).await, Err(RestoreRefused::NotEmpty(_))));
        assert!(matches!(
            restore_embedded(&dir.path().join("other"), &dir.path().join("missing.surql")).await,
            Err(RestoreRefused::Unreadable(..))
        ));
    }
}
