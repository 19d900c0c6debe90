#!/usr/bin/env python3
"""Regenerates the README's benchmark tables from the release `caber` binary.

    cargo build --release -p caber-cli --bin caber
    python3 scripts/benchmarks.py [--seconds S]
        [--match-games N [--match-movetime MS] [--match-only GAME[/VARIANT] ...]]

Measures, one thread each, on this machine now:
- uniformly random full games per second of every game and variant
  (`caber bench playouts --json`), against Ludii's figures for a quiet
  machine of this class (issue 15: Tablut 831-961, AlmaTafl 408-460);
- Ashton perft(5) from the start: the count and the time it took;
- alpha-beta to a fixed depth from fixed positions: nodes, nodes per second
  and the time to that depth, on 1 thread and on 2;
and, with --match-games N (N > 0), matches of the default engine against
`uct-baseline` in every perfect-information game and variant and of ISMCTS
against `greedy` in every Schotten Totten variant, at --match-movetime ms a
move (without it the match table is left as it is). With --match-only, only
the rows of those games (or variants) are played again; every row says when
it was played and at what settings, so a table may hold rows of several runs
(a 400-game match of one variant takes about 1.3 hours of both cores).

The tables are written between the `<!-- benchmarks:begin/end -->` and
`<!-- matches:begin/end -->` markers of README.md. Shared machines are
noisy: compare figures of one run with each other, not across runs.
"""

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import time
from datetime import date

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, "README.md")

# The games and variants come from `caber games --json` (every game the
# binary serves); these only tune what is measured of some of them.
# Ludii's uniformly random games per second on a quiet 2-core machine (issue 15).
LUDII = {("tablut", "linnaeus"): (831, 961), ("almatafl", "standard"): (408, 460)}
# The depth of the search timed from each variant's start, where the default
# (SEARCH_DEPTH, from the default variant of every game searched by depth)
# would be too short or too long to say much.
SEARCH_DEPTHS = {
    ("tablut", "ashton"): 8,
    ("tablut", "linnaeus"): 7,
    ("almatafl", "standard"): 6,
    ("tartan", "standard"): 10,
}
SEARCH_DEPTH = 5


def caber(binary, *args):
    """Runs caber with `args`; returns (stdout, wall seconds, CPU seconds)."""
    before = os.times()
    start = time.perf_counter()
    done = subprocess.run(
        [binary, *args], check=True, capture_output=True, text=True, cwd=ROOT
    )
    wall = time.perf_counter() - start
    after = os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return done.stdout, wall, cpu


def last_json(text):
    return json.loads(text.strip().splitlines()[-1])


def games(binary):
    """What `caber games --json` lists: every game the binary serves."""
    out, _, _ = caber(binary, "games", "--json")
    return last_json(out)["games"]


def variants(listed):
    """(game, variant) of every variant of every listed game."""
    return [(g["name"], v["name"]) for g in listed for v in g["variants"]]


def default_of(items):
    """The name of the item marked default (a `ListGames` reply's variants
    or searchers; fields at their default are left out of its JSON)."""
    return next(i["name"] for i in items if i.get("isDefault"))


def search_runs(listed):
    """(game, variant, depth) of the searches timed: SEARCH_DEPTHS, and the
    default variant of every other game whose default searcher searches by
    depth (alpha-beta)."""
    runs = [(g, v, d) for (g, v), d in SEARCH_DEPTHS.items()]
    for g in listed:
        searched = {game for game, _, _ in runs}
        if default_of(g["searchers"]) == "alphabeta" and g["name"] not in searched:
            runs.append((g["name"], default_of(g["variants"]), SEARCH_DEPTH))
    return runs


def match_plays(listed):
    """(game, variant, A, B): the default engine of every variant against the
    baseline: plain UCT where the game has it, else its other searcher."""
    plays = []
    for g in listed:
        searchers = g["searchers"]
        if any("uct-baseline" in s.get("aliases", []) for s in searchers):
            baseline = "uct-baseline"
        else:
            baseline = next(s["name"] for s in searchers if not s.get("isDefault"))
        plays += [(g["name"], v["name"], "default", baseline) for v in g["variants"]]
    return plays


