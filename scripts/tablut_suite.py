#!/usr/bin/env python3
"""The Tablut Challenge opening suite: made from long games of Caber and of
another engine, then played against that engine through Caber's referee.

    cargo build --release -p caber-cli --bin caber
    python3 scripts/tablut_suite.py make --opponent-repo CLONE [--positions 32] [--out DIR]
    python3 scripts/tablut_suite.py play --opponent-repo CLONE [--out DIR] [-- CABER_OPTIONS...]

CLONE is the user's clone, outside this repository, of albe873/tablut.cpp
(`Player1`, built as scripts/tablut_challenge.py builds it, with its table at
--opponent-table entries). Every game is refereed by `caber tablut-challenge
serve` on ports 5800/5801 (the opponent knows no others), one at a time, and
kept as a record in --out.

`make` plays source games, cycling through pairings of the two engines at
several times a move: Caber against Caber, the opponent against itself, and
the two against each other in both colours. From each game that lasts at least
--long-plies plies it takes the position after 6 to 10 plies (6 for the
first position taken, 7 for the next, and so on round), skipping a position
already taken, until it has --positions of them; it writes them to --suite,
each with the game it comes from, in the form `caber match --openings`
reads. Nothing judges the positions: where a game went decides. A source
game whose record is in --out already is read, not played again.

`play` plays every position of --suite twice against the opponent at the
Tablut Challenge settings of the README (the opponent `Player1 COLOR 5`, 1 s a
move; Caber `--movetime 1000` and CABER_OPTIONS; the referee's `-t 5`), Caber
white in the first game and black in the second, with no earlier positions
for the repetition rule (the clients never saw the opening's states). A game whose record is
already in --out is read, not played again, so a run that stopped goes on
where it was. A game still going after --max-plies plies (400) is
adjudicated a draw by the referee (not a competition rule: two engines can
shuffle in a blocked position for ever). Prints one line per game and the
score: all points, and the points of Caber's white games, with the
adjudicated draws counted; writes --out/summary.json.
"""

import argparse
import json
import os
import subprocess
import sys
import time

import tablut_challenge

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUITE = os.path.join(ROOT, "docs", "games", "tablut-ashton-suite.txt")
PLIES = (6, 7, 8, 9, 10)
# The referee's -t in source games: above the opponent's times (it keeps 4 s back).
SOURCE_TIMEOUT = 10


class Player:
    """One side's engine: `caber:MS` (Caber at MS a move) or `opponent:T`
    (the opponent given the server time T, of which it keeps 4 s back)."""

    def __init__(self, spec):
        kind, _, value = spec.partition(":")
        if kind not in ("caber", "opponent") or not value.isdigit():
            sys.exit(f"{spec!r}: caber:MS or opponent:T")
        self.kind, self.value = kind, int(value)

    def command(self, color, args, timeout, caber_options, record):
        if self.kind == "opponent":
            return [args.opponent_binary, color.upper(), str(self.value)]
        return [args.caber, "tablut-challenge", "--color", color, "--timeout", str(timeout),
                "--movetime", str(self.value), "--record", record] + caber_options


def referee_game(folder, name, white, black, args, timeout, start=None, caber_options=()):
    """One game through the referee; returns (result, moves) from its record
    ("*" when it did not finish within --game-timeout)."""
    os.makedirs(folder, exist_ok=True)
    record = os.path.join(folder, f"{name}.record")
    log = lambda suffix: open(os.path.join(folder, f"{name}.{suffix}.log"), "w")
    # A Caber client's own record, with its evaluations.
    client = lambda color: os.path.join(folder, f"{name}.{color}-client.record")
    referee = [args.caber, "tablut-challenge", "serve", "-t", str(timeout), "--record", record]
    if args.max_plies:
        referee += ["--max-plies", str(args.max_plies)]
    if start:
        referee += ["--position", start]
    processes = [subprocess.Popen(referee, stdout=log("referee"), stderr=subprocess.STDOUT)]
    referee_log = os.path.join(folder, f"{name}.referee.log")
    try:
        wait_for(referee_log, "referee:")
        # The referee takes black only once white has given its name.
        processes.append(subprocess.Popen(white.command("white", args, timeout, list(caber_options), client("white")),
                                          stdout=log("white"), stderr=subprocess.STDOUT))
        wait_for(referee_log, "white:")
        processes.append(subprocess.Popen(black.command("black", args, timeout, list(caber_options), client("black")),
                                          stdout=log("black"), stderr=subprocess.STDOUT))
        processes[0].wait(timeout=args.game_timeout)
        for p in processes[1:]:
            p.wait(timeout=30)
    except (subprocess.TimeoutExpired, TimeoutError):
        pass
    finally:
        for p in processes:
            if p.poll() is None:
                p.kill()
                p.wait()
    return tablut_challenge.read_record(record)


