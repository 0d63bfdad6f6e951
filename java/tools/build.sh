#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Java provider (docs/JAVA.md), from the repository root's Makefile:
#   java/tools/build.sh jar    `make java`: the native library of this machine
#                              (and linux-aarch64 too where the cross compiler
#                              is found, or when JAVA_ARCHES="x86_64 aarch64"
#                              asks for it) and java/target/fastsm2-jca.jar;
#                              installs nothing: says what is missing
#   java/tools/build.sh stress `make test-java-stress`: StressTest (16 threads,
#                              shared and per-thread keys, a key destroyed
#                              mid-use, results against a one-thread
#                              reference) for JAVA_STRESS_SECONDS (60)
#   java/tools/build.sh test   `make test-java`: the same, the JUnit suite on
#                              JDK 17 (Maven's JDK), again on the newest other
#                              JDK >= 21 found (Temurin 25 here), the aarch64
#                              glue checked under qemu, and the README example
#                              run from the jar alone in an empty directory
# `test` installs what a fresh Debian machine lacks (a JDK, Maven, the
# aarch64 cross compiler and qemu-user); Maven's downloads are cached in ~/.m2.
set -euo pipefail
cd "$(dirname "$0")/../.."
what=${1:-jar}
have() { command -v "$1" >/dev/null 2>&1; }
need=()
have javac || need+=(openjdk-17-jdk-headless)
have mvn || need+=(maven)
if [ "$what" = test ]; then
  have aarch64-linux-gnu-gcc || need+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
  have qemu-aarch64 || have qemu-aarch64-static || need+=(qemu-user)
  [ ${#need[@]} -eq 0 ] || bash tools/apt-install.sh java "${need[@]}"
elif [ ${#need[@]} -gt 0 ]; then
  echo "java: missing ${need[*]} (Debian: apt-get install ${need[*]}; make test-java installs them)" >&2
  exit 1
fi

t0=$(date +%s)
if [ "$what" = test ]; then
  FS2_JAVA_NEED_AARCH64=1 bash java/tools/build-native.sh x86_64 aarch64
else
  # shellcheck disable=SC2086
  bash java/tools/build-native.sh ${JAVA_ARCHES:-}
fi
MVN=(mvn -B -q -Dstyle.color=never -f java/pom.xml)
case $what in
  jar)
    nice -n 10 "${MVN[@]}" -DskipTests package
    ls -l java/target/fastsm2-jca.jar
    ;;
  test)
    # JDK 17 (or whatever runs Maven): the build and the suite
    nice -n 10 "${MVN[@]}" package
    bash java/tools/report.sh java/target/surefire-reports "$(java -version 2>&1 | head -n 1)"
    # the newest other JDK >= 21 on this machine: the same compiled tests
    other=""
    for j in /usr/lib/jvm/*/bin/java /opt/*/bin/java; do
      [ -x "$j" ] || continue
      v=$("$j" -XshowSettings:properties -version 2>&1 | sed -n 's/ *java.specification.version = //p')
      case $v in 2[1-9] | [3-9][0-9]) other=$j ;; esac
    done
    if [ -n "$other" ]; then
      rm -rf java/target/surefire-reports
      # GB/T 32907 A.2 (a million chained JNI calls) ran on the first JDK already
      nice -n 10 "${MVN[@]}" surefire:test -Djvm="$other" -Dfastsm2.test.a2=false
      bash java/tools/report.sh java/target/surefire-reports "$("$other" -version 2>&1 | head -n 1)"
    else
      echo "test-java: no JDK >= 21 found: the suite ran on $(java -version 2>&1 | head -n 1) only (SKIPPED on JDK 21+)"
    fi
    bash java/tools/check-aarch64.sh
    bash java/tools/test-example.sh
    ;;
  stress)
    rm -rf java/target/surefire-reports
    nice -n 10 "${MVN[@]}" test -Dtest=StressTest -Dsurefire.failIfNoSpecifiedTests=false \
      -Dfastsm2.stress.seconds="${JAVA_STRESS_SECONDS:-60}"
    bash java/tools/report.sh java/target/surefire-reports "$(java -version 2>&1 | head -n 1)"
    ;;
  *) echo "usage: $0 jar|test|stress" >&2; exit 2 ;;
esac
echo "java: $what done in $(( $(date +%s) - t0 )) s"
