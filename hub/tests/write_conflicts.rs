//! Simultaneous writes to one record: two administrators saving the company's branding at the
//! same moment met SurrealDB's retryable "transaction conflict", answered 500. Storage now runs
//! such a write again (`storage::retry`); every save answers 200 and the last one is kept.

mod common;

use common::*;
use serde_json::json;
use storage::Store;

const ADMIN_EMAIL: &str = "admin-conflicts@a.example.com";
const WRITERS: usize = 12;
const ROUNDS: usize = 4;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn simultaneous_saves_of_one_company_never_answer_500() {
    let data = tempfile::tempdir().unwrap();
    // The embedded engine the hub runs on (SurrealKV), where the conflict was seen.
    let store = Store::open_dir(&data.path().join("db")).await.unwrap();
    let (company_id, email, devices) = seed_company(&store, "A", &["Mattress Mat IoT"]).await;
    store.hub_wide().accounts().create(ADMIN_EMAIL, PASSWORD, hub::auth::roles::ROLE_ADMIN, &company_id).await.unwrap();
    let running = hub::app::start_with_store(config(data.path()), store).await.unwrap();
    let hub = TestHub { hub: running, company_id, email, devices, _data: data };
    let admin = login(hub.http(), ADMIN_EMAIL, PASSWORD).await;

    for round in 0..ROUNDS {
        let saves = (0..WRITERS).map(|writer| {
            let (addr, admin) = (hub.http(), admin.clone());
            let body = json!({ "companyName": format!("Clinic {round}-{writer}"), "address": format!("Street {writer}") }).to_string();
            tokio::spawn(async move { request(addr, "PUT", "/api/companyUser", Some(&admin), Some(&body)).await })
        });
        for save in futures_util::future::join_all(saves).await {
            let response = save.unwrap();
            assert_eq!(response.status, 200, "round {round}: {}", response.body);
        }
    }
    let company = get_json(&hub, &admin, "/api/companyUser").await;
    let name = company[0]["companyName"].as_str().unwrap_or_default().to_owned();
    assert!(name.starts_with(&format!("Clinic {}-", ROUNDS - 1)), "one of the last round's saves is kept: {name}");
    hub.hub.shutdown().await;
}
