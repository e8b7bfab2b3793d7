#!/bin/bash
# reduce_cli.sh — `circ reduce` from the command line: --help and usage errors; an
# external --test script (grep-based) reduces a large generated program to the few
# gates the script demands; --jobs gives the same file; --timeout kills a slow script;
# a file without a mismatch is reported (exit 1), an invalid one too.
# usage: reduce_cli.sh CIRC EXAMPLES_DIR
set -u
CIRC=$1
EXAMPLES=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

"$CIRC" reduce --help | grep -q "usage: circ reduce" || bad "--help"
"$CIRC" reduce >/dev/null 2>&1; [ $? -eq 2 ] || bad "no file: exit 2 expected"
"$CIRC" reduce "$T/missing.circ" >/dev/null 2>&1; [ $? -eq 2 ] || bad "missing file: exit 2 expected"
printf 'func @f() -> i32 {\n  RETURN [entry] {entry} (%%nope)\n}\n' > "$T/bad.circ"
"$CIRC" reduce "$T/bad.circ" >/dev/null 2>&1; [ $? -eq 1 ] || bad "invalid input: exit 1 expected"
"$CIRC" reduce x.circ --jobs zero >/dev/null 2>&1; [ $? -eq 2 ] || bad "bad --jobs: exit 2 expected"

"$CIRC" gen --seed 5 --size 300 -o "$T/big.circ" || bad "gen"
cat > "$T/want.sh" <<'SH'
#!/bin/sh
grep -q "= FMUL f64" "$1" && grep -q "= UITOFP f64" "$1"
SH
chmod +x "$T/want.sh"
"$T/want.sh" "$T/big.circ" || bad "the generated program lacks the gates the script wants"
before=$(grep -c "^ " "$T/big.circ")
"$CIRC" reduce "$T/big.circ" --test "$T/want.sh" -o "$T/small.circ" 2>"$T/log" || bad "reduce --test exit $?"
grep -q "^reduce: done: " "$T/log" || bad "no progress summary"
after=$(grep -c "^ " "$T/small.circ")
"$CIRC" verify "$T/small.circ" >/dev/null || bad "the result does not verify"
"$T/want.sh" "$T/small.circ" || bad "the result is not interesting any more"
# 5 gates when FMUL and UITOFP sit in one function, 6 when in two (each keeps a RETURN)
[ "$after" -le 6 ] || bad "$before -> $after gates, at most 6 expected"
echo "--test: $before -> $after gates"

"$CIRC" reduce "$T/big.circ" --test "$T/want.sh" --jobs 3 -q -o "$T/small3.circ" || bad "reduce --jobs 3"
cmp -s "$T/small.circ" "$T/small3.circ" || bad "--jobs 3 gives a different result"

printf '#!/bin/sh\nsleep 5\n' > "$T/slow.sh"
chmod +x "$T/slow.sh"
start=$(date +%s)
"$CIRC" reduce "$T/big.circ" --test "$T/slow.sh" --timeout 0.3 -q >/dev/null 2>&1
rc=$?
[ $rc -eq 1 ] || bad "a script past --timeout: exit 1 (not interesting) expected, got $rc"
[ $(( $(date +%s) - start )) -lt 4 ] || bad "--timeout did not kill the script"

"$CIRC" reduce "$EXAMPLES/max.circ" -q >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 1 ] || bad "no mismatch: exit 1 expected, got $rc"
grep -q "no mismatch" "$T/err" || bad "no mismatch: message"

[ $fail -eq 0 ] && echo "reduce_cli: all checks passed"
exit $fail
