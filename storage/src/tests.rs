//! Repository tests on a real in-memory SurrealDB.

use crate::model::{NewDevice, StatusUpdate};
use crate::{device_secret, password, Store, StoreError};

async fn store_with_company() -> (Store, String) {
    let store = Store::memory().await.unwrap();
    let company = store.companies().create("Demo Clinic", "1 Main St").await.unwrap();
    (store, company)
}

fn device(company: &str, serial: &str) -> NewDevice {
    NewDevice {
        name: format!("Mat {serial}"),
        device_type: "Mattress Mat IoT".into(),
        hardware_serial: serial.into(),
        company_id: company.into(),
        number_of_subdevices: 2,
        secret_hash: device_secret::hash("s"),
        ..NewDevice::default()
    }
}

#[tokio::test]
async fn companies_have_spec_defaults_and_a_name_limit() {
    let (store, id) = store_with_company().await;
    let company = store.companies().get(&id).await.unwrap().unwrap();
    assert_eq!(company.page_color, "#f5f5f5");
    assert_eq!(company.layout_number, 2);
    assert!(store.companies().create(&"x".repeat(25), "").await.is_ok());
    assert!(matches!(store.companies().create(&"y".repeat(26), "").await, Err(StoreError::Invalid(_) | StoreError::Database(_))));
    assert!(store.companies().create("z", &"a".repeat(201)).await.is_err(), "address at most 200");
}

#[tokio::test]
async fn users_store_argon2_hashes_and_unique_emails() {
    let (store, company) = store_with_company().await;
    store.users().create("Demo@Example.com", "demo1234", 2, &company).await.unwrap();
    let creds = store.users().credentials("demo@example.com").await.unwrap().unwrap();
    assert_eq!(creds.company_id, company);
    assert_eq!(creds.role, 2);
    assert!(password::verify("demo1234", &creds.password_hash));
    assert!(!creds.password_hash.contains("demo1234"));
    assert!(matches!(store.users().create("demo@example.com", "other1", 2, &company).await, Err(StoreError::Duplicate(_))));
    assert!(store.users().create("not-an-email", "secret1", 2, &company).await.is_err());
}

#[tokio::test]
async fn devices_are_scoped_to_their_company_and_serials_are_unique() {
    let (store, a) = store_with_company().await;
    let b = store.companies().create("Other", "").await.unwrap();
    let id = store.devices().create(&device(&a, "MAT-1")).await.unwrap();
    store.devices().create(&device(&b, "MAT-2")).await.unwrap();
    let listed = store.devices().list_company(&a).await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].id, id);
    assert_eq!(listed[0].company_id, a);
    assert!(matches!(store.devices().create(&device(&b, "MAT-1")).await, Err(StoreError::Duplicate(_))));
    // Another company cannot change the device's secret.
    assert!(matches!(store.devices().set_secret_hash(&id, &b, "x").await, Err(StoreError::NotFound)));
    store.devices().set_secret_hash(&id, &a, "y").await.unwrap();
    assert_eq!(store.devices().by_serial("MAT-1").await.unwrap().unwrap().secret_hash, "y");
}

#[tokio::test]
async fn members_record_their_parent_and_index() {
    let (store, a) = store_with_company().await;
    let horse = store.devices().create(&NewDevice { device_type: "Sensing Horse".into(), secret_hash: String::new(), ..device(&a, "H") }).await.unwrap();
    let left = store.devices().create(&device(&a, "H-L")).await.unwrap();
    let right = store.devices().create(&device(&a, "H-R")).await.unwrap();
    store.devices().set_members(&horse, &[left.clone(), right.clone()], &a).await.unwrap();
    let all = store.devices().list_all().await.unwrap();
    let find = |id: &str| all.iter().find(|d| d.id == id).unwrap().clone();
    assert_eq!(find(&horse).member_ids, vec![left.clone(), right.clone()]);
    assert_eq!(find(&right).parent_id.as_deref(), Some(horse.as_str()));
    assert_eq!(find(&right).member_index, Some(1));
    assert_eq!(find(&left).member_index, Some(0));
    assert_eq!(find(&horse).parent_id, None);
}

#[tokio::test]
async fn statuses_are_saved_in_batches_and_checked() {
    let (store, a) = store_with_company().await;
    let id = store.devices().create(&device(&a, "MAT-1")).await.unwrap();
    let confs = store.device_confs().list_company(&a).await.unwrap();
    assert_eq!((confs[0].device_functional, confs[0].patient_status.as_str()), (false, "Correct"));
    let update = StatusUpdate { device_id: id.clone(), device_functional: true, patient_status: "Missing".into() };
    store.device_confs().save_statuses(&[update]).await.unwrap();
    let confs = store.device_confs().list_company(&a).await.unwrap();
    assert_eq!((confs[0].device_functional, confs[0].patient_status.as_str()), (true, "Missing"));
    let bad = StatusUpdate { device_id: id, device_functional: true, patient_status: "Asleep".into() };
    assert!(store.device_confs().save_statuses(&[bad]).await.is_err(), "patient status must be one of the spec's five");
}

#[tokio::test]
async fn settings_initialise_once() {
    let store = Store::memory().await.unwrap();
    let first = store.settings().get_or_init("token_key", || "k1".into()).await.unwrap();
    let second = store.settings().get_or_init("token_key", || "k2".into()).await.unwrap();
    assert_eq!((first.as_str(), second.as_str()), ("k1", "k1"));
}

#[tokio::test]
async fn an_embedded_store_keeps_data_across_reopen() {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = Store::open_dir(dir.path()).await.unwrap();
        store.companies().create("Durable", "").await.unwrap();
    }
    // The engine releases its lock asynchronously once the last handle is gone.
    let mut reopened = None;
    for _ in 0..100 {
        match Store::open_dir(dir.path()).await {
            Ok(store) => {
                reopened = Some(store);
                break;
            }
            Err(_) => tokio::time::sleep(std::time::Duration::from_millis(50)).await,
        }
    }
    let store = reopened.expect("the store reopens once the first handle has shut down");
    assert!(store.companies().find_by_name("Durable").await.unwrap().is_some());
}
