#!/usr/bin/env bash
# Runs every test of the project on debug builds, installing what it needs itself.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
target_dir="${CARGO_TARGET_DIR:-$root/target}"

# Each stage's wall time, printed as the stage ends and again at the end, so a slow CI run says
# where its time went (CI has 90 minutes; docs/performance.md, "The test suite's time").
stage_names=()
stage_secs=()
stage_started=$SECONDS
stage() {
  if [ ${#stage_names[@]} -gt 0 ]; then
    local took=$(( SECONDS - stage_started ))
    stage_secs+=("$took")
    echo "    (${took} s)"
  fi
  stage_names+=("$1")
  stage_started=$SECONDS
  echo "==> $1"
}
stage_summary() {
  local rc=$?
  [ ${#stage_names[@]} -gt ${#stage_secs[@]} ] && stage_secs+=("$(( SECONDS - stage_started ))")
  echo
  echo "==> time per stage (exit $rc)"
  local i
  for i in "${!stage_names[@]}"; do
    printf '  %6s s  %s\n' "${stage_secs[$i]:-?}" "${stage_names[$i]}"
  done
  printf '  %6s s  total\n' "$SECONDS"
  # Last, so that the tail of a failed run (all a CI summary may keep) names what failed.
  if [ -s "$TEST_FAILURE_DIGEST" ]; then
    echo
    echo "==> what failed (the whole output is above)"
    head -c 1400 "$TEST_FAILURE_DIGEST"
  fi
  rm -f "$TEST_FAILURE_DIGEST"
}
# Each failing stage or test executable adds a few lines here (scripts/rust-tests.sh does too).
TEST_FAILURE_DIGEST=$(mktemp)
export TEST_FAILURE_DIGEST
trap stage_summary EXIT

stage "tools"
# Debian packages the tests run as real components, installed when missing (as root) or named
# for the developer to install.
need() { # need PATH-OR-COMMAND PACKAGE WHY (a path: a program, or a file the package installs)
  if [ -e "$1" ] || command -v "$1" >/dev/null 2>&1; then return 0; fi
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null
  else
    echo "$2 is missing ($3): run 'sudo apt-get install -y $2' (Debian) and try again" >&2
    exit 1
  fi
}
need chromium chromium "the browser tours"
need /usr/sbin/mosquitto mosquitto "the load tests' smoke runs Mosquitto beside the hub"
need wapiti wapiti "the web-security scan, scripts/web-scan.sh"
need nats-server nats-server "cluster mode's tests, issue 25"
need /usr/sbin/haproxy haproxy "the cluster's browser address, issue 25"
need jq jq "scripts/cluster.sh splits the mats over the hubs (the cluster tour)"
need pdftoppm poppler-utils "the PDF reports' tests read their pages back (pdftotext, pdftoppm)"
need /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc fonts-noto-cjk "the tours' Japanese screenshots (boxes without it)"
# The API fuzzer (scripts/api-fuzz.sh) installs schemathesis from PyPI into a virtualenv.
if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
  need /nonexistent python3-venv "the API fuzzer's virtualenv"
fi

stage "Rust: formatting (rustfmt.toml)"
if cargo fmt --version >/dev/null 2>&1; then
  cargo fmt --all -- --check
else
  echo "fmt: skipped, this toolchain has no rustfmt component"
fi

# Lanes beside the foreground: CPU-heavy work (the client's checks, clippy's check build, the fuzz
# targets' nightly build) beside stages that mostly wait (the Rust test executables and the browser
# tours wait on real time: patients lying down and leaving, alarms falling due); the builds run at
# low priority (`nice`), so the tests keep the CPU they ask for. A lane's output is printed whole
# when it is joined, with its time; its failure fails the run there (docs/performance.md, "The
# test suite's time").
beside() { # beside LANE NAME COMMAND...: starts the lane; `beside_done LANE` joins it
  local lane="$1" log
  log=$(mktemp)
  (
    set -euo pipefail
    started=$SECONDS
    echo "==> $2 (beside)"
    shift 2
    "$@"
    echo "    (the lane beside: $(( SECONDS - started )) s)"
  ) >"$log" 2>&1 &
  printf -v "lane_pid_$lane" '%s' "$!"
  printf -v "lane_log_$lane" '%s' "$log"
}
# Waits for a lane, prints its output, and says whether it passed.
beside_done() { # beside_done LANE
  local pid_var="lane_pid_$1" log_var="lane_log_$1" status=0
  wait "${!pid_var}" || status=$?
  echo
  cat "${!log_var}"
  if [ "$status" != 0 ]; then
    echo "lane $1 (exit $status), its last lines:" >>"$TEST_FAILURE_DIGEST"
    sed 's/\x1b\[[0-9;]*m//g' "${!log_var}" | grep -v '^\s*$' | tail -n 8 | cut -c 1-200 | sed 's/^/  /' >>"$TEST_FAILURE_DIGEST"
  fi
  rm -f "${!log_var}"
  return "$status"
}

stage "Rust: build every test executable (debug); the client's npm ci beside it"
# npm ci mostly downloads and unpacks, so it costs the build little.
npm_log=$(mktemp)
(cd client && npm ci --no-audit --no-fund) >"$npm_log" 2>&1 &
npm_pid=$!
build_json=$(mktemp)
cargo test --workspace --all-targets --no-run --message-format=json-render-diagnostics >"$build_json"
npm_status=0
wait "$npm_pid" || npm_status=$?
cat "$npm_log"
rm -f "$npm_log"
[ "$npm_status" = 0 ] || { echo "npm ci failed" >&2; exit 1; }

stage "Rust: unit, scenario and loopback tests (debug, ${RUST_TEST_JOBS:-2} executables at a time); beside them the client's checks, and the builds' lane starts (clippy, then the fuzz build)"
# The client's checks at normal priority (Vitest's 5 s limit per test must not starve behind the
# tests: at `nice 10` on a machine at load 20 one test timed out); their bundle is what the tours
# serve, so they end with this stage.
client_checks() {
  (cd client && npm run api:check && npm run lint && npm test && npm run build)
}
# clippy's check build and the fuzz targets' nightly build at low priority, on the CPU the waiting
# tests and tours leave idle: the lane runs through this stage and the tours', and is joined at the
# end of the tours' stage.
builds() {
  if cargo clippy --version >/dev/null 2>&1; then
    nice -n 10 cargo clippy --workspace --all-targets -- -D warnings
  else
    echo "clippy: skipped, this toolchain has no clippy component"
  fi
  if cargo +nightly --version >/dev/null 2>&1; then
    echo "==> the fuzz targets' nightly build (low priority)"
    FUZZ_BUILD_ONLY=1 nice -n 10 bash scripts/fuzz.sh
  else
    echo "fuzz build: skipped, this machine has no nightly toolchain"
  fi
}
beside builds "Rust: clippy, warnings are errors; then the fuzz targets' nightly build (low priority)" builds
beside client "client: API types, lint, unit tests and bundle" client_checks
tests_status=0
RUST_TEST_JOBS="${RUST_TEST_JOBS:-2}" bash scripts/rust-tests.sh "$build_json" || tests_status=$?
rm -f "$build_json"
client_status=0
beside_done client || client_status=$?
[ "$tests_status" = 0 ] || { echo "Rust tests failed" >&2; exit 1; }
[ "$client_status" = 0 ] || { echo "the client's checks failed" >&2; exit 1; }

stage "browser end-to-end (headless Chromium against the debug hub); beside it the REST API fuzzing and the web-security scan, and the builds' lane goes on"
# `cargo test --workspace --all-targets` built the hub binary already; a separate `cargo build -p hub`
# would resolve features differently (no dev-only features) and rebuild SurrealDB a second time.
if [ ! -x "$target_dir/debug/hub" ]; then
  echo "the hub binary is missing from $target_dir/debug after cargo test" >&2
  exit 1
fi
mkdir -p "$root/artifacts/e2e"
# Most of a tour is waiting for the hub and the simulated patients, so on two cores the tours run
# two at a time (each its own hub, browser and data, printed whole when it ends), and the API
# fuzzer and the web scan (each its own hub on free ports) run beside them.
scans() {
  local started=$SECONDS
  echo "==> REST API schema fuzzing (schemathesis against the debug hub)"
  HUB_BIN="$target_dir/debug/hub" bash scripts/api-fuzz.sh
  echo "    ($(( SECONDS - started )) s)"
  started=$SECONDS
  echo "==> web-security scan (wapiti against the demo hub, HTTP and HTTPS; docs/reliability.md)"
  HUB_BIN="$target_dir/debug/hub" bash scripts/web-scan.sh
  echo "    ($(( SECONDS - started )) s)"
}
beside scans "REST API fuzzing and web scan" scans
tours_status=0
tours_log=$(mktemp)
(cd client && HUB_BIN="$target_dir/debug/hub" E2E_JOBS="${E2E_JOBS:-2}" npm run e2e) 2>&1 | tee "$tours_log" || tours_status=$?
if [ "$tours_status" != 0 ]; then
  echo "browser tours (exit $tours_status):" >>"$TEST_FAILURE_DIGEST"
  grep -E '^(FAIL |error: )' "$tours_log" | awk 'NR <= 8' | cut -c 1-200 | sed 's/^/  /' >>"$TEST_FAILURE_DIGEST" || true
fi
rm -f "$tours_log"
scans_status=0
beside_done scans || scans_status=$?
builds_status=0
beside_done builds || builds_status=$?
[ "$tours_status" = 0 ] || { echo "browser tours failed" >&2; exit 1; }
[ "$scans_status" = 0 ] || { echo "the API fuzzing or the web scan failed" >&2; exit 1; }
[ "$builds_status" = 0 ] || { echo "clippy or the fuzz build failed" >&2; exit 1; }

stage "fuzzing: 30 s per target, two at a time (cargo-fuzz on the nightly toolchain)"
if cargo +nightly --version >/dev/null 2>&1; then
  # Two targets at a time, 30 s each: a libFuzzer run is one thread, so each has a core.
  FUZZ_JOBS="${FUZZ_JOBS:-2}" bash scripts/fuzz.sh 30
else
  echo "fuzz: skipped, this machine has no nightly toolchain (rustup cannot fetch one here)"
fi
