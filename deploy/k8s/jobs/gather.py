#!/usr/bin/env python3
"""Adds up the shards of the caber-match Indexed Job (match.yaml).

Reads lines `INDEX JSON` on standard input: a shard's completion index, a
space, and the one JSON object that `caber match --json` printed in that
shard's pod. deploy/README.md shows how to produce them with kubectl (one
line per succeeded pod). Checks that every index 0..COMPLETIONS-1 is there
exactly once (a shard retried after a failure shows up once, from its
succeeded pod) and that the shards played the same players, then prints one
JSON object: the totals, player A's win rate (draws count half) with its 95 %
Wilson interval as `caber match` computes it, and the shards. Exits 1, naming
the problem, when a shard is missing, repeated, unreadable or was cut short
by errors (`errors`).

Usage: ... | python3 deploy/k8s/jobs/gather.py --completions 4
"""

import argparse
import json
import math
import sys


def win_rate(wins, draws, games):
    """Player A's score rate and its 95 % Wilson interval (as caber's)."""
    if games == 0:
        return 0.0, 0.0, 1.0
    n = float(games)
    p = (wins + 0.5 * draws) / n
    z = 1.96
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2.0 * n)) / denom
    half = z * math.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n)) / denom
    return p, max(centre - half, 0.0), min(centre + half, 1.0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--completions",
        type=int,
        required=True,
        help="the Job's spec.completions: the shards expected (indexes 0..N-1)",
    )
    args = parser.parse_args()

    shards = {}
    problems = []
    for number, line in enumerate(sys.stdin, start=1):
        line = line.strip()
        if not line:
            continue
        index_text, _, body = line.partition(" ")
        try:
            index = int(index_text)
            result = json.loads(body)
        except ValueError as e:
            problems.append(f"line {number}: not `INDEX JSON` ({e}): {line[:120]}")
            continue
        if index in shards:
            problems.append(f"shard {index}: more than one result")
        shards[index] = result

    expected = set(range(args.completions))
    missing = sorted(expected - shards.keys())
    unexpected = sorted(shards.keys() - expected)
    if missing:
        problems.append(f"missing shards: {missing}")
    if unexpected:
        problems.append(f"shards outside 0..{args.completions - 1}: {unexpected}")
    players = {(r.get("a"), r.get("b")) for r in shards.values()}
    if len(players) > 1:
        problems.append(f"the shards played different players: {sorted(players)}")
    for index, result in sorted(shards.items()):
        if result.get("errors"):
            problems.append(f"shard {index} had failed games: {result['errors'][:3]}")
        seats_of = result.get("aSeats")
        if not (isinstance(seats_of, list) and len(seats_of) == 2
                and all(isinstance(s, dict) for s in seats_of)):
            problems.append(f"shard {index}: not a `caber match --json` result")
    if problems:
        for problem in problems:
            print(f"gather: {problem}", file=sys.stderr)
        sys.exit(1)

    def seats(r, key):
        return sum(int(seat[key]) for seat in r["aSeats"])

    totals = {
        "games": sum(int(r["games"]) for r in shards.values()),
        "a_wins": sum(seats(r, "wins") for r in shards.values()),
        "b_wins": sum(seats(r, "losses") for r in shards.values()),
        "draws": sum(seats(r, "draws") for r in shards.values()),
    }
    rate, low, high = win_rate(totals["a_wins"], totals["draws"], totals["games"])
    ((player_a, player_b),) = players
    print(
        json.dumps(
            {
                "player_a": player_a,
                "player_b": player_b,
                **totals,
                "a_win_rate": rate,
                "a_win_rate_95": [low, high],
                "shards": [shards[i] for i in sorted(shards)],
            }
        )
    )


if __name__ == "__main__":
    main()
