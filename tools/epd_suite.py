#!/usr/bin/env python3
"""Runs UCI engines over a test suite of FIDE chess positions (EPD with `bm` or `am`) and
counts the positions each solves: the best move (`bm`, any of them) played, or the avoided move
(`am`) not played, after a fixed time per position, or a fixed node count (`nodes=N`, which
the machine's load does not change: use it to compare two builds of one engine on a busy
machine).

    python3 tools/epd_suite.py SUITE.epd SECONDS|nodes=N ENGINE [ENGINE ...]

Each ENGINE is a command (`target/release/menagerie`, `/usr/games/glaurung`); every engine
gets one thread and Hash 16 where it has those options. The engines take the positions in turns
(position 1 for every engine, then position 2, ...), so a machine's load falls on all of them
alike. The last lines are a table: solved, positions, and the ids each engine alone solved.
"""

import sys

import chess
import chess.engine


def read_suite(path):
    """The positions of an EPD file, with their ids and operations; bad lines are named."""
    suite = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            try:
                board, ops = chess.Board.from_epd(line)
            except ValueError as e:
                sys.exit(f"{path}:{n}: {e}")
            if "bm" not in ops and "am" not in ops:
                sys.exit(f"{path}:{n}: neither bm nor am")
            suite.append((ops.get("id", f"line {n}"), board, ops))
    return suite


def solved(ops, move):
    if "bm" in ops and move not in ops["bm"]:
        return False
    return not ("am" in ops and move in ops["am"])


def read_limit(text):
    """The search limit of the command line: seconds, or `nodes=N`."""
    try:
        if text.startswith("nodes="):
            return chess.engine.Limit(nodes=int(text[len("nodes="):]))
        return chess.engine.Limit(time=float(text))
    except ValueError:
        sys.exit(f"not a time in seconds or nodes=N: {text}")


def start(cmd):
    engine = chess.engine.SimpleEngine.popen_uci(cmd.split())
    options = {k: v for k, v in (("Threads", 1), ("Hash", 16)) if k in engine.options}
    engine.configure(options)
    return engine


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: python3 tools/epd_suite.py SUITE.epd SECONDS|nodes=N ENGINE [ENGINE ...]")
    path, budget, cmds = sys.argv[1], sys.argv[2], sys.argv[3:]
    limit = read_limit(budget)
    suite = read_suite(path)
    engines = [start(c) for c in cmds]
    names = [e.id.get("name", c) for e, c in zip(engines, cmds)]
    # Two builds of one engine share a name: they are told apart by their commands.
    names = [c if names.count(n) > 1 else n for n, c in zip(names, cmds)]
    found = [set() for _ in engines]
    try:
        for i, (pid, board, ops) in enumerate(suite, 1):
            marks = []
            for k, engine in enumerate(engines):
                result = engine.play(board, limit, game=object())
                ok = result.move is not None and solved(ops, result.move)
                if ok:
                    found[k].add(pid)
                marks.append(f"{names[k]} {board.san(result.move) if result.move else '-'}"
                             f"{' ok' if ok else ''}")
            print(f"{i}/{len(suite)} {pid}: " + "; ".join(marks), flush=True)
    finally:
        for engine in engines:
            engine.quit()
    print()
    print("| engine | solved | positions | solved by it alone |")
    print("|---|---|---|---|")
    for k, name in enumerate(names):
        alone = found[k] - set().union(*(f for j, f in enumerate(found) if j != k))
        print(f"| {name} | {len(found[k])} | {len(suite)} | {', '.join(sorted(alone)) or '-'} |")


if __name__ == "__main__":
    main()
