#!/bin/bash
# api_example.sh SOURCE LIBCIRC OUT CC [FLAGS] — the complete example of docs/api.md
# (the first ```c block after "## A complete example"), compiled as C11 with -Wall
# -Wextra -Werror against include/ and the build's libcirc.so, and run: it must build
# its module, find its wrong pass through a pass manager, the check and the reducer,
# and write an ELF object (exit 0, the lines it prints).
src="$1"; lib="$2"; out="$3"; cc="$4"; flags="$5"
rm -rf "$out"; mkdir -p "$out"
die() { echo "FAIL: $*"; cat "$out/last.log" 2> /dev/null; exit 1; }
awk '/^## A complete example/ { sec = 1 } sec && /^```c$/ { on = 1; next } on && /^```$/ { exit } on { print }' \
    "$src/docs/api.md" > "$out/example.c"
[ -s "$out/example.c" ] || die "no example in docs/api.md"
"$cc" $flags -std=c11 -Wall -Wextra -Werror -I"$src/include" -o "$out/example" "$out/example.c" "$lib" \
    -Wl,-rpath,"$(dirname "$lib")" > "$out/last.log" 2>&1 || die "the example does not compile"
"$out/example" > "$out/last.log" 2>&1 || die "the example failed"
cat "$out/last.log"
for want in "return 21 as built, return -21 after swap-sub" "check: pass-swap-sub:return-vs-return" \
            "reduce: pass-swap-sub:return-vs-return kept" "bytes, ELF" "func @diff(i32, i32) -> i32"; do
    grep -qF "$want" "$out/last.log" || die "the output lacks '$want'"
done
echo "api example: ok"
