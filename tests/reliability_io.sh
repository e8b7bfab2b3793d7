#!/bin/bash
# reliability_io.sh — what the tools write gets there or the failure is reported:
#   1. every command exits 2 with a message when its standard output fails (/dev/full);
#   2. `gen -o`, `compile -o`, `reduce -o` under an injected full disk
#      (CIRC_WRITE_FAIL=1, fuzz/atomic_write.h) exit 2 and leave an existing file as
#      it was, with no temporary behind;
#   3. option checks before anything runs: check/fuzz --targets and --passes name
#      only what exists (exit 2 listing the valid names), fuzz --out must be usable,
#      --max-regs counts are 1..64, a bad value says why;
#   4. a second campaign on a folder in use exits 2;
#   5. --max-programs N checks exactly N programs for any --jobs; --seconds ends on time;
#   6. circ reduce: a hanging --test with no --timeout ends at --max-seconds with its
#      process group killed and the result written; SIGTERM writes the best result so
#      far, kills the test's processes and removes the temporary candidate; --test ""
#      is refused; the result keeps the input's header.
# usage: reliability_io.sh CIRC EXAMPLES_DIR LIR_SAMPLE
set -u
CIRC=$1
EX=$2
LIR=$3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
# expect_exit CODE CMD... : run CMD (stdout to /dev/null unless redirected by caller)
expect_exit() {
    local want=$1
    shift
    "$@" >"$T/out" 2>"$T/err"
    local rc=$?
    [ $rc -eq "$want" ] || { bad "exit $rc, $want expected: $*"; cat "$T/err"; }
}
prog="$EX/max.circ"
# alive PID: the process still runs 2 s on (a killed one may wait a moment to be reaped)
alive() {
    for _ in $(seq 20); do
        kill -0 "$1" 2>/dev/null || return 1
        grep -q '^[0-9]* ([^)]*) Z' "/proc/$1/stat" 2>/dev/null && return 1
        sleep 0.1
    done
    return 0
}

# ---- 1. standard output to a full device ------------------------------------------
full() {
    "$CIRC" "$@" >/dev/full 2>"$T/err"
    local rc=$?
    [ $rc -eq 2 ] || bad "'circ $*' > /dev/full: exit $rc, 2 expected"
    grep -q "error writing standard output" "$T/err" || bad "'circ $*' > /dev/full: no message"
}
"$CIRC" gen --seed 3 --size 60 -o "$T/g.circ" || bad "gen"
full print "$prog"
full opt -O2 "$prog"
full dot "$prog"
full sched "$prog"
full compile "$prog" --target x86-64 -S
full gen --seed 3
full lir "$LIR" --print
full regalloc "$LIR"
full check "$prog" --targets O1
full test "$prog"
full --help
printf '#!/bin/sh\ngrep -q RETURN "$1"\n' >"$T/any.sh"
chmod +x "$T/any.sh"
full reduce "$T/g.circ" --test "$T/any.sh" -q

# ---- 2. injected write failures: nothing half-written, the old file kept --------------
for cmd in "gen --seed 4 -o" "compile $prog --target x86-64 -o" "reduce $T/g.circ --test $T/any.sh -q -o"; do
    echo "old contents" >"$T/keep"
    cp "$T/keep" "$T/old"
    CIRC_WRITE_FAIL=1 "$CIRC" $cmd "$T/keep" >/dev/null 2>"$T/err"
    rc=$?
    [ $rc -eq 2 ] || bad "circ $cmd under a full disk: exit $rc, 2 expected"
    grep -q "No space left" "$T/err" || bad "circ $cmd under a full disk: no reason given"
    cmp -s "$T/keep" "$T/old" || bad "circ $cmd under a full disk changed the old file"
    ls -A "$T" | grep -q '^\.keep\.' && bad "circ $cmd left a temporary file"
    "$CIRC" $cmd "$T/keep" >/dev/null 2>&1 || bad "circ $cmd without the injected failure"
    cmp -s "$T/keep" "$T/old" && bad "circ $cmd did not replace the file"
done

