#!/bin/bash
# objects_disasm.sh CIRC FILE... — circ's ELF objects read back by binutils: for each
# file, target and level, `readelf -a` and `objdump -d` print no warning, objdump's
# function labels are the module's functions in order, and every instruction of
# `circ compile -S` is in objdump's disassembly at its offset with its bytes, and
# .text holds the bytes of --emit=bin.  A
# target whose objdump is not installed is skipped (said on the output).
set -u
circ=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
checked=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# "offset bytes" per instruction word of a listing (offsets without leading zeros)
listing_words() {
    grep -E '^  [0-9a-f]{6}: ' "$1" | sed -E 's/^  ([0-9a-f]{6}): (([0-9a-f]+ )+) .*/\1 \2/' |
    while read -r off rest; do
        set -- $rest
        if [ ${#1} -eq 8 ]; then # AArch64: words of 4 bytes
            for w in "$@"; do printf '%x %s\n' $((16#$off)) "$w"; off=$(printf '%x' $((16#$off + 4))); done
        else
            printf '%x %s\n' $((16#$off)) "$(echo "$rest" | tr -d ' ')"
        fi
    done
}

objdump_words() {
    grep -E $'^ *[0-9a-f]+:\t' "$1" | awk -F'\t' '{o = $1; sub(/^ */, "", o); sub(/:$/, "", o); b = $2; gsub(/ /, "", b); print o, b}'
}

check_one() { # FILE TARGET LEVEL OBJDUMP
    local f=$1 t=$2 lvl=$3 od=$4 name
    name="$(basename "$f") $t $lvl"
    "$circ" compile "$f" --target "$t" "$lvl" -o "$tmp/f.o" || { fail "$name: no object"; return; }
    "$circ" compile "$f" --target "$t" "$lvl" -S > "$tmp/f.S" || { fail "$name: no listing"; return; }
    readelf -a "$tmp/f.o" > "$tmp/re.out" 2> "$tmp/re.err"
    [ -s "$tmp/re.err" ] && fail "$name: readelf says $(head -2 "$tmp/re.err")"
    grep -qi 'warning' "$tmp/re.out" && fail "$name: readelf warns: $(grep -i warning "$tmp/re.out" | head -2)"
    $od -d -z --insn-width=16 "$tmp/f.o" > "$tmp/od.out" 2> "$tmp/od.err"
    [ -s "$tmp/od.err" ] && fail "$name: objdump says $(head -2 "$tmp/od.err")"
    grep -q '(bad)' "$tmp/od.out" && fail "$name: objdump cannot decode an instruction"
    diff <(grep -E '^@' "$tmp/f.S" | sed 's/^@//; s/:$//') \
         <(grep -E '^[0-9a-f]+ <.*>:$' "$tmp/od.out" | sed -E 's/^[0-9a-f]+ <(.*)>:$/\1/') > /dev/null ||
        fail "$name: objdump's function labels differ from the module's functions"
    "$circ" compile "$f" --target "$t" "$lvl" --emit=bin -o "$tmp/f.bin" || fail "$name: no --emit=bin"
    "${od%objdump}objcopy" -O binary --only-section=.text "$tmp/f.o" "$tmp/text.bin" 2> /dev/null &&
        { cmp -s "$tmp/f.bin" "$tmp/text.bin" || fail "$name: .text is not the --emit=bin bytes"; }
    listing_words "$tmp/f.S" > "$tmp/l.words"
    objdump_words "$tmp/od.out" | sort > "$tmp/o.words"
    local missing
    missing=$(sort "$tmp/l.words" | comm -23 - "$tmp/o.words" | head -3)
    [ -n "$missing" ] && fail "$name: instructions of -S not in objdump's disassembly: $missing"
    [ -s "$tmp/l.words" ] || fail "$name: an empty listing"
    checked=$((checked + 1))
}

for t in x86-64 arm64; do
    od=objdump
    [ "$t" = arm64 ] && od=aarch64-linux-gnu-objdump
    if ! command -v "$od" > /dev/null; then echo "skipped $t: no $od"; continue; fi
    for f in "$@"; do
        for lvl in -O0 -O2; do check_one "$f" "$t" "$lvl" "$od"; done
    done
done
echo "$checked objects read back, $fails failures"
[ "$checked" -gt 0 ] && [ "$fails" -eq 0 ]
