#!/usr/bin/env bash
# The capacity sweep of docs/performance.md on release builds: the hub (QUIC and WebSocket ingest)
# and Mosquitto (plain and TLS) from 250 mats upward until each one's knee, the hub or broker
# pinned to core 0 and the load generator to core 1. Run it on a quiet machine.
#
#   scripts/loadtest-sweep.sh [OUT.json] [extra loadtests sweep arguments…]
#
# Writes OUT.json (default docs/loadtests/<date>-sweep.json) and the plot next to it (.svg).
set -euo pipefail
cd "$(dirname "$0")/.."
target_dir="${CARGO_TARGET_DIR:-$(pwd)/target}"
out="${1:-docs/loadtests/$(date +%F)-sweep.json}"
shift || true

if [ ! -x /usr/sbin/mosquitto ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mosquitto >/dev/null
  else
    echo "mosquitto is missing: run 'sudo apt-get install -y mosquitto' (Debian) and try again" >&2
    exit 1
  fi
fi
command -v taskset >/dev/null || { echo "taskset (util-linux) is needed for pinning" >&2; exit 1; }

nice -n 10 cargo build --release -p hub -p loadtests
mkdir -p "$(dirname "$out")"
"$target_dir/release/loadtests" sweep --hub-bin "$target_dir/release/hub" \
  --targets hub-quic,hub-ws,mosquitto,mosquitto-tls --from 250 --step 250 --max 5000 \
  --mats-per-viewer 10 --rate 10 --warmup 10s --duration 30s --ramp 5s --quiet \
  --json "$out" "$@"
