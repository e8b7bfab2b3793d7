#!/usr/bin/env bash
# mutants.sh — mutation test of circ's fuzzer: plant one operator or constant mutation
# at a time in compiler/, rebuild, and see whether `circ check` on corpus/ or a
# `circ fuzz` campaign notices.  See bench/mutants/README.md.
#
# usage: bench/mutants/mutants.sh [options]
#   -n N            mutants to run (default 100; 0: every candidate)
#   --skip K        leave out the first K of them (to resume or extend a run)
#   --seed N        picks the mutants (deterministic list) and seeds the campaigns (default 1)
#   --seconds S     campaign length per mutant (default 60)
#   --jobs J        campaign workers and ninja jobs (default 1)
#   --only PREFIX   only files whose path starts with PREFIX (e.g. compiler/a64)
#   --tree DIR      source tree (default: the tree holding this script)
#   --scratch DIR   work directory (copy of the tree + build); kept and reused when given
#   --out FILE      the markdown table (default SCRATCH/results.md), also printed
#   --no-baseline   skip the campaign on the unmutated compiler
#   --list          print the selected mutants, tab-separated ID FILE LINE COL KIND FROM TO
#   --try ID -- CMD run CMD with mutant ID applied in --tree itself, then restore the file
# The developer's tree is never modified except by --try, which restores the file byte
# for byte when CMD ends or the script is interrupted.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tree=$(cd "$here/../.." && pwd)
count=100 skip=0 seed=1 seconds=60 jobs=1 only="" scratch="" out="" baseline=1 mode=run try_id=""

die() { echo "mutants.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
    case $1 in
        -n) count=$2; shift ;;
        --skip) skip=$2; shift ;;
        --seed) seed=$2; shift ;;
        --seconds) seconds=$2; shift ;;
        --jobs) jobs=$2; shift ;;
        --only) only=$2; shift ;;
        --tree) tree=$(cd "$2" && pwd) || exit 2; shift ;;
        --scratch) scratch=$2; shift ;;
        --out) out=$2; shift ;;
        --no-baseline) baseline=0 ;;
        --list) mode=list ;;
        --try) mode=try; try_id=$2; shift ;;
        --) shift; break ;;
        -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option $1 (try --help)" ;;
    esac
    shift
done
for v in "$count" "$skip" "$seed" "$seconds" "$jobs"; do
    case $v in ''|*[!0-9]*) die "expected a number, got '$v'" ;; esac
done

# ---- candidates ----

# files that can be mutated: compiler/**/*.c minus printing and dump code
mutable_files() { # TREE
    (cd "$1" && find compiler -name '*.c' | LC_ALL=C sort |
        grep -Ev '/(print|dot|dump|diag|listing[^/]*)\.c$' |
        { if [ -n "$only" ]; then grep "^$only" || true; else cat; fi })
}

# every candidate, numbered: ID <TAB> FILE <TAB> LINE <TAB> COL <TAB> KIND <TAB> FROM <TAB> TO
all_sites() { # TREE
    local files
    files=$(mutable_files "$1")
    [ -n "$files" ] || die "no files to mutate under $1${only:+ matching $only}"
    # shellcheck disable=SC2086
    (cd "$1" && awk -f "$here/sites.awk" $files) | awk '{ print NR "\t" $0 }'
}

# the first COUNT of a seeded shuffle (Park-Miller, exact in awk's doubles), so a
# larger -n extends a smaller one's list; COUNT 0: all, in order
select_sites() { # COUNT SEED  (stdin: all_sites)
    awk -v n="$1" -v seed="$2" '
        { line[NR] = $0 }
        END {
            m = NR
            if (n == 0) { for (i = 1; i <= m; i++) print line[i]; exit }
            if (n > m) n = m
            x = (seed % 2147483646) + 1
            for (i = 1; i <= m; i++) idx[i] = i
            for (i = 1; i <= n; i++) {
                x = (x * 16807) % 2147483647
                j = i + x % (m - i + 1)
                t = idx[i]; idx[i] = idx[j]; idx[j] = t
                print line[idx[i]]
            }
        }'
}

# ---- applying one mutant ----

# the mutated text of line LINE of FILE (replacing FROM at COL by TO) on stdout
mutated_file() { # FILE LINE COL FROM TO
    awk -v ln="$2" -v col="$3" -v from="$4" -v to="$5" '
        NR == ln {
            if (substr($0, col, length(from)) != from) { bad = 1; exit 3 }
            $0 = substr($0, 1, col - 1) to substr($0, col + length(from))
        }
        { print }' "$1"
}

# Applied mutant state: restore() puts the file back (new mtime, so ninja rebuilds it;
# the run mode touches it again at its next start, in case a build of the mutant was
# still writing its object when the file came back).
applied_file="" applied_backup=""
restore() {
    if [ -n "$applied_file" ]; then
        cat "$applied_backup" >"$applied_file"
        [ -z "${scratch:-}" ] || echo "$applied_file" >>"$scratch/restored"
        rm -f "$applied_backup"
        applied_file=""
    fi
}

apply() { # TREE FILE LINE COL FROM TO
    local f=$1/$2
    applied_backup=$(mktemp "${TMPDIR:-/tmp}/mutant.XXXXXX") || return 1
    cp "$f" "$applied_backup" || return 1
    mutated_file "$f" "$3" "$4" "$5" "$6" >"$applied_backup.new" || {
        rm -f "$applied_backup" "$applied_backup.new"; return 1; }
    applied_file=$f
    cat "$applied_backup.new" >"$f"
    rm -f "$applied_backup.new"
}

site_by_id() { # TREE ID
    all_sites "$1" | awk -F'\t' -v id="$2" '$1 == id { print; found = 1 } END { exit !found }'
}

trap 'restore; exit 130' INT
trap 'restore; exit 143' TERM
trap 'restore' EXIT

if [ "$mode" = list ]; then
    all_sites "$tree" | select_sites "$count" "$seed" | tail -n +$((skip + 1))
    exit 0
fi

if [ "$mode" = try ]; then
    [ $# -gt 0 ] || die "--try ID needs -- CMD"
    site=$(site_by_id "$tree" "$try_id") || die "no mutant $try_id"
    IFS=$'\t' read -r _ file line col _ from to <<<"$site"
    apply "$tree" "$file" "$line" "$col" "$from" "$to" || die "cannot apply mutant $try_id"
    "$@" &
    wait $!
    rc=$?
    restore
    exit $rc
fi

source "$here/run.sh"
