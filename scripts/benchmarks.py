#!/usr/bin/env python3
"""Regenerates the README's benchmark tables from the release `caber` binary.

    cargo build --release -p caber-cli --bin caber
    python3 scripts/benchmarks.py [--seconds S]
        [--ludii CLONE [--ludii-almatafl FILE] [--ludii-rounds N] [--ludii-seconds S]]
        [--match-games N [--match-movetime MS] [--match-only GAME[/VARIANT] ...]]

Measures, one thread each, on this machine now:
- uniformly random full games per second of every game and variant
  (`caber bench playouts --json`);
- Ashton perft(5) from the start: the count and the time it took;
- alpha-beta to a fixed depth from fixed positions: nodes, nodes per second
  and the time to that depth, on 1 thread and on 2;
- Monte Carlo tree search (`mcts`, uniformly random playouts) for a fixed
  number of nodes from the start: nodes per second, one thread;
with --baseline BINARY (an earlier build, say of the commit before a speed
change, named by --baseline-label), every figure of those tables measured
with it too, row by row in the same run, beside the ratio now/baseline;
with --ludii CLONE (a clone of Ludii outside this repository, e.g. of the
mirror docs/MEASUREMENTS.md names), random playouts side by side with
Ludii's in Tablut `linnaeus` and AlmaTafl: Ludii's Common, Language and Core
are compiled into --ludii-build (javac, about a minute), with the harness
scripts/ludii/LudiiPlayouts.java (Ludii's own `game.playout`, timed by its
thread's CPU after a --ludii-warmup); then --ludii-rounds rounds alternate
Ludii and `caber bench playouts`, --ludii-seconds each, and the ratios per
game and per move of each round are printed and written to the README's
`<!-- ludii:begin/end -->` table (AlmaTafl's file is not in every Ludii
snapshot: --ludii-almatafl FILE gives it);
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
import tempfile
import time
from datetime import date

from tablut_challenge import git_commit

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, "README.md")

# The games and variants come from `caber games --json` (every game the
# binary serves); these only tune what is measured of some of them.
# The games played side by side with Ludii: the .lud file in a Ludii clone
# and its ruleset ("" for the game's own).
LUDII_GAMES = {
    ("tablut", "linnaeus"): ("Common/res/lud/board/war/custodial/Tablut.lud", "Ruleset/Linnaeus (Observed)"),
    ("almatafl", "standard"): ("Common/res/lud/board/war/custodial/AlmaTafl.lud", ""),
}
LUDII_HARNESS = os.path.join(ROOT, "scripts", "ludii", "LudiiPlayouts.java")
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
# The Monte Carlo searches timed from the start: nodes a search.
MCTS_NODES = {
    ("tablut", "ashton"): 100_000,
    ("tablut", "linnaeus"): 100_000,
    ("almatafl", "standard"): 100_000,
    ("tartan", "standard"): 50_000,
}


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


def caber_playouts(binary, game, variant, seconds):
    """`caber bench playouts`: games/s, moves/s and mean length, one thread."""
    out, _, _ = caber(
        binary, "--game", game, "--variant", variant,
        "bench", "playouts", "--seconds", str(seconds), "--json",
    )
    r = last_json(out)
    return r["gamesPerSecond"], r["movesPerSecond"], r["meanLength"]


def table(head, rows, baseline, label, what):
    """A table's lines: `head` is its columns, `rows` (cells, figure) with
    `figure(binary)` a row's last cells and its number `what` (None: the
    current binary). With a baseline binary, each row also gets the
    baseline's number, measured just before, and the ratio now/baseline;
    `label` names the baseline."""
    text = len(rows[0][0])  # the columns that name the row, left-aligned
    lines = [f"| {' | '.join(head)} |",
             "| " + " | ".join("---" if i < text else "---:" for i in range(len(head))) + " |"]
    if baseline:
        lines[0] += f" {what}, {label} | x {label} |"
        lines[1] += " ---: | ---: |"
    for cells, figure in rows:
        before = figure(baseline)[1] if baseline else None
        shown, now = figure(None)
        line = f"| {' | '.join(cells + shown)} |"
        if baseline:
            line += f" {before:,.0f} | {now / before:.2f}x |"
        lines.append(line)
    return lines


def playouts(binary, listed, seconds, baseline, label):
    def figure(game, variant):
        def of(other):
            games_s, moves_s, length = caber_playouts(other or binary, game, variant, seconds)
            return [f"{games_s:,.0f}", f"{moves_s:,.0f}", f"{length:.1f}"], games_s
        return of
    head = ["game", "variant", "random games/s", "moves/s", "mean length"]
    rows = [([game, variant], figure(game, variant)) for game, variant in variants(listed)]
    return table(head, rows, baseline, label, "games/s")


def build_ludii(clone, build):
    """The class path of Ludii (Common, Language and Core of `clone`,
    compiled into `build` once per commit) and of the harness."""
    lib = os.path.join(clone, "Common", "lib")
    jars = [os.path.join(lib, j) for j in ("json-20180813.jar", "Trove4j_ApacheCommonsRNG.jar", "jfreesvg-3.4.jar")]
    tests = [os.path.join(lib, j) for j in ("junit-4.12.jar", "hamcrest-all-1.3.jar")]
    classes = os.path.join(build, "classes")
    stamp = os.path.join(classes, ".commit")
    commit = git_commit(clone)
    if not (os.path.exists(stamp) and open(stamp).read() == commit):
        sources = []
        for part in ("Common", "Language", "Core"):
            for folder, _, files in os.walk(os.path.join(clone, part, "src")):
                sources += [os.path.join(folder, f) for f in files if f.endswith(".java")]
        os.makedirs(classes, exist_ok=True)
        listing = os.path.join(build, "sources.txt")
        with open(listing, "w") as f:
            f.write("\n".join(sources))
        print(f"compiling Ludii {commit[:7]}: {len(sources)} files", file=sys.stderr)
        # -parameters: without it Ludii's grammar compiles no game.
        subprocess.run(
            ["javac", "-J-Xmx3g", "-parameters", "-nowarn", "-encoding", "UTF-8",
             "-cp", os.pathsep.join(jars + tests), "-d", classes, "@" + listing],
            check=True, capture_output=True,
        )
        with open(stamp, "w") as f:
            f.write(commit)
    harness = os.path.join(build, "harness")
    os.makedirs(harness, exist_ok=True)
    subprocess.run(
        ["javac", "-nowarn", "-cp", os.pathsep.join([classes, *jars]), "-d", harness, LUDII_HARNESS],
        check=True, capture_output=True,
    )
    return os.pathsep.join([harness, classes, os.path.join(clone, "Common", "res"), *jars])


def ludii_playouts(classpath, lud, ruleset, warmup, seconds):
    """Ludii's games/s and moves/s per CPU second of its playout thread."""
    done = subprocess.run(
        ["java", "-cp", classpath, "LudiiPlayouts", lud, ruleset, str(warmup), str(seconds)],
        check=True, capture_output=True, text=True,
    )
    r = last_json(done.stdout)
    return r["games"] / r["cpuSeconds"], r["moves"] / r["cpuSeconds"]


