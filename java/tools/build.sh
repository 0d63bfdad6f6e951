#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Java provider (docs/JAVA.md), from the repository root's Makefile:
#   java/tools/build.sh jar    `make java`: the native libraries (x86-64 and
#                              the aarch64 cross-build) and java/target/fastsm2-jca.jar
#   java/tools/build.sh test   `make test-java`: the same, the JUnit suite on
#                              JDK 17 (Maven's JDK), again on the newest other
#                              JDK >= 21 found (Temurin 25 here), the aarch64
#                              glue checked under qemu, and the README example
#                              run from the jar alone in an empty directory
# Installs what a fresh Debian machine lacks (a JDK, Maven, the aarch64 cross
# compiler and qemu-user); Maven's downloads are cached in ~/.m2.
set -euo pipefail
cd "$(dirname "$0")/../.."
what=${1:-jar}
have() { command -v "$1" >/dev/null 2>&1; }
need=()
have javac || need+=(openjdk-17-jdk-headless)
have mvn || need+=(maven)
have aarch64-linux-gnu-gcc || need+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
if [ "$what" = test ]; then have qemu-aarch64 || have qemu-aarch64-static || need+=(qemu-user); fi
[ ${#need[@]} -eq 0 ] || bash tools/apt-install.sh java "${need[@]}"

t0=$(date +%s)
FS2_JAVA_NEED_AARCH64=1 bash java/tools/build-native.sh x86_64 aarch64
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
      nice -n 10 "${MVN[@]}" surefire:test -Djvm="$other"
      bash java/tools/report.sh java/target/surefire-reports "$("$other" -version 2>&1 | head -n 1)"
    else
      echo "test-java: no JDK >= 21 found: the suite ran on $(java -version 2>&1 | head -n 1) only (SKIPPED on JDK 21+)"
    fi
    bash java/tools/check-aarch64.sh
    bash java/tools/test-example.sh
    ;;
  *) echo "usage: $0 jar|test" >&2; exit 2 ;;
esac
echo "java: $what done in $(( $(date +%s) - t0 )) s"
