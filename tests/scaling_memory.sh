#!/bin/bash
# scaling_memory.sh — the memory of compiling one large function stays near its
# size: a chain of 200k ADDs (bench/scale/gen_scale.sh adds) compiles at -O2 on both
# ISAs within MAX_MB of peak RSS (1,250 bytes a gate; 379 and 296 MB while the LIR
# instruction arrays grew by copying in the arena and the resolution made a second
# copy of every block).  Peak RSS is the measure: no wall time.
# usage: scaling_memory.sh CIRC PEAK_RSS GEN_SCALE MAX_MB
set -u
circ=$1 peak=$2 gen=$3 max_mb=$4
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
sh "$gen" adds 200000 >"$dir/chain.circ" || exit 1
fail=0
for isa in x86-64 arm64; do
    "$peak" --max-mb "$max_mb" "chain 200k $isa -O2" "$circ" compile "$dir/chain.circ" --target $isa -O2 >/dev/null
    rc=$?
    [ $rc = 0 ] || { echo "FAIL: $isa -O2 exit $rc (3: above $max_mb MB)"; fail=1; }
done
exit $fail
