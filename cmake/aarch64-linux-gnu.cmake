# SPDX-License-Identifier: Apache-2.0
# Cross-compile for 64-bit ARM Linux with Debian's gcc-aarch64-linux-gnu and
# run the built programs (ctest's test executables) under qemu-aarch64 in user
# mode. Used by tests/harness/test-aarch64.sh:
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
# Libraries for the target (libssl-dev:arm64) come from Debian's multiarch
# directories; the build-time tools (python3 for the table generator) are
# the host's. qemu's CPU model comes from the environment (QEMU_CPU; qemu's
# default is max, which has the ARMv8.2 SM3 instructions; cortex-a72 has
# ASIMD but no SM3).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(FS2_CROSS_TRIPLE aarch64-linux-gnu)

set(CMAKE_C_COMPILER ${FS2_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${FS2_CROSS_TRIPLE}-g++) # tests/gpu (host-side C++ test)
set(CMAKE_AR ${FS2_CROSS_TRIPLE}-ar CACHE FILEPATH "")
set(CMAKE_RANLIB ${FS2_CROSS_TRIPLE}-ranlib CACHE FILEPATH "")

# Debian multiarch: the arm64 libraries live in /usr/lib/aarch64-linux-gnu,
# their headers in /usr/include (+ /usr/include/aarch64-linux-gnu).
set(CMAKE_LIBRARY_ARCHITECTURE ${FS2_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH /usr/${FS2_CROSS_TRIPLE} /usr)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(OPENSSL_ROOT_DIR /usr)
set(OPENSSL_CRYPTO_LIBRARY /usr/lib/${FS2_CROSS_TRIPLE}/libcrypto.so CACHE FILEPATH "")
set(OPENSSL_SSL_LIBRARY /usr/lib/${FS2_CROSS_TRIPLE}/libssl.so CACHE FILEPATH "")
set(OPENSSL_INCLUDE_DIR /usr/include CACHE PATH "")

# The guest's C library: Debian's multiarch libc6:arm64 (a dependency of
# libssl3:arm64) when present, which puts the arm64 loader at
# /lib/ld-linux-aarch64.so.1; else the cross sysroot (qemu -L). Never a mix:
# -L with both installed loads the sysroot's ld.so with the multiarch
# libc.so.6, and when their versions differ threaded programs hang.
find_program(FS2_QEMU NAMES qemu-aarch64 qemu-aarch64-static)
if(FS2_QEMU)
  if(EXISTS /lib/ld-linux-aarch64.so.1)
    set(CMAKE_CROSSCOMPILING_EMULATOR ${FS2_QEMU})
  else()
    set(CMAKE_CROSSCOMPILING_EMULATOR ${FS2_QEMU};-L;/usr/${FS2_CROSS_TRIPLE})
  endif()
endif()
