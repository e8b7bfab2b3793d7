#!/bin/bash
# install.sh BUILD SOURCE OUT CC [FLAGS] — `cmake --install BUILD --prefix OUT/prefix`
# (FLAGS: what consumers of this build compile and link with, e.g. the sanitizers), then:
# the installed tree has the tool, libcirc.a, libcirc.so with its SONAME, the header,
# circ.pc and the CMake package; examples/consumer builds with
# `pkg-config --cflags --libs circ` and with find_package(circ CONFIG) and runs; the
# header compiles as C11 and as C++ with -Wall -Wextra -Werror.
build="$1"; src="$2"; out="$3"; cc="$4"; flags="$5"
rm -rf "$out"; mkdir -p "$out"
prefix="$out/prefix"
fail=0
check() { # check WHAT COMMAND...
    local what="$1"; shift
    if ! "$@" > "$out/last.log" 2>&1; then echo "FAIL: $what"; cat "$out/last.log"; fail=1; fi
}
check "cmake --install" cmake --install "$build" --prefix "$prefix"
libdir=$(ls -d "$prefix"/lib* | head -1)
for f in "$prefix/bin/circ" "$libdir/libcirc.a" "$prefix/include/circ/circ.h" "$libdir/pkgconfig/circ.pc" \
         "$libdir/cmake/circ/circConfig.cmake"; do
    [ -e "$f" ] || { echo "FAIL: $f not installed"; fail=1; }
done
soname=$(objdump -p "$libdir/libcirc.so" 2>/dev/null | awk '/SONAME/ {print $2}')
[ "$soname" = "libcirc.so.1" ] || { echo "FAIL: SONAME '$soname', want libcirc.so.1"; fail=1; }
"$prefix/bin/circ" --help > /dev/null 2>&1 || { echo "FAIL: the installed circ does not run"; fail=1; }

# pkg-config, shared
export PKG_CONFIG_PATH="$libdir/pkgconfig"
check "pkg-config build" "$cc" $flags -std=c11 -Wall -Wextra -Werror -o "$out/consumer-pc" "$src/examples/consumer/main.c" \
    $(pkg-config --cflags --libs circ) -Wl,-rpath,"$libdir"
check "pkg-config consumer runs" "$out/consumer-pc"
grep -q "after -O2: return 42" "$out/last.log" || { echo "FAIL: pkg-config consumer output"; cat "$out/last.log"; fail=1; }
# pkg-config, static
check "pkg-config --static build" "$cc" $flags -std=c11 -o "$out/consumer-static" "$src/examples/consumer/main.c" \
    $(pkg-config --cflags circ) -L"$libdir" -Wl,-Bstatic -lcirc -Wl,-Bdynamic \
    $(pkg-config --libs-only-l --static circ | sed 's/-lcirc //')
check "static consumer runs" "$out/consumer-static"
# find_package
check "find_package configure" cmake -S "$src/examples/consumer" -B "$out/consumer-build" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$flags"
check "find_package build" cmake --build "$out/consumer-build"
check "find_package consumer runs" "$out/consumer-build/consumer"
# the header as C11 and as C++
check "header as C11" "$cc" -std=c11 -Wall -Wextra -Werror -pedantic -fsyntax-only -x c "$prefix/include/circ/circ.h"
if command -v c++ > /dev/null; then
    echo '#include <circ/circ.h>
int main() { return circ_version() == CIRC_VERSION ? 0 : 1; }' > "$out/api.cpp"
    check "header as C++" c++ -std=c++11 -Wall -Wextra -Werror -pedantic -I"$prefix/include" -fsyntax-only "$out/api.cpp"
fi
[ $fail = 0 ] && echo "install and consumer: ok"
exit $fail
