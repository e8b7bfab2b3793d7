#!/bin/bash
# ifconvert_kernels.sh — BENCH_COMPILE KERNEL...: run `bench_compile --kernels` and
# check its table (columns "a / b / c": -O2 without ifconvert and with unbounded
# hoisting / with ifconvert / with ifconvert and the scheduler's register budget):
# every run passes; the max, min and clamp loops keep one conditional branch (the loop
# latch) with ifconvert and had more without; no kernel has more stack-slot operands
# with ifconvert, nor with the register budget; and the invariants kernel, with more
# loop invariants than registers, spills less with the budget.
set -u
bench=$1; shift
out=$("$bench" --kernels "$@") || { echo "FAIL: bench_compile --kernels exited $?"; echo "$out"; exit 1; }
echo "$out"
fail=0
while IFS='|' read -r _ kernel target insns branches stack run_insns blocks rest; do
    kernel=${kernel// /}; target=${target// /}
    case $kernel in *.circ) ;; *) continue ;; esac
    read -r b0 _ b1 _ b2 <<<"$branches"
    read -r s0 _ s1 _ s2 <<<"$stack"
    if [ "$s1" -gt "$s0" ]; then echo "FAIL: $kernel $target: stack-slot operands rise with ifconvert ($s0 -> $s1)"; fail=1; fi
    if [ "$s2" -gt "$s1" ]; then echo "FAIL: $kernel $target: stack-slot operands rise with the budget ($s1 -> $s2)"; fail=1; fi
    case $kernel in
    max_loop.circ|min_loop.circ|clamp_loop.circ)
        if [ "$b1" -ne 1 ] || [ "$b0" -le 1 ]; then
            echo "FAIL: $kernel $target: conditional branches $b0 -> $b1 (want the latch only)"; fail=1
        fi ;;
    invariants.circ)
        if [ "$s2" -ge "$s1" ]; then echo "FAIL: $kernel $target: the budget does not lower spills ($s1 -> $s2)"; fail=1; fi ;;
    esac
    seen=$((${seen:-0} + 1))
done <<<"$out"
[ "${seen:-0}" -ge 6 ] || { echo "FAIL: too few kernel rows"; fail=1; }
[ $fail = 0 ] && echo "ok"
exit $fail
