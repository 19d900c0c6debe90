#!/usr/bin/env python3
"""The win-probability curves in engine/src/tablut/eval.rs are what
scripts/calibrate.py fits to the records in docs/games/calibration/VARIANT/
(to the nearest centi-unit), and every variant with records has its fitted
curve: the constants cannot drift from their data unseen."""

import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import calibrate  # noqa: E402

CURVE = re.compile(r"Variant::(\w+) => WinCurve::new\(([-\d.]+), ([-\d.]+)\)")


def main():
    with open(os.path.join(ROOT, "engine/src/tablut/eval.rs"), encoding="utf-8") as f:
        constants = {
            name.lower(): (float(scale), float(offset))
            for name, scale, offset in CURVE.findall(f.read())
        }
    data = os.path.join(ROOT, "docs/games/calibration")
    variants = sorted(os.listdir(data))
    if not variants:
        sys.exit("no calibration records")
    failed = False
    for variant in variants:
        games = calibrate.read_games([os.path.join(data, variant)])
        fitted, _ = calibrate.split(games)
        scale, offset = calibrate.fit(calibrate.points_of(fitted))
        expected = (round(scale), round(offset))
        got = constants.get(variant)
        print(f"{variant}: fitted {expected} from {len(fitted)} games, engine {got}")
        if got is None or (round(got[0]), round(got[1])) != expected:
            failed = True
    if failed:
        sys.exit("engine/src/tablut/eval.rs's curves are not the records' fits")


if __name__ == "__main__":
    main()
