# aarch64-linux-gnu.cmake — the CMake toolchain file of the ARM64-host build
# (docs/hosts.md): Debian's cross compiler (gcc-aarch64-linux-gnu) and the arm64
# multiarch libraries (libunicorn-dev:arm64, libcapstone-dev:arm64) in
# /usr/lib/aarch64-linux-gnu; the programs run under `qemu-aarch64 -L /`.
#   cmake -S . -B build-arm64 -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
#         -DCIRC_HOST_SUBSET=ON -DCIRC_Z3=OFF -DCIRC_LTO=OFF
# The top-level CMakeLists.txt does not include this file as a fragment.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# headers are the same for both architectures (/usr/include); libraries only from
# the arm64 directories, programs (ninja, qemu) from the build machine
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu /)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /)
