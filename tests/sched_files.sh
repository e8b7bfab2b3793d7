#!/bin/bash
# sched_files.sh CIRC EXAMPLES_DIR TESTS_DIR
# Every example and every valid .circ under tests/: `circ sched` succeeds, its dump
# parses back to the same circuit (same canonical lines), and the scheduled form gives
# the graph interpreter's outcome on every run line (global code motion and naive).
# Files that do not verify: `circ sched` exits 1 without crashing.
set -u
circ=$1; examples=$2; tests=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0; scheduled=0; refused=0
valid=()
while IFS= read -r f; do
  if "$circ" verify "$f" >/dev/null 2>&1; then
    valid+=("$f")
    if ! "$circ" sched "$f" >"$tmp/dump.circ" 2>"$tmp/err"; then
      echo "FAIL: circ sched $f"; cat "$tmp/err"; fail=1; continue
    fi
    "$circ" print "$f" | sort >"$tmp/a"
    if ! "$circ" print "$tmp/dump.circ" 2>"$tmp/err" | sort >"$tmp/b" || ! cmp -s "$tmp/a" "$tmp/b"; then
      echo "FAIL: the dump of $f does not parse back to the same circuit"; cat "$tmp/err"
      diff "$tmp/a" "$tmp/b" | head -10; fail=1
    fi
    scheduled=$((scheduled + 1))
  else
    "$circ" sched "$f" >/dev/null 2>&1; st=$?
    if [ $st -ne 1 ]; then echo "FAIL: circ sched $f (invalid input) exited $st, want 1"; fail=1; fi
    refused=$((refused + 1))
  fi
done < <( (ls "$examples"/*.circ; find "$tests" -name '*.circ') | sort -u)
for mode in "" --no-motion; do
  out=$("$circ" sched --check $mode "${valid[@]}")
  st=$?
  echo "$out" | grep -v ' passed, ' | head -20
  echo "check ${mode:-(gcm)}: $(echo "$out" | tail -1)"
  [ $st -eq 0 ] || fail=1
done
echo "$scheduled files scheduled, $refused invalid files refused"
exit $fail
