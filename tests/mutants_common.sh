# mutants_common.sh — sourced by the mutants_* tests: ROOT from $1, the script under
# test in $m, a temp dir $tmp removed at exit, and fail().
set -u
root=$1
m=$root/bench/mutants/mutants.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
