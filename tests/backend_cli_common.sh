# backend_cli_common.sh — shared by backend_x64_cli.sh and backend_a64_cli.sh (sourced
# after setting circ and examples): a temporary folder, the check / expect_exit
# helpers counting failures, the `circ test --target T` checks and the summary.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
check() { # description, command...
    local what=$1; shift
    if ! "$@"; then echo "FAIL: $what"; fails=$((fails + 1)); fi
}
expect_exit() { # code, command...
    local want=$1; shift
    "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    if [ "$got" != "$want" ]; then
        echo "FAIL: '$*' exited $got, expected $want"; cat "$tmp/err"; fails=$((fails + 1))
    fi
}
# `circ test --target TARGET` passes the examples at -O0 and -O2 and fails (exit 1)
# on a wrong expectation, reported with a message matching PATTERN
check_circ_test() { # target, pattern
    local target=$1 pattern=$2 o
    for o in -O0 -O2; do
        expect_exit 0 "$circ" test "$examples"/*.circ --target "$target" $o
        check "circ test $o summary" grep -q ' passed, 0 failed' "$tmp/out"
    done
    sed 's/== 14$/== 15/' "$examples/guarded_div.circ" >"$tmp/wrong.circ"
    expect_exit 1 "$circ" test "$tmp/wrong.circ" --target "$target"
    check "a wrong expectation is reported" grep -q "$pattern" "$tmp/out"
}
finish() { # test name
    if [ $fails -ne 0 ]; then echo "$fails failures"; exit 1; fi
    echo "$1: all checks passed"
}
