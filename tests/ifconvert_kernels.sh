#!/bin/bash
# ifconvert_kernels.sh — BENCH_COMPILE KERNEL...: run `bench_compile --kernels` and
# check its table (columns "without / with" ifconvert): every run passes, the max,
# min and clamp loops keep one conditional branch (the loop latch) with ifconvert and
# had more without, and no kernel has more stack-slot operands with the pass.
set -u
bench=$1; shift
out=$("$bench" --kernels "$@") || { echo "FAIL: bench_compile --kernels exited $?"; echo "$out"; exit 1; }
echo "$out"
fail=0
while IFS='|' read -r _ kernel target insns branches stack blocks rest; do
    kernel=${kernel// /}; target=${target// /}
    case $kernel in *.circ) ;; *) continue ;; esac
    read -r b0 _ b1 <<<"$branches"
    read -r s0 _ s1 <<<"$stack"
    if [ "$s1" -gt "$s0" ]; then echo "FAIL: $kernel $target: stack-slot operands rise ($s0 -> $s1)"; fail=1; fi
    case $kernel in max_loop.circ|min_loop.circ|clamp_loop.circ)
        if [ "$b1" -ne 1 ] || [ "$b0" -le 1 ]; then
            echo "FAIL: $kernel $target: conditional branches $b0 -> $b1 (want the latch only)"; fail=1
        fi ;;
    esac
    seen=$((${seen:-0} + 1))
done <<<"$out"
[ "${seen:-0}" -ge 6 ] || { echo "FAIL: too few kernel rows"; fail=1; }
[ $fail = 0 ] && echo "ok"
exit $fail