def adjudicated(path):
    """Whether the referee's --max-plies ended the record's game."""
    return os.path.exists(path) and "(--max-plies)" in open(path).read()


def wait_for(path, text, seconds=30):
    """Waits until the log at `path` holds `text`."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        if os.path.exists(path) and text in open(path).read():
            return
        time.sleep(0.05)
    raise TimeoutError(f"{path}: no {text!r} within {seconds} s")


def position_after(args, moves):
    """Caber's text of the Ashton position after `moves` from the start."""
    out = subprocess.run([args.caber, "--game", "tablut", "--variant", "ashton", "--moves", " ".join(moves),
                          "new", "--json"], capture_output=True, text=True, check=True).stdout
    return json.loads(out)["position"]["text"]


def pairings():
    """The source games' pairings, (white, black), in the order played: Caber
    against itself, the opponent against itself, then the two against each
    other in both colours, each at times that change from round to round."""
    caber = [100, 200, 400, 700, 150, 300, 1000, 250]
    opponent = [5, 6, 5, 7]
    n = 0
    while True:
        a, b = caber[n % len(caber)], caber[(n + 3) % len(caber)]
        t, u = opponent[n % len(opponent)], opponent[(n + 1) % len(opponent)]
        yield f"caber:{a}", f"caber:{b}"
        yield f"opponent:{t}", f"opponent:{u}"
        yield f"caber:{a}", f"opponent:{t}"
        yield f"opponent:{u}", f"caber:{b}"
        n += 1


def make(args):
    folder = os.path.join(args.out, "sources")
    taken, lines, games = set(), [], 0
    for white, black in pairings():
        if len(lines) >= args.positions or games >= args.max_games:
            break
        games += 1
        name = f"source-{games:03d}"
        result, moves = tablut_challenge.read_record(os.path.join(folder, f"{name}.record"))
        if result == "*":
            result, moves = referee_game(folder, name, Player(white), Player(black), args, SOURCE_TIMEOUT)
        note = f"{name}: {white} against {black}, {result} in {len(moves)} plies"
        if result == "*" or len(moves) < args.long_plies:
            print(f"{note}: not taken (short or unfinished)", flush=True)
            continue
        ply = PLIES[len(lines) % len(PLIES)]
        position = position_after(args, moves[:ply])
        if position in taken:
            print(f"{note}: its position after {ply} plies is taken already", flush=True)
            continue
        taken.add(position)
        lines.append((f"{note}; after {ply} plies: {' '.join(moves[:ply])}", position))
        print(f"{note}: position {len(lines)}, after {ply} plies", flush=True)
    if len(lines) < args.positions:
        sys.exit(f"{len(lines)} positions from {games} games: fewer than --positions {args.positions}")
    with open(args.suite, "w") as f:
        f.write(f"; Tablut Challenge (ashton) opening suite: {len(lines)} positions after 6-10 plies of long games\n"
                f"; (at least {args.long_plies} plies) of Caber and albe873/tablut.cpp "
                f"({tablut_challenge.git_commit(args.opponent_repo)[:7]}), made on {time.strftime('%Y-%m-%d')} "
                f"by `python3 scripts/tablut_suite.py make`\n"
                f"; from Caber {tablut_challenge.git_commit(ROOT)[:7]}; caber:MS is Caber at MS a move, "
                "opponent:T is tablut.cpp's Player1 at server time T (T - 4 s a move).\n")
        for note, position in lines:
            f.write(f"\n; {note}\n{position}\n")
    print(f"{len(lines)} positions from {games} games written to {args.suite}")


def suite_positions(path):
    with open(path) as f:
        return [line.strip() for line in f if line.strip() and not line.startswith(";")]


