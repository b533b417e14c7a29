#!/usr/bin/env python3
"""Time UCI `go perft N` on an engine. Usage: fsf_perft.py [engine] [depth] [position-args...]"""
import subprocess, sys, time

engine = sys.argv[1] if len(sys.argv) > 1 else "/usr/games/fairy-stockfish"
depth = int(sys.argv[2]) if len(sys.argv) > 2 else 6
pos = " ".join(sys.argv[3:]) if len(sys.argv) > 3 else "startpos"

p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     text=True, bufsize=1)

def send(cmd):
    p.stdin.write(cmd + "\n"); p.stdin.flush()

def wait_for(prefix):
    lines = []
    while True:
        line = p.stdout.readline()
        if not line:
            raise RuntimeError("engine exited while waiting for %r" % prefix)
        line = line.rstrip("\n")
        lines.append(line)
        if line.startswith(prefix):
            return line, lines

send("uci")
_, lines = wait_for("uciok")
idname = next((l for l in lines if l.startswith("id name")), "(no id name)")
print(idname)
send("position " + pos)
send("isready")
wait_for("readyok")
t0 = time.perf_counter()
send("go perft %d" % depth)
line, _ = wait_for("Nodes searched")
t1 = time.perf_counter()
nodes = int(line.split(":")[1])
secs = t1 - t0
print("nodes %d" % nodes)
print("seconds %.4f" % secs)
print("nps %d" % int(nodes / secs))
send("quit")
p.wait(timeout=10)
