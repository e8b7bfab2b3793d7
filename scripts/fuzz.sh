#!/usr/bin/env bash
# fuzz.sh — the README's main command: install what is missing, build Release, and run
# a differential fuzzing campaign on every core:
#   circ fuzz --seconds 60 --jobs $(nproc) --out fuzz-out
# Arguments pass through to `circ fuzz` and override those defaults, e.g.
#   scripts/fuzz.sh --seconds 3600 --swarm --reduce
# Findings (one per mismatch signature) go to fuzz-out/; exit 1 if there are any.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
circ_ensure_deps

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C build circ
exec build/circ fuzz --seconds 60 --jobs "$(nproc)" --out fuzz-out "$@"
