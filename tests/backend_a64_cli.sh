#!/bin/bash
# backend_a64_cli.sh — `circ compile --target arm64` and `circ test --target arm64`:
#   -S lists ARM64 code with `%name = OPCODE` headings, the division's checks and
#   brk trap sites, literal words of symbols with their relocations; --emit=lir /
#   lir-alloc print LIR (three-operand division; prologue, no virtual tmps after
#   allocation); -o writes the code; `circ test --target arm64` passes the examples
#   at -O0 and -O2 and fails (exit 1) on a wrong expectation.
# usage: backend_a64_cli.sh CIRC EXAMPLES_DIR
set -u
circ=$1
examples=$2
source "$(dirname "$0")/backend_cli_common.sh"

div=$examples/div.circ
expect_exit 0 "$circ" compile "$div" --target arm64 -S
check "-S names gates" grep -q '= SDIV\|= UDIV\|= SREM\|= UREM' "$tmp/out"
check "-S lists an sdiv or udiv" grep -q 'sdiv\|udiv' "$tmp/out"
check "-S checks the divisor against 0" grep -q 'cbz' "$tmp/out"
check "-S shows a div0 trap site" grep -q 'brk #0x1 *; trap div0' "$tmp/out"
check "-S shows the prologue" grep -q 'stp x29, x30, \[sp, #-0x10\]!' "$tmp/out"

printf 'func @m(f64, f64) -> f64 {\n  %%a = ARG f64 0\n  %%b = ARG f64 1\n  %%r = FMOD f64 (%%a, %%b)\n  RETURN [entry] {entry} (%%r)\n}\n' > "$tmp/fmod.circ"
expect_exit 0 "$circ" compile "$tmp/fmod.circ" --target arm64 -S
check "-S shows the helper's call and relocation" grep -q 'bl #[0-9a-fx]*  ; branch helper\.fmod' "$tmp/out"
if grep -q '\.quad\|blr x16' "$tmp/out"; then echo "FAIL: -S calls the helper through a literal"; fails=$((fails + 1)); fi

expect_exit 0 "$circ" compile "$div" --target arm64 --emit=lir
check "--emit=lir shows virtual tmps" grep -q '%tmp' "$tmp/out"
check "--emit=lir shows the three-operand division" grep -q 'U\?Div32 %tmp[0-9]*, %tmp[0-9]*, %tmp' "$tmp/out"
expect_exit 0 "$circ" compile "$div" --target arm64 -O2 --emit=lir-alloc
if grep -q '%tmp\|%ftmp' "$tmp/out"; then echo "FAIL: lir-alloc still has virtual tmps"; fails=$((fails + 1)); fi
check "--emit=lir-alloc has the prologue" grep -q 'PushPair %x29, %x30' "$tmp/out"

expect_exit 0 "$circ" compile "$div" --target arm64 --emit=bin -o "$tmp/code.bin"
check "-o writes bytes" test -s "$tmp/code.bin"
check "-o writes whole instructions" test $(( $(stat -c %s "$tmp/code.bin") % 4 )) -eq 0

# --branch-reach=N: a conditional branch further than N bytes takes its long form
expect_exit 0 "$circ" compile "$examples/sum_to.circ" --target arm64 -S --branch-reach=4
grep -A1 'b\.lt' "$tmp/out" > "$tmp/long"
check "--branch-reach=4 inverts the loop test over a b" grep -q ' b #' "$tmp/long"
expect_exit 2 "$circ" compile "$examples/sum_to.circ" --target arm64 --branch-reach=0

check_circ_test arm64 'got return 14'
finish backend_a64_cli
