#!/usr/bin/env bash
# A cluster of N hubs on loopback (issue 25, item 6): nats-server, the SurrealDB server (dbserver),
# N hubs sharing that database, demo data with simulated mats spread over the hubs, and HAProxy in
# front of the hubs' HTTP listeners as the browsers' one address. Prints every address; Ctrl-C
# stops everything it started.
#
#   scripts/cluster.sh [N]          N hubs (default 3)
#
# Environment (all optional):
#   CLUSTER_DIR            where data and logs go (default: a new /tmp/hub-cluster.* removed on exit)
#   CLUSTER_PORT_BASE      ports: NATS BASE+1, database BASE+2, browsers BASE+80, HAProxy statistics
#                          BASE+81, hub K's HTTP BASE+100+K and QUIC (UDP) BASE+200+K (default 18000)
#   CLUSTER_MATS_PER_HUB   simulated mats started on each hub besides the demo's own (default 4)
#   CLUSTER_READY_FILE     once everything is up, the addresses are written there as shell variables
#                          (for tests that drive the cluster)
#   SURREAL_USER/SURREAL_PASS  the database's root user (default root / a random password)
#   CARGO_TARGET_DIR       where the binaries are (default ./target; built if missing)
#   DBSERVER_BIN           a dbserver binary built elsewhere (default: the target's)
#
# How devices and browsers find a live hub (docs/scale-out.md): every hub is started with the
# others' QUIC addresses (--peer-quic), which its welcome gives each device, so a simulated mat
# whose hub dies moves to the next; browsers reach the hubs through HAProxy, which health-checks
# them and sends a browser whose hub died to a live one, where its socket re-joins by itself.
#
# One demo for N hubs: hub-1 alone runs --demo (it seeds the demo company once and runs the demo's
# scripted devices in its own process; they move to another hub when hub-1 is stopped gracefully,
# and die with it when it is killed). The other mats ("CLUSTER-…", Mattress Mat IoT) are registered
# in the demo company before any hub starts (`hub provision`) and run by one simulator process per
# hub, outside the hubs, so killing a hub moves them.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/cluster/haproxy.sh

hubs="${1:-3}"
if ! [[ "$hubs" =~ ^[1-9][0-9]?$ ]]; then
  echo "usage: $0 [N]   (1 to 99 hubs)" >&2
  exit 2
fi
base="${CLUSTER_PORT_BASE:-18000}"
mats_per_hub="${CLUSTER_MATS_PER_HUB:-4}"
target_dir="${CARGO_TARGET_DIR:-$(pwd)/target}"
bin="$target_dir/debug"
dbserver_bin="${DBSERVER_BIN:-$bin/dbserver}"
host=127.0.0.1
nats_port=$((base + 1))
db_port=$((base + 2))
browser_port=$((base + 80))
stats_port=$((base + 81))
http_port() { echo $((base + 100 + $1)); }
quic_port() { echo $((base + 200 + $1)); }

for tool in /usr/sbin/nats-server /usr/sbin/haproxy jq; do
  command -v "$tool" >/dev/null || { echo "$tool is missing (apt-get install nats-server haproxy jq)" >&2; exit 1; }
done
if [ ! -x "$bin/hub" ] || [ ! -x "$bin/simulator" ] || [ ! -x "$dbserver_bin" ]; then
  echo "==> building hub, simulator and dbserver (debug; dbserver is SurrealDB's server, a long first build)"
  cargo build -p hub -p simulator -p dbserver
fi
if [ ! -f client/dist/index.html ]; then
  echo "==> client bundle"
  (cd client && npm run build)
fi

if [ -n "${CLUSTER_DIR:-}" ]; then
  dir="$CLUSTER_DIR"
  mkdir -p "$dir"
  keep_dir=1
else
  dir="$(mktemp -d /tmp/hub-cluster.XXXXXX)"
  keep_dir=0
fi
export SURREAL_USER="${SURREAL_USER:-root}"
export SURREAL_PASS="${SURREAL_PASS:-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')}"
export HUB_DATABASE_USER="$SURREAL_USER" HUB_DATABASE_PASS="$SURREAL_PASS"
database="ws://$host:$db_port"

