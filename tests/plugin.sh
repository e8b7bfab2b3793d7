#!/bin/bash
# plugin.sh BUILD SOURCE OUT CC [FLAGS] — the example pass plugin (examples/plugin)
# built against an installed circ (`cmake --install BUILD --prefix OUT/prefix`, then
# find_package(circ CONFIG) in the plugin's own build with the C compiler CC; FLAGS:
# what code loaded by this build compiles with, e.g. the sanitizers), loaded by the
# installed circ:
#   - `circ opt --list-passes` lists both plugin passes; --passes runs them;
#     `circ check` signs the wrong one pass-example-swap-sub:...; `circ tv` refutes
#     it and proves the correct one (with Z3);
#   - `circ fuzz --load-pass-plugin --jobs 2` (a fixed seed, a fixed number of
#     programs) finds the wrong pass: a finding signed pass-example-swap-sub:...,
#     whose reproduce line names the plugin, and none for the correct pass;
#   - `circ reduce --load-pass-plugin` shrinks that finding, keeping the signature,
#     and without the plugin the finding shows nothing to reduce.
build="$1"; src="$2"; out="$3"; cc="$4"; flags="$5"
rm -rf "$out"; mkdir -p "$out"
prefix="$out/prefix"
fail=0
die() { echo "FAIL: $*"; [ -f "$out/last.log" ] && cat "$out/last.log"; exit 1; }
run() { # run WHAT COMMAND...: must exit 0
    "$@" > "$out/last.log" 2>&1 || die "$1 ($*)"
}
run cmake --install "$build" --prefix "$prefix"
run cmake -S "$src/examples/plugin" -B "$out/plugin-build" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$flags -Wall -Wextra -Werror"
run cmake --build "$out/plugin-build"
plugin="$out/plugin-build/libcirc_example_plugin.so"
[ -f "$plugin" ] || die "the plugin was not built"
circ="$prefix/bin/circ"
load="--load-pass-plugin=$plugin"

run "$circ" opt --list-passes "$load"
grep -q "example-add-zero" "$out/last.log" && grep -q "example-swap-sub" "$out/last.log" ||
    die "--list-passes does not list the plugin's passes"
cat > "$out/sub.circ" << 'CIRC'
func @f(i32, i32) -> i32 {
  %a = ARG i32 0
  %b = ARG i32 1
  %z = CONSTANT i32 0
  %s = ADD i32 (%a, %z)
  %d = SUB i32 (%s, %b)
  RETURN [entry] {entry} (%d)
}
; run: @f(10, 3) == 7
CIRC
run "$circ" opt "$load" --passes=example-add-zero,dce "$out/sub.circ"
grep -q "ADD" "$out/last.log" && die "example-add-zero left the ADD of 0"
"$circ" check "$load" --targets pass "$out/sub.circ" > "$out/last.log" 2>&1
[ $? = 1 ] && grep -q "pass-example-swap-sub:return-vs-return" "$out/last.log" ||
    die "circ check does not find the wrong plugin pass"
grep -q "pass-example-add-zero" "$out/last.log" && die "the correct plugin pass was reported"

# circ tv proves the correct pass and refutes the wrong one (where circ has Z3)
"$circ" tv "$load" --passes=example-swap-sub,example-add-zero "$out/sub.circ" > "$out/last.log" 2>&1
rc=$?
if grep -q "unavailable" "$out/last.log"; then
    echo "tv: unavailable in this build (no Z3)"
else
    [ $rc = 1 ] && grep -q "example-swap-sub: refuted" "$out/last.log" &&
        grep -q "example-add-zero: proved" "$out/last.log" || die "circ tv with the plugin's passes"
fi

# the campaign: two workers, both with the plugin
"$circ" fuzz "$load" --seed 7 --seconds 0 --max-programs 200 --jobs 2 --targets pass --no-native \
    --out "$out/findings" > "$out/last.log" 2>&1
rc=$?
[ $rc = 1 ] || die "circ fuzz exited $rc, not 1 (a mismatch)"
finding=$(ls "$out"/findings/pass-example-swap-sub*.circ 2> /dev/null | head -1)
[ -n "$finding" ] || die "no finding signed pass-example-swap-sub: $(ls "$out/findings")"
ls "$out"/findings | grep -q example-add-zero && die "a finding for the correct pass example-add-zero"
grep -q "reproduce: circ check FILE.*--load-pass-plugin=$plugin" "$finding" ||
    die "the finding's reproduce line does not load the plugin: $(grep reproduce "$finding")"
echo "campaign: $(tail -1 "$out/last.log")"

# the reducer keeps the plugin pass's signature
"$circ" reduce "$finding" --targets pass -q > "$out/last.log" 2>&1
[ $? = 1 ] || die "without the plugin the finding should show nothing to reduce"
run "$circ" reduce "$load" "$finding" --targets pass --max-seconds 120 -o "$out/reduced.circ"
sig=$(basename "$finding" .circ)
grep -q "keeping signature pass-example-swap-sub" "$out/last.log" || die "reduce kept another signature"
"$circ" check "$load" --targets pass "$out/reduced.circ" > "$out/last.log" 2>&1
grep -q "pass-example-swap-sub:" "$out/last.log" || die "the reduced program lost the finding"
line=$(grep "reduced by circ reduce from" "$out/reduced.circ")
before=$(echo "$line" | sed -E 's/.*from ([0-9]+) to ([0-9]+).*/\1/')
after=$(echo "$line" | sed -E 's/.*from ([0-9]+) to ([0-9]+).*/\2/')
[ -n "$after" ] && [ "$after" -lt "$before" ] || die "not reduced: '$line'"
echo "reduce: $sig: $before -> $after gates"
echo "plugin: ok"
