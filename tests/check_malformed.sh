#!/usr/bin/env bash
# check_malformed.sh CIRC FILE... — every FILE is invalid Circuit IR: `circ verify FILE`
# must exit 1 (not crash, not 0 or 2) and print, for each header line
#   ; expect-error: LINE: TEXT
# a diagnostic that starts with FILE:LINE: and contains TEXT.  With the header line
#   ; expect-no-other-errors
# every diagnostic must also match one of the expectations.
set -u
if [ $# -lt 2 ]; then
    echo "usage: $0 CIRC FILE..." >&2
    exit 2
fi
circ=$1
shift
failed=0
for file in "$@"; do
    expectations=$(sed -n 's/^; *expect-error: *//p' "$file")
    if [ -z "$expectations" ]; then
        echo "FAIL $file: no '; expect-error: LINE: TEXT' line" >&2
        failed=1
        continue
    fi
    stderr=$("$circ" verify "$file" 2>&1 >/dev/null)
    status=$?
    if [ "$status" -ne 1 ]; then
        echo "FAIL $file: circ verify exited $status, expected 1" >&2
        [ "$status" -ge 128 ] && echo "  (crashed)" >&2
        printf '%s\n' "$stderr" | sed 's/^/  | /' >&2
        failed=1
        continue
    fi
    while IFS= read -r want; do
        line=${want%%:*}
        text=${want#*:}
        text=${text# }
        found=0
        while IFS= read -r diag; do
            if [[ "$diag" == "$file:$line:"* && "$diag" == *"$text"* ]]; then
                found=1
                break
            fi
        done <<<"$stderr"
        if [ "$found" -eq 0 ]; then
            echo "FAIL $file: no diagnostic at line $line containing: $text" >&2
            printf '%s\n' "$stderr" | sed 's/^/  | /' >&2
            failed=1
        fi
    done <<<"$expectations"
    if grep -q '^; *expect-no-other-errors' "$file"; then
        while IFS= read -r diag; do
            [[ "$diag" == "$file:"* ]] || continue
            expected=0
            while IFS= read -r want; do
                line=${want%%:*}
                text=${want#*:}
                text=${text# }
                if [[ "$diag" == "$file:$line:"* && "$diag" == *"$text"* ]]; then
                    expected=1
                    break
                fi
            done <<<"$expectations"
            if [ "$expected" -eq 0 ]; then
                echo "FAIL $file: unexpected diagnostic: $diag" >&2
                failed=1
            fi
        done <<<"$stderr"
    fi
done
exit $failed
