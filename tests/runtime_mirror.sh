#!/bin/bash
# runtime_mirror.sh MIRROR SEMANTICS_DIR — regenerate the dependency-join and runtime
# semantics files (tests/semantics/rt_*.circ) from tests/semantics/mirror_rt.c into a
# temporary directory and compare them with the committed ones.
set -u
mirror=$1
dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$mirror" "$tmp" || { echo "mirror_rt failed"; exit 1; }
status=0
n=0
for f in "$tmp"/*.circ; do
    n=$((n + 1))
    if ! diff -u "$dir/$(basename "$f")" "$f"; then
        echo "$(basename "$f") differs from the mirror's output (regenerate: mirror_rt $dir)"
        status=1
    fi
done
[ "$n" -eq 2 ] || { echo "mirror_rt wrote $n files, expected 2"; status=1; }
echo "$n generated files compared"
exit $status
