#!/usr/bin/env bash
# ir_roundtrip.sh CIRC EXAMPLES_DIR — every example verifies; `circ print` of it parses
# back and prints identically (print -> parse -> print is stable) and verifies again;
# `circ dot` of it renders with `dot -Tpng` (skipped, with a message, without Graphviz).
set -u
if [ $# -ne 2 ]; then
    echo "usage: $0 CIRC EXAMPLES_DIR" >&2
    exit 2
fi
circ=$1
dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
have_dot=1
if ! command -v dot >/dev/null 2>&1; then
    have_dot=0
    echo "note: Graphviz 'dot' not found: skipping the rendering of 'circ dot' output"
fi
failed=0 checked=0
fail() {
    echo "FAIL $1" >&2
    failed=$((failed + 1))
}
for f in "$dir"/*.circ; do
    [ -e "$f" ] || continue
    checked=$((checked + 1))
    name=$(basename "$f" .circ)
    "$circ" verify "$f" || { fail "$f: does not verify"; continue; }
    "$circ" print "$f" >"$tmp/$name.1.circ" || { fail "$f: circ print failed"; continue; }
    "$circ" verify "$tmp/$name.1.circ" || { fail "$f: printed form does not verify"; continue; }
    "$circ" print "$tmp/$name.1.circ" >"$tmp/$name.2.circ" || { fail "$f: printed form does not parse"; continue; }
    if ! cmp -s "$tmp/$name.1.circ" "$tmp/$name.2.circ"; then
        fail "$f: print -> parse -> print is not stable"
        diff "$tmp/$name.1.circ" "$tmp/$name.2.circ" | head -20 >&2
        continue
    fi
    grep -q '^; run:' "$f" && ! grep -q '^; run:' "$tmp/$name.1.circ" && { fail "$f: run lines lost by print"; continue; }
    "$circ" dot "$f" >"$tmp/$name.dot" || { fail "$f: circ dot failed"; continue; }
    grep -q '^digraph' "$tmp/$name.dot" || { fail "$f: circ dot wrote no digraph"; continue; }
    if [ "$have_dot" -eq 1 ]; then
        dot -Tpng "$tmp/$name.dot" -o "$tmp/$name.png" 2>"$tmp/$name.err" && [ -s "$tmp/$name.png" ] ||
            { fail "$f: dot -Tpng rejected the graph: $(head -3 "$tmp/$name.err")"; continue; }
    fi
done
if [ "$checked" -eq 0 ]; then
    echo "FAIL: no examples in $dir" >&2
    exit 1
fi
echo "$checked examples: $((checked - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
