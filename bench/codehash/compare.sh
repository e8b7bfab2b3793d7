#!/bin/sh
# compare.sh — compare the machine code of two circ builds function by function.
#
# usage: bench/codehash/compare.sh OLD_BUILD NEW_BUILD [SEEDS]
#        bench/codehash/compare.sh OLD.txt NEW.txt        (saved codehash.sh outputs)
# Runs codehash.sh on both (or reads saved outputs) and prints every function whose
# code differs, as  larger|smaller|changed FILE ISA LEVEL FUNCTION OLD_SIZE NEW_SIZE
# ("changed": same size, other bytes), then the counts of identical, smaller,
# same-size-changed and larger functions.  Exit 1 if any function got larger or a
# file compiles in one build and not the other, else 0.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 OLD_BUILD NEW_BUILD [SEEDS]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
side() { # BUILD_OR_FILE OUT
    if [ -f "$1" ]; then cp "$1" "$2"; else "$here/codehash.sh" "$1" "${SEEDS:-500}" >"$2"; fi
}
SEEDS=${3:-500}
side "$1" "$tmp/old"
side "$2" "$tmp/new"
python3 - "$tmp/old" "$tmp/new" <<'PY'
import sys

def load(path):
    table = {}
    for line in open(path):
        f = line.split()
        if len(f) == 6:
            table[" ".join(f[:4])] = (f[4], f[5])
    return table

old, new = load(sys.argv[1]), load(sys.argv[2])
counts = {"identical": 0, "smaller": 0, "changed": 0, "larger": 0, "missing": 0}
for key in old:
    if key not in new:
        counts["missing"] += 1
        print(f"missing {key}")
        continue
    (osz, oh), (nsz, nh) = old[key], new[key]
    if oh == nh:
        counts["identical"] += 1
        continue
    if osz == "error" or nsz == "error":
        kind = "missing"
    else:
        kind = "larger" if int(nsz) > int(osz) else "smaller" if int(nsz) < int(osz) else "changed"
    counts[kind] += 1
    print(f"{kind} {key} {osz} {nsz}")
for key in new:
    if key not in old:
        counts["missing"] += 1
        print(f"missing {key} (new only)")
print(" ".join(f"{k}={v}" for k, v in counts.items()))
sys.exit(1 if counts["larger"] or counts["missing"] else 0)
PY
