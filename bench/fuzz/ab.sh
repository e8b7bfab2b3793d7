#!/bin/bash
# ab.sh A_BENCH B_BENCH [ROUNDS] [SIZE] [PROGRAMS] — run two bench_fuzz binaries in
# turn ROUNDS times (default 5, size 100, 3000 programs) and print each run's CPU
# programs/s, the medians and their ratio B/A: the way to compare builds on a
# machine whose speed drifts with its other work.  The order alternates (A B, then
# B A, ...) so that a drift within a round favours neither; a run that fails (a
# mismatch, a crash) is reported and left out of the medians instead of ending the
# comparison.
set -uo pipefail
a=$1 b=$2 rounds=${3:-5} size=${4:-100} n=${5:-3000}
rate() {
    local out
    out=$("$1" "$size" "$n" 2>&1) || { echo "FAILED"; return; }
    sed -n 's/.*; \([0-9]*\) programs\/s.*(CPU).*/\1/p' <<<"$out"
}
ra=() rb=()
for r in $(seq "$rounds"); do
    if ((r % 2)); then
        x=$(rate "$a")
        y=$(rate "$b")
    else
        y=$(rate "$b")
        x=$(rate "$a")
    fi
    echo "A $x B $y"
    [[ $x =~ ^[0-9]+$ ]] && ra+=("$x")
    [[ $y =~ ^[0-9]+$ ]] && rb+=("$y")
done
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1} END {print NR ? v[int((NR + 1) / 2)] : 0}'; }
ma=$(median "${ra[@]}") mb=$(median "${rb[@]}")
echo "median A $ma B $mb ratio $(awk -v a="$ma" -v b="$mb" 'BEGIN {printf "%.2f", a ? b / a : 0}')"
