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
}
trap stage_summary EXIT

stage "tools"
# Debian packages the tests run as real components, installed when missing (as root) or named
# for the developer to install.
need() { # need PATH-OR-COMMAND PACKAGE WHY
  if [ -x "$1" ] || command -v "$1" >/dev/null 2>&1; then return 0; fi
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

stage "Rust: clippy, warnings are errors"
if cargo clippy --version >/dev/null 2>&1; then
  cargo clippy --workspace --all-targets -- -D warnings
else
  echo "clippy: skipped, this toolchain has no clippy component"
fi

stage "Rust: unit, scenario and loopback tests (debug)"
cargo test --workspace --all-targets

stage "client: lint, unit tests and bundle"
(cd client && npm ci --no-audit --no-fund && npm run api:check && npm run lint && npm test && npm run build)

stage "browser end-to-end (headless Chromium against the debug hub), and beside it the REST API fuzzing and the web-security scan"
# `cargo test --workspace --all-targets` built the hub binary already; a separate `cargo build -p hub`
# would resolve features differently (no dev-only features) and rebuild SurrealDB a second time.
if [ ! -x "$target_dir/debug/hub" ]; then
  echo "the hub binary is missing from $target_dir/debug after cargo test" >&2
  exit 1
fi
mkdir -p "$root/artifacts/e2e"
# Most of a tour is waiting for the hub and the simulated patients, so on two cores the tours run
# two at a time (each its own hub, browser and data, printed whole when it ends), and the API
# fuzzer and the web scan (each its own hub on free ports) run beside them, their output printed
# after the tours' (docs/performance.md, "The test suite's time").
beside_log=$(mktemp)
(
  set -euo pipefail
  started=$SECONDS
  echo "==> REST API schema fuzzing (schemathesis against the debug hub)"
  HUB_BIN="$target_dir/debug/hub" bash scripts/api-fuzz.sh
  echo "    ($(( SECONDS - started )) s)"
  started=$SECONDS
  echo "==> web-security scan (wapiti against the demo hub, HTTP and HTTPS; docs/reliability.md)"
  HUB_BIN="$target_dir/debug/hub" bash scripts/web-scan.sh
  echo "    ($(( SECONDS - started )) s)"
) >"$beside_log" 2>&1 &
beside_pid=$!
tours_status=0
(cd client && HUB_BIN="$target_dir/debug/hub" E2E_JOBS="${E2E_JOBS:-2}" npm run e2e) || tours_status=$?
beside_status=0
wait "$beside_pid" || beside_status=$?
echo
cat "$beside_log"
rm -f "$beside_log"
[ "$tours_status" = 0 ] || { echo "browser tours failed" >&2; exit 1; }
[ "$beside_status" = 0 ] || { echo "the API fuzzing or the web scan failed" >&2; exit 1; }

stage "fuzzing: 30 s per target, two at a time (cargo-fuzz on the nightly toolchain)"
if cargo +nightly --version >/dev/null 2>&1; then
  # Two targets at a time, 30 s each: a libFuzzer run is one thread, so each has a core.
  FUZZ_JOBS="${FUZZ_JOBS:-2}" bash scripts/fuzz.sh 30
else
  echo "fuzz: skipped, this machine has no nightly toolchain (rustup cannot fetch one here)"
fi
