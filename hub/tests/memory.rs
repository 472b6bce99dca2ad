//! Freed password-hashing memory goes back to the system (`malloc_tuning`, used by the hub's `main`): each Argon2
//! check takes a 19 MiB block, and without a fixed mmap threshold glibc kept every freed one
//! resident in a heap arena (the soak's RSS grew 19.5 MiB at every wave of logins).

/// This process's resident set, KiB.
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    status.lines().find_map(|l| l.strip_prefix("VmRSS:")).and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok()).expect("VmRSS")
}

#[test]
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn password_checks_do_not_leave_their_memory_resident() {
    malloc_tuning::return_large_blocks_to_the_system();
    let stored = storage::password::hash("correct horse battery staple").expect("hash");
    let before = rss_kib();
    // Several checks, on this thread and on others (each thread may get its own heap arena).
    for _ in 0..2 {
        assert!(storage::password::verify("correct horse battery staple", &stored));
    }
    let threads: Vec<_> = (0..3)
        .map(|_| {
            let stored = stored.clone();
            std::thread::spawn(move || storage::password::verify("wrong", &stored))
        })
        .collect();
    for thread in threads {
        assert!(!thread.join().expect("thread"));
    }
    let grown = rss_kib().saturating_sub(before);
    assert!(grown < 8 * 1024, "RSS grew {grown} KiB over five password checks (each takes a 19 MiB block)");
}
