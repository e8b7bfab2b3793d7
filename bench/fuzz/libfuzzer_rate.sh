#!/bin/bash
# libfuzzer_rate.sh TARGET [SECONDS] [FLAGS...] — run a libFuzzer target (a binary of
# the OSS-Fuzz build, scripts/oss-fuzz/build.sh, or of -DCIRC_LIBFUZZER=ON) for
# SECONDS (default 60) on one core from a copy of its seed corpus
# (corpus/seeds/NAME), with the flags of its .options file (scripts/oss-fuzz/NAME.options,
# as OSS-Fuzz passes them) and FLAGS after them.  Prints libFuzzer's final exec/s line and the executions per
# second of the process's CPU time (user + system): on a machine shared with other
# work the wall-clock exec/s understates what one core does.
set -euo pipefail
target=$1
seconds=${2:-60}
shift $(($# < 2 ? $# : 2))
here=$(cd "$(dirname "$0")/../.." && pwd)
name=$(basename "$target")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus"
cp "$here/corpus/seeds/$name"/* "$work/corpus/" 2>/dev/null || true
opts=()
if [ -f "$here/scripts/oss-fuzz/$name.options" ]; then
    while IFS='=' read -r k v; do
        k=${k// /} v=${v// /}
        [[ $k && $k != \[* && $k != \#* ]] && opts+=("-$k=$v")
    done <"$here/scripts/oss-fuzz/$name.options"
fi
/usr/bin/time -f "%U %S" -o "$work/cpu" taskset -c 0 "$target" -max_total_time="$seconds" \
    -print_final_stats=1 "${opts[@]}" "$@" "$work/corpus" >"$work/log" 2>&1 || true
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
grep -E '^#[0-9]+[[:space:]]+DONE' "$work/log" || tail -5 "$work/log"
read -r user sys <"$work/cpu"
awk -v n="$runs" -v u="$user" -v s="$sys" -v f="${opts[*]} $*" \
    'BEGIN { printf "%s: %d runs, %.1f s CPU (%.1f user, %.1f system): %.0f execs per CPU second; flags: %s\n",
             "'"$name"'", n, u + s, u, s, n / (u + s), f }'
