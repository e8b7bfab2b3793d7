#!/bin/bash
# sched_cli.sh CIRC EXAMPLES_DIR MALFORMED_FILE — `circ sched`: help, exit codes, the
# block comments of the dump, and --check over the examples.
set -u
circ=$1; examples=$2; bad=$3
fail=0
expect() { # expect STATUS DESCRIPTION COMMAND...
  local want=$1 what=$2; shift 2
  "$@" >/tmp/sched_cli.$$ 2>&1; local st=$?
  if [ $st -ne "$want" ]; then echo "FAIL: $what: exit $st, want $want"; cat /tmp/sched_cli.$$; fail=1; fi
}
expect 0 "--help" "$circ" sched --help
expect 2 "no file" "$circ" sched
expect 2 "unknown option" "$circ" sched --bogus "$examples/max.circ"
expect 2 "missing file" "$circ" sched /nonexistent/x.circ
expect 1 "invalid file" "$circ" sched "$bad"
expect 0 "valid file" "$circ" sched "$examples/sum_to.circ"
grep -q '; block b1 (loop depth 1, idom b0) preds b0 b2 succs b2 b3' /tmp/sched_cli.$$ ||
  { echo "FAIL: block comment of the loop header"; cat /tmp/sched_cli.$$; fail=1; }
expect 0 "--check examples" "$circ" sched --check "$examples"/*.circ
grep -q ' 0 failed$' /tmp/sched_cli.$$ || { echo "FAIL: --check summary"; fail=1; }
rm -f /tmp/sched_cli.$$
exit $fail
