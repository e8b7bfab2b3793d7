#!/bin/bash
# plugin_version.sh CIRC SOURCE OUT CC — a plugin built against headers of another API
# version (examples/plugin/plugin.c with the headers' major version raised, and with
# their minor version raised) is refused by circ with a message naming both versions
# and exit status 2; the same source built against the real headers loads.
circ="$1"; src="$2"; out="$3"; cc="$4"
rm -rf "$out"; mkdir -p "$out"
die() { echo "FAIL: $*"; cat "$out/last.log" 2> /dev/null; exit 1; }
major=$(sed -nE 's/^#define CIRC_VERSION_MAJOR ([0-9]+)/\1/p' "$src/include/circ/circ.h")
minor=$(sed -nE 's/^#define CIRC_VERSION_MINOR ([0-9]+)/\1/p' "$src/include/circ/circ.h")
build_plugin() { # build_plugin NAME MAJOR MINOR
    mkdir -p "$out/$1/circ"
    cp "$src"/include/circ/*.h "$out/$1/circ/"
    sed -i -E "s/^#define CIRC_VERSION_MAJOR [0-9]+/#define CIRC_VERSION_MAJOR $2/;
               s/^#define CIRC_VERSION_MINOR [0-9]+/#define CIRC_VERSION_MINOR $3/" "$out/$1/circ/circ.h"
    "$cc" -std=c11 -Wall -Wextra -Werror -shared -fPIC -I"$out/$1" -o "$out/$1.so" \
        "$src/examples/plugin/plugin.c" > "$out/last.log" 2>&1 || die "building the $1 plugin"
}
build_plugin same "$major" "$minor"
"$circ" opt --list-passes --load-pass-plugin="$out/same.so" > "$out/last.log" 2>&1 ||
    die "the plugin built for this API is refused"
grep -q example-swap-sub "$out/last.log" || die "its passes are not listed"
for v in "$((major + 1)) $minor" "$major $((minor + 1))"; do
    set -- $v
    build_plugin "v$1.$2" "$1" "$2"
    "$circ" opt --list-passes --load-pass-plugin="$out/v$1.$2.so" > "$out/last.log" 2>&1
    rc=$?
    [ $rc = 2 ] || die "a plugin for API $1.$2: exit $rc, not 2"
    want="was built for circ API $1.$2, this circ is $major.$minor"
    grep -q "$want" "$out/last.log" || die "the message does not say '$want'"
    grep -q example-swap-sub "$out/last.log" && die "a refused plugin's passes are listed"
    echo "refused: $(cat "$out/last.log")"
done
"$circ" opt --list-passes --load-pass-plugin="$out/none.so" > "$out/last.log" 2>&1
[ $? = 2 ] && grep -q "cannot load plugin" "$out/last.log" || die "a missing plugin file"
echo "plugin versions: ok"
