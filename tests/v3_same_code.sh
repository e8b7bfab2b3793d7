#!/bin/bash
# v3_same_code.sh CIRC — a CPU level's stage whose code is byte for byte the baseline
# level's (x86-64-O2-v3 against x86-64-O2) runs nothing: checking both stages costs
# the executions of one; code that differs (popcnt at v3) runs on both
set -u
circ=$1 here=$(dirname "$0") fails=0
execs() { "$circ" check "$1" --targets "$2" | sed -n 's/.*stages, \([0-9]*\) execs.*/\1/p'; }
plain=$here/../corpus/examples/sum_to.circ
one=$(execs "$plain" 'x86-64-O2$') two=$(execs "$plain" 'x86-64-O2$,x86-64-O2-v3')
[ -n "$one" ] && [ "$one" = "$two" ] || { echo "FAIL: identical code ran again ($one vs $two execs)"; fails=1; }
one=$(execs "$here/v3_popcnt.circ" 'x86-64-O2$') two=$(execs "$here/v3_popcnt.circ" 'x86-64-O2$,x86-64-O2-v3')
[ -n "$one" ] && [ "$two" -gt "$one" ] || { echo "FAIL: v3's own code did not run ($one vs $two execs)"; fails=1; }
[ "$fails" -eq 0 ] && echo "v3_same_code: ok"
exit "$fails"
