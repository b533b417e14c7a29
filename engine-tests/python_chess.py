"""Depth-limited analysis through python-chess, as a client script would run it.

Usage: python_chess.py ENGINE PROTOCOL FEN DEPTH
PROTOCOL is `xboard` or `uci`. Prints the analysis's depth and its first move.
"""

import sys

import chess
import chess.engine

engine_path, protocol, fen, depth = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
popen = chess.engine.SimpleEngine.popen_xboard if protocol == "xboard" else chess.engine.SimpleEngine.popen_uci
with popen(engine_path, timeout=10) as engine:
    info = engine.analyse(chess.Board(fen), chess.engine.Limit(depth=depth))
    print(f"depth {info['depth']} pv {info['pv'][0].uci()} score {info['score'].white()}")
