#!/bin/bash -eu
# build.sh — builds circ's libFuzzer targets inside the OSS-Fuzz / ClusterFuzzLite
# base-builder image: $CC, $CFLAGS (the sanitizer of the build) and
# $LIB_FUZZING_ENGINE come from the environment; the targets, their seed corpora
# (zipped), their .options files and the text target's dictionary go to $OUT.
#   fuzz_diff fuzz_passes fuzz_text fuzz_encode fuzz_elf_load
SRC_DIR=${SRC_DIR:-$SRC/circ}
cd "$SRC_DIR"

cmake -S . -B build-ossfuzz -G Ninja \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_COMPILER="$CC" -DCMAKE_C_FLAGS="$CFLAGS" \
      -DCIRC_LIBFUZZER=ON -DCIRC_FUZZ_ENGINE="$LIB_FUZZING_ENGINE"
ninja -C build-ossfuzz fuzz_diff fuzz_passes fuzz_text fuzz_encode fuzz_elf_load

for t in fuzz_diff fuzz_passes fuzz_text fuzz_encode fuzz_elf_load; do
    cp "build-ossfuzz/$t" "$OUT/"
    if [ -d "corpus/seeds/$t" ]; then
        (cd "corpus/seeds/$t" && zip -q -r "$OUT/${t}_seed_corpus.zip" .)
    fi
done
cp corpus/circ.dict "$OUT/fuzz_text.dict"
# libFuzzer flags per target (fuzz_diff, fuzz_passes: no leak detection, see the files)
cp scripts/oss-fuzz/*.options "$OUT/"
# Unicorn and Capstone are shared libraries: ship them beside the targets
mkdir -p "$OUT/lib"
for lib in libunicorn.so.2 libcapstone.so.4; do
    path=$(ldconfig -p | awk -v l="$lib" '$1 == l { print $NF; exit }')
    [ -n "$path" ] && cp "$path" "$OUT/lib/"
done
for t in fuzz_diff fuzz_passes fuzz_text fuzz_encode fuzz_elf_load; do
    patchelf --set-rpath '$ORIGIN/lib' "$OUT/$t" 2>/dev/null || true
done
