#!/usr/bin/env python3
"""Time to each depth over UCI, one thread against two, in every game.

Usage: python3 tools/time_to_depth.py BINARY [RUNS] [game,game...]

Each run starts the engine, sets the game, Threads and Hash 64, sends ucinewgame and
`go depth D` from the start position, and notes the wall time of each depth's info line.
Prints a markdown table of the median of RUNS runs (default 3), in milliseconds.
"""
import subprocess, sys, statistics, time
BIN = sys.argv[1]; RUNS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
GAMES = [("chess", 9), ("divergent", 8), ("magician", 9), ("schizophrenic", 7),
         ("existentialist", 7), ("afterlife", 8), ("afterlife-optional-limbo", 8), ("chaos", 7)]
if len(sys.argv) > 3: GAMES = [g for g in GAMES if g[0] in sys.argv[3].split(",")]
def run(game, depth, threads):
    p = subprocess.Popen([BIN], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    def send(s): p.stdin.write(s + "\n"); p.stdin.flush()
    send("uci")
    while "uciok" not in p.stdout.readline(): pass
    send(f"setoption name UCI_Variant value {game}"); send(f"setoption name Threads value {threads}")
    send("setoption name Hash value 64"); send("ucinewgame"); send("isready")
    while "readyok" not in p.stdout.readline(): pass
    send("position startpos"); t0 = time.perf_counter(); send(f"go depth {depth}")
    times = {}
    while True:
        line = p.stdout.readline()
        if not line: break
        w = line.split()
        if w and w[0] == "info" and "depth" in w and "time" in w and "pv" in w:
            d = int(w[w.index("depth") + 1]); times[d] = (time.perf_counter() - t0) * 1000
        if w and w[0] == "bestmove":
            total = (time.perf_counter() - t0) * 1000; break
    send("quit"); p.wait()
    return times, total
print("| game | threads | " + " | ".join(f"d{d}" for d in range(1, 10)) + " | bestmove |")
print("|---|---|" + "---|" * 10)
for game, depth in GAMES:
    for th in (1, 2):
        rows = [run(game, depth, th) for _ in range(RUNS)]
        cells = []
        for d in range(1, 10):
            v = [r[0][d] for r in rows if d in r[0]]
            cells.append(f"{statistics.median(v):.0f}" if len(v) == RUNS else "")
        tot = statistics.median(r[1] for r in rows)
        print(f"| {game} | {th} | " + " | ".join(cells) + f" | {tot:.0f} |", flush=True)
