#!/bin/bash
# objects_header_names.sh CIRC RUNTIME_DIR MODULE — the header of `circ compile
# --emit=header` for functions whose names C cannot spell as they are (a keyword,
# reserved identifiers): each gets a C name (circ_fn_N) bound to its symbol by
# __asm__, also in the module table, and a C program linked with the module's
# object calls every function by its C name and through the table.
set -u
circ=$1
rt=$2
module=$3
case "$(uname -m)" in
    x86_64) target=x86-64 ;;
    aarch64) target=arm64 ;;
    *) echo "skipped: no native target on $(uname -m)"; exit 77 ;;
esac
cc=$(command -v gcc || command -v clang) || { echo "skipped: no C compiler"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
"$circ" compile "$module" --emit=header -o "$tmp/m.h" || fail "no header"
"$circ" compile "$module" --target $target -O2 -o "$tmp/m.o" || fail "no object"
grep -q 'int64_t circ_fn_0(int64_t) __asm__("int");' "$tmp/m.h" || fail "@int is not circ_fn_0 bound to its symbol"
grep -q 'circ_fn_2(void) __asm__("__twice")' "$tmp/m.h" || fail "@__twice is not circ_fn_2"
grep -q '^int32_t ok(int32_t);' "$tmp/m.h" || fail "@ok keeps its name"
cat > "$tmp/main.c" <<'C'
#define CIRC_MODULE_TABLE
#include "m.h"
#include <stdio.h>
#include <string.h>

static int fails;
#define EXPECT(c, what) do { if (!(c)) { printf("FAIL: %s\n", what); fails++; } } while (0)

int main(void)
{
    EXPECT(circ_fn_0(41) == 42, "@int(41) by its C name");
    EXPECT(circ_fn_1(3.0) == 1.5, "@_Reserved(3.0) by its C name");
    EXPECT(circ_fn_2() == 1.5f, "@__twice() by its C name");
    EXPECT(ok(21) == 42, "@ok(21)");
    EXPECT(CIRC_MODULE_NFUNCS == 4, "four functions in the table");
    uint64_t a[1] = {41}, r = 0;
    circ_module_funcs[0].call(a, &r);
    EXPECT(r == 42, "@int through the table");
    EXPECT(!strcmp(circ_module_funcs[0].name, "int"), "the table names @int");
    EXPECT(circ_module_funcs[0].addr == (uint64_t)(uintptr_t)circ_fn_0, "the table's address of @int");
    EXPECT(circ_module_funcs[2].addr == (uint64_t)(uintptr_t)circ_fn_2, "the table's address of @__twice");
    printf("%s\n", fails ? "failed" : "ok");
    return fails != 0;
}
C
if [ $fails = 0 ]; then
    "$cc" -std=c11 -O1 -Wall -Wextra -Werror -I"$tmp" -I"$rt" "$tmp/main.c" "$tmp/m.o" -o "$tmp/a.out" ||
        fail "the header does not compile or link"
    [ -x "$tmp/a.out" ] && { "$tmp/a.out" || fail "calls through the header"; }
fi
[ $fails = 0 ] && echo "objects_header_names: ok"
exit $((fails != 0))
