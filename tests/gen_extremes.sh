#!/bin/bash
# gen_extremes.sh — `circ gen --extreme KIND`: for each structural extreme, files from a
# few seeds (default options, --swarm, --funcs 1) verify, pass their own run lines in
# the interpreter (`circ test --target interp`) and have the shape: a SWITCH of at
# least 100 cases, a MERGE of at least 101 inputs, a function of at least 65
# parameters, a self-recursive @deep the entry calls that recurses 199 levels in the
# interpreter; the header's command makes the file again; --extreme none gives none of
# the shapes; --stats counts the extremes (without --extreme: a low, nonzero rate); a
# bad kind exits 2.  Every file also passes `circ check` (every stage, both ISAs).
# usage: gen_extremes.sh CIRC
set -u
circ=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "gen_extremes: $*" >&2; exit 1; }

# the largest input count of a MERGE in a file
widest_merge() { grep -o 'MERGE \[[^]]*\]' "$1" | awk -F, '{print NF}' | sort -n | tail -1 | grep . || echo 0; }
# the most parameters of a function in a file
most_params() { grep '^func ' "$1" | sed 's/).*//' | awk -F, '{print NF}' | sort -n | tail -1; }

for kind in switch merge params calls; do
    for form in "--seed 1" "--seed 2" "--seed 3 --swarm" "--seed 4 --funcs 1"; do
        f="$tmp/$kind-${form//[ -]/}.circ"
        "$circ" gen $form --extreme $kind -o "$f" || fail "gen $form --extreme $kind exited $?"
        "$circ" verify "$f" || fail "$kind ($form) does not verify"
        grep -q '^; run: @main(' "$f" || fail "$kind ($form): no run lines"
        case $kind in
        switch) n=$(grep -c ' = SWITCH_CASE ' "$f")
                [ "$n" -ge 100 ] || fail "$kind ($form): $n SWITCH_CASE gates, want >= 100";;
        merge)  n=$(widest_merge "$f")
                [ "${n:-0}" -ge 101 ] || fail "$kind ($form): widest MERGE ${n:-0}, want >= 101";;
        params) n=$(most_params "$f")
                [ "${n:-0}" -ge 65 ] || fail "$kind ($form): at most ${n:-0} parameters, want >= 65";;
        calls)  grep -q '^func @deep(i32, i64) -> i64 {' "$f" || fail "$kind ($form): no @deep"
                sed -n '/^func @main(/,/^}/p' "$f" | grep -q 'SYMBOL @deep' ||
                    fail "$kind ($form): main does not call @deep"
                out=$("$circ" run "$f" @deep 199 5) || fail "$kind ($form): @deep 199 levels: $out"
                echo "$out" | grep -q '^return' || fail "$kind ($form): @deep 199 levels: $out";;
        esac
    done
    out=$("$circ" test "$tmp/$kind"-*.circ --target interp) || fail "$kind: run lines fail: $out"
    echo "$out" | tail -1 | grep -q ' 0 failed' || fail "$kind: $out"
done

# a wide entry (the only function) gets run lines with all its arguments
[ "$(most_params "$tmp/params-seed4funcs1.circ")" -ge 65 ] || fail "--funcs 1: the entry is not wide"
args=$(head -1 "$tmp/merge-seed3swarm.circ" | sed 's/^; circ gen //')
"$circ" gen $args > "$tmp/re.circ" || fail "the header's command failed"
cmp -s "$tmp/merge-seed3swarm.circ" "$tmp/re.circ" || fail "the header's command ($args) did not make the file again"

# every kind through the compiled stages on both ISAs (big switches once crashed
# the scheduler's block order; deep recursion with large ALLOCAs once ran out of the
# emulator's budget and stack)
out=$("$circ" check "$tmp"/*.circ) || fail "circ check: $out"

"$circ" gen --seed 1 --extreme none -o "$tmp/none.circ" || fail "--extreme none failed"
[ "$(grep -c ' = SWITCH_CASE ' "$tmp/none.circ")" -lt 100 ] || fail "--extreme none made a wide switch"
[ "$(widest_merge "$tmp/none.circ")" -lt 101 ] || fail "--extreme none made a wide merge"
[ "$(most_params "$tmp/none.circ")" -lt 65 ] || fail "--extreme none made a wide function"
grep -q '^func @deep' "$tmp/none.circ" && fail "--extreme none made @deep"

stats=$("$circ" gen --stats --count 20 --seed 5 --extreme merge --runs 1) || fail "--stats --extreme merge: $stats"
echo "$stats" | grep -q 'extremes (programs): switch=0 merge=20 params=0 calls=0' ||
    fail "--stats --extreme merge: $(echo "$stats" | grep extremes)"
stats=$("$circ" gen --stats --count 1500 --seed 1 --runs 0) || fail "--stats exited $?"
line=$(echo "$stats" | grep 'extremes (programs):') || fail "--stats lists no extremes"
total=$(echo "$line" | sed 's/;.*//' | grep -o '=[0-9]*' | tr -d = | paste -sd+ | bc)
[ "$total" -ge 2 ] && [ "$total" -le 30 ] || fail "$total of 1500 programs have an extreme, want 2..30: $line"

"$circ" gen --seed 1 --extreme huge > /dev/null 2>&1; [ $? = 2 ] || fail "an unknown kind must exit 2"
"$circ" gen --help | grep -q -- '--extreme KIND' || fail "--help does not document --extreme"
echo "gen_extremes: ok"
