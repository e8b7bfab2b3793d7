#!/bin/bash
# reliability_limits.sh PART CIRC PEAK_RSS GEN REGRESS_DIR MAX_MB — inputs at and beyond
# the sizes the verifier allows, through every command that takes them (PART picks one):
#   switch      64 and 640 SWITCH_CASEs joined by one MERGE: sched, sched --check,
#               compile (both targets, -O0/-O2), check and reduce finish cleanly
#   long_block  50k ORDINARY_BLOCKs in one block: sched, compile -O0/-O2 (both targets)
#               and check within MAX_MB of peak RSS (linear in the block's length)
#   many_funcs  100k functions: verify and test (the ctest's timeout bounds the time)
#   many_args   256 parameters (the parser's limit): run lines and `circ run` with all
#               of them through test, sched --check, every target and reduce; 257
#               arguments name the mismatch instead of printing the usage
#   many_blocks 100k blocks (33,333 IF diamonds): compile -O0 and regalloc of its LIR
#               within MAX_MB (sparse live sets: the dense ones needed several GB)
#   guarded     20k diamonds each with a LOAD demanded in both arms only: sched within
#               the ctest's timeout (placement walks only up to the demand blocks)
#   effects     300k ADDs then 300k STOREs in one block: sched within 20 s (a block's
#               effects are put first in linear time: an insertion sort took 1.8 s for
#               40k of each and over 100 s here); 2,000 of each checked on every stage
#   text        LIR verifier problems at LINE:COL, a NUL byte at its column (both
#               formats), a leading UTF-8 byte order mark accepted (both formats) and a
#               stray one named as a byte
set -u
part=$1; circ=$2; peak=$3; gen=$4; regress=$5; max_mb=$6
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
fail=0
expect() { # expect STATUS DESCRIPTION COMMAND...
  local want=$1 what=$2; shift 2
  "$@" >"$dir/out" 2>&1; local st=$?
  if [ $st -ne "$want" ]; then echo "FAIL: $what: exit $st, want $want"; tail -5 "$dir/out"; fail=1; fi
}
# every compiling command on FILE, each within MAX_MB
all_stages() { # all_stages FILE LABEL
  local f=$1 l=$2
  expect 0 "$l: sched" "$peak" --max-mb "$max_mb" "$l sched" "$circ" sched "$f"
  expect 0 "$l: sched --check" "$peak" --max-mb "$max_mb" "$l sched --check" "$circ" sched --check "$f"
  for t in x86-64 arm64; do
    for o in -O0 -O2; do
      expect 0 "$l: compile $t $o" "$peak" --max-mb "$max_mb" "$l compile $t $o" "$circ" compile "$f" --target "$t" "$o"
    done
  done
  expect 0 "$l: check" "$peak" --max-mb "$max_mb" "$l check" "$circ" check "$f" -q
}

case $part in
switch)
  all_stages "$regress/switch_64_cases.circ" "64 cases"
  # the successors are laid out in case order, the default last
  expect 0 "64 cases: layout" "$circ" sched "$regress/switch_64_cases.circ"
  grep -q "; block b0 (loop depth 0, idom -) preds succs $(seq -s ' ' -f 'b%g' 1 65)\$" "$dir/out" ||
    { echo "FAIL: the blocks of the cases are not in case order"; grep 'block b0' "$dir/out"; fail=1; }
  sh "$gen" switch 640 >"$dir/sw640.circ"
  all_stages "$dir/sw640.circ" "640 cases"
  printf '#!/bin/sh\ngrep -q "SWITCH_CASE 63 " "$1"\n' >"$dir/keep.sh"; chmod +x "$dir/keep.sh"
  expect 0 "64 cases: reduce" "$circ" reduce "$regress/switch_64_cases.circ" --test "$dir/keep.sh" -q -o "$dir/red.circ"
  grep -q "SWITCH_CASE 63 " "$dir/red.circ" || { echo "FAIL: reduce lost the 64th case"; fail=1; }
  ;;
long_block)
  sh "$gen" chain 50000 >"$dir/chain.circ"
  all_stages "$dir/chain.circ" "50k-state block"
  ;;
many_funcs)
  sh "$gen" funcs 100000 >"$dir/funcs.circ"
  expect 0 "100k functions: verify" "$circ" verify "$dir/funcs.circ"
  expect 0 "100k functions: test" "$circ" test "$dir/funcs.circ"
  grep -q '^1 passed, 0 failed' "$dir/out" || { echo "FAIL: the run line of @f50"; fail=1; }
  ;;
many_args)
  sh "$gen" args 256 >"$dir/args.circ"
  expect 0 "256 args: test" "$circ" test "$dir/args.circ"
  expect 0 "256 args: sched --check" "$circ" sched --check "$dir/args.circ"
  grep -q '^1 passed, 0 failed' "$dir/out" || { echo "FAIL: sched --check summary"; cat "$dir/out"; fail=1; }
  for t in sched x86-64 arm64; do expect 0 "256 args: test --target $t" "$circ" test "$dir/args.circ" --target $t; done
  expect 0 "256 args: check" "$circ" check "$dir/args.circ" -q
  expect 0 "256 args: run" "$circ" run "$dir/args.circ" @sum $(seq 0 255)
  grep -qx 'return 32640' "$dir/out" || { echo "FAIL: run's outcome"; cat "$dir/out"; fail=1; }
  expect 2 "257 args: run" "$circ" run "$dir/args.circ" @sum $(seq 0 256)
  grep -q '@sum takes 256 arguments, 257 given' "$dir/out" || { echo "FAIL: run's message"; cat "$dir/out"; fail=1; }
  printf '#!/bin/sh\ngrep -Eq "^; run: @sum\\\\(([^,]*, ){64}" "$1"\n' >"$dir/keep.sh"; chmod +x "$dir/keep.sh"
  expect 0 "256 args: reduce" "$circ" reduce "$dir/args.circ" --test "$dir/keep.sh" -q -o "$dir/red.circ"
  grep -Eq '^; run: @sum\(([^,]*, ){64}' "$dir/red.circ" && ! grep -q ' ADD ' "$dir/red.circ" ||
    { echo "FAIL: reduce kept the sum or lost the run line of 65 arguments"; tail -c 400 "$dir/red.circ"; fail=1; }
  ;;
