#!/bin/bash
# aims_cost.sh BUILD [ROUNDS] [SIZE] [PROGRAMS] [BENCH_FUZZ_ARG...] — what the bug-finding work costs the
# campaign today: BUILD's bench_fuzz at default settings (B) against the same tree
# with the generator's aims switched off (bench/fuzz/no-aims.patch: no boundary
# constants or offsets, no idiom conditions or statements, no pressure blocks, no
# calls through stack addresses, no joined dependencies, no small callees, relays or
# absorbed divisions, no big ALLOCA) and without the register-pressure stages (A),
# alternated by ab.sh (default 5 rounds of size 100, 3000 programs).  The ratio B/A
# is the share of the campaign's programs per second the aims and the pressure stages
# leave; the patterned harness and the coverage counters stay on in both.  Both leave
# out the C stages (--no-c): they check one program in 2048 at about 0.2 s each, so
# whether a run of a few thousand programs samples one moves its rate by 5% or more.
# Further arguments go to both bench_fuzz runs (e.g. --pressure-every 2).
set -euo pipefail
build=$(cd "${1:?usage: aims_cost.sh BUILD [ROUNDS] [SIZE] [PROGRAMS] [ARG...]}" && pwd)
rounds=${2:-5} size=${3:-100} n=${4:-3000}
extra=
(($# > 4)) && extra=$(printf ' %q' "${@:5}")
here=$(cd "$(dirname "$0")" && pwd)
tree=$(cd "$here/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
git -C "$tree" archive HEAD | tar -x -C "$scratch"
patch -s -d "$scratch" -p1 < "$here/no-aims.patch"
cmake -S "$scratch" -B "$scratch/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$scratch/build" bench_fuzz >/dev/null
printf '#!/bin/bash\nexec "%s" "$1" "$2" 1 --no-pressure --no-c%s\n' "$scratch/build/tests/bench_fuzz" "$extra" > "$scratch/a.sh"
printf '#!/bin/bash\nexec "%s" "$1" "$2" 1 --no-c%s\n' "$build/tests/bench_fuzz" "$extra" > "$scratch/b.sh"
chmod +x "$scratch/a.sh" "$scratch/b.sh"
echo "A: HEAD with bench/fuzz/no-aims.patch, --no-pressure --no-c$extra; B: $build/tests/bench_fuzz --no-c$extra"
"$here/ab.sh" "$scratch/a.sh" "$scratch/b.sh" "$rounds" "$size" "$n"
