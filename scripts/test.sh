#!/usr/bin/env bash
# test.sh — README's test command: install what is missing, then build and run the whole
# suite through ctest twice: a Release build with gcc, and an ASan+UBSan build with clang;
# then circ built for an ARM64 host and a subset of its tests run under qemu-aarch64.
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

echo "== ARM64 host: circ built for AArch64, a subset of its tests under qemu-aarch64 (docs/hosts.md)"
arm64=0
circ_ensure_arm64_deps || arm64=$?
if [ "$arm64" -eq 77 ]; then
    echo "skipped: this system's package archive has no arm64 build of Unicorn or Capstone"
elif [ "$arm64" -ne 0 ]; then
    echo "the arm64 packages of the ARM64-host build could not be installed" >&2
    exit 1
else
    cmake -S . -B build-arm64 -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
          -DCIRC_HOST_SUBSET=ON -DCIRC_Z3=OFF -DCIRC_LTO=OFF -DCIRC_WERROR=ON >/dev/null
    ninja -C build-arm64
    ctest --test-dir build-arm64 --output-on-failure -j "$jobs"
fi
