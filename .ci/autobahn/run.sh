#!/usr/bin/env bash
# Autobahn|Testsuite 0.8.2 (fuzzingclient, Python 2.7) against mock-server's /_mock/echo,
# for each event loop. Not part of CI (.ci/run): see .ci/autobahn/README.md.
#
#   bash .ci/autobahn/run.sh                     # groups 1-7 and 9-13, libev (the default) and poll
#   AUTOBAHN_LOOPS=libuv bash .ci/autobahn/run.sh
#   AUTOBAHN_CASES='1.*,2.*' bash .ci/autobahn/run.sh
#
# Environment:
#   PYTHON2                 a python2.7 binary (default: pyenv's 2.7.*, then python2.7 on PATH)
#   AUTOBAHN_CACHE          install folder (default: .cache/autobahn, git-ignored)
#   AUTOBAHN_LOOPS          event loops, space or comma separated (default: "libev poll"; libuv too)
#   AUTOBAHN_CASES          comma-separated case patterns (default: the list in fuzzingclient.json)
#   AUTOBAHN_TIMEOUT        seconds allowed per loop for wstest (default: 3600)
#   AUTOBAHN_PARALLEL=0     run the loops one after another (default: side by side; wstest is
#                           single-threaded Python and the slow part, the server is not)
#   AUTOBAHN_SKIP_BUILD=1   use the existing release build of mock-server
#
# Exit status: 0 when every case is OK, NON-STRICT or INFORMATIONAL (or listed in ALLOWED
# below); 1 when another case failed; 2 when the harness itself failed.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
CACHE="${AUTOBAHN_CACHE:-$ROOT/.cache/autobahn}"
LOOPS="${AUTOBAHN_LOOPS:-libev poll}"
LOOPS="${LOOPS//,/ }"
TIMEOUT="${AUTOBAHN_TIMEOUT:-3600}"
PARALLEL="${AUTOBAHN_PARALLEL:-1}"
VERSION="0.8.2"
# Cases whose behaviour comes down to libwebsockets itself and that Autobahn does not require
# (see README.md): case id and reason, separated by '|'.
ALLOWED=(
    "2.10|non-normative in Autobahn: lws 4.1.6 answers only the most recent of 10 queued pings"
    "2.11|non-normative in Autobahn (same expectation as 2.10, pings sent octet by octet): lws 4.1.6 answers only the most recent queued ping"
)

log() { printf 'autobahn: %s\n' "$*" >&2; }
die() { log "$*"; exit 2; }

# ---- Python 2.7 ---------------------------------------------------------------------------
find_python2() {
    if [[ -n "${PYTHON2:-}" ]]; then echo "$PYTHON2"; return; fi
    local candidate
    for candidate in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/2.7.*/bin/python2.7; do
        [[ -x "$candidate" ]] && { echo "$candidate"; return; }
    done
    command -v python2.7 || true
}
PY2="$(find_python2)"
[[ -n "$PY2" && -x "$PY2" ]] || die "no Python 2.7 found (pyenv 2.7.18 or python2.7 on PATH); see .ci/autobahn/README.md"
log "python: $PY2 ($("$PY2" -c 'import sys; print(sys.version.split()[0])' 2>&1))"

# ---- autobahntestsuite into the cache ---------------------------------------------------------
SITE="$CACHE/site"
if [[ "$(cat "$CACHE/installed" 2>/dev/null || true)" != "autobahntestsuite==$VERSION" ]]; then
    log "installing autobahntestsuite==$VERSION into $SITE"
    rm -rf "$SITE"
    mkdir -p "$CACHE"
    "$PY2" -m pip install --disable-pip-version-check --no-warn-script-location -q \
        --target "$SITE" "autobahntestsuite==$VERSION" >&2 || die "pip install failed"
    echo "autobahntestsuite==$VERSION" > "$CACHE/installed"
fi

# ---- mock-server (release) ----------------------------------------------------------------
if [[ "${AUTOBAHN_SKIP_BUILD:-0}" != "1" ]]; then
    log "building mock-server (release)"
    (cd "$ROOT" && swift build -c release -Xswiftc -cross-module-optimization --product mock-server >&2) || die "build failed"
fi
BIN="$(cd "$ROOT" && swift build -c release --show-bin-path)/mock-server"
[[ -x "$BIN" ]] || die "no mock-server at $BIN"

