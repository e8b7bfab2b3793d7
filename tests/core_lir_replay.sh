#!/usr/bin/env bash
# core_lir_replay.sh CIRC EXAMPLES — a backend's allocated LIR dump replays through
# `circ lir` and `circ regalloc` on both targets, and encodes to the same bytes as
# `circ compile` produced.
set -euo pipefail
circ=$1 examples=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for target in x86-64 arm64; do
    for f in max sum_to fill sumsq; do
        "$circ" compile "$examples/$f.circ" --target "$target" -O2 --emit=lir-alloc > "$tmp/$f.lir"
        grep -q "; $target\$" "$tmp/$f.lir" || { echo "$f: dump does not name $target"; exit 1; }
        "$circ" lir "$tmp/$f.lir" -S > "$tmp/$f.S" || { echo "$f ($target): circ lir -S failed"; exit 1; }
        grep -q "ret" "$tmp/$f.S" || { echo "$f ($target): no return in the listing"; exit 1; }
        "$circ" lir "$tmp/$f.lir" --hex > /dev/null
        "$circ" compile "$examples/$f.circ" --target "$target" -O2 --emit=bin -o "$tmp/$f.bin"
        replay=$("$circ" lir "$tmp/$f.lir" --hex | sed 's/^@[^:]*://' | tr -d ' \n')
        direct=$(od -An -v -tx1 "$tmp/$f.bin" | tr -d ' \n')
        [ "$replay" = "$direct" ] || { echo "$f ($target): replayed bytes differ from circ compile -o"; exit 1; }
    done
done
echo "LIR dumps replay on both targets"
