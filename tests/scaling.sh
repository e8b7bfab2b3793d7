#!/bin/bash
# scaling.sh — the cost per gate of compiling one generated function does not grow
# with its size: callgrind's instruction count per gate at about 12k gates is at
# most that at about 1.2k gates (which carries the process start), x86-64 -O0, where
# the register allocator's walks over every inactive interval and every interval of
# the function made it 1.5 times as much.  Counts, not times: deterministic.
# usage: scaling.sh CIRC   (exit 77, skipped, without valgrind or under a sanitizer)
set -u
circ=$1
command -v valgrind >/dev/null || { echo "no valgrind: skipped"; exit 77; }
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT

# instructions per gate of compiling a generated function of about $1 * 1.6 gates
per_gate() {
    "$circ" gen --seed 1 --funcs 1 --size "$1" -o "$dir/in.circ" || exit 1
    local gates; gates=$(grep -c '^  ' "$dir/in.circ")
    valgrind --tool=callgrind --callgrind-out-file="$dir/cg.out" "$circ" compile "$dir/in.circ" \
        --target x86-64 -O0 >/dev/null 2>"$dir/cg.err" || { echo "callgrind cannot run circ: skipped"; exit 77; }
    awk -v g="$gates" '/^summary:/ { printf "%d", $2 / g }' "$dir/cg.out"
}

small=$(per_gate 750) && large=$(per_gate 7500) || exit $?
echo "instructions per gate: $small at ~1.2k gates, $large at ~12k gates"
[ "$large" -le "$small" ] || { echo "FAIL: the cost per gate grows with the function"; exit 1; }
