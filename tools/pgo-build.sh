#!/usr/bin/env bash
# Builds the engine with profile-guided optimisation, as Stockfish's `make profile-build` does:
# an instrumented build searches the bench positions of every game and counts a few move trees,
# and the compiler then lays out and inlines the release build by what ran. The moves and node
# counts are those of `cargo build --release` (the script checks the bench's node count); the
# binary is faster (docs/performance.md, "A build guided by a profile").
#
#     tools/pgo-build.sh            # writes target/pgo/release/menagerie
#
# Needs `llvm-profdata` of the compiler's own LLVM: `rustup component add llvm-tools`, or one on
# the PATH of the same version. RUSTFLAGS, if set, replace the default flags as they do for
# cargo (on x86-64, `-C target-cpu=x86-64-v3` from .cargo/config.toml).
set -euo pipefail
cd "$(dirname "$0")/.."

die() {
  echo "pgo-build: $*" >&2
  exit 1
}

host=$(rustc -vV | sed -n 's/^host: //p')
profdata="$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata"
if [ ! -x "$profdata" ]; then
  profdata=$(command -v llvm-profdata) ||
    die "no llvm-profdata: run 'rustup component add llvm-tools'"
fi

flags="${RUSTFLAGS-}"
if [ -z "${RUSTFLAGS+set}" ] && [ "${host%%-*}" = x86_64 ]; then
  flags="-C target-cpu=x86-64-v3"
fi

root="$PWD/target/pgo"
data="$root/profiles"
log="$root/train.log"
rm -rf "$data" "$log"
mkdir -p "$data"
trap 'echo "pgo-build: failed (the training runs wrote to $log)" >&2' ERR

# 1. The instrumented build, and the runs it learns from: every game's bench, and the move
#    trees of FIDE chess and of each game's start a few plies deep (move generation).
RUSTFLAGS="$flags -C profile-generate=$data" CARGO_TARGET_DIR="$root/gen" \
  cargo build --release --quiet
gen="$root/gen/release/menagerie"
"$gen" bench >>"$log" 2>&1
"$gen" perft --variant chess --depth 5 >>"$log" 2>&1
for v in $("$gen" variants | awk '{print $1}'); do
  "$gen" perft --variant "$v" --depth 3 >>"$log" 2>&1
done

# 2. The profile, and the build that uses it.
"$profdata" merge -o "$root/menagerie.profdata" "$data" ||
  die "$profdata could not read the profiles (another LLVM than rustc's?): run 'rustup component add llvm-tools'"
RUSTFLAGS="$flags -C profile-use=$root/menagerie.profdata" CARGO_TARGET_DIR="$root" \
  cargo build --release --quiet

# 3. The same search: the bench's node count is its checksum.
nodes() { "$1" bench 2>/dev/null | sed -n 's/^Nodes searched: //p'; }
want=$(nodes "$gen")
got=$(nodes "$root/release/menagerie")
[ "$want" = "$got" ] || die "bench searched $got nodes, the instrumented build $want"
echo "built $root/release/menagerie (bench: $got nodes)"
