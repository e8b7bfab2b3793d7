#!/usr/bin/env bash
# ir_roundtrip.sh CIRC EXAMPLES_DIR — every example verifies; `circ print` of it parses
# back and prints identically (print -> parse -> print is stable) and verifies again;
# `circ dot` of it renders with `dot -Tpng` (skipped, with a message, without Graphviz).
#
# ir_roundtrip.sh --invalid CIRC DIR — the files of DIR that parse but must not verify:
# their printed form is stable too, and still fails to verify.
set -u
invalid=0
if [ "${1:-}" = "--invalid" ]; then
    invalid=1
    shift
fi
if [ $# -ne 2 ]; then
    echo "usage: $0 [--invalid] CIRC DIR" >&2
    exit 2
fi
circ=$1
dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
have_dot=1
if [ "$invalid" -eq 0 ] && ! command -v dot >/dev/null 2>&1; then
    have_dot=0
    echo "note: Graphviz 'dot' not found: skipping the rendering of 'circ dot' output"
fi
failed=0 checked=0 skipped=0
fail() {
    echo "FAIL $1" >&2
    failed=$((failed + 1))
}

# print twice; the two prints must agree; $2 is the verify status both must have;
# $3, if given, is the first print already made
print_stable() {
    local f=$1 want=$2 name
    name=$(basename "$f" .circ)
    if [ -z "${3:-}" ]; then
        "$circ" print "$f" >"$tmp/$name.1.circ" || { fail "$f: circ print failed"; return 1; }
    fi
    "$circ" verify "$tmp/$name.1.circ" 2>/dev/null
    local status=$?
    [ "$status" -eq "$want" ] || { fail "$f: printed form: circ verify exited $status, expected $want"; return 1; }
    "$circ" print "$tmp/$name.1.circ" >"$tmp/$name.2.circ" || { fail "$f: printed form does not parse"; return 1; }
    if ! cmp -s "$tmp/$name.1.circ" "$tmp/$name.2.circ"; then
        fail "$f: print -> parse -> print is not stable"
        diff "$tmp/$name.1.circ" "$tmp/$name.2.circ" | head -20 >&2
        return 1
    fi
    if grep -q '^; run:' "$f" && ! grep -q '^; run:' "$tmp/$name.1.circ"; then
        fail "$f: run lines lost by print"
        return 1
    fi
}

check_valid() {
    local f=$1 name
    name=$(basename "$f" .circ)
    "$circ" verify "$f" || { fail "$f: does not verify"; return; }
    print_stable "$f" 0 || return
    "$circ" dot "$f" >"$tmp/$name.dot" || { fail "$f: circ dot failed"; return; }
    grep -q '^digraph' "$tmp/$name.dot" || { fail "$f: circ dot wrote no digraph"; return; }
    if [ "$have_dot" -eq 1 ]; then
        dot -Tpng "$tmp/$name.dot" -o "$tmp/$name.png" 2>"$tmp/$name.err" && [ -s "$tmp/$name.png" ] ||
            fail "$f: dot -Tpng rejected the graph: $(head -3 "$tmp/$name.err")"
    fi
}

check_invalid() {
    local f=$1 name
    name=$(basename "$f" .circ)
    if ! "$circ" print "$f" >"$tmp/$name.1.circ" 2>/dev/null; then
        skipped=$((skipped + 1)) # a syntax error: nothing to print
        return
    fi
    "$circ" verify "$f" 2>/dev/null
    local status=$?
    [ "$status" -eq 1 ] || { fail "$f: circ verify exited $status, expected 1"; return; }
    print_stable "$f" 1 printed
}

for f in "$dir"/*.circ; do
    [ -e "$f" ] || continue
    checked=$((checked + 1))
    if [ "$invalid" -eq 1 ]; then
        check_invalid "$f"
    else
        check_valid "$f"
    fi
done
if [ "$checked" -eq 0 ]; then
    echo "FAIL: no .circ files in $dir" >&2
    exit 1
fi
echo "$checked files ($skipped without a parse): $((checked - skipped - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
