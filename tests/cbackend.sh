#!/bin/bash
# cbackend.sh — the C backend (docs/cbackend.md) on FILES: each module's C at -O0
# and -O2 compiles without a warning under gcc, clang and both for AArch64
# (-Wall -Wextra -Werror, freestanding), and `circ check` with only the C stages
# agrees with the oracle on every run line on both ISAs; a gcc that miscompiles at
# -O2 (a wrapper dropping the division checks) gives a cc-suspect finding, which
# circ reduce keeps and writes as C (--emit-c).
#   cbackend.sh CIRC FILE...        exit 77 (skipped) without gcc
set -u
circ=$1; shift
command -v gcc >/dev/null || { echo "SKIP: no gcc"; exit 77; }
tmp=$(mktemp -d /tmp/circ_cback_XXXXXX); trap 'rm -rf "$tmp"' EXIT
fail=0
compilers=("gcc")
command -v clang >/dev/null && compilers+=("clang" "clang --target=aarch64-linux-gnu")
command -v aarch64-linux-gnu-gcc >/dev/null && compilers+=("aarch64-linux-gnu-gcc")
stages=$("$circ" check --list-stages)
for s in c-gcc-O2-x86-64 $(command -v clang >/dev/null && echo c-clang-O2-arm64); do
  grep -qx "$s" <<<"$stages" || { echo "FAIL: stage $s is not listed"; fail=1; }
done
for f in "$@"; do
  for o in -O0 -O2; do
    if ! "$circ" compile "$f" --target c $o -o "$tmp/m.c" 2>"$tmp/err"; then
      echo "FAIL: $f: circ compile --target c $o: $(head -1 "$tmp/err")"; fail=1; continue
    fi
    for cc in "${compilers[@]}"; do # circ -O0's C (ICMP x, x and the like) under gcc alone
      [ $o = -O0 ] && [ "$cc" != gcc ] && continue
      $cc -std=c11 -O2 -Wall -Wextra -Werror -ffreestanding -c "$tmp/m.c" -o "$tmp/m.o" 2>"$tmp/cc" ||
        { echo "FAIL: $f ($o) under $cc: $(head -3 "$tmp/cc")"; fail=1; }
    done
  done
done
# triage: a gcc whose -O2 drops the division-by-zero checks miscompiles div's run
# line `trap div0`; its -O0 agrees with the oracle, so the finding is cc-suspect
mkdir -p "$tmp/bin"
cat >"$tmp/bin/gcc" <<'GCC'
#!/bin/bash
args=(); o2=
for a in "$@"; do [ "$a" = -O2 ] && o2=1; done
for a in "$@"; do
  if [ -n "$o2" ] && [[ "$a" == *.c ]]; then sed 's/CIRC_C_TRAP(1)/(void)0/' "$a" >"$a.bad.c"; a="$a.bad.c"; fi
  args+=("$a")
done
exec "$REAL_GCC" "${args[@]}"
GCC
chmod +x "$tmp/bin/gcc"
div=$(dirname "$0")/../corpus/examples/div.circ
REAL_GCC=$(command -v gcc) PATH="$tmp/bin:$PATH" "$circ" check --targets c-gcc-O2-x86-64 "$div" >"$tmp/triage" 2>&1
grep -q "mismatch c-gcc-O2-x86-64:cc-suspect" "$tmp/triage" || { echo "FAIL: no cc-suspect finding:"; cat "$tmp/triage"; fail=1; }
# circ reduce keeps the cc-suspect signature and writes the reduced program's C
REAL_GCC=$(command -v gcc) PATH="$tmp/bin:$PATH" "$circ" reduce "$div" --targets c-gcc-O2-x86-64 -q \
  --emit-c "$tmp/r.c" -o "$tmp/r.circ" >/dev/null 2>&1 || { echo "FAIL: circ reduce of the cc-suspect finding"; fail=1; }
grep -q "CIRC_C_TRAP(1)" "$tmp/r.c" 2>/dev/null || { echo "FAIL: --emit-c wrote no C with the division's check"; fail=1; }
REAL_GCC=$(command -v gcc) PATH="$tmp/bin:$PATH" "$circ" check --targets c-gcc-O2-x86-64 "$tmp/r.circ" 2>&1 |
  grep -q "cc-suspect" || { echo "FAIL: the reduced program lost the signature"; fail=1; }
"$circ" check --targets c- -q "$@" >"$tmp/check" 2>&1 || { echo "FAIL: circ check --targets c-:"; cat "$tmp/check"; fail=1; }
tail -1 "$tmp/check"
# usage errors: C is its own output, and --cc names known compilers
"$circ" compile "$1" --target c -S >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAIL: --target c -S is not a usage error"; fail=1; }
"$circ" check --cc tcc "$1" >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAIL: --cc tcc is not a usage error"; fail=1; }
exit $fail
