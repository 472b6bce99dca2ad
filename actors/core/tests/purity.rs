//! The core stays pure: no runtime, network, web or database crate anywhere in its dependency
//! tree (normal and build dependencies; dev-dependencies such as criterion are for tests only).
//! Its Cargo.toml is the first check; this test catches one arriving through another crate.

use std::process::Command;

/// Crates the pure core must never depend on, directly or not.
const FORBIDDEN: [&str; 5] = ["tokio", "ractor", "quinn", "warp", "surrealdb"];

/// The forbidden crates named in a `cargo tree --prefix none` listing (one `name vX` per line).
fn forbidden_in(tree: &str) -> Vec<String> {
    let mut found: Vec<String> =
        tree.lines().filter_map(|line| line.split_whitespace().next()).filter(|name| FORBIDDEN.contains(name)).map(str::to_owned).collect();
    found.sort();
    found.dedup();
    found
}

#[test]
fn the_matcher_names_a_forbidden_crate_wherever_it_appears() {
    let tree = "mat-core v0.1.0 (/x)\nserde v1.0.0\ntokio v1.48.0\ntokio-util v0.7.0\nsurrealdb v3.3.5\n";
    assert_eq!(forbidden_in(tree), ["surrealdb", "tokio"]);
    assert!(forbidden_in("mat-core v0.1.0 (/x)\nserde v1.0.0\n").is_empty());
}

#[test]
fn mat_core_depends_on_no_runtime_network_or_database_crate() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args(["tree", "--locked", "-p", "mat-core", "-e", "normal,build", "--prefix", "none", "--all-features"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree runs");
    assert!(output.status.success(), "cargo tree failed: {}", String::from_utf8_lossy(&output.stderr));
    let tree = String::from_utf8_lossy(&output.stdout);
    assert!(tree.contains("mat-protocol"), "the listing is mat-core's tree:\n{tree}");
    assert_eq!(forbidden_in(&tree), Vec::<String>::new(), "mat-core must stay pure:\n{tree}");
}
