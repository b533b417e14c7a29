#!/usr/bin/env python3
"""Label tuning positions with a stronger UCI engine's judgement.

    label_with_engine.py IN.epd OUT.epd ENGINE [--nodes N] [--score cp|wdl] [--share S]
                         [--jobs J]

IN holds `menagerie datagen` lines (`FEN c9 "1-0";`). For each position the engine searches
`--nodes` nodes; the last line that is not a bound gives its expected score for White:
with `--score cp` (the default) 1 / (1 + 10^(-cp / 400)), the logistic the tuner fits, so
that the fit learns the engine's centipawns at one scale in every phase (a mate counts 0 or
1); with `--score wdl`, (win + draw / 2) / 1000 by the engine's UCI_ShowWDL model, whose
scale depends on the material left. It is blended with the game's result:

    label = share x engine's expected score + (1 - share) x result

and written as `FEN c9 "0.7310";`, which `menagerie tune` reads as a fractional result. Game
comment lines are copied. Positions the engine cannot read, or with no score, are dropped and
counted. The work is split over `--jobs` engine processes; output keeps the input's order.
For FIDE chess only (the engine must know the game); the data stays outside git.
"""

import argparse
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

RESULTS = {'"1-0"': 1.0, '"0-1"': 0.0, '"1/2-1/2"': 0.5}


class Engine:
    def __init__(self, path):
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.wait_for("uciok")
        for option in ("UCI_ShowWDL value true", "Threads value 1", "Hash value 16"):
            self.send(f"setoption name {option}")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")

    def wait_for(self, word):
        lines = []
        for line in self.proc.stdout:
            lines.append(line)
            if line.startswith(word):
                return lines
        raise RuntimeError("engine quit")

    def expected_score(self, fen, nodes, kind):
        """The side to move's expected score, or None."""
        self.send(f"position fen {fen}")
        self.send(f"go nodes {nodes}")
        score = None
        for line in self.wait_for("bestmove"):
            words = line.split()
            if "score" not in words or "lowerbound" in words or "upperbound" in words:
                continue
            if kind == "wdl" and "wdl" in words:
                i = words.index("wdl")
                win, draw = int(words[i + 1]), int(words[i + 2])
                score = (win + draw / 2) / 1000
            elif kind == "cp":
                i = words.index("score")
                value = int(words[i + 2])
                if words[i + 1] == "mate":
                    score = 1.0 if value > 0 else 0.0
                else:
                    score = 1 / (1 + 10 ** (-value / 400))
        return score

    def close(self):
        self.send("quit")
        self.proc.wait()


def parse(line):
    """(fen, result) of a labelled line, or None for a comment."""
    if line.startswith("#") or " c9 " not in line:
        return None
    fen, label = line.split(" c9 ", 1)
    return fen.strip(), RESULTS.get(label.strip().rstrip(";").strip())


def label_chunk(args, lines):
    engine = Engine(args.engine)
    out, dropped = [], 0
    for line in lines:
        parsed = parse(line)
        if parsed is None:
            out.append(line)
            continue
        fen, result = parsed
        score = engine.expected_score(fen, args.nodes, args.score) if result is not None else None
        if score is None:
            dropped += 1
            continue
        if fen.split()[1] == "b":
            score = 1.0 - score
        label = args.share * score + (1.0 - args.share) * result
        out.append(f'{fen} c9 "{label:.4f}";')
    engine.close()
    return out, dropped


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("engine")
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--score", choices=["cp", "wdl"], default="cp")
    parser.add_argument("--share", type=float, default=1.0)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    with open(args.input) as f:
        lines = [line.rstrip("\n") for line in f if line.strip()]
    size = (len(lines) + args.jobs - 1) // args.jobs
    chunks = [lines[i : i + size] for i in range(0, len(lines), size)]
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        done = list(pool.map(lambda c: label_chunk(args, c), chunks))
    dropped = sum(d for _, d in done)
    with open(args.output, "w") as f:
        for out, _ in done:
            f.write("\n".join(out) + "\n")
    print(f"{sum(len(o) for o, _ in done)} lines written, {dropped} positions dropped")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (OSError, RuntimeError, ValueError) as e:
        sys.exit(f"label_with_engine.py: {e}")
