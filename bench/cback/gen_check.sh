#!/bin/bash
# gen_check.sh — generated programs through the C stages (docs/cbackend.md): N
# programs of `circ gen` (seeds FIRST .. FIRST+N-1, size SIZE) checked by
# `circ check --targets c-` (gcc and clang, x86-64 and arm64, under the emulator) in
# batches of 50; a program with a mismatch is kept in OUT with its report.
#   bench/cback/gen_check.sh CIRC N [FIRST] [SIZE] [OUT]
# Prints one line per batch and a summary "N programs, M mismatches, S s".
set -u
circ=$1; n=$2; first=${3:-1}; size=${4:-100}; out=${5:-cback-out}
mkdir -p "$out"
tmp=$(mktemp -d /tmp/circ_gencheck_XXXXXX); trap 'rm -rf "$tmp"' EXIT
start=$(date +%s); done_=0; bad=0
for ((b = first; b < first + n; b += 50)); do
  rm -f "$tmp"/*.circ
  for ((s = b; s < b + 50 && s < first + n; s++)); do
    "$circ" gen --seed "$s" --size "$size" -o "$tmp/g$s.circ" || { echo "circ gen --seed $s failed"; exit 2; }
  done
  "$circ" check --targets c- -q "$tmp"/*.circ >"$tmp/report" 2>&1
  for f in $(grep -o "^$tmp/g[0-9]*\.circ: mismatch" "$tmp/report" | cut -d: -f1); do
    cp "$f" "$out/"; bad=$((bad + 1))
  done
  grep -v "^$tmp/g[0-9]*\.circ: ok" "$tmp/report" | grep -v "files checked" >>"$out/report.txt"
  done_=$((s - first))
  echo "$done_ programs, $bad mismatches, $(( $(date +%s) - start )) s: $(tail -1 "$tmp/report")"
done
echo "$done_ programs, $bad mismatches, $(( $(date +%s) - start )) s"
