#!/bin/bash
# progress.sh CIRC SOURCE — the progress of long commands (fuzz/progress.h) when stderr
# is no terminal: plain periodic lines on stderr, none on stdout, no terminal escapes:
#   circ check of many files   `check: K/N files, F failed, T s`
#   circ gen --stats           `gen --stats: K/N programs, T s`
#   circ reduce                `reduce: G gates, C candidates tried, T s (STRATEGY)`
# and on a terminal (script(1) gives the command one) a line redrawn in place
# ("\r\033[K") instead.
circ="$1"; src="$2"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
plain() { # plain FILE: no carriage return, no escape
    ! grep -q $'[\r\033]' "$1"
}

# circ check of many files: every file of corpus/seeds and corpus/examples
files=("$src"/corpus/seeds/*.circ "$src"/corpus/examples/*.circ)
n=${#files[@]}
"$circ" check --status-interval 0.05 --no-native "${files[@]}" > "$T/out" 2> "$T/err"
lines=$(grep -cE "^check: [0-9]+/$n files, [0-9]+ failed, [0-9]+ s$" "$T/err")
[ "$lines" -ge 1 ] || bad "circ check of $n files printed no progress line: $(head -3 "$T/err")"
[ "$lines" -lt "$n" ] || echo "note: $lines progress lines for $n files"
grep -q "^check: " "$T/out" && bad "progress lines on stdout"
grep -q "^$n files checked, 0 failed$" "$T/out" || bad "the check's summary: $(tail -1 "$T/out")"
plain "$T/err" || bad "terminal escapes in circ check's plain progress"
echo "check: $lines progress lines for $n files, e.g. '$(grep -m1 '^check: ' "$T/err")'"
"$circ" check -q --status-interval 0.05 --no-native "${files[@]}" > /dev/null 2> "$T/err"
grep -q "^check: " "$T/err" && bad "circ check -q printed progress"

# gen --stats
"$circ" gen --stats --count 4000 --status-interval 0.02 > "$T/out" 2> "$T/err"
grep -qE "^gen --stats: [0-9]+/4000 programs, [0-9]+ s$" "$T/err" || bad "gen --stats printed no progress line"
plain "$T/err" || bad "terminal escapes in gen --stats' plain progress"

# reduce, with an external test
"$circ" gen --seed 5 --size 300 -o "$T/big.circ"
printf '#!/bin/sh\ngrep -q "= FMUL f64" "$1" && grep -q "= UITOFP f64" "$1"\n' > "$T/want.sh"
chmod +x "$T/want.sh"
"$circ" reduce "$T/big.circ" --test "$T/want.sh" --status-interval 0.01 -o "$T/small.circ" 2> "$T/err" ||
    bad "reduce exited $?"
grep -qE "^reduce: [0-9]+ gates, [0-9]+ candidates tried, [0-9.]+s \(" "$T/err" || bad "reduce printed no progress line"
grep -q "^reduce: done: " "$T/err" || bad "reduce's summary"
plain "$T/err" || bad "terminal escapes in reduce's plain progress"

# on a terminal: one line redrawn in place, erased at the end
if command -v script > /dev/null; then
    script -qec "'$circ' check --no-native ${files[*]} > '$T/tty.out'" "$T/tty.log" > /dev/null 2>&1
    grep -q $'\r\033\\[Kcheck: [0-9]*/'"$n"' files' "$T/tty.log" || bad "no redrawn progress line on a terminal"
    grep -q "^check: " "$T/tty.out" && bad "progress on stdout (redirected) under a terminal"
fi
[ $fail = 0 ] && echo "progress: ok"
exit $fail
