#!/usr/bin/env bash
# core_print.sh CIRC — printer regressions: an exact NaN run-line expectation stays exact
# (bits, not `nan` = any NaN), and function names of any length print and read back.
set -euo pipefail
circ=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
long=$(printf 'f%.0s' $(seq 1 300))
cat > "$tmp/a.circ" <<CIRC
func @nan() -> f64 {
  %n = CONSTANT f64 nan
  RETURN [entry] {entry} (%n)
}
; run: @nan() == bits(0x7ff8000000000000)
; run: @nan() == nan

func @$long() -> i32 {
  %k = CONSTANT i32 1
  RETURN [entry] {entry} (%k)
}

func @${long}x() -> i32 {
  %s = SYMBOL @$long
  %r = CALL i32 {entry} (%s)
  RETURN [entry] {%r} (%r)
}
; run: @${long}x() == 1
CIRC
"$circ" print "$tmp/a.circ" > "$tmp/p1.circ"
"$circ" print "$tmp/p1.circ" > "$tmp/p2.circ"
cmp "$tmp/p1.circ" "$tmp/p2.circ"
grep -q '^; run: @nan() == bits(0x7ff8000000000000)$' "$tmp/p1.circ" || { echo "exact NaN expectation lost"; cat "$tmp/p1.circ"; exit 1; }
grep -q '^; run: @nan() == nan$' "$tmp/p1.circ" || { echo "any-NaN expectation lost"; exit 1; }
grep -q "^func @${long}x() -> i32 {\$" "$tmp/p1.circ" || { echo "long function name changed"; exit 1; }
"$circ" verify "$tmp/p1.circ"
echo "printer regressions passed"
