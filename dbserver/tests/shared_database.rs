//! Hubs sharing one SurrealDB server (issue 25, item 1): the project's `dbserver` on loopback,
//! hubs in this process started with `--database ws://127.0.0.1:PORT`.

mod support;

use serde_json::json;
use support::*;

/// What one hub writes through its REST API another hub on the same server reads through its
/// own, with a token the first one issued (the token key is shared too).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_hubs_on_one_server_share_their_data() {
    let server = DbServer::start().await;
    let email = seed_admin(&server.store().await, "Shared").await;
    let url = server.url();
    let (a, b) = tokio::join!(Hub::start(&url), Hub::start(&url));
    let (a, b) = (a.unwrap(), b.unwrap());

    let token = login(a.http(), &email).await;
    let body = json!({ "companyName": "Clinic Shared 2", "address": "1 Harbour Street" }).to_string();
    let saved = request(a.http(), "PUT", "/api/companyUser", Some(&token), Some(&body)).await;
    assert_eq!(saved.status, 200, "{}", saved.body);

    let read = request(b.http(), "GET", "/api/companyUser", Some(&token), None).await;
    assert_eq!(read.status, 200, "hub B accepts hub A's token: {}", read.body);
    let company = &read.json::<serde_json::Value>()[0];
    assert_eq!((company["companyName"].as_str(), company["address"].as_str()), (Some("Clinic Shared 2"), Some("1 Harbour Street")));

    a.stop().await;
    b.stop().await;
}

/// Several hubs starting at the same moment against an empty server: every one starts, and the
/// schema is whole (a value it refuses is refused, a unique index holds).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn hubs_starting_together_on_an_empty_server_apply_the_schema_once() {
    let server = DbServer::start().await;
    let url = server.url();
    let starts = (0..4).map(|_| Hub::start(&url));
    let hubs: Vec<Hub> = futures_util::future::join_all(starts).await.into_iter().map(|hub| hub.expect("every hub starts")).collect();

    let store = server.store().await;
    let fingerprint = storage::schema::fingerprint(storage::schema::SCHEMA);
    assert_eq!(store.hub_wide().schema_fingerprint().await.as_deref(), Some(fingerprint.as_str()));
    let company = store.hub_wide().companies().create("Clinic Schema", "").await.unwrap();
    assert!(store.hub_wide().companies().create("", "").await.is_err(), "the company name's assertion is defined");
    assert!(store.hub_wide().companies().create("Clinic Schema", "").await.is_err(), "the unique name index is defined");
    assert!(store.hub_wide().accounts().create("not-an-email", PASSWORD, 2, &company).await.is_err(), "the e-mail assertion is defined");

    for hub in hubs {
        hub.stop().await;
    }
}

/// Stores opening the empty server at the same moment, more of them than hubs usually are:
/// none fails, whichever commits first applies the schema and the others find it.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn stores_opening_an_empty_server_together_all_succeed() {
    let server = DbServer::start().await;
    let credentials = DbServer::credentials();
    let url = server.url();
    let opens = (0..8).map(|_| storage::Store::connect(&url, Some(&credentials)));
    for opened in futures_util::future::join_all(opens).await {
        opened.expect("every store opens");
    }
}

/// Administrators saving their company's branding at the same moment on two hubs of one server:
/// every save answers 200 (a conflict is retried in storage), never 500.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn simultaneous_saves_through_two_hubs_never_answer_500() {
    const WRITERS: usize = 12;
    const ROUNDS: usize = 3;
    let server = DbServer::start().await;
    let email = seed_admin(&server.store().await, "Busy").await;
    let url = server.url();
    let (a, b) = tokio::join!(Hub::start(&url), Hub::start(&url));
    let (a, b) = (a.unwrap(), b.unwrap());
    let token = login(a.http(), &email).await;

    for round in 0..ROUNDS {
        let saves = (0..WRITERS).map(|writer| {
            let addr = if writer % 2 == 0 { a.http() } else { b.http() };
            let token = token.clone();
            let body = json!({ "companyName": format!("Busy {round}-{writer}"), "address": format!("Street {writer}") }).to_string();
            tokio::spawn(async move { request(addr, "PUT", "/api/companyUser", Some(&token), Some(&body)).await })
        });
        for save in futures_util::future::join_all(saves).await {
            let response = save.unwrap();
            assert_eq!(response.status, 200, "round {round}: {}", response.body);
        }
    }
    let company = request(b.http(), "GET", "/api/companyUser", Some(&token), None).await.json::<serde_json::Value>();
    let name = company[0]["companyName"].as_str().unwrap_or_default().to_owned();
    assert!(name.starts_with(&format!("Busy {}-", ROUNDS - 1)), "one of the last round's saves is kept: {name}");

    a.stop().await;
    b.stop().await;
}

