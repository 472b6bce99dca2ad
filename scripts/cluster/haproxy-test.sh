#!/usr/bin/env bash
# Checks the HAProxy configuration of scripts/cluster/haproxy.sh against two real hubs (each on its
# own embedded store: what is tested is HAProxy, not shared storage): the configuration is valid,
# REST and a WebSocket upgrade (/ws) pass through the one address, a hub killed with SIGKILL is
# marked down by the health checks within 4 s while every request still succeeds on the other, and
# a hub started again is taken back. Exits non-zero on the first failure.
#
#   scripts/cluster/haproxy-test.sh        (needs target/debug/hub, /usr/sbin/haproxy, curl)
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/cluster/haproxy.sh
hub_bin="${CARGO_TARGET_DIR:-$(pwd)/target}/debug/hub"
[ -x "$hub_bin" ] || { echo "build the hub first: cargo build -p hub" >&2; exit 1; }
base="${HAPROXY_TEST_PORT_BASE:-19000}"
dir="$(mktemp -d /tmp/haproxy-test.XXXXXX)"
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  rm -rf "$dir"
}
trap cleanup EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok - $*"; }

start_hub() { # K: starts hub K, sets hub_pid
  "$hub_bin" --data "$dir/hub-$1" --database mem:// --client-dir "$dir/none" \
    --http "127.0.0.1:$((base + 10 + $1))" --quic "127.0.0.1:$((base + 20 + $1))" >"$dir/hub-$1.log" 2>&1 &
  hub_pid=$!
  pids+=("$hub_pid")
  for _ in $(seq 300); do grep -q 'listening http=' "$dir/hub-$1.log" && return 0; sleep 0.1; done
  fail "hub-$1 did not start: $(tail -5 "$dir/hub-$1.log")"
}

# The state HAProxy's statistics give hub K: UP, DOWN, …
server_status() {
  curl -s "http://127.0.0.1:$((base + 2))/;csv" | awk -F, -v s="hub-$1" '$1 == "hubs" && $2 == s { print $18 }'
}

wait_status() { # K STATUS SECONDS
  local i
  for ((i = 0; i < $3 * 10; i++)); do
    [ "$(server_status "$1")" = "$2" ] && return 0
    sleep 0.1
  done
  fail "hub-$1 is $(server_status "$1"), not $2, after $3 s"
}

start_hub 1
hub1=$hub_pid
start_hub 2
haproxy_config "127.0.0.1:$((base + 1))" "127.0.0.1:$((base + 2))" "127.0.0.1:$((base + 11))" "127.0.0.1:$((base + 12))" >"$dir/haproxy.cfg"
/usr/sbin/haproxy -c -q -f "$dir/haproxy.cfg" || fail "haproxy -c refuses the configuration"
ok "haproxy -c accepts the generated configuration"
/usr/sbin/haproxy -db -f "$dir/haproxy.cfg" >"$dir/haproxy.log" 2>&1 &
pids+=("$!")
wait_status 1 UP 5
wait_status 2 UP 5
ok "both hubs pass the health check"

browsers="http://127.0.0.1:$((base + 1))"
code=$(curl -s -o /dev/null -w '%{http_code}' "$browsers/api/deviceTypes")
[ "$code" = 401 ] || [ "$code" = 200 ] || fail "REST through HAProxy answered $code"
ok "REST through the one address (GET /api/deviceTypes: $code from a hub)"
upgrade=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 -H 'Connection: Upgrade' -H 'Upgrade: websocket' \
  -H 'Sec-WebSocket-Version: 13' -H 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==' "$browsers/ws" || true)
[ "$upgrade" = 101 ] || fail "the browser socket's upgrade through HAProxy answered $upgrade"
ok "the browser socket /ws upgrades through HAProxy (101)"

kill -KILL "$hub1"
killed_at=$SECONDS
wait "$hub1" 2>/dev/null || true
failures=0
for _ in $(seq 20); do
  code=$(curl -s -o /dev/null -w '%{http_code}' "$browsers/api/deviceTypes" || true)
  [ "$code" = 401 ] || [ "$code" = 200 ] || failures=$((failures + 1))
  sleep 0.1
done
[ "$failures" = 0 ] || fail "$failures of 20 requests failed while hub-1 was dying"
ok "every request right after hub-1's SIGKILL succeeded (retried on hub-2)"
wait_status 1 DOWN 4
ok "hub-1 marked DOWN within $((SECONDS - killed_at + 1)) s of its SIGKILL; hub-2 $(server_status 2)"

start_hub 1
wait_status 1 UP 5
ok "hub-1 started again is taken back"
echo "PASS haproxy-test"
