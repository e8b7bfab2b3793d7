#!/bin/sh
# codehash.sh — hash the machine code of every function that a circ build makes for
# corpus/ and for generated programs, for every target of the registry at -O0 and -O2.
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
# the registry's targets; a build older than --list-targets names them in its usage
targets=$("$circ" compile --list-targets 2>/dev/null) ||
    targets=$("$circ" compile --help | tr '\n' ' ' | sed -n 's/.*for target T (\([^)]*\)).*/\1/p' | sed 's/ or /, /g; s/,/ /g')

# one file: every target and level; the bytes and offsets of each go to $tmp/N.code and
# $tmp/N.map, listed in $tmp/index for split.py (one python run at the end)
n=0
hash_file() { # NAME PATH
    for isa in $targets; do
        for lvl in O0 O2; do
            n=$((n + 1))
            # raw bytes: --emit=bin (a build older than ELF objects writes them with -o alone)
            if { "$circ" compile "$2" --target "$isa" "-$lvl" --emit=bin -o "$tmp/$n.code" >/dev/null 2>&1 ||
                 "$circ" compile "$2" --target "$isa" "-$lvl" -o "$tmp/$n.code" >/dev/null 2>&1; } &&
               "$circ" compile "$2" --target "$isa" "-$lvl" >"$tmp/$n.map" 2>/dev/null; then
                echo "$1 $isa $lvl $tmp/$n.map $tmp/$n.code" >>"$tmp/index"
            else
                echo "$1 $isa $lvl - -" >>"$tmp/index"
            fi
        done
    done
}

: >"$tmp/index"
for f in $(find "$root/corpus" -name '*.circ' | LC_ALL=C sort); do
    hash_file "${f#"$root"/}" "$f"
done
i=1
while [ "$i" -le "$seeds" ]; do
    "$circ" gen --seed "$i" -o "$tmp/gen.circ"
    hash_file "gen:$i" "$tmp/gen.circ"
    i=$((i + 1))
done
python3 "$root/bench/codehash/split.py" "$tmp/index"
