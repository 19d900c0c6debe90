#!/usr/bin/env bash
# The reliability suite against the release caberd, as CI runs it.
#
# Starts target/release/caberd (or the one in $CABER_BIN_DIR) on a free
# plaintext port with its default limits but 3 s idle timeouts (so that the
# silent connections and those idle after a call are closed within the run),
# runs `caber bench reliability` against it with its process id (memory from
# /proc), prints the report and fails if any check failed. About two and a
# half minutes on 2 cores (one is two 60 s searches). docs/SERVICE.md,
# "Reliability suite".
#
# Usage: deploy/reliability.sh [extra arguments of caber bench reliability]
set -euo pipefail
cd "$(dirname "$0")/.."
bin_dir=$(realpath "${CABER_BIN_DIR:-target/release}")
for b in caberd caber; do
    [ -x "$bin_dir/$b" ] || { echo "reliability: $bin_dir/$b is missing: cargo build --release --bins first" >&2; exit 1; }
done
out=$(mktemp)
pid=
cleanup() {
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
        kill -TERM "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    fi
    rm -f "$out"
}
trap cleanup EXIT
RUST_LOG=warn "$bin_dir/caberd" --listen 127.0.0.1:0 --idle-timeout-ms 3000 \
    --max-connection-idle-ms 3000 >"$out" 2>/dev/null &
pid=$!
for _ in $(seq 1 100); do
    grep -q "listening on" "$out" && break
    sleep 0.1
done
addr=$(sed -n 's/^caberd listening on //p' "$out" | head -n 1)
[ -n "$addr" ] || { echo "reliability: caberd did not start" >&2; exit 1; }
"$bin_dir/caber" --server "http://$addr" bench reliability --server-pid "$pid" \
    --idle-timeout-ms 3000 --max-connection-idle-ms 3000 "$@"
