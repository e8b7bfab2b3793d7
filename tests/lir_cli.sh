#!/bin/bash
# lir_cli.sh CIRC SAMPLE — `circ lir`: parse/print round trip, the x86-64 listing of a
# sample (branch layout, call, trap table, relocation, gate marks), and refusals.
set -u
circ=$1
sample=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$circ" lir --help >/dev/null || fail "--help"
"$circ" lir "$sample" || fail "the sample is valid"
"$circ" lir "$sample" --print >"$tmp/a.lir" || fail "--print"
"$circ" lir "$tmp/a.lir" --print >"$tmp/b.lir" || fail "--print of the printed text"
cmp -s "$tmp/a.lir" "$tmp/b.lir" || fail "print -> parse -> print is not stable"
grep -q 'Predecessors: #0' "$tmp/a.lir" || fail "predecessors are recomputed"

"$circ" lir "$sample" -S >"$tmp/list.txt" || fail "-S"
expect() { grep -Eq "$1" "$tmp/list.txt" || { cat "$tmp/list.txt"; fail "listing lacks /$1/"; }; }
expect '^@sign:$'
expect '^@caller:$'
expect 'jl 0x[0-9a-f]+$'                  # Branch32 slt: jl to BB#2, then jmp to BB#3
expect 'jmp 0x[0-9a-f]+$'
expect 'ud2  ; trap overflow'
expect 'idiv ebx  ; trap div0'
expect 'lea r11, \[rip\]  ; pc32 helper.fmod_f64'
expect 'mov dword ptr \[rbp - 8\], edi'   # stack0 at offset -8 from the frame base
expect '; gate 9'
expect 'call 0$'                          # function 0 is at offset 0
# two jmps (BB#0 to BB#3, BB#2 to BB#4): BB#3's jump to the next block emits nothing
[ "$(grep -c ' jmp ' "$tmp/list.txt")" = 2 ] || fail "jump to the next block was not elided"

"$circ" lir "$sample" --hex >"$tmp/hex.txt" || fail "--hex"
grep -q '^@sign: 55 48 89 e5' "$tmp/hex.txt" || fail "hex of the prologue"

printf 'code @f ; x86-64\nBB#0:\n    Add32 (%%rax), (%%rcx)\n' >"$tmp/bad.lir"
"$circ" lir "$tmp/bad.lir" 2>"$tmp/err.txt"
[ $? = 1 ] || fail "an invalid form exits 1"
grep -q "bad.lir:3:5: error: in @f: Add32: no x86-64 form" "$tmp/err.txt" || fail "diagnostic: $(cat "$tmp/err.txt")"

printf 'code @f ; x86-64\nBB#0:\n    Move32 %%tmp0, %%rax\n    Ret32 %%rax\n' >"$tmp/virt.lir"
"$circ" lir "$tmp/virt.lir" || fail "virtual tmps are valid LIR"
"$circ" lir "$tmp/virt.lir" -S >/dev/null 2>"$tmp/err.txt"
[ $? = 1 ] || fail "encoding an unallocated tmp exits 1"
grep -q "register" "$tmp/err.txt" || fail "message for an unallocated tmp"

printf 'code @f ; x86-64\nBB#0:\n    Move32 $1, %%rax\n' >"$tmp/open.lir"
"$circ" lir "$tmp/open.lir" 2>"$tmp/err.txt"
[ $? = 1 ] || fail "a block without a terminator exits 1"
grep -q "open.lir:3:5: error: in @f: BB#0: inst 0: the block does not end with a terminator" "$tmp/err.txt" ||
    fail "diagnostic: $(cat "$tmp/err.txt")"

"$circ" lir "$tmp/missing.lir" 2>/dev/null
[ $? = 2 ] || fail "a missing file exits 2"
"$circ" lir 2>/dev/null
[ $? = 2 ] || fail "no file exits 2"
head -c 3000 "$circ" >"$tmp/noise.lir"   # binary noise: the driver itself
"$circ" lir "$tmp/noise.lir" >/dev/null 2>&1
[ $? = 1 ] || fail "noise is refused with exit 1"
echo "lir_cli: ok"
