//! The one allocator setting the hub needs on glibc.
//!
//! glibc serves blocks above its mmap threshold (128 KiB at start) with their own mapping, so
//! freeing one gives the memory back. But each time such a block is freed it raises the threshold
//! to that block's size (up to 32 MiB). After the first login, the 19 MiB block of every Argon2
//! password check therefore came from a thread's heap arena, and freed it stayed resident: the
//! soak saw the hub's RSS grow by 19.5 MiB at every wave of logins, one arena after another
//! (docs/reliability.md §3). A fixed threshold keeps blocks of 1 MiB and more in their own
//! mappings for good.

/// Blocks of this size and more get their own mapping, returned to the system when freed.
pub const MMAP_THRESHOLD_BYTES: usize = 1 << 20;

/// Fixes glibc's mmap threshold at [`MMAP_THRESHOLD_BYTES`] (a no-op with other C libraries).
/// Call once, at the start of `main`.
pub fn return_large_blocks_to_the_system() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let threshold = libc::c_int::try_from(MMAP_THRESHOLD_BYTES).unwrap_or(libc::c_int::MAX);
        // SAFETY: mallopt only changes a malloc parameter; it is called before the hub starts
        // its threads, and any value is valid for M_MMAP_THRESHOLD (glibc refuses, with 0,
        // values above 32 MiB).
        let accepted = unsafe { libc::mallopt(libc::M_MMAP_THRESHOLD, threshold) };
        if accepted == 0 {
            eprintln!("warning: glibc refused the mmap threshold; freed large blocks may stay resident");
        }
    }
}