def spread(values, fmt):
    low, high = min(values), max(values)
    return fmt(low) if fmt(low) == fmt(high) else f"{fmt(low)}-{fmt(high)}"


def side_by_side(binary, args):
    """Ludii's and Caber's random playouts in alternating rounds of one run:
    the README's rows and a line per round."""
    classpath = build_ludii(args.ludii, args.ludii_build)
    when = f"{date.today()}, {platform.machine()}, {os.cpu_count()} cores"
    rows = [
        f"Measured {when} by `python3 scripts/benchmarks.py --ludii CLONE` (Ludii "
        f"{git_commit(args.ludii)[:7]}, Caber {git_commit(ROOT)[:7]}): {args.ludii_rounds} rounds "
        f"alternating Ludii (`game.playout`, per CPU second of its thread after a {args.ludii_warmup:g} s "
        f"warm-up) and `caber bench playouts` (one thread), {args.ludii_seconds:g} s each; the ratios "
        "are each round's, Caber over Ludii. Ludii counts each AlmaTafl king hop as a move.",
        "",
        "| game | Ludii games/s | Ludii moves/s | Caber games/s | Caber moves/s | x Ludii per game | x Ludii per move |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    number = lambda v: f"{v:,.0f}"
    times = lambda v: f"{v:.1f}x"
    for (game, variant), (path, ruleset) in LUDII_GAMES.items():
        lud = os.path.join(args.ludii, path)
        if game == "almatafl" and args.ludii_almatafl:
            lud = args.ludii_almatafl
        if not os.path.exists(lud):
            sys.exit(f"{lud}: no such file (AlmaTafl's: --ludii-almatafl FILE)")
        ludii, ours = [], []
        for n in range(args.ludii_rounds):
            ludii.append(ludii_playouts(classpath, lud, ruleset, args.ludii_warmup, args.ludii_seconds))
            ours.append(caber_playouts(binary, game, variant, args.ludii_seconds)[:2])
            print(
                f"{game} {variant} round {n + 1}: Ludii {ludii[-1][0]:,.0f} games/s {ludii[-1][1]:,.0f} moves/s, "
                f"Caber {ours[-1][0]:,.0f} games/s {ours[-1][1]:,.0f} moves/s: "
                f"{ours[-1][0] / ludii[-1][0]:.1f}x per game, {ours[-1][1] / ludii[-1][1]:.1f}x per move",
                flush=True,
            )
        per_game = [o[0] / l[0] for o, l in zip(ours, ludii)]
        per_move = [o[1] / l[1] for o, l in zip(ours, ludii)]
        rows.append(
            f"| {game} {variant} | {spread([l[0] for l in ludii], number)} | "
            f"{spread([l[1] for l in ludii], number)} | {spread([o[0] for o in ours], number)} | "
            f"{spread([o[1] for o in ours], number)} | **{spread(per_game, times)}** | "
            f"**{spread(per_move, times)}** |"
        )
    return rows


def perft(binary, baseline, label):
    def figure(other):
        out, wall, cpu = caber(
            other or binary, "--game", "tablut", "--variant", "ashton", "perft", "--depth", "5", "--json"
        )
        nodes = int(last_json(out)["nodes"])
        # The ratio compares speeds: nodes per CPU second.
        return [f"{nodes:,}", f"{wall:.2f}", f"{cpu:.2f}"], nodes / cpu
    head = ["perft", "nodes", "wall s", "CPU s"]
    return table(head, [(["tablut ashton, depth 5"], figure)], baseline, label, "nodes per CPU s")


def best(binary, game, variant, *limits):
    """The `BestMove` reply's statistics (64-bit counts come as strings)."""
    out, _, _ = caber(binary, "--game", game, "--variant", variant, "best", *limits, "--json")
    return last_json(out)["stats"]


def searches(binary, listed, baseline, label):
    def figure(game, variant, depth, threads):
        def of(other):
            r = best(other or binary, game, variant, "--depth", str(depth), "--threads", str(threads))
            cells = [f"{int(r['nodes']):,}", f"{int(r['nps']):,}", f"{int(r['timeMs']) / 1000:.2f}"]
            return cells, int(r["nps"])
        return of
    head = ["search from the start", "depth", "threads", "nodes", "nodes/s", "time to depth, s"]
    rows = [([f"{game} {variant}", str(depth), str(threads)], figure(game, variant, depth, threads))
            for game, variant, depth in search_runs(listed) for threads in (1, 2)]
    return table(head, rows, baseline, label, "nodes/s")


def monte_carlo(binary, baseline, label):
    def figure(game, variant, nodes):
        def of(other):
            r = best(other or binary, game, variant, "--searcher", "mcts", "--nodes", str(nodes))
            return [f"{int(r['nps']):,}", f"{int(r['timeMs']) / 1000:.2f}"], int(r["nps"])
        return of
    head = ["mcts from the start", "nodes", "nodes/s", "time, s"]
    rows = [([f"{game} {variant}", f"{nodes:,}"], figure(game, variant, nodes))
            for (game, variant), nodes in MCTS_NODES.items()]
    return table(head, rows, baseline, label, "nodes/s")


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
    parser.add_argument("--baseline", metavar="BINARY", help="an earlier build to measure beside")
    parser.add_argument("--baseline-label", default="baseline", help="what the baseline is (a commit)")
    parser.add_argument("--ludii", metavar="CLONE", help="a Ludii clone: playouts side by side")
    parser.add_argument("--ludii-almatafl", metavar="FILE", help="AlmaTafl.lud, if not in the clone")
    parser.add_argument("--ludii-build", default=os.path.join(tempfile.gettempdir(), "caber-ludii-build"))
    parser.add_argument("--ludii-rounds", type=int, default=3)
    parser.add_argument("--ludii-seconds", type=float, default=10.0)
    parser.add_argument("--ludii-warmup", type=float, default=8.0)
    parser.add_argument("--match-games", type=int, default=0)
    parser.add_argument("--match-movetime", type=int, default=1000)
    parser.add_argument("--match-only", action="append", default=[], metavar="GAME[/VARIANT]")
    args = parser.parse_args()
    when = f"{date.today()}, {platform.machine()}, {os.cpu_count()} cores"
    command = f"python3 scripts/benchmarks.py --seconds {args.seconds:g}"
    if args.baseline:
        command += f" --baseline BINARY --baseline-label {args.baseline_label}"
    lines = [f"Measured {when} by `{command}` (Caber {git_commit(ROOT)[:7]}).", ""]
    listed = games(args.binary)
    compared = (args.baseline, args.baseline_label)
    lines += playouts(args.binary, listed, args.seconds, *compared) + [""]
    lines += perft(args.binary, *compared) + [""]
    lines += searches(args.binary, listed, *compared) + [""]
    lines += monte_carlo(args.binary, *compared)
    with open(README) as f:
        text = f.read()
    text = replace(text, "benchmarks", lines)
    if args.ludii:
        text = replace(text, "ludii", side_by_side(args.binary, args))
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
