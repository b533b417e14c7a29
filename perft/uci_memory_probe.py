#!/usr/bin/env python3
"""Peak resident memory of the engine after a 10 s UCI search: uci_memory_probe.py HASH_MB THREADS."""
import subprocess, time, sys
mb = int(sys.argv[1]); threads = int(sys.argv[2])
p = subprocess.Popen(["/work/main/target/release/menagerie"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(l): p.stdin.write(l+"\n"); p.stdin.flush()
send("uci"); send(f"setoption name Hash value {mb}"); send(f"setoption name Threads value {threads}"); send("isready")
while p.stdout.readline().strip() != "readyok": pass
send("position startpos"); send("go movetime 10000")
while not p.stdout.readline().startswith("bestmove"): pass
status = open(f"/proc/{p.pid}/status").read()
rss = [l for l in status.splitlines() if l.startswith(("VmHWM", "VmRSS"))]
print(f"Hash {mb} MB, {threads} thread(s):", " ".join(rss))
send("quit"); p.wait()
