#!/bin/bash
# tv_stage_cli.sh CIRC z3|none — the --tv options of `circ check`, `circ fuzz` and
# `circ reduce`: the tv-PASS stages are listed, a file's verdicts are counted, a short
# campaign shows proved/refuted/unknown in its status line and summary with the
# unknown verdicts' reasons, bad --tv-timeout values are usage errors.  With `none`
# (a build without Z3) `circ tv` refuses with a clear message and the tv stages say
# they are unavailable without failing the check.
circ="$1"; mode="$2"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
expect() { # expect WHAT EXPECTED_STATUS ACTUAL_STATUS
    if [ "$2" != "$3" ]; then echo "FAIL: $1 (exit $3, expected $2)"; fail=1; fi
}
contains() { # contains WHAT FILE PATTERN
    if ! grep -qE -- "$3" "$2"; then echo "FAIL: $1: no '$3' in $2"; cat "$2"; fail=1; fi
}

"$circ" gen --seed 3 --size 50 -o "$tmp/g.circ" || exit 1
"$circ" check --tv --list-stages -O2 > "$tmp/stages"; expect "--list-stages" 0 $?
contains "stages" "$tmp/stages" "^tv-fold$"
contains "stages" "$tmp/stages" "^tv-simplify-cfg$"
"$circ" check --tv-timeout 0 "$tmp/g.circ" 2>"$tmp/err"; expect "--tv-timeout 0" 2 $?
contains "--tv-timeout 0" "$tmp/err" "tv-timeout"
"$circ" fuzz --tv-timeout x --seconds 1 --out "$tmp/f0" 2>"$tmp/err"; expect "fuzz --tv-timeout x" 2 $?

if [ "$mode" = none ]; then
    "$circ" tv "$tmp/g.circ" 2>"$tmp/err"; expect "circ tv without Z3" 2 $?
    contains "circ tv without Z3" "$tmp/err" "unavailable: circ was built without Z3"
    "$circ" check --tv "$tmp/g.circ" > "$tmp/out"; expect "check --tv without Z3" 0 $?
    contains "check --tv without Z3" "$tmp/out" "tv: unavailable"
    exit $fail
fi

"$circ" check --tv --targets tv "$tmp/g.circ" > "$tmp/out"; expect "check --tv" 0 $?
contains "check --tv" "$tmp/out" "^  tv: [1-9][0-9]* proved \([0-9]+ up to the loop bound\), 0 refuted, [0-9]+ unknown"
"$circ" check --tv -q "$tmp/g.circ" > "$tmp/q"; expect "check --tv -q" 0 $?

"$circ" fuzz --tv --seconds 8 --size 50 --out "$tmp/f1" --status-interval 1 2> "$tmp/fuzz"
expect "fuzz --tv" 0 $?
contains "status line" "$tmp/fuzz" "signatures 0  tv proved [0-9]+ refuted 0 unknown [0-9]+"
contains "summary" "$tmp/fuzz" "^tv: [1-9][0-9]* proved \([0-9]+ up to the loop bound\), 0 refuted, [0-9]+ unknown \([0-9.]+%\)"
contains "phases" "$tmp/fuzz" "tv [0-9]+%"
contains "done" "$tmp/fuzz" "^done: "
exit $fail