def without_history(position):
    """The position with no earlier positions recorded: the clients see the
    game from this state on, so the referee's repetition rule counts from it
    too (with the opening's history a client could repeat a position it
    never saw and draw)."""
    fields = position.split()
    return " ".join(fields[:2] + ["-"] + fields[3:])


def play(args):
    positions = suite_positions(args.suite)
    caber, opponent = Player(f"caber:{args.caber_movetime}"), Player(f"opponent:{args.server_timeout}")
    games = []
    for i, position in enumerate(positions, 1):
        for color in ("white", "black"):
            name = f"{i:03d}-caber-{color}"
            record = os.path.join(args.out, f"{name}.record")
            result, moves = tablut_challenge.read_record(record)
            if result == "*":
                white, black = (caber, opponent) if color == "white" else (opponent, caber)
                result, moves = referee_game(args.out, name, white, black, args, args.server_timeout,
                                             start=without_history(position), caber_options=args.caber_options)
            score = tablut_challenge.score_of(result, color)
            judged = adjudicated(record)
            games.append({"position": i, "caber": color, "result": result, "score": score,
                          "plies": len(moves), "adjudicated": judged, "record": record})
            print(f"position {i:3d} caber {color:5s} {result:7s} {len(moves):3d} plies"
                  f"{' (adjudicated)' if judged else ''}", flush=True)
    summary = {"opponent": tablut_challenge.git_commit(args.opponent_repo), "caber": tablut_challenge.git_commit(ROOT),
               "suite": os.path.relpath(args.suite, ROOT), "server_timeout": args.server_timeout,
               "opponent_table": args.opponent_table, "caber_movetime": args.caber_movetime,
               "caber_options": args.caber_options, "max_plies": args.max_plies, "games": games}
    for label, chosen in (("all", games), ("white", [g for g in games if g["caber"] == "white"]),
                          ("black", [g for g in games if g["caber"] == "black"])):
        scored = [g for g in chosen if g["score"] is not None]
        points = sum(g["score"] for g in scored)
        judged = sum(g["adjudicated"] for g in chosen)
        summary[label] = {"games": len(scored), "points": points, "unfinished": len(chosen) - len(scored),
                          "adjudicated": judged}
        share = f"{100 * points / len(scored):.1f}%" if scored else "-"
        print(f"caber, {label} games: {points:g} of {len(scored)} ({share})"
              f"{f'; {judged} adjudicated draws' if judged else ''}"
              f"{f'; {len(chosen) - len(scored)} unfinished' if len(chosen) > len(scored) else ''}")
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=("make", "play"))
    parser.add_argument("--opponent-repo", required=True, help="a clone of albe873/tablut.cpp")
    parser.add_argument("--opponent-table", type=int, default=16 * 1024 * 1024,
                        help="entries of the opponent's transposition table (0: its own default)")
    parser.add_argument("--suite", default=SUITE, help="the suite's file (make writes it, play reads it)")
    parser.add_argument("--positions", type=int, default=32, help="make: positions to take")
    parser.add_argument("--max-games", type=int, default=120, help="make: most source games")
    parser.add_argument("--long-plies", type=int, default=30, help="make: the shortest game positions come from")
    parser.add_argument("--server-timeout", type=int, default=5, help="play: the referee's -t and the opponent's time")
    parser.add_argument("--caber-movetime", type=int, default=1000, help="play: Caber's time a move, in ms")
    parser.add_argument("--game-timeout", type=int, default=1800, help="the longest game, in seconds")
    parser.add_argument("--max-plies", type=int, default=400,
                        help="the referee adjudicates a game still going after this many plies a draw (0: never)")
    parser.add_argument("--out", default="tablut-suite-games")
    parser.add_argument("--caber", default=tablut_challenge.CABER, help="the caber binary (default: the release build)")
    # Caber's options follow `--` (argparse cannot give them to a second
    # positional after the command).
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:cut])
    args.caber_options = argv[cut + 1:]
    if not os.path.exists(args.caber):
        sys.exit("build caber first: cargo build --release -p caber-cli --bin caber")
    build = os.path.join(args.out, "build")
    os.makedirs(build, exist_ok=True)
    args.opponent_binary = tablut_challenge.build_opponent(os.path.abspath(args.opponent_repo), build,
                                                           args.opponent_table)
    make(args) if args.command == "make" else play(args)


if __name__ == "__main__":
    main()
