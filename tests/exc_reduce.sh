#!/bin/bash
# exc_reduce.sh CIRC — the reducer's strategies on exceptions: a program whose entry
# INVOKEs a thrower and rethrows from its handler, kept while `circ run` still ends in
# `throw 21`, reduces to one without an INVOKE (turned into a CALL, the handler
# dropped), and a program whose handler must still run keeps its INVOKE.
set -u
CIRC=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
cat > "$T/in.circ" <<'CIRCEOF'
func @e0(i32) -> i32 {
  %x = ARG i32 0
  %seven = CONSTANT i32 7
  %v = MUL i32 (%x, %seven)
  THROW [entry] {entry} (%v)
}
func @main(i32) -> i32 {
  %x = ARG i32 0
  %f = SYMBOL @e0
  %inv = INVOKE i32 [entry] {entry} (%f, %x)
  %ok = IF_SUCCESS [%inv]
  RETURN [%ok] {%inv} (%inv)
  %ex = IF_EXCEPTION [%inv]
  %e = GET_EXCEPTION [%ex]
  %t = TRUNC i32 (%e)
  %d = DEPEND_RELAY [%ex] {%inv}
  THROW [%ex] {%d} (%t)
}
; run: @main(3) == throw 21
CIRCEOF
printf '#!/bin/sh\n"%s" run "$1" @main 3 | grep -qx "throw 21"\n' "$CIRC" > "$T/throws.sh"
printf '#!/bin/sh\n"%s" run "$1" @main 3 | grep -qx "return 21"\n' "$CIRC" > "$T/caught.sh"
chmod +x "$T/throws.sh" "$T/caught.sh"
"$CIRC" reduce "$T/in.circ" --test "$T/throws.sh" -q -o "$T/small.circ" || bad "reduce exit $?"
grep -q "INVOKE" "$T/small.circ" && bad "the INVOKE was not turned into a CALL"
"$T/throws.sh" "$T/small.circ" || bad "the reduced program does not throw 21"
"$CIRC" verify "$T/small.circ" || bad "the reduced program does not verify"
# a handler that returns what it caught: the INVOKE must stay.  The thrower is a
# plain CALL away (a callee with a call is not inlined; at an INVOKE the inliner would
# splice a leaf thrower in, handler and all, a reduction just as good)
sed 's/THROW \[%ex\] {%d} (%t)/RETURN [%ex] {%d} (%t)/; s/== throw 21/== 21/; s/^func @main/func @e1(i32) -> i32 {\
  %x = ARG i32 0\
  %f = SYMBOL @e0\
  %r = CALL i32 {entry} (%f, %x)\
  RETURN [entry] {%r} (%r)\
}\
func @main/; s/%f = SYMBOL @e0$/%f = SYMBOL @e1/' "$T/in.circ" > "$T/in2.circ"
"$CIRC" reduce "$T/in2.circ" --test "$T/caught.sh" -q -o "$T/small2.circ" || bad "reduce (caught) exit $?"
grep -q "INVOKE" "$T/small2.circ" || bad "the INVOKE whose handler matters went away"
"$T/caught.sh" "$T/small2.circ" || bad "the reduced program no longer returns 21"
[ $fail -eq 0 ] && echo "exception reductions ok"
exit $fail
