#!/bin/sh
# gen_scale.sh — writes the large Circuit IR inputs of the scale benchmark and the
# reliability tests to stdout:
#   gen_scale.sh chain N     one function, N ORDINARY_BLOCKs in one state chain
#   gen_scale.sh funcs N     N functions, each calling the one before (a run line on f50)
#   gen_scale.sh switch N    one SWITCH_BRANCH with N SWITCH_CASEs joined by one MERGE
#   gen_scale.sh diamonds N  N IF diamonds one after another (3N+1 blocks)
#   gen_scale.sh args N      a function of N i64 arguments returning their sum
#   gen_scale.sh loads N     N IF diamonds, each with a LOAD demanded in both arms only
#   gen_scale.sh nested N    N loops nested in one another, each running once
#   gen_scale.sh adds N      one block computing a chain of N ADDs
#   gen_scale.sh stores N    one block computing N ADDs, then storing each in turn
[ $# -eq 2 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
exec awk -v kind="$1" -v n="$2" '
function chain(   i, prev) {
  print "func @main(i32) -> i32 {\n  %x = ARG i32 0\n  %one = CONSTANT i32 1"
  prev = "entry"
  for (i = 0; i < n; i++) { printf "  %%b%d = ORDINARY_BLOCK [%s]\n", i, prev; prev = "%b" i }
  printf "  %%r = ADD i32 (%%x, %%one)\n  RETURN [%s] {entry} (%%r)\n}\n; run: @main(41) == 42\n", prev
}
function funcs(   i) {
  print "func @f0(i32) -> i32 {\n  %x = ARG i32 0\n  RETURN [entry] {entry} (%x)\n}"
  for (i = 1; i < n; i++)
    printf "func @f%d(i32) -> i32 {\n  %%x = ARG i32 0\n  %%s = SYMBOL @f%d\n  %%r = CALL i32 {entry} (%%s, %%x)\n  RETURN [entry] {%%r} (%%r)\n}\n", i, i - 1
  printf "; run: @f%d(7) == 7\n", (n - 1 < 50 ? n - 1 : 50)
}
function switch_(   i, cases, vals) {
  print "func @main(i32) -> i32 {\n  %x = ARG i32 0\n  %sw = SWITCH_BRANCH [entry] (%x)"
  for (i = 0; i < n; i++) {
    printf "  %%c%d = SWITCH_CASE %d [%%sw]\n  %%k%d = CONSTANT i32 %d\n", i, i, i, 3 * i
    cases = cases "%c" i ", "; vals = vals "%k" i ", "
  }
  print "  %d = DEFAULT_CASE [%sw]\n  %kd = CONSTANT i32 -1"
  printf "  %%m = MERGE [%s%%d]\n  %%r = VALUE_SELECTOR i32 [%%m] (%s%%kd)\n", cases, vals
  print "  RETURN [%m] {entry} (%r)\n}"
  printf "; run: @main(0) == 0\n; run: @main(%d) == %d\n; run: @main(%d) == -1\n", n - 1, 3 * (n - 1), n
}
# the branch of diamond i on %x<i>, its arms %t<i> %f<i> joined by %m<i>; then body(i)
function diamond_chain(header, kind,   i, prev) {
  print header
  prev = "entry"
  for (i = 0; i < n; i++) {
    printf "  %%c%d = ICMP slt (%%x%d, %%zero)\n  %%i%d = IF_BRANCH [%s] (%%c%d)\n", i, i, i, prev, i
    printf "  %%t%d = IF_TRUE [%%i%d]\n  %%f%d = IF_FALSE [%%i%d]\n  %%m%d = MERGE [%%t%d, %%f%d]\n", i, i, i, i, i, i, i
    if (kind == "loads") {
      printf "  %%l%d = LOAD i32 {entry} (%%p)\n  %%a%d = ADD i32 (%%x%d, %%l%d)\n", i, i, i, i
      printf "  %%x%d = VALUE_SELECTOR i32 [%%m%d] (%%a%d, %%l%d)\n", i + 1, i, i, i
    } else
      printf "  %%a%d = ADD i32 (%%x%d, %%one)\n  %%x%d = VALUE_SELECTOR i32 [%%m%d] (%%x%d, %%a%d)\n", i, i, i + 1, i, i, i
    prev = "%m" i
  }
  printf "  RETURN [%s] {entry} (%%x%d)\n}\n", prev, n
}
function diamonds() {
  diamond_chain("func @main(i32) -> i32 {\n  %x0 = ARG i32 0\n  %one = CONSTANT i32 1\n  %zero = CONSTANT i32 0", "add")
  printf "; run: @main(5) == %d\n", 5 + n
}
function loads() {
  diamond_chain("func @main(i32, i64) -> i32 {\n  %x0 = ARG i32 0\n  %p = ARG i64 1\n  %zero = CONSTANT i32 0", "loads")
}
function nested(   i, outer) {
  print "func @main(i32) -> i32 {\n  %x = ARG i32 0\n  %one = CONSTANT i32 1\n  %zero = CONSTANT i32 0"
  for (i = 0; i < n; i++) {
    outer = i ? "%h" (i - 1) : "entry"
    printf "  %%h%d = LOOP_BEGIN [%s, %%b%d]\n", i, outer, i
    printf "  %%v%d = VALUE_SELECTOR i32 [%%h%d] (%s, %%a%d)\n  %%a%d = ADD i32 (%%v%d, %%one)\n", i, i, (i ? "%v" (i - 1) : "%x"), i, i, i
    printf "  %%c%d = ICMP slt (%%v%d, %%zero)\n", i, i
  }
  for (i = n - 1; i >= 0; i--) {
    printf "  %%i%d = IF_BRANCH [%s] (%%c%d)\n", i, (i == n - 1 ? "%h" i : "%f" (i + 1)), i
    printf "  %%t%d = IF_TRUE [%%i%d]\n  %%b%d = LOOP_BACK [%%t%d]\n  %%f%d = IF_FALSE [%%i%d]\n", i, i, i, i, i, i
  }
  print "  RETURN [%f0] {entry} (%v0)\n}\n; run: @main(5) == 5"
}
function adds(   i, acc) {
  print "func @main(i64) -> i64 {\n  %x = ARG i64 0"
  acc = "%x"
  for (i = 0; i < n; i++) { printf "  %%s%d = ADD i64 (%s, %%x)\n", i, acc; acc = "%s" i }
  printf "  RETURN [entry] {entry} (%s)\n}\n; run: @main(1) == %d\n", acc, n + 1
}
function stores(   i, prev) {
  print "func @main(i32) -> i32 {\n  %x = ARG i32 0\n  %one = CONSTANT i32 1\n  %buf = ALLOCA 8"
  printf "  %%a0 = ADD i32 (%%x, %%one)\n"
  for (i = 1; i < n; i++) printf "  %%a%d = ADD i32 (%%a%d, %%one)\n", i, i - 1
  prev = "entry"
  for (i = 0; i < n; i++) { printf "  %%s%d = STORE {%s} (%%a%d, %%buf)\n", i, prev, i; prev = "%s" i }
  printf "  RETURN [entry] {%s} (%%a%d)\n}\n; run: @main(1) == %d\n", prev, n - 1, n + 1
}
function args(   i, acc, sep, list) {
  for (i = 0; i < n; i++) { list = list sep "i64"; sep = ", " }
  printf "func @sum(%s) -> i64 {\n", list
  for (i = 0; i < n; i++) printf "  %%a%d = ARG i64 %d\n", i, i
  acc = "%a0"
  for (i = 1; i < n; i++) { printf "  %%s%d = ADD i64 (%s, %%a%d)\n", i, acc, i; acc = "%s" i }
  printf "  RETURN [entry] {entry} (%s)\n}\n; run: @sum(", acc
  for (i = 0; i < n; i++) printf "%s%d", (i ? ", " : ""), i
  printf ") == %d\n", n * (n - 1) / 2
}
BEGIN {
  if (kind == "chain") chain(); else if (kind == "funcs") funcs(); else if (kind == "switch") switch_()
  else if (kind == "diamonds") diamonds(); else if (kind == "args") args(); else if (kind == "loads") loads()
  else if (kind == "nested") nested(); else if (kind == "adds") adds(); else if (kind == "stores") stores()
  else { print "gen_scale.sh: unknown kind " kind > "/dev/stderr"; exit 2 }
}'
