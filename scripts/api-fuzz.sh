#!/usr/bin/env bash
# Schema fuzzing of the REST API: schemathesis (pinned, installed from PyPI into a virtualenv)
# against a real debug hub on 127.0.0.1 with the demo data, as an administrator of a company of
# its own (so renaming or re-branding it leaves the demo company alone). It checks that no call
# answers 5xx, that every status, content type and JSON body is the one the OpenAPI document
# declares, and that every body the document describes is accepted. Prints the summary; exits
# non-zero on any failure.
#
#   scripts/api-fuzz.sh                 # 25 examples per operation (a few minutes on 2 cores)
#   API_FUZZ_EXAMPLES=200 scripts/api-fuzz.sh
#   HUB_BIN=path/to/hub scripts/api-fuzz.sh
#   scripts/api-fuzz.sh --include-path-regex 'deviceandconf|registerAll'   # further schemathesis options
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
target_dir="${CARGO_TARGET_DIR:-$root/target}"
hub_bin="${HUB_BIN:-$target_dir/debug/hub}"
examples="${API_FUZZ_EXAMPLES:-25}"
schemathesis_version="4.32.5"
venv="$target_dir/api-fuzz-venv"

if [ ! -x "$hub_bin" ]; then
  echo "api-fuzz: no hub binary at $hub_bin (run 'cargo test -p hub --no-run' first)" >&2
  exit 1
fi
if [ ! -x "$venv/bin/schemathesis" ] || ! "$venv/bin/schemathesis" --version | grep -q "$schemathesis_version"; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$schemathesis_version"
fi

work=$(mktemp -d)
hub_pid=""
cleanup() {
  local status=$?
  if [ -n "$hub_pid" ]; then kill "$hub_pid" 2>/dev/null || true; wait "$hub_pid" 2>/dev/null || true; fi
  if [ "$status" != 0 ] && [ -f "$work/hub.log" ]; then
    mkdir -p "$root/artifacts/api-fuzz" && cp "$work/hub.log" "$root/artifacts/api-fuzz/hub.log"
    echo "api-fuzz: the hub's log is in artifacts/api-fuzz/hub.log" >&2
  fi
  rm -rf "$work"
}
trap cleanup EXIT

email="fuzzer@fuzz.example.com"
password="fuzz-admin-password"
HUB_ADMIN_PASSWORD="$password" "$hub_bin" create-admin --data "$work/data" --email "$email" --company "Fuzz Clinic" >"$work/create-admin.log" 2>&1 \
  || { cat "$work/create-admin.log" >&2; exit 1; }
# The log exists before the hub starts: the redirection happens in the child, which a loaded
# machine may not have run yet when the loop first reads the log.
: >"$work/hub.log"
"$hub_bin" --demo --data "$work/data" --http 127.0.0.1:0 --quic 127.0.0.1:0 --client-dir "$work/no-client" >"$work/hub.log" 2>&1 &
hub_pid=$!
base=""
for _ in $(seq 1 600); do
  base=$(sed -n 's/^listening http=\(\S*\).*/\1/p' "$work/hub.log")
  [ -n "$base" ] && break
  kill -0 "$hub_pid" 2>/dev/null || { cat "$work/hub.log" >&2; exit 1; }
  sleep 0.1
done
[ -n "$base" ] || { echo "api-fuzz: the hub did not start" >&2; cat "$work/hub.log" >&2; exit 1; }

login=$(python3 - "$base" "$email" "$password" <<'PY'
import json, sys, urllib.request
base, email, password = sys.argv[1:4]
request = urllib.request.Request(f"{base}/api/auth/login", data=json.dumps({"email": email, "password": password}).encode(), headers={"content-type": "application/json"})
answer = json.load(urllib.request.urlopen(request))
print(answer["token"], answer["userId"])
PY
)
read -r token user_id <<<"$login"

# `{userId}` is the caller's own id (any other answers 404), so the user-scoped calls reach their
# handlers; every other path parameter is generated.
# Answers that depend on which stored record a valid id names, which no schema can say: those
# operations may also answer 400 to a body or id the document describes.
cat >"$work/schemathesis.toml" <<TOML
# A run whose token stopped working tests nothing: fail it.
[warnings]
fail-on = ["missing_auth"]

[parameters]
"path.userId" = "$user_id"

# Operations that may also answer 400 for a rule across fields or against the hub's state, which
# no JSON Schema holds (each answer names its key):
# - /api/ForceDeviceApi/{id}: an id of a device that is not a Force Mat (notAForceDevice);
# - /api/device/{id}/patient: a device whose type has no patient of its own, a podology plate, a
#   force mat or a horse's sub-device (noBedsidePatient);
# - /api/alarmManager: the alarm manager over TLS needs the certificate authority to trust (caPem),
#   which an empty text is not (invalidAlarmManager);
# - /api/iotRequests/{serial}: a serial of a parent device (horse, room set), which captures
#   nothing itself (notACaptureDevice);
# - /api/compliance/{from}/{to}, /api/compliancePdf/{from}/{to}/{language},
#   /api/complianceSettings: dates are YYYY-MM-DD calendar days in a range of 1-92 days, shift
#   starts increase at least an hour apart and the time zone is an IANA name (docs/decisions.md,
#   "Turn compliance");
# - /api/wardScreens, /api/wardScreens/pair: a wall screen's pairing names a unit and answers a
#   one-time code that exists only once (docs/decisions.md, "Wall screens").
[[operations]]
include-path-regex = "^/api/(ForceDeviceApi/[^/]+|device/[^/]+/patient|alarmManager|iotRequests/[^/]+|compliance/[^/]+/[^/]+|compliancePdf/[^/]+/[^/]+/[^/]+|complianceSettings|wardScreens|wardScreens/pair)\$"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "403", "404", "409", "429"]
TOML

# Not fuzzed: logout (it would revoke the fuzzer's own token) and a wall screen's token renewal,
# which only a board token may call (every other token gets 403; hub/tests/ward_wall.rs tests it).
echo "api-fuzz: schemathesis $schemathesis_version, $examples examples per operation, hub $base"
# Logout is left out: it revokes the fuzzer's own token, after which every call is 401 (its rules
# are tested in hub/tests/security.rs).
# One worker: storage now retries a write conflict (two workers saving the fuzzer's company at
# once no longer answer 500), but a second worker gains nothing on the 2-core machine the suite
# runs on (schemathesis and the debug hub already share it) and makes a seeded run's order, and so
# its failures, less reproducible.
# Run from the temporary directory: schemathesis keeps a cache in its working directory.
cd "$work"
SCHEMATHESIS_HOOKS=api_fuzz_hooks PYTHONPATH="$root/scripts" "$venv/bin/schemathesis" --config-file "$work/schemathesis.toml" run "$base/api/openapi.json" \
  --header "Authorization: Bearer $token" \
  --exclude-path /api/auth/logout \
  --exclude-path /api/wardScreens/renew \
  --checks all \
  --max-examples "$examples" \
  --phases examples,coverage,fuzzing \
  --workers 1 \
  --seed "${API_FUZZ_SEED:-1}" \
  --generation-database none \
  --no-color \
  "$@"
