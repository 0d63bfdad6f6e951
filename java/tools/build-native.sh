#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The native half of the Java provider (docs/JAVA.md): libfastsm2.a built
# -fPIC by the repository's CMake build (the library only: no CLI, tests,
# benchmark or CUDA), then the JNI glue java/src/main/c/fastsm2jni.c linked
# with it into one self-contained libfastsm2jni.so per platform, laid out as
# the jar carries them:
#   build-java-native/res/fastsm2/native/linux-x86_64/libfastsm2jni.so
#   build-java-native/res/fastsm2/native/linux-aarch64/libfastsm2jni.so
# usage: java/tools/build-native.sh [x86_64] [aarch64]
#   Default: this machine's architecture, and linux-aarch64 as well on an
#   x86-64 machine where the cross compiler aarch64-linux-gnu-gcc is found
#   (a message says so when it is not). An architecture named is required:
#   its build fails when its compiler is missing. Installs nothing; with
#   FS2_JAVA_NEED_AARCH64=1 (make test-java) the cross compiler is installed
#   when missing (tools/apt-install.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
OUT=build-java-native
JOBS=${JOBS:-2}
HOST=$(uname -m)
ARCHES=("$@")
ASKED=${#ARCHES[@]}
if [ "$ASKED" -eq 0 ]; then
  ARCHES=("$HOST")
  if [ "$HOST" = x86_64 ]; then
    if command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || [ "${FS2_JAVA_NEED_AARCH64:-0}" = 1 ]; then
      ARCHES+=(aarch64)
    else
      echo "build-native: aarch64-linux-gnu-gcc not found: the jar holds linux-x86_64 only (install gcc-aarch64-linux-gnu, or name aarch64, for both)" >&2
    fi
  fi
fi
GEN=""
command -v ninja >/dev/null 2>&1 && GEN="-G Ninja"

# JNI headers: jni.h and linux/jni_md.h (the same for both architectures).
if [ -z "${JAVA_HOME:-}" ] || [ ! -f "$JAVA_HOME/include/jni.h" ]; then
  JAVAC=$(readlink -f "$(command -v javac)")
  JAVA_HOME=$(dirname "$(dirname "$JAVAC")")
fi
[ -f "$JAVA_HOME/include/jni.h" ] || { echo "build-native: no jni.h under $JAVA_HOME (install a JDK)" >&2; exit 1; }
JNI_INC=(-I"$JAVA_HOME/include" -I"$JAVA_HOME/include/linux")

build_one() { # arch cc toolchain-args...
  local arch=$1 cc=$2
  shift 2
  local b=$OUT/lib-$arch
  mkdir -p "$OUT"
  nice -n 10 cmake -S . -B "$b" $GEN -DCMAKE_BUILD_TYPE=Release -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
    -DFASTSM2_TESTS=OFF -DFASTSM2_BENCH=OFF -DFASTSM2_CLI=OFF -DFASTSM2_INSTALL=OFF -DFASTSM2_CTIME=OFF \
    -DFASTSM2_PROVIDER=OFF -DFASTSM2_CUDA=OFF "$@" >"$b.cmake.log" 2>&1 || { cat "$b.cmake.log" >&2; exit 1; }
  nice -n 10 cmake --build "$b" --target fastsm2_static -j "$JOBS" >"$b.build.log" 2>&1 || { cat "$b.build.log" >&2; exit 1; }
  local lib
  lib=$(find "$b" -name libfastsm2.a | head -n 1)
  local dest=$OUT/res/fastsm2/native/linux-$arch
  mkdir -p "$dest"
  # -Wl,--exclude-libs,ALL: the library's own symbols stay inside the .so;
  # only the Java_org_fastsm2_internal_Native_* entry points are exported.
  nice -n 10 "$cc" -shared -fPIC -O2 -std=c11 -Wall -Wextra -Werror -fvisibility=hidden \
    "${JNI_INC[@]}" -I"$ROOT/include" java/src/main/c/fastsm2jni.c "$lib" \
    -o "$dest/libfastsm2jni.so" -pthread -Wl,--exclude-libs,ALL -Wl,-z,noexecstack -Wl,-z,defs -Wl,-O1 -s
  echo "build-native: $dest/libfastsm2jni.so ($(stat -c %s "$dest/libfastsm2jni.so") bytes)"
}

# a library of an architecture not built now would be stale in the jar
for d in "$OUT"/res/fastsm2/native/linux-*; do
  [ -d "$d" ] || continue
  case " ${ARCHES[*]} " in *" ${d##*/linux-} "*) ;; *) rm -rf "$d" ;; esac
done
for a in "${ARCHES[@]}"; do
  case $a in
    "$HOST") build_one "$a" "${CC:-cc}" ;;
    aarch64)
      if ! command -v aarch64-linux-gnu-gcc >/dev/null 2>&1; then
        if [ "${FS2_JAVA_NEED_AARCH64:-0}" = 1 ]; then
          bash tools/apt-install.sh build-native gcc-aarch64-linux-gnu libc6-dev-arm64-cross
        else
          echo "build-native: aarch64-linux-gnu-gcc missing: cannot build linux-aarch64 (apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross)" >&2
          exit 1
        fi
      fi
      build_one aarch64 aarch64-linux-gnu-gcc -DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/aarch64-linux-gnu.cmake" ;;
    *) echo "build-native: cannot build $a on $HOST (x86-64 builds x86_64 and, cross, aarch64)" >&2; exit 2 ;;
  esac
done
