#!/bin/bash
# bench/interp/run.sh [RUNS] — build the interpreter benchmark (Release, own build dir)
# and report interpreted steps per second on a loop-heavy program and small programs
# per second (medians of RUNS runs, default 7).
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$root/build-bench-interp
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release > /dev/null
ninja -C "$build" bench_interp > /dev/null
"$build/tests/bench_interp" "${1:-7}"
