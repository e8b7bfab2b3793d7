#!/bin/bash
# gen_cli.sh — `circ gen`: seeded files verify and pass their own run lines under
# `circ test`; the same seed gives the same file, and so does the command in its
# header; --from-bytes decodes any file (empty included); --stats reports every
# opcode, no verify failure and no invalid run; --weights switches features; --help
# exits 0 and bad arguments exit 2.
# usage: gen_cli.sh CIRC
set -u
circ=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "gen_cli: $*" >&2; exit 1; }

for seed in 1 7 42 1000 123456789; do
    "$circ" gen --seed $seed -o "$tmp/s$seed.circ" || fail "gen --seed $seed exited $?"
    grep -q '^; run: @main(' "$tmp/s$seed.circ" || fail "seed $seed: no run lines"
done
"$circ" gen --seed 5 --size 500 --swarm --funcs 3 -o "$tmp/big.circ" || fail "gen --size 500 failed"
[ "$(grep -c '^func ' "$tmp/big.circ")" = 3 ] || fail "--funcs 3 did not give 3 functions"
"$circ" verify "$tmp"/*.circ || fail "generated files do not verify"
out=$("$circ" test "$tmp"/*.circ) || fail "run lines of generated files fail: $out"
echo "$out" | tail -1 | grep -q ' 0 failed' || fail "circ test: $out"

args=$(head -1 "$tmp/big.circ" | sed 's/^; circ gen //')
"$circ" gen $args > "$tmp/re.circ" || fail "the header's command failed"
cmp -s "$tmp/big.circ" "$tmp/re.circ" || fail "the header's command ($args) did not make the file again"
"$circ" gen --seed 42 > "$tmp/again.circ" || fail "gen to stdout failed"
cmp -s "$tmp/s42.circ" "$tmp/again.circ" || fail "the same seed gave different files"
"$circ" gen --seed 43 > "$tmp/other.circ"
cmp -s "$tmp/s42.circ" "$tmp/other.circ" && fail "different seeds gave the same file"

: > "$tmp/empty.bin"
head -c 3000 /dev/urandom > "$tmp/rand.bin"
for b in empty rand; do
    "$circ" gen --from-bytes "$tmp/$b.bin" -o "$tmp/$b.circ" || fail "--from-bytes $b failed"
    "$circ" verify "$tmp/$b.circ" || fail "--from-bytes $b does not verify"
    "$circ" test "$tmp/$b.circ" > /dev/null || fail "--from-bytes $b: run lines fail"
done

stats=$("$circ" gen --stats --count 300 --seed 9) || fail "--stats exited $?: $stats"
echo "$stats" | grep -q 'verify failures 0' || fail "--stats: verify failures"
echo "$stats" | grep -Eq '^invalid +0 ' || fail "--stats: invalid runs"
for op in LOOP_BEGIN SWITCH_CASE THROW CALL LOAD STORE FMOD FCMP ORDINARY_BLOCK; do
    echo "$stats" | grep -q "^$op " || fail "--stats lists no $op"
done

"$circ" gen --seed 3 --size 300 --weights loop=0,switch=30 -o "$tmp/w.circ" || fail "--weights failed"
grep -q LOOP_BEGIN "$tmp/w.circ" && fail "--weights loop=0 still made a loop"
grep -q SWITCH_BRANCH "$tmp/w.circ" || fail "--weights switch=30 made no switch"
"$circ" gen --weights nosuch=1 > /dev/null 2>&1; [ $? = 2 ] || fail "unknown feature must exit 2"

"$circ" gen --help | grep -q 'usage: circ gen' || fail "--help"
"$circ" gen --bogus > /dev/null 2>&1; [ $? = 2 ] || fail "bad option must exit 2"
"$circ" gen --seed > /dev/null 2>&1; [ $? = 2 ] || fail "missing value must exit 2"
"$circ" gen --from-bytes "$tmp/nonexistent" > /dev/null 2>&1; [ $? = 2 ] || fail "unreadable file must exit 2"
echo "gen_cli: ok"
