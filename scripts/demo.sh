#!/usr/bin/env bash
# Builds the client and the hub, then runs the hub in demo mode on ./data.
#
# The hub is built exactly as `make test` builds it (the dev profile, every workspace target), so a
# first `make demo` on a fresh clone is a debug build (about 10-15 minutes on 2 cores instead of
# 35-50 for the release build) and a `make test` after it compiles nothing again. The dev profile
# runs the demo's few dozen simulated mats comfortably; a hospital's hub is the release build
# (`make release`, README "Running it for real"). docs/decisions.md, "A first demo in 15 minutes".
set -euo pipefail
cd "$(dirname "$0")/.."
target_dir="${CARGO_TARGET_DIR:-$(pwd)/target}"
started=$SECONDS
echo "==> client bundle"
(cd client && npm ci --no-audit --no-fund && npm run build)
echo "==> hub (debug build shared with make test; the first one takes 10-15 minutes on 2 cores)"
cargo test --workspace --all-targets --no-run
echo "==> built in $(( (SECONDS - started) / 60 )) min $(( (SECONDS - started) % 60 )) s; starting the hub (Ctrl-C stops it)"
exec "$target_dir/debug/hub" --demo --data "${HUB_DATA:-./data}" --client-dir client/dist
