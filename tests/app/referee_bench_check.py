#!/usr/bin/env python3
"""A few games of `swref bench referee` as a test (docs/referee.md, "From camera frames"): injected games are
photographed by the synthetic table camera, set up and enrolled from their own photos, refereed from their frames
with the players answering from the truth, and every game must end as scripted: each turn's coins exact, every
illegal conquest the script slipped in flagged, no other flag, the final coins equal.

The whole bench (25 games, about 20 minutes) is not part of the test suite; these few games guard the observer,
the amendments and the referee together against a regression that the stage tests miss. The games are chosen
among those the bench ends as scripted today.

Usage: referee_bench_check.py SWREF [--games N] [--solo N]
Exit 0 when every game ended as scripted; otherwise each game that did not is named with what differed.
"""
import argparse
import json
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("swref")
    parser.add_argument("--games", type=int, default=2, help="standard games (2p seed 1, 3p seed 2, ...)")
    parser.add_argument("--solo", type=int, default=1, help="SoloPlay games (2p seed 1, ...)")
    args = parser.parse_args()
    command = [args.swref, "bench", "referee", "--no-demo", "--games", str(args.games), "--solo", str(args.solo), "--json"]
    print(" ".join(command), flush=True)
    run = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if run.returncode != 0:
        print(f"FAIL: exit {run.returncode}\n{run.stderr[-2000:]}")
        return 1
    lines = [line for line in run.stdout.splitlines() if line.startswith("{")]
    if not lines:
        print(f"FAIL: no JSON report in the output:\n{run.stdout[-2000:]}")
        return 1
    report = json.loads(lines[-1])
    games = report["games"]
    if len(games) != args.games + args.solo:
        print(f"FAIL: {len(games)} games reported, {args.games + args.solo} asked for")
        return 1
    failed = 0
    for g in games:
        problems = []
        if g["turns_exact"] != g["turns"]:
            problems.append(f"{g['turns_exact']} of {g['turns']} turns' coins exact")
        if g["flags_matched"] != g["flags_expected"]:
            problems.append(f"{g['flags_matched']} of {g['flags_expected']} illegal conquests flagged")
        if g["flags_raised"] != g["flags_matched"]:
            problems.append(f"{g['flags_raised'] - g['flags_matched']} flags raised on legal play")
        if not g["final_coins_equal"]:
            problems.append("the final coins differ from the script's")
        status = "as scripted" if not problems else "FAIL: " + "; ".join(problems)
        print(f"{g['game']:18s} {g['frames']:4d} frames, {g['questions']:3d} questions, {g['seconds']:5.0f} s: {status}")
        failed += bool(problems)
    print(f"{len(games) - failed} of {len(games)} games as scripted")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
