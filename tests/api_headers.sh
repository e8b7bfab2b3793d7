#!/bin/bash
# api_headers.sh SOURCE OUT — the public headers (include/circ/circ.h with build.h and
# pass.h) compile as C11 with gcc and clang and as C++11 with g++ and clang++ (each
# where installed; gcc and one C++ compiler at least), with -Wall -Wextra -Werror
# -pedantic, and a C++ translation unit can call them (extern "C").
src="$1"; out="$2"
rm -rf "$out"; mkdir -p "$out"
fail=0
printf '#include <circ/circ.h>\nint main(void) { return circ_version_compatible(circ_version(), CIRC_VERSION) ? 0 : 1; }\n' \
    > "$out/use.c"
printf '#include <circ/circ.h>\nint main() {\n  circ_pass p = {"x", nullptr, [](circ_function *f, void *) { return (int)circ_gate_count(f); }, nullptr};\n  return p.run ? 0 : 1;\n}\n' \
    > "$out/use.cpp"
compiled=0
for cc in gcc clang; do
    command -v $cc > /dev/null || continue
    $cc -std=c11 -Wall -Wextra -Werror -pedantic -I"$src/include" -fsyntax-only "$out/use.c" ||
        { echo "FAIL: the headers as C11 with $cc"; fail=1; }
    compiled=$((compiled + 1))
done
cxx=0
for cxx_cc in g++ clang++; do
    command -v $cxx_cc > /dev/null || continue
    $cxx_cc -std=c++11 -Wall -Wextra -Werror -pedantic -I"$src/include" -fsyntax-only "$out/use.cpp" ||
        { echo "FAIL: the headers as C++11 with $cxx_cc"; fail=1; }
    cxx=$((cxx + 1))
done
[ $compiled -gt 0 ] && [ $cxx -gt 0 ] || { echo "FAIL: no C or no C++ compiler"; fail=1; }
[ $fail = 0 ] && echo "headers: C11 x $compiled, C++11 x $cxx: ok"
exit $fail
