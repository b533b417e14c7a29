#!/usr/bin/env bash
# Misbehaving engines for the match runner's tests. The first argument picks the fault.
# Over UCI:
#   illegal     answers every go with an impossible move
#   crash       exits when asked to move
#   stall       never answers go
#   late        answers go with a move 3 s later
#   mute        never answers uci
#   ready-once  answers the first isready only
# Over CECP (it plays White, so its first go is its first move):
#   resign      resigns instead of moving
#   claim-draw  claims a draw that the rules do not see
#   claim-win   claims a win for itself
#   concede     claims the opponent's win
#   edit LOG    announces setboard=0, writes every line it gets to LOG, resigns when asked to move
# Either protocol:
#   garbage ENGINE [ARG...]  runs a real engine and writes a Latin-1 line (bytes that are not
#               UTF-8) and a line of invalid bytes before each of its lines
#   twice ENGINE [ARG...]  runs a real engine and prints each of its moves (`bestmove`, `move`)
#               twice
mode="$1"
if [ "$mode" = twice ]; then
  shift
  "$@" | while IFS= read -r line; do
    printf '%s\n' "$line"
    case "$line" in bestmove*|"move "*) printf '%s\n' "$line" ;; esac
  done
  exit 0
fi
log=/dev/null
[ "$mode" = edit ] && log="$2"
readies=0
if [ "$mode" = garbage ]; then
  shift
  "$@" | while IFS= read -r line; do
    printf 'id author Ren\xe9 Fran\xe7ois\n'
    printf '\xff\xfe\x80 \xc3\x28\n'
    printf '%s\n' "$line"
  done
  exit 0
fi
while IFS= read -r line; do
  printf '%s\n' "$line" >> "$log"
  case "$line" in
    uci) [ "$mode" = mute ] || { echo "id name Fake $mode"; echo "uciok"; } ;;
    isready)
      readies=$((readies + 1))
      [ "$mode" = ready-once ] && [ "$readies" -gt 1 ] || echo "readyok" ;;
    "protover 2")
      setboard=1
      [ "$mode" = edit ] && setboard=0
      echo "feature setboard=$setboard usermove=1 ping=1 myname=\"Fake $mode\" done=1" ;;
    ping*) echo "pong ${line#ping }" ;;
    go*)
      case "$mode" in
        illegal) echo "bestmove a1a1" ;;
        crash) exit 3 ;;
        stall) ;;
        late) sleep 3; echo "bestmove e2e4" ;;
        resign|edit) echo "resign" ;;
        claim-draw) echo "1/2-1/2 {Draw by repetition}" ;;
        claim-win) echo "1-0 {White mates}" ;;
        concede) echo "0-1 {White resigns}" ;;
      esac ;;
    quit) exit 0 ;;
  esac
done
