#!/usr/bin/env bash
# mutants_list.sh ROOT — bench/mutants/mutants.sh --list: the sites of a fixture are
# exactly the expected ones (comments, strings, asserts, printing files, unary minus
# and `->` skipped), the real compiler/ has candidates of every kind, each names text
# that is really at its column, and the list is deterministic for a seed.
source "$(dirname "$0")/mutants_common.sh"

mkdir -p "$tmp/compiler/x"
cat >"$tmp/compiler/x/t.c" <<'C'
/* t.c — fixture: a < b in a comment */
#define N 3
static int f(int a, int b)
{
    if (a < b && !g(a)) /* a >= b */
        return -1 + a;
    printf("%d", a == b);
    assert(a != b);
    p->x = a << 0x1f;
    return a != b ? 'a' : 7;
}
static bool h(void) { return true; }
C
echo 'int x = 1 < 2;' >"$tmp/compiler/x/print.c"
T=$'\t'
cat >"$tmp/expected" <<E
1${T}compiler/x/t.c${T}5${T}11${T}rel${T}<${T}<=
2${T}compiler/x/t.c${T}5${T}15${T}logic${T}&&${T}||
3${T}compiler/x/t.c${T}5${T}18${T}not${T}!${T}
4${T}compiler/x/t.c${T}6${T}17${T}const${T}1${T}2
5${T}compiler/x/t.c${T}6${T}17${T}const${T}1${T}0
6${T}compiler/x/t.c${T}6${T}19${T}arith${T}+${T}-
7${T}compiler/x/t.c${T}9${T}14${T}arith${T}<<${T}>>
8${T}compiler/x/t.c${T}9${T}17${T}const${T}0x1f${T}(0x1f + 1)
9${T}compiler/x/t.c${T}9${T}17${T}const${T}0x1f${T}(0x1f - 1)
10${T}compiler/x/t.c${T}10${T}14${T}rel${T}!=${T}==
11${T}compiler/x/t.c${T}10${T}27${T}const${T}7${T}8
12${T}compiler/x/t.c${T}10${T}27${T}const${T}7${T}6
13${T}compiler/x/t.c${T}12${T}30${T}ret${T}true${T}false
E
"$m" --tree "$tmp" --list -n 0 >"$tmp/got" || fail "--list on the fixture failed"
diff "$tmp/expected" "$tmp/got" || fail "fixture sites differ (expected, got)"

"$m" --tree "$root" --list -n 0 >"$tmp/all" || fail "--list on the tree failed"
n=$(wc -l <"$tmp/all")
[ "$n" -ge 1000 ] || fail "only $n candidates in compiler/"
for kind in rel arith logic not const ret; do
    cut -f5 "$tmp/all" | grep -qx "$kind" || fail "no candidate of kind $kind"
done
grep -E $'\t''compiler/[^\t]*/(print|dot|dump|diag|listing[^/]*)\.c'$'\t' "$tmp/all" &&
    fail "a printing or dump file has candidates"

"$m" --tree "$root" --list -n 40 --seed 7 >"$tmp/a"
"$m" --tree "$root" --list -n 40 --seed 7 >"$tmp/b"
"$m" --tree "$root" --list -n 20 --seed 7 >"$tmp/c"
"$m" --tree "$root" --list -n 40 --seed 8 >"$tmp/d"
[ "$(wc -l <"$tmp/a")" -eq 40 ] || fail "-n 40 did not give 40 mutants"
cmp -s "$tmp/a" "$tmp/b" || fail "the list for a seed is not deterministic"
head -20 "$tmp/a" | cmp -s - "$tmp/c" || fail "-n 20 is not the start of -n 40"
cmp -s "$tmp/a" "$tmp/d" && fail "seeds 7 and 8 give the same list"
[ "$(cut -f1 "$tmp/a" | sort -u | wc -l)" -eq 40 ] || fail "a mutant was picked twice"

# every picked site names the text at its column, on a line without a string literal
while IFS=$'\t' read -r _ file line col _ from _; do
    text=$(sed -n "${line}p" "$root/$file")
    [ "${text:col-1:${#from}}" = "$from" ] || fail "$file:$line:$col is not '$from'"
    case $text in *'"'*) fail "$file:$line has a string literal" ;; esac
done <"$tmp/a"
echo "ok: $n candidates"
