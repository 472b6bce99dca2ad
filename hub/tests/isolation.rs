//! Source checks of the HTTP layer's isolation: a handler reaches company data only through its
//! verified caller (`Caller::store`, a `CompanyStore` of the token's company), the hub-wide
//! store handle only where this file's allow-list says why, and the administrator role only
//! through the route table's access check (`http::caller`). The domain layer (`hub/src/domain/`)
//! is outside `http/`: its operations take the handle they may use (a `CompanyStore` or a
//! `HubWide`), so the handler that passes one is where the use shows, and no handler hands the
//! whole store on.
#![allow(clippy::unwrap_used)] // A test's helpers may unwrap: the panic is the failure it reports.

use std::path::{Path, PathBuf};

/// Where the HTTP handlers may use `hub_wide()`: (file under `hub/src/http/`, function, why).
const HUB_WIDE_ALLOWED: &[(&str, &str, &str)] = &[
    ("auth.rs", "login", "sign-in finds the account by e-mail before anyone is known, then reads the company of that account"),
    ("auth.rs", "logout", "revoked token ids are the hub's, not a company's data"),
    ("auth.rs", "signup", "an administrator creates an account in the company the request names (by id or name), which may be another"),
    ("companies.rs", "register", "administrators create companies"),
    ("companies.rs", "list", "administrators list every company (the create-user and create-device popups)"),
    ("companies.rs", "names", "administrators list every company's name"),
    (
        "registration.rs",
        "register",
        "an administrator registers a device in the company the request names (by id or name), which may be another",
    ),
    (
        "ward_screens.rs",
        "pair",
        "a wall screen pairs with a one-time code before anyone is known; the code names the company, whose screens the pairing is stored with",
    ),
    (
        "ward_screens.rs",
        "store_last_seen",
        "a ward screen's last-seen time is written after its request, for the company its verified board token names",
    ),
    (
        "ward_screens.rs",
        "board_session",
        "a board token carries its company's name: read for the pairing route (no caller yet) and renewal",
    ),
    ("browser_ws.rs", "board_scope", "a ward screen's socket reads its unit's devices in the company its verified board token names"),
    (
        "registration.rs",
        "hub_parts",
        "domain::registration writes devices (a hardware serial is unique across the hub), and for registerAll and quickRegistration companies and accounts",
    ),
];

/// Where the HTTP layer may open a company's store handle by id, or compare a role: the access
/// check, and only there.
const CALLER_FILE: &str = "caller.rs";

fn http_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/http")
}

/// Every `.rs` file under `dir`, as (path relative to `dir`, text).
fn sources(dir: &Path) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(next) = pending.pop() {
        for entry in std::fs::read_dir(&next).unwrap_or_else(|e| panic!("{}: {e}", next.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let relative = path.strip_prefix(dir).unwrap().to_string_lossy().replace('\\', "/");
                found.push((relative, std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    found.sort();
    assert!(found.len() > 10, "the HTTP sources were not found under {}", dir.display());
    found
}

/// The code lines (comments left out) containing `needle`, each with the name of the function
/// it is in (the nearest `fn` above it).
fn uses<'a>(text: &'a str, needle: &str) -> Vec<(usize, String, &'a str)> {
    let mut function = String::new();
    let mut found = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        }
        if let Some(index) = code.find("fn ").filter(|&index| index == 0 || code[..index].ends_with(' ')) {
            let name: String = code[index + 3..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if !name.is_empty() {
                function = name;
            }
        }
        if code.contains(needle) {
            found.push((number + 1, function.clone(), line));
        }
    }
    found
}

#[test]
fn handlers_use_the_hub_wide_store_only_where_allowed() {
    let mut used = vec![false; HUB_WIDE_ALLOWED.len()];
    let mut refused = Vec::new();
    for (file, text) in sources(&http_dir()) {
        for (line, function, code) in uses(&text, "hub_wide") {
            match HUB_WIDE_ALLOWED.iter().position(|(f, name, _)| *f == file && *name == function) {
                Some(index) => used[index] = true,
                None => refused.push(format!("hub/src/http/{file}:{line} (fn {function}): {}", code.trim())),
            }
        }
    }
    assert!(
        refused.is_empty(),
        "company data goes through the caller's store (`call.store()`); hub-wide queries only where HUB_WIDE_ALLOWED says why:\n{}",
        refused.join("\n")
    );
    let stale: Vec<String> = HUB_WIDE_ALLOWED
        .iter()
        .zip(&used)
        .filter(|(_, used)| !**used)
        .map(|((file, function, _), _)| format!("{file} fn {function}"))
        .collect();
    assert!(stale.is_empty(), "allowed but no longer used (remove them from HUB_WIDE_ALLOWED): {stale:?}");
}

#[test]
fn only_the_access_check_opens_a_company_store_or_compares_roles() {
    let mut refused = Vec::new();
    for (file, text) in sources(&http_dir()) {
        if file == CALLER_FILE {
            continue;
        }
        for needle in ["store.company(", "ROLE_ADMIN"] {
            for (line, function, code) in uses(&text, needle) {
                refused.push(format!("hub/src/http/{file}:{line} (fn {function}): {}", code.trim()));
            }
        }
    }
    assert!(
        refused.is_empty(),
        "handlers reach their company through the verified caller (`call.store()`, `call.device(..)`) and get administrators from the route table (`Admin`):\n{}",
        refused.join("\n")
    );
}

#[test]
fn the_access_check_is_where_the_allow_list_says() {
    let caller = std::fs::read_to_string(http_dir().join(CALLER_FILE)).unwrap();
    assert_eq!(uses(&caller, "store.company(").len(), 1, "one door: Caller::store");
    assert_eq!(uses(&caller, "store.company(")[0].1, "store");
    assert!(uses(&caller, "hub_wide").is_empty());
}

#[test]
fn handlers_never_hand_the_whole_store_on() {
    // Whitespace removed, so a chain split over lines (`call\n.state\n.store`) is read whole.
    let mut refused = Vec::new();
    for (file, text) in sources(&http_dir()) {
        if file == CALLER_FILE {
            continue;
        }
        let code: String =
            text.lines().filter(|line| !line.trim_start().starts_with("//")).flat_map(str::chars).filter(|c| !c.is_whitespace()).collect();
        for (index, _) in code.match_indices("state.store") {
            let rest = &code[index + "state.store".len()..];
            if !rest.starts_with(".hub_wide()") {
                refused.push(format!("hub/src/http/{file}: state.store{}", rest.chars().take(40).collect::<String>()));
            }
        }
    }
    assert!(
        refused.is_empty(),
        "a handler passes its caller's store (`call.store()`) or a hub-wide handle (`hub_wide()`, allow-listed) to the domain, never the whole `Store`:\n{}",
        refused.join("\n")
    );
}
