#!/usr/bin/env bash
# Tests the client-side load-balancing examples against two local caberd:
# starts two release caberd on free ports (with metrics), runs
#   - deploy/examples/round_robin.py (Python grpcio, round_robin policy) on
#     the target ipv4:ADDR1,ADDR2, and
#   - service/examples/round_robin.rs (tonic balance_channel, built here)
#     on ADDR1 ADDR2,
# each making $CALLS ListGames calls, and checks after each client through
# both servers' /metrics that both servers got calls, that together they got
# exactly the client's calls, and that no call failed. Then stops both
# servers with SIGTERM (exit status 0).
#
# Needs python3 with grpcio (.ci/run installs it) and cargo.
# Usage: deploy/examples/round_robin_test.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
CALLS=40

fail() {
    echo "round_robin_test: FAIL: $*" >&2
    exit 1
}
python3 -c 'import grpc' 2>/dev/null || fail "python3 has no grpcio (pip install grpcio==1.85.3)"
cargo build --release --quiet -p caber-service --bin caberd --example round_robin
caberd=target/release/caberd
tonic_client=target/release/examples/round_robin

work=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do
        kill -KILL "$p" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap cleanup EXIT

addrs=()
metrics=()
for i in 1 2; do
    "$caberd" --listen 127.0.0.1:0 --metrics-listen 127.0.0.1:0 --shutdown-grace-ms 5000 \
        >"$work/out$i" 2>"$work/log$i" &
    pids+=($!)
    for _ in $(seq 100); do
        grep -q '^caberd metrics on ' "$work/out$i" 2>/dev/null && break
        sleep 0.1
    done
    addr=$(sed -n 's/^caberd listening on //p' "$work/out$i")
    url=$(sed -n 's/^caberd metrics on //p' "$work/out$i")
    [ -n "$addr" ] && [ -n "$url" ] || { cat "$work/log$i" >&2; fail "caberd $i did not start"; }
    addrs+=("$addr")
    metrics+=("$url")
done
echo "round_robin_test: caberd 1 on ${addrs[0]}, caberd 2 on ${addrs[1]}"

# `ok BAD` of one server's ListGames calls: OK ones, and all the others.
counts() {
    python3 - "$1" <<'EOF'
import re, sys, urllib.request
text = urllib.request.urlopen(sys.argv[1], timeout=5).read().decode()
ok = bad = 0
for code, n in re.findall(r'^caber_grpc_calls_total\{method="/caber\.v1\.GameEngine/ListGames",code="(\w+)"\} (\d+)$', text, re.M):
    if code == "OK":
        ok += int(n)
    else:
        bad += int(n)
print(ok, bad)
EOF
}

# Runs one client and checks what each server saw of it.
check_client() {
    local name=$1
    shift
    local before=() after=() i
    for i in 0 1; do before[i]=$(counts "${metrics[i]}"); done
    "$@" || fail "$name failed"
    for i in 0 1; do after[i]=$(counts "${metrics[i]}"); done
    local total=0 got
    for i in 0 1; do
        read -r ok0 bad0 <<<"${before[i]}"
        read -r ok1 bad1 <<<"${after[i]}"
        got=$((ok1 - ok0))
        [ "$got" -gt 0 ] || fail "$name: caberd $((i + 1)) got no call"
        [ "$bad1" -eq "$bad0" ] || fail "$name: caberd $((i + 1)) answered $((bad1 - bad0)) calls with an error"
        total=$((total + got))
        echo "round_robin_test: $name: caberd $((i + 1)) answered $got calls OK"
    done
    [ "$total" -eq "$CALLS" ] || fail "$name: the servers answered $total calls, not $CALLS"
}

check_client "Python grpcio round_robin" \
    python3 deploy/examples/round_robin.py --calls "$CALLS" "ipv4:${addrs[0]},${addrs[1]}"
check_client "tonic balance_channel" \
    "$tonic_client" --calls "$CALLS" "${addrs[0]}" "${addrs[1]}"

# A rolling update as the Python client sees it: caberd 1 gets SIGTERM while
# a search keeps it draining; the client's calls must all succeed (caberd 1
# refuses new calls or connections, the policy goes on to caberd 2).
start='3bbb3/4b4/4w4/b3w3b/bbwwkwwbb/b3w3b/4w4/4b4/3bbb3 b -'
grpcurl -plaintext -d "{\"position\":{\"game\":\"tablut\",\"text\":\"$start\"},\"limits\":{\"movetimeMs\":3000}}" \
    "${addrs[0]}" caber.v1.GameEngine/BestMove >"$work/search" 2>&1 &
search=$!
sleep 0.5
kill -TERM "${pids[0]}"
sleep 0.2
kill -0 "${pids[0]}" 2>/dev/null || fail "caberd 1 did not wait for its search"
python3 deploy/examples/round_robin.py --calls "$CALLS" "ipv4:${addrs[0]},${addrs[1]}" ||
    fail "Python grpcio round_robin: calls failed while caberd 1 was shutting down"
wait "$search" || fail "the search on caberd 1 failed during its shutdown: $(cat "$work/search")"
echo "round_robin_test: while caberd 1 was shutting down, every call succeeded"

for i in 0 1; do
    kill -TERM "${pids[i]}" 2>/dev/null || true
    status=0
    wait "${pids[i]}" || status=$?
    [ "$status" -eq 0 ] || fail "caberd $((i + 1)) exited with status $status after SIGTERM"
done
pids=()
echo "round_robin_test: both clients spread their calls over both servers, no call failed"
echo "round_robin_test: 3 passed, 0 failed"
