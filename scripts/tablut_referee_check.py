#!/usr/bin/env python3
"""Checks `caber tablut-challenge serve` against the competition's server.

    cargo build --release -p caber-cli --bin caber
    python3 scripts/tablut_referee_check.py --server-repo CLONE [--records FILE...]

CLONE is the user's clone, outside this repository, of
AGalassi/TablutCompetition; the server is built into --out (javac, as
scripts/tablut_challenge.py does) and nothing of it is copied into the
project. Each case is a list of moves that two raw clients play, as the
protocol says, first on the competition's server (`-t 10`, Ashton rules),
then on the referee (same ports, same time): the records' games in full
(by default every record in docs/games/tablut-challenge-2026-12-06), a
repetition draw, and games cut short by an illegal move of either side.
Every state each client receives, byte for byte, and the end (a final
state, or the connection closed) must be the same on both. Prints one line
per case and exits 1 if any differs.
"""

import argparse
import glob
import json
import os
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tablut_challenge import CABER, ROOT, build_server, git_commit  # noqa: E402


def record_moves(path):
    moves = []
    with open(path) as f:
        for line in f:
            if line and line[0].isdigit():
                moves.append(line.split()[1])
    return moves


def frame(sock):
    """The next frame's text, or None once the server closed."""
    def exactly(n):
        data = b""
        while len(data) < n:
            chunk = sock.recv(n - len(data))
            if not chunk:
                return None
            data += chunk
        return data
    length = exactly(4)
    if length is None:
        return None
    body = exactly(struct.unpack(">i", length)[0])
    return None if body is None else body.decode()


def send(sock, text):
    data = text.encode()
    sock.sendall(struct.pack(">i", len(data)) + data)


def connect(port):
    for _ in range(100):
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=30)
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on {port}")


def client(port, name, color, moves, seen):
    """Plays `moves` (its own: every other one) and keeps every state."""
    sock = connect(port)
    send(sock, f'"{name}"')
    mine = iter(moves)
    while True:
        state = frame(sock)
        seen.append(state)
        if state is None or '"turn":"' + color + '"' not in state:
            if state is None or "WIN" in state or "DRAW" in state:
                break
            continue
        move = next(mine, "a1-a1")
        source, target = move.split("-")
        send(sock, f'{{"from":"{source}","to":"{target}","turn":"{color}"}}')
    sock.close()


def play(command, cwd, moves):
    """Both clients' states on the server `command` starts."""
    server = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    seen = {"WHITE": [], "BLACK": []}
    own = {"WHITE": moves[0::2], "BLACK": moves[1::2]}
    threads = []
    for color, port in (("WHITE", 5800), ("BLACK", 5801)):
        t = threading.Thread(target=client, args=(port, color.lower(), color, own[color], seen[color]))
        t.start()
        threads.append(t)
        time.sleep(0.5)  # white names itself first
    for t in threads:
        t.join(timeout=120)
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
    return seen


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server-repo", required=True)
    parser.add_argument("--records", nargs="*",
                        default=sorted(glob.glob(os.path.join(ROOT, "docs/games/tablut-challenge-2026-12-06/*.record"))))
    parser.add_argument("--caber", default=CABER)
    parser.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "caber-referee-check"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    classpath = build_server(args.server_repo, args.out)
    java = ["java", "-cp", classpath, "it.unibo.ai.didattica.competition.tablut.server.Server", "-t", "10"]
    referee = [args.caber, "tablut-challenge", "serve", "--host", "127.0.0.1", "-t", "10",
               "--record", os.path.join(args.out, "referee.record")]
    first = record_moves(args.records[0])
    cases = [(os.path.basename(r), record_moves(r)) for r in args.records]
    cases += [
        # White e3 and black's a4 soldier go and come back: the position
        # after ply 3 comes again after ply 7, a draw.
        ("repetition", ["e3-d3", "a4-a3", "d3-e3", "a3-b3", "e3-d3", "b3-a3", "d3-e3"]),
        ("white illegal after 10 plies", first[:10] + ["e4-e5"]),
        ("black illegal after 11 plies", first[:11] + ["h5-h5"]),
    ]
    print(f"server {git_commit(args.server_repo)}, caber {git_commit(ROOT)}", flush=True)
    failures = 0
    for name, moves in cases:
        theirs = play(java, args.out, moves)
        ours = play(referee, args.out, moves)
        same = theirs == ours
        failures += not same
        last = theirs["WHITE"][-1]
        end = json.loads(last)["turn"] if last else "closed"
        print(f"{name}: {len(theirs['WHITE'])} states, ends {end}: {'same' if same else 'DIFFERENT'}", flush=True)
        if not same:
            for color in theirs:
                for i, (a, b) in enumerate(zip(theirs[color], ours[color])):
                    if a != b:
                        print(f"  {color} state {i}: server {a!r}\n  {' ' * len(color)} referee {b!r}")
                        break
                if len(theirs[color]) != len(ours[color]):
                    print(f"  {color}: server {len(theirs[color])} states, referee {len(ours[color])}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
