#!/usr/bin/env bash
# Soak: the hub under steady load for a long time, watched for growth.
#
# Starts the hub (demo company, no simulators of its own) on a fresh data directory with SOAK_MATS
# provisioned mats, then drives it with `loadtests run` in attach mode: the fleet is split in two
# halves, each run in back-to-back cycles of SOAK_CYCLE seconds, the second half offset by half a
# cycle. At every cycle boundary that half's devices disconnect and reconnect and its viewers leave
# and join again, while the other half keeps streaming, so the hub always carries load and always
# sees churn. Every SOAK_SAMPLE seconds the hub's RSS and open file descriptors (from /proc) and
# its frame counters (from /metrics) are appended to samples.csv. At the end: summary.json, an SVG
# plot (RSS and descriptors over time) and a verdict against the bounds below (exit 1 on fail).
#
# Environment (defaults: the one-hour run of issue 14):
#   SOAK_DURATION  3600   seconds of load
#   SOAK_MATS      500    simulated mats (QUIC)
#   SOAK_RATE      10     frames per second per mat
#   SOAK_VIEWERS   50     browser sessions (half per fleet half)
#   SOAK_CYCLE     300    seconds per loadtests cycle (each half reconnects this often)
#   SOAK_SAMPLE    60     seconds between samples
#   SOAK_WARMUP    SOAK_SAMPLE  seconds excluded from the growth verdict
#   SOAK_RSS_GROWTH_PCT 10 and SOAK_RSS_GROWTH_MIB 16: the second half's peak RSS may exceed the
#                  first half's peak (after warm-up) by at most this percentage plus this many MiB
#   SOAK_FD_GROWTH 8      ... and its peak descriptor count by at most this many
#   SOAK_OUT       artifacts/soak/<UTC time>   where the results go
#   HUB_BIN, LOADTESTS_BIN  the binaries (default: target/release, else target/debug, under
#                  CARGO_TARGET_DIR or ./target)
#   SOAK_NICE      0      nice level for the hub and the generators (use 10 on a shared machine)
# The hub is pinned to CPU 0 and the generators to CPU 1 when `taskset` exists and there are two
# CPUs or more. Frames lost at the hub = hub_frames_dropped_ingest_total increase + (received −
# processed) once the generators have stopped; the verdict requires 0.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${SOAK_DURATION:-3600}
MATS=${SOAK_MATS:-500}
RATE=${SOAK_RATE:-10}
VIEWERS=${SOAK_VIEWERS:-50}
CYCLE=${SOAK_CYCLE:-300}
SAMPLE=${SOAK_SAMPLE:-60}
WARMUP=${SOAK_WARMUP:-$SAMPLE}
NICE=${SOAK_NICE:-0}
OUT=${SOAK_OUT:-artifacts/soak/$(date -u +%Y%m%dT%H%M%SZ)}
TARGET=${CARGO_TARGET_DIR:-target}
pick() { for b in "$TARGET/release/$1" "$TARGET/debug/$1"; do [ -x "$b" ] && { echo "$b"; return; }; done; echo "no $1 binary under $TARGET (cargo build -p $1)" >&2; exit 2; }
HUB_BIN=${HUB_BIN:-$(pick hub)}
LOADTESTS_BIN=${LOADTESTS_BIN:-$(pick loadtests)}

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
DATA=$(mktemp -d -t hub-soak-XXXXXX)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  [ -n "${HUB_PID:-}" ] && kill "$HUB_PID" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$DATA"
}
trap cleanup EXIT

HUB_CPU=() GEN_CPU=()
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then HUB_CPU=(taskset -c 0); GEN_CPU=(taskset -c 1); fi
NICED=(nice -n "$NICE")

echo "soak: ${DURATION}s, $MATS mats x $RATE Hz, $VIEWERS viewers, cycles of ${CYCLE}s, samples every ${SAMPLE}s -> $OUT"
echo "soak: hub $HUB_BIN ${HUB_CPU[*]:-(not pinned)}, generators $LOADTESTS_BIN ${GEN_CPU[*]:-(not pinned)}"
"$HUB_BIN" provision --data "$DATA" --count "$MATS" --device-type "Mattress Mat IoT" --prefix SOAK --out "$DATA/devices.json" >/dev/null
jq '[.[] | select((.serial | ltrimstr("SOAK-") | tonumber) % 2 == 1)]' "$DATA/devices.json" >"$DATA/half-a.json"
jq '[.[] | select((.serial | ltrimstr("SOAK-") | tonumber) % 2 == 0)]' "$DATA/devices.json" >"$DATA/half-b.json"

