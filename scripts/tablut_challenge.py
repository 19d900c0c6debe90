#!/usr/bin/env python3
"""Plays Caber against another Tablut Challenge engine on the competition's server.

    cargo build --release -p caber-cli --bin caber
    python3 scripts/tablut_challenge.py --server-repo CLONE --opponent-repo CLONE \
        [--games-per-color N] [--colors white,black] [--out DIR] [-- CABER_SEARCH_OPTIONS...]

CLONE paths are the user's clones, outside this repository, of
AGalassi/TablutCompetition (the server) and albe873/tablut.cpp (the
opponent, `Player1`); this script builds both into --out/build (javac; g++
with OpenMP, as the opponent's CMake release build does) and copies
nothing of either into the project.

Each game starts a fresh server (`-t --server-timeout`, Ashton rules) in its
own directory (the server writes its logs there), the opponent
(`Player1 COLOR --server-timeout`, which keeps 4 s of it back: 1 s a move at
-t 5) and `caber tablut-challenge --movetime --caber-movetime` in the other
colour, alternating the colours of --colors (both, or one) until each has
--games-per-color distinct games (a game repeated move for move counts once;
at most --max-games-per-color games each). Every game's record is kept in --out.
Prints one line per game and a summary (per colour: the distinct games and
the lines, games sharing their first --line-plies plies, each line scored
by its games' mean); writes --out/summary.json.
"""

import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CABER = os.path.join(ROOT, "target", "release", "caber")


