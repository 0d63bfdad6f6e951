#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The linux-aarch64 library of the jar, without an arm64 JDK: its exported
# JNI entry points against the Java class's native methods, its dependencies
# (libc only), and java/tools/jni-harness.c cross-built and run under
# qemu-aarch64: it dlopens the library and calls the glue through a minimal
# JNIEnv (SM3, the GB/T example key, sign/verify, every ciphertext layout,
# a batch, refused inputs). The x86-64 library gets the same harness natively.
set -euo pipefail
cd "$(dirname "$0")/../.."
R=build-java-native/res/fastsm2/native
B=build-java-native/harness
mkdir -p "$B"
JAVA_HOME=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}
INC=(-I"$JAVA_HOME/include" -I"$JAVA_HOME/include/linux")
# every native method declared in Native.java has its symbol, in both libraries
want=$(sed -n 's/.*static native [^ ]* \([a-zA-Z0-9]*\)(.*/Java_org_fastsm2_internal_Native_\1/p' java/src/main/java/org/fastsm2/internal/Native.java | sort)
for a in x86_64 aarch64; do
  so=$R/linux-$a/libfastsm2jni.so
  [ -f "$so" ] || { echo "check-aarch64: $so missing" >&2; exit 1; }
  have=$(nm -D --defined-only "$so" | awk '$2 == "T" {print $3}' | sort)
  if [ "$want" != "$have" ]; then
    echo "check-aarch64: exported symbols of $so differ from Native.java's native methods:" >&2
    diff <(echo "$want") <(echo "$have") >&2 || true
    exit 1
  fi
  deps=$(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
  echo "check-aarch64: linux-$a: $(echo "$want" | wc -l) JNI symbols, needs: $deps($(file -b "$so" | cut -d, -f1-2))"
done
cc -O1 -std=c11 -Wall "${INC[@]}" java/tools/jni-harness.c -o "$B/harness-x86_64" -ldl
"$B/harness-x86_64" "$R/linux-x86_64/libfastsm2jni.so"
aarch64-linux-gnu-gcc -O1 -std=c11 -Wall "${INC[@]}" java/tools/jni-harness.c -o "$B/harness-aarch64" -ldl
QEMU=$(command -v qemu-aarch64 || command -v qemu-aarch64-static)
# The guest C library: Debian's multiarch libc6:arm64, not the cross
# sysroot's (qemu -L with the sysroot's loader hangs threaded programs in
# Debian 12, as tools/test-aarch64.sh notes); installed when missing.
if [ ! -e /lib/ld-linux-aarch64.so.1 ]; then
  dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
  bash tools/apt-install.sh check-aarch64 libc6:arm64
fi
for cpu in max cortex-a72; do
  echo "check-aarch64: qemu-aarch64 -cpu $cpu"
  QEMU_CPU=$cpu timeout 300 "$QEMU" "$B/harness-aarch64" "$R/linux-aarch64/libfastsm2jni.so"
done
