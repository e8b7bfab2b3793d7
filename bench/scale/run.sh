#!/bin/bash
# run.sh — the scale benchmark: generates large inputs (gen_scale.sh), runs the
# commands that take them, and prints each one's wall time and peak RSS (peak_rss.c,
# built here with cc).  usage: bench/scale/run.sh [CIRC] (default build/circ)
set -u
here=$(cd "$(dirname "$0")" && pwd)
circ=${1:-$here/../../build/circ}
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
cc -std=c11 -O2 -o "$dir/peak_rss" "$here/peak_rss.c" || exit 2
m() { "$dir/peak_rss" "$@" >/dev/null; }

sh "$here/gen_scale.sh" chain 200000 >"$dir/chain.circ"
m "chain 200k: sched" "$circ" sched "$dir/chain.circ"
for t in x86-64 arm64; do
  for o in -O0 -O2; do m "chain 200k: compile $t $o" "$circ" compile "$dir/chain.circ" --target $t $o; done
done
m "chain 200k: check" "$circ" check "$dir/chain.circ" -q

for n in 10000 40000 100000; do
  sh "$here/gen_scale.sh" funcs $n >"$dir/funcs.circ"
  m "funcs $n: verify" "$circ" verify "$dir/funcs.circ"
done
m "funcs 100000: test" "$circ" test "$dir/funcs.circ"

sh "$here/gen_scale.sh" switch 10000 >"$dir/switch.circ"
m "switch 10k cases: compile x86-64 -O2" "$circ" compile "$dir/switch.circ" --target x86-64 -O2

for n in 2500 5000 10000 33333; do
  sh "$here/gen_scale.sh" diamonds $n >"$dir/dia.circ"
  m "diamonds $n ($((3 * n + 1)) blocks): sched" "$circ" sched "$dir/dia.circ"
  m "diamonds $n ($((3 * n + 1)) blocks): compile x86-64 -O0" "$circ" compile "$dir/dia.circ" --target x86-64 -O0
  "$circ" compile "$dir/dia.circ" --target x86-64 --emit=lir >"$dir/dia.lir"
  m "diamonds $n: regalloc of its LIR ($(grep -c '^BB#' "$dir/dia.lir") blocks)" "$circ" regalloc "$dir/dia.lir" --quiet
done

for n in 10000 20000 40000; do
  sh "$here/gen_scale.sh" loads $n >"$dir/loads.circ"
  m "loads $n (guarded gates demanded in both arms): sched" "$circ" sched "$dir/loads.circ"
  m "loads $n: compile x86-64 -O2" "$circ" compile "$dir/loads.circ" --target x86-64 -O2
done
