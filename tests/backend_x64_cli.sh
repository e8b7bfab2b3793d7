#!/bin/bash
# backend_x64_cli.sh — `circ compile` and `circ test --target x86-64`:
#   -S lists the code with `%name = OPCODE` headings, --emit=lir / lir-alloc print
#   LIR that `circ lir` reads back (a caller has a frame, a frameless leaf none), -o writes exactly the listed bytes, arm64 is a target too, bad
#   usage exits 2, an invalid file exits 1, and `circ test --target x86-64` passes
#   the examples at -O0 and -O2 and fails (exit 1) on a wrong expectation.
# usage: backend_x64_cli.sh CIRC EXAMPLES_DIR
set -u
circ=$1
examples=$2
source "$(dirname "$0")/backend_cli_common.sh"

div=$examples/div.circ
expect_exit 0 "$circ" compile "$div" --target x86-64 -S
check "-S names gates" grep -q '= SDIV\|= UDIV\|= SREM\|= UREM' "$tmp/out"
check "-S lists a div" grep -q 'div' "$tmp/out"
check "-S shows a trap site" grep -qi 'trap' "$tmp/out"

expect_exit 0 "$circ" compile "$div" --target x86-64 --emit=lir
check "--emit=lir shows virtual tmps" grep -q '%tmp' "$tmp/out"
check "--emit=lir shows the x86 division" grep -q 'X86I\?Div' "$tmp/out"
expect_exit 0 "$circ" compile "$div" --target x86-64 -O2 --emit=lir-alloc
if grep -q '%tmp\|%ftmp' "$tmp/out"; then echo "FAIL: lir-alloc still has virtual tmps"; fails=$((fails + 1)); fi
check "--emit=lir-alloc ends in a return" grep -q 'Ret64 %rax' "$tmp/out"
# a function that calls needs a frame (16-byte aligned stack at the call); a leaf
# without stack slots gets none
expect_exit 0 "$circ" compile "$examples/sumsq.circ" --target x86-64 -O0 --emit=lir-alloc
check "a caller has the prologue" grep -q 'Push %rbp' "$tmp/out"
check "a caller restores the frame" grep -q 'Pop %rbp' "$tmp/out"
expect_exit 0 "$circ" compile "$div" --target x86-64 -O2 --emit=lir-alloc
if grep -q 'Push %rbp' "$tmp/out"; then echo "FAIL: a frameless leaf got a frame"; fails=$((fails + 1)); fi

# the dumps are LIR text that `circ lir` reads back (and, allocated, encodes)
"$circ" compile "$examples/sumsq.circ" --target x86-64 --emit=lir >"$tmp/low.lir"
expect_exit 0 "$circ" lir "$tmp/low.lir"
"$circ" compile "$examples/sumsq.circ" --target x86-64 -O2 --emit=lir-alloc >"$tmp/alloc.lir"
expect_exit 0 "$circ" lir "$tmp/alloc.lir" -S
check "the allocated dump encodes" grep -q 'ret' "$tmp/out"

expect_exit 0 "$circ" compile "$div" --target x86-64 --emit=bin -o "$tmp/code.bin"
check "-o writes bytes" test -s "$tmp/code.bin"
expect_exit 0 "$circ" compile "$div" --target x86-64
size=$(awk '{s += $(NF-1)} END {print s}' "$tmp/out")
# functions are padded to 16 bytes: the file holds at least the sum of the sizes
check "-o size matches the functions" test "$(stat -c %s "$tmp/code.bin")" -ge "$size"

expect_exit 0 "$circ" compile "$div" --target arm64
expect_exit 2 "$circ" compile "$div" --target sparc
expect_exit 2 "$circ" compile "$div"
expect_exit 2 "$circ" compile "$div" --target x86-64 --bogus
expect_exit 2 "$circ" compile "$div" --target x86-64 --passes=fold,bogus
check "an unknown pass is named" grep -q "bogus" "$tmp/err"
expect_exit 0 "$circ" compile "$div" --target x86-64 --passes=fold,gvn,dce -S
expect_exit 0 "$circ" compile "$div" --target x86-64 -O2 --max-regs=3,2 -S
expect_exit 2 "$circ" compile "$div" --target x86-64 --max-regs=lots
expect_exit 2 "$circ" compile "$tmp/missing.circ" --target x86-64
printf 'func @f() -> i32 {\n  RETURN [entry] {entry} (%%nope)\n}\n' >"$tmp/bad.circ"
expect_exit 1 "$circ" compile "$tmp/bad.circ" --target x86-64
expect_exit 0 "$circ" compile --help

check_circ_test x86-64 'expected return 15, got return 14'
finish backend_x64_cli
