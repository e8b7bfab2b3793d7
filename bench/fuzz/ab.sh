#!/bin/bash
# ab.sh A_BENCH B_BENCH [ROUNDS] [SIZE] [PROGRAMS] — run two bench_fuzz binaries in
# turn ROUNDS times (default 5, size 100, 3000 programs) and print each run's CPU
# programs/s and the medians: the way to compare builds on a machine whose speed
# drifts with its other work.
set -euo pipefail
a=$1 b=$2 rounds=${3:-5} size=${4:-100} n=${5:-3000}
rate() { "$1" "$size" "$n" 2>&1 | sed -n 's/.*; \([0-9]*\) programs\/s.*(CPU).*/\1/p'; }
ra=() rb=()
for _ in $(seq "$rounds"); do
    x=$(rate "$a")
    y=$(rate "$b")
    echo "A $x B $y"
    ra+=("$x")
    rb+=("$y")
done
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
echo "median A $(median "${ra[@]}") B $(median "${rb[@]}")"
