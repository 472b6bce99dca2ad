#!/usr/bin/env bash
# Coverage-guided fuzzing of the hub's input surfaces (cargo-fuzz / libFuzzer on the nightly
# toolchain): the device protocol and framing, an ingest connection's hello and messages (sans-IO),
# the browser's socket messages, the REST bodies the hub validates, the analysis engine
# and the PDF renderers. Each target runs SECONDS (default 30) from its corpus (fuzz/corpus/<target>,
# kept in the repository, seeded from fuzz/seeds/<target>). Any crash, hang (> 10 s per input) or
# out-of-memory (> 2 GiB) fails the run and leaves the input in fuzz/artifacts/<target>/.
#
#   bash scripts/fuzz.sh [SECONDS] [TARGET ...]
#   FUZZ_RUNS=10000000 bash scripts/fuzz.sh 0 device_protocol   # a fixed number of executions
#   FUZZ_SANITIZER=none ...   # coverage only, no AddressSanitizer (the long runs of safe-Rust
#                             # targets whose allocations ASan makes 6x slower; CI keeps ASan)
#   FUZZ_JOBS=2 ...           # two targets at a time, each still SECONDS (a libFuzzer run is one
#                             # thread, so on 2 cores each gets a core and the stage takes half)
#   FUZZ_BUILD_ONLY=1 ...     # only the nightly build of every target (make test builds them
#                             # beside the browser tours; the run after finds them built)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(device_protocol ingest_hello browser_messages rest_bodies analysis reports hl7_ack pcd04_message pcd05_status pcd05_listener)

if ! cargo +nightly --version >/dev/null 2>&1; then
  echo "fuzz: the nightly toolchain is missing (rustup toolchain install nightly)" >&2
  exit 1
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "==> installing cargo-fuzz"
  cargo install cargo-fuzz --locked --version 0.13.2
fi

cd fuzz
sanitizer=(-s "${FUZZ_SANITIZER:-address}")
cargo +nightly fuzz build -O "${sanitizer[@]}"
if [ -n "${FUZZ_BUILD_ONLY:-}" ]; then
  echo "fuzz: ${#targets[@]} targets built"
  exit 0
fi
jobs_at_once="${FUZZ_JOBS:-1}"
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# One target's run, its output in $logs/<target>.log.
fuzz_one() {
  local t="$1"
  local limit=(-max_total_time="$seconds")
  [ -n "${FUZZ_RUNS:-}" ] && limit=(-runs="$FUZZ_RUNS")
  cargo +nightly fuzz run -O "${sanitizer[@]}" "$t" "corpus/$t" "seeds/$t" -- "${limit[@]}" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 >"$logs/$t.log" 2>&1
}

# Prints how a finished target went; fails on a crash, hang or out-of-memory.
fuzz_outcome() {
  local t="$1" status="$2"
  echo "==> fuzz $t (${FUZZ_RUNS:-${seconds} s})"
  if [ "$status" != 0 ]; then
    tail -n 60 "$logs/$t.log"
    echo "fuzz: $t FAILED (input in fuzz/artifacts/$t/)" >&2
    return 1
  fi
  grep -E "stat::number_of_executed_units|Done [0-9]+ runs" "$logs/$t.log" | tail -n 2 || true
}

declare -A running=()
failed=0
# Waits for one running target and reports it.
reap_one() {
  local pid status=0
  wait -n -p pid "${!running[@]}" || status=$?
  fuzz_outcome "${running[$pid]}" "$status" || failed=1
  unset "running[$pid]"
}
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t"
  while [ ${#running[@]} -ge "$jobs_at_once" ]; do reap_one; done
  [ "$failed" = 0 ] || break
  fuzz_one "$t" &
  running[$!]="$t"
done
while [ ${#running[@]} -gt 0 ]; do reap_one; done
[ "$failed" = 0 ] || exit 1
echo "fuzz: ${#targets[@]} targets, no crash, hang or out-of-memory"
