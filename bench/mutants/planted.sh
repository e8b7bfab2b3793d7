#!/usr/bin/env bash
# planted.sh — the planted defects of bench/mutants/planted/*.patch, one at a time: a
# scratch copy of the tree with the patch applied is built and a default `circ fuzz`
# campaign runs on it until its first finding that the unpatched compiler does not
# share (its program passes `circ check` there), or the time is up.  Prints a
# markdown table: defect, verdict, signature, seconds to the finding.  See
# bench/mutants/README.md, "Planted defects".
#
# usage: bench/mutants/planted.sh [options] [NAME...]   (default: every patch)
#   --seconds S    campaign length per defect (default 60)
#   --jobs J       campaign workers and ninja jobs (default 2)
#   --seed N       campaign seed (default 1)
#   --scratch DIR  work directory, kept and reused (default: a temporary one)
#   --corpus       also run `circ check` over corpus/ first (a regression file there
#                  catches its own defect at once; the campaign is what is measured)
# The developer's tree is never touched.  Needs bash, git, patch, cmake, ninja, gcc.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tree=$(cd "$here/../.." && pwd)
seconds=60 jobs=2 seed=1 scratch="" corpus=0 names=()
die() { echo "planted.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
    case $1 in
        --seconds) seconds=$2; shift ;;
        --jobs) jobs=$2; shift ;;
        --seed) seed=$2; shift ;;
        --scratch) scratch=$2; shift ;;
        --corpus) corpus=1 ;;
        -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) die "unknown option $1 (try --help)" ;;
        *) names+=("$1") ;;
    esac
    shift
done
[ ${#names[@]} -gt 0 ] || for p in "$here"/planted/*.patch; do names+=("$(basename "$p" .patch)"); done

if [ -z "$scratch" ]; then
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/planted.XXXXXX")
    trap 'rm -rf "$scratch"' EXIT
fi
mkdir -p "$scratch" && scratch=$(cd "$scratch" && pwd)
src=$scratch/src build=$scratch/build
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# the tree's HEAD in $src (files rewritten only where they differ: builds stay incremental)
rm -rf "$scratch/new" && mkdir -p "$scratch/new" "$src"
git -C "$tree" archive HEAD | tar -x -C "$scratch/new" || die "cannot copy $tree"
(cd "$scratch/new" && find . -type f) | while IFS= read -r f; do
    cmp -s "$scratch/new/$f" "$src/$f" || { mkdir -p "$(dirname "$src/$f")" && cp "$scratch/new/$f" "$src/$f"; }
done
rm -rf "$scratch/new"
[ -f "$build/build.ninja" ] || cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCIRC_LTO=OFF -DCMAKE_C_COMPILER="${CC:-gcc}" >"$scratch/configure.log" 2>&1 ||
    die "configure failed, see $scratch/configure.log"
ninja -C "$build" -j "$jobs" circ >"$scratch/build.log" 2>&1 || die "the tree does not build, see $scratch/build.log"
cp "$build/circ" "$scratch/circ.orig"

# the signature of the campaign's first finding whose program circ.orig passes
first_own_finding() { # LOG
    local sig path
    sed -n 's/.*new finding \([^ ]*\) -> \(.*\)\.circ$/\1 \2.circ/p' "$1" | tr -d '\r' |
        while read -r sig path; do
            grep -qxF "$path" "$1.seen" 2>/dev/null && continue
            echo "$path" >>"$1.seen"
            timeout 120 "$scratch/circ.orig" check -q "$path" >/dev/null 2>&1 && { echo "$sig"; break; }
        done
}

# one defect: sets verdict, sig, took
run_defect() { # NAME
    local patchfile=$here/planted/$1.patch log=$scratch/$1.log start pid
    verdict=not-applied sig="-" took="-"
    patch -s -p1 -d "$src" <"$patchfile" || return
    if ! ninja -C "$build" -j "$jobs" circ >"$log" 2>&1; then
        verdict=did-not-build
    elif [ "$corpus" = 1 ] && start=$(now) &&
         ! "$build/circ" check -q "$src"/corpus/examples/*.circ "$src"/corpus/seeds/*.circ \
             "$src"/corpus/regress/*.circ >"$log" 2>&1; then
        verdict=caught sig=corpus took=$(since "$start")
    else
        rm -rf "$scratch/out-$1" "$log.seen"
        start=$(now)
        "$build/circ" fuzz --seconds "$seconds" --jobs "$jobs" --seed "$seed" --out "$scratch/out-$1" >"$log" 2>&1 &
        pid=$!
        verdict=missed
        while kill -0 "$pid" 2>/dev/null; do
            s=$(first_own_finding "$log")
            if [ -n "$s" ]; then verdict=caught sig=$s took=$(since "$start"); kill -TERM "$pid"; break; fi
            sleep 0.5
        done
        wait "$pid"
        if [ "$verdict" = missed ]; then
            s=$(first_own_finding "$log")
            [ -n "$s" ] && verdict=caught sig=$s took=$(since "$start")
        fi
    fi
    patch -s -R -p1 -d "$src" <"$patchfile" || die "cannot take $1 back out of $src"
    touch $(sed -n 's|^+++ b/||p' "$patchfile" | sed "s|^|$src/|")
}

echo "planted defects: campaign --seconds $seconds --jobs $jobs --seed $seed; tree $(git -C "$tree" rev-parse --short HEAD)"
echo
echo "| defect | verdict | signature | seconds |"
echo "|---|---|---|---|"
caught=0
for n in "${names[@]}"; do
    [ -f "$here/planted/$n.patch" ] || die "no planted defect $n"
    run_defect "$n"
    [ "$verdict" = caught ] && caught=$((caught + 1))
    echo "| $n | $verdict | $sig | $took |"
done
echo
echo "$caught of ${#names[@]} caught"
ninja -C "$build" -j "$jobs" circ >/dev/null 2>&1
