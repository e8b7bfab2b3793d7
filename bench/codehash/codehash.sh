#!/bin/bash
# codehash.sh BUILD_DIR [FIRST] [LAST] — one line per input, target and -O level:
# "FILE TARGET LEVEL SHA256" of the code bytes `circ compile -o` writes (or
# "error EXIT" in place of the hash when the compile fails).  Inputs: every
# corpus/*.circ and corpus/*/*.circ, and `circ gen --seed N` for N in FIRST..LAST
# (default 1..200).  Two builds made the same code iff their outputs are equal
# (README.md).  Environment:
#   TARGETS  targets to compile for (default: those `circ compile --help` lists)
#   LEVELS   -O levels (default "-O0 -O2")
#   GEN      the circ that generates the programs (default BUILD_DIR/circ): give
#            both runs the same one when the generators of the two builds differ
set -euo pipefail
if [ $# -lt 1 ]; then
    echo "usage: $0 BUILD_DIR [FIRST] [LAST]" >&2
    exit 2
fi
circ=$1/circ
first=${2:-1}
last=${3:-200}
gen=${GEN:-$circ}
root=$(cd "$(dirname "$0")/../.." && pwd)
levels=${LEVELS:-"-O0 -O2"}
# the targets the driver lists on the usage line "... for target T (A, B or C) ..."
listed_targets() {
    "$circ" compile --help 2>&1 | tr '\n' ' ' | sed -n 's/.*for target T (\([^)]*\)).*/\1/p' |
        sed 's/ or /, /g; s/,/ /g'
}
targets=${TARGETS:-$(listed_targets)}
if [ -z "$targets" ]; then
    echo "$0: no targets (set TARGETS)" >&2
    exit 2
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
inputs=()
for f in "$root"/corpus/*.circ "$root"/corpus/*/*.circ; do
    [ -e "$f" ] && inputs+=("$f")
done
for s in $(seq "$first" "$last"); do
    "$gen" gen --seed "$s" -o "$dir/gen$s.circ"
    inputs+=("$dir/gen$s.circ")
done
for f in "${inputs[@]}"; do
    name=${f#"$root"/}
    name=${name#"$dir"/}
    for t in $targets; do
        for level in $levels; do
            rc=0
            "$circ" compile "$f" --target "$t" "$level" -o "$dir/out.bin" >/dev/null 2>&1 || rc=$?
            if [ "$rc" = 0 ]; then
                echo "$name $t $level $(sha256sum < "$dir/out.bin" | cut -c1-64)"
            else
                echo "$name $t $level error $rc"
            fi
            rm -f "$dir/out.bin"
        done
    done
done
