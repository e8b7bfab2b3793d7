#!/bin/sh
# codehash.sh — hash the machine code of every function that a circ build makes for
# corpus/ and for generated programs, for both ISAs at -O0 and -O2.
#
# usage: bench/codehash/codehash.sh BUILD_DIR [SEEDS]
#   BUILD_DIR  a build directory holding `circ`
#   SEEDS      generated programs `circ gen --seed 1..SEEDS` (default 500)
# Prints one line per function:  FILE ISA LEVEL FUNCTION SIZE SHA256-PREFIX
# (FILE is corpus-relative or gen:SEED; a file that does not compile prints
# FUNCTION "-" and SIZE "error").  Stable order, so two outputs can be compared
# with compare.sh.  Runs from anywhere; needs python3 for hashing.
set -eu
[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [SEEDS]" >&2; exit 2; }
circ=$(cd "$1" && pwd)/circ
seeds=${2:-500}
[ -x "$circ" ] || { echo "$0: no circ in $1" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# one file: every ISA and level
hash_file() { # NAME PATH
    for isa in x86-64 arm64; do
        for lvl in O0 O2; do
            if "$circ" compile "$2" --target "$isa" "-$lvl" -o "$tmp/code" >"$tmp/map" 2>/dev/null &&
               "$circ" compile "$2" --target "$isa" "-$lvl" >"$tmp/map" 2>/dev/null; then
                python3 "$root/bench/codehash/split.py" "$1" "$isa" "$lvl" "$tmp/map" "$tmp/code"
            else
                echo "$1 $isa $lvl - error -"
            fi
        done
    done
}

find "$root/corpus" -name '*.circ' | LC_ALL=C sort | while read -r f; do
    hash_file "${f#"$root"/}" "$f"
done
i=1
while [ "$i" -le "$seeds" ]; do
    "$circ" gen --seed "$i" -o "$tmp/gen.circ"
    hash_file "gen:$i" "$tmp/gen.circ"
    i=$((i + 1))
done
