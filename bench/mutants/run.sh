# run.sh — the run mode of mutants.sh (sourced by it): scratch copy, baseline, and one
# build + corpus check + campaign per mutant, written as a markdown table.

# runs CMD so that a signal to this script is handled at once, not after CMD
in_background() { "$@" & wait $!; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# $src := the tree's HEAD (or its files when it is not a git checkout).  Only files
# whose bytes differ are copied, so a reused scratch build stays incremental.
make_scratch() {
    local new=$scratch/new f
    rm -rf "$new" && mkdir -p "$new" "$src"
    if git -C "$tree" rev-parse HEAD >/dev/null 2>&1; then
        git -C "$tree" archive HEAD | tar -x -C "$new"
        git -C "$tree" rev-parse HEAD >"$scratch/HEAD"
    else
        tar -C "$tree" --exclude='./build*' --exclude=./.git -cf - . | tar -x -C "$new"
        echo "(files of $tree)" >"$scratch/HEAD"
    fi || die "cannot copy $tree to $src"
    (cd "$new" && find . -type f) | while IFS= read -r f; do
        cmp -s "$new/$f" "$src/$f" || { mkdir -p "$(dirname "$src/$f")" && cp "$new/$f" "$src/$f"; }
    done
    rm -rf "$new"
    [ -f "$scratch/restored" ] && sort -u "$scratch/restored" | xargs -r touch --
    rm -f "$scratch/restored"
    [ -f "$build/build.ninja" ] ||
        cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCIRC_LTO=OFF \
            -DCMAKE_C_COMPILER="${CC:-gcc}" >"$scratch/configure.log" 2>&1 ||
        die "configure failed, see $scratch/configure.log"
}

corpus_check() { # LOG (a crash is reported there too)
    { in_background timeout 300 "$build/circ" check -q --isa x86-64,arm64 \
        "$src"/corpus/examples/*.circ "$src"/corpus/seeds/*.circ "$src"/corpus/regress/*.circ; \
    } >"$1" 2>&1
}

# The findings of a campaign log that are the mutant's: those whose saved program the
# unmutated compiler passes (it has findings of its own; their signatures alone, like
# crash:SIGSEGV, would mask a mutant's).  One signature a line; each file is replayed
# once (the verdicts are kept in LOG.seen).
mutant_findings() { # LOG
    local sig path
    touch "$1.seen"
    sed -n 's/.*new finding \([^ ]*\) -> \(.*\)\.circ$/\1 \2.circ/p' "$1" | tr -d '\r' |
        while read -r sig path; do
            grep -qxF "$path" "$1.seen" && continue
            echo "$path" >>"$1.seen"
            { timeout 120 "$scratch/circ.orig" check -q "$path"; } >/dev/null 2>&1 && echo "$sig"
        done >>"$1.sigs"
    cat "$1.sigs"
}

# runs the campaign; stops it at the mutant's first finding (STOP=0: runs it out); its
# findings go to OUT.  Sets fz_sig (empty: none) and fz_time (seconds to it).
campaign() { # LOG STOP OUT
    local start pid rc hang=$((seconds < 60 ? (seconds > 10 ? seconds : 10) : 60))
    rm -rf "$3" "$1.seen" "$1.sigs"
    : >"$1.sigs"
    start=$(now) fz_sig="" fz_time=""
    "$build/circ" fuzz --seconds "$seconds" --jobs "$jobs" --seed "$seed" \
        --hang-seconds "$hang" --out "$3" >"$1" 2>&1 &
    pid=$!
    while kill -0 "$pid" 2>/dev/null; do
        if [ "$2" = 1 ] && [ -n "$(mutant_findings "$1")" ]; then
            fz_time=$(since "$start"); kill -TERM "$pid"; break
        fi
        if [ "$(since "$start" | cut -d. -f1)" -gt $((seconds + hang + 60)) ]; then
            fz_time=$(since "$start"); fz_sig="campaign-timeout"; kill -KILL "$pid"; break
        fi
        sleep 0.5
    done
    wait "$pid"
    rc=$?
    [ -n "$fz_sig" ] && return
    [ "$2" = 1 ] && fz_sig=$(mutant_findings "$1" | head -1)
    [ -n "$fz_time" ] || fz_time=$(since "$start")
    [ -z "$fz_sig" ] && [ "$rc" -gt 1 ] && fz_sig="exit-$rc"
}

md_code() { # TEXT -> `TEXT` with | escaped, leading blanks trimmed
    local t
    t=$(printf '%s' "$1" | sed 's/^[ \t]*//; s/|/\\|/g; s/`/'"'"'/g')
    printf '`%s`' "$t"
}

# one mutant: sets verdict, by, took
run_mutant() { # FILE LINE COL FROM TO
    local start log=$scratch/mutant.log
    verdict="" by="" took=""
    apply "$src" "$@" || { verdict=did-not-build; by="not applicable"; return; }
    if ! in_background ninja -C "$build" -j "$jobs" circ >"$log" 2>&1; then
        verdict=did-not-build; by="compiler error"
    elif cmp -s "$build/circ" "$scratch/circ.orig"; then
        verdict=survived; by="identical binary"
    elif start=$(now); ! corpus_check "$log"; then
        verdict=killed; by="corpus"; took=$(since "$start")
    else
        campaign "$log" 1 "$scratch/findings"
        if [ -n "$fz_sig" ]; then verdict=killed; by="fuzz $fz_sig"; took=$fz_time
        else verdict=survived; by="-"; fi
    fi
    restore
}

baseline_run() {
    ninja -C "$build" -j "$jobs" circ >"$scratch/build.log" 2>&1 ||
        die "the unmutated tree does not build, see $scratch/build.log"
    cp "$build/circ" "$scratch/circ.orig"
    rm -f "$scratch/known"
    corpus_check "$scratch/baseline.log" || die "corpus check fails unmutated, see $scratch/baseline.log"
    if [ "$baseline" = 1 ]; then
        echo "baseline: ${seconds} s campaign on the unmutated compiler" >&2
        campaign "$scratch/baseline.log" 0 "$scratch/baseline-findings"
        sed -n "s/.*new finding \([^ ]*\) ->.*/\1/p" "$scratch/baseline.log" >"$scratch/known"
    fi
}

if [ -z "$scratch" ]; then
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/mutants.XXXXXX")
    trap 'restore; rm -rf "$scratch"' EXIT
else
    mkdir -p "$scratch" && scratch=$(cd "$scratch" && pwd)
fi
src=$scratch/src build=$scratch/build
out=${out:-$scratch/results.md}
make_scratch
baseline_run

all_sites "$src" | select_sites "$count" "$seed" | tail -n +$((skip + 1)) >"$scratch/selected.tsv"
total=$(wc -l <"$scratch/selected.tsv")
killed=0 survived=0 unbuilt=0 identical=0 k=0
rows=$scratch/rows.md
: >"$rows"
while IFS=$'\t' read -r -u 3 id file line col kind from to; do
    k=$((k + 1))
    orig=$(sed -n "${line}p" "$src/$file")
    run_mutant "$file" "$line" "$col" "$from" "$to"
    mut=$(mutated_file "$src/$file" "$line" "$col" "$from" "$to" | sed -n "${line}p")
    case $verdict in
        killed) killed=$((killed + 1)) ;;
        survived) survived=$((survived + 1)); [ "$by" = "identical binary" ] && identical=$((identical + 1)) ;;
        *) unbuilt=$((unbuilt + 1)) ;;
    esac
    echo "[$k/$total] #$id $file:$line $kind '$from' -> '$to': $verdict ($by${took:+, $took s})" >&2
    printf '| %s | %s:%s | %s | %s | %s | %s | %s | %s |\n' "$id" "$file" "$line" "$kind" \
        "$(md_code "$orig")" "$(md_code "$mut")" "$verdict" "$by" "${took:--}" >>"$rows"
done 3<"$scratch/selected.tsv"

{
    echo "mutants: $total (after --skip $skip) of $(all_sites "$src" | wc -l) candidates, --seed $seed, --seconds $seconds," \
        "--jobs $jobs${only:+, --only $only}; tree $(cat "$scratch/HEAD")"
    [ -s "$scratch/known" ] && echo "baseline findings of the unmutated compiler: $(tr "\n" " " <"$scratch/known")(a mutant's finding counts only when the unmutated compiler passes its program)"
    echo
    echo "| id | site | kind | original | mutant | verdict | by | seconds to kill |"
    echo "|---|---|---|---|---|---|---|---|"
    cat "$rows"
    echo
    echo "$killed killed, $survived survived, $unbuilt did-not-build (of $total)"
    echo "$identical of the $survived survivors build an identical circ binary (equivalent)"
} >"$out"
cat "$out"
