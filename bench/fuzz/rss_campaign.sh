#!/bin/bash
# rss_campaign.sh CIRC [SECONDS] [JOBS] [ARGS...] — run `CIRC fuzz --seconds SECONDS
# --jobs JOBS ARGS` (default 600 s, 2 jobs, default settings otherwise) and sample the
# resident size (VmRSS of /proc/PID/status) of each worker (a child of the campaign
# process) every second.  Writes the samples to rss.tsv in the current folder
# (seconds, worker, pid, KiB) and prints, per worker, the mean RSS of the first and
# of the last minute, their ratio and the peak, then the mean of every minute: a
# worker whose memory grows over a long campaign shows a ratio above 1 and rising
# minutes.  (A worker's RSS is a sawtooth of a few seconds' period, its engines'
# translations piling up until each engine is replaced: means over a minute, not
# samples.)  A worker is a slot of the campaign, named by its processes
# (/proc/PID/comm `circ-worker-N`): the processes that follow one another in it
# (every --worker-programs programs, or after a crash or hang) count as one worker;
# each worker's line says how many processes it had.
set -uo pipefail
circ=$1
seconds=${2:-600}
jobs=${3:-2}
shift $(($# < 3 ? $# : 3))
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$circ" fuzz --seconds "$seconds" --jobs "$jobs" --out "$out/findings" "$@" >"$out/log" 2>&1 &
parent=$!
start=$(date +%s)
: >rss.tsv
while kill -0 "$parent" 2>/dev/null; do
    now=$(($(date +%s) - start))
    for pid in $(cat "/proc/$parent/task/$parent/children" 2>/dev/null); do
        kib=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
        comm=$(cat "/proc/$pid/comm" 2>/dev/null)
        [ -n "$kib" ] && [ -n "$comm" ] && printf '%s\t%s\t%s\t%s\n' "$now" "$comm" "$pid" "$kib" >>rss.tsv
    done
    sleep 1
done
wait "$parent"
status=$?
tail -n 3 "$out/log" | tr '\r' '\n' | grep -E 'done:|mismatch' | tail -n 2
awk -F'\t' -v end="$seconds" '
    { t[$2, ++n[$2]] = $1; k[$2, n[$2]] = $4; if (!($2 in first)) { first[$2] = $1; order[++np] = $2 }
      last[$2] = $1; if ($4 > peak[$2]) peak[$2] = $4
      if (!(($2, $3) in seen)) { seen[$2, $3] = 1; procs[$2]++ } }
    END {
        for (w = 1; w <= np; w++) {
            p = order[w]; a = b = na = nb = 0
            for (i = 1; i <= n[p]; i++) {
                if (t[p, i] < first[p] + 60) { a += k[p, i]; na++ }
                if (t[p, i] > last[p] - 60) { b += k[p, i]; nb++ }
            }
            printf "worker %s (%d processes): %d-%d s, first minute %.1f MiB, last minute %.1f MiB, ratio %.3f, peak %.1f MiB\n",
                   p, procs[p], first[p], last[p], a / na / 1024, b / nb / 1024, (b / nb) / (a / na), peak[p] / 1024
            printf "  minute by minute (MiB):"
            for (m = 0; m * 60 + first[p] <= last[p]; m++) {
                s = c = 0
                for (i = 1; i <= n[p]; i++)
                    if (t[p, i] >= first[p] + 60 * m && t[p, i] < first[p] + 60 * (m + 1)) { s += k[p, i]; c++ }
                if (c) printf " %.1f", s / c / 1024
            }
            printf "\n"
        }
    }' rss.tsv
exit "$status"
