#!/usr/bin/env bash
# A misbehaving UCI engine for the match runner's tests. The first argument picks the fault:
#   illegal  answers every go with an impossible move
#   crash    exits when asked to move
#   stall    never answers go
#   mute     never answers uci
mode="$1"
while IFS= read -r line; do
  case "$line" in
    uci) [ "$mode" = mute ] || { echo "id name Fake $mode"; echo "uciok"; } ;;
    isready) echo "readyok" ;;
    go*)
      case "$mode" in
        illegal) echo "bestmove a1a1" ;;
        crash) exit 3 ;;
        stall) ;;
      esac ;;
    quit) exit 0 ;;
  esac
done
