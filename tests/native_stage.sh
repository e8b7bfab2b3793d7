#!/bin/bash
# native_stage.sh CIRC CORPUS — the native stage of `circ check` (fuzz/check_native.c):
# on an x86-64 or ARM64 host it is listed, and every corpus file's run lines give the
# oracle's outcomes (trap kinds from the object's trap table, throws, the harness
# buffer) when run on the host's CPU; `circ fuzz` names it among its stages.
set -u
circ=$1
corpus=$2
case "$(uname -m)" in
    x86_64) stage=x86-64-O2-native ;;
    aarch64) stage=arm64-O2-native ;;
    *) echo "skipped: no native stage on $(uname -m)"; exit 77 ;;
esac
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
"$circ" check "$corpus/examples/div.circ" --list-stages | grep -qx "$stage" || fail "$stage is not listed"
files=$(find "$corpus" -name '*.circ' | sort)
out=$("$circ" check $files --targets "$stage" -q 2>&1) || fail "the corpus through $stage: $(echo "$out" | grep -m3 mismatch)"
echo "$out" | tail -1
echo "$out" | grep -q "failed" || fail "no summary from circ check"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$circ" fuzz --seconds 3 --jobs 1 --seed 3 --out "$tmp/f" > "$tmp/log" 2>&1 || fail "a short campaign failed: $(tail -3 "$tmp/log")"
grep -q "machine-code stages:.*$stage" "$tmp/log" || fail "circ fuzz does not name $stage: $(grep machine-code "$tmp/log")"
[ "$fails" -eq 0 ] && echo "native stage: ok"
[ "$fails" -eq 0 ]
