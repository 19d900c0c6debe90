#!/usr/bin/env python3
"""Fits the curve that turns a game's evaluations into win probabilities,
from the results of self-play, and checks it on games not used for the fit.

    cargo build --release -p caber-cli --bin caber
    target/release/caber --game tablut --variant ashton match --a default --b default \\
        --games 600 --movetime 100 --seed 1000 --records DIR
    python3 scripts/calibrate.py DIR [DIR...] [--check DIR...] [--json FILE]

Every record of a match (`caber match` writes each searcher move's evaluation
after the move, from White's view, as `{[%eval cp N]}`) gives one data point
per evaluated move: the evaluation and the game's result for White (1 a win,
0.5 a draw, 0 a loss), each game's points weighing one game in all (a game blocked for
hundreds of plies is one result). Forced results (`#N`) and proven draws are
left out: they need no curve. Unfinished games are left out.

The curve is Caber's (engine/src/search/win_curve.rs): White's expected score
is `1 / (1 + exp(-(cp + offset) / scale))`, fitted by maximum likelihood
(Newton's method on the log loss). Without `--check`, the games in the order
of their file names go by pairs (a match plays each opening twice) to the fit
and the check in turn; with it, the fit takes every game of DIR and the check those of the
`--check` directories (another time a move, say). `--curve SCALE,OFFSET`
fits nothing and checks that curve on every game given.

It prints the constants, the log loss of the fitted curve and of Caber's
unfitted one (scale 400, no offset) on the check games, and the reliability
table of the check games: per tenth of the predicted range, the positions,
games and openings in it, the mean predicted and observed score, their
difference and a 95% interval of the observed score that counts the positions
of an opening's games as one cluster (they are not independent). `--json` writes the same as one object.
"""

import argparse
import json
import math
import os
import re
import sys

EVAL = re.compile(r"\{\[%eval ([^\]]+)\]\}")
TAG = re.compile(r'^\[(\w+) "(.*)"\]$')
RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
UNFITTED = (400.0, 0.0)


def read_record(path):
    """The (centi-unit evaluations, White's score) of one record, or None if
    it is unfinished or has no evaluation in centi-units."""
    tags, evals = {}, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            tag = TAG.match(line)
            if tag:
                tags[tag.group(1)] = tag.group(2)
                continue
            for value in EVAL.findall(line):
                if value.startswith("cp "):
                    evals.append(int(value[3:]))
    if tags.get("Format", "1") != "2":
        sys.exit(f"{path}: Format {tags.get('Format', '1')}: evaluations are not White's view")
    result = RESULTS.get(tags.get("Result", "*"))
    if result is None or not evals:
        return None
    return evals, result