/// The hub refuses to start on a server without credentials rather than failing later.
#[tokio::test]
async fn a_server_url_without_credentials_is_refused_at_start() {
    let data = tempfile::tempdir().unwrap();
    let mut config = hub_config(data.path(), "ws://127.0.0.1:9");
    config.database_credentials = None;
    let error = hub::app::start(config).await.err().expect("no start without credentials");
    assert!(format!("{error:#}").contains("HUB_DATABASE_USER"), "{error:#}");
}

/// The database server killed and started again while a hub writes: the writes wait for it
/// (storage's retries, the client's reconnection) and every one is answered 201 and kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn writes_during_a_server_restart_wait_and_none_is_lost() {
    const WRITES: usize = 30;
    // The hub's warnings and errors, shown when the test fails (what a refused write met).
    let _ = tracing_subscriber::fmt().with_env_filter("warn").with_test_writer().try_init();
    let mut server = DbServer::start().await;
    let email = seed_admin(&server.store().await, "Restart").await;
    let hub = Hub::start(&server.url()).await.unwrap();
    let addr = hub.http();
    let signed_in =
        request(addr, "POST", "/api/auth/login", None, Some(&json!({ "email": email, "password": PASSWORD }).to_string())).await;
    let (token, user_id) = (
        signed_in.json::<serde_json::Value>()["token"].as_str().unwrap().to_owned(),
        signed_in.json::<serde_json::Value>()["userId"].as_str().unwrap().to_owned(),
    );
    let patients = format!("/api/podometry/patients/{user_id}");

    let writer = {
        let (token, patients) = (token.clone(), patients.clone());
        tokio::spawn(async move {
            let mut answers = Vec::new();
            for i in 0..WRITES {
                let body = json!({ "name": format!("Restart patient {i}"), "weight": 70, "height": 170, "agreeDataTreatment": true });
                let started = std::time::Instant::now();
                let response = request(addr, "POST", &patients, Some(&token), Some(&body.to_string())).await;
                answers.push((i, response.status, response.body, started.elapsed()));
                tokio::time::sleep(std::time::Duration::from_millis(40)).await;
            }
            answers
        })
    };
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    server.kill();
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    server.restart().await;
    let answers = writer.await.unwrap();

    let waited = answers.iter().map(|(_, _, _, took)| *took).max().unwrap_or_default();
    // Writes wait for the server and are retried. A read on a request's way (the caller's
    // account, say) is not retried yet (docs/scale-out.md): one that meets the restart answers
    // 503 busy with Retry-After, never 500, and writes nothing.
    for (i, status, body, _) in &answers {
        assert!(*status == 201 || (*status == 503 && body.contains("\"busy\"")), "write {i}: {status} {body}");
    }
    let created = answers.iter().filter(|(_, status, _, _)| *status == 201).count();
    assert!(created >= WRITES - 3, "only {created} of {WRITES} writes waited for the server: {answers:?}");
    assert!(waited >= std::time::Duration::from_secs(1), "some write waited for the server: the longest took {waited:?}");
    let listed = request(addr, "GET", &patients, Some(&token), None).await;
    assert_eq!(listed.status, 200, "{}", listed.body);
    let names: Vec<String> =
        listed.json::<serde_json::Value>().as_array().unwrap().iter().filter_map(|p| p["name"].as_str().map(str::to_owned)).collect();
    for (i, _, _, _) in answers.iter().filter(|(_, status, _, _)| *status == 201) {
        assert!(names.contains(&format!("Restart patient {i}")), "patient {i} was kept: {names:?}");
    }
    hub.stop().await;
}
