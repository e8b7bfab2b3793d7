#!/bin/bash
# sched_order.sh CIRC DIR — each DIR/NAME.circ: `circ sched` equals NAME.expected (the
# order of the gates in each block), and `circ check` passes at -O0 and -O2.
# Rewrite the expected dumps with: sched_order.sh CIRC DIR --update (review the diff).
set -u
CIRC=$1
DIR=$2
fail=0
for f in "$DIR"/*.circ; do
    want=${f%.circ}.expected
    if [ "${3:-}" = "--update" ]; then
        "$CIRC" sched "$f" > "$want"
        continue
    fi
    if ! "$CIRC" sched "$f" | diff -u "$want" - ; then
        echo "FAIL: $f: the schedule differs from $want"
        fail=1
    fi
    for o in -O0 -O2; do
        "$CIRC" check "$f" $o > /dev/null || { echo "FAIL: circ check $f $o"; fail=1; }
    done
done
[ $fail -eq 0 ] && echo "schedules ok"
exit $fail
