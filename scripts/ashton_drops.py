#!/usr/bin/env python3
"""Counts the soldiers white leaves en prise in ashton in the four games of
issue 15.

    cargo build --release -p caber-cli --bin caber
    python3 scripts/ashton_drops.py [--binary PATH] [--depth 5 | --movetime MS]

For every position of the issue's four games (Caber as
white, moves from the start) where white is to move, asks the engine for its
move (`best --depth D` or `--movetime MS`) and then looks at black's replies:
a turn counts as a drop when black has a move capturing a white soldier after
which white has no capture of its own. Prints each game's drops and the
total, so that two builds (`--binary`) can be compared on the same positions;
deterministic at a fixed depth.

For the games of a match, the engine example `ashton_drops` counts the
soldiers white lost to black's next move and which of those losses another
move would have avoided.
"""

import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

GAMES = [
    "e4-d4 i4-e4 f5-f4 e2-e4 e5-f5 a4-c4 d5-d4 e1-e4 f5-f6 d9-d5 f4-f2 e4-f4 "
    "f6-g6 e8-g8 g5-g1 f4-f3 e6-b6 c4-c6 e7-a7 f3-g3 g6-f6 h5-h1 f6-f3 b5-b3 "
    "f3-f7 g3-g7 f7-b7 e9-b9 a7-a9 a6-a7 a9-a8 a5-a7 b7-c7 f9-c9 a8-c8 d5-d7 "
    "c8-a8 b9-b7",
    "e4-d4 i4-e4 f5-f4 e2-e4 e5-f5 a4-c4 f5-f6 a6-c6 f4-f2 e4-f4 f6-h6 e8-h8 "
    "h6-g6 h8-g8 g5-g1 f4-f3 d5-d4 f3-g3 g6-f6 f9-f7 f6-f5 e1-e4 e7-d7 i6-f6 "
    "d7-d3 h5-g5 f5-f2 g3-g2",
    "e4-d4 i4-e4 f5-f4 e2-e4 e5-f5 a4-c4 f5-f6 a6-c6 f4-f2 e4-f4 e6-d6 f4-f3 "
    "f6-f7 h5-h7 d6-d8 c6-c8 f7-f6 c8-c5 f6-g6 h7-g7 g6-c6 e8-c8 c6-d6 i6-e6 "
    "d6-d3 b5-b3 d3-d7 c5-c7 d7-e7 f3-f5 e7-e6 d1-d6 e6-g6 i5-g5",
    "e4-d4 i4-e4 f5-f4 e2-e4 e5-f5 a4-c4 f5-f6 a6-c6 f4-h4 f1-f3 f6-h6 e8-h8 "
    "h6-g6 h8-g8 g6-f6 e4-g4 f6-f7 g8-g7 d5-c5 f3-f5 e6-f6 f9-f8 c5-d5 b5-c5 "
    "e7-e6 e9-e7",
]


def caber(binary, moves, *args):
    """Runs `caber --variant ashton --moves MOVES ARGS --json`; returns its JSON."""
    command = [binary, "--game", "tablut", "--variant", "ashton", "--moves", " ".join(moves), "--json"]
    done = subprocess.run(command + list(args), capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def captures(binary, moves, move):
    """The capture events of playing `move` after `moves`."""
    events = caber(binary, moves, "apply", move)["events"]
    return [event for event in events if event["kind"] == "capture"]


def has_capture(binary, moves):
    """Whether the side to move after `moves` has a capturing move."""
    legal = caber(binary, moves, "legal")["moves"]
    return any(captures(binary, moves, move["text"]) for move in legal)


def drop(binary, moves):
    """A black capture of a soldier after `moves` that white cannot answer with one, or None."""
    for reply in (m["text"] for m in caber(binary, moves, "legal")["moves"]):
        taken = captures(binary, moves, reply)
        if taken and not has_capture(binary, moves + [reply]):
            return reply
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "caber"))
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--depth", type=int, default=5)
    budget.add_argument("--movetime", type=int)
    args = parser.parse_args()
    limit = ["--movetime", str(args.movetime)] if args.movetime else ["--depth", str(args.depth)]

    total_turns = total_drops = 0
    for number, game in enumerate(GAMES, 1):
        played = game.split()
        turns = drops = 0
        for ply in range(0, len(played), 2):
            moves = played[:ply]
            chosen = caber(args.binary, moves, "best", *limit)["bestMove"]["text"]
            reply = drop(args.binary, moves + [chosen])
            turns += 1
            if reply:
                drops += 1
                print(f"game {number} ply {ply + 1}: {chosen} leaves {reply}", file=sys.stderr)
        print(f"game {number}: {drops} of {turns} white turns leave black a free capture")
        total_turns += turns
        total_drops += drops
    print(f"total: {total_drops} of {total_turns}")


if __name__ == "__main__":
    main()
