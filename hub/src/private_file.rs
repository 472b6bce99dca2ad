//! Writing files only the hub's user may read (TLS keys, device secrets).

use std::path::Path;

use anyhow::Context;

/// Creates or truncates `path` with mode 0600 on Unix and writes `bytes`.
pub fn write_private(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path).and_then(|mut f| f.write_all(bytes)).with_context(|| format!("writing {}", path.display()))
}
