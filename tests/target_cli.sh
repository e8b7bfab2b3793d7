#!/bin/bash
# target_cli.sh CIRC FILE — the commands take their targets from the registry: usage
# texts list them, an unknown target is refused naming them, and every target the
# usage lists compiles FILE and runs its run lines.
set -u
circ=$1
file=$2
fail() { echo "FAIL: $*"; exit 1; }
targets=$("$circ" compile --help | tr '\n' ' ' | sed -n 's/.*for target T (\([^)]*\)).*/\1/p' | sed 's/ or /, /g; s/,/ /g')
[ -n "$targets" ] || fail "circ compile --help lists no targets"
for t in $targets; do
    "$circ" compile "$file" --target "$t" -O2 >/dev/null || fail "compile --target $t"
    "$circ" test "$file" --target "$t" | grep -q ' passed, 0 failed' || fail "test --target $t"
    "$circ" check --list-stages --isa "$t" "$file" | grep -q "^$t-O2$" || fail "check --isa $t has no $t-O2 stage"
    "$circ" test --help | grep -q "$t" || fail "circ test --help does not list $t"
done
out=$("$circ" compile "$file" --target no-such-target 2>&1)
[ $? = 2 ] || fail "an unknown target is not a usage error"
for t in $targets; do
    echo "$out" | grep -q "$t" || fail "the error does not list $t: $out"
done
"$circ" check --isa no-such-target "$file" 2>/dev/null
[ $? = 2 ] || fail "check --isa with an unknown target is not a usage error"
echo "target_cli: ok ($targets)"
