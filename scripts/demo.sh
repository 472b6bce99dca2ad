#!/usr/bin/env bash
# Builds the client and the release hub, then runs the hub in demo mode on ./data.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "==> client bundle"
(cd client && npm ci --no-audit --no-fund && npm run build)
echo "==> hub (release build; the first one takes 35-50 minutes on 2 cores)"
cargo build --release -p hub
echo "==> starting the hub (Ctrl-C stops it)"
exec ./target/release/hub --demo --data "${HUB_DATA:-./data}" --client-dir client/dist
