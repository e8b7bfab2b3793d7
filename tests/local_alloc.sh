#!/bin/bash
# local_alloc.sh CIRC — the local allocator (compiler/lir/fastalloc.c): the allocated
# LIR of hand-written codes is exactly the reviewed one (dead instruction gone, a slot
# per tmp, a register that holds a tmp reused without a reload, the slot taken as an
# operand where the form allows, no register live across the instruction or clobbered
# by a call handed out; a tmp read only in its own block after its def stays in its
# register, stored only when the register is wanted while it is still to be read (a
# call's clobbers); a 32-bit update in its slot only when the upper half of the slot
# is known zero); the examples and corpus/regress pass their run lines through the
# TARGET-O0-local stages; compiled programs keep selection's fused tests without the
# dead AND.
set -u
circ=$1 here=$(dirname "$0") fails=0
fail() { echo "FAIL: $1"; fails=$((fails + 1)); }
for isa in x64 a64; do
    got=$("$circ" regalloc "$here/local_alloc_$isa.lir" --local) || fail "$isa: allocation failed"
    diff <(echo "$got") "$here/local_alloc_$isa.expected" >&2 || fail "$isa: allocated code differs"
done
# every register live across an instruction that needs one: an error, not a crash
err=$("$circ" regalloc "$here/local_alloc_full.lir" --local 2>&1 >/dev/null); st=$?
[ $st -eq 1 ] && grep -q 'local_alloc_full.lir: error: in @full: no GP register left' <<<"$err" ||
    fail "no register left: exit $st, '$err'"
"$circ" check -q --targets x86-64-O0-local,arm64-O0-local "$here"/../corpus/examples/*.circ \
    "$here"/../corpus/regress/*.circ "$here"/isel_bit_test.circ || fail "the local stages disagree with the oracle"
x=$("$circ" compile "$here/isel_bit_test.circ" --target x86-64 --regalloc=local -S) || fail "x86-64 compile"
grep -Eq 'test qword ptr \[rbp - (0x)?[0-9a-f]+\], 0x10' <<<"$x" || fail "x86-64: the bit test reads the slot"
a=$("$circ" compile "$here/isel_bit_test.circ" --target arm64 --regalloc=local -S) || fail "arm64 compile"
grep -Eq 'tbz w[0-9]+, #4' <<<"$a" || fail "arm64: tbz on bit 4"
grep -Eq '[[:space:]]and[[:space:]]' <<<"$x$a" && fail "the AND selection fused is left in the code"
[ "$fails" -eq 0 ] && echo "local_alloc: ok"
exit $((fails != 0))