many_blocks)
  # besides the peak-RSS bound, an address-space limit of 3 x MAX_MB (not under
  # AddressSanitizer, whose shadow needs terabytes of it) stops quadratic memory early
  vlimit=unlimited; [ "$max_mb" -lt 1000 ] && vlimit=$((max_mb * 3 * 1024))
  sh "$gen" diamonds 33333 >"$dir/dia.circ"
  expect 0 "100k blocks: compile -O0" bash -c 'ulimit -v "$1"; shift; exec "$@"' - "$vlimit" \
    "$peak" --max-mb "$max_mb" "100k blocks compile -O0" "$circ" compile "$dir/dia.circ" --target x86-64 -O0
  "$circ" compile "$dir/dia.circ" --target x86-64 --emit=lir >"$dir/dia.lir"
  [ "$(grep -c '^BB#' "$dir/dia.lir")" -ge 100000 ] || { echo "FAIL: the LIR has fewer than 100k blocks"; fail=1; }
  expect 0 "100k blocks: regalloc" bash -c 'ulimit -v "$1"; shift; exec "$@"' - "$vlimit" \
    "$peak" --max-mb "$max_mb" "100k blocks regalloc" "$circ" regalloc "$dir/dia.lir" --quiet
  ;;
guarded)
  # quadratic placement took 17 s for 20k such diamonds and would take 70 s here
  sh "$gen" loads 40000 >"$dir/loads.circ"
  expect 0 "40k guarded loads: sched in 20 s" timeout 20 "$circ" sched "$dir/loads.circ"
  [ "$(grep -c '^  ;   copy of %l' "$dir/out")" = 40000 ] || { echo "FAIL: each load copied into its false arm"; fail=1; }
  ;;
effects)
  sh "$gen" stores 300000 >"$dir/stores.circ"
  expect 0 "300k stores: sched in 20 s" timeout 20 "$peak" --max-mb "$max_mb" "300k stores sched" "$circ" sched "$dir/stores.circ"
  [ "$(grep -c ' = STORE ' "$dir/out")" = 300000 ] || { echo "FAIL: 300k stores: not every store scheduled"; fail=1; }
  sh "$gen" stores 2000 >"$dir/stores2k.circ"
  expect 0 "2k stores: check" "$circ" check "$dir/stores2k.circ" -q
  ;;
text)
  printf 'code @f ; x86-64\nBB#0:\n    Move $1, %%tmp0\n  Successors: #1\nBB#1:\n    Jump\n  Successors: #0 #1\n' >"$dir/v.lir"
  expect 1 "LIR verifier problems" "$circ" lir "$dir/v.lir"
  grep -q 'v.lir:3:5: error: in @f: BB#0: inst 0: the block does not end with a terminator' "$dir/out" &&
    grep -q 'v.lir:5:1: error: in @f: BB#1: 2 successors, its terminator has 1' "$dir/out" ||
    { echo "FAIL: located LIR verifier problems"; cat "$dir/out"; fail=1; }
  printf 'code @f ; x86-64\nBB#0:\n    Jump \0\n  Successors: #0\n' >"$dir/nul.lir"
  expect 1 "LIR NUL" "$circ" lir "$dir/nul.lir"
  grep -q 'nul.lir:3:10: error: in @f: NUL byte' "$dir/out" || { echo "FAIL: LIR NUL column"; cat "$dir/out"; fail=1; }
  printf 'func @f() -> i32 {\n  %%c = CONSTANT i32 1 \0\n  RETURN [entry] {entry} (%%c)\n}\n' >"$dir/nul.circ"
  expect 1 "IR NUL" "$circ" verify "$dir/nul.circ"
  grep -q 'nul.circ:2:23: error: NUL byte' "$dir/out" || { echo "FAIL: IR NUL column"; cat "$dir/out"; fail=1; }
  printf '\357\273\277code @f ; x86-64\nBB#0:\n    Jump\n  Successors: #0\n' >"$dir/bom.lir"
  expect 0 "LIR with a byte order mark" "$circ" lir "$dir/bom.lir"
  printf '\357\273\277func @f() -> i32 {\n  %%c = CONSTANT i32 7\n  RETURN [entry] {entry} (%%c)\n}\n; run: @f() == 7\n' >"$dir/bom.circ"
  expect 0 "IR with a byte order mark" "$circ" test "$dir/bom.circ"
  grep -q '^1 passed, 0 failed' "$dir/out" || { echo "FAIL: the run line after a byte order mark"; fail=1; }
  printf 'func @f() -> i32 {\n\357\273\277  RETURN [entry] {entry}\n}\n' >"$dir/bom2.circ"
  expect 1 "IR with a stray byte order mark" "$circ" verify "$dir/bom2.circ"
  grep -q 'bom2.circ:2:1: error: in @f: expected an opcode, found byte 0xEF' "$dir/out" ||
    { echo "FAIL: the stray byte order mark is named"; cat "$dir/out"; fail=1; }
  ;;
*) echo "unknown part $part"; exit 2 ;;
esac
exit $fail
