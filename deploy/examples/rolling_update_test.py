#!/usr/bin/env python3
"""A rolling update of caberd as clients see it, on real processes.

caberd A serves; four clients call in a loop (ListGames and 200 ms BestMove
searches, each client on its own channel with the recommended policy of
round_robin.py: round robin over both addresses, UNAVAILABLE retried);
caberd B starts on another port and takes calls; A gets SIGTERM while calls
are in flight and drains (health NOT_SERVING, GOAWAY, the calls in flight
finish); the clients go on against B. Passes if no call failed, both
servers answered calls, B answered calls after A exited, and A exited 0.

Usage: deploy/examples/rolling_update_test.py [path/to/caberd]
(default target/release/caberd; needs grpcio).
"""

import os
import pathlib
import signal
import socket
import subprocess
import sys
import threading
import time

import grpc

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from round_robin import SERVICE_CONFIG  # noqa: E402  (the policy under test)

import json  # noqa: E402

START = "3bbb3/4b4/4w4/b3w3b/bbwwkwwbb/b3w3b/4w4/4b4/3bbb3 b -"
CLIENTS = 4


def field(number, payload):
    """A length-delimited protobuf field."""
    key = bytes([number << 3 | 2])
    return key + varint(len(payload)) + payload


def varint(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def best_move_request(movetime_ms):
    """BestMoveRequest{position{game: tablut, text: START}, limits{movetime_ms}}."""
    position = field(1, b"tablut") + field(3, START.encode())
    limits = bytes([3 << 3]) + varint(movetime_ms)
    return field(1, position) + field(2, limits)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(caberd, port):
    """caberd on 127.0.0.1:port, once it says it listens."""
    process = subprocess.Popen(
        # Places for every client's search (two run, two wait: a 200 ms
        # search waits at most that long).
        [caberd, "--listen", f"127.0.0.1:{port}", "--shutdown-grace-ms", "5000",
         "--search-threads", "2", "--max-searches", str(CLIENTS)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    line = process.stdout.readline()
    if not line.startswith("caberd listening on "):
        raise SystemExit(f"rolling_update_test: caberd did not start: {line!r}")
    return process


def main():
    caberd = sys.argv[1] if len(sys.argv) > 1 else "target/release/caberd"
    port_a, port_b = free_port(), free_port()
    target = f"ipv4:127.0.0.1:{port_a},127.0.0.1:{port_b}"
    options = [
        ("grpc.service_config", json.dumps(SERVICE_CONFIG)),
        ("grpc.enable_retries", 1),
        # round_robin.py explains: caberd refuses a list as :authority.
        ("grpc.default_authority", f"127.0.0.1:{port_a}"),
    ]
    a = start(caberd, port_a)
    running = threading.Event()
    running.set()
    lock = threading.Lock()
    calls = {"ok": 0, "failed": []}
    served_after_a = threading.Event()
    a_exited = threading.Event()

    def client(index):
        with grpc.insecure_channel(target, options=options) as channel:
            list_games = channel.unary_unary("/caber.v1.GameEngine/ListGames")
            best_move = channel.unary_unary("/caber.v1.GameEngine/BestMove")
            request = best_move_request(200)
            n = 0
            while running.is_set():
                try:
                    if (n + index) % 2:
                        best_move(request, timeout=10, wait_for_ready=True)
                    else:
                        list_games(b"", timeout=10, wait_for_ready=True)
                    with lock:
                        calls["ok"] += 1
                    if a_exited.is_set():
                        served_after_a.set()
                except grpc.RpcError as e:
                    with lock:
                        calls["failed"].append(f"{e.code().name}: {e.details()}")
                n += 1

    threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
    for t in threads:
        t.start()
    time.sleep(1.0)
    b = start(caberd, port_b)
    # Long enough for the clients to connect to B (reconnect backoff ~1 s).
    time.sleep(2.0)
    with lock:
        before = calls["ok"]
    a.send_signal(signal.SIGTERM)
    a_status = a.wait(timeout=30)
    a_exited.set()
    time.sleep(1.5)
    running.clear()
    for t in threads:
        t.join(timeout=30)
    b.send_signal(signal.SIGTERM)
    b_status = b.wait(timeout=30)

    print(
        f"rolling_update_test: {calls['ok']} calls succeeded ({before} before A's SIGTERM), "
        f"{len(calls['failed'])} failed; A exited {a_status}, B exited {b_status}"
    )
    problems = []
    if calls["failed"]:
        problems.append(f"failed calls: {sorted(set(calls['failed']))}")
    if not served_after_a.is_set():
        problems.append("no call succeeded after A exited (B did not take over)")
    if a_status != 0 or b_status != 0:
        problems.append(f"exit statuses A {a_status}, B {b_status}")
    if before == 0:
        problems.append("no call before the update")
    if problems:
        print("rolling_update_test: FAIL: " + "; ".join(problems), file=sys.stderr)
        sys.exit(1)
    print("rolling_update_test: passed")


if __name__ == "__main__":
    os.chdir(pathlib.Path(__file__).resolve().parents[2])
    main()