pids=()
names=()
stopping=0
# Stops what this script started, newest first (HAProxy and simulators before hubs, hubs before
# the database and NATS), each by its own process id.
cleanup() {
  [ "$stopping" = 1 ] && return
  stopping=1
  echo
  echo "==> stopping the cluster"
  local i
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    kill -TERM "${pids[$i]}" 2>/dev/null || true
  done
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    for _ in $(seq 50); do kill -0 "${pids[$i]}" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "${pids[$i]}" 2>/dev/null || true
  done
  if [ "$keep_dir" = 0 ]; then rm -rf "$dir"; else echo "data and logs kept in $dir"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# start NAME LOG COMMAND...: runs a process in the background, remembered for cleanup.
start() {
  local name="$1" log="$2"
  shift 2
  "$@" >"$log" 2>&1 &
  pids+=("$!")
  names+=("$name")
}

wait_tcp() { # NAME HOST PORT
  for _ in $(seq 300); do
    (exec 3<>"/dev/tcp/$2/$3") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "$1 did not listen on $2:$3; see $dir" >&2
  exit 1
}

wait_line() { # NAME LOG PATTERN
  for _ in $(seq 900); do
    grep -q "$3" "$2" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "$1 did not start; the end of $2:" >&2
  tail -20 "$2" >&2
  exit 1
}

echo "==> nats-server on $host:$nats_port (JetStream in $dir/nats)"
start nats "$dir/nats.log" /usr/sbin/nats-server -a "$host" -p "$nats_port" -js -sd "$dir/nats"
wait_tcp nats-server "$host" "$nats_port"

echo "==> SurrealDB server on $host:$db_port (SurrealKV in $dir/db)"
start dbserver "$dir/dbserver.log" "$dbserver_bin" start --bind "$host:$db_port" --log warn --no-banner "surrealkv://$dir/db"
wait_tcp dbserver "$host" "$db_port"

mats=$((hubs * mats_per_hub))
if [ "$mats" -gt 0 ]; then
  echo "==> registering $mats simulated mats in the demo company"
  "$bin/hub" provision --database "$database" --data "$dir/provision" --count "$mats" --prefix CLUSTER --out "$dir/mats.json" >/dev/null
fi

quic_list=""
for k in $(seq "$hubs"); do quic_list+="${quic_list:+,}$host:$(quic_port "$k")"; done
cluster_flags() { # K: the hub's cluster flags
  echo "--nats nats://$host:$nats_port --node hub-$1"
}

start_hub() { # K EXTRA...
  local k="$1"
  shift
  # shellcheck disable=SC2046 # cluster_flags is a list of words
  start "hub-$k" "$dir/hub-$k.log" env HUB_PEERS_QUIC="$quic_list" "$bin/hub" \
    --data "$dir/hub-$k" --database "$database" --client-dir client/dist \
    --http "$host:$(http_port "$k")" --quic "$host:$(quic_port "$k")" $(cluster_flags "$k") "$@"
  wait_line "hub-$k" "$dir/hub-$k.log" 'listening http='
}

echo "==> hub-1 (seeds the demo and runs its scripted devices)"
start_hub 1 --demo
cert="$dir/hub-1/tls/cert.pem"
key="$dir/hub-1/tls/key.pem"
for k in $(seq 2 "$hubs"); do
  echo "==> hub-$k"
  start_hub "$k" --tls-cert "$cert" --tls-key "$key"
done

if [ "$mats" -gt 0 ]; then
  for k in $(seq "$hubs"); do
    jq --argjson n "$hubs" --argjson k "$k" '[to_entries[] | select(.key % $n == $k - 1) | .value]' "$dir/mats.json" >"$dir/mats-hub-$k.json"
    start "mats-$k" "$dir/mats-hub-$k.log" "$bin/simulator" --devices "$dir/mats-hub-$k.json" \
      --hub-quic "$host:$(quic_port "$k")" --ca "$cert" --quiet
  done
fi

servers=()
for k in $(seq "$hubs"); do servers+=("$host:$(http_port "$k")"); done
haproxy_config "$host:$browser_port" "$host:$stats_port" "${servers[@]}" >"$dir/haproxy.cfg"
/usr/sbin/haproxy -c -q -f "$dir/haproxy.cfg"
echo "==> HAProxy on $host:$browser_port"
start haproxy "$dir/haproxy.log" /usr/sbin/haproxy -db -f "$dir/haproxy.cfg"
wait_tcp haproxy "$host" "$browser_port"

echo
echo "cluster of $hubs hub(s) is up; data and logs in $dir"
for i in "${!names[@]}"; do
  name="${names[$i]}"
  case "$name" in
    hub-*)
      k="${name#hub-}"
      echo "  $name  pid ${pids[$i]}  http://$host:$(http_port "$k")/  quic=$host:$(quic_port "$k")  log $dir/$name.log"
      ;;
  esac
done
echo "  nats       nats://$host:$nats_port"
echo "  database   $database (user $SURREAL_USER, password in SURREAL_PASS)"
echo "  mats       $mats simulated, $mats_per_hub started on each hub (and the demo's devices on hub-1)"
echo
echo "browsers: http://$host:$browser_port/   (HAProxy; which hubs are up: http://$host:$stats_port/)"
echo "sign in as demo@example.com / demo1234. Kill a hub (kill -9 PID) and watch its mats and browsers move."
echo "Ctrl-C stops everything."

if [ -n "${CLUSTER_READY_FILE:-}" ]; then
  {
    echo "CLUSTER_DIR=$dir"
    echo "BROWSERS=http://$host:$browser_port"
    echo "STATS=http://$host:$stats_port"
    for i in "${!names[@]}"; do
      case "${names[$i]}" in
        hub-*)
          k="${names[$i]#hub-}"
          echo "HUB_${k}_PID=${pids[$i]}"
          echo "HUB_${k}_HTTP=http://$host:$(http_port "$k")"
          echo "HUB_${k}_QUIC=$host:$(quic_port "$k")"
          ;;
      esac
    done
  } >"$CLUSTER_READY_FILE.tmp"
  mv "$CLUSTER_READY_FILE.tmp" "$CLUSTER_READY_FILE"
fi

# Runs until Ctrl-C; a hub killed on purpose does not end the cluster.
while true; do sleep 1; done
