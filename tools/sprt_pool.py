#!/usr/bin/env python3
"""Pools the pentanomial counts of several `menagerie match --sprt` runs of one candidate
against one base (each run's log, the last `Ptnml(0-2): [...]` line in it) and prints the pooled
Elo with its 95% error and the SPRT's log-likelihood ratio, worked out as the runner works it
out (the normal approximation over pairs; logistic Elo bounds only, the runner's default):

    python3 tools/sprt_pool.py --elo0 -3 --elo1 1 RUN1.log RUN2.log ...
    python3 tools/sprt_pool.py --elo0 -3 --elo1 1 --ptnml 387,655,1186,665,407 RUN3.log

`--ptnml` adds counts kept from runs whose logs are gone. Runs of one SPRT with new seeds may be
pooled so; runs at other node counts, time controls or builds may not.
"""

import argparse
import math
import re
import sys

PTNML = re.compile(r"Ptnml\(0-2\): \[(\d+), (\d+), (\d+), (\d+), (\d+)\]")
Z95 = 1.959963984540054


def last_ptnml(path):
    """The last pentanomial counts a runner's log reports."""
    found = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = PTNML.search(line)
            if m:
                found = [int(x) for x in m.groups()]
    if found is None:
        sys.exit(f"{path}: no Ptnml(0-2) line")
    return found


def logistic_score(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_of(score):
    return -400.0 * math.log10(1.0 / score - 1.0)


def moments(counts):
    """Pairs, mean pair score (per game) and variance of a pair's score."""
    n = sum(counts)
    scores = [0.0, 0.25, 0.5, 0.75, 1.0]
    mean = sum(c * s for c, s in zip(counts, scores)) / n
    var = sum(c * (s - mean) ** 2 for c, s in zip(counts, scores)) / n
    return n, mean, var


def elo_with_error(counts):
    """Elo and its 95% error from the counts as they are (`None` for a score of 0 or 1)."""
    n, mean, var = moments(counts)
    if not 0.0 < mean < 1.0:
        return None
    se = math.sqrt(var / n)
    lo, hi = (min(max(p, 1e-6), 1 - 1e-6) for p in (mean - Z95 * se, mean + Z95 * se))
    return elo_of(mean), (elo_of(hi) - elo_of(lo)) / 2.0


def llr(counts, elo0, elo1):
    """The LLR for logistic bounds, with an empty cell counted as 0.001 pairs (as the runner
    and OpenBench count it for the LLR alone)."""
    n, mean, var = moments([c if c > 0 else 0.001 for c in counts])
    if var <= 0:
        return 0.0
    s0, s1 = logistic_score(elo0), logistic_score(elo1)
    return (s1 - s0) * (2.0 * mean - s0 - s1) * n / (2.0 * var)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--elo0", type=float, required=True)
    ap.add_argument("--elo1", type=float, required=True)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--ptnml", action="append", default=[], help="counts a,b,c,d,e")
    ap.add_argument("logs", nargs="*")
    args = ap.parse_args()
    runs = [[int(x) for x in p.split(",")] for p in args.ptnml]
    runs += [last_ptnml(p) for p in args.logs]
    if not runs or any(len(r) != 5 for r in runs):
        sys.exit("give runs: logs or --ptnml a,b,c,d,e")
    counts = [sum(r[i] for r in runs) for i in range(5)]
    if sum(counts) == 0:
        sys.exit("no pairs")
    n, mean, _ = moments(counts)
    ratio = llr(counts, args.elo0, args.elo1)
    upper = math.log((1 - args.beta) / args.alpha)
    lower = math.log(args.beta / (1 - args.alpha))
    # As the runner: no verdict before the pairs fall in two cells at least.
    spread = sum(1 for c in counts if c > 0) >= 2
    if spread and ratio >= upper:
        verdict = "H1 accepted"
    elif spread and ratio <= lower:
        verdict = "H0 accepted"
    else:
        verdict = "no decision"
    elo = elo_with_error(counts)
    elo_text = f"Elo {elo[0] + 0.0:+.1f} +/- {elo[1]:.1f}" if elo else "Elo unbounded"
    print(f"runs {len(runs)}, pairs {n} ({2 * n} games), Ptnml {counts}")
    print(f"score {mean:.4f}, {elo_text}")
    bounds = f"[{args.elo0}, {args.elo1}] logistic"
    print(f"LLR {ratio:.2f} ({lower:.2f}, {upper:.2f}) {bounds}: {verdict}")


if __name__ == "__main__":
    main()
