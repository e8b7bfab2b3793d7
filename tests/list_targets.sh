#!/bin/bash
# list_targets.sh CIRC — `circ compile --list-targets` prints the registry's targets,
# one a line, the same the usage text names, and each of them is accepted by --target.
set -u
circ=$1
fail() { echo "FAIL: $*"; exit 1; }
listed=$("$circ" compile --list-targets) || fail "--list-targets exits nonzero"
[ -n "$listed" ] || fail "--list-targets prints nothing"
usage=$("$circ" compile --help | tr '\n' ' ' | sed -n 's/.*for target T (\([^)]*\)).*/\1/p' | sed 's/ or /, /g; s/,/ /g')
[ "$(echo $listed)" = "$(echo $usage)" ] || fail "--list-targets ($listed) differs from the usage ($usage)"
for t in $listed; do
    out=$("$circ" compile /dev/null --target "$t" 2>&1)
    echo "$out" | grep -q "unknown target" && fail "--target $t is refused"
done
"$circ" compile --list-targets extra >/dev/null 2>&1 && fail "--list-targets with a file is accepted"
echo "list_targets: ok ($(echo $listed))"
