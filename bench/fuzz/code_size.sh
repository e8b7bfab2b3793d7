#!/bin/bash
# code_size.sh [BUILD] [FIRST] [LAST] — machine instructions of generated programs
# (seeds FIRST..LAST, default 100..160, size 100) per target of the registry
# (`circ compile --list-targets`) and -O level: the code the
# emulator translates once per program and stage.  Emulation is dominated by that
# translation (bench/fuzz/README.md), so fewer instructions mean a faster campaign.
set -euo pipefail
build=${1:-build}
first=${2:-100}
last=${3:-160}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
targets=$("$build/circ" compile --list-targets)
for s in $(seq "$first" "$last"); do
    "$build/circ" gen --seed "$s" -o "$dir/g$s.circ"
done
for level in -O0 -O2; do
    for target in $targets; do
        n=0
        for s in $(seq "$first" "$last"); do
            k=$("$build/circ" compile "$dir/g$s.circ" --target "$target" "$level" -S | grep -cE '^ +[0-9a-f]+:' || true)
            n=$((n + k))
        done
        echo "$target $level: $n instructions in $((last - first + 1)) programs"
    done
done
