#!/usr/bin/env bash
# test.sh — README's test command: install what is missing, then build and run the whole
# suite through ctest twice: a Release build with gcc, and an ASan+UBSan build with clang.
# Warnings are errors in both.  Usage: scripts/test.sh [ctest args...]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
circ_ensure_deps

jobs=$(nproc)
echo "== Release (gcc)"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=gcc -DCIRC_WERROR=ON >/dev/null
ninja -C build
ctest --test-dir build --output-on-failure -j "$jobs" "$@"

echo "== fixed-seed fuzzing campaign (60 s, must find no mismatch)"
build/circ fuzz --seconds 60 --seed 1 --jobs "$jobs" --out build/fuzz-ci

echo "== ASan+UBSan (clang)"
cmake -S . -B build-san -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
      -DCIRC_SANITIZE=ON -DCIRC_WERROR=ON >/dev/null
ninja -C build-san
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-san --output-on-failure -j "$jobs" "$@"
