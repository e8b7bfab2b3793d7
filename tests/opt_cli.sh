#!/bin/bash
# opt_cli.sh CIRC EXAMPLES_DIR OPT_TEST_DIR — the `circ opt` command line: help and
# pass list, exit codes, output that verifies and keeps run lines, --print-after,
# --opt-bisect-limit and --verify-each.
circ="$1"; examples="$2"; optdir="$3"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
expect() { # expect WHAT EXPECTED_STATUS ACTUAL_STATUS
    if [ "$2" != "$3" ]; then echo "FAIL: $1 (exit $3, expected $2)"; fail=1; fi
}
contains() { # contains WHAT FILE PATTERN
    if ! grep -qF -- "$3" "$2"; then echo "FAIL: $1: no '$3' in $2"; cat "$2"; fail=1; fi
}

"$circ" opt --help > "$tmp/help"; expect "--help" 0 $?
contains "--help" "$tmp/help" "--opt-bisect-limit"
"$circ" opt --list-passes > "$tmp/list"; expect "--list-passes" 0 $?
for p in fold gvn dce simplify-cfg lse inline; do contains "--list-passes" "$tmp/list" "$p "; done
"$circ" opt 2>/dev/null; expect "no file" 2 $?
"$circ" opt "$tmp/missing.circ" 2>/dev/null; expect "missing file" 2 $?
"$circ" opt --passes=fold,nosuch "$examples/max.circ" 2>"$tmp/err"; expect "unknown pass" 2 $?
contains "unknown pass" "$tmp/err" "nosuch"
"$circ" opt --opt-bisect-limit=x "$examples/max.circ" 2>/dev/null; expect "bad bisect limit" 2 $?
printf 'func @f() -> i32 {\n  RETURN [entry] {entry}\n}\n' > "$tmp/bad.circ"
"$circ" opt "$tmp/bad.circ" 2>/dev/null; expect "invalid input" 1 $?

# every example optimizes at every level to a file that verifies and keeps its run lines
for f in "$examples"/*.circ "$optdir"/*.circ; do
    for o in -O0 -O1 -O2; do
        "$circ" opt "$f" $o --verify-each > "$tmp/out.circ"; expect "opt $o $f" 0 $?
        "$circ" verify "$tmp/out.circ"; expect "verify opt $o $f" 0 $?
        a=$(grep -c '^; run:' "$f"); b=$(grep -c '^; run:' "$tmp/out.circ")
        [ "$a" = "$b" ] || { echo "FAIL: run lines lost by opt $o $f ($a -> $b)"; fail=1; }
    done
done

f="$optdir/fold_identities.circ"
"$circ" opt "$f" --passes=fold,dce --print-after=dce > /dev/null 2> "$tmp/dump"; expect "--print-after" 0 $?
contains "--print-after" "$tmp/dump" "; after dce on @ident"
if grep -q "; after fold" "$tmp/dump"; then echo "FAIL: --print-after=dce dumped after fold"; fail=1; fi
"$circ" opt "$f" --passes=fold,dce --print-after-all > /dev/null 2> "$tmp/dump"
contains "--print-after-all" "$tmp/dump" "; after fold on @more"
"$circ" opt "$f" --passes=fold,dce --opt-bisect-limit=1 > "$tmp/out.circ" 2> "$tmp/bisect"; expect "bisect" 0 $?
contains "bisect" "$tmp/bisect" "; bisect: running pass (1) fold on @ident"
contains "bisect" "$tmp/bisect" "; bisect: NOT running pass (2) dce on @ident"
contains "bisect" "$tmp/bisect" "; bisect: NOT running pass (4) dce on @more"
# bisect limit 1: fold ran on @ident only, so @more still has its MUL
contains "bisect result" "$tmp/out.circ" "MUL i32 (%y, %zero)"
"$circ" opt "$f" -O2 > "$tmp/out.circ"
if grep -q "MUL" "$tmp/out.circ"; then echo "FAIL: -O2 left a MUL in fold_identities"; fail=1; fi
exit $fail
