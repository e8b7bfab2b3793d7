#!/bin/bash
# native_stage.sh CIRC CORPUS — the native stage of `circ check` (fuzz/check_native.c):
# on an x86-64 or ARM64 host it is listed, and every corpus file's run lines give the
# oracle's outcomes (trap kinds from the object's trap table, throws, the harness
# buffer) when run on the host's CPU; `circ fuzz` names it among its stages.  Where
# qemu-aarch64 is installed, the same for arm64-O2-qemu (fuzz/check_qemu.c), and a
# short campaign with --qemu-every 1 runs it on every program.
set -u
circ=$1
corpus=$2
sanitized=${3:-OFF}
if [ "$sanitized" = ON ]; then # fuzz/check_native.c: no native stage under sanitizers
    if "$circ" check "$corpus/examples/div.circ" --list-stages | grep -q -- '-native$'; then
        echo "FAIL: a sanitized build lists a native stage"; exit 1
    fi
    echo "skipped: a sanitized build has no native stage"
    exit 77
fi
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
if "$circ" check "$corpus/examples/div.circ" --list-stages | grep -qx arm64-O2-qemu; then
    out=$("$circ" check $files --targets arm64-O2-qemu -q 2>&1) || fail "the corpus through arm64-O2-qemu: $(echo "$out" | grep -m3 mismatch)"
    echo "$out" | tail -1
    "$circ" fuzz --seconds 3 --jobs 1 --seed 4 --qemu-every 1 --out "$tmp/q" > "$tmp/qlog" 2>&1 ||
        fail "a campaign with qemu on every program failed: $(tail -3 "$tmp/qlog")"
    grep -q "machine-code stages:.*arm64-O2-qemu" "$tmp/qlog" || fail "circ fuzz does not name arm64-O2-qemu"
    grep -q " 0 mismatches" "$tmp/qlog" || fail "qemu campaign: $(grep done "$tmp/qlog")"
elif command -v qemu-aarch64 > /dev/null; then
    echo "qemu-aarch64 is installed, but this build has no qemu runner (configured without aarch64-linux-gnu-gcc)"
else
    echo "no qemu-aarch64: the qemu stage is not checked"
fi
[ "$fails" -eq 0 ] && echo "native stage: ok"
[ "$fails" -eq 0 ]
