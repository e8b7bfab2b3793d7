#!/usr/bin/env bash
# fuzz_replay.sh CIRC DIR... — `circ check` over every .circ file of the directories
# (examples, seeds, regression reproducers) on both ISAs: the oracle meets every run
# line and every compiler stage agrees with it.
set -u
circ=$1; shift
files=()
for d in "$@"; do
    for f in "$d"/*.circ; do [ -e "$f" ] && files+=("$f"); done
done
[ ${#files[@]} -gt 0 ] || { echo "no corpus files in $*"; exit 1; }
"$circ" check -q --isa x86-64,arm64 "${files[@]}"
