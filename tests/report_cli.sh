#!/bin/bash
# report_cli.sh — `circ fuzz --report DIR` from the command line: the help lists it;
# a campaign of exactly 20 programs writes report.json (finished, 20 programs, the
# reproduce command with the campaign's check options and without its own) and a
# page; a report folder that cannot be made or is a file is exit 2 before anything runs.
# Usage: report_cli.sh CIRC WORKDIR
set -u
circ=$1 work=$2
fail=0
bad() { echo "FAIL: $*"; fail=1; }
rm -rf "$work" && mkdir -p "$work" || exit 2

"$circ" fuzz --help | grep -q -- '--report DIR' || bad "circ fuzz --help does not list --report DIR"

"$circ" fuzz --seconds 0 --max-programs 20 --seed 5 --jobs 2 -O2 --isa arm64 --targets O2,sched \
    --out "$work/f" --report "$work/r" 2>"$work/terminal.txt"
rc=$?
[ $rc -eq 0 ] || bad "the campaign exited $rc"
json=$work/r/report.json
grep -q '"status": "finished"' "$json" || bad "report.json does not say finished"
grep -q '^    "programs": 20,$' "$json" || bad "report.json does not count the 20 programs"
grep -q '"check_command": "circ check -O2 --isa arm64 --targets O2,sched"' "$json" ||
    bad "the reproduce command is not circ check with the campaign's check options"
grep -q 'data-key="programs">20<' "$work/r/report.html" || bad "the page does not show the 20 programs"
grep -q "^report: $work/r/report.html" "$work/terminal.txt" || bad "the terminal does not name the report"

: >"$work/file"
for dir in "$work/missing/r" "$work/file"; do
    "$circ" fuzz --seconds 1 --out "$work/f2" --report "$dir" 2>"$work/err.txt"
    rc=$?
    [ $rc -eq 2 ] && grep -q "cannot use --report" "$work/err.txt" || bad "--report $dir: exit $rc, $(cat "$work/err.txt")"
done
[ ! -e "$work/f2" ] || bad "a campaign that did not start left its findings folder"
[ $fail -eq 0 ] && echo "report_cli ok"
exit $fail