OUT="$CACHE/reports/$(date +%Y%m%d-%H%M%S)"
mkdir -p "$OUT"
# Runs in its own subshell: starts mock-server, runs wstest, stops the server.
run_loop() {
    local loop="$1" dir="$OUT/$1"
    mkdir -p "$dir"
    SERVER_PID=""
    trap 'if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then kill -TERM "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null; fi' EXIT
    # A plain background command (no `cd && ...` list): $! is the server itself.
    "$BIN" --port 0 --event-loop "$loop" --log-level error >"$dir/server.out" 2>"$dir/server.err" &
    SERVER_PID=$!
    local line="" waited=0
    while (( waited < 100 )); do
        line="$(head -n 1 "$dir/server.out" 2>/dev/null || true)"
        [[ "$line" == listening* ]] && break
        kill -0 "$SERVER_PID" 2>/dev/null || die "mock-server ($loop) exited: $(cat "$dir/server.err")"
        sleep 0.1
        waited=$((waited + 1))
    done
    [[ "$line" =~ ^listening\ ws://127\.0\.0\.1:([0-9]+)$ ]] || die "no ready line from mock-server ($loop): '$line'"
    local port="${BASH_REMATCH[1]}"
    local url="ws://127.0.0.1:$port/_mock/echo"
    log "$loop: mock-server pid $SERVER_PID on $url"

    "$PY2" - "$HERE/fuzzingclient.json" "$dir/spec.json" "$dir/reports" "mock-server-$loop" "$url" \
        "${AUTOBAHN_CASES:-}" "$loop" <<'PY'
import json, sys
template, target, outdir, agent, url, cases, loop = sys.argv[1:8]
spec = json.load(open(template))
spec["outdir"] = outdir
spec["servers"][0]["agent"] = agent
spec["servers"][0]["url"] = url
if cases:
    spec["cases"] = [c.strip() for c in cases.split(",") if c.strip()]
if loop == "libuv":
    # No permessage-deflate on the libuv loop (see README): groups 12 and 13 run on poll only.
    spec["exclude-cases"] = sorted(set(spec.get("exclude-cases", []) + ["12.*", "13.*"]))
json.dump(spec, open(target, "w"), indent=2)
PY

    local started=$SECONDS rc=0
    # site.addsitedir processes the zope namespace .pth file that pip --target installs.
    (cd "$dir" && timeout --signal=TERM "$TIMEOUT" "$PY2" -c 'import site, sys
site.addsitedir(sys.argv[1])
from autobahntestsuite.wstest import run
sys.argv = ["wstest"] + sys.argv[2:]
sys.exit(run())' "$SITE" -m fuzzingclient -s "$dir/spec.json" >"$dir/wstest.log" 2>&1) || rc=$?
    local took=$((SECONDS - started))
    echo "$took" > "$dir/seconds"
    log "$loop: wstest finished in ${took}s (exit $rc)"

    kill -TERM "$SERVER_PID" 2>/dev/null || true
    local server_rc=0
    wait "$SERVER_PID" || server_rc=$?
    SERVER_PID=""
    (( server_rc == 0 )) || log "$loop: mock-server exited with $server_rc after SIGTERM (expected 0)"
    local last
    last="$(grep -o 'Running test case ID [0-9.]*' "$dir/wstest.log" | tail -n 1 | awk '{print $5}')"
    (( rc == 0 )) || die "$loop: wstest failed or hit the ${TIMEOUT}s limit (exit $rc) during case ${last:-?}; see $dir/wstest.log"
    [[ -f "$dir/reports/index.json" ]] || die "$loop: no reports/index.json (stopped during case ${last:-?}); see $dir/wstest.log"
    echo "$server_rc" > "$dir/server-exit"
}

started_all=$SECONDS
status=0
pids=()
for loop in $LOOPS; do
    if [[ "$PARALLEL" == "1" ]]; then
        ( run_loop "$loop" ) &
        pids+=($!)
    else
        ( run_loop "$loop" ) || status=$?
    fi
done
for pid in "${pids[@]}"; do
    wait "$pid" || status=$?
done
log "loops finished in $((SECONDS - started_all))s"

# Report every loop that produced results, even when another one broke.
allowed_file="$OUT/allowed.txt"
printf '%s\n' "${ALLOWED[@]}" > "$allowed_file"
done_loops=()
for loop in $LOOPS; do
    [[ -f "$OUT/$loop/reports/index.json" ]] && done_loops+=("$loop")
done
report_rc=0
if (( ${#done_loops[@]} > 0 )); then
    set +e
    python3 "$HERE/report.py" "$OUT" "$allowed_file" "${done_loops[@]}" | tee "$OUT/summary.txt"
    report_rc=${PIPESTATUS[0]}
    set -e
fi
(( status == 0 )) || { log "at least one loop did not complete (see above)"; exit "$status"; }
exit "$report_rc"
