#!/usr/bin/env bash
# Web-security scan of the demo hub with wapiti (Debian's package), over HTTP and over HTTPS,
# signed in as the demo administrator (the bearer token as a header). Modules that fit a JSON API
# and a single-page app: headers, CSP, cookies, methods, CRLF, redirects, file, command, SQL and
# script injection in query strings and forms, backup files, access-control bypass. Reports go to
# artifacts/web-scan/{http,https}.json; the findings are listed, and the script fails on any that
# docs/reliability.md ("What a web scanner finds") does not answer.
#
#   scripts/web-scan.sh               # needs client/dist (cd client && npm run build)
#   HUB_BIN=path/to/hub WEB_SCAN_SECONDS=120 scripts/web-scan.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
target_dir="${CARGO_TARGET_DIR:-$root/target}"
hub_bin="${HUB_BIN:-$target_dir/debug/hub}"
client_dir="${WEB_SCAN_CLIENT_DIR:-$root/client/dist}"
seconds="${WEB_SCAN_SECONDS:-60}"
out="$root/artifacts/web-scan"
modules="http_headers,csp,cookieflags,methods,crlf,redirect,file,exec,sql,xss,backup,htaccess"

command -v wapiti >/dev/null || { echo "web-scan: wapiti is missing: apt-get install -y wapiti" >&2; exit 1; }
[ -x "$hub_bin" ] || { echo "web-scan: no hub binary at $hub_bin" >&2; exit 1; }
[ -f "$client_dir/index.html" ] || { echo "web-scan: no client in $client_dir (cd client && npm run build)" >&2; exit 1; }
mkdir -p "$out"
work=$(mktemp -d)
hub_pid=""
cleanup() {
  if [ -n "$hub_pid" ]; then kill "$hub_pid" 2>/dev/null || true; wait "$hub_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

scan() {
  local scheme=$1 flags=() base=""
  [ "$scheme" = https ] && flags=(--https)
  # The log exists before the hub starts: the redirection below happens in the child, which a
  # loaded machine may not have run yet when the loop first reads the log.
  : >"$work/$scheme-hub.log"
  "$hub_bin" --demo --data "$work/$scheme" --http 127.0.0.1:0 --quic 127.0.0.1:0 --client-dir "$client_dir" "${flags[@]}" >"$work/$scheme-hub.log" 2>&1 &
  hub_pid=$!
  for _ in $(seq 1 900); do
    base=$(sed -n 's/^listening http=\(\S*\).*/\1/p' "$work/$scheme-hub.log")
    [ -n "$base" ] && break
    kill -0 "$hub_pid" 2>/dev/null || { cat "$work/$scheme-hub.log" >&2; exit 1; }
    sleep 0.1
  done
  [ -n "$base" ] || { echo "web-scan: the hub did not start" >&2; exit 1; }
  local token
  token=$(python3 - "$base" <<'PY'
import json, ssl, sys, urllib.request
request = urllib.request.Request(sys.argv[1] + "/api/auth/login", data=json.dumps({"email": "admin@example.com", "password": "admin1234"}).encode(), headers={"content-type": "application/json"})
print(json.load(urllib.request.urlopen(request, context=ssl._create_unverified_context()))["token"])
PY
)
  # Start from the app and the API's GET calls without path parameters (wapiti reaches no JSON
  # body; it attacks query strings and forms). Logout is a POST with a JSON body: never called.
  wapiti -u "$base/" --scope folder -m "$modules" -H "Authorization: Bearer $token" \
    -s "$base/api/userDevices" -s "$base/api/deviceTypes" -s "$base/api/pressureScale" -s "$base/api/companyUser" \
    --max-scan-time "$seconds" --max-attack-time "$seconds" --verify-ssl 0 --flush-session \
    --store-session "$work/session" --store-config "$work/config" --no-bugreport \
    -f json -o "$out/$scheme.json" -v 1 >"$out/$scheme.log" 2>&1
  kill "$hub_pid"; wait "$hub_pid" 2>/dev/null || true; hub_pid=""
}

scan http
scan https

python3 - "$out" "$root/docs/reliability.md" <<'PY'
import json, sys
out, answers_file = sys.argv[1:3]
answers = open(answers_file, encoding="utf-8").read()
section = answers.split("## What a web scanner finds", 1)[1] if "## What a web scanner finds" in answers else ""
unanswered = 0
for scheme in ("http", "https"):
    report = json.load(open(f"{out}/{scheme}.json"))
    for kind in ("vulnerabilities", "anomalies"):
        for category, findings in report.get(kind, {}).items():
            for finding in findings:
                line = f"{scheme}: {category}: {finding.get('method')} {finding.get('path')}: {finding.get('info')}"
                answered = f"`{finding.get('info')}`" in section
                unanswered += not answered
                print(("answered   " if answered else "UNANSWERED ") + line)
print(f"web-scan: {unanswered} unanswered finding(s); reports in {out}")
sys.exit(1 if unanswered else 0)
PY
