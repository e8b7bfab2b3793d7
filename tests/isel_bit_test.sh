#!/bin/bash
# isel_bit_test.sh CIRC — `ICMP eq|ne (AND x, m), 0` feeding a branch is one test of x
# against m: tbz/tbnz for a single bit and tst for a mask on ARM64, test on x86-64,
# and no AND instruction of its own; the run lines pass on every stage
set -u
circ=$1 src=$(dirname "$0")/isel_bit_test.circ fails=0
check() { if ! grep -Eq "$2" <<<"$3"; then echo "FAIL: $1"; fails=$((fails + 1)); fi; }
absent() { if grep -Eq "$2" <<<"$3"; then echo "FAIL: $1"; fails=$((fails + 1)); fi; }
"$circ" check "$src" || fails=$((fails + 1))
for o in -O0 -O2; do
    a=$("$circ" compile "$src" --target arm64 $o -S)
    check "arm64 $o: tbz on bit 4" 'tbz w0, #4' "$a"
    check "arm64 $o: tst of the mask 6" 'tst w1, #6' "$a"
    absent "arm64 $o: no and" '[[:space:]]and[[:space:]]' "$a"
    x=$("$circ" compile "$src" --target x86-64 $o -S)
    check "x86-64 $o: test of bit 4" 'test (rdi|edi), 0x10' "$x"
    check "x86-64 $o: test of the mask 6" 'test esi, 6' "$x"
    absent "x86-64 $o: no and" '[[:space:]]and[[:space:]]' "$x"
done
[ "$fails" -eq 0 ] && echo "isel_bit_test: ok"
exit $((fails != 0))
