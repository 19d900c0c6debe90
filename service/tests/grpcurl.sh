#!/usr/bin/env bash
# Drives a running caberd with grpcurl through reflection: list, describe,
# health, one call of every RPC and one bad request.
# Usage: grpcurl.sh PATH_TO_CABERD   (grpcurl must be on PATH)
set -euo pipefail
caberd=${1:?usage: grpcurl.sh PATH_TO_CABERD}
work=$(mktemp -d)
"$caberd" --listen 127.0.0.1:0 --shutdown-grace-ms 5000 >"$work/out" 2>"$work/log" &
pid=$!
cleanup() {
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
for _ in $(seq 100); do
    grep -q 'listening on' "$work/out" 2>/dev/null && break
    sleep 0.1
done
addr=$(sed -n 's/^caberd listening on //p' "$work/out")
[ -n "$addr" ] || { echo "caberd did not start"; cat "$work/log"; exit 1; }

fail() { echo "FAIL: $*" >&2; exit 1; }
g() { grpcurl -plaintext "$@"; }
expect() { # expect NAME PATTERN OUTPUT
    grep -q -- "$2" <<<"$3" || fail "$1: no '$2' in: $3"
    echo "ok: $1"
}

start='3bbb3/4b4/4w4/b3w3b/bbwwkwwbb/b3w3b/4w4/4b4/3bbb3 b -'
pos="{\"game\":\"tablut\",\"variant\":\"bga\",\"text\":\"$start\"}"

services=$(g "$addr" list)
for s in caber.v1.GameEngine grpc.health.v1.Health grpc.reflection.v1.ServerReflection grpc.reflection.v1alpha.ServerReflection; do
    expect "list $s" "^$s\$" "$services"
done
expect "describe" "rpc LegalMoves" "$(g "$addr" describe caber.v1.GameEngine)"
expect "describe message" "position" "$(g "$addr" describe caber.v1.LegalMovesRequest)"
expect "health" '"SERVING"' "$(g "$addr" grpc.health.v1.Health/Check)"
expect "health of the API" '"SERVING"' \
    "$(g -d '{"service":"caber.v1.GameEngine"}' "$addr" grpc.health.v1.Health/Check)"
expect "ListGames" '"schotten-totten"' "$(g "$addr" caber.v1.GameEngine/ListGames)"
expect "NewGame" '"sideToMoveName"' "$(g -d '{"game":"tablut","variant":"bga"}' "$addr" caber.v1.GameEngine/NewGame)"
moves=$(g -d "{\"position\":$pos}" "$addr" caber.v1.GameEngine/LegalMoves)
count=$(python3 -c 'import json,sys; print(len(json.load(sys.stdin)["moves"]))' <<<"$moves")
[ "$count" -eq 80 ] || fail "LegalMoves: $count moves, not 80: $moves"
echo "ok: LegalMoves (80 moves)"
expect "Apply" '"move"' \
    "$(g -d "{\"position\":$pos,\"move\":{\"text\":\"d1-d3\"}}" "$addr" caber.v1.GameEngine/Apply)"
expect "Evaluate" '"score"' "$(g -d "{\"position\":$pos}" "$addr" caber.v1.GameEngine/Evaluate)"
expect "BestMove" '"bestMove"' \
    "$(g -d "{\"position\":$pos,\"limits\":{\"depth\":2}}" "$addr" caber.v1.GameEngine/BestMove)"
expect "Analyze" '"final": true' \
    "$(g -d "{\"position\":$pos,\"limits\":{\"depth\":2}}" "$addr" caber.v1.GameEngine/Analyze)"
expect "Perft" '"nodes": "80"' \
    "$(g -d "{\"position\":$pos,\"depth\":1}" "$addr" caber.v1.GameEngine/Perft)"
expect "Playouts" '"plies"' \
    "$(g -d "{\"position\":$pos,\"movetime_ms\":50}" "$addr" caber.v1.GameEngine/Playouts)"
expect "Replay" '"text"' \
    "$(g -d '{"record":"[Game \"tablut\"]\n\n1. d1-d3\n"}' "$addr" caber.v1.GameEngine/Replay)"
st=$(g -d '{"game":"schotten-totten","seed":7}' "$addr" caber.v1.GameEngine/NewGame | python3 -c 'import json,sys; print(json.load(sys.stdin)["position"]["text"])')
expect "View" '"view:1' \
    "$(g -d "{\"position\":{\"game\":\"schotten-totten\",\"text\":\"$st\"},\"player\":\"SIDE_ONE\"}" "$addr" caber.v1.GameEngine/View)"
bad=$(g -d '{"position":{"game":"tablut","text":"nonsense"}}' "$addr" caber.v1.GameEngine/LegalMoves 2>&1 || true)
expect "bad position" "InvalidArgument" "$bad"
expect "bad position names the field" "position.text" "$bad"
echo "grpcurl: all checks passed"
