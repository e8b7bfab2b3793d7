#!/bin/bash
# report_render.sh — the campaign report (`circ fuzz --report`, fuzz/report.h) of a
# fixed-seed campaign with a planted wrong pass, rendered by headless Chromium.
# Usage: report_render.sh REPORT_CAMPAIGN WORKDIR SECONDS
# Checks: while the campaign runs, report.json is there and says "running"; at the end
# report.json, the page's DOM and the terminal summary give the same totals; every
# finding of report.json is in the page with its reproducer and picture, and its
# reproduce command reproduces it; every chart has drawn data; the page loads nothing
# from elsewhere and Chromium logs no console message.  WORKDIR/report.png is the
# screenshot (kept).  Exit 77 (skipped) when chromium is not installed.
set -u
bin=$1 work=$2 seconds=$3
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
    echo "SKIP: chromium is not installed (scripts/deps.sh installs it)"
    exit 77
fi
fail=0
bad() { echo "FAIL: $*"; fail=1; }

rm -rf "$work" && mkdir -p "$work" || exit 2
json=$work/report/report.json html=$work/report/report.html

# ---- the campaign, watched while it runs ----
"$bin" fuzz "$seconds" "$work/findings" "$work/report" 2>"$work/terminal.txt" &
pid=$!
live=""
for _ in $(seq 1 $((seconds * 4))); do
    sleep 0.5
    if grep -q '"status": "running"' "$json" 2>/dev/null &&
       sed -n '/"summary": {/,/^  },/p' "$json" | grep -Eq '^    "programs": [1-9]'; then
        live=yes; cp "$json" "$work/live.json"; break
    fi
done
wait $pid
rc=$?
cat "$work/terminal.txt"
[ "$live" = yes ] || bad "report.json was not rewritten with programs while the campaign ran"
[ $rc -eq 1 ] || bad "the campaign with the wrong pass exited $rc, not 1 (mismatches found)"
[ -s "$json" ] && [ -s "$html" ] || { bad "no report.json or report.html"; exit 1; }
grep -q '"status": "finished"' "$json" || bad "report.json does not say finished"

# ---- the totals: report.json = terminal summary ----
summary() { sed -n '/"summary": {/,/^  },/p' "$json" | sed -n "s/^    \"$1\": \([0-9.]*\),\?$/\1/p"; }
done_line=$(grep '^done: ' "$work/terminal.txt")
[ -n "$done_line" ] || bad "no summary line in the terminal output"
term() { echo "$done_line" | sed -n "s|.*[ (]\([0-9.]*\) $1.*|\1|p" | head -1; }  # the last "N WORD"
for pair in "programs:programs" "mismatches:mismatches" "signatures:signatures" "crashes:crashes" \
            "hangs:hangs" "elapsed:s," "execs_per_sec:execs/s"; do
    key=${pair%%:*} word=${pair#*:}
    j=$(summary "$key") t=$(term "$word")
    [ -n "$j" ] && [ "$j" = "$t" ] || bad "$key: report.json says '$j', the terminal summary '$t'"
done
[ "$(summary signatures)" -ge 1 ] 2>/dev/null || bad "the planted wrong pass was not found"

# ---- the page in Chromium ----
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
       --disable-component-update --disable-sync --disable-dev-shm-usage --enable-logging=stderr --v=0)
timeout 120 "$chromium" "${flags[@]}" --user-data-dir="$(mktemp -d)" --dump-dom "file://$html" \
    >"$work/dom.html" 2>"$work/chromium.log" || bad "chromium --dump-dom failed"
timeout 120 "$chromium" "${flags[@]}" --user-data-dir="$(mktemp -d)" --screenshot="$work/report.png" \
    --window-size=1280,2000 "file://$html" >/dev/null 2>>"$work/chromium.log" || bad "chromium --screenshot failed"
[ -s "$work/report.png" ] || bad "no screenshot"
grep -q '</html>' "$work/dom.html" || bad "the DOM dump is incomplete"
if grep -E ':CONSOLE|Uncaught' "$work/chromium.log"; then bad "console messages while rendering"; fi
if grep -Eiq '<script|<link|<iframe|<img|(src|href)="?(https?:)?//' "$html"; then
    bad "the page loads something (script, link, image or a remote address)"
fi

# every total of the page is report.json's
for key in elapsed programs programs_per_sec execs execs_per_sec mismatches signatures crashes hangs unsaved; do
    d=$(grep -o "data-key=\"$key\">[^<]*" "$work/dom.html" | head -1 | sed 's/.*>//')
    j=$(summary "$key")
    [ -n "$d" ] && [ "$d" = "$j" ] || bad "$key: the page says '$d', report.json '$j'"
done
grep -q 'data-key="status">finished' "$work/dom.html" || bad "the page does not say finished"

# every finding of report.json is listed, with its reproducer and picture; the
# mismatches per finding add up; each reproduce command reproduces its finding
mapfile -t sigs < <(sed -n 's/^      "signature": "\(.*\)",$/\1/p' "$json")
[ ${#sigs[@]} -eq "$(summary signatures)" ] || bad "${#sigs[@]} findings in report.json, $(summary signatures) signatures"
for s in "${sigs[@]}"; do
    article=$(awk -v RS='</article>' -v s="data-signature=\"$s\"" 'index($0, s) { print; exit }' "$work/dom.html")
    [ -n "$article" ] || { bad "finding $s is not in the page"; continue; }
    echo "$article" | grep -q '<pre>' || bad "finding $s has no reproducer text"
    if command -v dot >/dev/null; then
        echo "$article" | grep -q '<svg class="graph"' || bad "finding $s has no picture"
    fi
done
hits=$(grep -o '"first_seen": [0-9.]*, "mismatches": [0-9]*' "$json" | awk '{ n += $4 } END { print n + 0 }')
[ "$hits" = "$(summary mismatches)" ] || bad "the findings' mismatches add up to $hits, not $(summary mismatches)"
while read -r cmd; do
    bash -c "$cmd" >/dev/null 2>&1
    [ $? -eq 1 ] || bad "'$cmd' does not reproduce its finding"
done < <(sed -n 's/^      "command": "\(.*\)",$/\1/p' "$json")

# every chart is drawn: each <svg class="chart"> has data elements
for chart in throughput outcomes findings check-phases worker-cpu; do
    n=$(awk -v RS='</svg>' -v c="data-chart=\"$chart\"" 'index($0, c) { print }' "$work/dom.html" |
        grep -o 'class="data"' | wc -l)
    [ "$n" -ge 1 ] || bad "chart $chart has no data drawn"
done
[ "$(grep -o '<svg class="chart"' "$work/dom.html" | wc -l)" -eq 5 ] || bad "not 5 charts in the page"
grep -q 'data-opcode="SUB"' "$work/dom.html" || bad "no coverage row for SUB"

[ $fail -eq 0 ] && echo "report ok: ${#sigs[@]} finding(s), screenshot $work/report.png"
exit $fail