def read_games(dirs):
    """The finished games of the records in `dirs`, each as (evaluations,
    White's score, opening): a match plays each opening twice in a row
    (records 1 and 2, 3 and 4, ...), and the two games of one opening (in
    self-play often the same moves) are one cluster of the intervals and go
    to the same side of the split."""
    games = []
    for d in dirs:
        names = sorted(n for n in os.listdir(d) if n.endswith(".record"))
        for i, name in enumerate(names):
            game = read_record(os.path.join(d, name))
            if game:
                games.append((*game, (d, i // 2)))
    return games


def split(games):
    """The games of the fit and those of the check: openings in turn."""
    return (
        [g for g in games if g[2][1] % 2 == 0],
        [g for g in games if g[2][1] % 2 == 1],
    )


def sigmoid(x):
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)


def predict(curve, cp):
    scale, offset = curve
    return sigmoid((cp + offset) / scale)


def fit(points):
    """Maximum likelihood (a, b) of logit p = a cp + b over weighted (cp, y,
    weight) points, y in [0, 1], as (scale, offset) = (1 / a, b / a)."""
    a, b = 1.0 / UNFITTED[0], 0.0
    for _ in range(100):
        ga = gb = haa = hab = hbb = 0.0
        for cp, y, weight in points:
            p = sigmoid(a * cp + b)
            ga += weight * (p - y) * cp
            gb += weight * (p - y)
            w = weight * p * (1.0 - p)
            haa += w * cp * cp
            hab += w * cp
            hbb += w
        det = haa * hbb - hab * hab
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a - da, b - db
        if abs(da) < 1e-12 and abs(db) < 1e-9:
            break
    if a <= 0:
        sys.exit("the fitted curve falls with the evaluation: too few games?")
    return 1.0 / a, b / a


def log_loss(curve, points):
    eps = 1e-12
    total = weights = 0.0
    for cp, y, weight in points:
        p = min(max(predict(curve, cp), eps), 1.0 - eps)
        total -= weight * (y * math.log(p) + (1.0 - y) * math.log(1.0 - p))
        weights += weight
    return total / weights


def reliability(curve, games):
    """Per tenth of the predicted range: positions, games, mean predicted,
    observed (each game's positions weighing one game in all), and the
    observed score's 95% interval, clustered by opening."""
    rows = []
    for tenth in range(10):
        lo, hi = tenth / 10, (tenth + 1) / 10
        # Per opening: the weight of its positions in this tenth, and the
        # sums of their predictions and results, weighted.
        clusters = {}
        n = games_in = 0
        for evals, y, opening in games:
            ps = [predict(curve, cp) for cp in evals]
            ps = [p for p in ps if lo <= p < hi or (tenth == 9 and p == 1.0)]
            if ps:
                w = 1.0 / len(evals)
                c = clusters.setdefault(opening, [0.0, 0.0, 0.0])
                c[0] += len(ps) * w
                c[1] += sum(ps) * w
                c[2] += len(ps) * w * y
                n += len(ps)
                games_in += 1
        if n == 0:
            rows.append({"range": [lo, hi], "positions": 0, "games": 0, "openings": 0})
            continue
        total = sum(c[0] for c in clusters.values())
        predicted = sum(c[1] for c in clusters.values()) / total
        observed = sum(c[2] for c in clusters.values()) / total
        g = len(clusters)
        # The ratio estimator's cluster-robust variance.
        var = sum((c[2] - c[0] * observed) ** 2 for c in clusters.values()) / total**2
        var *= g / (g - 1) if g > 1 else float("inf")
        half = 1.96 * math.sqrt(var)
        rows.append(
            {
                "range": [lo, hi],
                "positions": n,
                "games": games_in,
                "openings": g,
                "predicted": predicted,
                "observed": observed,
                "difference": observed - predicted,
                "observed95": [max(0.0, observed - half), min(1.0, observed + half)],
            }
        )
    return rows


def points_of(games):
    """Every evaluation with its game's result, weighted so that each game
    counts once: a game blocked for hundreds of plies is one result, not
    hundreds."""
    return [(cp, y, 1.0 / len(evals)) for evals, y, _ in games for cp in evals]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="+", help="directories of match records")
    parser.add_argument("--check", nargs="*", default=[], help="records to check the fit on")
    parser.add_argument(
        "--curve",
        metavar="SCALE,OFFSET",
        help="check this curve (e.g. Caber's, or 400,0 the unfitted one) on every game instead of fitting",
    )
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()
    games = read_games(args.dirs)
    if args.curve:
        scale, offset = (float(x) for x in args.curve.split(","))
        fitted_games, check_games, curve = [], games + read_games(args.check), (scale, offset)
    elif args.check:
        fitted_games, check_games = games, read_games(args.check)
    else:
        fitted_games, check_games = split(games)
    if not check_games or not (fitted_games or args.curve):
        sys.exit("no finished game with evaluations to fit or to check")
    if not args.curve:
        curve = fit(points_of(fitted_games))
    check = points_of(check_games)
    rows = reliability(curve, check_games)
    worst = max(abs(r["difference"]) for r in rows if r["positions"])
    out = {
        "fit": {"games": len(fitted_games), "positions": len(points_of(fitted_games))},
        "check": {"games": len(check_games), "positions": len(check)},
        "scale": curve[0],
        "whiteOffset": curve[1],
        "logLoss": log_loss(curve, check),
        "logLossUnfitted": log_loss(UNFITTED, check),
        "whiteScore": sum(g[1] for g in check_games) / len(check_games),
        "reliability": rows,
        "largestDifference": worst,
    }
    print(
        f"fit: {out['fit']['games']} games, {out['fit']['positions']} positions; "
        f"check: {out['check']['games']} games, {out['check']['positions']} positions"
    )
    given = "given" if args.curve else "fitted"
    print(f"curve ({given}): scale {curve[0]:.1f}, white offset {curve[1]:+.1f} centi-units")
    print(
        f"check log loss: {given} {out['logLoss']:.4f}, unfitted (400, 0) "
        f"{out['logLossUnfitted']:.4f}; White's score {out['whiteScore']:.3f}"
    )
    print()
    print(
        "| predicted | positions | games (openings) | mean predicted | observed "
        "| difference | observed, 95% (by opening) |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for r in rows:
        lo, hi = r["range"]
        if not r["positions"]:
            print(f"| {lo:.1f}-{hi:.1f} | 0 | 0 | | | | |")
            continue
        a, b = r["observed95"]
        print(
            f"| {lo:.1f}-{hi:.1f} | {r['positions']} | {r['games']} ({r['openings']}) "
            f"| {r['predicted']:.3f} | {r['observed']:.3f} | {r['difference']:+.3f} "
            f"| {a:.2f}-{b:.2f} |"
        )
    print(f"\nlargest difference: {worst:.3f}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
