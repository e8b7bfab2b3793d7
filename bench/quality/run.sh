#!/bin/bash
# run.sh — bench/quality's measurement (README.md): the examples, tests/semantics'
# loops and 30 generated programs (sizes 100 to 500, six seeds each) through
# bench_quality.   bench/quality/run.sh BUILD_DIR EXAMPLES_DIR
set -eu
build=$1; examples=$2; src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d /tmp/circ_quality_gen_XXXXXX); trap 'rm -rf "$tmp"' EXIT
for size in 100 200 300 400 500; do
  for seed in 1 2 3 4 5 6; do
    "$build/circ" gen --seed $((size * 1000 + seed)) --size $size -o "$tmp/gen_${size}_$seed.circ"
  done
done
"$build/tests/bench_quality" "$examples"/*.circ "$src/tests/semantics/loops.circ" "$tmp"/gen_*.circ