# ---- 3. options checked before anything runs -----------------------------------------
expect_exit 2 "$CIRC" check "$prog" --targets bogus
grep -q "no stage starts with 'bogus'" "$T/err" && grep -q "sched-O2" "$T/err" || bad "check --targets: message"
expect_exit 2 "$CIRC" fuzz --targets bogus --seconds 1 --out "$T/f0"
expect_exit 2 "$CIRC" check "$prog" --targets x86-64 --isa arm64
expect_exit 2 "$CIRC" check "$prog" --targets O2 -O1
expect_exit 2 "$CIRC" check "$prog" --passes=bogus
grep -q "unknown pass 'bogus'" "$T/err" && grep -q "dce" "$T/err" || bad "check --passes: message lists the passes"
expect_exit 2 "$CIRC" fuzz --passes=fold,bogus --seconds 1 --out "$T/f0"
[ -e "$T/f0" ] && bad "fuzz with bad options made its --out folder"
expect_exit 0 "$CIRC" check "$prog" --targets O1,sched --passes=fold,dce
echo "a file" >"$T/afile"
expect_exit 2 "$CIRC" fuzz --seconds 1 --out "$T/afile"
grep -q "not a directory" "$T/err" || bad "fuzz --out FILE: message"
expect_exit 2 "$CIRC" fuzz --seconds 1 --out "$T/no/such/dir"
expect_exit 2 "$CIRC" compile "$prog" --target x86-64 --max-regs=0,0 -S
grep -q "1..64" "$T/err" || bad "--max-regs=0,0: message"
expect_exit 0 "$CIRC" compile "$prog" --target x86-64 --max-regs=2,2 -S
expect_exit 2 "$CIRC" fuzz --jobs 0
grep -q -- "--jobs needs a whole number 1..256, got '0'" "$T/err" || bad "fuzz --jobs 0: message"

# ---- 4. one campaign per folder ------------------------------------------------------
"$CIRC" fuzz --seconds 4 --size 20 --targets O1 --out "$T/shared" --status-interval 100 2>/dev/null &
first=$!
for _ in $(seq 100); do [ -e "$T/shared/.circ-fuzz.lock" ] && break; sleep 0.1; done
sleep 0.3
expect_exit 2 "$CIRC" fuzz --seconds 1 --size 20 --targets O1 --out "$T/shared"
grep -q "another campaign" "$T/err" || bad "second campaign: message"
wait $first || bad "the first campaign failed"

# ---- 5. exact totals ---------------------------------------------------------------------
for nj in "1 1" "1 2" "7 2" "5 3" "40 2"; do
    set -- $nj
    "$CIRC" fuzz --seconds 0 --max-programs "$1" --jobs "$2" --size 20 --targets O1 --out "$T/m" \
        2>"$T/err" >/dev/null || bad "--max-programs $1 --jobs $2: exit $?"
    grep -q "^done: .* $1 programs " "$T/err" || { bad "--max-programs $1 --jobs $2 ran another number"; grep done "$T/err"; }
done
start=$(date +%s.%N)
"$CIRC" fuzz --seconds 2 --jobs 2 --size 100 --out "$T/s" 2>/dev/null
took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
echo "--seconds 2 took $took s"
awk -v t="$took" 'BEGIN { exit !(t < 4) }' || bad "--seconds 2 took $took s"

# ---- 6. circ reduce: deadlines, signals, --test ----------------------------------------
expect_exit 2 "$CIRC" reduce "$T/g.circ" --test ""
expect_exit 2 "$CIRC" reduce "$T/g.circ" --test "   "
# interesting the first time (the input), then every test hangs
cat >"$T/hang.sh" <<SH
#!/bin/sh
echo "\$1" >"$T/candidate-path"
[ -e "$T/once" ] || { touch "$T/once"; exit 0; }
sleep 1000 &
echo \$! >"$T/sleeper"
wait
SH
chmod +x "$T/hang.sh"
start=$(date +%s)
timeout 30 "$CIRC" reduce "$T/g.circ" --test "$T/hang.sh" --max-seconds 2 -q -o "$T/r1.circ" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] || bad "a hanging test with --max-seconds 2: exit $rc"
[ $(( $(date +%s) - start )) -lt 10 ] || bad "a hanging test was not stopped at --max-seconds"
alive "$(cat "$T/sleeper")" && bad "the hanging test's process survived"
"$CIRC" verify "$T/r1.circ" >/dev/null 2>&1 || bad "no result written at --max-seconds"
head -1 "$T/r1.circ" | grep -q "^; circ gen" || bad "the result lost the input's header"
grep -q "^; reduced by circ reduce from" "$T/r1.circ" || bad "the result does not say it was reduced"

rm -f "$T/once" "$T/sleeper"
"$CIRC" reduce "$T/g.circ" --test "$T/hang.sh" -q -o "$T/r2.circ" 2>"$T/err" &
red=$!
for _ in $(seq 50); do [ -s "$T/sleeper" ] && break; sleep 0.1; done
kill -TERM $red
wait $red
rc=$?
[ $rc -eq 143 ] || bad "reduce after SIGTERM: exit $rc, 143 expected"
"$CIRC" verify "$T/r2.circ" >/dev/null 2>&1 || bad "SIGTERM: the best result so far was not written"
[ -s "$T/sleeper" ] && alive "$(cat "$T/sleeper")" && bad "SIGTERM: the test's process survived"
[ -e "$(cat "$T/candidate-path")" ] && bad "SIGTERM: the temporary candidate was left behind"

[ $fail -eq 0 ] && echo "reliability_io: all checks passed"
exit $fail