HUB_LOG=warn "${NICED[@]}" "${HUB_CPU[@]}" "$HUB_BIN" --demo --no-simulators --data "$DATA" --http 127.0.0.1:0 --quic 127.0.0.1:0 \
  --client-dir "$DATA/no-client" >"$DATA/hub.stdout" 2>"$OUT/hub.log" &
HUB_PID=$!
for _ in $(seq 600); do grep -q '^listening ' "$DATA/hub.stdout" 2>/dev/null && break; sleep 0.1; done
LISTENING=$(grep -m1 '^listening ' "$DATA/hub.stdout") || { echo "the hub did not start; see $OUT/hub.log" >&2; exit 2; }
HTTP=$(sed -E 's/.*http=([^ ]+).*/\1/' <<<"$LISTENING")
QUIC=$(sed -E 's/.*quic=([^ ]+).*/\1/' <<<"$LISTENING")
CERT=$(sed -E 's/.*cert=([^ ]+).*/\1/' <<<"$LISTENING")
echo "soak: hub pid $HUB_PID at $HTTP, QUIC $QUIC"

metric() { awk -v name="$1" '$1 == name { print $2 }' <<<"$2"; }
START=$(date +%s)
echo "elapsed_s,rss_kib,fds,threads,devices_connected,sessions_connected,frames_received,frames_processed,frames_dropped_ingest,frames_delivered" >"$OUT/samples.csv"
sample() {
  local m rss fds threads
  m=$(curl -sf "$HTTP/metrics" || true)
  rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$HUB_PID/status")
  threads=$(awk '/^Threads:/ { print $2 }' "/proc/$HUB_PID/status")
  fds=$(find "/proc/$HUB_PID/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
  echo "$(( $(date +%s) - START )),$rss,$fds,$threads,$(metric hub_devices_connected "$m"),$(metric hub_sessions_connected "$m"),$(metric hub_frames_received_total "$m"),$(metric hub_frames_processed_total "$m"),$(metric hub_frames_dropped_ingest_total "$m"),$(metric hub_frames_delivered_total "$m")" >>"$OUT/samples.csv"
}

# One half of the fleet: back-to-back loadtests cycles until the end of the soak.
fleet() {
  local half=$1 offset=$2 n=0 left now
  sleep "$offset"
  while :; do
    now=$(date +%s); left=$(( START + DURATION - now ))
    [ "$left" -le 5 ] && break
    n=$((n + 1))
    local window=$(( (left < CYCLE ? left : CYCLE) - 5 ))
    [ "$window" -lt 1 ] && window=1
    "${NICED[@]}" "${GEN_CPU[@]}" "$LOADTESTS_BIN" run --hub-url "$HTTP" --hub-quic "$QUIC" --ca "$CERT" --devices "$DATA/half-$half.json" \
      --hub-pid "$HUB_PID" --mats "$(jq length "$DATA/half-$half.json")" --rate "$RATE" --viewers $(( VIEWERS / 2 )) \
      --warmup 5s --duration "${window}s" --ramp 2s --quiet --json "$OUT/cycle-$half-$n.json" >>"$OUT/loadtests-$half.log" 2>&1 \
      || echo "cycle $half-$n failed (see loadtests-$half.log)" >>"$OUT/loadtests-$half.log"
  done
}
fleet a 0 & PIDS+=($!)
fleet b $(( CYCLE / 2 )) & PIDS+=($!)

sample
while [ $(( $(date +%s) - START )) -lt "$DURATION" ]; do
  sleep "$SAMPLE"
  kill -0 "$HUB_PID" 2>/dev/null || { echo "the hub died; see $OUT/hub.log" >&2; break; }
  sample
  tail -n1 "$OUT/samples.csv"
done
for pid in "${PIDS[@]}"; do wait "$pid" || true; done
PIDS=()
sleep 2
kill -0 "$HUB_PID" 2>/dev/null && sample
echo "soak: load stopped; final sample taken"

python3 scripts/soak_report.py "$OUT" --warmup "$WARMUP" --rss-growth-pct "${SOAK_RSS_GROWTH_PCT:-10}" \
  --rss-growth-mib "${SOAK_RSS_GROWTH_MIB:-16}" --fd-growth "${SOAK_FD_GROWTH:-8}" \
  --command "SOAK_DURATION=$DURATION SOAK_MATS=$MATS SOAK_RATE=$RATE SOAK_VIEWERS=$VIEWERS SOAK_CYCLE=$CYCLE SOAK_SAMPLE=$SAMPLE scripts/soak.sh" \
  --hub-bin "$HUB_BIN"