def playouts(binary, listed, seconds):
    rows = [
        "| game | variant | random games/s | moves/s | mean length | x Ludii (quiet machine) |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for game, variant in variants(listed):
        out, _, _ = caber(
            binary, "--game", game, "--variant", variant,
            "bench", "playouts", "--seconds", str(seconds), "--json",
        )
        r = last_json(out)
        ludii = LUDII.get((game, variant))
        ratio = (
            f"{r['gamesPerSecond'] / ludii[1]:.0f}-{r['gamesPerSecond'] / ludii[0]:.0f}x"
            if ludii
            else ""
        )
        rows.append(
            f"| {game} | {variant} | {r['gamesPerSecond']:,.0f} | "
            f"{r['movesPerSecond']:,.0f} | {r['meanLength']:.1f} | {ratio} |"
        )
    return rows


def perft(binary):
    out, wall, cpu = caber(
        binary, "--game", "tablut", "--variant", "ashton", "perft", "--depth", "5", "--json"
    )
    nodes = int(last_json(out)["nodes"])
    return [
        "| perft | nodes | wall s | CPU s |",
        "| --- | ---: | ---: | ---: |",
        f"| tablut ashton, depth 5 | {nodes:,} | {wall:.2f} | {cpu:.2f} |",
    ]


def searches(binary, listed):
    rows = [
        "| search from the start | depth | threads | nodes | nodes/s | time to depth, s |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for game, variant, depth in search_runs(listed):
        for threads in (1, 2):
            out, _, _ = caber(
                binary, "--game", game, "--variant", variant, "best",
                "--depth", str(depth), "--threads", str(threads), "--json",
            )
            # The `BestMove` reply; 64-bit counts come as strings.
            r = last_json(out)["stats"]
            rows.append(
                f"| {game} {variant} | {depth} | {threads} | {int(r['nodes']):,} | "
                f"{int(r['nps']):,} | {int(r['timeMs']) / 1000:.2f} |"
            )
    return rows


MATCH_HEAD = [
    "| game | variant | A | B | games | ms a move | A's score | Elo (95%) | played |",
    "| --- | --- | --- | --- | ---: | ---: | ---: | --- | --- |",
]


def matches(binary, listed, games, movetime, only, kept, when):
    """The match table: the rows of `only` ((game, variant) pairs; every
    pair if empty) played now, the others as `kept` has them."""
    rows = list(MATCH_HEAD)
    for game, variant, a, b in match_plays(listed):
        if only and (game, variant) not in only:
            if (game, variant) in kept:
                rows.append(kept[(game, variant)])
            continue
        out, _, _ = caber(
            binary, "--game", game, "--variant", variant, "match",
            "--a", a, "--b", b, "--games", str(games), "--movetime", str(movetime),
            "--concurrency", "2", "--no-records", "--json",
        )
        r = last_json(out)
        low, high = r["elo95"]
        unbounded = "+inf" if r["aScore"] >= 0.5 else "-inf"
        rows.append(
            f"| {game} | {variant} | {a} | {b} | {r['games']} | {movetime} | "
            f"{100 * r['aScore']:.1f}% | "
            f"{signed(r['elo'], unbounded)} ({signed(low, '-inf')} .. {signed(high, '+inf')}) | "
            f"{when} |"
        )
    return rows


def kept_rows(text):
    """The match table's rows now in `text`, by (game, variant)."""
    section = text[text.index("<!-- matches:begin -->"):text.index("<!-- matches:end -->")]
    rows = {}
    width = len(MATCH_HEAD[0].strip("|").split("|"))
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if line.startswith("| ") and len(cells) == width and cells[0] not in ("game", "---"):
            rows[(cells[0], cells[1])] = line
    return rows


def selected(listed, names):
    """The (game, variant) pairs `--match-only` names (GAME or GAME/VARIANT)."""
    pairs = set()
    for name in names:
        game, _, variant = name.partition("/")
        found = [(g, v) for g, v in variants(listed) if g == game and variant in ("", v)]
        if not found:
            sys.exit(f"--match-only {name}: no such game or variant")
        pairs.update(found)
    return pairs


def signed(elo, unbounded):
    """An Elo figure; JSON null (no finite value) is shown as `unbounded`."""
    return unbounded if elo is None else f"{elo + 0.0:+.0f}"  # + 0.0: no "-0"


def replace(text, name, lines):
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
    if not pattern.search(text):
        sys.exit(f"README.md has no {begin} ... {end} section")
    return pattern.sub(lambda _: "\n".join([begin, *lines, end]), text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, "target/release/caber"))
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--match-games", type=int, default=0)
    parser.add_argument("--match-movetime", type=int, default=1000)
    parser.add_argument("--match-only", action="append", default=[], metavar="GAME[/VARIANT]")
    args = parser.parse_args()
    when = f"{date.today()}, {platform.machine()}, {os.cpu_count()} cores"
    lines = [f"Measured {when} by `python3 scripts/benchmarks.py --seconds {args.seconds:g}`.", ""]
    listed = games(args.binary)
    lines += playouts(args.binary, listed, args.seconds) + [""]
    lines += perft(args.binary) + [""]
    lines += searches(args.binary, listed)
    with open(README) as f:
        text = f.read()
    text = replace(text, "benchmarks", lines)
    if args.match_games > 0:
        only = selected(listed, args.match_only)
        rows = matches(
            args.binary, listed, args.match_games, args.match_movetime, only,
            kept_rows(text), f"{date.today()}",
        )
        head = (
            f"Played on {platform.machine()}, {os.cpu_count()} cores by `python3 scripts/benchmarks.py "
            "--match-games N --match-movetime MS` (`--match-only GAME/VARIANT` for some rows)."
        )
        text = replace(text, "matches", [head, "", *rows])
    with open(README, "w") as f:
        f.write(text)
    print(text[text.index("<!-- benchmarks:begin -->"):text.index("<!-- matches:end -->")])


if __name__ == "__main__":
    main()
