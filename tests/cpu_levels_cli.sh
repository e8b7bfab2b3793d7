#!/bin/bash
# cpu_levels_cli.sh CIRC — `--cpu` on the command line: compile, test and run take a level
# of the target (unknown ones are usage errors naming the levels), the listing of
# each level has its instructions, and the check has a stage per level.
set -u
circ=$1
fail() { echo "FAIL: $*"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/bits.circ" <<'CIRC'
func @f(i64) -> i64 {
  %x = ARG i64 0
  %l = CLZ i64 (%x)
  %p = POPCNT i64 (%x)
  %r = ADD i64 (%l, %p)
  RETURN [entry] {entry} (%r)
}
; run: @f(0) == 64
; run: @f(255) == 64
; run: @f(-1) == 64
CIRC
f=$dir/bits.circ
"$circ" compile "$f" --target x86-64 --cpu v3 -S | grep -q lzcnt || fail "v3 listing without lzcnt"
"$circ" compile "$f" --target x86-64 --cpu=v3 -S | grep -q popcnt || fail "--cpu= form"
"$circ" compile "$f" --target x86-64 --cpu baseline -S | grep -q bsr || fail "baseline listing without bsr"
"$circ" compile "$f" --target x86-64 -S | grep -q lzcnt && fail "the default level is not the baseline"
for level in baseline v3; do
    "$circ" test "$f" --target x86-64 --cpu $level -O2 | grep -q '^3 passed, 0 failed' || fail "test --cpu $level"
done
"$circ" test "$f" --target arm64 --cpu baseline | grep -q '^3 passed, 0 failed' || fail "arm64 baseline"
for level in baseline v3; do
    [ "$("$circ" run "$f" @f 255 --target x86-64 --cpu $level)" = "return 64" ] || fail "run --cpu $level"
done
"$circ" run "$f" @f 255 --cpu v3 >/dev/null 2>&1
[ $? = 2 ] || fail "run --cpu without a target"
out=$("$circ" compile "$f" --target x86-64 --cpu v9 2>&1)
[ $? = 2 ] || fail "an unknown level is not a usage error"
echo "$out" | grep -q "baseline, v3" || fail "the error does not name the levels: $out"
"$circ" compile "$f" --target arm64 --cpu v3 >/dev/null 2>&1
[ $? = 2 ] || fail "arm64 has no v3"
"$circ" test "$f" --cpu v3 >/dev/null 2>&1
[ $? = 2 ] || fail "--cpu without a machine target"
"$circ" check --list-stages "$f" | grep -qx 'x86-64-O2-v3' || fail "no x86-64-O2-v3 stage"
"$circ" check "$f" -q | grep -q '1 file checked, 0 failed' || fail "check over every level"
echo "cpu_levels_cli: ok"
