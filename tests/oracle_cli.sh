#!/bin/bash
# oracle_cli.sh CIRC SEMANTICS_DIR — `circ run` and `circ test` as a user sees them:
# outcome lines, --heap dumps, --steps, failure lines, the summary line, exit codes.
set -u
circ=$1
dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
expect() { # NAME EXPECTED_RC EXPECTED_TEXT -- COMMAND...
    local name=$1 rc=$2 text=$3
    shift 4
    out=$("$@" 2>&1)
    got=$?
    if [ "$got" != "$rc" ] || ! grep -qF -- "$text" <<< "$out"; then
        echo "FAIL $name: exit $got (want $rc), output:"
        echo "$out" | head -20
        echo "  (wanted: $text)"
        fails=$((fails + 1))
    fi
}
ex=$dir/calls.circ
expect return 0 "return 120" -- "$circ" run "$ex" @fact 5
expect trap 0 "trap div0" -- "$circ" run "$ex" @call_divider 0
expect throw 0 "throw 7" -- "$circ" run "$ex" @call_thrower 7
expect float 0 "return 0.5" -- "$circ" run "$dir/op_fadd.circ" @fadd_f64 0.25 0.25
expect void 0 "return void" -- "$circ" run "$ex" @bump heap 1
expect heap-dump 0 "heap+0x000: a5 -> a6" -- "$circ" run "$ex" @bump heap 1 --heap
expect timeout 1 "timeout" -- "$circ" run "$dir/loops.circ" @fib 1000000 --steps 5000
stack=$(dirname "$0")/../corpus/regress/stack_limit.circ
expect stack-limit 0 "return 136" -- "$circ" run "$stack" @deep 16
expect stack-beyond 1 "timeout" -- "$circ" run "$stack" @deep 17
expect invalid 1 "invalid: in @f: address of ALLOCA %p escapes into RETURN" -- "$circ" run "$dir/invalid/return_alloca.circ" @f
expect arity 2 "takes 2 arguments" -- "$circ" run "$ex" @bump heap
expect badarg 2 "not a i64 argument" -- "$circ" run "$ex" @fact 1.5
expect nofunc 2 "no function @nope" -- "$circ" run "$ex" @nope
expect help 0 "usage: circ run" -- "$circ" run --help
expect badopt 2 "bad option '--steps'" -- "$circ" run "$ex" @fact 5 --steps many
expect negative-arg 0 "return -14" -- "$circ" run "$ex" @call_divider -7

# circ test: a failing expectation is reported with file, line, call, expected and got
cp "$ex" "$tmp/t.circ"
echo '; run: @fact(4) == 25' >> "$tmp/t.circ"
line=$(wc -l < "$tmp/t.circ")
expect test-fail 1 "$tmp/t.circ:$line: @fact(4): expected return 25, got return 24" -- "$circ" test "$tmp/t.circ"
expect test-summary 1 "passed, 1 failed" -- "$circ" test "$tmp/t.circ"
expect test-pass 0 "0 failed" -- "$circ" test "$ex" --target interp -O0
expect test-target 2 "unknown target" -- "$circ" test "$ex" --target z80
expect test-olevel 2 "unknown option '-O3'" -- "$circ" test "$ex" -O3
expect test-O2 0 "0 failed" -- "$circ" test "$ex" -O2
expect test-sched 0 "0 failed" -- "$circ" test "$ex" --target sched
expect test-help 0 "usage: circ test" -- "$circ" test --help
echo "$fails failure(s)"
[ "$fails" = 0 ]
