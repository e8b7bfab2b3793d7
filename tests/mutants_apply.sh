#!/usr/bin/env bash
# mutants_apply.sh ROOT — bench/mutants/mutants.sh --try in a temp copy of compiler/:
# while the command runs exactly the mutant's line is changed, as listed; afterwards
# the file is restored byte for byte, also when the script is killed mid-command.
source "$(dirname "$0")/mutants_common.sh"
cp -a "$root/compiler" "$tmp/compiler"

for seed in 3 4; do
    IFS=$'\t' read -r id file line col _ from to < <("$m" --tree "$tmp" --list -n 1 --seed "$seed")
    [ -n "$id" ] || fail "no mutant for seed $seed"
    orig=$(sed -n "${line}p" "$root/$file")
    want="${orig:0:col-1}$to${orig:col-1+${#from}}"
    # during the command: the line is the mutant and nothing else changed
    "$m" --tree "$tmp" --try "$id" -- bash -c '
        [ "$(sed -n "$3p" "$1")" = "$4" ] || exit 3
        [ "$(diff "$1" "$2" | grep -c "^[<>]")" -eq 2 ] || exit 4
        exit 7' _ "$tmp/$file" "$root/$file" "$line" "$want"
    rc=$?
    [ $rc -eq 7 ] || fail "mutant $id ($file:$line '$from' -> '$to'): command saw rc $rc"
    cmp "$tmp/$file" "$root/$file" || fail "$file not restored after mutant $id"
done

# killed while the command runs: the trap restores the file
"$m" --tree "$tmp" --try "$id" -- bash -c 'kill -TERM $PPID; sleep 2'
rc=$?
[ $rc -eq 143 ] || fail "--try killed by SIGTERM exited $rc"
cmp "$tmp/$file" "$root/$file" || fail "$file not restored after SIGTERM"
diff -r "$root/compiler" "$tmp/compiler" >/dev/null || fail "the copy of compiler/ changed"
echo "ok"
