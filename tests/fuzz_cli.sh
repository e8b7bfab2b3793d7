#!/usr/bin/env bash
# fuzz_cli.sh CIRC SRCDIR OUTDIR — `circ check` and `circ fuzz` from the command line:
# exit codes (0 agree, 1 mismatch or invalid, 2 usage), the report of a run line the
# oracle does not meet, --list-stages, and a short campaign's status and summary lines.
set -u
circ=$1 src=$2 out=$3
rm -rf "$out"; mkdir -p "$out"
fail=0
bad() { echo "FAIL: $*"; fail=1; }

"$circ" check --help | grep -q "usage: circ check" || bad "check --help"
"$circ" fuzz --help | grep -q "usage: circ fuzz" || bad "fuzz --help"
"$circ" check >/dev/null 2>&1; [ $? -eq 2 ] || bad "check without files: exit 2"
"$circ" check --bogus x.circ >/dev/null 2>&1; [ $? -eq 2 ] || bad "check bad option: exit 2"
"$circ" check "$out/missing.circ" >/dev/null 2>&1; [ $? -eq 2 ] || bad "check missing file: exit 2"
"$circ" fuzz --jobs 0 >/dev/null 2>&1; [ $? -eq 2 ] || bad "fuzz --jobs 0: exit 2"

stages=$("$circ" check --list-stages | tr '\n' ' ')
for s in pass-fold pass-gvn pass-dce pass-simplify-cfg pass-lse pass-inline O1 O2 sched-O0 sched-O2; do
    case " $stages" in *" $s "*) ;; *) bad "stage $s not listed: $stages";; esac
done
o0=$("$circ" check -O0 --list-stages | tr '\n' ' ')
case "$o0" in *pass-*|*O2*) bad "-O0 lists only -O0 stages: $o0";; esac
sched=$("$circ" check --targets sched --list-stages | tr '\n' ' ')
[ "$sched" = "sched-O0 sched-O2 " ] || bad "--targets sched: $sched"

# a correct file passes the interpreting stages
"$circ" check --targets pass,O,sched "$src/tests/opt/wrong_sub.circ" > "$out/ok.txt" || bad "wrong_sub.circ checks clean"
grep -q "ok (2 runs" "$out/ok.txt" || bad "ok line: $(cat "$out/ok.txt")"

# a run line the oracle does not meet: signature oracle:return-vs-return, exit 1
sed 's/== 7$/== 8/' "$src/tests/opt/wrong_sub.circ" > "$out/wrong_expect.circ"
"$circ" check --targets pass "$out/wrong_expect.circ" > "$out/mismatch.txt"
[ $? -eq 1 ] || bad "a wrong expectation: exit 1"
grep -q "mismatch oracle:return-vs-return" "$out/mismatch.txt" || bad "oracle signature: $(cat "$out/mismatch.txt")"
grep -q "1 files\? checked, 1 failed" "$out/mismatch.txt" || bad "summary line"

# an invalid file: exit 1
printf 'func @f() -> i32 {\n  RETURN [entry] {entry} (%%nope)\n}\n' > "$out/invalid.circ"
"$circ" check "$out/invalid.circ" >/dev/null 2>&1; [ $? -eq 1 ] || bad "invalid file: exit 1"

# a short campaign: plain status lines, summary ending in execs/s, no findings
"$circ" fuzz --seconds 2 --seed 3 --jobs 2 --size 40 --targets pass,O,sched --status-interval 1 \
    --out "$out/campaign" 2> "$out/fuzz.txt"
rc=$?
[ $rc -eq 0 ] || bad "campaign exit $rc: $(tail -3 "$out/fuzz.txt")"
grep -q '^\[00:00:0[0-9]\] programs [1-9]' "$out/fuzz.txt" || bad "status lines: $(cat "$out/fuzz.txt")"
tail -1 "$out/fuzz.txt" | grep -q "^done: .* [0-9]* execs/s$" || bad "summary line: $(tail -1 "$out/fuzz.txt")"
[ ! -e "$out/campaign" ] || bad "no findings directory without findings"

[ $fail -eq 0 ] && echo "fuzz_cli: all passed"
exit $fail
