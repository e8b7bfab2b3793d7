#!/bin/bash
# insns.sh — host instructions per gate of compile_module, counted by valgrind's
# callgrind over the programs of bench_compile (seeds 1..COUNT, size SIZE): for each
# target of the registry and each -O level, the instructions executed inside
# compile_module (passes, scheduling, selection, allocation, frame, encoding; not the
# generator) divided by the live gates compiled.
# usage: bench/compile/insns.sh [BUILD] [COUNT] [SIZE] [LEVELS]
#        (defaults build, 100, 200, "0 2"; a level written 0L is -O0 with the local
#        allocator); one line per target and level:
#        TARGET -OLEVEL GATES INSTRUCTIONS INSNS/GATE
set -u
build=${1:-build} count=${2:-100} size=${3:-200} levels=${4:-0 2}
bench=$build/tests/bench_compile
command -v valgrind >/dev/null || { echo "insns.sh: valgrind is not installed" >&2; exit 2; }
[ -x "$bench" ] || { echo "insns.sh: no $bench (ninja -C $build bench_compile)" >&2; exit 2; }
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
printf '%-8s %-5s %9s %14s %10s\n' target level gates instructions insns/gate
for t in $("$build/circ" compile --list-targets | grep -v '^c$'); do
  for l in $levels; do
    local=; [ "${l%L}" != "$l" ] && local=--local
    out=$(valgrind --tool=callgrind --callgrind-out-file="$dir/cg" --toggle-collect=bench_counted_compile \
          "$bench" --count "$count" --size "$size" --insns "$t" "${l%L}" $local 2>"$dir/err") ||
      { echo "insns.sh: $t -O$l failed: $(tail -3 "$dir/err")" >&2; exit 1; }
    gates=$(awk '/^gates/ { print $2 }' <<<"$out")
    ir=$(awk '/^summary:/ { print $2 }' "$dir/cg")
    awk -v t="$t" -v l="$l" -v g="$gates" -v i="$ir" \
      'BEGIN { printf "%-8s -O%-3s %9d %14d %10.0f\n", t, l, g, i, i / g }'
  done
done