def git_commit(repo):
    return subprocess.run(
        ["git", "-C", repo, "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()


def build_server(repo, build):
    """The server's classes, compiled with the jars of its lib/."""
    tablut = os.path.join(repo, "Tablut")
    out = os.path.join(build, "server")
    os.makedirs(out, exist_ok=True)
    sources = []
    for folder, _, files in os.walk(os.path.join(tablut, "src")):
        sources += [os.path.join(folder, f) for f in files if f.endswith(".java")]
    classpath = os.path.join(tablut, "lib", "*")
    subprocess.run(
        ["javac", "-nowarn", "-encoding", "ISO-8859-1", "-cp", classpath, "-d", out] + sources,
        check=True,
        capture_output=True,
    )
    return out + os.pathsep + classpath


def build_opponent(repo, build, table):
    """tablut.cpp's Player1, as its CMake release build makes it (-O3, LTO,
    OpenMP); with `table` > 0 its search's transposition table gets that many
    entries (a copy of Player1.cpp in the build folder passes it to the
    search's constructor; the clone is left as it is)."""
    binary = os.path.join(build, "Player1")
    src = os.path.join(repo, "src")
    player = os.path.join(src, "client", "Player1.cpp")
    if table > 0:
        with open(player) as f:
            text = f.read()
        construction = "search(game, 3, maxTime)"
        if construction not in text:
            sys.exit(f"{player}: no `{construction}` to give the table size to")
        player = os.path.join(build, "Player1.cpp")
        with open(player, "w") as f:
            f.write(text.replace(construction, f"search(game, 3, maxTime, {table})"))
    sources = [os.path.join(src, "ashtonTablut", f) for f in sorted(os.listdir(os.path.join(src, "ashtonTablut"))) if f.endswith(".cpp")]
    sources += [os.path.join(src, "serverConnection", f) for f in sorted(os.listdir(os.path.join(src, "serverConnection"))) if f.endswith(".cpp")]
    sources += [os.path.join(src, "adversarialSearch", "utilities.cpp"), player]
    includes = [f"-I{os.path.join(src, d, 'include')}" for d in ("ashtonTablut", "adversarialSearch", "serverConnection")]
    subprocess.run(
        ["g++", "-std=c++20", "-O3", "-DNDEBUG", "-flto", "-fopenmp"] + includes + sources + ["-o", binary],
        check=True,
        capture_output=True,
    )
    return binary


def play(n, caber_color, args, classpath, opponent, caber_options):
    """One game; returns (record path, caber's exit code, result tag, moves)."""
    folder = os.path.join(args.out, f"game-{n:03d}")
    os.makedirs(folder, exist_ok=True)
    record = os.path.join(folder, f"caber-{caber_color}.record")
    log = lambda name: open(os.path.join(folder, name), "w")
    server = subprocess.Popen(
        ["java", "-cp", classpath, "it.unibo.ai.didattica.competition.tablut.server.Server",
         "-t", str(args.server_timeout)],
        cwd=folder, stdout=log("server.log"), stderr=subprocess.STDOUT,
    )
    time.sleep(2)  # the server binds its ports
    caber = [args.caber, "tablut-challenge", "--color", caber_color, "--timeout", str(args.server_timeout),
             "--record", record] + caber_options
    other = "black" if caber_color == "white" else "white"
    them = [opponent, other.upper(), str(args.server_timeout)]
    # White first: the server accepts black only once white has given its name.
    order = [("caber", caber), ("opponent", them)] if caber_color == "white" else [("opponent", them), ("caber", caber)]
    clients = {}
    for name, command in order:
        clients[name] = subprocess.Popen(command, cwd=folder, stdout=log(f"{name}.log"), stderr=subprocess.STDOUT)
        time.sleep(0.5)
    try:
        code = clients["caber"].wait(timeout=args.game_timeout)
        clients["opponent"].wait(timeout=30)
    except subprocess.TimeoutExpired:
        code = None
    finally:
        for p in list(clients.values()) + [server]:
            if p.poll() is None:
                p.kill()
                p.wait()
    result, moves = read_record(record)
    return record, code, result, moves


def score_of(result, color):
    """Caber's points in `color` for a record's Result, which is white's view
    (docs/RECORDS.md: 1-0 white won); None for an unfinished game."""
    won, lost = ("1-0", "0-1") if color == "white" else ("0-1", "1-0")
    return {won: 1.0, lost: 0.0, "1/2-1/2": 0.5}.get(result)


def read_record(path):
    """A record's result tag and moves ("*" and none when it is missing)."""
    result, moves = "*", []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.startswith("[Result "):
                    result = line.split('"')[1]
                elif line[:1].isdigit():
                    moves.append(line.split()[1])
    return result, moves


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--server-repo", required=True, help="a clone of AGalassi/TablutCompetition")
    parser.add_argument("--opponent-repo", required=True, help="a clone of albe873/tablut.cpp")
    parser.add_argument("--games-per-color", type=int, default=20,
                        help="distinct games (not repeated move for move) to play in each colour")
    parser.add_argument("--max-games-per-color", type=int, default=40,
                        help="most games in each colour, repeats included")
    parser.add_argument("--server-timeout", type=int, default=5, help="the server's -t, in seconds")
    parser.add_argument("--caber-movetime", type=int, default=1000, help="Caber's time a move, in ms")
    parser.add_argument("--opponent-table", type=int, default=16 * 1024 * 1024,
                        help="entries of the opponent's transposition table (0: its own default, 200 M, "
                             "which takes more than -t 5 to fill on its first move on a small machine)")
    parser.add_argument("--colors", default="white,black",
                        help="Caber's colours, alternating (white, black or both, comma-separated)")
    parser.add_argument("--line-plies", type=int, default=8,
                        help="games sharing this many first plies are one line in the summary")
    parser.add_argument("--game-timeout", type=int, default=1800, help="the longest game, in seconds")
    parser.add_argument("--out", default="tablut-challenge-games")
    parser.add_argument("--caber", default=CABER, help="the caber binary (default: the release build)")
    parser.add_argument("caber_options", nargs="*", help="more options of caber tablut-challenge")
    args = parser.parse_args()
    colors = [c.strip() for c in args.colors.split(",")]
    if any(c not in ("white", "black") for c in colors) or len(set(colors)) != len(colors):
        sys.exit(f"--colors {args.colors!r}: white, black or white,black")
    if not os.path.exists(args.caber):
        sys.exit("build caber first: cargo build --release -p caber-cli --bin caber")
    build = os.path.join(args.out, "build")
    os.makedirs(build, exist_ok=True)
    classpath = build_server(os.path.abspath(args.server_repo), build)
    opponent = build_opponent(os.path.abspath(args.opponent_repo), build, args.opponent_table)
    caber_options = ["--movetime", str(args.caber_movetime)] + args.caber_options
    games, seen = [], set()
    counted = {"white": 0, "black": 0}
    n = 0
    # Colours alternate until each has --games-per-color distinct games; a
    # colour that has them sits out; at most --max-games-per-color each.
    while True:
        wanted = [c for c in colors
                  if counted[c] < args.games_per_color
                  and sum(g["caber"] == c for g in games) < args.max_games_per_color]
        if not wanted:
            break
        color = wanted[n % len(wanted)]
        record, code, result, moves = play(len(games) + 1, color, args, classpath, opponent, caber_options)
        score = score_of(result, color)
        key = (color, tuple(moves))
        repeated = key in seen
        seen.add(key)
        counted[color] += not repeated
        n += 1
        games.append({"game": len(games) + 1, "caber": color, "result": result, "score": score, "plies": len(moves),
                      "exit": code, "repeated": repeated, "record": record,
                      "opening": moves[:args.line_plies]})
        print(f"game {len(games):3d}: caber {color:5s} {result:7s} {len(moves):3d} plies"
              f"{' (a repeat)' if repeated else ''}{'' if code == 0 else f' exit {code}'}", flush=True)
    summary = {"server": git_commit(args.server_repo), "opponent": git_commit(args.opponent_repo),
               "caber": git_commit(ROOT), "server_timeout": args.server_timeout,
               "opponent_table": args.opponent_table,
               "caber_options": caber_options, "games": games}
    for color in colors:
        distinct = [g for g in games if g["caber"] == color and not g["repeated"] and g["score"] is not None]
        points = sum(g["score"] for g in distinct)
        # Games that share their first --line-plies plies are one line: a
        # deterministic opponent repeats its lines, and games that differ
        # only after the result was decided count once here.
        lines = {}
        for g in distinct:
            lines.setdefault(tuple(g["opening"]), []).append(g["score"])
        line_points = sum(sum(v) / len(v) for v in lines.values())
        summary[color] = {"distinct": len(distinct), "points": points,
                          "lines": len(lines), "line_points": line_points}
        print(f"caber as {color}: {points:g} of {len(distinct)} distinct games; "
              f"{line_points:.1f} of {len(lines)} lines by their first {args.line_plies} plies")
    distinct = [g for g in games if not g["repeated"] and g["score"] is not None]
    if distinct:
        print(f"overall: {100 * sum(g['score'] for g in distinct) / len(distinct):.1f}% of {len(distinct)} distinct games")
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)


if __name__ == "__main__":
    main()
