"""Benchmark: the seating generator against the repeated-random-shuffle baseline.

    .venv/bin/python bench/seating.py [--seed 0] [--tries 200] [--time-limit 20]

For 16, 32, 64 and 128 players over 8, 12 and 16 match days it prints the repeat encounters
(sum over pairs of meetings - 1), the theoretical lower bound for repeats, the wind imbalance
(sum over players of max - min of their East/South/West/North counts; the least possible in
brackets), and the same figures for the baseline that most tools use: each day, shuffle TRIES
times and keep the shuffle with the fewest repeats so far.  Pure Python, no database.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from matchdays.seating import generate, lower_bound_repeats, random_shuffle_baseline  # noqa: E402

SIZES = (16, 32, 64, 128)
DAYS = (8, 12, 16)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--tries", type=int, default=200)
    ap.add_argument("--time-limit", type=float, default=20.0)
    args = ap.parse_args()
    head = (f"{'players':>7} {'days':>4} | {'bound':>5} | {'repeats':>7} {'gap':>6} {'consec':>6} {'winds':>9} "
            f"{'secs':>6} | {'shuffle':>7} {'consec':>6} {'winds':>5} {'secs':>6} | goal")
    print(head)
    print("-" * len(head))
    for n in SIZES:
        for d in DAYS:
            players = list(range(n))
            ours = generate(players, d, seed=args.seed, time_limit=args.time_limit)
            base = random_shuffle_baseline(players, d, seed=args.seed, tries=args.tries)
            bound = lower_bound_repeats(n, d)
            gap = "-" if bound == 0 else f"{100 * (ours.repeats - bound) / bound:+.1f}%"
            within = ours.repeats <= bound * 1.10
            # when both reach the bound (every pair has met), fewer repeats on consecutive days decide
            better = (ours.repeats, ours.consecutive_repeats) < (base.repeats, base.consecutive_repeats)
            goal = ("ok" if within and better else
                    ("not within 10%" if not within else "") + (" not better" if not better else ""))
            print(f"{n:>7} {d:>4} | {bound:>5} | {ours.repeats:>7} {gap:>6} {ours.consecutive_repeats:>6} "
                  f"{ours.wind_imbalance:>4} ({ours.wind_imbalance_min:>2}) {ours.seconds:>6.2f} | "
                  f"{base.repeats:>7} {base.consecutive_repeats:>6} {base.wind_imbalance:>5} {base.seconds:>6.2f} | "
                  f"{goal.strip()}"
                  + (" (stopped at the time limit)" if ours.stopped_early else ""))


if __name__ == "__main__":
    main()
